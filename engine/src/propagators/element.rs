//! `z = a[i]`: element constraints, the array given as variables (some of them fixed).
//!
//! Indices are 0-based positions in `array`; the post function restricts `i` to them. An
//! index stays while its cell can still equal `z`, and `z` keeps only the values some
//! remaining cell can take. When every cell is fixed this is domain consistent; with
//! variable cells the support test is on domains, the narrowing of `z` on bounds.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Context, Events, PostContext, PropResult, PropStatus, Propagator};

#[derive(Debug, Clone)]
pub struct Element {
    pub(crate) index: VarId,
    pub(crate) array: Vec<VarId>,
    pub(crate) result: VarId,
}

impl Element {
    /// Whether cell `x` and `z` share a value (a cheap bounds test first).
    fn overlaps(cx: &Context<'_>, x: VarId, z: VarId) -> bool {
        if cx.max(x) < cx.min(z) || cx.min(x) > cx.max(z) {
            return false;
        }
        let (small, large) = if cx.size(x) <= cx.size(z) { (x, z) } else { (z, x) };
        cx.values(small).any(|v| cx.contains(large, v))
    }
}

impl Propagator for Element {
    fn name(&self) -> &'static str {
        "element"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.index, Events::DOMAIN);
        cx.subscribe(self.result, Events::DOMAIN);
        for &x in &self.array {
            cx.subscribe(x, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (i, z) = (self.index, self.result);
        loop {
            let array = &self.array;
            let mut changed = cx.retain(i, |cx, p| Element::overlaps(cx, array[p as usize], z))?;
            if cx.is_fixed(i) {
                // z = x: both keep the common values.
                let x = self.array[cx.min(i) as usize];
                for (from, to) in [(x, z), (z, x), (x, z)] {
                    let _ = cx.set_min(to, cx.min(from))?;
                    let _ = cx.set_max(to, cx.max(from))?;
                }
                for (from, to) in [(x, z), (z, x)] {
                    let _ = cx.retain(to, |cx, v| cx.contains(from, v))?;
                }
                return Ok(if cx.is_fixed(x) { PropStatus::Entailed } else { PropStatus::Active });
            }
            // z keeps the values of the remaining cells (exactly, when they are all fixed).
            let cells: Vec<VarId> = cx.values(i).map(|p| self.array[p as usize]).collect();
            if cells.iter().all(|&x| cx.is_fixed(x)) {
                changed |= cx.retain(z, |cx, v| cells.iter().any(|&x| cx.min(x) == v))?;
            } else {
                let lo = cells.iter().map(|&x| cx.min(x)).min().unwrap_or(Val::MIN);
                let hi = cells.iter().map(|&x| cx.max(x)).max().unwrap_or(Val::MAX);
                changed |= cx.set_min(z, lo)?;
                changed |= cx.set_max(z, hi)?;
            }
            if !changed {
                return Ok(PropStatus::Active);
            }
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let p = value(self.index);
        usize::try_from(p).ok().and_then(|p| self.array.get(p)).is_some_and(|&x| value(x) == value(self.result))
    }

    fn vars(&self) -> Vec<VarId> {
        let mut vars = vec![self.index, self.result];
        vars.extend(&self.array);
        vars
    }
}
