//! MiniZinc's constraint wrappers: `symmetry_breaking_constraint(c)`,
//! `redundant_constraint(c)` and `implied_constraint(c)` mean `c`; and its `assert`:
//! `assert(cond, "message")` is `true` and `assert(cond, "message", e)` is `e`, once `cond`,
//! a condition over constants, is checked while the model is compiled (false, the message
//! is the error, at the `assert`).
//!
//! MiniZinc's library defines them as the identity on a condition, so that a solver may
//! treat the constraints they mark apart (drop the symmetry-breaking ones when asked for all
//! solutions, for instance); a model means exactly its argument. The compiler sees through
//! them in every place a condition may stand ([`Compiler::unfold`]), so that the argument
//! is posted, reified or negated as it would be written bare.

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::errors::Result;
use super::Compiler;

/// The wrappers, each the identity on its one condition.
pub(crate) const CONSTRAINT_WRAPPERS: &[&str] =
    &["symmetry_breaking_constraint", "redundant_constraint", "implied_constraint"];

/// Whether `name` is one of the wrappers.
pub(crate) fn is_wrapper(name: &str) -> bool {
    CONSTRAINT_WRAPPERS.contains(&name)
}

/// The condition a wrapper call stands for: its one argument.
pub(crate) fn wrapped<'a>(function: &Ident, args: &'a [Spanned<Expr>], span: &Span) -> Result<&'a Spanned<Expr>> {
    match args {
        [condition] => Ok(condition),
        _ => Err(Diagnostic::new(
            format!("`{}` takes one constraint, not {} arguments", function.node, args.len()),
            span.clone(),
        )
        .with_note(format!("e.g. `constraint {}(x[1] < x[2])`", function.node))
        .into()),
    }
}

impl Compiler {
    /// Checks MiniZinc's `assert(cond, "message"[, e])`: `Some(e)`, or `None` for the
    /// two-argument form (which stands for `true`).
    pub(crate) fn checked_assert<'a>(
        &mut self,
        args: &'a [Spanned<Expr>],
        span: &Span,
    ) -> Result<Option<&'a Spanned<Expr>>> {
        let (condition, message, value) = match args {
            [condition, message] => (condition, message, None),
            [condition, message, value] => (condition, message, Some(value)),
            _ => {
                return Err(Diagnostic::new("`assert` takes a condition, a message and maybe a value", span.clone())
                    .with_note("e.g. `assert(n >= 1, \"n must be positive\")`")
                    .into())
            }
        };
        let Expr::Str(text) = &message.node else {
            return Err(super::errors::expected("a message in quotes", "an expression", message.span.clone()).into());
        };
        if self.mentions_var(condition) {
            return Err(Diagnostic::new(
                "`assert` checks constants, and this depends on variables",
                condition.span.clone(),
            )
            .with_note("state a condition over variables as a constraint")
            .into());
        }
        if self.eval_bool(condition)? {
            return Ok(value);
        }
        Err(Diagnostic::new(format!("assertion failed: {text}"), span.clone())
            .with_label("this condition is false")
            .into())
    }
}
