//! A final search ([`SearchConfig::final_search`]) that stops early returns without undoing
//! its trail: the solver is left at the node where it stopped, and spent. The default
//! search undoes it and leaves the root state, ready for the next search. Either way the
//! search itself, and so its statistics, are the same.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::all_different;
use cpsolve_engine::{Branching, Consistency, Limits, SearchConfig, Solver, Stats, Stop, ValOrder, VarId, VarOrder};

/// The permutations of `0..n` as `n` variables under an all-different: a search for all
/// of them goes `n - 1` decisions deep before its first solution.
fn permutations(n: i64) -> (Solver, Vec<VarId>) {
    let mut solver = Solver::new();
    let xs: Vec<_> = (0..n).map(|_| solver.new_var(0, n - 1).expect("a small range")).collect();
    all_different(&mut solver, &xs, &[], Consistency::Value);
    (solver, xs)
}

fn config(xs: &[VarId], limits: Limits, final_search: bool) -> SearchConfig {
    SearchConfig {
        branching: vec![Branching { vars: xs.to_vec(), var_order: VarOrder::Input, val_order: ValOrder::Min }],
        limits,
        final_search,
        ..SearchConfig::default()
    }
}

/// Searches with a node limit of `nodes` and returns the stop, the statistics (time
/// left out) and how many variables are fixed after the search returned.
fn stopped_after(nodes: u64, final_search: bool) -> (Option<Stop>, Stats, usize, Solver) {
    let (mut solver, xs) = permutations(60);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let outcome = solver.search(&config(&xs, limits, final_search), |_| ControlFlow::Continue(()));
    let fixed = xs.iter().filter(|&&x| solver.is_fixed(x)).count();
    let stats = Stats { time: Default::default(), ..solver.stats().clone() };
    (outcome.stopped, stats, fixed, solver)
}

#[test]
fn a_stopped_final_search_leaves_the_node_where_it_stopped() {
    let (stopped, _, fixed, solver) = stopped_after(40, true);
    assert_eq!(stopped, Some(Stop::Nodes));
    // 40 decisions down the first branch: every decision fixed a variable, none was undone.
    assert_eq!(fixed, 40);
    assert!(solver.is_spent());
}

#[test]
fn a_stopped_default_search_undoes_its_trail() {
    let (stopped, _, fixed, solver) = stopped_after(40, false);
    assert_eq!(stopped, Some(Stop::Nodes));
    assert_eq!(fixed, 0);
    assert!(!solver.is_spent());
}

#[test]
fn a_final_search_counts_the_same_as_the_default_one() {
    let (_, kept, _, _) = stopped_after(40, true);
    let (_, undone, _, _) = stopped_after(40, false);
    assert_eq!(kept, undone);
    assert_eq!(kept.nodes, 40);
    assert_eq!(kept.max_depth, 40);
}

#[test]
fn a_final_search_stopped_by_the_callback_leaves_the_solution() {
    let (mut solver, xs) = permutations(30);
    let outcome = solver.search(&config(&xs, Limits::default(), true), |_| ControlFlow::Break(()));
    assert_eq!((outcome.solutions, outcome.stopped), (1, Some(Stop::Callback)));
    let values: Vec<_> = xs.iter().map(|&x| solver.is_fixed(x).then(|| solver.min(x))).collect();
    assert_eq!(values, (0..30).map(Some).collect::<Vec<_>>());
}

#[test]
fn a_final_search_that_explores_the_whole_tree_leaves_the_solver_usable() {
    let (mut solver, xs) = permutations(4);
    let all = solver.search(&config(&xs, Limits::default(), true), |_| ControlFlow::Continue(()));
    assert_eq!((all.solutions, all.stopped), (24, None));
    assert!(!solver.is_spent());
    assert!(xs.iter().all(|&x| !solver.is_fixed(x)));
    let again = solver.search(&config(&xs, Limits::default(), false), |_| ControlFlow::Continue(()));
    assert_eq!(again.solutions, 24);
}

#[test]
#[should_panic(expected = "cannot be used again")]
fn searching_a_spent_solver_again_is_refused() {
    let (_, _, _, mut solver) = stopped_after(40, true);
    let limits = Limits { nodes: Some(10), ..Limits::default() };
    let _ = solver.search(&SearchConfig { limits, ..SearchConfig::default() }, |_| ControlFlow::Continue(()));
}
