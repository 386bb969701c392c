//! `SearchConfig::project`: the solutions are the values of the branching groups'
//! variables, so variables no group names do not multiply them; checked against the count
//! of distinct projections of every solution.

use std::collections::HashSet;
use std::ops::ControlFlow;

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{Branching, Rel, SearchConfig, Solver, ValOrder, VarId, VarOrder};

/// x in 0..4, y in 0..3 (named), t, u in 0..2 (not named); x + t >= y, t != u or x == 2.
fn model() -> (Solver, Vec<VarId>, Vec<VarId>) {
    let mut solver = Solver::new();
    let x = solver.new_var(0, 4).unwrap();
    let y = solver.new_var(0, 3).unwrap();
    let t = solver.new_var(0, 2).unwrap();
    let u = solver.new_var(0, 2).unwrap();
    linear(&mut solver, &[(1, x), (1, t), (-1, y)], Rel::Ge, 0).unwrap();
    linear(&mut solver, &[(1, t), (-1, u)], Rel::Ne, 0).unwrap();
    (solver, vec![x, y], vec![t, u])
}

fn config(named: &[VarId], project: bool, count_only: bool, var_order: VarOrder) -> SearchConfig {
    SearchConfig {
        branching: vec![Branching { vars: named.to_vec(), var_order, val_order: ValOrder::Max }],
        project,
        count_only,
        check_solutions: true,
        ..SearchConfig::default()
    }
}

#[test]
fn projected_solutions_are_the_distinct_values_of_the_named_variables() {
    let (mut solver, named, _) = model();
    let mut all = Vec::new();
    let total = solver
        .search(&config(&named, false, false, VarOrder::Input), |s| {
            all.push(named.iter().map(|&x| s.value(x)).collect::<Vec<_>>());
            ControlFlow::Continue(())
        })
        .solutions;
    let distinct: HashSet<Vec<i64>> = all.into_iter().collect();
    assert!(total > distinct.len() as u128, "the model must have solutions that differ only in t, u");
    for var_order in [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg] {
        for count_only in [false, true] {
            let (mut solver, named, _) = model();
            let mut seen = Vec::new();
            let n = solver
                .search(&config(&named, true, count_only, var_order), |s| {
                    seen.push(named.iter().map(|&x| s.value(x)).collect::<Vec<_>>());
                    ControlFlow::Continue(())
                })
                .solutions;
            assert_eq!(n, distinct.len() as u128, "{var_order:?} count_only={count_only}");
            if !count_only {
                let unique: HashSet<Vec<i64>> = seen.iter().cloned().collect();
                assert_eq!(unique.len(), seen.len(), "a projection was reported twice");
                assert_eq!(unique, distinct);
            }
        }
    }
}
