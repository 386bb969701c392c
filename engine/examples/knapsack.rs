//! Optimisation: a 0/1 knapsack by branch and bound.
//!
//! Each item is taken or not (a 0/1 variable); the weights taken must fit the capacity,
//! and the value taken is the objective. With [`SearchConfig::objective`] set, every
//! solution the search reports is strictly better than the one before, so the last one is
//! the best, and a search that ends without a stop has proven it optimal.
//!
//! Run it with `cargo run --release -p cpsolve-engine --example knapsack`.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{Branching, ModelError, Rel, SearchConfig, Sense, Solver, Val, ValOrder, VarOrder};

/// Items as (weight, value).
const ITEMS: [(Val, Val); 5] = [(12, 4), (2, 2), (1, 1), (1, 2), (4, 10)];
const CAPACITY: Val = 15;

/// The best choice found and the value of each improving solution, in the order found.
struct Answer {
    taken: Vec<bool>,
    improvements: Vec<Val>,
    proven: bool,
}

fn solve(items: &[(Val, Val)], capacity: Val) -> Result<Answer, ModelError> {
    let mut solver = Solver::new();
    let mut take = Vec::new();
    for _ in items {
        take.push(solver.new_var(0, 1)?);
    }
    let total: Val = items.iter().map(|&(_, v)| v).sum();
    let value = solver.new_var(0, total)?;
    let weights: Vec<_> = items.iter().zip(&take).map(|(&(w, _), &x)| (w, x)).collect();
    linear(&mut solver, &weights, Rel::Le, capacity)?;
    let mut values: Vec<_> = items.iter().zip(&take).map(|(&(_, v), &x)| (v, x)).collect();
    values.push((-1, value));
    linear(&mut solver, &values, Rel::Eq, 0)?;

    let config = SearchConfig {
        // Try taking each item first: good solutions early make the bound cut sooner.
        branching: vec![Branching { vars: take.clone(), var_order: VarOrder::Input, val_order: ValOrder::Max }],
        objective: Some((value, Sense::Maximize)),
        ..SearchConfig::default()
    };
    let mut answer = Answer { taken: Vec::new(), improvements: Vec::new(), proven: false };
    let outcome = solver.search(&config, |s| {
        answer.taken = take.iter().map(|&x| s.value(x) == 1).collect();
        answer.improvements.push(s.value(value));
        ControlFlow::Continue(())
    });
    answer.proven = outcome.stopped.is_none();
    Ok(answer)
}

fn main() -> Result<(), ModelError> {
    let answer = solve(&ITEMS, CAPACITY)?;
    let improvements: Vec<String> = answer.improvements.iter().map(Val::to_string).collect();
    println!("values found, each better than the last: {}", improvements.join(", "));
    let chosen: Vec<String> = ITEMS
        .iter()
        .zip(&answer.taken)
        .filter(|&(_, &t)| t)
        .map(|(&(w, v), _)| format!("(weight {w}, value {v})"))
        .collect();
    println!("best: {} {}", chosen.join(" "), if answer.proven { "(proven optimal)" } else { "(not proven)" });
    assert!(answer.proven && answer.improvements.last() == Some(&15), "the optimum is 15");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best value over all subsets that fit, by enumeration.
    fn brute_force(items: &[(Val, Val)], capacity: Val) -> Val {
        (0u32..1 << items.len())
            .filter_map(|set| {
                let chosen = items.iter().enumerate().filter(|&(i, _)| set >> i & 1 == 1);
                let (w, v) = chosen.fold((0, 0), |(w, v), (_, &(wi, vi))| (w + wi, v + vi));
                (w <= capacity).then_some(v)
            })
            .max()
            .expect("the empty set always fits")
    }

    #[test]
    fn branch_and_bound_finds_the_proven_optimum() {
        let answer = solve(&ITEMS, CAPACITY).expect("a valid model");
        assert!(answer.proven);
        assert_eq!(answer.improvements.last(), Some(&15));
        assert_eq!(answer.taken, [false, true, true, true, true]);
        assert!(answer.improvements.windows(2).all(|w| w[0] < w[1]), "each solution improves");
    }

    #[test]
    fn the_optimum_matches_brute_force_at_every_capacity() {
        for capacity in 0..=20 {
            let answer = solve(&ITEMS, capacity).expect("a valid model");
            assert!(answer.proven);
            assert_eq!(answer.improvements.last().copied(), Some(brute_force(&ITEMS, capacity)), "capacity {capacity}");
        }
    }
}
