//! `z = f(x)` for a non-decreasing function `f` (division by a positive constant), by
//! bounds reasoning: for domains too wide to tabulate.
//!
//! Since `f` never decreases, `z` lies in `[f(min x), f(max x)]`, and `x` keeps only the
//! values whose image can lie in `[min z, max z]`: from the smallest `v` with
//! `f(v) >= min z` to the largest with `f(v) <= max z`, both found by binary search over
//! the bounds of `x`. This is bounds consistency on both variables when the domains have
//! no holes.

use crate::domain::Val;
use crate::ids::VarId;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// `z = f(x)` for a non-decreasing `f`, by bounds reasoning; posted by [`crate::constraints::div_by_constant`] for wide domains.
pub struct Monotone {
    pub(crate) x: VarId,
    pub(crate) z: VarId,
    pub(crate) f: Box<dyn Fn(Val) -> Val + Send>,
    pub(crate) name: &'static str,
}

impl std::fmt::Debug for Monotone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Monotone({}: {:?} -> {:?})", self.name, self.x, self.z)
    }
}

impl Monotone {
    /// The smallest `v` in `[lo, hi]` with `f(v) >= target`, if any.
    fn first_at_least(&self, lo: Val, hi: Val, target: Val) -> Option<Val> {
        if (self.f)(hi) < target {
            return None;
        }
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if (self.f)(mid) >= target {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        Some(a)
    }

    /// The largest `v` in `[lo, hi]` with `f(v) <= target`, if any.
    fn last_at_most(&self, lo: Val, hi: Val, target: Val) -> Option<Val> {
        if (self.f)(lo) > target {
            return None;
        }
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a + 1) / 2;
            if (self.f)(mid) <= target {
                a = mid;
            } else {
                b = mid - 1;
            }
        }
        Some(a)
    }
}

impl Propagator for Monotone {
    fn name(&self) -> &'static str {
        self.name
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, Events::BOUNDS);
        cx.subscribe(self.z, Events::BOUNDS);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (x, z) = (self.x, self.z);
        loop {
            let mut changed = cx.set_min(z, (self.f)(cx.min(x)))?;
            changed |= cx.set_max(z, (self.f)(cx.max(x)))?;
            let (lo, hi) = (cx.min(x), cx.max(x));
            let first = self.first_at_least(lo, hi, cx.min(z)).ok_or(Conflict)?;
            let last = self.last_at_most(lo, hi, cx.max(z)).ok_or(Conflict)?;
            changed |= cx.set_min(x, first)?;
            changed |= cx.set_max(x, last)?;
            if !changed {
                break;
            }
        }
        if cx.is_fixed(x) {
            let _ = cx.assign(z, (self.f)(cx.min(x)))?;
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        (self.f)(value(self.x)) == value(self.z)
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}
