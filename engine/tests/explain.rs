//! Step-wise explanations: every step checks out on its own, a wrong or incomplete step is
//! caught, and the way an explanation ends agrees with a brute-force count of solutions.

use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::explain::{Conclusion, Ending, ExplainConfig, Fact, Reasoning, Step, Values};
use cpsolve_engine::{Consistency, PropId, Rel, Solver, VarId};
use proptest::prelude::*;

/// Posts with `post` and returns the propagators it created, as one group.
fn group(solver: &mut Solver, post: impl FnOnce(&mut Solver)) -> Vec<PropId> {
    let before = solver.num_propagators();
    post(solver);
    solver.propagators_since(before)
}

/// SEND + MORE = MONEY by columns: letters S E N D M O R Y, then carries c1..c4.
fn send_more() -> (Solver, ExplainConfig) {
    let mut s = Solver::new();
    let digit = |s: &mut Solver, lead: bool| s.new_var(if lead { 1 } else { 0 }, 9).unwrap();
    let [sv, e, n, d] = [digit(&mut s, true), digit(&mut s, false), digit(&mut s, false), digit(&mut s, false)];
    let [m, o, r, y] = [digit(&mut s, true), digit(&mut s, false), digit(&mut s, false), digit(&mut s, false)];
    let c: Vec<VarId> = (0..4).map(|_| s.new_var(0, 1).unwrap()).collect();
    let columns: [Vec<(i64, VarId)>; 5] = [
        vec![(1, d), (1, e), (-1, y), (-10, c[0])],
        vec![(1, n), (1, r), (1, c[0]), (-1, e), (-10, c[1])],
        vec![(1, e), (1, o), (1, c[1]), (-1, n), (-10, c[2])],
        vec![(1, sv), (1, m), (1, c[2]), (-1, o), (-10, c[3])],
        vec![(1, c[3]), (-1, m)],
    ];
    let mut groups = vec![group(&mut s, |s| all_different(s, &[sv, e, n, d, m, o, r, y], &[], Consistency::Domain))];
    for terms in &columns {
        groups.push(group(&mut s, |s| linear(s, terms, Rel::Eq, 0).unwrap()));
    }
    let mut shown = vec![sv, e, n, d, m, o, r, y];
    shown.extend(&c);
    (s, ExplainConfig::new(groups, shown))
}

#[test]
fn send_more_money_is_explained_and_every_step_checks_out() {
    let (mut solver, config) = send_more();
    let explanation = solver.explain(&config).expect("explained");
    assert_eq!(explanation.ending, Ending::Solved);
    // One step per letter and carry, as the hand solution goes: 12 direct steps (the
    // issue asks for at most 15 and no case split).
    assert_eq!(explanation.steps.len(), 12);
    assert!(explanation.steps.iter().all(|s| s.reasoning == Reasoning::Direct), "no case split");
    // "E + c2 = N and E ≠ N, so c2 = 1": column 3 and the all-different, together.
    let c2_is_one = |s: &&Step| {
        s.groups == [0, 3]
            && matches!(&s.conclusion, Conclusion::Narrowed(f) if f.var.index() == 9 && f.values == Values::single(1))
    };
    assert!(explanation.steps.iter().any(|s| c2_is_one(&s)));
    // The hand solution's first deductions, in its order: M = 1, then O = 0, then S = 9.
    let fixed: Vec<usize> = explanation
        .steps
        .iter()
        .filter_map(|s| match &s.conclusion {
            Conclusion::Narrowed(f) if f.values.len() == 1 => Some(f.var.index()),
            _ => None,
        })
        .collect();
    assert_eq!(fixed[..2], [4, 11], "M and the last carry first");
    assert_eq!(fixed[2..4], [5, 10], "then O and the third carry");
    assert_eq!(fixed[4], 0, "then S");
    let values: Vec<i64> = explanation.known.iter().map(|f| f.values.min().unwrap()).collect();
    assert_eq!(values, [9, 5, 6, 7, 1, 0, 8, 2, 1, 1, 0, 1]);
    for step in &explanation.steps {
        assert!(solver.verify_step(&config, step).is_ok(), "{step:?}");
    }
}

#[test]
fn a_wrong_conclusion_or_a_missing_fact_is_caught() {
    let (mut solver, config) = send_more();
    let explanation = solver.explain(&config).expect("explained");
    let mut caught = 0;
    for step in &explanation.steps {
        let Conclusion::Narrowed(fact) = &step.conclusion else { continue };
        // Claim a value the step did not conclude.
        let mut wrong = step.clone();
        let other = if fact.values.min().unwrap() == 0 { 1 } else { fact.values.min().unwrap() - 1 };
        wrong.conclusion = Conclusion::Narrowed(Fact { var: fact.var, values: Values::single(other) });
        assert!(solver.verify_step(&config, &wrong).is_err(), "wrong conclusion passed: {wrong:?}");
        // Leave out each fact in turn: some deductions need every fact they name.
        for k in 0..step.facts.len() {
            let mut short = step.clone();
            short.facts.remove(k);
            caught += usize::from(solver.verify_step(&config, &short).is_err());
        }
    }
    assert!(caught > 0, "no step needed any of its facts: the check cannot see a missing one");
}

/// A 4×4 Latin square with some givens, as rows and columns of all-different.
fn latin(givens: &[(usize, usize, i64)]) -> (Solver, ExplainConfig) {
    let mut s = Solver::new();
    let cells: Vec<VarId> = (0..16).map(|_| s.new_var(1, 4).unwrap()).collect();
    let mut groups = Vec::new();
    for &(r, c, v) in givens {
        groups.push(group(&mut s, |s| linear(s, &[(1, cells[r * 4 + c])], Rel::Eq, v).unwrap()));
    }
    for i in 0..4 {
        let row: Vec<VarId> = (0..4).map(|j| cells[i * 4 + j]).collect();
        let col: Vec<VarId> = (0..4).map(|j| cells[j * 4 + i]).collect();
        groups.push(group(&mut s, |s| all_different(s, &row, &[], Consistency::Domain)));
        groups.push(group(&mut s, |s| all_different(s, &col, &[], Consistency::Domain)));
    }
    (s, ExplainConfig::new(groups, cells))
}

/// Every completion of the givens, by brute force over all 4×4 Latin squares.
fn completions(givens: &[(usize, usize, i64)]) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    let mut grid = [0i64; 16];
    fn fill(k: usize, grid: &mut [i64; 16], givens: &[(usize, usize, i64)], out: &mut Vec<Vec<i64>>) {
        if k == 16 {
            if givens.iter().all(|&(r, c, v)| grid[r * 4 + c] == v) {
                out.push(grid.to_vec());
            }
            return;
        }
        let (r, c) = (k / 4, k % 4);
        for v in 1..=4 {
            if (0..c).all(|j| grid[r * 4 + j] != v) && (0..r).all(|i| grid[i * 4 + c] != v) {
                grid[k] = v;
                fill(k + 1, grid, givens, out);
            }
        }
    }
    fill(0, &mut grid, givens, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]
    #[test]
    fn the_ending_agrees_with_a_brute_force_count(
        givens in proptest::collection::vec((0usize..4, 0usize..4, 1i64..=4), 0..7)
    ) {
        let (mut solver, config) = latin(&givens);
        let explanation = solver.explain(&config).expect("explained");
        let solutions = completions(&givens);
        match &explanation.ending {
            Ending::Solved => {
                prop_assert_eq!(solutions.len(), 1);
                let values: Vec<i64> = explanation.known.iter().map(|f| f.values.min().unwrap()).collect();
                prop_assert_eq!(&values, &solutions[0]);
            }
            Ending::NoSolution | Ending::NoSolutionBySearch => prop_assert!(solutions.is_empty()),
            Ending::FreeChoice { .. } => prop_assert!(solutions.len() >= 2),
            Ending::Stopped(_) => prop_assert!(false, "stopped"),
        }
        for step in &explanation.steps {
            prop_assert!(solver.verify_step(&config, step).is_ok());
            // Every solution agrees with every conclusion.
            if let Conclusion::Narrowed(fact) = &step.conclusion {
                let i = config.shown.iter().position(|&x| x == fact.var).unwrap();
                prop_assert!(solutions.iter().all(|s| fact.values.contains(s[i])));
            }
        }
    }
}

/// `n` variables in {1, 2}, each different from the next, one group per disequality. A path
/// starts from a given value (the first is 1); a cycle has no given, and the last differs
/// from the first too: an odd cycle has no solution, and no few constraints show it.
fn alternating(n: usize, cycle: bool) -> (Solver, ExplainConfig) {
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..n).map(|_| s.new_var(1, 2).unwrap()).collect();
    let mut groups = Vec::new();
    if !cycle {
        groups.push(group(&mut s, |s| linear(s, &[(1, x[0])], Rel::Eq, 1).unwrap()));
    }
    for i in 0..if cycle { n } else { n - 1 } {
        let (a, b) = (x[i], x[(i + 1) % n]);
        groups.push(group(&mut s, |s| linear(s, &[(1, a), (-1, b)], Rel::Ne, 0).unwrap()));
    }
    (s, ExplainConfig::new(groups, x))
}

#[test]
fn the_difficulty_puts_single_constraint_steps_below_a_case_split() {
    // A path from a given value: each step is one disequality, no case split.
    let (mut solver, config) = alternating(7, false);
    let path = solver.explain(&config).expect("explained");
    assert_eq!(path.ending, Ending::Solved);
    assert!(path.steps.iter().all(|s| s.reasoning == Reasoning::Direct && s.stall.is_none()));
    let easy = path.difficulty();
    assert_eq!(easy.splits, 0);
    assert!(easy.score < 1.0, "{easy:?}");

    // An odd cycle: only a case split (or a search) decides anything.
    let (mut s, config) = alternating(7, true);
    let cycle = s.explain(&config).expect("explained");
    assert!(matches!(cycle.ending, Ending::NoSolution | Ending::NoSolutionBySearch), "{:?}", cycle.ending);
    let split = cycle.steps.iter().find(|s| s.reasoning != Reasoning::Direct).expect("a case split or search");
    let stall = split.stall.expect("a case split says how open the model was");
    assert!(stall.open >= stall.refuted && stall.open > 0, "{stall:?}");
    let hard = cycle.difficulty();
    assert!(hard.splits >= 1 && hard.score >= 1.0, "{hard:?}");
    assert!(easy.score < hard.score);
}

/// A constraint of the random models below: `x ≠ y`, or `Σ coefs·x = rhs`.
#[derive(Debug, Clone)]
enum Random {
    Ne(usize, usize),
    Sum(Vec<(i64, usize)>, i64),
}

fn random_constraint() -> impl Strategy<Value = Random> {
    prop_oneof![
        (0usize..5, 0usize..5).prop_filter("two variables", |(a, b)| a != b).prop_map(|(a, b)| Random::Ne(a, b)),
        (proptest::collection::vec((prop_oneof![Just(-1i64), Just(1), Just(2)], 0usize..5), 1..4), 0i64..9)
            .prop_map(|(terms, rhs)| Random::Sum(terms, rhs)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Random models of disequalities and sums over five variables in 1..3: however the
    /// explanation goes (small sets, counting arguments, steps towards a contradiction), it
    /// ends as a brute-force enumeration says, and every step checks out and holds in every
    /// solution.
    #[test]
    fn random_models_end_as_brute_force_says(constraints in proptest::collection::vec(random_constraint(), 1..7)) {
        let mut s = Solver::new();
        let x: Vec<VarId> = (0..5).map(|_| s.new_var(1, 3).unwrap()).collect();
        let mut groups = Vec::new();
        for c in &constraints {
            groups.push(group(&mut s, |s| match c {
                Random::Ne(a, b) => linear(s, &[(1, x[*a]), (-1, x[*b])], Rel::Ne, 0).unwrap(),
                Random::Sum(terms, rhs) => {
                    let terms: Vec<(i64, VarId)> = terms.iter().map(|&(a, i)| (a, x[i])).collect();
                    linear(s, &terms, Rel::Eq, *rhs).unwrap()
                }
            }));
        }
        let holds = |v: &[i64]| constraints.iter().all(|c| match c {
            Random::Ne(a, b) => v[*a] != v[*b],
            Random::Sum(terms, rhs) => terms.iter().map(|&(a, i)| a * v[i]).sum::<i64>() == *rhs,
        });
        let mut solutions = Vec::new();
        for k in 0..243 {
            let v: Vec<i64> = (0..5).map(|i| (k / 3i64.pow(i)) % 3 + 1).collect();
            if holds(&v) {
                solutions.push(v);
            }
        }
        let config = ExplainConfig::new(groups, x.clone());
        if s.is_failed() {
            prop_assert!(solutions.is_empty());
            return Ok(());
        }
        let explanation = s.explain(&config).expect("explained");
        match &explanation.ending {
            Ending::Solved => {
                prop_assert_eq!(solutions.len(), 1);
                let values: Vec<i64> = explanation.known.iter().map(|f| f.values.min().unwrap()).collect();
                prop_assert_eq!(&values, &solutions[0]);
            }
            Ending::NoSolution | Ending::NoSolutionBySearch => prop_assert!(solutions.is_empty()),
            Ending::FreeChoice { .. } => prop_assert!(solutions.len() >= 2),
            Ending::Stopped(_) => prop_assert!(false, "stopped"),
        }
        for step in &explanation.steps {
            prop_assert!(s.verify_step(&config, step).is_ok(), "{:?}", step);
            if let Conclusion::Narrowed(fact) = &step.conclusion {
                let i = x.iter().position(|&y| y == fact.var).unwrap();
                prop_assert!(solutions.iter().all(|v| fact.values.contains(v[i])));
            }
        }
    }
}

#[test]
fn a_counting_argument_is_one_step_and_a_wrong_factor_is_caught() {
    // Rows of a 3×3 grid sum to 15, columns to 16: no solution, and no propagation shows it.
    let mut s = Solver::new();
    let cells: Vec<VarId> = (0..9).map(|_| s.new_var(1, 9).unwrap()).collect();
    let mut groups = Vec::new();
    for i in 0..3 {
        let row: Vec<(i64, VarId)> = (0..3).map(|j| (1, cells[i * 3 + j])).collect();
        groups.push(group(&mut s, |s| linear(s, &row, Rel::Eq, 15).unwrap()));
    }
    for j in 0..3 {
        let column: Vec<(i64, VarId)> = (0..3).map(|i| (1, cells[i * 3 + j])).collect();
        groups.push(group(&mut s, |s| linear(s, &column, Rel::Eq, 16).unwrap()));
    }
    let config = ExplainConfig::new(groups, cells);
    let explanation = s.explain(&config).expect("explained");
    assert_eq!(explanation.ending, Ending::NoSolution);
    assert_eq!(explanation.steps.len(), 1);
    let step = &explanation.steps[0];
    let Reasoning::Sum { factors, total } = &step.reasoning else { panic!("a counting step: {step:?}") };
    assert_eq!(step.groups, [0, 1, 2, 3, 4, 5]);
    assert_eq!(factors.iter().map(|f| f.abs()).collect::<Vec<_>>(), [1; 6]);
    assert_eq!(total.abs(), 3);
    assert!(s.verify_step(&config, step).is_ok());
    // A wrong factor, a wrong total, or a constraint left out is caught.
    let mut wrong = step.clone();
    wrong.reasoning = Reasoning::Sum {
        factors: vec![factors[0] * 2, factors[1], factors[2], factors[3], factors[4], factors[5]],
        total: *total,
    };
    assert!(s.verify_step(&config, &wrong).is_err());
    wrong.reasoning = Reasoning::Sum { factors: factors.clone(), total: total + 1 };
    assert!(s.verify_step(&config, &wrong).is_err());
    let mut short = step.clone();
    short.groups.pop();
    short.reasoning = Reasoning::Sum { factors: factors[..5].to_vec(), total: *total };
    assert!(s.verify_step(&config, &short).is_err());
}

/// A 4×4 square of different numbers whose rows each sum to 35, over `values`.
fn square(values: std::ops::RangeInclusive<i64>) -> (Solver, ExplainConfig) {
    let mut s = Solver::new();
    let cells: Vec<VarId> = (0..16).map(|_| s.new_var(*values.start(), *values.end()).unwrap()).collect();
    let mut groups = vec![group(&mut s, |s| all_different(s, &cells, &[], Consistency::Domain))];
    for i in 0..4 {
        let row: Vec<(i64, VarId)> = (0..4).map(|j| (1, cells[i * 4 + j])).collect();
        groups.push(group(&mut s, |s| linear(s, &row, Rel::Eq, 35).unwrap()));
    }
    (s, ExplainConfig::new(groups, cells))
}

#[test]
fn a_permutation_fixes_its_sum_and_a_step_that_bends_the_rule_is_caught() {
    // Sixteen different numbers in 1..16 are all of them: they sum to 136, not 4 × 35.
    let (mut s, config) = square(1..=16);
    let explanation = s.explain(&config).expect("explained");
    assert_eq!(explanation.ending, Ending::NoSolution);
    assert_eq!(explanation.steps.len(), 1);
    let step = &explanation.steps[0];
    let Reasoning::Sum { factors, total } = &step.reasoning else { panic!("a counting step: {step:?}") };
    assert_eq!(step.groups, [0, 1, 2, 3, 4]);
    assert_eq!(total.abs(), 4);
    assert!(factors.iter().all(|f| f.abs() == 1));
    assert!(s.verify_step(&config, step).is_ok());
    // The rule holds only when the values are exactly as many as the variables: over 1..17
    // the sixteen numbers may sum to anything from 136 to 152 (140 among them), and the
    // same step is rejected.
    let (mut wide, wide_config) = square(1..=17);
    assert!(wide.verify_step(&wide_config, step).is_err());
    // A wrong total, or the all-different left out, is caught too.
    let mut wrong = step.clone();
    wrong.reasoning = Reasoning::Sum { factors: factors.clone(), total: total + 1 };
    assert!(s.verify_step(&config, &wrong).is_err());
    let mut short = step.clone();
    short.groups.remove(0);
    short.reasoning = Reasoning::Sum { factors: factors[1..].to_vec(), total: *total };
    assert!(s.verify_step(&config, &short).is_err());
}

#[test]
fn an_all_different_declares_its_terms_as_its_ground_truth_reads_them() {
    // `distinct_terms` must describe exactly what `is_satisfied` accepts: every assignment
    // of three variables over 0..2 with offsets (0, 1, −1), against pairwise difference.
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..3).map(|_| s.new_var(0, 2).unwrap()).collect();
    let props = group(&mut s, |s| all_different(s, &x, &[0, 1, -1], Consistency::Domain));
    let terms = s.propagator_distinct_terms(props[0]).expect("an all-different declares its terms");
    for code in 0..27 {
        let v = [code % 3, code / 3 % 3, code / 9];
        let value = |y: VarId| v[x.iter().position(|&z| z == y).unwrap()];
        let shifted: Vec<i64> = terms.iter().map(|&(y, o)| value(y) + o).collect();
        let distinct = (0..3).all(|a| (a + 1..3).all(|b| shifted[a] != shifted[b]));
        assert_eq!(s.propagator_satisfied(props[0], &value), distinct, "{v:?}");
    }
}
