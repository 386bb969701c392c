//! Explanations of global cardinality: each rule of [`super::global_cardinality`], told by
//! the facts it counted.
//!
//! For the value `v = cover[k]` and its count `c`:
//! - `c ≥ m`: `m` variables fixed to `v`; `c ≤ M`: `n − M` variables without `v`;
//! - `v` leaves `x`: `max c` other variables fixed to `v` (the value is saturated);
//! - `x = v`: `min c` is the number of variables that can take `v` (the others cite why
//!   they cannot);
//! - the rules on the sum: the other counts' bounds, and for the open form the variables
//!   that cannot take any value of the cover (their upper part, `U`) or must take one
//!   (their lower part, `L`).
//!
//! A bound of `x` that moves is explained value by value over the values it passes, each
//! gone already or by one of the rules above. Every reason is built from the domains of
//! the moment and checked to hold; where no rule fits (never expected), the answer is
//! `None` and the engine cites the domains.

use super::global_cardinality::GlobalCardinality;
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::{ruled_out, ExplainContext};
use crate::literal::Literal;

fn fixed_to(cx: &ExplainContext<'_>, y: VarId, v: Val) -> bool {
    cx.min(y) == v && cx.max(y) == v
}

impl GlobalCardinality {
    /// Why `lit`, a literal this propagator made true, followed.
    pub(super) fn reason(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let var = lit.var();
        let mut reason = if let Some(k) = self.counts.iter().position(|&c| c == var) {
            self.count_reason(k, lit, cx)?
        } else {
            match lit {
                Literal::Ne(_, u) => self.value_gone(cx, var, u)?,
                Literal::Gt(_, v) => self.assigned(cx, var, v + 1).or_else(|| self.values_gone(cx, lit))?,
                Literal::Le(_, v) => self.assigned(cx, var, v).or_else(|| self.values_gone(cx, lit))?,
                Literal::Eq(..) => return None,
            }
        };
        reason.sort_unstable();
        reason.dedup();
        reason.iter().all(|&r| cx.holds(r)).then_some(reason)
    }

    /// Why the propagator failed: a count whose bound its value's variables overrun, a sum
    /// out of reach, or a variable all of whose values are ruled out.
    pub(super) fn conflict_reason(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let n = self.x.len() as i64;
        for (k, &c) in self.counts.iter().enumerate() {
            let v = self.cover[k];
            let fixed: Vec<VarId> = self.x.iter().copied().filter(|&y| fixed_to(cx, y, v)).collect();
            if fixed.len() as i64 > cx.max(c) {
                let mut reason: Vec<Literal> = fixed.iter().map(|&y| Literal::Eq(y, v)).collect();
                reason.push(Literal::Le(c, cx.max(c)));
                return Some(reason);
            }
            let without: Vec<Literal> = self.x.iter().filter_map(|&y| cx.why_not(y, v)).collect();
            if n - (without.len() as i64) < cx.min(c) {
                let mut reason = without;
                reason.push(Literal::Gt(c, cx.min(c) - 1));
                return Some(reason);
            }
        }
        if self.closed {
            if let Some(&y) = self.x.iter().find(|&&y| cx.min(y) == cx.max(y) && self.index_of(cx.min(y)).is_none()) {
                return Some(vec![Literal::Eq(y, cx.min(y))]);
            }
        }
        // The sums: at least Σ min c take a value of the cover, at most Σ max c.
        let mut high = Vec::new();
        let high_count = self.high(cx, None, &mut high);
        if self.counts.iter().map(|&c| cx.min(c)).sum::<i64>() > high_count {
            high.extend(self.counts.iter().map(|&c| Literal::Gt(c, cx.min(c) - 1)));
            return Some(high);
        }
        let mut low = Vec::new();
        let low_count = self.low(cx, None, &mut low);
        if self.counts.iter().map(|&c| cx.max(c)).sum::<i64>() < low_count {
            low.extend(self.counts.iter().map(|&c| Literal::Le(c, cx.max(c))));
            return Some(low);
        }
        // A variable every value of which is ruled out.
        self.x.iter().find_map(|&y| {
            let mut reason = Vec::new();
            cx.domain_of(y, &mut reason);
            for u in cx.min(y)..=cx.max(y) {
                if cx.contains(y, u) {
                    reason.extend(self.value_gone(cx, y, u)?);
                }
            }
            Some(reason)
        })
    }

    /// `U`, the variables other than `except` that can take a value of the cover (all of
    /// them for the closed form), pushing why the rest cannot.
    fn high(&self, cx: &ExplainContext<'_>, except: Option<VarId>, reason: &mut Vec<Literal>) -> i64 {
        let mut count = 0;
        for &y in self.x.iter().filter(|&&y| Some(y) != except) {
            let gone: Option<Vec<Literal>> =
                if self.closed { None } else { self.cover.iter().map(|&v| cx.why_not(y, v)).collect() };
            match gone {
                Some(lits) => reason.extend(lits),
                None => count += 1,
            }
        }
        count
    }

    /// `L`, the variables other than `except` that must take a value of the cover (all of
    /// them for the closed form), pushing why they must (their domains).
    fn low(&self, cx: &ExplainContext<'_>, except: Option<VarId>, reason: &mut Vec<Literal>) -> i64 {
        let mut count = 0;
        for &y in self.x.iter().filter(|&&y| Some(y) != except) {
            if self.closed {
                count += 1;
            } else if (cx.min(y)..=cx.max(y)).all(|u| !cx.contains(y, u) || self.index_of(u).is_some()) {
                cx.domain_of(y, reason);
                count += 1;
            }
        }
        count
    }

    /// Why the count `counts[k]` got the bound `lit`.
    fn count_reason(&self, k: usize, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (v, n) = (self.cover[k], self.x.len() as i64);
        match lit {
            Literal::Gt(_, below) => {
                let m = below + 1;
                let fixed: Vec<Literal> =
                    self.x.iter().filter(|&&y| fixed_to(cx, y, v)).map(|&y| Literal::Eq(y, v)).collect();
                if fixed.len() as i64 >= m {
                    return Some(fixed.into_iter().take(m as usize).collect());
                }
                // c ≥ L − Σ other max.
                let mut reason = Vec::new();
                let low = self.low(cx, None, &mut reason);
                let others: i64 = self.others(k).map(|l| cx.max(self.counts[l])).sum();
                reason.extend(self.others(k).map(|l| Literal::Le(self.counts[l], cx.max(self.counts[l]))));
                (low - others >= m).then_some(reason)
            }
            Literal::Le(_, bound) => {
                let without: Vec<Literal> = self.x.iter().filter_map(|&y| cx.why_not(y, v)).collect();
                if n - without.len() as i64 <= bound {
                    return Some(without);
                }
                // c ≤ U − Σ other min.
                let mut reason = Vec::new();
                let high = self.high(cx, None, &mut reason);
                let others: i64 = self.others(k).map(|l| cx.min(self.counts[l])).sum();
                reason.extend(self.others(k).map(|l| Literal::Gt(self.counts[l], cx.min(self.counts[l]) - 1)));
                (high - others <= bound).then_some(reason)
            }
            _ => None,
        }
    }

    fn others(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.counts.len()).filter(move |&l| l != k)
    }

    /// Why `x = w`: every variable that can take `w` must, as `min c` says.
    fn assigned(&self, cx: &ExplainContext<'_>, x: VarId, w: Val) -> Option<Vec<Literal>> {
        let k = self.index_of(w)?;
        let c = self.counts[k];
        if !cx.contains(x, w) {
            return None;
        }
        let mut reason: Vec<Literal> = self.x.iter().filter(|&&y| y != x).filter_map(|&y| cx.why_not(y, w)).collect();
        let others_without = reason.len() as i64;
        let occurrences_of_x = self.x.iter().filter(|&&y| y == x).count() as i64;
        let possible = self.x.len() as i64 - others_without;
        // With `x` counted once, all `possible` must take `w`.
        if occurrences_of_x != 1 || cx.min(c) < possible {
            return None;
        }
        reason.push(Literal::Gt(c, possible - 1));
        Some(reason)
    }

    /// Why the value `u` left `x`: `u` saturated by others fixed to it, or (open form) the
    /// sum's rules: the cover's values all taken by others, or a value outside the cover
    /// where `x` must take one of it.
    fn value_gone(&self, cx: &ExplainContext<'_>, x: VarId, u: Val) -> Option<Vec<Literal>> {
        if let Some(k) = self.index_of(u) {
            let c = self.counts[k];
            let fixed: Vec<Literal> =
                self.x.iter().filter(|&&y| y != x && fixed_to(cx, y, u)).map(|&y| Literal::Eq(y, u)).collect();
            if cx.max(c) <= fixed.len() as i64 {
                let mut reason: Vec<Literal> = fixed.into_iter().take(cx.max(c).max(0) as usize).collect();
                reason.push(Literal::Le(c, cx.max(c)));
                return Some(reason);
            }
            if self.closed {
                return None;
            }
            // Σ max c ≤ L without x: the others within the cover take every place.
            let mut reason = Vec::new();
            let low = self.low(cx, Some(x), &mut reason);
            let max_sum: i64 = self.counts.iter().map(|&c| cx.max(c)).sum();
            reason.extend(self.counts.iter().map(|&c| Literal::Le(c, cx.max(c))));
            return (max_sum <= low).then_some(reason);
        }
        if self.closed {
            return None;
        }
        // Σ min c > U without x: x must take a value of the cover.
        let mut reason = Vec::new();
        let high = self.high(cx, Some(x), &mut reason);
        let min_sum: i64 = self.counts.iter().map(|&c| cx.min(c)).sum();
        reason.extend(self.counts.iter().map(|&c| Literal::Gt(c, cx.min(c) - 1)));
        (min_sum > high).then_some(reason)
    }

    /// Why the bound `lit` of a variable moved: each value it passed, gone by a rule.
    fn values_gone(&self, cx: &ExplainContext<'_>, lit: Literal) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for u in ruled_out(cx, lit, &mut reason)? {
            reason.extend(self.value_gone(cx, lit.var(), u)?);
        }
        Some(reason)
    }
}
