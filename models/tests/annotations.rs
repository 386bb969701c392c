//! MiniZinc's propagation annotations on a constraint, `:: domain`, `:: bounds`,
//! `:: value_propagation`: they choose the engine's propagator, never the answer. Each model
//! below has no solution that a domain-consistent propagator sees at the root, while a
//! weaker one only finds it after searching the free variables `w` listed first.

use std::ops::ControlFlow;

use cpsolve_engine::SearchConfig;
use cpsolve_models::generic::compile;

/// The solutions and the nodes of the search.
fn run(source: &str) -> (u128, u64) {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("{source}\nparse error: {e:#?}"));
    let mut problem = compile(&file).unwrap_or_else(|e| panic!("{source}\ncompile error: {e:#?}"));
    let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
    let solutions = problem.solver.search(&config, |_| ControlFlow::Continue(())).solutions;
    (solutions, problem.solver.stats().nodes)
}

const FREE: &str = "array[1..3] of var 1..3: w;\nsearch int_search(w, input_order, indomain_min)\n";

/// Three variables over {1, 3} cannot be all different: the matching sees it, the Hall
/// intervals of bounds consistency and value elimination do not.
fn pigeons(annotation: &str, option: &str) -> (u128, u64) {
    run(&format!("array[1..3] of var {{1, 3}}: x;\n{FREE}{option}constraint alldifferent(x) {annotation};\n"))
}

#[test]
fn domain_on_alldifferent_selects_the_matching() {
    let (solutions, nodes) = pigeons(":: domain", "");
    assert_eq!((solutions, nodes), (0, 0));
    for weaker in ["", ":: bounds", ":: value_propagation"] {
        let (solutions, nodes) = pigeons(weaker, "");
        assert_eq!(solutions, 0, "{weaker}");
        assert!(nodes > 0, "{weaker}: {nodes} nodes");
    }
}

#[test]
fn the_annotation_of_a_constraint_overrides_the_option() {
    assert_eq!(pigeons(":: domain", "option alldifferent = bounds\n"), (0, 0));
    assert!(pigeons(":: bounds", "option alldifferent = domain\n").1 > 0);
    assert_eq!(pigeons("", "option alldifferent = domain\n"), (0, 0));
}

#[test]
fn domain_on_a_linear_equality_selects_the_domain_consistent_sum() {
    // An even sum cannot be 7: no value has a support, which bounds reasoning does not see.
    let model = |annotation: &str| {
        format!("var 0..6: x; var 0..6: y; var 0..6: z;\n{FREE}constraint 2*x + 4*y + 6*z == 7 {annotation};\n")
    };
    assert_eq!(run(&model(":: domain")), (0, 0));
    let (solutions, nodes) = run(&model(""));
    assert_eq!(solutions, 0);
    assert!(nodes > 0);
    // Elsewhere the annotation changes nothing of the answer.
    let sat = "var 0..6: x; var 0..6: y; var 0..6: z;\nconstraint 2*x + 3*y + 5*z == 20 :: domain;\n";
    assert_eq!(run(sat).0, run(&sat.replace(":: domain", "")).0);
}

#[test]
fn other_annotations_are_left_out() {
    let (solutions, _) = run("var 1..3: x; var 1..3: y;\nconstraint x < y :: \"name\" :: domain_change_constraint;\n");
    assert_eq!(solutions, 3);
}
