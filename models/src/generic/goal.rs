//! What to search for: the `solve` mode, an objective (`minimize` / `maximize`), and the
//! search options of a generic model (`option var-order = first_fail | input_order |
//! dom_w_deg`, `option val-order = min | max | middle | split`, MiniZinc's names), and
//! the strength of `alldifferent` (`option alldifferent = value | bounds | domain`).

use cpsolve_dsl::ast::{Expr, Ident, OptionValue, Sense, SolveMode, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Consistency, ValOrder, VarOrder};

use super::errors::Result;
use super::Compiler;
use crate::options::{word_option, UnknownOption};

/// The option names of a generic model.
const OPTIONS: &[&str] = &["var-order", "val-order", "alldifferent"];

impl Compiler {
    pub(crate) fn set_mode(&mut self, mode: &Spanned<SolveMode>) -> Result<()> {
        once("`solve`", &mut self.mode_span, &mode.span)?;
        self.mode = mode.node;
        Ok(())
    }

    /// The objective becomes a variable equal to the expression, which branch and bound
    /// tightens after each solution.
    pub(crate) fn set_objective(&mut self, sense: &Spanned<Sense>, objective: &Spanned<Expr>) -> Result<()> {
        once("an objective", &mut self.objective_span, &sense.span)?;
        let lin = self.linearize(objective)?.normalized(&objective.span)?;
        let var = match lin.as_offset_var() {
            Some((x, 0)) => x,
            _ => self.equal_var(&lin, &objective.span)?,
        };
        let sense = match sense.node {
            Sense::Minimize => cpsolve_engine::Sense::Minimize,
            Sense::Maximize => cpsolve_engine::Sense::Maximize,
        };
        self.objective = Some((var, sense));
        Ok(())
    }

    pub(crate) fn set_option(&mut self, name: &Ident, values: &[Spanned<OptionValue>]) -> Result<()> {
        match name.node.as_str() {
            "var-order" => {
                self.var_order = match word_option(name, values, &["first_fail", "input_order", "dom_w_deg"])? {
                    "input_order" => VarOrder::Input,
                    "dom_w_deg" => VarOrder::DomWdeg,
                    _ => VarOrder::SmallestDomain,
                };
            }
            "val-order" => {
                self.val_order = match word_option(name, values, &["min", "max", "middle", "split"])? {
                    "max" => ValOrder::Max,
                    "middle" => ValOrder::MiddleOut,
                    "split" => ValOrder::Split,
                    _ => ValOrder::Min,
                };
            }
            "alldifferent" => {
                self.all_different_consistency =
                    Some(match word_option(name, values, &["value", "bounds", "domain"])? {
                        "value" => Consistency::Value,
                        "bounds" => Consistency::Bounds,
                        _ => Consistency::Domain,
                    });
            }
            _ => return Err(Diagnostic::from(UnknownOption { name, known: OPTIONS }).into()),
        }
        Ok(())
    }
}

/// A statement that may appear once: the second one is an error.
fn once(what: &str, seen: &mut Option<Span>, span: &Span) -> Result<()> {
    if seen.is_some() {
        let message = format!("{what} is given twice");
        return Err(Diagnostic::new(message, span.clone()).with_label("a model has only one").into());
    }
    *seen = Some(span.clone());
    Ok(())
}
