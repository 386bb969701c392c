//! Lexicographic order: `x ≤lex y` or `x <lex y` over two vectors of the same length
//! (MiniZinc's `lex_lesseq` and `lex_less`, 0/1 vectors included).
//!
//! The post function reduces MiniZinc's vectors of different lengths to this: only the
//! common prefix is compared, and when it is equal the shorter vector is the smaller. So
//! the order holds on the prefix as `≤lex` when an equal prefix is enough (`lex_lesseq`
//! with `x` no longer than `y`, `lex_less` with `x` shorter) and as `<lex` otherwise; the
//! flag `strict` says which.
//!
//! Generalised arc consistency by the two-pointer algorithm of Frisch, Hnich, Kiziltan,
//! Miguel and Walsh, "Global constraints for lexicographic orderings" (CP 2002):
//! - `α` is the first position where `x` and `y` are not both fixed to the same value. Before
//!   it the vectors are equal whatever happens, so the order is decided from `α` on; with
//!   no such position the vectors are equal, which satisfies `≤lex` and violates `<lex`.
//! - `β` is the first position from which the order is surely violated: the suffixes are
//!   in the wrong order even with `x` at its smallest values and `y` at its largest (the
//!   most favourable assignment, as lowering `x` or raising `y` never hurts). Scanning
//!   from a position, the first `k` where `min x[k] ≠ max y[k]` decides: violated if
//!   `min x[k] > max y[k]`; with no such `k`, the suffixes can at best be equal, which
//!   violates exactly `<lex`.
//!
//! Only the variables at `α` lose values. If `β = α`, nothing satisfies the order. If
//! `β = α + 1`, the suffix after `α` cannot help, so `x[α] < y[α]`; otherwise
//! `x[α] ≤ y[α]` (equal at `α`, the suffix can still be in order). Both are bounds
//! pruning. When they leave `x[α]` and `y[α]` fixed to one value, `α` moves on and the
//! rule applies again. Otherwise `min x[α] < max y[α]`, and `x[α] < y[α]` is possible,
//! which supports every value after `α`; every value at `α` has its support by the
//! choice of rule: generalised arc consistency, when no variable occurs twice. (A
//! variable occurring twice makes the rules weaker but never wrong: the favourable
//! assignment is only more favourable than any real one.)
//!
//! `α` only moves forward as the search goes down, so it is a trailed integer. The paper
//! also maintains `β` incrementally, from events that say which position changed; this
//! engine does not say, so `β` is found by the scan above from `α + 1`, which stops at
//! the first position that decides (usually the next one). A call costs O(n) at worst.
//! The order is entailed once `max x[α] < min y[α]`.
//!
//! Explanations. Every deduction is made at a position `j` before which `x[k] ≥ y[k]` is
//! forced (`min x[k] ≥ max y[k]`: two bounds per position; with the order, these
//! positions are equal). Then `x[j] ≤ y[j]` follows, so `max x[j] ≤ v` is explained by
//! the prefix and `max y[j] ≤ v`, and `min y[j] > v` by the prefix and `min x[j] > v`.
//! When the step was strict (`x[j] < y[j]`), the suffix after `j` was surely out of order:
//! its forced positions up to the one where `min x[k] > max y[k]` (or all of them, for
//! `<lex`) join the reason. A conflict is a prefix of forced positions ending in a strict
//! one, or forced everywhere under `<lex`.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// `x ≤lex y` or `x <lex y`, generalised arc consistent; posted by [`crate::constraints::lex_less`] and [`crate::constraints::lex_lesseq`].
#[derive(Debug, Clone)]
pub struct Lex {
    x: Vec<VarId>,
    y: Vec<VarId>,
    /// Whether equal vectors violate the order (`<lex` on the common prefix).
    strict: bool,
    /// The pointer `α`, restored on backtrack.
    alpha: Option<TrailedInt>,
    /// No variable occurs twice: one call then reaches its fixpoint.
    distinct: bool,
}

impl Lex {
    /// `x` and `y` of the same length, at least 1.
    pub(crate) fn new(x: Vec<VarId>, y: Vec<VarId>, strict: bool) -> Lex {
        debug_assert_eq!(x.len(), y.len());
        let mut all: Vec<VarId> = x.iter().chain(&y).copied().collect();
        all.sort_unstable();
        all.dedup();
        let distinct = all.len() == x.len() + y.len();
        Lex { x, y, strict, alpha: None, distinct }
    }

    fn fixed_equal(&self, cx: &Context<'_>, k: usize) -> bool {
        let (a, b) = (self.x[k], self.y[k]);
        cx.is_fixed(a) && cx.is_fixed(b) && cx.min(a) == cx.min(b)
    }

    /// Whether the suffixes from position `from` are surely out of order: `β ≤ from`
    /// among the positions from `from` on.
    fn violated_from(&self, cx: &Context<'_>, from: usize) -> bool {
        for k in from..self.x.len() {
            let (low, high) = (cx.min(self.x[k]), cx.max(self.y[k]));
            if low != high {
                return low > high;
            }
        }
        self.strict
    }

    /// Pushes the reason that `x[k] ≥ y[k]` is forced, or answers false when it is not.
    fn forced_at(&self, cx: &ExplainContext<'_>, k: usize, out: &mut Vec<Literal>) -> bool {
        let h = cx.max(self.y[k]);
        if cx.min(self.x[k]) < h {
            return false;
        }
        out.push(Literal::Gt(self.x[k], h - 1));
        out.push(Literal::Le(self.y[k], h));
        true
    }

    /// Pushes the reason that the positions from `from` on are surely out of order (forced
    /// positions up to a strict one, or to the end under `<lex`); false when they are not.
    fn violated_reason(&self, cx: &ExplainContext<'_>, from: usize, out: &mut Vec<Literal>) -> bool {
        for k in from..self.x.len() {
            let (low, high) = (cx.min(self.x[k]), cx.max(self.y[k]));
            if low > high {
                out.push(Literal::Gt(self.x[k], high));
                out.push(Literal::Le(self.y[k], high));
                return true;
            }
            if !self.forced_at(cx, k, out) {
                return false;
            }
        }
        self.strict
    }

    /// The reason for `lit` at position `j`, when `j` fits: a forced prefix, the other
    /// side's bound at `j`, and the suffix when the step was strict.
    fn explain_at(&self, lit: Literal, j: usize, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for k in 0..j {
            if !self.forced_at(cx, k, &mut reason) {
                return None;
            }
        }
        // The bound of the other side at `j` that gives `lit` with a gap of 0 or 1.
        let (other, gap_needed) = match lit {
            Literal::Le(a, v) if self.x[j] == a => {
                let m = cx.max(self.y[j]);
                (Literal::Le(self.y[j], m), m - v)
            }
            Literal::Gt(b, v) if self.y[j] == b => {
                let m = cx.min(self.x[j]);
                (Literal::Gt(self.x[j], m - 1), v + 1 - m)
            }
            _ => return None,
        };
        match gap_needed {
            g if g <= 0 => {
                // A weaker bound of the other side suffices: the one equal to `lit`'s.
                reason.push(match other {
                    Literal::Le(y, _) => Literal::Le(y, lit_value(lit)),
                    Literal::Gt(x, _) => Literal::Gt(x, lit_value(lit)),
                    _ => unreachable!("bounds only"),
                });
            }
            1 => {
                reason.push(other);
                if !self.violated_reason(cx, j + 1, &mut reason) {
                    return None;
                }
            }
            _ => return None,
        }
        Some(reason)
    }
}

/// The value of a bound literal.
fn lit_value(lit: Literal) -> Val {
    match lit {
        Literal::Eq(_, v) | Literal::Ne(_, v) | Literal::Le(_, v) | Literal::Gt(_, v) => v,
    }
}

impl Propagator for Lex {
    fn name(&self) -> &'static str {
        "lex"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        // The rules read bounds only.
        for &v in self.x.iter().chain(&self.y) {
            cx.subscribe(v, Events::BOUNDS);
        }
        self.alpha = Some(cx.new_int(0));
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let Some(alpha_id) = self.alpha else { return Err(Conflict) };
        let n = self.x.len();
        let mut alpha = cx.int(alpha_id) as usize;
        loop {
            while alpha < n && self.fixed_equal(cx, alpha) {
                alpha += 1;
            }
            cx.set_int(alpha_id, alpha as i64);
            if alpha == n {
                return if self.strict { Err(Conflict) } else { Ok(PropStatus::Entailed) };
            }
            let (a, b) = (self.x[alpha], self.y[alpha]);
            // x[α] < y[α] when the suffix after α cannot be in order, x[α] ≤ y[α] otherwise.
            // (β = α needs no test of its own: then min x[α] ≥ max y[α], and the bounds
            // below empty a domain.)
            let gap = if self.violated_from(cx, alpha + 1) { 1 } else { 0 };
            let _ = cx.set_max(a, cx.max(b) - gap)?;
            let _ = cx.set_min(b, cx.min(a) + gap)?;
            if cx.max(a) < cx.min(b) {
                return Ok(PropStatus::Entailed);
            }
            if !self.fixed_equal(cx, alpha) {
                return Ok(PropStatus::Active);
            }
        }
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let var = lit.var();
        (0..self.x.len()).filter(|&j| self.x[j] == var || self.y[j] == var).find_map(|j| self.explain_at(lit, j, cx))
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        self.violated_reason(cx, 0, &mut reason).then_some(reason)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        for (&a, &b) in self.x.iter().zip(&self.y) {
            let (va, vb) = (value(a), value(b));
            if va != vb {
                return va < vb;
            }
        }
        !self.strict
    }

    fn vars(&self) -> Vec<VarId> {
        self.x.iter().chain(&self.y).copied().collect()
    }

    fn idempotent(&self) -> bool {
        self.distinct
    }
}
