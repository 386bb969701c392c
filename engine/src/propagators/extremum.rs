//! `z = max(xs)` and `z = min(xs)` with bounds reasoning.
//!
//! For the maximum: `z` lies between the largest minimum and the largest maximum; every
//! `x` is at most `max(z)`; and when a single `x` can still reach `min(z)`, that one must.
//! The minimum is the mirror image, written out rather than through negated views.
//!
//! Each rule explains itself by the bounds it read (for learning, see
//! [`crate::Propagator::explain`]): for the maximum, `z ≥ v` by the one `x ≥ v` that lifts
//! it, `z ≤ v` by every `x ≤ v`, `x ≤ v` by `z ≤ v`, and the last `x` that can reach
//! `min(z)` by `z ≥ min(z)` with every other `x` below it. A failure is an `x` above
//! `max(z)`, or every `x` below `min(z)`. Each reason is cited at the value the literal
//! explained needs, not at the bounds the domains had, so it is as general as it can be.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// `z = max(xs)` or `z = min(xs)` by bounds reasoning; posted by [`crate::constraints::extremum`].
#[derive(Debug, Clone)]
pub struct Extremum {
    pub(crate) result: VarId,
    pub(crate) xs: Vec<VarId>,
    /// `true`: the maximum; `false`: the minimum.
    pub(crate) is_max: bool,
}

impl Extremum {
    fn propagate_max(&self, cx: &mut Context<'_>) -> Result<bool, crate::outcome::Conflict> {
        let z = self.result;
        let mut changed = false;
        let lo = self.xs.iter().map(|&x| cx.min(x)).max().unwrap_or(Val::MIN);
        let hi = self.xs.iter().map(|&x| cx.max(x)).max().unwrap_or(Val::MAX);
        changed |= cx.set_min(z, lo)?;
        changed |= cx.set_max(z, hi)?;
        let top = cx.max(z);
        for &x in &self.xs {
            changed |= cx.set_max(x, top)?;
        }
        let floor = cx.min(z);
        let mut reaching = self.xs.iter().filter(|&&x| cx.max(x) >= floor);
        if let (Some(&only), None) = (reaching.next(), reaching.next()) {
            changed |= cx.set_min(only, floor)?;
        }
        Ok(changed)
    }

    fn propagate_min(&self, cx: &mut Context<'_>) -> Result<bool, crate::outcome::Conflict> {
        let z = self.result;
        let mut changed = false;
        let lo = self.xs.iter().map(|&x| cx.min(x)).min().unwrap_or(Val::MIN);
        let hi = self.xs.iter().map(|&x| cx.max(x)).min().unwrap_or(Val::MAX);
        changed |= cx.set_min(z, lo)?;
        changed |= cx.set_max(z, hi)?;
        let bottom = cx.min(z);
        for &x in &self.xs {
            changed |= cx.set_min(x, bottom)?;
        }
        let ceiling = cx.max(z);
        let mut reaching = self.xs.iter().filter(|&&x| cx.min(x) <= ceiling);
        if let (Some(&only), None) = (reaching.next(), reaching.next()) {
            changed |= cx.set_max(only, ceiling)?;
        }
        Ok(changed)
    }
}

/// `x ≥ v` and `x ≤ v` as the engine's literals say them.
fn at_least(x: VarId, v: Val) -> Literal {
    Literal::Gt(x, v - 1)
}

fn at_most(x: VarId, v: Val) -> Literal {
    Literal::Le(x, v)
}

impl Extremum {
    /// `x ≥ v` for the maximum, `x ≤ v` for the minimum: the side the extremum is pulled to.
    fn toward(&self, x: VarId, v: Val) -> Literal {
        if self.is_max {
            at_least(x, v)
        } else {
            at_most(x, v)
        }
    }

    /// The opposite side: `x ≤ v` for the maximum, `x ≥ v` for the minimum.
    fn away(&self, x: VarId, v: Val) -> Literal {
        if self.is_max {
            at_most(x, v)
        } else {
            at_least(x, v)
        }
    }

    /// The literal's side and value, read as `toward(x, v)` (`Some(true, v)`) or
    /// `away(x, v)` (`Some(false, v)`); `None` for `=` and `≠`, which no rule establishes.
    fn side(&self, lit: Literal) -> Option<(bool, Val)> {
        let (up, v) = match lit {
            Literal::Gt(_, w) => (true, w + 1),
            Literal::Le(_, w) => (false, w),
            Literal::Eq(..) | Literal::Ne(..) => return None,
        };
        Some((up == self.is_max, v))
    }
}

impl Propagator for Extremum {
    fn name(&self) -> &'static str {
        if self.is_max {
            "max"
        } else {
            "min"
        }
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.result, Events::BOUNDS);
        for &x in &self.xs {
            cx.subscribe(x, Events::BOUNDS);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        while if self.is_max { self.propagate_max(cx)? } else { self.propagate_min(cx)? } {}
        let all_fixed = cx.is_fixed(self.result) && self.xs.iter().all(|&x| cx.is_fixed(x));
        Ok(if all_fixed { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// For the maximum (the minimum mirrors it): `z ≥ v` by an `x ≥ v`; `z ≤ v` by every
    /// `x ≤ v`; `x ≤ v` by `z ≤ v`; `x ≥ v` by `z ≥ v` and every other `x ≤ v − 1`. A
    /// variable in two roles tries each; one whose premises did not hold then is not used.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (toward, v) = self.side(lit)?;
        let y = lit.var();
        let z = self.result;
        if y == z {
            if toward {
                // One x already on the far side of v lifts the extremum there.
                if let Some(x) = self.xs.iter().copied().find(|&x| x != z && cx.holds(self.toward(x, v))) {
                    return Some(vec![self.toward(x, v)]);
                }
            } else if self.xs.iter().all(|&x| x != z && cx.holds(self.away(x, v))) {
                return Some(self.xs.iter().map(|&x| self.away(x, v)).collect());
            }
        }
        if !self.xs.contains(&y) {
            return None;
        }
        if !toward {
            // No x passes the extremum.
            let cause = self.away(z, v);
            return (z != y && cx.holds(cause)).then(|| vec![cause]);
        }
        // The only x left that can reach the extremum's bound must reach it.
        let beyond = |x: VarId| self.away(x, if self.is_max { v - 1 } else { v + 1 });
        let mut reason = vec![self.toward(z, v)];
        if z == y || !cx.holds(reason[0]) {
            return None;
        }
        for &x in &self.xs {
            if x != y {
                if x == z || !cx.holds(beyond(x)) {
                    return None;
                }
                reason.push(beyond(x));
            }
        }
        Some(reason)
    }

    /// For the maximum: an `x` above `max(z)`, or every `x` below `min(z)` (the minimum
    /// mirrors both).
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let z = self.result;
        if self.xs.contains(&z) {
            return None;
        }
        // The extremum's far bound, and a variable past it.
        let far = if self.is_max { cx.max(z) } else { cx.min(z) };
        let step = if self.is_max { 1 } else { -1 };
        if let Some(&x) = self.xs.iter().find(|&&x| cx.holds(self.toward(x, far + step))) {
            return Some(vec![self.toward(x, far + step), self.away(z, far)]);
        }
        // The extremum's near bound, and every variable short of it.
        let near = if self.is_max { cx.min(z) } else { cx.max(z) };
        if self.xs.iter().all(|&x| cx.holds(self.away(x, near - step))) {
            let mut reason: Vec<Literal> = self.xs.iter().map(|&x| self.away(x, near - step)).collect();
            reason.push(self.toward(z, near));
            return Some(reason);
        }
        None
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let values = self.xs.iter().map(|&x| value(x));
        let best = if self.is_max { values.max() } else { values.min() };
        best == Some(value(self.result))
    }

    fn vars(&self) -> Vec<VarId> {
        let mut vars = vec![self.result];
        vars.extend(&self.xs);
        vars
    }
}
