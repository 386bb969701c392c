//! `z = a[i]`: element constraints, the array given as variables (some of them fixed).
//!
//! Indices are 0-based positions in `array`; the post function restricts `i` to them. An
//! index stays while its cell can still equal `z`, and `z` keeps only the values some
//! remaining cell can take. When every cell is fixed this is domain consistent; with
//! variable cells the support test is on domains, the narrowing of `z` on bounds.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::reasons::{cite, disjoint, exclude, mirror};

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
    /// Scratch: the values of the remaining cells when all are fixed (meaningless between
    /// calls, so not trailed).
    pub(crate) values: Vec<Val>,
}

/// What a cell must share with `z`, read once per pass over the cells rather than once per
/// cell: with 20 or more cells a pass reads `z` far more often than any cell.
#[derive(Clone, Copy)]
enum Target {
    /// `z` is fixed: a cell supports it when it still holds this value (a routing model's
    /// `successor[k] = i` channelling is mostly this).
    Value(Val),
    /// `z`'s values within 64 of its minimum, as the bits of one word from there.
    Window(Val, u64),
    /// `z` spans more than 64 values: the cells are compared with it one by one.
    Wide,
}

impl Target {
    #[inline]
    fn of(cx: &Context<'_>, z: VarId) -> Target {
        let (lo, hi) = cx.bounds(z);
        if lo == hi {
            Target::Value(lo)
        } else if hi - lo < 64 {
            Target::Window(lo, cx.window(z, lo))
        } else {
            Target::Wide
        }
    }

    /// Whether cell `x` can still equal `z`.
    #[inline]
    fn supported_by(self, cx: &Context<'_>, x: VarId, z: VarId) -> bool {
        match self {
            Target::Value(v) => cx.contains(x, v),
            Target::Window(lo, bits) => {
                let (x_lo, x_hi) = cx.bounds(x);
                x_hi >= lo && x_lo <= lo + 63 && cx.window(x, lo) & bits != 0
            }
            Target::Wide => cx.overlaps(x, z),
        }
    }
}

impl Element {
    /// The index is fixed: `z = x` for its cell `x`, and both keep their common values.
    fn fixed_index(&self, cx: &mut Context<'_>) -> PropResult {
        let x = self.array[cx.min(self.index) as usize];
        cx.intersect(x, self.result)?;
        Ok(if cx.is_fixed(x) { PropStatus::Entailed } else { PropStatus::Active })
    }

    /// With every remaining cell fixed, `z` keeps exactly their values (`self.values`, filled
    /// by the caller with the `count` cells' values), and the count is noted so that the same
    /// positions need no second look. Whether `z` changed.
    fn narrow_to_cell_values(&mut self, cx: &mut Context<'_>, count: u64) -> Result<bool, Conflict> {
        // Sorted once, so that each value of z is one binary search, not a scan of the cells
        // (the scan made large constant arrays quadratic). The list is kept in `self`
        // between calls, so that no call allocates.
        let mut values = std::mem::take(&mut self.values);
        values.sort_unstable();
        values.dedup();
        let narrowed = cx.retain(self.result, |_, v| values.binary_search(&v).is_ok());
        self.values = values;
        if let Some(t) = self.z_done_at {
            cx.set_int(t, count as i64);
        }
        narrowed
    }

    /// The same rules for an array of at most 64 cells, in one pass over the index's
    /// positions (a word) per round: the support test, the remaining cells' bounds and
    /// whether they are all fixed come out together, and the unsupported positions leave at
    /// once. A routing model wakes each of its element constraints dozens of times a node,
    /// mostly for nothing, so the cost of a call that changes nothing is what counts.
    fn propagate_small(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (i, z) = (self.index, self.result);
        loop {
            let target = Target::of(cx, z);
            let positions = cx.window(i, 0);
            let (mut kept, mut lo, mut hi, mut all_fixed) = (0u64, Val::MAX, Val::MIN, true);
            let mut rest = positions;
            while rest != 0 {
                let p = rest.trailing_zeros();
                rest &= rest - 1;
                let x = self.array[p as usize];
                if target.supported_by(cx, x, z) {
                    kept |= 1 << p;
                    let (x_lo, x_hi) = cx.bounds(x);
                    lo = lo.min(x_lo);
                    hi = hi.max(x_hi);
                    all_fixed &= x_lo == x_hi;
                }
            }
            if kept != positions {
                let _ = cx.keep_window(i, 0, kept)?;
            }
            if kept & (kept - 1) == 0 {
                return self.fixed_index(cx);
            }
            if let Target::Value(_) = target {
                // Every remaining cell holds z's one value: z has nothing to lose.
                return Ok(PropStatus::Active);
            }
            let (z_lo, z_hi) = cx.bounds(z);
            let mut narrowed = lo > z_lo && cx.set_min(z, lo)?;
            narrowed |= hi < z_hi && cx.set_max(z, hi)?;
            // With every remaining cell fixed, z keeps exactly their values; the same
            // positions as at the last time (domains only shrink) need no second look.
            if all_fixed && self.z_done_at.map(|t| cx.int(t)) != Some(kept.count_ones() as i64) {
                self.values.clear();
                let mut rest = kept;
                while rest != 0 {
                    self.values.push(cx.min(self.array[rest.trailing_zeros() as usize]));
                    rest &= rest - 1;
                }
                narrowed |= self.narrow_to_cell_values(cx, kept.count_ones().into())?;
            }
            // A narrower z may leave some cells without support: one more round.
            if !narrowed {
                return Ok(PropStatus::Active);
            }
        }
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
        if self.array.len() <= 64 {
            return self.propagate_small(cx);
        }
        let (i, z) = (self.index, self.result);
        loop {
            let array = &self.array;
            let target = Target::of(cx, z);
            let mut changed = cx.retain(i, |cx, p| target.supported_by(cx, array[p as usize], z))?;
            if cx.is_fixed(i) {
                return self.fixed_index(cx);
            }
            if let Target::Value(_) = target {
                // Every remaining cell holds z's one value: z has nothing to lose, and the
                // index's support did not change (it depends on the cells and z only).
                return Ok(PropStatus::Active);
            }
            // z keeps the values of the remaining cells (exactly, when they are all fixed).
            let done = self.z_done_at.map(|t| cx.int(t));
            if done == Some(cx.size(i) as i64) && !changed {
                return Ok(PropStatus::Active);
            }
            // One pass over the remaining cells: their bounds, and whether all are fixed.
            let (mut lo, mut hi, mut all_fixed) = (Val::MAX, Val::MIN, true);
            for p in cx.values(i) {
                let (x_lo, x_hi) = cx.bounds(self.array[p as usize]);
                lo = lo.min(x_lo);
                hi = hi.max(x_hi);
                all_fixed &= x_lo == x_hi;
            }
            changed |= cx.set_min(z, lo)?;
            changed |= cx.set_max(z, hi)?;
            if all_fixed {
                self.values.clear();
                self.values.extend(cx.values(i).map(|p| cx.min(self.array[p as usize])));
                changed |= self.narrow_to_cell_values(cx, cx.size(i))?;
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

    /// A variable may play two roles (index and cell, cell and result): each role's reason
    /// is tried in turn, and each checks its premises on the domains then.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let x = lit.var();
        let mut out = Vec::new();
        if x == self.index && self.explain_index(lit, cx, &mut out) {
            return Some(out);
        }
        out.clear();
        if x == self.result && self.explain_result(lit, cx, &mut out) {
            return Some(out);
        }
        out.clear();
        // A cell narrowed to `z` once the index chose it: `i = p` and `z`'s side of it.
        if cx.min(self.index) == cx.max(self.index) {
            let p = cx.min(self.index);
            if self.array.get(p as usize) == Some(&x) && cite(cx, mirror(lit, self.result), &mut out) {
                out.push(Literal::Eq(self.index, p));
                return Some(out);
            }
        }
        None
    }

    /// Every position the index may take holds a cell that shares no value with `z`.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        let mut excluded = Vec::new();
        for (p, &x) in self.array.iter().enumerate() {
            if !cx.contains(self.index, p as Val) {
                excluded.push(p as Val);
            } else if !disjoint(cx, x, self.result, &mut out) {
                return None;
            }
        }
        exclude(cx, self.index, &excluded, &mut out).then_some(out)
    }
}

impl Element {
    /// The index lost positions (`lit` on the index): each one it lost that it still had
    /// then holds a cell disjoint from `z`; the others it had lost already.
    fn explain_index(&self, lit: Literal, cx: &ExplainContext<'_>, out: &mut Vec<Literal>) -> bool {
        let mut excluded = Vec::new();
        for (p, &x) in self.array.iter().enumerate() {
            let p = p as Val;
            if lit.holds_for(p) {
                continue;
            }
            if !cx.contains(self.index, p) {
                excluded.push(p);
            } else if !disjoint(cx, x, self.result, out) {
                return false;
            }
        }
        exclude(cx, self.index, &excluded, out)
    }

    /// `z` narrowed to what the cells allow (`lit` on `z`): every position the index may
    /// take holds a cell that satisfies `lit`; the others are excluded from the index.
    fn explain_result(&self, lit: Literal, cx: &ExplainContext<'_>, out: &mut Vec<Literal>) -> bool {
        let mut excluded = Vec::new();
        for (p, &x) in self.array.iter().enumerate() {
            if !cx.contains(self.index, p as Val) {
                excluded.push(p as Val);
            } else if !cite(cx, mirror(lit, x), out) {
                return false;
            }
        }
        exclude(cx, self.index, &excluded, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// `z = [x0, x1, x2][i]` with `i` variable 0, `z` variable 1, the cells 2, 3, 4.
    fn element() -> Element {
        Element { index: var(0), array: vec![var(2), var(3), var(4)], result: var(1), z_done_at: None, values: vec![] }
    }

    const RANGES: [(Val, Val); 5] = [(0, 2), (0, 9), (0, 9), (0, 9), (0, 9)];

    #[test]
    fn a_position_leaves_for_its_cell_apart_from_z_alone() {
        let past = Past::new(&RANGES, &[Literal::Le(var(2), 3), Literal::Gt(var(1), 5), Literal::Ne(var(3), 7)]);
        let reason = element().explain(Literal::Ne(var(0), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Le(var(2), 3), Literal::Gt(var(1), 3)]));
    }

    #[test]
    fn z_rises_to_the_cells_the_index_still_reaches() {
        let past = Past::new(
            &RANGES,
            &[Literal::Gt(var(0), 0), Literal::Gt(var(3), 4), Literal::Gt(var(4), 6), Literal::Le(var(2), 1)],
        );
        let reason = element().explain(Literal::Gt(var(1), 4), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Gt(var(3), 4), Literal::Gt(var(4), 4), Literal::Gt(var(0), 0)]));
    }

    #[test]
    fn a_chosen_cell_follows_z() {
        let past = Past::new(&RANGES, &[Literal::Eq(var(0), 1), Literal::Ne(var(1), 3), Literal::Ne(var(2), 3)]);
        let reason = element().explain(Literal::Ne(var(3), 3), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Ne(var(1), 3), Literal::Eq(var(0), 1)]));
    }

    #[test]
    fn a_conflict_cites_each_reachable_cell_apart_from_z() {
        let past = Past::new(
            &RANGES,
            &[Literal::Le(var(0), 1), Literal::Le(var(2), 2), Literal::Le(var(3), 4), Literal::Gt(var(1), 6)],
        );
        let reason = element().explain_conflict(&past.cx());
        let expected = vec![
            Literal::Le(var(2), 2),
            Literal::Gt(var(1), 2),
            Literal::Le(var(3), 4),
            Literal::Gt(var(1), 4),
            Literal::Le(var(0), 1),
        ];
        assert_eq!(reason, Some(expected));
    }
}
