//! Branch and bound with solution-based phase saving, restarts and nogoods recorded at the
//! restarts proves the same optimum as a brute force over every assignment, whatever the
//! orders and the restart scale: the saved phases only reorder the values tried, never remove
//! one, and a nogood removes only subtrees already refuted. A satisfaction search with
//! nogoods finds a solution exactly when one exists, and the solver searched again
//! afterwards has forgotten them (it counts every solution).

mod common;

use std::ops::ControlFlow;

use common::knapsack::{build, feasible, model, Model};
use common::{VAL_ORDERS, VAR_ORDERS};
use cpsolve_engine::{Branching, Limits, SearchConfig, Sense, Val};
use proptest::prelude::*;

/// The objective of every assignment that satisfies the model.
fn feasible_profits(m: &Model) -> Vec<Val> {
    feasible(m).into_iter().map(|(_, profit)| profit).collect()
}

/// The best objective over every assignment, or `None` when none is feasible.
fn brute_force(m: &Model, sense: Sense) -> Option<Val> {
    let profits = feasible_profits(m).into_iter();
    match sense {
        Sense::Maximize => profits.max(),
        Sense::Minimize => profits.min(),
    }
}

/// The optimum proved by the engine, and whether every solution it reported improved on
/// the one before.
fn solve(
    m: &Model,
    sense: Sense,
    var_order: usize,
    val_order: usize,
    restarts: Option<u64>,
    nogoods: bool,
) -> (Option<Val>, bool) {
    let (mut solver, xs, objective) = build(m);
    let config = SearchConfig {
        branching: vec![Branching { vars: xs, var_order: VAR_ORDERS[var_order], val_order: VAL_ORDERS[val_order] }],
        objective: Some((objective, sense)),
        check_solutions: true,
        restart_scale: restarts,
        phase_saving: true,
        nogoods,
        ..SearchConfig::default()
    };
    let mut last = None;
    let mut improving = true;
    let outcome = solver.search(&config, |s| {
        let v = s.value(objective);
        if let Some(before) = last {
            improving &= match sense {
                Sense::Maximize => v > before,
                Sense::Minimize => v < before,
            };
        }
        last = Some(v);
        ControlFlow::Continue(())
    });
    assert!(outcome.stopped.is_none(), "a search without limits ends on its own");
    (last, improving)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn phase_saving_proves_the_brute_force_optimum(
        m in model(),
        maximize in any::<bool>(),
        var_order in 0..VAR_ORDERS.len(),
        val_order in 0..VAL_ORDERS.len(),
        restarts in prop::option::of(1u64..=4),
        nogoods in any::<bool>(),
    ) {
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        let (found, improving) = solve(&m, sense, var_order, val_order, restarts, nogoods);
        prop_assert_eq!(found, brute_force(&m, sense));
        prop_assert!(improving, "each solution must improve on the one before");
    }

    #[test]
    fn nogoods_keep_every_solution_reachable(
        m in model(),
        at_least in -10i64..=20,
        var_order in 0..VAR_ORDERS.len(),
        val_order in 0..VAL_ORDERS.len(),
        scale in 1u64..=3,
    ) {
        let (mut solver, xs, objective) = build(&m);
        solver.set_min(objective, at_least);
        let branching = vec![Branching { vars: xs.clone(), var_order: VAR_ORDERS[var_order], val_order: VAL_ORDERS[val_order] }];
        let first = SearchConfig {
            branching: branching.clone(),
            limits: Limits { solutions: Some(1), ..Limits::default() },
            check_solutions: true,
            restart_scale: Some(scale),
            nogoods: true,
            ..SearchConfig::default()
        };
        let outcome = solver.search(&first, |_| ControlFlow::Continue(()));
        let feasible = brute_force(&m, Sense::Maximize).is_some_and(|best| best >= at_least);
        prop_assert_eq!(outcome.solutions == 1, feasible);
        // Branch and bound with nogoods: they hold only under its bound.
        let best = SearchConfig {
            branching: branching.clone(),
            objective: Some((objective, Sense::Maximize)),
            check_solutions: true,
            restart_scale: Some(scale),
            nogoods: true,
            ..SearchConfig::default()
        };
        let _ = solver.search(&best, |_| ControlFlow::Continue(()));
        // Searched again, without restarts: the nogoods of the searches before are gone.
        let all = SearchConfig { branching, check_solutions: true, ..SearchConfig::default() };
        let outcome = solver.search(&all, |_| ControlFlow::Continue(()));
        prop_assert!(outcome.stopped.is_none());
        let with_bound = feasible_profits(&m).into_iter().filter(|&p| p >= at_least).count() as u128;
        prop_assert_eq!(outcome.solutions, with_bound);
    }
}
