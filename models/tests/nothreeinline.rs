//! `nothreeinline` end to end: source text → parse → compile → search, every listed
//! solution re-checked here by brute force (two points per row and column, no three
//! collinear), and the counts compared with the OEIS.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_models::run::{solve, Report, RunOptions, Status};

type Point = (usize, usize);

/// A000755: solutions on the n×n grid, n = 2..=10.
const ALL: [u128; 9] = [1, 2, 11, 32, 50, 132, 380, 368, 1135];
/// A000769: solutions up to rotation and reflection, n = 2..=10.
const DISTINCT: [u128; 9] = [1, 1, 4, 5, 11, 22, 57, 51, 156];

fn source(n: usize, symmetry: &str) -> String {
    format!("nothreeinline n = {n}\noption symmetry = {symmetry}\n")
}

fn run(source: &str, mode: SolveMode) -> (Report, Vec<Vec<Point>>) {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("parse error: {e:#?}"));
    let build = || cpsolve_models::compile(&file).unwrap_or_else(|e| panic!("compile error: {e:#?}"));
    let workers = || Some(build());
    let mut found = Vec::new();
    let options = RunOptions { mode: Some(mode), ..RunOptions::default() };
    let report = solve(build(), &workers, &options, |view, record| {
        let points: Vec<Point> = serde_json::from_value(view.json(record)).expect("a list of [row, col]");
        found.push(points);
        ControlFlow::Continue(())
    });
    (report, found)
}

fn collinear(a: Point, b: Point, c: Point) -> bool {
    let d = |p: Point, q: Point| (q.0 as i64 - p.0 as i64, q.1 as i64 - p.1 as i64);
    let (u, v) = (d(a, b), d(a, c));
    u.0 * v.1 == u.1 * v.0
}

/// The puzzle's definition, checked from scratch.
fn assert_valid(n: usize, points: &[Point]) {
    assert_eq!(points.len(), 2 * n, "2n points: {points:?}");
    assert!(points.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats: {points:?}");
    for i in 0..n {
        assert_eq!(points.iter().filter(|p| p.0 == i).count(), 2, "row {i}: {points:?}");
        assert_eq!(points.iter().filter(|p| p.1 == i).count(), 2, "column {i}: {points:?}");
    }
    for (i, &a) in points.iter().enumerate() {
        for (j, &b) in points.iter().enumerate().skip(i + 1) {
            for &c in &points[j + 1..] {
                assert!(!collinear(a, b, c), "{a:?} {b:?} {c:?} collinear in {points:?}");
            }
        }
    }
}

/// `points` mapped by one of the 8 symmetries of the square, sorted.
fn transform(n: usize, t: usize, points: &[Point]) -> Vec<Point> {
    let m = n - 1;
    let mut out: Vec<Point> = points
        .iter()
        .map(|&(r, c)| match t {
            0 => (r, c),
            1 => (c, m - r),
            2 => (m - r, m - c),
            3 => (m - c, r),
            4 => (r, m - c),
            5 => (m - r, c),
            6 => (c, r),
            _ => (m - c, m - r),
        })
        .collect();
    out.sort_unstable();
    out
}

/// Every solution for n (all of them, checked), which the other tests compare against.
fn all_solutions(n: usize) -> Vec<Vec<Point>> {
    let (report, found) = run(&source(n, "none"), SolveMode::All);
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.count, found.len() as u128);
    for s in &found {
        assert_valid(n, s);
    }
    assert_eq!(found.iter().collect::<BTreeSet<_>>().len(), found.len(), "no solution twice");
    found
}

#[test]
fn counts_match_a000755() {
    for n in 2..=7 {
        let (report, _) = run(&source(n, "none"), SolveMode::Count);
        assert_eq!(report.count, ALL[n - 2], "n = {n}");
        assert_eq!(all_solutions(n).len() as u128, ALL[n - 2], "n = {n}");
    }
}

#[test]
fn distinct_counts_match_a000769_one_per_class() {
    for n in 2..=7 {
        let (report, _) = run(&source(n, "distinct"), SolveMode::Count);
        assert_eq!(report.count, DISTINCT[n - 2], "n = {n}");
        let (_, listed) = run(&source(n, "distinct"), SolveMode::All);
        assert_eq!(listed.len() as u128, DISTINCT[n - 2], "n = {n}");
        // Each listed solution stands for its own class, and the classes cover all solutions.
        let class = |s: &Vec<Point>| (0..8).map(|t| transform(n, t, s)).min().expect("8 images");
        let listed_classes: BTreeSet<Vec<Point>> = listed.iter().map(class).collect();
        assert_eq!(listed_classes.len(), listed.len(), "two listed solutions are equivalent, n = {n}");
        let all_classes: BTreeSet<Vec<Point>> = all_solutions(n).iter().map(class).collect();
        assert_eq!(listed_classes, all_classes, "n = {n}");
    }
}

/// The symmetric options give exactly the solutions that their symmetries map onto themselves.
#[test]
fn symmetric_options_give_the_invariant_solutions() {
    for (option, group) in [("rotational", &[2][..]), ("rotational4", &[1, 2, 3]), ("diagonal", &[2, 6, 7])] {
        for n in 2..=7 {
            let expected: BTreeSet<Vec<Point>> =
                all_solutions(n).into_iter().filter(|s| group.iter().all(|&t| transform(n, t, s) == *s)).collect();
            let (report, found) = run(&source(n, option), SolveMode::All);
            for s in &found {
                assert_valid(n, s);
            }
            assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected, "{option}, n = {n}");
            let status = if expected.is_empty() { Status::Unsatisfiable } else { Status::Solved };
            assert_eq!(report.status, status, "{option}, n = {n}");
        }
    }
}

#[test]
fn rotational_first_solutions_of_larger_grids() {
    for n in [10, 11, 12, 13] {
        let (report, found) = run(&source(n, "rotational"), SolveMode::First);
        assert_eq!(report.status, Status::Solved, "n = {n}");
        let [points] = found.as_slice() else { panic!("one solution, n = {n}") };
        assert_valid(n, points);
        assert_eq!(transform(n, 2, points), *points, "invariant under 180°, n = {n}");
    }
}

#[test]
fn the_text_grid_marks_the_points() {
    let file = cpsolve_dsl::parse("nothreeinline n = 3").expect("parses");
    let build = || cpsolve_models::compile(&file).ok();
    let mut text = String::new();
    let _ = solve(build().expect("compiles"), &build, &RunOptions::default(), |view, record| {
        text = view.text(record);
        ControlFlow::Break(())
    });
    let marks: Vec<Vec<char>> =
        text.lines().map(|l| l.split(' ').map(|w| w.chars().next().unwrap_or('?')).collect()).collect();
    assert_eq!(marks.len(), 3, "{text}");
    let points: Vec<Point> =
        (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).filter(|&(r, c)| marks[r][c] == 'X').collect();
    assert_valid(3, &points);
    assert!(marks.iter().flatten().all(|&m| m == 'X' || m == '.'), "{text}");
}

fn error(source: &str) -> (String, String) {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("parse error: {e:#?}"));
    let errors = cpsolve_models::compile(&file).expect_err("must be rejected");
    let e = &errors[0];
    (e.message.clone(), source[e.span.clone()].to_string())
}

#[test]
fn bad_input_is_located() {
    let (message, text) = error("nothreeinline n = 0");
    assert!(message.contains("`n` must be from 1 to"), "{message}");
    assert_eq!(text, "0");
    let (message, text) = error("nothreeinline n = 1000");
    assert!(message.contains("`n` must be from 1 to"), "{message}");
    assert_eq!(text, "1000");
    let (message, text) = error("nothreeinline size = 5");
    assert!(message.contains("unknown parameter `size`"), "{message}");
    assert_eq!(text, "size");
    let (message, _) = error("nothreeinline");
    assert!(message.contains("missing parameter `n`"), "{message}");
    let (message, text) = error("nothreeinline n = 5\noption symmetry = mirror");
    assert!(message.contains("must be one of"), "{message}");
    assert_eq!(text, "mirror");
    let (message, text) = error("nothreeinline n = 5\noption fix = 1");
    assert!(message.contains("unknown option `fix`"), "{message}");
    assert_eq!(text, "fix");
    let (message, _) = error("nothreeinline n = 5\nqueens n = 4");
    assert!(message.contains("one `nothreeinline` statement"), "{message}");
}

#[test]
fn ninety_degree_symmetry_needs_an_even_grid() {
    let (report, found) = run(&source(7, "rotational4"), SolveMode::First);
    assert_eq!(report.status, Status::Unsatisfiable);
    assert!(found.is_empty());
    assert!(report.unsat_reason.is_some_and(|r| r.contains("multiple of 4")));
}

#[test]
fn without_an_option_one_solution_comes_from_the_portfolio_or_none_is_proven() {
    // n = 1 has no solution in any class: the full model's own turns must prove it.
    let (report, found) = run("nothreeinline n = 1\n", SolveMode::First);
    assert_eq!((report.status, found.len()), (Status::Unsatisfiable, 0));
    for n in 2..=20 {
        let (report, found) = run(&format!("nothreeinline n = {n}\n"), SolveMode::First);
        assert_eq!((report.status, found.len()), (Status::Solved, 1), "n = {n}");
        assert_valid(n, &found[0]);
    }
}

#[test]
fn without_an_option_counting_is_over_all_placements() {
    for n in 2..=8 {
        let (report, _) = run(&format!("nothreeinline n = {n}\n"), SolveMode::Count);
        assert_eq!(report.count, ALL[n - 2], "n = {n}");
    }
}
