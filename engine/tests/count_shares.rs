//! The shares of a dedicated count add up to the count ([`Solver::count_share_at_root`]):
//! the queens constraint on random boards (full boards take the count by symmetries, others
//! the mirror or the plain counter), cut into any number of shares, counts as many
//! solutions in all as the whole count and as a search of every solution. A model no
//! constraint counts alone gives no share.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{all_different_shifted, linear};
use cpsolve_engine::{Literal, Rel, SearchConfig, Share, Solver, VarId};
use proptest::prelude::*;

/// `n` queens on `rows` rows, with the values in `removed` taken out of their columns.
fn queens(n: usize, rows: i64, removed: &[(usize, i64)]) -> (Solver, Vec<VarId>) {
    let mut solver = Solver::new();
    let q: Vec<VarId> = (0..n).map(|_| solver.new_var(0, rows - 1).expect("a small range")).collect();
    all_different_shifted(&mut solver, &q);
    let fixings: Vec<Literal> = removed.iter().filter(|&&(c, _)| c < n).map(|&(c, v)| Literal::Ne(q[c], v)).collect();
    solver.apply(&fixings);
    (solver, q)
}

fn shares_add_up(n: usize, rows: i64, removed: &[(usize, i64)], of: u64) {
    let counting = SearchConfig { count_only: true, ..SearchConfig::default() };
    let (mut solver, _) = queens(n, rows, removed);
    let whole = solver.search(&counting, |_| ControlFlow::Continue(())).solutions;
    let (mut solver, _) = queens(n, rows, removed);
    let searched = solver
        .search(&SearchConfig { check_solutions: true, ..SearchConfig::default() }, |_| ControlFlow::Continue(()))
        .solutions;
    assert_eq!(whole, searched, "the dedicated count is the search's");
    let mut sum = 0;
    for index in 0..of {
        let (mut solver, _) = queens(n, rows, removed);
        match solver.count_share_at_root(&counting, Share { index, of }) {
            Some(Ok(k)) => sum += k,
            Some(Err(_)) => panic!("no limit was set"),
            // One queen or none leaves no constraint to count with.
            None => {
                assert!(n < 2, "{n} queens count at the root");
                return;
            }
        }
    }
    assert_eq!(sum, whole, "{of} shares of {n} queens on {rows} rows, {removed:?} removed");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_shares_of_a_queens_count_add_up_to_it(
        n in 0usize..=9,
        extra_rows in 0i64..=2,
        removed in prop::collection::vec((0usize..9, 0i64..11), 0..3),
        of in 1u64..=40,
    ) {
        shares_add_up(n, n as i64 + extra_rows, &removed, of);
    }
}

#[test]
fn the_shares_of_full_boards_add_up() {
    // The count by symmetries (from 6 queens), into fewer and more shares than its tasks.
    for n in [6, 8, 10] {
        for of in [1, 2, 3, 7, 64, 1000] {
            shares_add_up(n, n as i64, &[], of);
        }
    }
}

#[test]
fn a_model_no_constraint_counts_alone_gives_no_share() {
    let mut solver = Solver::new();
    let x: Vec<VarId> = (0..4).map(|_| solver.new_var(0, 3).expect("a small range")).collect();
    all_different_shifted(&mut solver, &x);
    linear(&mut solver, &[(1, x[0]), (1, x[1])], Rel::Le, 4).expect("no overflow");
    let counting = SearchConfig { count_only: true, ..SearchConfig::default() };
    assert!(solver.count_share_at_root(&counting, Share { index: 0, of: 2 }).is_none());
}
