//! `z = max(xs)` and `z = min(xs)` with bounds reasoning.
//!
//! For the maximum: `z` lies between the largest minimum and the largest maximum; every
//! `x` is at most `max(z)`; and when a single `x` can still reach `min(z)`, that one must.
//! The minimum is the mirror image, written out rather than through negated views.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// `z = max(xs)` or `z = min(xs)` by bounds reasoning; posted by [`crate::constraints::extremum`].
#[derive(Debug, Clone)]
pub struct Extremum {
    pub(crate) result: VarId,
    pub(crate) xs: Vec<VarId>,
    /// `true`: the maximum; `false`: the minimum.
    pub(crate) is_max: bool,
}

impl Extremum {
    fn propagate_max(&self, cx: &mut Context<'_>) -> Result<bool, crate::propagator::Conflict> {
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

    fn propagate_min(&self, cx: &mut Context<'_>) -> Result<bool, crate::propagator::Conflict> {
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
