//! Branch and bound over the parts of a split, with a bound shared between the parts while
//! they run ([`SharedBound`]), never loses the optimum: on random small models, each part
//! searched in a fresh solver (in a random order, or all at once on threads), the best the
//! parts found and the shared bound prove the brute-force optimum, and every part's claim
//! holds: no assignment of its subtree is better than the better of its own best and the
//! shared bound when it ended. The shared bound may also start from the objective of any
//! feasible assignment, as one found by a part elsewhere would be. The parts may learn from
//! failures and restart (a part's own search is free to): the bound's cuts are axioms there.

mod common;

use std::ops::ControlFlow;

use common::knapsack::{build, feasible, model, Model};
use common::{VAL_ORDERS, VAR_ORDERS};
use cpsolve_engine::{Branching, Literal, SearchConfig, Sense, SharedBound, Subproblem, Val, VarId};
use proptest::prelude::*;

/// Whether `a` is strictly better than `b` under `sense`.
fn better(a: Val, b: Val, sense: Sense) -> bool {
    match sense {
        Sense::Minimize => a < b,
        Sense::Maximize => a > b,
    }
}

fn config(xs: &[VarId], objective: VarId, sense: Sense, orders: (usize, usize), shared: &SharedBound) -> SearchConfig {
    // Order 2 (dom/wdeg) stands for a part that learns and restarts.
    let learning = orders.0 == 2;
    SearchConfig {
        branching: vec![Branching {
            vars: xs.to_vec(),
            var_order: VAR_ORDERS[orders.0],
            val_order: VAL_ORDERS[orders.1],
        }],
        objective: Some((objective, sense)),
        shared_bound: Some(shared.clone()),
        check_solutions: true,
        learning,
        restart_scale: learning.then_some(2),
        ..SearchConfig::default()
    }
}

/// Whether the assignment `values` of the model's variables (`xs` are `VarId(0..n)`) lies in
/// the subtree below `path`.
fn in_subtree(values: &[Val], path: &[Literal]) -> bool {
    path.iter().all(|&literal| {
        let at = |x: VarId| values.get(x.index());
        match literal {
            // A literal on the objective is implied by the values; only the model's
            // variables choose the subtree.
            Literal::Eq(x, v) => at(x).is_none_or(|&a| a == v),
            Literal::Ne(x, v) => at(x).is_none_or(|&a| a != v),
            Literal::Le(x, v) => at(x).is_none_or(|&a| a <= v),
            Literal::Gt(x, v) => at(x).is_none_or(|&a| a > v),
        }
    })
}

/// Searches the subtree below `path` in a fresh solver sharing `shared`: the best objective
/// it found itself, or `None`.
fn search_part(
    m: &Model,
    path: &Subproblem,
    sense: Sense,
    orders: (usize, usize),
    shared: &SharedBound,
) -> Option<Val> {
    let (mut solver, xs, objective) = build(m);
    if !solver.apply(path) {
        return None;
    }
    let mut own = None;
    let outcome = solver.search(&config(&xs, objective, sense, orders, shared), |s| {
        own = Some(s.value(objective));
        ControlFlow::Continue(())
    });
    assert!(outcome.stopped.is_none(), "a search without limits ends on its own");
    own
}

/// Splits the model, searches the parts (in `order`'s permutation, or on threads all at
/// once) sharing a bound seeded with `seed`, and checks the optimum and every part's claim.
fn check(m: &Model, sense: Sense, orders: (usize, usize), seed: Option<usize>, order: &[usize], threads: bool) {
    let assignments = feasible(m);
    let optimum = assignments.iter().map(|&(_, v)| v).reduce(|a, b| if better(a, b, sense) { a } else { b });
    let shared = SharedBound::new();
    if let Some(i) = seed.filter(|_| !assignments.is_empty()) {
        shared.offer(assignments[i % assignments.len()].1, sense);
    }
    let (mut solver, xs, objective) = build(m);
    let parts = solver.split(&config(&xs, objective, sense, orders, &SharedBound::new()), 6);
    let own: Vec<Option<Val>> = if threads {
        std::thread::scope(|scope| {
            let running: Vec<_> =
                parts.iter().map(|p| scope.spawn(|| search_part(m, p, sense, orders, &shared))).collect();
            running.into_iter().map(|r| r.join().expect("a part does not panic")).collect()
        })
    } else {
        let mut own = vec![None; parts.len()];
        for &i in order.iter().filter(|&&i| i < parts.len()).chain(&(order.len()..parts.len()).collect::<Vec<_>>()) {
            own[i] = search_part(m, &parts[i], sense, orders, &shared);
        }
        own
    };
    let end = shared.best(sense);
    // The answer: the best any part found, or the bound it was seeded with.
    let best = own.iter().flatten().copied().chain(end).reduce(|a, b| if better(a, b, sense) { a } else { b });
    assert_eq!(best, optimum, "the parts and the shared bound prove the optimum");
    assert_eq!(end, optimum, "every improving solution reached the shared bound");
    for (path, own) in parts.iter().zip(&own) {
        let claim = [*own, end].into_iter().flatten().reduce(|a, b| if better(a, b, sense) { a } else { b });
        for (values, v) in assignments.iter().filter(|(values, _)| in_subtree(values, path)) {
            let claim = claim.expect("a part with an assignment found one or was cut by a bound");
            assert!(!better(*v, claim, sense), "{values:?} ({v}) in part {path:?} beats its claim {claim}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parts_sharing_a_bound_in_turns_prove_the_brute_force_optimum(
        m in model(),
        maximize in any::<bool>(),
        var_order in 0usize..3,
        val_order in 0usize..4,
        seed in prop::option::of(0usize..100),
        order in Just((0..16).collect::<Vec<usize>>()).prop_shuffle(),
    ) {
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        check(&m, sense, (var_order, val_order), seed, &order, false);
    }

    #[test]
    fn parts_sharing_a_bound_on_threads_prove_the_brute_force_optimum(
        m in model(),
        maximize in any::<bool>(),
        var_order in 0usize..3,
        val_order in 0usize..4,
        seed in prop::option::of(0usize..100),
    ) {
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        check(&m, sense, (var_order, val_order), seed, &[], true);
    }
}

/// A shared bound cuts: parts searched after the one holding the optimum find nothing, and
/// the number of nodes is smaller than without sharing.
#[test]
fn a_shared_bound_prunes_the_parts_searched_later() {
    let m = Model { hi: 3, weights: vec![1, 1, 1, 1, 1], profits: vec![5, 4, 3, 2, 1], cap: 20, distinct: false };
    let sense = Sense::Maximize;
    let nodes = |share: bool| {
        let shared = SharedBound::new();
        let (mut solver, xs, objective) = build(&m);
        let parts = solver.split(&config(&xs, objective, sense, (0, 1), &shared), 8);
        let mut nodes = 0;
        let mut found = 0;
        for path in &parts {
            let shared = if share { shared.clone() } else { SharedBound::new() };
            let (mut solver, xs, objective) = build(&m);
            assert!(solver.apply(path));
            found +=
                solver.search(&config(&xs, objective, sense, (0, 1), &shared), |_| ControlFlow::Continue(())).solutions;
            nodes += solver.stats().nodes;
        }
        (nodes, found)
    };
    let (shared_nodes, shared_found) = nodes(true);
    let (alone_nodes, alone_found) = nodes(false);
    // Values largest first: the first part holds the optimum, all 3s.
    assert_eq!(shared_found, 1, "only the first part finds a solution");
    assert!(alone_found > 1);
    assert!(shared_nodes < alone_nodes, "{shared_nodes} nodes shared, {alone_nodes} alone");
}
