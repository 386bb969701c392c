//! The grade's stall measure sees simple patterns: two constraints that share variables,
//! projected over the shared ones (a Sudoku's locked candidates), before it counts the
//! values no one-level case split refutes.

use cpsolve_engine::constraints::all_different;
use cpsolve_engine::explain::{Ending, ExplainConfig, Reasoning};
use cpsolve_engine::{Consistency, PropId, Solver, VarId};

/// A Sudoku of these givens (81 digits, 0 for an empty cell), one group per row, column
/// and box.
fn sudoku(givens: &str) -> (Solver, ExplainConfig) {
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
    let groups: Vec<Vec<PropId>> = units
        .map(|unit| {
            let vars: Vec<VarId> = unit.iter().map(|&k| x[k]).collect();
            let before = s.num_propagators();
            all_different(&mut s, &vars, &[], Consistency::Domain);
            s.propagators_since(before)
        })
        .collect();
    (s, ExplainConfig::new(groups, x))
}

#[test]
fn a_stall_that_locked_candidates_resolve_leaves_nothing_open_after_the_patterns() {
    // Rated 2.8 by Sukaku Explainer (locked candidates): propagation alone stalls in an open
    // grid, and many values there survive every one-level case split.
    let (mut solver, config) =
        sudoku("060000090029060130004000700080000010430000087002000400008901500000605000003204900");
    let explanation = solver.explain(&config).expect("explained");
    assert_eq!(explanation.ending, Ending::Solved);
    let stalls: Vec<_> = explanation.steps.iter().filter(|s| s.reasoning != Reasoning::Direct).collect();
    assert!(!stalls.is_empty(), "propagation alone does not solve it");
    for step in stalls {
        let stall = step.stall.expect("a case split says how open the model was");
        assert!(stall.open - stall.refuted > 20, "{stall:?}");
        // The patterns (and propagation) solve the grid from there.
        assert_eq!((stall.patterned_open, stall.patterned_refuted), (0, 0), "{stall:?}");
    }
    // So the hardest step is a split that costs the least a split can.
    assert!(explanation.difficulty().hardest <= 1.0, "{:?}", explanation.difficulty());
}

#[test]
fn a_stall_the_patterns_do_not_resolve_stays_open() {
    // AI Escargot: its stalls need chains, not patterns.
    let (mut solver, config) =
        sudoku("100007090030020008009600500005300900010080002600004000300000010040000007007000300");
    let explanation = solver.explain(&config).expect("explained");
    let first = explanation.steps.iter().find_map(|s| s.stall).expect("a stall");
    assert!(first.patterned_open > 0 && first.patterned_open <= first.open, "{first:?}");
    assert!(first.patterned_open - first.patterned_refuted > 20, "{first:?}");
}
