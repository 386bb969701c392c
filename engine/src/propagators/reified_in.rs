//! `b ⇔ x ∈ S` for a 0/1 variable `b` and a fixed set of values `S`, or its half
//! reification `b → x ∈ S`: membership in a set as a condition.
//!
//! Everything depends on how many values of `x` lie in `S`. None: `b` is false. All
//! (full reification only): `b` is true. Once `b` is fixed the constraint becomes a unary
//! one on `x`, applied once: keep the values in `S` (`b = 1`), or remove them (`b = 0`,
//! full reification; half reification asks nothing then). Each rule removes exactly the
//! values without support, so the propagator is domain consistent, as long as the domain
//! of `x` is small enough to walk (see [`MAX_WALK`]).
//!
//! The count costs `min(|D(x)|, |S ∩ [min x, max x]|)` look-ups: it walks whichever is
//! smaller, the domain of `x` or the part of the sorted `S` within the bounds of `x`.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::reasons::{cite, exclude, within};

/// The most values of `x` walked to remove those outside `S` when `b = 1`. Above it, only
/// the bounds of `x` move to values in `S`, and the propagator stays awake: once `x` is
/// fixed the walk is one value long, so a wrong value is still refused.
pub(crate) const MAX_WALK: u64 = 1 << 20;

/// `b ⇔ x ∈ S` or `b → x ∈ S` for a fixed set `S`; posted by [`crate::constraints::reified_in`].
#[derive(Debug, Clone)]
pub struct ReifiedIn {
    b: VarId,
    x: VarId,
    /// Sorted, without repeats.
    set: Vec<Val>,
    /// `b → x ∈ S` instead of `b ⇔ x ∈ S`.
    half: bool,
}

impl ReifiedIn {
    /// `set` sorted and without repeats (the post function ensures it).
    pub(crate) fn new(b: VarId, x: VarId, set: Vec<Val>, half: bool) -> ReifiedIn {
        debug_assert!(set.windows(2).all(|w| w[0] < w[1]));
        ReifiedIn { b, x, set, half }
    }

    /// The values of `S` within the bounds of `x`.
    fn within(&self, cx: &Context<'_>) -> &[Val] {
        let lo = self.set.partition_point(|&v| v < cx.min(self.x));
        let hi = self.set.partition_point(|&v| v <= cx.max(self.x));
        &self.set[lo..hi.max(lo)]
    }

    /// `|D(x) ∩ S|`
    fn members(&self, cx: &Context<'_>) -> u64 {
        let within = self.within(cx);
        if within.len() as u64 <= cx.size(self.x) {
            within.iter().filter(|&&v| cx.contains(self.x, v)).count() as u64
        } else {
            cx.values(self.x).filter(|v| within.binary_search(v).is_ok()).count() as u64
        }
    }

    /// `b = 1`: `x` keeps the values in `S`.
    fn keep_members(&self, cx: &mut Context<'_>) -> PropResult {
        let x = self.x;
        let within = self.within(cx);
        // Bounds first: they cost nothing however large the domain is.
        let first = within.iter().copied().find(|&v| cx.contains(x, v)).ok_or(Conflict)?;
        let last = within.iter().copied().rev().find(|&v| cx.contains(x, v)).ok_or(Conflict)?;
        let _ = cx.set_min(x, first)?;
        let _ = cx.set_max(x, last)?;
        if cx.size(x) > MAX_WALK {
            return Ok(PropStatus::Active);
        }
        let set = &self.set;
        let _ = cx.retain(x, |_, v| set.binary_search(&v).is_ok())?;
        Ok(PropStatus::Entailed)
    }

    /// `b = 0`, full reification: `x` loses the values in `S`.
    fn remove_members(&self, cx: &mut Context<'_>) -> PropResult {
        let gone: Vec<Val> = self.within(cx).iter().copied().filter(|&v| cx.contains(self.x, v)).collect();
        for v in gone {
            let _ = cx.remove(self.x, v)?;
        }
        Ok(PropStatus::Entailed)
    }
}

impl Propagator for ReifiedIn {
    fn name(&self) -> &'static str {
        if self.half {
            "b -> x in S"
        } else {
            "b <-> x in S"
        }
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.b, Events::ASSIGNED);
        // Membership changes with any removed value, not only with the bounds.
        cx.subscribe(self.x, Events::DOMAIN);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        if cx.is_fixed(self.b) {
            return match (cx.min(self.b), self.half) {
                (1, _) => self.keep_members(cx),
                // b = 0 asks nothing of x in a half reification.
                (_, true) => Ok(PropStatus::Entailed),
                (_, false) => self.remove_members(cx),
            };
        }
        let members = self.members(cx);
        if members == 0 {
            let _ = cx.assign(self.b, 0)?;
            Ok(PropStatus::Entailed)
        } else if members == cx.size(self.x) {
            // x ∈ S whatever value it takes: b is true, or (half) free, as b → true holds.
            if !self.half {
                let _ = cx.assign(self.b, 1)?;
            }
            Ok(PropStatus::Entailed)
        } else {
            Ok(PropStatus::Active)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let member = self.set.binary_search(&value(self.x)).is_ok();
        match value(self.b) {
            1 => member,
            0 => self.half || !member,
            _ => false,
        }
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.b, self.x]
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// `b` false: `x` had no member of `S` left; `b` true (full reification): only members.
    /// `x` narrowed with `b` true: `b`, and for a bound the members beyond it gone from `x`;
    /// a member removed with `b` false: `b` alone.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (b, x, set) = (self.b, self.x, &self.set[..]);
        let mut out = Vec::new();
        if lit.var() == b {
            if !lit.holds_for(1) && exclude(cx, x, set, &mut out) {
                return Some(out);
            }
            out.clear();
            if !self.half && !lit.holds_for(0) && within(cx, x, set, &mut out) {
                return Some(out);
            }
            out.clear();
        }
        if lit.var() == x {
            let member = |v: Val| set.binary_search(&v).is_ok();
            // The members `lit` rules out must have gone from `x` already, but for `≠`.
            let explained = match lit {
                Literal::Ne(_, v) if !member(v) => cite(cx, Literal::Eq(b, 1), &mut out),
                Literal::Ne(_, _) => !self.half && cite(cx, Literal::Eq(b, 0), &mut out),
                Literal::Gt(_, c) => {
                    let end = set.partition_point(|&v| v <= c);
                    cite(cx, Literal::Eq(b, 1), &mut out) && exclude(cx, x, &set[..end], &mut out)
                }
                Literal::Le(_, c) => {
                    let start = set.partition_point(|&v| v <= c);
                    cite(cx, Literal::Eq(b, 1), &mut out) && exclude(cx, x, &set[start..], &mut out)
                }
                Literal::Eq(..) => false,
            };
            if explained {
                return Some(out);
            }
        }
        None
    }

    /// `b` true and no member left in `x`, or `b` false (full) and only members left.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        if cite(cx, Literal::Eq(self.b, 1), &mut out) && exclude(cx, self.x, &self.set, &mut out) {
            return Some(out);
        }
        out.clear();
        (!self.half && cite(cx, Literal::Eq(self.b, 0), &mut out) && within(cx, self.x, &self.set, &mut out))
            .then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// `b ⇔ x ∈ {2, 5, 6}`: `b` variable 0, `x` 1.
    fn prop() -> ReifiedIn {
        ReifiedIn::new(var(0), var(1), vec![2, 5, 6], false)
    }

    const RANGES: [(Val, Val); 3] = [(0, 1), (0, 9), (0, 9)];

    #[test]
    fn b_is_false_for_the_members_gone_from_x() {
        let lits = [Literal::Gt(var(1), 2), Literal::Ne(var(1), 5), Literal::Ne(var(1), 6), Literal::Ne(var(1), 8)];
        let past = Past::new(&RANGES, &lits);
        let reason = prop().explain(Literal::Le(var(0), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Ne(var(1), 5), Literal::Ne(var(1), 6), Literal::Gt(var(1), 2)]));
    }

    #[test]
    fn with_b_true_x_rises_past_the_members_it_lost() {
        let past = Past::new(&RANGES, &[Literal::Eq(var(0), 1), Literal::Ne(var(1), 2), Literal::Le(var(2), 3)]);
        let reason = prop().explain(Literal::Gt(var(1), 4), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Eq(var(0), 1), Literal::Ne(var(1), 2)]));
    }

    #[test]
    fn b_is_true_for_the_non_members_gone_from_x() {
        let lits = [Literal::Gt(var(1), 4), Literal::Le(var(1), 6), Literal::Ne(var(2), 1)];
        let past = Past::new(&RANGES, &lits);
        let reason = prop().explain(Literal::Gt(var(0), 0), &past.cx());
        // 5 and 6 are members; the nearest non-members are 4 and 7.
        assert_eq!(reason, Some(vec![Literal::Gt(var(1), 4), Literal::Le(var(1), 6)]));
    }
}
