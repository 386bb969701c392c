//! `--learning auto` on a model of the language: where one solution or an optimum is
//! wanted, the model's own order runs first without learning while it projects to finish
//! soon, then a learning search takes over. An easy model keeps its tree (node for node the
//! run without learning); a model whose plain search does not finish soon learns; counts
//! and enumerations never do. The answer is the same every way.

use std::ops::ControlFlow;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_models::run::{solve, Report, RunOptions, Status};

/// Colour a 4×8 grid with the fewest colours so that no rectangle has its four corners of
/// one colour (MiniZinc benchmarks, grid-colouring 4_8; optimum 3). Its first-fail order
/// proves the optimum only after tens of thousands of failures: the probe gives way.
const GRID: &str = "
let n = 4
let m = 8
var x[1..n,1..m] in 1..min(n,m)
var objective in 1..min(n,m)
constraint forall(i in 1..n, k in 1..m)(x[i,k] <= objective)
constraint forall(i in 1..n, j in i+1..n, k in 1..m, l in k+1..m)(
    x[i,k] != x[i,l] \\/ x[i,l] != x[j,l] \\/ x[j,k] != x[j,l] \\/ x[i,k] != x[j,k])
search seq_search([
    int_search([x[i,k] | i in 1..n, k in 1..m], first_fail, indomain_min, complete),
    int_search([objective], input_order, indomain_min, complete)])
solve minimize objective
";

/// A Golomb ruler of 8 marks (optimum 34, OEIS A003022): its default dom/wdeg search
/// proves it in a few thousand nodes, within the probe.
const GOLOMB: &str = "
let n = 8
var m[1..n] in 0..n*n
m[1] == 0
forall i in 1..n-1: m[i] < m[i+1]
alldifferent([m[j] - m[i] | i in 1..n, j in i+1..n])
m[2] - m[1] < m[n] - m[n-1]
minimize m[n]
";

fn run(source: &str, learning: Option<bool>, mode: Option<SolveMode>) -> (Report, u128) {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("parse error: {e:#?}"));
    let build = || cpsolve_models::compile(&file).unwrap_or_else(|e| panic!("compile error: {e:#?}"));
    let workers = || Some(build());
    let options = RunOptions { learning, mode, ..RunOptions::default() };
    let mut shown = 0;
    let report = solve(build(), &workers, &options, |_, _| {
        shown += 1;
        ControlFlow::Continue(())
    });
    (report, shown)
}

#[test]
fn a_model_whose_plain_search_is_long_learns_by_default() {
    let (auto, _) = run(GRID, None, None);
    let (plain, _) = run(GRID, Some(false), None);
    assert_eq!((auto.status, auto.objective), (Status::Solved, Some(3)));
    assert_eq!((plain.status, plain.objective), (Status::Solved, Some(3)));
    assert!(auto.stats.learned > 0, "learned nothing: {:?}", auto.stats);
    assert!(auto.stats.probe_propagations > 0, "no probe ran first: {:?}", auto.stats);
    assert_eq!(plain.stats.learned, 0);
}

#[test]
fn an_easy_model_keeps_its_tree_by_default() {
    let (auto, shown_auto) = run(GOLOMB, None, None);
    let (plain, shown_plain) = run(GOLOMB, Some(false), None);
    assert_eq!(auto.objective, Some(34));
    assert_eq!(plain.objective, Some(34));
    assert_eq!(auto.stats.learned, 0, "{:?}", auto.stats);
    assert_eq!((auto.stats.nodes, shown_auto), (plain.stats.nodes, shown_plain));
}

#[test]
fn counts_and_enumerations_never_learn_by_default() {
    let (count, _) = run("var x[1..4] in 1..4\nalldifferent(x)\n", None, Some(SolveMode::Count));
    assert_eq!(count.count, 24);
    assert_eq!(count.stats.learned, 0);
    let (all, shown) =
        run(GRID.replace("solve minimize objective", "objective == 2").as_str(), None, Some(SolveMode::All));
    assert_eq!((all.status, shown), (Status::Unsatisfiable, 0));
    assert_eq!(all.stats.learned, 0);
}
