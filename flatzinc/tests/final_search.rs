//! `Options::final_search` reaches the engine: a search stopped by the solution count (one
//! solution, the FlatZinc default) leaves the model's solver spent when asked, and in its
//! root state otherwise; the answer and the statistics are the same.

use cpsolve_flatzinc::{load, solve, Options};

const MODEL: &str = "var 1..4: a :: output_var;
var 1..4: b :: output_var;
var 1..4: c :: output_var;
var 1..4: d :: output_var;
constraint fzn_all_different_int([a, b, c, d]);
solve satisfy;
";

fn first_solution(final_search: bool) -> (Vec<Vec<i64>>, u64, bool) {
    let mut model = load(MODEL).expect("a valid model");
    let mut found = Vec::new();
    let options = Options { final_search, ..Options::default() };
    let result = solve(&mut model, &options, |_, f| found = f.values.clone());
    (found, result.stats.nodes, model.solver.is_spent())
}

#[test]
fn a_final_first_solution_search_leaves_the_solver_spent() {
    let (kept, kept_nodes, spent) = first_solution(true);
    assert!(spent);
    let (undone, undone_nodes, spent) = first_solution(false);
    assert!(!spent);
    assert_eq!((kept, kept_nodes), (undone, undone_nodes));
}
