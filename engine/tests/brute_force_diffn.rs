//! Non-overlapping rectangles (diffn, strict and not) against brute force: on random small
//! instances the search finds exactly the assignments that satisfy the definition written
//! here, and root propagation keeps every value some solution uses; and the pruning the
//! pairwise rules promise, on hand-picked cases.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use cpsolve_engine::{constraints, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

/// MiniZinc's definition at a full assignment: `[x, y, dx, dy]` per rectangle.
fn diffn_holds(r: &[[Val; 4]], strict: bool) -> bool {
    let flat = |a: &[Val; 4]| a[2] == 0 || a[3] == 0;
    (0..r.len()).all(|i| {
        (i + 1..r.len()).all(|j| {
            let (a, b) = (r[i], r[j]);
            (!strict && (flat(&a) || flat(&b)))
                || a[0] + a[2] <= b[0]
                || b[0] + b[2] <= a[0]
                || a[1] + a[3] <= b[1]
                || b[1] + b[3] <= a[1]
        })
    })
}

fn assignments(ranges: &[(Val, Val)]) -> Vec<Vec<Val>> {
    let mut all = vec![Vec::new()];
    for &(lo, hi) in ranges {
        all = all.into_iter().flat_map(|p| (lo..=hi).map(move |v| [p.clone(), vec![v]].concat())).collect();
    }
    all
}

/// Posts the rectangles (variables in the order x, y, dx, dy of each) and returns them.
fn post(solver: &mut Solver, ranges: &[(Val, Val)], strict: bool) -> Vec<VarId> {
    let vars: Vec<VarId> = ranges.iter().map(|&(lo, hi)| solver.new_var(lo, hi).unwrap()).collect();
    let pick = |k: usize| vars.iter().skip(k).step_by(4).copied().collect::<Vec<_>>();
    constraints::diffn(solver, &pick(0), &pick(1), &pick(2), &pick(3), strict).unwrap();
    vars
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn diffn_finds_exactly_the_brute_force_solutions(
        rects in proptest::collection::vec(
            (0i64..3, 0i64..3, 0i64..3, 0i64..2, -1i64..3, 0i64..2, -1i64..3, 0i64..2), 2..4),
        strict in any::<bool>(),
    ) {
        let mut ranges = Vec::new();
        for &(x, xw, y, yw, dx, dxw, dy, dyw) in &rects {
            ranges.extend([(x, x + xw), (y, y + yw), (dx, dx + dxw), (dy, dy + dyw)]);
        }
        let expected: BTreeSet<Vec<Val>> = assignments(&ranges)
            .into_iter()
            .filter(|a| {
                let r: Vec<[Val; 4]> = a.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
                diffn_holds(&r, strict)
            })
            .collect();
        let mut solver = Solver::new();
        let vars = post(&mut solver, &ranges, strict);
        if solver.propagate() {
            for sol in &expected {
                for (k, &x) in vars.iter().enumerate() {
                    prop_assert!(solver.contains(x, sol[k]), "value {} of variable {} removed at the root", sol[k], k);
                }
            }
        } else {
            prop_assert!(expected.is_empty(), "root propagation failed on a model with solutions");
        }
        let mut found = BTreeSet::new();
        let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
        solver.search(&config, |s| {
            found.insert(vars.iter().map(|&x| s.value(x)).collect::<Vec<Val>>());
            ControlFlow::Continue(())
        });
        prop_assert_eq!(found, expected);
    }
}

/// Two unit-high rectangles on one row: only x can separate them. A fixed one cuts a hole
/// in the other's x (its compulsory part), and one that cannot go left goes right.
#[test]
fn rectangles_on_one_row_keep_out_of_each_other() {
    let mut solver = Solver::new();
    let vars = post(&mut solver, &[(4, 4), (0, 0), (3, 3), (1, 1), (0, 9), (0, 0), (2, 2), (1, 1)], true);
    assert!(solver.propagate());
    let x: Vec<Val> = (0..=9).filter(|&v| solver.contains(vars[4], v)).collect();
    assert_eq!(x, vec![0, 1, 2, 7, 8, 9], "[4, 7) is taken: a width-2 rectangle cannot start at 3..6");

    let mut solver = Solver::new();
    let vars = post(&mut solver, &[(0, 2), (0, 0), (3, 3), (1, 1), (1, 9), (0, 0), (2, 2), (1, 1)], true);
    assert!(solver.propagate());
    // The second cannot end by 2 (its earliest end is 3): it goes right of the first.
    assert_eq!((solver.min(vars[4]), solver.max(vars[0])), (3, 2));
    assert_eq!(solver.min(vars[4]), 3);

    // Side 0 in the non-strict form: the pair is left alone.
    let mut solver = Solver::new();
    let vars = post(&mut solver, &[(4, 4), (0, 0), (3, 3), (1, 1), (0, 9), (0, 0), (2, 2), (0, 1)], false);
    assert!(solver.propagate());
    assert_eq!(solver.size(vars[4]), 10);
}

/// Three unit-high rectangles on one row are tasks of a unary resource in x: two of width 2
/// within [0, 4) leave no room before 4 for the third (edge finding; no rectangle has a
/// compulsory part, so the pairwise rules alone see nothing).
#[test]
fn a_row_of_rectangles_gets_edge_finding() {
    let mut solver = Solver::new();
    let row = [(0, 2), (0, 0), (2, 2), (1, 1)];
    let last = [(0, 5), (0, 0), (2, 2), (1, 1)];
    let ranges: Vec<(Val, Val)> = [row, row, last].concat();
    let vars = post(&mut solver, &ranges, true);
    assert!(solver.propagate());
    assert_eq!(solver.min(vars[8]), 4);
}
