//! What the generic-model tests share: counting a model's solutions, each checked against
//! every constraint, so that a propagator that lets a wrong solution through fails the test.

use std::ops::ControlFlow;

use cpsolve_engine::SearchConfig;
use cpsolve_models::generic::compile;

/// The number of solutions of `source`. A model that does not parse or compile panics,
/// unless every compile error is one `no_solution` accepts (a statement that is false
/// whatever the values, such as a constant index out of range): it counts 0.
pub(crate) fn count_solutions(source: &str, no_solution: impl Fn(&str) -> bool) -> u128 {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("{source}\nparse error: {e:#?}"));
    let mut problem = match compile(&file) {
        Ok(problem) => problem,
        Err(errors) if errors.iter().all(|e| no_solution(&e.message)) => return 0,
        Err(errors) => panic!("{source}\ncompile error: {errors:#?}"),
    };
    let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
    problem.solver.search(&config, |_| ControlFlow::Continue(())).solutions
}
