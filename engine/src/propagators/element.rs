//! `z = a[i]`: element constraints, the array given as variables (some of them fixed).
//!
//! Indices are 0-based positions in `array`; the post function restricts `i` to them. An
//! index stays while its cell can still equal `z`, and `z` keeps only the values some
//! remaining cell can take. When every cell is fixed this is domain consistent; with
//! variable cells the support test is on domains, the narrowing of `z` on bounds.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::propagator::{Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// `z = array[i]` over an array of variables; posted by [`crate::constraints::element`].
#[derive(Debug, Clone)]
pub struct Element {
    pub(crate) index: VarId,
    pub(crate) array: Vec<VarId>,
    pub(crate) result: VarId,
    /// With every cell fixed, the size of the index's domain when `z` was last narrowed to
    /// the cells' values: while it stays the same (domains only shrink, so the same size is
    /// the same set), `z` needs no second pass. Trailed, as backtracking restores both.
    pub(crate) z_done_at: Option<TrailedInt>,
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
        self.z_done_at = Some(cx.new_int(0));
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
            let done = self.z_done_at.map(|t| cx.int(t));
            if done == Some(cx.size(i) as i64) && !changed {
                return Ok(PropStatus::Active);
            }
            let cells: Vec<VarId> = cx.values(i).map(|p| self.array[p as usize]).collect();
            if cells.iter().all(|&x| cx.is_fixed(x)) {
                // Sorted once, so that each value of z is one binary search, not a scan of
                // the cells (the scan made large constant arrays quadratic).
                let mut values: Vec<Val> = cells.iter().map(|&x| cx.min(x)).collect();
                values.sort_unstable();
                values.dedup();
                changed |= cx.set_min(z, values[0])?;
                changed |= cx.set_max(z, values[values.len() - 1])?;
                changed |= cx.retain(z, |_, v| values.binary_search(&v).is_ok())?;
                if let Some(t) = self.z_done_at {
                    cx.set_int(t, cx.size(i) as i64);
                }
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
