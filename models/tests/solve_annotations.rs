//! MiniZinc's annotations after `solve ::` are the model's `search` line: the search order
//! they give is the one followed (the solutions come in the same order as with the `search`
//! statement, and the first differs between two orders), the answer is the same (the
//! optimum, the count), and an annotation that chooses no branching is left out.

use std::ops::ControlFlow;

use cpsolve_engine::{SearchConfig, Val};
use cpsolve_models::generic::compile;

/// Every solution in the order found (every improving one, when optimising).
fn solutions(source: &str) -> Vec<Vec<Val>> {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("{source}\nparse error: {e:#?}"));
    let mut problem = compile(&file).unwrap_or_else(|e| panic!("{source}\ncompile error: {e:#?}"));
    let mut found = Vec::new();
    let view = &problem.view;
    let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
    let outcome = problem.solver.search(&config, |solution| {
        found.push(view.record(solution));
        ControlFlow::Continue(())
    });
    assert_eq!(outcome.stopped, None);
    found
}

const PAIR: &str = "var x, y in 1..3\nx != y\n";

#[test]
fn the_annotation_is_the_search_line() {
    let annotated = solutions(&format!("{PAIR}solve :: int_search([y, x], input_order, indomain_max) all;\n"));
    let line = solutions(&format!("{PAIR}search int_search([y, x], input_order, indomain_max)\nsolve all\n"));
    assert_eq!(annotated, line);
    assert_eq!(annotated.len(), 6);
    assert_eq!(annotated[0], [2, 3]);
    let other = solutions(&format!("{PAIR}solve :: int_search([x, y], input_order, indomain_min) all;\n"));
    assert_eq!(other[0], [1, 2]);
    let mut sorted = (annotated.clone(), other.clone());
    sorted.0.sort();
    sorted.1.sort();
    assert_eq!(sorted.0, sorted.1, "the same solutions in another order");
}

#[test]
fn several_searches_are_searched_in_turn_and_others_are_left_out() {
    let annotated = solutions(&format!(
        "{PAIR}solve :: int_search([x], input_order, indomain_max) :: restart_luby(100) \
         :: int_search([y], input_order, indomain_min) :: my_solver_hint all;\n"
    ));
    let line = solutions(&format!(
        "{PAIR}search seq_search([int_search([x], input_order, indomain_max), int_search([y], input_order, indomain_min)])\n\
         solve all\n"
    ));
    assert_eq!(annotated, line);
    assert_eq!(annotated[0], [3, 1]);
    // Annotations that choose no branching change nothing.
    let plain = solutions(&format!("{PAIR}solve all\n"));
    assert_eq!(solutions(&format!("{PAIR}solve :: restart_luby(100) :: warm_start(x, 2) all;\n")), plain);
}

#[test]
fn the_optimum_is_the_same_in_any_order() {
    let model = |annotation: &str| {
        format!(
            "array[1..3] of var 1..3: x;\nvar 0..20: cost = x[1] + 2 * x[2] + 4 * x[3];\n\
             constraint alldifferent(x);\nsolve {annotation}\n  minimize cost;\n"
        )
    };
    let max_first = solutions(&model(":: seq_search([int_search(x, input_order, indomain_max)])"));
    let min_first = solutions(&model(":: int_search(x, input_order, indomain_min)"));
    let plain = solutions(&model(""));
    assert_ne!(max_first[0], min_first[0], "each order starts elsewhere");
    assert_eq!(max_first[0], [3, 2, 1, 11]);
    let best = |found: &[Vec<Val>]| found.last().cloned().expect("a solution");
    assert_eq!(best(&max_first), [3, 2, 1, 11]);
    assert_eq!(best(&min_first), best(&plain));
    assert_eq!(best(&plain)[3], 11);
}

#[test]
fn an_annotated_solve_and_a_search_line_are_two_searches() {
    let source = format!("{PAIR}search int_search([x], input_order, indomain_min)\nsolve :: int_search([y], first_fail, indomain_min) satisfy;\n");
    let file = cpsolve_dsl::parse(&source).expect("parses");
    let Err(errors) = compile(&file) else { panic!("refused") };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "`search` is given twice");
    let line = source.lines().position(|l| l.starts_with("solve")).expect("a solve line");
    let at = source.lines().take(line).map(|l| l.len() + 1).sum::<usize>() + "solve :: ".len();
    assert_eq!(errors[0].span.start, at, "at the annotation");
}
