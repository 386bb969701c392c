//! `b ⇔ Σ aᵢ·xᵢ ⋈ c` for a 0/1 variable `b`: the building block of conditions used as
//! numbers (`count`, `sum` of conditions) and of `or`, `->`, `not` over relations.
//!
//! While `b` is free, the propagator only watches whether the current bounds already
//! decide the relation, and then fixes `b`. Once `b` is fixed it enforces the relation or
//! its negation with the plain linear propagators, so a reified relation prunes exactly
//! as much as the relation itself does as soon as its truth is known.
//!
//! The half reification `b → Σ aᵢ·xᵢ ⋈ c` (Feydy, Somogyi and Stuckey, *Half
//! reification and flattening*, CP 2011) keeps only the first half of each rule: a
//! relation decided false fixes `b` to 0, `b = 1` enforces the relation; but a relation
//! decided true leaves `b` free, and `b = 0` asks nothing of the sum. It is what a
//! relation under a disjunction or an implication needs, with half the work.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::linear::{side, LinearEq, LinearLe, LinearNe, Term};

/// The relation, normalised: `≤`, `=` or `≠` against the constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Test {
    Le,
    Eq,
    Ne,
}

impl Test {
    pub(crate) fn holds(self, sum: i64, rhs: i64) -> bool {
        match self {
            Test::Le => sum <= rhs,
            Test::Eq => sum == rhs,
            Test::Ne => sum != rhs,
        }
    }
}

/// The linear propagator that enforces one side of the equivalence.
#[derive(Debug, Clone)]
enum Side {
    Le(LinearLe),
    Eq(LinearEq),
    Ne(LinearNe),
}

impl Side {
    fn new(test: Test, terms: Vec<Term>, rhs: i64) -> Side {
        match test {
            Test::Le => Side::Le(LinearLe::new(terms, rhs)),
            Test::Eq => Side::Eq(LinearEq::new(terms, rhs)),
            Test::Ne => Side::Ne(LinearNe { terms, rhs }),
        }
    }

    /// The linear propagator itself.
    fn linear(&self) -> &dyn Propagator {
        match self {
            Side::Le(p) => p,
            Side::Eq(p) => p,
            Side::Ne(p) => p,
        }
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        match self {
            Side::Le(p) => p.propagate(cx),
            Side::Eq(p) => p.propagate(cx),
            Side::Ne(p) => p.propagate(cx),
        }
    }
}

/// `b ⇔ Σ aᵢ·xᵢ ⋈ c`, or `b → Σ aᵢ·xᵢ ⋈ c` when `half`.
#[derive(Debug, Clone)]
pub struct ReifiedLinear {
    b: VarId,
    terms: Vec<Term>,
    test: Test,
    rhs: i64,
    half: bool,
    when_true: Side,
    when_false: Side,
}

impl ReifiedLinear {
    /// Sums must fit in i64 (the post function checks it).
    pub(crate) fn new(b: VarId, terms: Vec<Term>, test: Test, rhs: i64) -> ReifiedLinear {
        let negated_terms: Vec<Term> = terms.iter().map(|&(a, x)| (-a, x)).collect();
        let (when_true, when_false) = match test {
            // ¬(s ≤ c) ⟺ −s ≤ −c − 1
            Test::Le => (Side::new(Test::Le, terms.clone(), rhs), Side::new(Test::Le, negated_terms, -rhs - 1)),
            Test::Eq => (Side::new(Test::Eq, terms.clone(), rhs), Side::new(Test::Ne, terms.clone(), rhs)),
            Test::Ne => (Side::new(Test::Ne, terms.clone(), rhs), Side::new(Test::Eq, terms.clone(), rhs)),
        };
        ReifiedLinear { b, terms, test, rhs, half: false, when_true, when_false }
    }

    /// The half reification `b → Σ aᵢ·xᵢ ⋈ c`, under the same conditions as `new`.
    pub(crate) fn half(b: VarId, terms: Vec<Term>, test: Test, rhs: i64) -> ReifiedLinear {
        ReifiedLinear { half: true, ..ReifiedLinear::new(b, terms, test, rhs) }
    }

    /// `Some(truth)` when the current domains decide the relation.
    fn decided(&self, cx: &Context<'_>) -> Option<bool> {
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut free: Option<Term> = None;
        let mut free_count = 0;
        for &(a, x) in &self.terms {
            let (p, q) = (a * cx.min(x), a * cx.max(x));
            lo += p.min(q);
            hi += p.max(q);
            if !cx.is_fixed(x) {
                free_count += 1;
                free = Some((a, x));
            }
        }
        let equal = if self.rhs < lo || self.rhs > hi {
            Some(false)
        } else if lo == hi {
            Some(true)
        } else if let (1, Some((a, x))) = (free_count, free) {
            // One variable left: the relation holds for exactly one of its values.
            let rest = self.rhs - (lo - if a > 0 { a * cx.min(x) } else { a * cx.max(x) });
            (rest % a != 0 || !cx.contains(x, rest / a)).then_some(false)
        } else {
            None
        };
        match self.test {
            Test::Le if hi <= self.rhs => Some(true),
            Test::Le if lo > self.rhs => Some(false),
            Test::Le => None,
            Test::Eq => equal,
            Test::Ne => equal.map(|e| !e),
        }
    }
}

impl Propagator for ReifiedLinear {
    fn name(&self) -> &'static str {
        if self.half {
            "b -> linear"
        } else {
            "b <-> linear"
        }
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.b, Events::ASSIGNED);
        let events = match (self.test, self.half) {
            (Test::Le, _) => Events::BOUNDS,
            // `b → s ≠ c` is decided false only once every term is fixed, and enforced
            // (b = 1) only once one is left: fixings are all it needs to see.
            (Test::Ne, true) => Events::ASSIGNED,
            // Equalities are decided by a missing value too, not only by bounds.
            _ => Events::DOMAIN,
        };
        for &(_, x) in &self.terms {
            cx.subscribe(x, events);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        if cx.is_fixed(self.b) {
            return match (cx.min(self.b), self.half) {
                (1, _) => self.when_true.propagate(cx),
                // b = 0 asks nothing of the sum in a half reification.
                (_, true) => Ok(PropStatus::Entailed),
                (_, false) => self.when_false.propagate(cx),
            };
        }
        match self.decided(cx) {
            // True whatever b is: b → true holds.
            Some(true) if self.half => Ok(PropStatus::Entailed),
            Some(truth) => {
                let _ = cx.assign(self.b, Val::from(truth))?;
                Ok(PropStatus::Entailed)
            }
            None => Ok(PropStatus::Active),
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let sum: i128 = self.terms.iter().map(|&(a, x)| a as i128 * value(x) as i128).sum();
        let rhs = self.rhs as i128;
        let holds = match self.test {
            Test::Le => sum <= rhs,
            Test::Eq => sum == rhs,
            Test::Ne => sum != rhs,
        };
        value(self.b) == Val::from(holds) || (self.half && value(self.b) == 0)
    }

    fn vars(&self) -> Vec<VarId> {
        let mut vars = vec![self.b];
        vars.extend(self.terms.iter().map(|&(_, x)| x));
        vars
    }

    /// With `b` fixed, the side enforced explains, plus `b`'s value. With `b` free, a `≤`
    /// decided by the bounds fixed `b`: every term's side that decides it (the upper sides
    /// for true, the lower ones for false); an `=` or `≠` that fixed `b` by
    /// `explain_equality`. A `b` that is also a term gets the naive
    /// explanation.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        if self.terms.iter().any(|&(_, x)| x == self.b) {
            return None;
        }
        if cx.min(self.b) == cx.max(self.b) {
            let mut reason = self.enforced(cx)?.linear().explain(lit, cx)?;
            reason.push(self.b_literal(cx));
            return Some(reason);
        }
        if lit.var() != self.b {
            return None;
        }
        // `b` is 0/1: `b > 0`, `b ≠ 0` and `b = 1` say true, `b ≤ 0`, `b ≠ 1`, `b = 0` false.
        let truth = match lit {
            Literal::Gt(_, v) => v >= 0,
            Literal::Le(_, v) => v >= 1,
            Literal::Ne(_, v) => v == 0,
            Literal::Eq(_, v) => v == 1,
        };
        match self.test {
            Test::Le => Some(self.terms.iter().map(|&t| side(cx, t, !truth)).collect()),
            Test::Eq => self.explain_equality(truth, cx),
            Test::Ne => self.explain_equality(!truth, cx),
        }
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        if self.terms.iter().any(|&(_, x)| x == self.b) || cx.min(self.b) != cx.max(self.b) {
            return None;
        }
        let mut reason = self.enforced(cx)?.linear().explain_conflict(cx)?;
        reason.push(self.b_literal(cx));
        Some(reason)
    }
}

impl ReifiedLinear {
    /// Why the sum equals `rhs` (`equal`: every term fixed), or cannot: the lower sides
    /// when its minimum is above, the upper sides when its maximum is below, or, with one
    /// term left open, the others' values and the missing value of the open one. `None`
    /// when none of these held then.
    fn explain_equality(&self, equal: bool, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let bound = |low: bool| {
            self.terms.iter().map(|&(a, x)| if (a > 0) == low { a * cx.min(x) } else { a * cx.max(x) }).sum::<i64>()
        };
        let (lo, hi) = (bound(true), bound(false));
        let fixed = |x: VarId| cx.min(x) == cx.max(x);
        if equal {
            return (lo == hi && lo == self.rhs)
                .then(|| self.terms.iter().map(|&(_, x)| Literal::Eq(x, cx.min(x))).collect());
        }
        if lo > self.rhs || hi < self.rhs {
            return Some(self.terms.iter().map(|&t| side(cx, t, lo > self.rhs)).collect());
        }
        let mut open = self.terms.iter().filter(|&&(_, x)| !fixed(x));
        let (Some(&(a, x)), None) = (open.next(), open.next()) else {
            return None;
        };
        let rest: i64 = self.terms.iter().filter(|&&(_, y)| y != x).map(|&(b, y)| b * cx.min(y)).sum();
        let mut reason: Vec<Literal> =
            self.terms.iter().filter(|&&(_, y)| y != x).map(|&(_, y)| Literal::Eq(y, cx.min(y))).collect();
        let missing = self.rhs - rest;
        if missing % a == 0 {
            if cx.contains(x, missing / a) {
                return None;
            }
            reason.push(Literal::Ne(x, missing / a));
        }
        Some(reason)
    }

    /// The side enforced while `b` has the value it had then, if one is.
    fn enforced(&self, cx: &ExplainContext<'_>) -> Option<&Side> {
        match (cx.min(self.b), self.half) {
            (1, _) => Some(&self.when_true),
            (_, true) => None,
            (_, false) => Some(&self.when_false),
        }
    }

    /// `b`'s value then, as a literal (`b` is fixed).
    fn b_literal(&self, cx: &ExplainContext<'_>) -> Literal {
        if cx.min(self.b) >= 1 {
            Literal::Gt(self.b, 0)
        } else {
            Literal::Le(self.b, 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// `b ⇔ x + 2·y = 7`: `b` variable 0, `x` 1, `y` 2 (variable 3 stands by).
    fn prop(test: Test) -> ReifiedLinear {
        ReifiedLinear::new(var(0), vec![(1, var(1)), (2, var(2))], test, 7)
    }

    const RANGES: [(Val, Val); 4] = [(0, 1), (0, 9), (0, 9), (0, 9)];

    #[test]
    fn an_equality_is_false_for_the_missing_value_of_its_last_open_term() {
        let past = Past::new(&RANGES, &[Literal::Eq(var(2), 2), Literal::Ne(var(1), 3), Literal::Ne(var(3), 1)]);
        let reason = prop(Test::Eq).explain(Literal::Le(var(0), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Eq(var(2), 2), Literal::Ne(var(1), 3)]));
    }

    #[test]
    fn a_disequality_is_true_for_the_sides_that_put_the_sum_above() {
        let past = Past::new(&RANGES, &[Literal::Gt(var(1), 3), Literal::Gt(var(2), 1), Literal::Le(var(2), 5)]);
        let reason = prop(Test::Ne).explain(Literal::Gt(var(0), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Gt(var(1), 3), Literal::Gt(var(2), 1)]));
    }
}
