//! Generic models end to end: source text → parse → compile → search, each answer
//! checked against the known count or an independent brute-force checker.

use std::ops::ControlFlow;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{SearchConfig, Val};
use cpsolve_models::generic::compile;
use cpsolve_models::problem::{Problem, Record};

fn problem(source: &str) -> Problem {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("parse error: {e:#?}"));
    compile(&file).unwrap_or_else(|e| panic!("compile error: {e:#?}"))
}

/// Every solution (every improving one, when optimising), as records of the user's variables.
fn solutions(source: &str) -> Vec<Record> {
    let mut problem = problem(source);
    let mut found = Vec::new();
    let view = &problem.view;
    // Every solution is also checked against every constraint, so a propagator bug shows.
    let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
    let outcome = problem.solver.search(&config, |solution| {
        found.push(view.record(solution));
        ControlFlow::Continue(())
    });
    assert_eq!(outcome.stopped, None);
    found
}

fn count(source: &str) -> usize {
    solutions(source).len()
}

const SEND_MORE: &str = "\
var S, E, N, D, M, O, R, Y in 0..9
alldifferent(S, E, N, D, M, O, R, Y)
S != 0
M != 0
1000*S + 100*E + 10*N + D + 1000*M + 100*O + 10*R + E == 10000*M + 1000*O + 100*N + 10*E + Y
solve all
";

const QUEENS: &str = "\
let n = 8
var q[1..n] in 1..n
alldifferent(q)
alldifferent([q[i] + i | i in 1..n])
alldifferent([q[i] - i | i in 1..n])
solve count
";

const SUDOKU: &str = "\
var x[1..9, 1..9] in 1..9
forall i in 1..9: alldifferent([x[i, j] | j in 1..9])
forall j in 1..9: alldifferent([x[i, j] | i in 1..9])
forall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])
given x =
  5 3 . . 7 . . . .
  6 . . 1 9 5 . . .
  . 9 8 . . . . 6 .
  8 . . . 6 . . . 3
  4 . . 8 . 3 . . 1
  7 . . . 2 . . . 6
  . 6 . . . . 2 8 .
  . . . 4 1 9 . . 5
  . . . . 8 . . 7 9
solve all
";

#[test]
fn send_more_money_has_one_solution() {
    let found = solutions(SEND_MORE);
    assert_eq!(found, vec![vec![9, 5, 6, 7, 1, 0, 8, 2]]);
    let problem = problem(SEND_MORE);
    assert_eq!(problem.mode, SolveMode::All);
    let record = &found[0];
    assert_eq!(problem.view.text(record), "S=9 E=5 N=6 D=7 M=1 O=0 R=8 Y=2\n");
    let json = problem.view.json(record).to_string();
    assert_eq!(json, r#"{"S":9,"E":5,"N":6,"D":7,"M":1,"O":0,"R":8,"Y":2}"#);
}

#[test]
fn queens_counts_match_oeis_a000170() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&expected) {
        let source = QUEENS.replace("let n = 8", &format!("let n = {n}"));
        assert_eq!(count(&source), want, "n = {n}");
    }
}

#[test]
fn queens_solutions_are_valid_and_shown_as_a_list() {
    let source = QUEENS.replace("let n = 8", "let n = 6");
    let found = solutions(&source);
    assert_eq!(found.len(), 4);
    for q in &found {
        for i in 0..q.len() {
            for j in i + 1..q.len() {
                assert_ne!(q[i], q[j]);
                assert_ne!((q[i] - q[j]).abs(), (j - i) as Val);
            }
        }
    }
    let problem = problem(&source);
    assert_eq!(problem.view.text(&vec![2, 4, 6, 1, 3, 5]), "q = [2, 4, 6, 1, 3, 5]\n");
    let json = problem.view.json(&vec![2, 4, 6, 1, 3, 5]).to_string();
    assert_eq!(json, r#"{"q[1]":2,"q[2]":4,"q[3]":6,"q[4]":1,"q[5]":3,"q[6]":5}"#);
}

/// Independent check: rows, columns and boxes hold 1..9 once, and the givens are kept.
fn valid_sudoku(grid: &[Val], givens: &[Option<Val>]) -> bool {
    let unit_ok = |cells: Vec<usize>| {
        let mut seen = [false; 10];
        cells.into_iter().all(|k| {
            let v = grid[k];
            (1..=9).contains(&v) && !std::mem::replace(&mut seen[v as usize], true)
        })
    };
    (0..9).all(|r| unit_ok((0..9).map(|c| r * 9 + c).collect()))
        && (0..9).all(|c| unit_ok((0..9).map(|r| r * 9 + c).collect()))
        && (0..9).all(|b| unit_ok((0..9).map(|k| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3).collect()))
        && givens.iter().zip(grid).all(|(g, v)| g.is_none_or(|g| g == *v))
}

#[test]
fn sudoku_has_one_valid_solution_shown_as_a_grid() {
    let givens: Vec<Option<Val>> = SUDOKU
        .lines()
        .filter(|l| l.starts_with("  "))
        .flat_map(|l| l.split_whitespace().map(|w| w.parse().ok()).collect::<Vec<_>>())
        .collect();
    assert_eq!(givens.len(), 81);
    let found = solutions(SUDOKU);
    assert_eq!(found.len(), 1);
    assert!(valid_sudoku(&found[0], &givens));
    let text = problem(SUDOKU).view.text(&found[0]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    assert_eq!(lines[0], "x =");
    assert_eq!(lines[1], "  5 3 4 6 7 8 9 1 2");
    let json = problem(SUDOKU).view.json(&found[0]);
    assert_eq!(json["x[1,1]"], 5);
    assert_eq!(json["x[9,9]"], 9);
    assert_eq!(json.as_object().map(|o| o.len()), Some(81));
}

#[test]
fn magic_square_3x3_has_8_solutions() {
    let source = "\
var m[1..3, 1..3] in 1..9
alldifferent(m)
forall i in 1..3: sum([m[i, j] | j in 1..3]) == 15
forall j in 1..3: sum([m[i, j] | i in 1..3]) == 15
sum([m[i, i] | i in 1..3]) == 15
sum([m[i, 4 - i] | i in 1..3]) = 15
solve all
";
    let found = solutions(source);
    assert_eq!(found.len(), 8);
    let text = problem(source).view.text(&found[0]);
    assert_eq!(text.lines().count(), 4, "{text}");
}

/// Every assignment of `n` variables over `lo..=hi`, as vectors.
fn assignments(n: usize, lo: Val, hi: Val) -> Vec<Vec<Val>> {
    let mut all = vec![vec![]];
    for _ in 0..n {
        all = all.into_iter().flat_map(|a: Vec<Val>| (lo..=hi).map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    all
}

#[test]
fn negative_ranges_offsets_and_where_filters_match_brute_force() {
    let source = "\
let k = -2
var a[k..2] in -3..3
alldifferent([a[i] - i | i in k..2])
forall i, j in -2..2 where i < j and (j - i) mod 2 == 0: a[i] + 1 <= a[j]
sum(a) >= -1
-a[0] != 2
solve all
";
    let mut want: Vec<Vec<Val>> = assignments(5, -3, 3)
        .into_iter()
        .filter(|a| {
            let at = |i: i64| a[(i + 2) as usize];
            let shifted: Vec<Val> = (-2..=2).map(|i| at(i) - i).collect();
            let distinct = (0..5).all(|p| (p + 1..5).all(|q| shifted[p] != shifted[q]));
            let ordered = (-2..=2i64).all(|i| (-2..=2i64).all(|j| !(i < j && (j - i) % 2 == 0) || at(i) < at(j)));
            distinct && ordered && a.iter().sum::<Val>() >= -1 && -at(0) != 2
        })
        .collect();
    let mut got = solutions(source);
    got.sort();
    want.sort();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

#[test]
fn minimize_finds_the_brute_force_optimum() {
    let source = "\
var x, y in -5..5
var z in {-4, -1, 2, 7}
x + 2*y >= 3
x - y <= 1
z != x
minimize 3*x + y - 2*z
";
    let found = solutions(source);
    let best = found.last().expect("a solution");
    let objective = |r: &[Val]| 3 * r[0] + r[1] - 2 * r[2];
    let brute = assignments(2, -5, 5)
        .into_iter()
        .flat_map(|a| [-4, -1, 2, 7].map(|z| vec![a[0], a[1], z]))
        .filter(|r| r[0] + 2 * r[1] >= 3 && r[0] - r[1] <= 1 && r[2] != r[0])
        .map(|r| objective(&r))
        .min();
    assert_eq!(Some(objective(best)), brute);
    // Each solution improves on the one before.
    assert!(found.windows(2).all(|w| objective(&w[1]) < objective(&w[0])));
}

#[test]
fn maximize_a_single_variable() {
    let found = solutions("var x, y in 0..10\nx + y <= 7\nx - y == 3\nmaximize x\n");
    assert_eq!(found.last(), Some(&vec![5, 2]));
}

#[test]
fn constant_arithmetic_and_nested_forall() {
    let source = "\
let n = 7 / 2 + 7 mod 4 - abs(-1) + max(1, 5, 2) - min([3, 4])
var v[1..n] in 0..20
forall i in 1..n - 1: forall j in {i + 1}: v[j] == v[i] + 2 * (j - i)
v[1] == sum([i | i in 1..3])
alldifferent(v ++ [v[1] + 100])
";
    // n = 3 + 3 - 1 + 5 - 3 = 7
    let found = solutions(source);
    assert_eq!(found, vec![vec![6, 8, 10, 12, 14, 16, 18]]);
}

#[test]
fn implications_and_disjunctions_decided_by_constants() {
    let source = "\
var p[1..4] in 1..4
alldifferent(p)
forall i, j in 1..4: i < j -> p[i] < p[j] or i == 4
not (p[1] != 1)
";
    assert_eq!(solutions(source), vec![vec![1, 2, 3, 4]]);
}

#[test]
fn alldifferent_of_general_linear_elements_uses_auxiliaries() {
    let source = "var a, b, c in 0..3\nalldifferent(2*a, b + c, -c, 5)\nsolve all\n";
    let mut want: Vec<Vec<Val>> = assignments(3, 0, 3)
        .into_iter()
        .filter(|v| {
            let e = [2 * v[0], v[1] + v[2], -v[2], 5];
            (0..4).all(|p| (p + 1..4).all(|q| e[p] != e[q]))
        })
        .collect();
    let mut got = solutions(source);
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn alldifferent_of_a_concatenation_may_repeat_a_variable_with_other_offsets() {
    let source =
        "let n = 3\nvar q[1..n] in 1..6\nalldifferent([q[i] | i in 1..n] ++ [q[i] + i | i in 1..n])\nsolve all\n";
    let mut want: Vec<Vec<Val>> = assignments(3, 1, 6)
        .into_iter()
        .filter(|q| {
            let e: Vec<Val> = q.iter().copied().chain(q.iter().zip(1..).map(|(v, i)| v + i)).collect();
            (0..6).all(|p| (p + 1..6).all(|r| e[p] != e[r]))
        })
        .collect();
    assert!(!want.is_empty());
    let mut got = solutions(source);
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn three_dimensional_arrays_and_free_given_cells() {
    let source = "\
var t[0..1, 1..2, 1..2] in 0..9
given t =
  1 .
  . 4
  5 6
  7 .
forall i in 0..1, j, k in 1..2: t[i, j, k] == 1 + 2 * i + 2 * (j - 1) + (k - 1) + 2 * i
";
    let found = solutions(source);
    assert_eq!(found, vec![vec![1, 2, 3, 4, 5, 6, 7, 8]]);
    let text = problem(source).view.text(&found[0]);
    assert_eq!(text, "t[0,*,*] =\n  1 2\n  3 4\nt[1,*,*] =\n  5 6\n  7 8\n");
    let json = problem(source).view.json(&found[0]).to_string();
    assert!(json.starts_with(r#"{"t[0,1,1]":1,"t[0,1,2]":2,"#), "{json}");
}

#[test]
fn text_puts_scalars_first_and_right_aligns_grid_columns() {
    let source = "var g[1..2, 1..3] in -10..10\nvar a in 0..1\nvar w[0..2] in 0..5\n";
    let p = problem(source);
    let record = vec![1, -10, 3, 10, 2, 3, 1, 0, 4, 5];
    assert_eq!(p.view.text(&record), "a=1\ng =\n   1 -10 3\n  10   2 3\nw = [0, 4, 5]\n");
    let json = p.view.json(&record).to_string();
    assert!(json.starts_with(r#"{"g[1,1]":1,"#) && json.contains(r#""g[2,3]":3,"a":1,"w[0]":0"#), "{json}");
}

#[test]
fn default_mode_is_first_and_a_given_contradiction_is_unsatisfiable() {
    let p = problem("var x[1..2] in 1..3\nx[1] == x[2]\ngiven x =\n  1 2\n");
    assert_eq!(p.mode, SolveMode::First);
    assert_eq!(count("var x[1..2] in 1..3\nx[1] == x[2]\ngiven x =\n  1 2\n"), 0);
}

#[test]
fn search_options_are_accepted() {
    let source = QUEENS.replace("solve count", "option var-order = dom_w_deg\noption val-order = middle");
    assert_eq!(count(&source), 92);
}

#[test]
fn let_arrays_bool_variables_and_continuation_lines() {
    // Weighted choice over a constant table: brute force over the 3 x 4 choices.
    let source = "\
let weight = [3, 1, 4]
let cost = [[2, 7, 1, 8],
            [2, 8, 1, 8],
            [4, 5, 9, 0]]
var i in 1..3
var j in 1..4
var picked in bool
picked <-> cost[i, j] > 4
weight[i]
  + cost[i, j] >= 6
solve all
";
    let mut expected = 0;
    let weight = [3, 1, 4];
    let cost = [[2, 7, 1, 8], [2, 8, 1, 8], [4, 5, 9, 0]];
    for (w, row) in weight.iter().zip(&cost) {
        for c in row {
            expected += usize::from(w + c >= 6);
        }
    }
    assert_eq!(count(source), expected);
    let all = solutions(source);
    for record in &all {
        let text = format!("{record:?}");
        assert!(!text.contains("weight") && !text.contains("cost"), "let arrays are not printed: {text}");
    }
}

#[test]
fn overlapping_alldifferents_default_to_domain_consistency() {
    // On the hardest-known Sudoku the matching prunes far more than Hall intervals: the
    // default is the matching, its tree is several times smaller than with
    // `option alldifferent = bounds`, and both find the same single solution.
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/model/sudoku-hardest.puz"))
            .expect("corpus sudoku");
    let nodes = |source: &str| {
        let mut problem = problem(source);
        let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
        let outcome = problem.solver.search(&config, |_| ControlFlow::Continue(()));
        assert_eq!(outcome.solutions, 1);
        problem.solver.stats().nodes
    };
    let default = nodes(&source);
    let domain = nodes(&format!("{source}\noption alldifferent = domain\n"));
    let bounds = nodes(&format!("{source}\noption alldifferent = bounds\n"));
    assert_eq!(default, domain, "the default is the matching");
    assert!(domain * 3 < bounds, "domain {domain} nodes, bounds {bounds}");
}
