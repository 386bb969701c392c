//! Counting arguments: equations added up until nothing but a false `0 = c` is left.
//!
//! Propagation reads each constraint on its own. Three rows that must each sum to 15 and
//! three columns that must each sum to 16 leave every cell of a 3×3 grid free in 1..9, yet a
//! person sees at once that the nine cells cannot sum to 45 and to 48. The argument adds the
//! rows, subtracts the columns, and every cell cancels: `0 = −3`.
//!
//! Here the groups whose propagators enforce a linear equation
//! ([`crate::propagator::Propagator::linear_equation`]) are eliminated against each other
//! (fraction-free Gaussian elimination over exact integers, each row remembering which
//! multiples of the original equations made it). A row whose variables all cancel and whose
//! right-hand side does not is a contradiction, and its multiples are the certificate. The
//! certificate is then made minimal by deletion: each equation is dropped when the rest are
//! still contradictory. The step is checked by adding the cited equations up again, times
//! their factors ([`check_sum`]): plain arithmetic, independent of the elimination.
//!
//! # Permutations
//! An all-different constraint is an equation too, when its `n` terms can take exactly `n`
//! values between them (the union of their root domains): each value is then taken once,
//! so the terms sum to the sum of those values ([`permutation_sum`]). A 4×4 square of
//! different numbers 1..16 sums to 136, so its rows cannot each sum to 35 (140): the four
//! rows less the all-different add up to `0 = 4`, one step citing five constraints. With
//! fewer values than terms (a pigeonhole) the all-different fails on its own, and with
//! more the sum is not fixed: no equation. The check recomputes the equation from the
//! propagator's declared terms ([`crate::propagator::Propagator::distinct_terms`]) and the
//! root domains, as it does a linear equation from its declaration.

use std::collections::BTreeMap;

use crate::ids::VarId;
use crate::solver::Solver;

use super::{Conclusion, Driver, Reasoning, Step};

/// Models with more equations than this are not searched for a counting argument: the
/// elimination is quadratic in them.
const MAX_EQUATIONS: usize = 2_000;

/// A group's equation: the group, the terms `(a, x)` and the right-hand side.
type GroupEquation = (usize, Vec<(i64, VarId)>, i64);

/// An equation `Σ coefs = rhs`, with the multiples of the original equations that sum to it.
#[derive(Debug, Clone)]
struct Row {
    coefs: BTreeMap<VarId, i128>,
    rhs: i128,
    made_of: BTreeMap<usize, i128>,
}

impl Driver<'_> {
    /// A contradiction by adding up the equations of a few groups, or `None` when the
    /// model's equations are consistent (over the rationals) or too many to eliminate.
    pub(super) fn sum_step(&mut self) -> Option<Step> {
        if self.sum_tried {
            return None;
        }
        // The equations are the model's own: they do not change from step to step, so
        // one search serves the whole explanation.
        self.sum_tried = true;
        let equations = group_equations(self.solver, &self.config.groups);
        if equations.is_empty() || equations.len() > MAX_EQUATIONS {
            return None;
        }
        let mut support: Vec<usize> =
            contradiction(&equations, &(0..equations.len()).collect::<Vec<_>>())?.keys().copied().collect();
        let mut k = support.len();
        while k > 0 {
            k -= 1;
            let mut fewer = support.clone();
            fewer.remove(k);
            if contradiction(&equations, &fewer).is_some() {
                support = fewer;
            }
        }
        let factors = contradiction(&equations, &support)?;
        let mut cited: Vec<(usize, i64)> = Vec::with_capacity(factors.len());
        for (e, factor) in factors {
            cited.push((equations[e].0, i64::try_from(factor).ok()?));
        }
        cited.sort_unstable();
        let groups = cited.iter().map(|&(g, _)| g).collect::<Vec<usize>>();
        let factors = cited.iter().map(|&(_, f)| f).collect::<Vec<i64>>();
        let total = sum_of(self.solver, &self.config.groups, &groups, &factors)?.1;
        let total = i64::try_from(total).ok()?;
        Some(Step {
            reasoning: Reasoning::Sum { factors, total },
            groups,
            facts: Vec::new(),
            conclusion: Conclusion::Contradiction,
            stall: None,
            clash: None,
            chain: Vec::new(),
        })
    }
}

/// The equation of each group that has one, with the group's index.
fn group_equations(solver: &Solver, groups: &[Vec<crate::ids::PropId>]) -> Vec<GroupEquation> {
    groups
        .iter()
        .enumerate()
        .filter_map(|(g, props)| equation_of(solver, props).map(|(terms, rhs)| (g, terms, rhs)))
        .collect()
}

/// A group's equation: the first of its propagators that is one (the group implies it),
/// else the sum a permutation fixes.
fn equation_of(solver: &Solver, props: &[crate::ids::PropId]) -> Option<(Vec<(i64, VarId)>, i64)> {
    props.iter().find_map(|p| solver.props[p.index()].linear_equation()).or_else(|| {
        let p = permutation_sum(solver, props)?;
        Some((p.terms.iter().map(|&(x, _)| (1, x)).collect(), p.sum))
    })
}

/// What an all-different whose terms can take exactly as many values as it has terms
/// implies: the terms take each value once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermutationSum {
    /// The terms `xᵢ + oᵢ`, as `(xᵢ, oᵢ)`.
    pub terms: Vec<(VarId, i64)>,
    /// The values the terms take, each once (the union of their root domains, shifted).
    pub values: super::Values,
    /// `Σ xᵢ`: the sum of the values less the offsets.
    pub sum: i64,
}

/// The sum a group's all-different fixes (see the module documentation), from the root
/// domains; `None` when the group has no all-different, or its terms' values are not
/// exactly as many as its terms.
pub fn permutation_sum(solver: &Solver, props: &[crate::ids::PropId]) -> Option<PermutationSum> {
    let terms = props.iter().find_map(|p| solver.props[p.index()].distinct_terms())?;
    let mut union = std::collections::BTreeSet::new();
    for &(x, o) in &terms {
        for v in solver.values(x) {
            union.insert(v.checked_add(o)?);
            // More values than terms: the sum is not fixed (and a wide domain is not read
            // to its end).
            if union.len() > terms.len() {
                return None;
            }
        }
    }
    if union.len() != terms.len() {
        return None;
    }
    let mut sum: i64 = 0;
    for v in &union {
        sum = sum.checked_add(*v)?;
    }
    for &(_, o) in &terms {
        sum = sum.checked_sub(o)?;
    }
    Some(PermutationSum { terms, values: super::Values::from_ascending(union), sum })
}

/// Multiples of the chosen equations (by position in `equations`) whose sum cancels every
/// variable but not the right-hand side, if there are any.
fn contradiction(equations: &[GroupEquation], chosen: &[usize]) -> Option<BTreeMap<usize, i128>> {
    // Pivot rows in the order they were made: a pivot row holds no variable of an
    // earlier pivot, so one pass in this order clears a new row of every pivot variable.
    let mut pivots: Vec<(VarId, Row)> = Vec::new();
    for &e in chosen {
        let (_, terms, rhs) = &equations[e];
        let mut row = Row { coefs: BTreeMap::new(), rhs: *rhs as i128, made_of: BTreeMap::from([(e, 1)]) };
        for &(a, x) in terms {
            *row.coefs.entry(x).or_insert(0) += a as i128;
        }
        row.coefs.retain(|_, a| *a != 0);
        for (x, pivot) in &pivots {
            if let Some(&a) = row.coefs.get(x) {
                // Overflow: no argument found here (never a wrong one).
                row = eliminate(&row, pivot, a, pivot.coefs[x])?;
            }
        }
        match row.coefs.keys().next() {
            Some(&x) => pivots.push((x, row)),
            None if row.rhs != 0 => return Some(row.made_of),
            None => {}
        }
    }
    None
}

/// `p·row − a·pivot`, `a` the row's coefficient of the pivot variable and `p` the pivot's,
/// divided by the common divisor of everything.
fn eliminate(row: &Row, pivot: &Row, a: i128, p: i128) -> Option<Row> {
    let combine = |mine: i128, theirs: i128| p.checked_mul(mine)?.checked_sub(a.checked_mul(theirs)?);
    let mut coefs = BTreeMap::new();
    for x in row.coefs.keys().chain(pivot.coefs.keys()) {
        if coefs.contains_key(x) {
            continue;
        }
        let c = combine(*row.coefs.get(x).unwrap_or(&0), *pivot.coefs.get(x).unwrap_or(&0))?;
        coefs.insert(*x, c);
    }
    coefs.retain(|_, c| *c != 0);
    let mut made_of = BTreeMap::new();
    for e in row.made_of.keys().chain(pivot.made_of.keys()) {
        if made_of.contains_key(e) {
            continue;
        }
        let c = combine(*row.made_of.get(e).unwrap_or(&0), *pivot.made_of.get(e).unwrap_or(&0))?;
        made_of.insert(*e, c);
    }
    made_of.retain(|_, c| *c != 0);
    let rhs = combine(row.rhs, pivot.rhs)?;
    let divisor = coefs.values().chain(made_of.values()).fold(rhs.unsigned_abs(), |g, c| gcd(g, c.unsigned_abs()));
    let divisor = divisor.max(1) as i128;
    for c in coefs.values_mut().chain(made_of.values_mut()) {
        *c /= divisor;
    }
    Some(Row { coefs, rhs: rhs / divisor, made_of })
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The cited groups' equations, each times its factor, added up: the coefficients and the
/// right-hand side. `None` when a group has no equation or the numbers overflow.
fn sum_of(
    solver: &Solver,
    groups: &[Vec<crate::ids::PropId>],
    cited: &[usize],
    factors: &[i64],
) -> Option<(BTreeMap<VarId, i128>, i128)> {
    let mut coefs: BTreeMap<VarId, i128> = BTreeMap::new();
    let mut rhs: i128 = 0;
    for (&g, &f) in cited.iter().zip(factors) {
        let (terms, c) = equation_of(solver, &groups[g])?;
        for (a, x) in terms {
            let sum = coefs.entry(x).or_insert(0);
            *sum = sum.checked_add(a as i128 * f as i128)?;
        }
        rhs = rhs.checked_add(c as i128 * f as i128)?;
    }
    Some((coefs, rhs))
}

/// The check of a counting step: the cited groups' equations, each times its factor, add
/// up to `0 = total` with `total ≠ 0`.
pub(crate) fn check_sum(
    solver: &Solver,
    groups: &[Vec<crate::ids::PropId>],
    cited: &[usize],
    factors: &[i64],
    total: i64,
) -> bool {
    if cited.is_empty() || cited.len() != factors.len() {
        return false;
    }
    match sum_of(solver, groups, cited, factors) {
        Some((coefs, rhs)) => coefs.values().all(|&a| a == 0) && rhs != 0 && rhs == total as i128,
        None => false,
    }
}
