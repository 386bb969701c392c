//! `z = f(x)` for a non-decreasing function `f` (division by a positive constant), by
//! bounds reasoning: for domains too wide to tabulate.
//!
//! Since `f` never decreases, `z` lies in `[f(min x), f(max x)]`, and `x` keeps only the
//! values whose image can lie in `[min z, max z]`: from the smallest `v` with
//! `f(v) >= min z` to the largest with `f(v) <= max z`, both found by binary search over
//! the bounds of `x`. This is bounds consistency on both variables when the domains have
//! no holes.
//!
//! Every deduction has a one-bound reason, by monotonicity: `z ≥ f(m)` because `x ≥ m`,
//! `z ≤ f(M)` because `x ≤ M`; `x > v` because `z > f(v)`, `x ≤ v` because
//! `z < f(v + 1)`. A conflict cites the bounds of both.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
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

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (x, z, f) = (self.x, self.z, &self.f);
        let reason = match lit {
            Literal::Gt(y, v) if y == z => {
                let lo = cx.min(x);
                (f(lo) > v).then_some(Literal::Gt(x, lo - 1))?
            }
            Literal::Le(y, v) if y == z => {
                let hi = cx.max(x);
                (f(hi) <= v).then_some(Literal::Le(x, hi))?
            }
            Literal::Gt(_, v) => Literal::Gt(z, f(v)),
            Literal::Le(_, v) => Literal::Le(z, f(v.checked_add(1)?) - 1),
            _ => return None,
        };
        cx.holds(reason).then(|| vec![reason])
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (x, z) = (self.x, self.z);
        Some(vec![
            Literal::Gt(x, cx.min(x) - 1),
            Literal::Le(x, cx.max(x)),
            Literal::Gt(z, cx.min(z) - 1),
            Literal::Le(z, cx.max(z)),
        ])
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        (self.f)(value(self.x)) == value(self.z)
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}

#[cfg(test)]
mod tests {
    use super::Monotone;
    use crate::learn::explain::testing::{var, Past};
    use crate::learn::verify::check_reason;
    use crate::literal::Literal;
    use crate::propagator::Propagator;

    fn div7() -> Monotone {
        Monotone { x: var(0), z: var(1), f: Box::new(|v| v / 7), name: "div" }
    }

    /// Each bound is explained by one bound of the other variable, and the reason implies
    /// it over every assignment (`x ∈ 0..100`, `z ∈ 0..20`).
    #[test]
    fn each_bound_is_explained_by_one_bound_of_the_other() {
        let prop = div7();
        let cases = [
            // z ≥ 5 gives x ≥ 35; z ≤ 8 gives x ≤ 62.
            (vec![Literal::Gt(var(1), 4)], Literal::Gt(var(0), 34), vec![Literal::Gt(var(1), 4)]),
            (vec![Literal::Le(var(1), 8)], Literal::Le(var(0), 62), vec![Literal::Le(var(1), 8)]),
            // x ≥ 30 gives z ≥ 4; x ≤ 50 gives z ≤ 7.
            (vec![Literal::Gt(var(0), 29)], Literal::Gt(var(1), 3), vec![Literal::Gt(var(0), 29)]),
            (vec![Literal::Le(var(0), 50)], Literal::Le(var(1), 7), vec![Literal::Le(var(0), 50)]),
        ];
        for (before, lit, expected) in cases {
            let past = Past::new(&[(0, 100), (0, 20)], &before);
            let reason = prop.explain(lit, &past.cx()).expect("explained");
            assert_eq!(reason, expected, "{lit:?}");
            check_reason(past.history(), &prop, &reason, Some(lit));
        }
    }

    /// A conflict cites both variables' bounds, which no assignment satisfies.
    #[test]
    fn a_conflict_cites_the_bounds_that_clash() {
        let prop = div7();
        let past = Past::new(&[(0, 100), (0, 20)], &[Literal::Gt(var(0), 69), Literal::Le(var(1), 8)]);
        let reason = prop.explain_conflict(&past.cx()).expect("explained");
        check_reason(past.history(), &prop, &reason, None);
    }
}
