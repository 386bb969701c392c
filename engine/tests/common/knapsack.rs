//! A random knapsack-like model for the branch-and-bound tests, with its brute force:
//! `n` variables in `0..=hi`, a weighted capacity `Σ wᵢ·xᵢ ≤ cap`, an optional
//! all-different, and the objective `Σ pᵢ·xᵢ`.

use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::{Consistency, Rel, Solver, Val, VarId};
use proptest::prelude::*;

/// A random model (see the module doc).
#[derive(Debug, Clone)]
pub(crate) struct Model {
    pub(crate) hi: Val,
    pub(crate) weights: Vec<Val>,
    pub(crate) profits: Vec<Val>,
    pub(crate) cap: Val,
    pub(crate) distinct: bool,
}

pub(crate) fn model() -> impl Strategy<Value = Model> {
    (2usize..=5, 1i64..=3).prop_flat_map(|(n, hi)| {
        (Just(hi), prop::collection::vec(1i64..=6, n), prop::collection::vec(-4i64..=7, n), 0i64..=20, any::<bool>())
            .prop_map(|(hi, weights, profits, cap, distinct)| Model { hi, weights, profits, cap, distinct })
    })
}

/// Every assignment that satisfies the model, with its objective (by brute force).
pub(crate) fn feasible(m: &Model) -> Vec<(Vec<Val>, Val)> {
    let n = m.weights.len();
    let mut values = vec![0; n];
    let mut found = Vec::new();
    loop {
        let weight: Val = values.iter().zip(&m.weights).map(|(v, w)| v * w).sum();
        let distinct = !m.distinct || (0..n).all(|i| (i + 1..n).all(|j| values[i] != values[j]));
        if weight <= m.cap && distinct {
            found.push((values.clone(), values.iter().zip(&m.profits).map(|(v, p)| v * p).sum()));
        }
        let Some(i) = values.iter().position(|&v| v < m.hi) else { return found };
        values[i] += 1;
        values[..i].fill(0);
    }
}

/// The model's variables and objective, posted.
pub(crate) fn build(m: &Model) -> (Solver, Vec<VarId>, VarId) {
    let mut solver = Solver::new();
    let xs: Vec<_> = m.weights.iter().map(|_| solver.new_var(0, m.hi).expect("a small range")).collect();
    let lo: Val = m.profits.iter().map(|&p| (p * m.hi).min(0)).sum();
    let hi: Val = m.profits.iter().map(|&p| (p * m.hi).max(0)).sum();
    let objective = solver.new_var(lo, hi).expect("a small range");
    let weights: Vec<_> = m.weights.iter().zip(&xs).map(|(&w, &x)| (w, x)).collect();
    linear(&mut solver, &weights, Rel::Le, m.cap).expect("no overflow");
    let mut profits: Vec<_> = m.profits.iter().zip(&xs).map(|(&p, &x)| (p, x)).collect();
    profits.push((-1, objective));
    linear(&mut solver, &profits, Rel::Eq, 0).expect("no overflow");
    if m.distinct {
        all_different(&mut solver, &xs, &[], Consistency::Value);
    }
    (solver, xs, objective)
}
