//! What the brute-force tests share: searching every solution under one of the engine's
//! orders, each solution checked against every propagator's ground truth.

#![allow(dead_code, reason = "each test file uses a different part")]

pub(crate) mod knapsack;

use std::ops::ControlFlow;

use cpsolve_engine::{Branching, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};

/// The variable orders a random model may pick by index.
pub(crate) const VAR_ORDERS: [VarOrder; 3] = [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg];
/// The value orders a random model may pick by index.
pub(crate) const VAL_ORDERS: [ValOrder; 4] = [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split];

/// Every solution over `vars`, sorted, found by branching on them with `VAR_ORDERS[var_order]`
/// and `VAL_ORDERS[val_order]`; `None` if the search stopped before the end.
pub(crate) fn all_solutions(
    solver: &mut Solver,
    vars: &[VarId],
    var_order: usize,
    val_order: usize,
) -> Option<Vec<Vec<Val>>> {
    let config = SearchConfig {
        branching: vec![Branching {
            vars: vars.to_vec(),
            var_order: VAR_ORDERS[var_order],
            val_order: VAL_ORDERS[val_order],
        }],
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut found: Vec<Vec<Val>> = Vec::new();
    let outcome = solver.search(&config, |s| {
        found.push(vars.iter().map(|&x| s.value(x)).collect());
        ControlFlow::Continue(())
    });
    found.sort();
    outcome.stopped.is_none().then_some(found)
}

/// A Sudoku of these givens (81 digits, 0 for an empty cell), one group per row, column
/// and box.
pub(crate) fn sudoku(givens: &str) -> (Solver, cpsolve_engine::explain::ExplainConfig) {
    let mut s = Solver::new();
    let x: Vec<VarId> = givens
        .bytes()
        .map(|d| match d - b'0' {
            0 => s.new_var(1, 9).unwrap(),
            v => s.new_var(v.into(), v.into()).unwrap(),
        })
        .collect();
    let units = (0..9)
        .map(|r| (0..9).map(|c| 9 * r + c).collect::<Vec<usize>>())
        .chain((0..9).map(|c| (0..9).map(|r| 9 * r + c).collect()))
        .chain((0..9).map(|b| (0..9).map(|k| 9 * (3 * (b / 3) + k / 3) + 3 * (b % 3) + k % 3).collect()));
    let groups: Vec<Vec<cpsolve_engine::PropId>> = units
        .map(|unit| {
            let vars: Vec<VarId> = unit.iter().map(|&k| x[k]).collect();
            let before = s.num_propagators();
            cpsolve_engine::constraints::all_different(&mut s, &vars, &[], cpsolve_engine::Consistency::Domain);
            s.propagators_since(before)
        })
        .collect();
    (s, cpsolve_engine::explain::ExplainConfig::new(groups, x))
}
