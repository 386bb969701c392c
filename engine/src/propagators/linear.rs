//! Linear constraints `Σ aᵢ·xᵢ ⋈ c` with bounds reasoning.
//!
//! The propagation rule for `≤`: every term is at most what the others leave,
//! `aᵢ·xᵢ ≤ c − Σ_{j≠i} min(aⱼ·xⱼ)`; `=` applies it in both directions until nothing
//! changes; `≠` waits until one variable is left and removes the one value that would
//! make the sum equal. All arithmetic is in `i64`; the post function
//! ([`crate::constraints::linear`]) rejects a constraint whose sums could overflow, so none
//! of the operations here can.
//!
//! **Running sums.** The rule needs the bounds of the whole sum, `smin = Σ min(aᵢ·xᵢ)` and
//! `smax = Σ max(aᵢ·xᵢ)`, and no term can be narrowed while the slack (`c − smin`, and for
//! `=` also `smax − c`) is at least the width of the widest term. Summed afresh at every
//! wake-up, a sum of `n` terms costs `n` steps even when it prunes nothing, and a search
//! that fixes its variables one by one pays `n²` (`card(s) = 3` over a set of 2^17 values,
//! a sum of 131,072 0/1 variables, took 30 s). A long sum ([`RUNNING_FROM`] terms or more)
//! keeps `smin` and `smax` in trailed integers instead, with one advisor per term: the store
//! reports each change of a term's bounds with the old and the new ones
//! ([`Propagator::notify_bounds`]), the difference goes into the sums, and backtracking
//! restores them with the domains. Widths only shrink down a branch, so the widest width
//! measured the last time the terms were summed stays an upper bound of it; it is kept in a
//! trailed integer too. A wake-up that prunes nothing then costs a few reads. When the
//! slack is below that bound, the propagator sums its terms afresh, as a short sum does
//! (which renews the bound: a stale one costs one sum, and the next wake-up exits at once
//! again), and passes over them only if the exact widest term is wider than the slack. The
//! prunings, and their order, are those of the full recomputation, so search trees do not
//! change.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, NotifyContext, PostContext, Propagator};
use crate::propagators::arith::{ceil_div, floor_div};

/// One term `coef · var`; `coef` is never 0.
pub(crate) type Term = (i64, VarId);

/// The smallest and largest values of `a·x`.
#[inline]
fn term_bounds(cx: &Context<'_>, (a, x): Term) -> (i64, i64) {
    scaled(a, cx.bounds(x))
}

/// The smallest and largest values of `a·x` for `x` within `(lo, hi)`.
#[inline]
fn scaled(a: i64, (lo, hi): (Val, Val)) -> (i64, i64) {
    if a > 0 {
        (a * lo, a * hi)
    } else {
        (a * hi, a * lo)
    }
}

/// Narrows `x` so that `a·x ≤ limit`.
#[inline]
fn restrict_at_most(cx: &mut Context<'_>, (a, x): Term, limit: i64) -> Result<bool, Conflict> {
    if a > 0 {
        cx.set_max(x, floor_div(limit, a))
    } else {
        cx.set_min(x, ceil_div(limit, a))
    }
}

/// Narrows `x` so that `a·x ≥ limit`.
#[inline]
fn restrict_at_least(cx: &mut Context<'_>, (a, x): Term, limit: i64) -> Result<bool, Conflict> {
    if a > 0 {
        cx.set_min(x, ceil_div(limit, a))
    } else {
        cx.set_max(x, floor_div(limit, a))
    }
}

/// The bounds of a sum of terms, and the width of its widest term: no term can be narrowed
/// while the slack on each side is at least that width.
struct Sums {
    smin: i64,
    smax: i64,
    widest: i64,
}

#[inline]
fn sums(cx: &Context<'_>, terms: &[Term]) -> Sums {
    let mut sums = Sums { smin: 0, smax: 0, widest: 0 };
    for &t in terms {
        let (lo, hi) = term_bounds(cx, t);
        sums.smin += lo;
        sums.smax += hi;
        sums.widest = sums.widest.max(hi - lo);
    }
    sums
}

/// Sums of this many terms or more keep running sums (see the module doc); shorter ones
/// are summed afresh. A notification (a record, a dynamic call, two trailed writes) costs
/// about what summing eight terms does, and buys nothing when the slack is small and every
/// wake-up goes through the terms anyway (weighted sums of cryptarithms and knapsacks): at 8
/// terms, `bench/instructions.sh`'s knapsack and crypt40 took 2–3% more instructions.
pub(crate) const RUNNING_FROM: usize = 32;

/// A sum's `smin`, `smax` and an upper bound of its widest term's width, kept up to date by
/// the notifications of its terms' changes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Running {
    smin: TrailedInt,
    smax: TrailedInt,
    widest: TrailedInt,
}

impl Running {
    /// Advises every term (its index as local id) and starts the sums from the domains as
    /// they are; `None` for a short sum.
    fn start(cx: &mut PostContext<'_>, terms: &[Term]) -> Option<Running> {
        if terms.len() < RUNNING_FROM {
            return None;
        }
        for (i, &(_, x)) in terms.iter().enumerate() {
            cx.advise(x, i as u32);
        }
        let Sums { smin, smax, widest } = sums(cx, terms);
        Some(Running { smin: cx.new_int(smin), smax: cx.new_int(smax), widest: cx.new_int(widest) })
    }

    /// Moves the sums by the change of one term's bounds.
    #[inline]
    fn update(self, cx: &mut NotifyContext<'_>, a: i64, old: (Val, Val), new: (Val, Val)) {
        let (old_lo, old_hi) = scaled(a, old);
        let (new_lo, new_hi) = scaled(a, new);
        if new_lo != old_lo {
            cx.set_int(self.smin, cx.int(self.smin) + new_lo - old_lo);
        }
        if new_hi != old_hi {
            cx.set_int(self.smax, cx.int(self.smax) + new_hi - old_hi);
        }
    }

    /// The sums now. In debug builds, checked against a recomputation.
    #[inline]
    fn read(self, cx: &Context<'_>, terms: &[Term]) -> Sums {
        let running = Sums { smin: cx.int(self.smin), smax: cx.int(self.smax), widest: cx.int(self.widest) };
        #[cfg(debug_assertions)]
        {
            let exact = sums(cx, terms);
            debug_assert_eq!((running.smin, running.smax), (exact.smin, exact.smax), "running sums of {terms:?}");
            debug_assert!(running.widest >= exact.widest, "the widest term is wider than its bound");
        }
        #[cfg(not(debug_assertions))]
        let _ = terms;
        running
    }
}

/// The sums from the running ones when there are, else recomputed.
#[inline]
fn current_sums(cx: &Context<'_>, running: Option<Running>, terms: &[Term]) -> Sums {
    match running {
        Some(r) => r.read(cx, terms),
        None => sums(cx, terms),
    }
}

/// Renews the bound of the widest width after a pass that measured it.
#[inline]
fn renew_widest(cx: &mut Context<'_>, running: Option<Running>, widest: i64) {
    if let Some(r) = running {
        if cx.int(r.widest) != widest {
            cx.set_int(r.widest, widest);
        }
    }
}

fn evaluate(terms: &[Term], value: &dyn Fn(VarId) -> Val) -> i128 {
    terms.iter().map(|&(a, x)| a as i128 * value(x) as i128).sum()
}

fn vars_of(terms: &[Term]) -> Vec<VarId> {
    terms.iter().map(|&(_, x)| x).collect()
}

/// The literal that bounds `a·x` from below (`low`) or from above, as the domains were.
pub(crate) fn side(cx: &ExplainContext<'_>, (a, x): Term, low: bool) -> Literal {
    if (a > 0) == low {
        Literal::Gt(x, cx.min(x) - 1)
    } else {
        Literal::Le(x, cx.max(x))
    }
}

/// Why a bound on the term of `lit`'s variable follows from the sum: the other terms' sides
/// opposite to it (an upper bound on `aᵢ·xᵢ` comes from the others' lower bounds, and the
/// other way round). `None` if `lit` is not a bound of one of the terms.
fn explain_bound(terms: &[Term], lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
    let i = terms.iter().position(|&(_, x)| x == lit.var())?;
    let a = terms[i].0;
    let upper_on_term = match lit {
        Literal::Le(..) => a > 0,
        Literal::Gt(..) => a < 0,
        _ => return None,
    };
    Some(terms.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &t)| side(cx, t, upper_on_term)).collect())
}

/// Why the sum cannot meet `rhs` (for `≤`, only from below): every term's side that makes
/// the sum miss it.
fn explain_miss(terms: &[Term], rhs: i64, le_only: bool, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
    let bound =
        |low: bool| terms.iter().map(|&(a, x)| if (a > 0) == low { a * cx.min(x) } else { a * cx.max(x) }).sum::<i64>();
    let low = if bound(true) > rhs {
        true
    } else if !le_only && bound(false) < rhs {
        false
    } else {
        return None;
    };
    Some(terms.iter().map(|&t| side(cx, t, low)).collect())
}

/// `Σ aᵢ·xᵢ ≤ c`
#[derive(Debug, Clone)]
pub struct LinearLe {
    pub(crate) terms: Vec<Term>,
    pub(crate) rhs: i64,
    /// Set by `post` for a long sum (a `LinearLe` run inside another propagator, never
    /// posted, sums afresh).
    running: Option<Running>,
}

impl LinearLe {
    pub(crate) fn new(terms: Vec<Term>, rhs: i64) -> LinearLe {
        LinearLe { terms, rhs, running: None }
    }
}

impl Propagator for LinearLe {
    fn name(&self) -> &'static str {
        "linear <="
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &(_, x) in &self.terms {
            cx.subscribe(x, Events::BOUNDS);
        }
        self.running = Running::start(cx, &self.terms);
        Ok(PropStatus::Active)
    }

    fn notify_bounds(&mut self, cx: &mut NotifyContext<'_>, local: u32, old: (Val, Val), new: (Val, Val)) {
        if let Some(r) = self.running {
            r.update(cx, self.terms[local as usize].0, old, new);
        }
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let Sums { smin, smax, widest } = current_sums(cx, self.running, &self.terms);
        if smin > self.rhs {
            return Err(Conflict);
        }
        if smax <= self.rhs {
            return Ok(PropStatus::Entailed);
        }
        // A term is narrowed only when the slack is below its width.
        if self.rhs - smin >= widest {
            return Ok(PropStatus::Active);
        }
        // Tightening an upper side never changes `smin`, so one pass reaches the fixpoint.
        for &t in &self.terms {
            let (lo, hi) = term_bounds(cx, t);
            let at_most = self.rhs - (smin - lo);
            if at_most < hi {
                let _ = restrict_at_most(cx, t, at_most)?;
            }
        }
        // Read again after the whole pass: a variable in two terms may have moved both.
        let smax = if self.running.is_some() {
            let Sums { smax, widest, .. } = sums(cx, &self.terms);
            renew_widest(cx, self.running, widest);
            smax
        } else {
            self.terms.iter().map(|&t| term_bounds(cx, t).1).sum()
        };
        Ok(if smax <= self.rhs { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        evaluate(&self.terms, value) <= self.rhs as i128
    }

    /// Each term's bound is what the others allow at their best, and they can all be at
    /// their best at once (each variable once): every value within the bound has support.
    fn domain_consistent(&self) -> bool {
        vars_of(&self.terms).len() == self.terms.len()
    }

    fn vars(&self) -> Vec<VarId> {
        vars_of(&self.terms)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        explain_bound(&self.terms, lit, cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        explain_miss(&self.terms, self.rhs, true, cx)
    }
}

/// `Σ aᵢ·xᵢ = c`. The terms are a `Vec` in general; sums of two to four terms (most
/// equations a model or FlatZinc's flattening makes: `x = y + z`, differences) keep them in
/// an array, whose known length lets the compiler unroll the passes.
#[derive(Debug, Clone)]
pub struct LinearEq<T = Vec<Term>> {
    pub(crate) terms: T,
    pub(crate) rhs: i64,
    /// Set by `post` for a long sum, as for [`LinearLe`].
    running: Option<Running>,
}

impl<T> LinearEq<T> {
    pub(crate) fn new(terms: T, rhs: i64) -> LinearEq<T> {
        LinearEq { terms, rhs, running: None }
    }
}

impl LinearEq {
    /// Posts `Σ terms = rhs` with the storage that fits the number of terms.
    pub(crate) fn post(solver: &mut crate::solver::Solver, terms: Vec<Term>, rhs: i64) {
        let _ = match *terms.as_slice() {
            [a, b] => solver.post(Box::new(LinearEq::new([a, b], rhs))),
            [a, b, c] => solver.post(Box::new(LinearEq::new([a, b, c], rhs))),
            [a, b, c, d] => solver.post(Box::new(LinearEq::new([a, b, c, d], rhs))),
            _ => solver.post(Box::new(LinearEq::new(terms, rhs))),
        };
    }
}

impl<T: AsRef<[Term]> + std::fmt::Debug + Send> Propagator for LinearEq<T> {
    fn name(&self) -> &'static str {
        "linear =="
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &(_, x) in self.terms.as_ref() {
            cx.subscribe(x, Events::BOUNDS);
        }
        self.running = Running::start(cx, self.terms.as_ref());
        Ok(PropStatus::Active)
    }

    fn notify_bounds(&mut self, cx: &mut NotifyContext<'_>, local: u32, old: (Val, Val), new: (Val, Val)) {
        if let Some(r) = self.running {
            r.update(cx, self.terms.as_ref()[local as usize].0, old, new);
        }
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (terms, rhs) = (self.terms.as_ref(), self.rhs);
        match self.running {
            None => eq_fixpoint(terms, rhs, cx, |_, _| {}),
            Some(r) => {
                let Sums { smin, smax, widest } = r.read(cx, terms);
                if smin > rhs || smax < rhs {
                    return Err(Conflict);
                }
                if smin == smax {
                    return Ok(PropStatus::Entailed);
                }
                if rhs - smin >= widest && smax - rhs >= widest {
                    return Ok(PropStatus::Active);
                }
                // Summed afresh from here, as a short sum is: a pass over the terms follows
                // anyway (or the bound of the widest width was stale, and is renewed). The
                // prunings of a pass reach the running sums after this call.
                eq_fixpoint(terms, rhs, cx, |cx, widest| renew_widest(cx, Some(r), widest))
            }
        }
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        evaluate(self.terms.as_ref(), value) == self.rhs as i128
    }

    fn vars(&self) -> Vec<VarId> {
        vars_of(self.terms.as_ref())
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        explain_bound(self.terms.as_ref(), lit, cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        explain_miss(self.terms.as_ref(), self.rhs, false, cx)
    }

    fn linear_equation(&self) -> Option<(Vec<(i64, VarId)>, i64)> {
        Some((self.terms.as_ref().to_vec(), self.rhs))
    }
}

/// `=` to its fixpoint from sums computed afresh: both directions of the rule, until a pass
/// changes nothing. `measured` receives the widest width each time the sums are computed.
#[inline(always)]
fn eq_fixpoint(
    terms: &[Term],
    rhs: i64,
    cx: &mut Context<'_>,
    mut measured: impl FnMut(&mut Context<'_>, i64),
) -> PropResult {
    loop {
        let Sums { mut smin, mut smax, widest } = sums(cx, terms);
        measured(cx, widest);
        if smin > rhs || smax < rhs {
            return Err(Conflict);
        }
        if smin == smax {
            return Ok(PropStatus::Entailed);
        }
        // A term can only be narrowed when the slack on one side is smaller than its own
        // width; when both slacks exceed the widest term, no term can be.
        if rhs - smin >= widest && smax - rhs >= widest {
            return Ok(PropStatus::Active);
        }
        let mut changed = false;
        for &t in terms {
            let (lo, hi) = term_bounds(cx, t);
            // Test before dividing: most wake-ups tighten nothing, and division is slow.
            let at_most = rhs - (smin - lo);
            let at_least = rhs - (smax - hi);
            if at_most >= hi && at_least <= lo {
                continue;
            }
            if at_most < hi {
                changed |= restrict_at_most(cx, t, at_most)?;
            }
            if at_least > lo {
                changed |= restrict_at_least(cx, t, at_least)?;
            }
            // Keep the sums exact for the terms that follow in this pass.
            let (new_lo, new_hi) = term_bounds(cx, t);
            smin += new_lo - lo;
            smax += new_hi - hi;
        }
        if !changed {
            return Ok(PropStatus::Active);
        }
    }
}

/// `Σ aᵢ·xᵢ ≠ c`
#[derive(Debug, Clone)]
pub struct LinearNe {
    pub(crate) terms: Vec<Term>,
    pub(crate) rhs: i64,
}

impl Propagator for LinearNe {
    fn name(&self) -> &'static str {
        "linear !="
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &(_, x) in &self.terms {
            cx.subscribe(x, Events::ASSIGNED);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let mut free: Option<Term> = None;
        let mut fixed_sum = 0i64;
        for &(a, x) in &self.terms {
            if cx.is_fixed(x) {
                fixed_sum += a * cx.min(x);
            } else if free.is_some() {
                return Ok(PropStatus::Active);
            } else {
                free = Some((a, x));
            }
        }
        let rest = self.rhs - fixed_sum;
        match free {
            None if rest == 0 => Err(Conflict),
            None => Ok(PropStatus::Entailed),
            Some((a, x)) => {
                if rest % a == 0 {
                    let _ = cx.remove(x, rest / a)?;
                }
                Ok(PropStatus::Entailed)
            }
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        evaluate(&self.terms, value) != self.rhs as i128
    }

    fn vars(&self) -> Vec<VarId> {
        vars_of(&self.terms)
    }

    /// The one value left out because every other variable was fixed.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let Literal::Ne(y, _) = lit else { return None };
        Some(self.terms.iter().filter(|&&(_, x)| x != y).map(|&(_, x)| Literal::Eq(x, cx.min(x))).collect())
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let fixed = self.terms.iter().all(|&(_, x)| cx.min(x) == cx.max(x));
        fixed.then(|| self.terms.iter().map(|&(_, x)| Literal::Eq(x, cx.min(x))).collect())
    }

    fn priority(&self) -> crate::outcome::Priority {
        crate::outcome::Priority::Unary
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;
    use crate::{Branching, SearchConfig, Sense, ValOrder, VarOrder};
    use proptest::prelude::*;
    use std::ops::ControlFlow;

    /// One long sum (at least [`RUNNING_FROM`] terms, so its sums run) over a few
    /// variables: the same variable in several terms, coefficients of both signs.
    #[derive(Debug, Clone)]
    struct Sum {
        terms: Vec<(i64, usize)>,
        eq: bool,
        rhs: i64,
    }

    fn sum_strategy(vars: usize) -> impl Strategy<Value = Sum> {
        (
            proptest::collection::vec((prop_oneof![-3i64..0, 1i64..4], 0..vars), RUNNING_FROM..RUNNING_FROM + 5),
            any::<bool>(),
            -6i64..7,
        )
            .prop_map(|(terms, eq, rhs)| Sum { terms, eq, rhs })
    }

    fn model_strategy() -> impl Strategy<Value = (Vec<Vec<Val>>, Vec<Sum>)> {
        (3usize..6).prop_flat_map(|n| {
            (
                proptest::collection::vec(proptest::collection::btree_set(-2i64..3, 1..5), n),
                proptest::collection::vec(sum_strategy(n), 1..3),
            )
                .prop_map(|(domains, sums)| (domains.into_iter().map(|d| d.into_iter().collect()).collect(), sums))
        })
    }

    fn holds(sums: &[Sum], values: &[Val]) -> bool {
        sums.iter().all(|s| {
            let total: i64 = s.terms.iter().map(|&(a, i)| a * values[i]).sum();
            if s.eq {
                total == s.rhs
            } else {
                total <= s.rhs
            }
        })
    }

    /// Every assignment of the domains that satisfies the sums.
    fn brute_force(domains: &[Vec<Val>], sums: &[Sum]) -> Vec<Vec<Val>> {
        let mut found = Vec::new();
        let mut at = vec![0usize; domains.len()];
        loop {
            let values: Vec<Val> = at.iter().zip(domains).map(|(&k, d)| d[k]).collect();
            if holds(sums, &values) {
                found.push(values);
            }
            let mut k = 0;
            while k < at.len() && at[k] + 1 == domains[k].len() {
                at[k] = 0;
                k += 1;
            }
            if k == at.len() {
                return found;
            }
            at[k] += 1;
        }
    }

    /// The sums posted as the propagators themselves (the post function would merge the
    /// terms of one variable).
    fn build(domains: &[Vec<Val>], sums: &[Sum]) -> (Solver, Vec<VarId>) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).unwrap()).collect();
        for s in sums {
            let terms: Vec<Term> = s.terms.iter().map(|&(a, i)| (a, vars[i])).collect();
            if s.eq {
                LinearEq::post(&mut solver, terms, s.rhs);
            } else {
                let _ = solver.post(Box::new(LinearLe::new(terms, s.rhs)));
            }
        }
        (solver, vars)
    }

    fn config(vars: &[VarId], var_order: VarOrder, learning: bool) -> SearchConfig {
        SearchConfig {
            branching: vec![Branching { vars: vars.to_vec(), var_order, val_order: ValOrder::Split }],
            learning,
            ..SearchConfig::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

        /// Running sums, kept through notifications and restored on backtracking, give
        /// exactly the solutions of brute force: a sum off by a change would prune a
        /// solution or let a wrong one through (the search does not check its solutions
        /// here). With bisection, with and without learning (the nogood database joins
        /// mid-search, conflicts jump back several levels).
        #[test]
        fn running_sums_enumerate_exactly_the_solutions(
            (domains, sums) in model_strategy(),
            order in prop_oneof![Just(VarOrder::Input), Just(VarOrder::DomWdeg)],
            learning in any::<bool>(),
        ) {
            let mut expected = brute_force(&domains, &sums);
            expected.sort();
            let (mut solver, vars) = build(&domains, &sums);
            let mut found = Vec::new();
            if solver.propagate() {
                let outcome = solver.search(&config(&vars, order, learning), |s| {
                    found.push(vars.iter().map(|&x| s.value(x)).collect::<Vec<_>>());
                    ControlFlow::Continue(())
                });
                prop_assert!(outcome.stopped.is_none());
            }
            found.sort();
            prop_assert_eq!(found, expected);
        }

        /// The same with branch and bound, restarts and their nogoods (posted at each
        /// restart, forgotten at the end): the optimum of brute force.
        #[test]
        fn running_sums_prove_the_optimum_under_restarts(
            (domains, sums) in model_strategy(),
            objective in 0usize..3,
            learning in any::<bool>(),
        ) {
            let expected = brute_force(&domains, &sums).iter().map(|v| v[objective]).min();
            let (mut solver, vars) = build(&domains, &sums);
            let mut best = None;
            if solver.propagate() {
                let config = SearchConfig {
                    objective: Some((vars[objective], Sense::Minimize)),
                    restart_scale: Some(1),
                    nogoods: true,
                    phase_saving: true,
                    ..config(&vars, VarOrder::DomWdeg, learning)
                };
                let outcome = solver.search(&config, |s| {
                    best = Some(s.value(vars[objective]));
                    ControlFlow::Continue(())
                });
                prop_assert!(outcome.stopped.is_none());
            }
            prop_assert_eq!(best, expected);
        }
    }

    proptest! {
        /// `Σ aᵢ·xᵢ ≤ c` alone leaves each variable exactly the values of its solutions
        /// (what [`Propagator::domain_consistent`] claims).
        #[test]
        fn linear_le_is_domain_consistent(
            domains in proptest::collection::vec(proptest::collection::btree_set(-4i64..5, 1..5), 1..4),
            coefs in proptest::collection::vec(prop_oneof![-3i64..0, 1i64..4], 3),
            rhs in -12i64..12,
        ) {
            let mut solver = Solver::new();
            let vars: Vec<VarId> = domains
                .iter()
                .map(|d| solver.new_var_in(&d.iter().copied().collect::<Vec<_>>()).unwrap())
                .collect();
            let terms: Vec<Term> = vars.iter().zip(&coefs).map(|(&x, &a)| (a, x)).collect();
            let prop = LinearLe::new(terms.clone(), rhs);
            prop_assert!(prop.domain_consistent());
            solver.post(Box::new(prop));
            let consistent = solver.propagate();
            // Brute force: the values each variable takes in some solution.
            let lists: Vec<Vec<Val>> = domains.iter().map(|d| d.iter().copied().collect()).collect();
            let mut support: Vec<std::collections::BTreeSet<Val>> = vec![Default::default(); vars.len()];
            let mut at = vec![0usize; vars.len()];
            loop {
                let sum: i64 = terms.iter().enumerate().map(|(k, &(a, _))| a * lists[k][at[k]]).sum();
                if sum <= rhs {
                    for k in 0..vars.len() {
                        support[k].insert(lists[k][at[k]]);
                    }
                }
                let mut k = 0;
                while k < at.len() && at[k] + 1 == lists[k].len() {
                    at[k] = 0;
                    k += 1;
                }
                if k == at.len() {
                    break;
                }
                at[k] += 1;
            }
            if support[0].is_empty() {
                prop_assert!(!consistent);
            } else {
                prop_assert!(consistent);
                for (k, &x) in vars.iter().enumerate() {
                    prop_assert_eq!(solver.values(x).collect::<Vec<_>>(), support[k].iter().copied().collect::<Vec<_>>());
                }
            }
        }
    }
}
