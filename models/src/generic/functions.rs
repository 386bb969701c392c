//! Built-in functions: the integer ones (`sum`, `abs`, `min`, `max`, `count`, `bool2int`),
//! and the names of global constraints the language reserves for later versions, so that
//! using one says "not supported yet" rather than "unknown function".

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::errors::{not_supported, overflow, Result};
use super::linear::Lin;
use super::Compiler;

/// The constraints this version compiles, under their accepted spellings.
pub(crate) const ALL_DIFFERENT: &[&str] = &["alldifferent", "all_different"];

/// Well-known constraints and functions (MiniZinc's names) that a later version adds.
const RESERVED: &[&str] = &["element", "atleast", "atmost", "exactly", "gcc", "product", "pow"];

/// Whether `name` is a constraint or function that is reserved but not compiled yet.
pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// The error for a call of a name that is no function at all.
pub(crate) fn unknown_function(function: &Ident) -> Diagnostic {
    Diagnostic::new(format!("unknown function `{}`", function.node), function.span.clone())
        .with_label("not a function")
        .with_note("functions: `sum`, `abs`, `min`, `max`, `count`, `bool2int`; constraints: `alldifferent`, `table`, `circuit`, `subcircuit`, `cumulative`, `disjunctive`, `diffn`, `increasing`, `decreasing`, `all_equal`, `among`, `nvalue`, `regular`, `inverse`, `lex_less`, `lex_lesseq`, `global_cardinality`")
}

impl Compiler {
    /// The linear form of an integer-valued call.
    pub(crate) fn call_int(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        match function.node.as_str() {
            "sum" => {
                let mut total = Lin::default();
                for (element, _) in self.elements_of_args(args)? {
                    total = total.plus(element, span)?;
                }
                Ok(total)
            }
            "abs" => {
                let [arg] = args else {
                    let message = format!("`abs` takes one argument, not {}", args.len());
                    return Err(Diagnostic::new(message, span.clone()).into());
                };
                let lin = self.linearize(arg)?;
                let Some(v) = lin.as_constant(&arg.span)? else {
                    return self.abs(lin, span);
                };
                Ok(Lin::constant(v.checked_abs().ok_or_else(|| overflow(span.clone()))?))
            }
            name @ ("min" | "max") => {
                let elements = self.elements_of_args(args)?;
                if elements.is_empty() {
                    return Err(Diagnostic::new(format!("`{name}` of an empty list"), span.clone()).into());
                }
                let mut values = Vec::with_capacity(elements.len());
                for (element, element_span) in &elements {
                    values.extend(element.as_constant(element_span)?);
                }
                if values.len() < elements.len() {
                    return self.extremum(elements, name == "max", span);
                }
                let best = if name == "max" { values.into_iter().max() } else { values.into_iter().min() };
                Ok(Lin::constant(best.unwrap_or_default()))
            }
            "count" => self.count(args, span),
            "bool2int" => match args {
                [condition] => self.truth(condition),
                _ => Err(Diagnostic::new("`bool2int` takes one condition", span.clone()).into()),
            },
            name if ALL_DIFFERENT.contains(&name) || name == "table" => {
                let message = format!("`{name}` is a constraint, not an integer expression");
                Err(Diagnostic::new(message, span.clone()).into())
            }
            name if is_reserved(name) => Err(not_supported(format!("`{name}`"), function.span.clone()).into()),
            _ => Err(unknown_function(function).into()),
        }
    }
}
