//! MiniZinc's constraint wrappers: `symmetry_breaking_constraint(c)`,
//! `redundant_constraint(c)` and `implied_constraint(c)` mean `c`.
//!
//! MiniZinc's library defines them as the identity on a condition, so that a solver may
//! treat the constraints they mark apart (drop the symmetry-breaking ones when asked for all
//! solutions, for instance); a model means exactly its argument. The compiler sees through
//! them in every place a condition may stand ([`Compiler::unfold`]), so that the argument
//! is posted, reified or negated as it would be written bare.

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::errors::Result;

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
