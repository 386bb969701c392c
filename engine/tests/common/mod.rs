//! What the brute-force tests share: searching every solution under one of the engine's
//! orders, each solution checked against every propagator's ground truth.

#![allow(dead_code, reason = "each test file uses a different part")]

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
