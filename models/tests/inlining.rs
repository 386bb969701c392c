//! A model written with predicates, functions, `let` and `if` compiles to the same
//! propagators, the same variables and the same search tree as the model written out by
//! hand: a call is its body inlined, a `let` name its value, an `if` over constants the
//! branch it picks.

use std::ops::ControlFlow;

use cpsolve_engine::{SearchConfig, Stats};
use cpsolve_models::generic::compile;

/// Variables, propagators, and the search's statistics (all solutions).
fn compiled(source: &str) -> (usize, usize, Stats) {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("{source}\nparse error: {e:#?}"));
    let mut problem = compile(&file).unwrap_or_else(|e| panic!("{source}\ncompile error: {e:#?}"));
    let (vars, props) = (problem.solver.num_vars(), problem.solver.num_propagators());
    let config = SearchConfig { check_solutions: true, ..problem.search.clone() };
    let stats = problem.solver.search(&config, |_| ControlFlow::Continue(()));
    (vars, props, stats)
}

fn same(written_out: &str, with_definitions: &str) {
    let (a_vars, a_props, a) = compiled(written_out);
    let (b_vars, b_props, b) = compiled(with_definitions);
    assert_eq!((a_vars, a_props), (b_vars, b_props), "variables and propagators differ");
    assert_eq!((a.solutions, a.nodes, a.failures), (b.solutions, b.nodes, b.failures), "the search trees differ");
    assert!(a.solutions > 0 && a.nodes > 0, "a test that cannot fail: {a:?}");
}

#[test]
fn queens_with_a_predicate() {
    same(
        "let n = 7\nvar q[1..n] in 1..n\n\
         forall i, j in 1..n where i < j: q[i] != q[j] and q[i] + i != q[j] + j and q[i] - i != q[j] - j\n\
         solve count\n",
        "let n = 7\nvar q[1..n] in 1..n\n\
         predicate no_attack(q, i, j) = q[i] != q[j] and q[i] + i != q[j] + j and q[i] - i != q[j] - j\n\
         forall i, j in 1..n where i < j: no_attack(q, i, j)\n\
         solve count\n",
    );
}

#[test]
fn latin_square_with_functions_lets_and_an_if() {
    same(
        "let n = 4\nvar x[1..n, 1..n] in 1..n\n\
         forall i in 1..n: alldifferent([x[i, j] | j in 1..n])\n\
         forall j in 1..n: alldifferent([x[i, j] | i in 1..n])\n\
         x[1, 1] == 1\n\
         forall j in 2..n: x[1, j] > x[1, j - 1]\n\
         solve count\n",
        "let n = 4\nlet N = 1..n\nvar x[N, N] in N\n\
         function row(x, i) = [x[i, j] | j in N]\n\
         predicate distinct_column(x, j) = let c = [x[i, j] | i in N] in alldifferent(c)\n\
         forall i in N: alldifferent(row(x, i))\n\
         forall j in N: distinct_column(x, j)\n\
         forall j in N: if j == 1 then x[1, j] == 1 else x[1, j] > x[1, j - 1] endif\n\
         solve count\n",
    );
}

#[test]
fn knapsack_with_let_and_a_function() {
    same(
        "let w = [3, 4, 5, 6]\nlet v = [4, 5, 7, 8]\nvar take[1..4] in 0..1\n\
         3*take[1] + 4*take[2] + 5*take[3] + 6*take[4] <= 10\n\
         4*take[1] + 5*take[2] + 7*take[3] + 8*take[4] >= 9\n\
         solve count\n",
        "let w = [3, 4, 5, 6]\nlet v = [4, 5, 7, 8]\nvar take[1..4] in 0..1\n\
         function total(weights, chosen) = sum(i in index_set(chosen))(weights[i] * chosen[i])\n\
         let { cap = 10; least = 9 } in total(w, take) <= cap and total(v, take) >= least\n\
         solve count\n",
    );
}
