//! `if c1 then a elseif c2 then b else e endif` where a condition depends on variables (an
//! `if` whose conditions are constants is decided at compile time, see `scope.rs`).
//!
//! Each branch is taken under a *guard*: its condition and the failure of every condition
//! before it (`¬c1 ∧ c2` for the second), the `else` under the failure of all. The guards
//! are exclusive and one holds, so
//! - as a constraint, each branch is posted under its guard: `guard → branch`;
//! - as a condition, the truth is `Σ guard ∧ branch`;
//! - as an integer, a new variable `v` with `guard → v = branch` for each branch. A branch
//!   that may have no value (an index out of range) is required to have one only where it
//!   is taken.
//!
//! An `if` without `else` is a condition whose missing `else` is `true` (MiniZinc's rule).

use cpsolve_dsl::ast::{Expr, Span, Spanned};
use cpsolve_engine::Rel;

use super::errors::Result;
use super::linear::Lin;
use super::reify::not;
use super::Compiler;

/// A branch's guard, and its value (`None`: a left-out `else`).
type Guarded<'a> = (Lin, Option<&'a Spanned<Expr>>);

/// The branches of an `if`: (condition, value) pairs, then the `else` value if written.
type Branches<'a> = (&'a [(Spanned<Expr>, Spanned<Expr>)], Option<&'a Spanned<Expr>>);

impl Compiler {
    /// The guard of each branch, the `else` last (`None` when it is left out).
    fn guards<'a>(&mut self, (branches, otherwise): Branches<'a>, span: &Span) -> Result<Vec<Guarded<'a>>> {
        let mut guards = Vec::with_capacity(branches.len() + 1);
        let mut rest = Lin::constant(1);
        for (condition, value) in branches {
            let c = self.truth(condition)?;
            let guard = self.conjunction(rest.clone(), c.clone(), span)?;
            rest = self.conjunction(rest, not(c, span)?, span)?;
            if guard.as_constant(span)? != Some(0) {
                guards.push((guard, Some(value)));
            }
            if rest.as_constant(span)? == Some(0) {
                return Ok(guards);
            }
        }
        guards.push((rest, otherwise));
        Ok(guards)
    }

    /// Posts an `if` as a constraint: each branch under its guard.
    pub(crate) fn post_if(
        &mut self,
        branches: &[(Spanned<Expr>, Spanned<Expr>)],
        otherwise: Option<&Spanned<Expr>>,
        span: &Span,
    ) -> Result<()> {
        for (guard, value) in self.guards((branches, otherwise), span)? {
            let Some(value) = value else { continue };
            if guard.as_constant(span)? == Some(1) {
                self.post(value)?;
                continue;
            }
            let t = self.truth(value)?;
            // guard → t
            self.post_lin(&guard.minus(t, span)?, Rel::Le, 0, span)?;
        }
        Ok(())
    }

    /// The truth of an `if` whose branches are conditions.
    pub(crate) fn if_truth(
        &mut self,
        branches: &[(Spanned<Expr>, Spanned<Expr>)],
        otherwise: Option<&Spanned<Expr>>,
        span: &Span,
    ) -> Result<Lin> {
        let mut total = Lin::default();
        for (guard, value) in self.guards((branches, otherwise), span)? {
            let t = match value {
                Some(value) => self.truth(value)?,
                None => Lin::constant(1),
            };
            let taken = self.conjunction(guard, t, span)?;
            total = total.plus(taken, span)?;
        }
        Ok(total)
    }

    /// The value of an `if` whose branches are integers.
    pub(crate) fn if_value(
        &mut self,
        branches: &[(Spanned<Expr>, Spanned<Expr>)],
        otherwise: Option<&Spanned<Expr>>,
        span: &Span,
    ) -> Result<Lin> {
        let mut values = Vec::new();
        let mut undefined = None;
        for (guard, value) in self.guards((branches, otherwise), span)? {
            let Some(value) = value else { continue };
            match self.defined_when(&guard, span, |cx| cx.linearize(value))? {
                Ok(lin) => values.push((guard, lin)),
                Err(diagnostic) => undefined = undefined.or(Some(diagnostic)),
            }
        }
        match values.as_slice() {
            [] => {
                // No branch has a value: neither has the `if` (the first reason is told).
                let diagnostic = undefined.unwrap_or_else(|| {
                    cpsolve_dsl::Diagnostic::new("no branch of this `if` has a value", span.clone())
                });
                return Err(super::errors::Fault::Undefined(diagnostic));
            }
            [(guard, lin)] if guard.as_constant(span)? == Some(1) => return Ok(lin.clone()),
            _ => {}
        }
        let mut lo = i128::MAX;
        let mut hi = i128::MIN;
        for (_, lin) in &values {
            let (l, h) = lin.bounds(&self.solver);
            lo = lo.min(l);
            hi = hi.max(h);
        }
        // A fresh variable over the union of the branches' ranges.
        let v = Lin::var(self.aux_var(lo, hi, span)?);
        for (guard, lin) in values {
            let same = self.reified(&v.clone().minus(lin, span)?, Rel::Eq, span)?;
            // guard → v = branch
            self.post_lin(&guard.minus(same, span)?, Rel::Le, 0, span)?;
        }
        Ok(v)
    }
}
