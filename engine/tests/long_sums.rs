//! Sums long enough that their terms are merged through an index rather than a scan: the
//! same variable appearing many times must still be one term with the summed coefficient.

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{Rel, Solver};

#[test]
fn a_variable_repeated_in_a_long_sum_is_one_term() {
    let mut solver = Solver::new();
    let x = solver.new_var(0, 10).expect("valid");
    let others: Vec<_> = (0..30).map(|_| solver.new_var(0, 0).expect("valid")).collect();
    let y = solver.new_var(0, 100).expect("valid");
    // 20·x + 0·others − y − y = 0 and y = 20: x = 2.
    let mut terms: Vec<(i64, _)> = vec![(1, x); 20];
    terms.extend(others.iter().map(|&o| (3, o)));
    terms.extend([(-1, y), (-1, y)]);
    linear(&mut solver, &terms, Rel::Eq, 0).expect("in range");
    solver.assign(y, 20);
    assert!(solver.propagate());
    assert_eq!((solver.min(x), solver.max(x)), (2, 2));
}

#[test]
fn a_long_sum_whose_terms_cancel_leaves_only_its_constant() {
    let mut solver = Solver::new();
    let xs: Vec<_> = (0..40).map(|_| solver.new_var(0, 5).expect("valid")).collect();
    let mut terms: Vec<(i64, _)> = xs.iter().map(|&x| (1, x)).collect();
    terms.extend(xs.iter().map(|&x| (-1, x)));
    // Σx − Σx = 1 has no solution whatever the x.
    linear(&mut solver, &terms, Rel::Eq, 1).expect("in range");
    assert!(!solver.propagate() || solver.is_failed());
}
