//! The grade's stall measure sees simple patterns: two constraints that share variables,
//! projected over the shared ones (a Sudoku's locked candidates), before it counts the
//! values no one-level case split refutes.

mod common;

use common::sudoku;
use cpsolve_engine::explain::{Ending, Reasoning};

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
