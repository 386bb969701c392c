//! A resumable search stopped every `k` nodes and resumed until it ends is the search run
//! once without stopping: the same solutions in the same order, and the same nodes and
//! failures in total (replaying the stopped node is not counted), whatever the orders —
//! dom/wdeg included, whose weights a replay must not raise again.

mod common;

use std::ops::ControlFlow;

use common::{VAL_ORDERS, VAR_ORDERS};
use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::{Branching, Consistency, Limits, Rel, SearchConfig, Solver, Stop, Val};
use proptest::prelude::*;

/// A random model: `n` variables in `0..=hi`, a few linear constraints `Σ aᵢ·xᵢ rel rhs`,
/// and an optional all-different.
#[derive(Debug, Clone)]
struct Model {
    hi: Val,
    n: usize,
    linears: Vec<(Vec<Val>, Rel, Val)>,
    distinct: bool,
}

fn rel() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Le), Just(Rel::Ge), Just(Rel::Eq), Just(Rel::Ne)]
}

fn model() -> impl Strategy<Value = Model> {
    (2usize..=6, 1i64..=4).prop_flat_map(|(n, hi)| {
        let linear = (prop::collection::vec(-3i64..=3, n), rel(), -6i64..=12);
        (Just(hi), Just(n), prop::collection::vec(linear, 0..=3), any::<bool>())
            .prop_map(|(hi, n, linears, distinct)| Model { hi, n, linears, distinct })
    })
}

/// The solutions in the order found, and the nodes and failures spent.
#[derive(Debug, PartialEq)]
struct Run {
    solutions: Vec<Vec<Val>>,
    nodes: u64,
    failures: u64,
}

/// Searches every solution; with `every`, in searches of at most that many nodes each,
/// each resuming the one before, until one ends.
fn run(m: &Model, var_order: usize, val_order: usize, every: Option<u64>) -> Run {
    let mut solver = Solver::new();
    let xs: Vec<_> = (0..m.n).map(|_| solver.new_var(0, m.hi).expect("a small range")).collect();
    for (coefs, rel, rhs) in &m.linears {
        let terms: Vec<_> = coefs.iter().copied().zip(xs.iter().copied()).collect();
        linear(&mut solver, &terms, *rel, *rhs).expect("no overflow");
    }
    if m.distinct {
        all_different(&mut solver, &xs, &[], Consistency::Value);
    }
    let config = SearchConfig {
        branching: vec![Branching {
            vars: xs.clone(),
            var_order: VAR_ORDERS[var_order],
            val_order: VAL_ORDERS[val_order],
        }],
        check_solutions: true,
        limits: Limits { nodes: every, ..Limits::default() },
        resumable: every.is_some(),
        ..SearchConfig::default()
    };
    let mut solutions = Vec::new();
    let mut searches = 0;
    loop {
        let outcome = solver.search(&config, |s| {
            solutions.push(xs.iter().map(|&x| s.value(x)).collect());
            ControlFlow::Continue(())
        });
        searches += 1;
        assert!(searches < 100_000, "a resumed search must make progress");
        match outcome.stopped {
            None => break,
            Some(Stop::Nodes) => continue,
            Some(other) => panic!("unexpected stop {other:?}"),
        }
    }
    let stats = solver.stats();
    Run { solutions, nodes: stats.nodes, failures: stats.failures }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn a_search_resumed_every_k_nodes_is_the_search_run_once(
        m in model(),
        var_order in 0..VAR_ORDERS.len(),
        val_order in 0..VAL_ORDERS.len(),
        every in 1u64..=20,
    ) {
        let once = run(&m, var_order, val_order, None);
        let resumed = run(&m, var_order, val_order, Some(every));
        prop_assert_eq!(resumed, once);
    }
}

/// A search that is not resumable, after one that stopped resumably, starts at the root:
/// the place kept is forgotten. A resumable one goes on from it.
#[test]
fn a_search_that_is_not_resumable_starts_at_the_root() {
    let mut solver = Solver::new();
    let xs: Vec<_> = (0..3).map(|_| solver.new_var(0, 2).expect("a small range")).collect();
    // The first solution, and the nodes this search took to it.
    let first = |solver: &mut Solver, resumable: bool, nodes: Option<u64>| {
        let config = SearchConfig {
            branching: vec![Branching { vars: xs.clone(), var_order: VAR_ORDERS[0], val_order: VAL_ORDERS[0] }],
            limits: Limits { nodes, ..Limits::default() },
            resumable,
            ..SearchConfig::default()
        };
        let before = solver.stats().nodes;
        let mut found = None;
        solver.search(&config, |s| {
            found = Some(xs.iter().map(|&x| s.value(x)).collect::<Vec<_>>());
            ControlFlow::Break(())
        });
        (found, solver.stats().nodes - before)
    };
    // Three nodes reach the first solution [0, 0, 0]: stopping after two keeps the place.
    assert_eq!(first(&mut solver, true, Some(2)), (None, 2));
    assert_eq!(first(&mut solver, false, None), (Some(vec![0, 0, 0]), 3));
    assert_eq!(first(&mut solver, true, Some(2)), (None, 2));
    assert_eq!(first(&mut solver, true, None), (Some(vec![0, 0, 0]), 1));
    // That search ended on its solution: the next one starts at the root.
    assert_eq!(first(&mut solver, true, None), (Some(vec![0, 0, 0]), 3));
}
