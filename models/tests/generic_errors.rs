//! Semantic errors of generic models: each points at the offending text, several are
//! reported in one run, and features of later versions say "is not supported yet".

use cpsolve_dsl::Diagnostic;
use cpsolve_models::generic::compile;

fn diagnostics(source: &str) -> Vec<Diagnostic> {
    let file = cpsolve_dsl::parse(source).unwrap_or_else(|e| panic!("parse error: {e:#?}"));
    let Err(errors) = compile(&file) else { panic!("compiled without error: {source}") };
    errors
}

/// The message and the offending text of each error.
fn errors(source: &str) -> Vec<(String, String)> {
    diagnostics(source).into_iter().map(|d| (d.message, source[d.span].to_owned())).collect()
}

/// The single error of `source`: its message must contain `message` and its span must be `text`.
#[track_caller]
fn error(source: &str, message: &str, text: &str) {
    let all = errors(source);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert!(all[0].0.contains(message), "{:?} does not contain {message:?}", all[0].0);
    assert_eq!(all[0].1, text, "span of {:?}", all[0].0);
}

const Q: &str = "var q[1..3] in 1..3\nvar x, y in 0..9\n";

#[test]
fn unknown_name_as_in_the_corpus() {
    error("var x in 0..9\nx + y == 3\n", "unknown name `y`", "y");
    error("given z =\n  1 2\n", "unknown name `z`", "z");
    error("forall i in 1..3: alldifferent([w[i]])\n", "unknown name `w`", "w");
}

#[test]
fn duplicate_declarations() {
    error("var x in 0..9\nlet x = 3\n", "declared twice", "x");
    let source = "var a, b in 0..1\nvar c, a in 0..1\n";
    let all = diagnostics(source);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(Some(all[0].span.clone()), source.rfind('a').map(|k| k..k + 1), "the second `a`");
    error("forall i in 1..2, i in 1..2: 1 == 1\n", "bound twice", "i");
}

#[test]
fn arrays_and_scalars_misused() {
    error(&format!("{Q}q == 2\n"), "array `q` used without an index", "q");
    error(&format!("{Q}x[1] == 2\n"), "`x` is not an array", "x");
    error("var m[1..3, 1..3] in 0..3\nm[1] == 2\n", "2 dimensions, but 1 index is given", "m[1]");
    error(&format!("{Q}given x =\n  1\n"), "not an array", "x");
}

#[test]
fn index_out_of_range() {
    error(&format!("{Q}q[4] == 1\n"), "index 4 is out of range: `q` is indexed by 1..3", "4");
    error(&format!("{Q}forall i in 1..4: q[i] != 0\n"), "index 4 is out of range", "i");
    error(&format!("{Q}alldifferent([q[i + 1] | i in 1..3])\n"), "index 4", "i + 1");
    error("var m[1..3, 0..2] in 0..3\nm[1, 3] == 2\n", "`m` is indexed by 0..2 in dimension 2", "3");
}

#[test]
fn constants_required() {
    error(&format!("{Q}var z in 0..x\n"), "expected a constant, but this depends on the variable `x`", "x");
    // A `let` may name a value over variables; used where a constant is needed, it is an error.
    error(&format!("{Q}let m = x + 1\nvar z in 0..m\n"), "depends on the variable `x`", "m");
    error(&format!("{Q}forall i in 1..y: q[1] != i\n"), "depends on the variable `y`", "y");
    error(&format!("{Q}forall i in 1..3 where q[i] > 1: x != i\n"), "depends on the variable `q[1]`", "q[i]");
    error(&format!("{Q}var r[1..q[1]] in 0..1\n"), "depends on the variable `q[1]`", "q[1]");
}

#[test]
fn empty_domains() {
    error("var x in 5..1\n", "empty domain", "5..1");
    error("var x in {}\n", "empty domain", "{}");
    error("var x in 7\n", "expected a domain", "7");
}

#[test]
fn overflow_is_an_error_at_its_cause() {
    error("let big = 9223372036854775807 + 1\n", "integer overflow", "9223372036854775807 + 1");
    error("var x in 0..9\n4611686018427387904 * 2 * x == 1\n", "integer overflow", "4611686018427387904 * 2");
    error("var x in 0..2000000000000000000\n", "out of range", "0..2000000000000000000");
    error("var x, y in 0..1000000000000000000\n9*x + 9*y == 1\n", "arithmetic overflow", "9*x + 9*y == 1");
    error("var x, y in 0..1000000000000000000\nminimize 2*x + 2*y\n", "beyond what the solver can hold", "2*x + 2*y");
    error("let a = 1 / 0\n", "division by zero", "0");
    error("let a = -9223372036854775807 - 1\nlet b = a / -1\n", "integer overflow", "a / -1");
}

#[test]
fn later_features_are_not_supported_yet() {
    error(&format!("{Q}x / y == 1\n"), "`/` by a variable is not supported yet", "y");
    error(&format!("{Q}x mod y == 1\n"), "`mod` by a variable is not supported yet", "y");
    error(&format!("{Q}atleast(2, q, 1)\n"), "`atleast` is not supported yet", "atleast");
    error(
        "var x in -2000000..2000000\nabs(x) == 3\n",
        "possible values is not supported: at most 1048576 are",
        "abs(x)",
    );
}

#[test]
fn nonlinear_misuses() {
    error(&format!("{Q}count(q, 1, 2) == 1\n"), "`count` takes a list and a value, not 3 arguments", "count(q, 1, 2)");
    error(&format!("{Q}count(q) == 1\n"), "expected a condition, found an integer expression", "q");
    error(&format!("{Q}table(q, [[1, 2]])\n"), "this tuple has 2 values, but the table has 3 variables", "[[1, 2]]");
    error(&format!("{Q}table(q, [1, 2, 3])\n"), "expected a table of constants", "[1, 2, 3]");
    error(&format!("{Q}table(q)\n"), "`table` takes two arguments", "table(q)");
    error(&format!("{Q}table([x, y], [[1, x]])\n"), "expected a constant", "[[1, x]]");
    error(&format!("{Q}x + table(q, [[1, 2, 3]]) == 1\n"), "`table` is a constraint", "table(q, [[1, 2, 3]])");
    error(&format!("{Q}x == 1 or x + 1\n"), "expected a condition", "x + 1");
    error(&format!("{Q}x / 0 == 1\n"), "division by zero", "0");
}

#[test]
fn global_constraints_of_the_wrong_shape() {
    error(&format!("{Q}circuit(q, 1)\n"), "`circuit` takes 1 argument, not 2", "circuit(q, 1)");
    error(
        &format!("{Q}cumulative(q, [1, 2], [1, 1, 1], 2)\n"),
        "this list has 2 elements, but the first has 3",
        "[1, 2]",
    );
    error(&format!("{Q}among(x, q, y)\n"), "expected a set", "y");
    error(&format!("{Q}regular(q, 2, 2, [[1, 2]], 1, {{1}})\n"), "the transition table has 1 rows", "[[1, 2]]");
    error(&format!("{Q}regular(q, 2, 2, [[1, 2], [3, 0]], 1, {{1}})\n"), "a transition to state 3", "[[1, 2], [3, 0]]");
    error(&format!("{Q}global_cardinality(q, [1, 2], [x])\n"), "1 counts for 2 values to count", "[x]");
    error(&format!("{Q}bin_packing_load([x, y], q, [1, 2])\n"), "2 weights for 3 items", "[1, 2]");
    error(&format!("{Q}inverse(q, [x, y])\n"), "`f` has 3 elements and `g` 2", "inverse(q, [x, y])");
}

#[test]
fn other_misuses() {
    error(&format!("{Q}frobnicate(q)\n"), "unknown function `frobnicate`", "frobnicate");
    error(&format!("{Q}x + 1\n"), "expected a constraint", "x + 1");
    error(&format!("{Q}sum(q)\n"), "expected a constraint", "sum(q)");
    error(&format!("{Q}x == [1, 2]\n"), "expected an integer expression, found a list", "[1, 2]");
    error(&format!("{Q}alldifferent(q ++ x)\n"), "a list on each side of `++`", "x");
    error(&format!("{Q}forall i in 3: x != i\n"), "a range `lo..hi`", "3");
    error(&format!("{Q}forall i in 1..3 where i: x != i\n"), "expected a condition", "i");
    error(&format!("{Q}solve all\nsolve count\n"), "`solve` is given twice", "count");
    error(&format!("{Q}minimize x\nmaximize y\n"), "objective is given twice", "maximize");
}

#[test]
fn puzzle_statements_cannot_be_mixed_in() {
    error("var x in 0..1\ncryptarithm A + B = C\n", "a file holds one model", "cryptarithm A + B = C");
    error("var x in 0..1\ncompte 1 2 -> 3\n", "a file holds one model", "compte 1 2 -> 3");
}

#[test]
fn unknown_options_and_values() {
    error("option colour = blue\n", "unknown option `colour`", "colour");
    error("option var-order = sideways\n", "must be one of", "sideways");
}

#[test]
fn given_grids_must_fit_the_array() {
    let head = "var x[1..2, 1..3] in 1..9\ngiven x =\n";
    error(&format!("{head}  1 2 3\n  4 5\n"), "this row has 2 cells, but `x` has 3 per row", "4 5");
    error(&format!("{head}  1 2 3\n  4 5 6\n  7 8 9\n"), "too many rows", "7 8 9");
    error(&format!("{head}  1 2 3\n"), "too few rows: `x` has 2 rows, the grid gives 1", "1 2 3");
    error(&format!("{head}  1 2 3\n  4 10 6\n"), "10 is outside the domain of `x[2,2]` (1..9)", "10");
    error("var v[0..2] in {1, 3}\ngiven v =\n  1 2 .\n", "outside the domain of `v[1]` ({1, 3})", "2");
    error("var v[0..2] in 1..3\ngiven v =\n  1 2 .\n  1 2 3\n", "too many rows", "1 2 3");
}

#[test]
fn several_errors_in_one_run_without_cascades() {
    let source = "var x in 0..9\nx + y == 3\nz != 1\nvar w in 3..1\nw == 2\nvar v[1..2] in 0..x\nv[1] == 1\n";
    let all = errors(source);
    let texts: Vec<&str> = all.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["y", "z", "3..1", "x"], "{all:#?}");
}

#[test]
fn runaway_loops_stop_with_an_error() {
    error("var x in 0..1\nforall i in 1..1000000000 where i < 0: x != i\n", "too many iterations", "1..1000000000");
}

#[test]
fn let_arrays_and_objectives_are_checked() {
    error("let w = [[1, 2], [3]]\n", "this row has 1 values, but the first row has 2", "[3]");
    error("let w = [1, 2]\ngiven w =\n  1 2\n", "`w` is a `let` array", "w");
    error("let w = [1, x]\n", "unknown name `x`", "x");
    error("let w = [1, 2]\nvar x in 0..3\nw[3] == x\n", "index 3 is out of range", "3");
    error("var x in 0..3\nsolve count\nminimize x\n", "do not apply to a model with an objective", "count");
}

/// A set under a Boolean or integer operator once sent the constant evaluator of sets and the
/// one of set variables to each other without end (a stack overflow, found by
/// `generic_proptest`).
#[test]
fn a_set_where_a_value_is_expected_is_an_error() {
    error("let k = {-2} and 4\n", "expected a condition, found a set", "{-2}");
    error(&format!("{Q}var z[({{-2}} and 4)..3] in 1..3\n"), "expected a condition, found a set", "{-2}");
    error("let s = {1} union 3\n", "expected a set, found an integer expression", "3");
    error(&format!("{Q}x in ({{1}} union (x > 2))\n"), "expected a set", "(x > 2)");
}

#[test]
fn a_model_without_variables_or_constraints_has_nothing_to_solve() {
    let no_variable = "the model declares no variable";
    assert_eq!(errors(""), [(no_variable.to_string(), String::new())]);
    error("solve all\n", no_variable, "solve all");
    error("# only a comment\nlet n = 3\noption var-order = first_fail\n", no_variable, "let n = 3");
    // Constraints over constants are a check of the constants, not an empty model.
    for checks in ["1 < 2\n", "let n = 3\nforall i in 1..n: i > 0\nsolve all\n", "3 > 4\n"] {
        let file = cpsolve_dsl::parse(checks).unwrap_or_else(|e| panic!("{e:#?}"));
        assert!(compile(&file).is_ok(), "{checks}");
    }
}

/// A repeated `option` once silently took the last value.
#[test]
fn an_option_given_twice_is_an_error_at_the_second() {
    let source = "var x in 1..3\noption var-order = first_fail\noption var-order = input_order\n";
    error(source, "`option var-order` is given twice", "option var-order = input_order");
}
