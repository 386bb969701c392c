//! Non-overlapping rectangles (MiniZinc's `diffn`) by pairwise separation and compulsory
//! parts.
//!
//! Rectangle `i` has its lower-left corner at `(xᵢ, yᵢ)` and sides `dxᵢ`, `dyᵢ`; two
//! rectangles do not overlap when, in some dimension, one ends before the other starts
//! (`xᵢ + dxᵢ ≤ xⱼ`, or `xⱼ + dxⱼ ≤ xᵢ`, or the same in `y`). For each pair and each
//! dimension the propagator asks whether the pair can still be separated there (one can
//! still end before the other starts). Then (Beldiceanu and Carlsson's pairwise rule, as in
//! Gecode's `nooverlap`):
//! - no dimension left: the pair overlaps, a conflict;
//! - one dimension left, and one order of the two in it impossible: the other order holds,
//!   and both bounds move (`xⱼ ≥ min xᵢ + min dxᵢ`, `xᵢ ≤ max xⱼ − min dxᵢ`);
//! - one dimension left, both orders possible: each rectangle keeps out of the other's
//!   *compulsory part* in it, the stretch `[max xⱼ, min xⱼ + min dxⱼ)` that `j` covers
//!   wherever it goes — values are cut out of the middle of `xᵢ`'s domain, which the
//!   decomposition into reified inequalities (bounds only) cannot do.
//!
//! With `strict` off (`diffn_nonstrict`), a rectangle with a side of 0 goes anywhere, so a
//! pair is only propagated once no side of either can be 0. A call costs `O(n²)`
//! pairs.

use super::diffn_reasons::{Boxes, Side};
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Holes wider than this are not cut (each value is removed on its own); the bounds
/// rules still apply.
const MAX_HOLE: Val = 1 << 12;

/// Non-overlapping rectangles by pairwise separation and compulsory parts; posted by [`crate::constraints::diffn`].
#[derive(Debug, Clone)]
pub struct Diffn {
    /// `origins[d][i]` and `sizes[d][i]`: rectangle `i` in dimension `d` (0 = x, 1 = y).
    origins: [Vec<VarId>; 2],
    sizes: [Vec<VarId>; 2],
    strict: bool,
}

impl Diffn {
    pub(crate) fn new(x: Vec<VarId>, y: Vec<VarId>, dx: Vec<VarId>, dy: Vec<VarId>, strict: bool) -> Diffn {
        Diffn { origins: [x, y], sizes: [dx, dy], strict }
    }

    fn boxes(&self) -> Boxes<'_> {
        Boxes { origins: &self.origins, sizes: &self.sizes, strict: self.strict }
    }

    fn side(&self, cx: &Context<'_>, d: usize, i: usize) -> Side {
        Side::read(cx, self.origins[d][i], self.sizes[d][i])
    }

    /// `first` ends before `second` starts in this dimension.
    fn order(cx: &mut Context<'_>, first: Side, second: Side) -> Result<(), Conflict> {
        let _ = cx.set_min(second.origin, first.lo + first.len)?;
        let _ = cx.set_max(first.origin, second.hi - first.len)?;
        let _ = cx.set_max(first.size, second.hi - first.lo)?;
        Ok(())
    }

    /// Cuts out of `a`'s origin the values where it would overlap `b`'s compulsory part.
    fn keep_out(cx: &mut Context<'_>, a: Side, b: Side) -> Result<(), Conflict> {
        let (part_lo, part_hi) = (b.hi, b.lo + b.len);
        if part_lo >= part_hi || a.len <= 0 {
            return Ok(());
        }
        // a overlaps [part_lo, part_hi) iff part_lo − len < origin < part_hi.
        let (cut_lo, cut_hi) = (part_lo - a.len + 1, part_hi - 1);
        if cut_lo <= a.lo {
            let _ = cx.set_min(a.origin, cut_hi + 1)?;
        } else if cut_hi >= a.hi {
            let _ = cx.set_max(a.origin, cut_lo - 1)?;
        } else if cut_hi - cut_lo < MAX_HOLE {
            for v in cut_lo..=cut_hi {
                let _ = cx.remove(a.origin, v)?;
            }
        }
        Ok(())
    }

    fn pair(&self, cx: &mut Context<'_>, i: usize, j: usize) -> Result<(), Conflict> {
        let mut open = None;
        for d in 0..2 {
            let (a, b) = (self.side(cx, d, i), self.side(cx, d, j));
            if a.can_precede(&b) || b.can_precede(&a) {
                if open.is_some() {
                    return Ok(());
                }
                open = Some(d);
            }
        }
        let Some(d) = open else { return Err(Conflict) };
        let (a, b) = (self.side(cx, d, i), self.side(cx, d, j));
        match (a.can_precede(&b), b.can_precede(&a)) {
            (true, false) => Self::order(cx, a, b),
            (false, true) => Self::order(cx, b, a),
            _ => {
                Self::keep_out(cx, a, b)?;
                let a = self.side(cx, d, i);
                Self::keep_out(cx, b, a)
            }
        }
    }
}

impl Propagator for Diffn {
    fn name(&self) -> &'static str {
        "diffn"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for d in 0..2 {
            for &x in self.origins[d].iter().chain(&self.sizes[d]) {
                cx.subscribe(x, Events::BOUNDS);
            }
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let n = self.origins[0].len();
        for i in 0..n {
            for j in i + 1..n {
                let sized = |k: usize| (0..2).all(|d| !cx.contains(self.sizes[d][k], 0));
                if self.strict || (sized(i) && sized(j)) {
                    self.pair(cx, i, j)?;
                }
            }
        }
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let n = self.origins[0].len();
        let apart = |i: usize, j: usize, d: usize| {
            let (oi, si) = (value(self.origins[d][i]), value(self.sizes[d][i]));
            let (oj, sj) = (value(self.origins[d][j]), value(self.sizes[d][j]));
            oi + si <= oj || oj + sj <= oi
        };
        let flat = |k: usize| (0..2).any(|d| value(self.sizes[d][k]) == 0);
        (0..n).all(|i| (i + 1..n).all(|j| (!self.strict && (flat(i) || flat(j))) || apart(i, j, 0) || apart(i, j, 1)))
    }

    fn vars(&self) -> Vec<VarId> {
        self.origins.iter().chain(&self.sizes).flatten().copied().collect()
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    /// A bound or a value cut: the one pair that gives it (`diffn_reasons.rs`).
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.boxes().explain(lit, cx)
    }

    /// A pair that can be apart in neither dimension.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.boxes().explain_conflict(cx)
    }
}
