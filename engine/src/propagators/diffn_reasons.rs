//! Explanations of [`super::Diffn`]: the bounds of the one pair of rectangles that forced a
//! change.
//!
//! Every deduction of the propagator comes from one pair `i`, `j` that cannot be apart in
//! the other dimension `e` (in both orders, one cannot end before the other starts:
//! `lo + len > hi` of the other) and so must be apart in dimension `d`. Asked why a bound
//! or a value of `i` in `d` went, the pairs are tried again on the domains as they were
//! just before (an [`ExplainContext`]), and the first that gives the change is cited:
//! - *in `e`*, for each order, `oₐ ≥ hi_b − lenₐ + 1`, `sₐ ≥ lenₐ`, `o_b ≤ hi_b` (the weakest
//!   start that still cannot end in time);
//! - *an order in `d`* (`j` cannot come first there, so `i` does, or the reverse), that
//!   order's impossibility the same way, and the bounds of the other rectangle the new
//!   bound is computed from;
//! - *a compulsory part in `d`* (`j` covers `[hi_j, lo_j + len_j)` wherever it goes, and
//!   `i` keeps out of it), for a value cut out of `i`'s origin: `j`'s bounds and size and
//!   `i`'s size (a bound pushed across such a part is an order's, cited as one);
//! - with `strict` off, that no side of either rectangle can be 0 (a flat one may go
//!   anywhere, so the propagator only reasons on pairs without).
//!
//! A conflict is a pair that can be apart in neither dimension. Anything else (a domain
//! emptied by a hole skipped) gets the naive explanation.

use super::reasons::exclude;
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::propagator::Context;

/// One rectangle in one dimension, read from the domains (now, or as they were for an
/// explanation).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    pub(crate) origin: VarId,
    pub(crate) size: VarId,
    /// Earliest and latest origin, smallest size.
    pub(crate) lo: Val,
    pub(crate) hi: Val,
    pub(crate) len: Val,
}

impl Side {
    pub(crate) fn read(cx: &Context<'_>, origin: VarId, size: VarId) -> Side {
        Side { origin, size, lo: cx.min(origin), hi: cx.max(origin), len: cx.min(size) }
    }

    /// Whether this side can still end before `other` starts.
    pub(crate) fn can_precede(&self, other: &Side) -> bool {
        self.lo + self.len <= other.hi
    }
}

/// The variables of a diffn: `origins[d][i]`, `sizes[d][i]` for rectangle `i` in
/// dimension `d`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Boxes<'a> {
    pub(crate) origins: &'a [Vec<VarId>; 2],
    pub(crate) sizes: &'a [Vec<VarId>; 2],
    pub(crate) strict: bool,
}

impl Side {
    /// Literals saying this side cannot end before `other` starts, if so.
    fn cannot_precede(&self, other: &Side, out: &mut Vec<Literal>) -> bool {
        let holds = self.lo + self.len > other.hi;
        if holds {
            out.extend([
                Literal::Gt(self.origin, other.hi - self.len),
                Literal::Gt(self.size, self.len - 1),
                Literal::Le(other.origin, other.hi),
            ]);
        }
        holds
    }
}

impl Boxes<'_> {
    fn side(&self, cx: &ExplainContext<'_>, d: usize, i: usize) -> Side {
        let (origin, size) = (self.origins[d][i], self.sizes[d][i]);
        Side { origin, size, lo: cx.min(origin), hi: cx.max(origin), len: cx.min(size) }
    }

    /// Literals saying `i` and `j` cannot be apart in dimension `e` (and, unless strict,
    /// that neither is flat), if so.
    fn joined(&self, cx: &ExplainContext<'_>, e: usize, i: usize, j: usize, out: &mut Vec<Literal>) -> bool {
        let start = out.len();
        let (a, b) = (self.side(cx, e, i), self.side(cx, e, j));
        let joined = a.cannot_precede(&b, out)
            && b.cannot_precede(&a, out)
            && (self.strict || [i, j].iter().all(|&k| (0..2).all(|d| exclude(cx, self.sizes[d][k], &[0], out))));
        if !joined {
            out.truncate(start);
        }
        joined
    }

    /// Why the pair `i`, `j` in dimension `d`, kept apart there, gives `lit` on `i`'s
    /// origin or size there.
    fn by_pair(&self, cx: &ExplainContext<'_>, lit: Literal, d: usize, i: usize, j: usize) -> Option<Vec<Literal>> {
        let (a, b) = (self.side(cx, d, i), self.side(cx, d, j));
        let mut out = Vec::new();
        let on_origin = lit.var() == a.origin;
        // `b` first: a ≥ b.lo + b.len.
        let mut after = Vec::new();
        if on_origin && a.cannot_precede(&b, &mut after) {
            if let Literal::Gt(_, v) = lit {
                if b.lo + b.len > v {
                    out.extend(after);
                    out.extend([Literal::Gt(b.origin, v - b.len), Literal::Gt(b.size, b.len - 1)]);
                    return Some(out);
                }
            }
        }
        // `a` first: a ≤ b.hi − a.len and a.size ≤ b.hi − a.lo.
        let mut before = Vec::new();
        if b.cannot_precede(&a, &mut before) {
            match lit {
                Literal::Le(_, v) if on_origin && b.hi - a.len <= v => {
                    out.extend(before);
                    out.extend([Literal::Le(b.origin, v + a.len), Literal::Gt(a.size, a.len - 1)]);
                    return Some(out);
                }
                Literal::Le(x, v) if x == a.size && b.hi - a.lo <= v => {
                    out.extend(before);
                    out.extend([Literal::Le(b.origin, b.hi), Literal::Gt(a.origin, a.lo - 1)]);
                    return Some(out);
                }
                _ => {}
            }
        }
        if !on_origin {
            return None;
        }
        // b's compulsory part [b.hi, b.lo + b.len) keeps a's origin out of [cut_lo, cut_hi].
        let (cut_lo, cut_hi) = (b.hi - a.len + 1, b.lo + b.len - 1);
        if cut_lo > cut_hi || a.len <= 0 {
            return None;
        }
        // A bound pushed across the part is the order rule's (a bound reaches past the cut
        // only when `a` cannot come first, or cannot come second): only holes are left.
        match lit {
            Literal::Ne(_, v) if (cut_lo..=cut_hi).contains(&v) => Some(vec![
                Literal::Le(b.origin, b.hi),
                Literal::Gt(b.origin, b.lo - 1),
                Literal::Gt(b.size, b.len - 1),
                Literal::Gt(a.size, a.len - 1),
            ]),
            _ => None,
        }
    }

    /// Why `lit` on an origin or a size: the first pair that gives it.
    pub(crate) fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let n = self.origins[0].len();
        let y = lit.var();
        for d in 0..2 {
            for i in (0..n).filter(|&i| self.origins[d][i] == y || self.sizes[d][i] == y) {
                for j in (0..n).filter(|&j| j != i) {
                    let mut joined = Vec::new();
                    if !self.joined(cx, 1 - d, i, j, &mut joined) {
                        continue;
                    }
                    if let Some(mut reason) = self.by_pair(cx, lit, d, i, j) {
                        reason.extend(joined);
                        return Some(reason);
                    }
                }
            }
        }
        None
    }

    /// A pair that can be apart in neither dimension.
    pub(crate) fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let n = self.origins[0].len();
        for i in 0..n {
            for j in i + 1..n {
                let mut reason = Vec::new();
                if self.joined(cx, 0, i, j, &mut reason) && self.joined(cx, 1, i, j, &mut reason) {
                    return Some(reason);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Boxes;
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;

    #[test]
    fn a_box_pushed_past_a_compulsory_part_cites_that_box_and_its_own_start() {
        // A (x 1–9, 2 wide) and B (x 2, 3 wide) in one row of height 1; C far above.
        // B covers [2, 5), so A starts at 5.
        let ranges = [(0, 9), (2, 2), (10, 20), (0, 0), (0, 0), (5, 9), (2, 2), (3, 3), (1, 1), (1, 1), (1, 1), (1, 1)];
        let past = Past::new(&ranges, &[Literal::Gt(var(0), 0)]);
        let origins = [vec![var(0), var(1), var(2)], vec![var(3), var(4), var(5)]];
        let sizes = [vec![var(6), var(7), var(8)], vec![var(9), var(10), var(11)]];
        let boxes = Boxes { origins: &origins, sizes: &sizes, strict: true };
        let reason = boxes.explain(Literal::Gt(var(0), 4), &past.cx()).expect("the pair A, B gives it");
        assert!(reason.contains(&Literal::Gt(var(0), 0)), "A's start missing: {reason:?}");
        assert!(reason.iter().all(|l| ![var(2), var(5), var(8), var(11)].contains(&l.var())), "C cited: {reason:?}");
    }
}
