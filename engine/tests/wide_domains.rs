//! Domains too wide for a bitset (2^24 values and more) stay intervals: propagators that
//! filter value by value must not list them. Each of these models took gigabytes and
//! minutes before `Context::retain` learnt to narrow such a domain by its bounds only.

mod common;

use cpsolve_engine::constraints::element;
use cpsolve_engine::Solver;

const WIDE: i64 = 10_000_000_000;

#[test]
fn element_into_a_wide_result_finds_exactly_the_cells() {
    let mut solver = Solver::new();
    let i = solver.new_var(0, 1).expect("valid");
    let cells = [solver.new_var(1, 1).expect("valid"), solver.new_var(1 << 32, 1 << 32).expect("valid")];
    let z = solver.new_var(0, WIDE).expect("valid");
    element(&mut solver, i, &cells, z);
    let solutions = common::all_solutions(&mut solver, &[i, z], 0, 0).expect("complete");
    assert_eq!(solutions, vec![vec![0, 1], vec![1, 1 << 32]]);
}

#[test]
fn a_fixed_index_equates_two_wide_variables_by_their_bounds() {
    let mut solver = Solver::new();
    let i = solver.new_var(0, 0).expect("valid");
    let x = solver.new_var(0, WIDE).expect("valid");
    let z = solver.new_var(5, 10 * WIDE).expect("valid");
    element(&mut solver, i, &[x], z);
    assert!(solver.propagate());
    assert_eq!((solver.min(x), solver.max(x)), (5, WIDE));
    assert_eq!((solver.min(z), solver.max(z)), (5, WIDE));
}
