//! MiniZinc habits that `.puz` does not accept: each error carries a note with the `.puz`
//! form, built from the statement's own names where it can be.

use cpsolve_dsl::parse;

/// The last note of the only error of `source` (the hint comes after the parser's
/// "expected …" note).
fn hint(source: &str) -> String {
    let errors = parse(source).expect_err("MiniZinc syntax is not .puz");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors[0].notes.last().cloned().unwrap_or_default()
}

fn has_hint(source: &str, expected: &str) {
    let hint = hint(source);
    assert!(hint.contains(expected), "{source:?}: the hint {hint:?} does not hold {expected:?}");
}

#[test]
fn an_array_of_variables() {
    has_hint("let n = 4\narray[1..n] of var 1..9: x;", "`var x[1..n] in 1..9`");
    has_hint("array[1..3, 1..n] of var set of 1..5: grid;", "`var grid[1..3, 1..n] in set of 1..5`");
    has_hint("array[1..n] of var int: x;", "`var x[1..n] in LO..HI`");
}

#[test]
fn a_constant_array() {
    has_hint("array[1..3] of int: w = [4, 1, 3];", "`let w = [4, 1, 3]` (indexed from 1)");
    has_hint("array[int] of int: cost;", "`let cost = [...]`");
}

#[test]
fn a_variable() {
    has_hint("var 1..9: x;", "`var x in 1..9`");
    has_hint("var bool: b", "`var b in bool`");
    has_hint("var {1, 3, 5}: odd;", "`var odd in {1, 3, 5}`");
    has_hint("var int: y;", "`var y in LO..HI`");
}

#[test]
fn a_constant() {
    has_hint("int: n = 3;", "`let n = 3`");
    has_hint("bool: verbose = true;", "`let verbose = true`");
    has_hint("set of int: S = {1,3};", "`let S = {1,3}`");
    has_hint("int: n;", "`let n = ...` (there are no data files)");
}

#[test]
fn typed_parameters() {
    has_hint("predicate p(var int: x, array[int] of var int: a) = x > a[1];", "`predicate p(x, a) = ...`");
    has_hint(
        "function var int: area(var int: w, var int: h) = w * h;",
        "`function area(w, h) = ...`, and a function has no result type",
    );
}

#[test]
fn output_is_not_needed() {
    has_hint("var x in 1..3\noutput [\"x = \", show(x)];", "not needed, cpsolve prints the variables");
}

#[test]
fn an_annotated_solve() {
    has_hint(
        "solve :: int_search(x, first_fail, indomain_min) satisfy;",
        "`search int_search(x, first_fail, indomain_min)`, then `solve first`",
    );
    has_hint(
        "solve :: seq_search([int_search(q, input_order, indomain_min)]) minimize cost;",
        "`search seq_search([int_search(q, input_order, indomain_min)])`, then `minimize cost`",
    );
    // The goal on the next line is a statement of its own.
    has_hint(
        "solve :: int_search(x, first_fail, indomain_min)\n  minimize cost;",
        "`search int_search(x, first_fail, indomain_min)`, then the goal",
    );
}

#[test]
fn the_message_and_place_stay_the_parsers() {
    let source = "let n = 2\nvar 1..9: x;";
    let errors = parse(source).expect_err("MiniZinc syntax");
    assert_eq!(errors[0].message, "unexpected `1`");
    assert_eq!(&source[errors[0].span.clone()], "1");
    assert_eq!(errors[0].notes.len(), 2, "{:?}", errors[0].notes);
}

#[test]
fn puz_typos_get_no_minizinc_hint() {
    for source in ["var x 1..9", "let n = = 3", "predicate p(a, b) = a <", "solve firts", "x > > 2"] {
        let errors = parse(source).expect_err("a typo");
        assert!(errors.iter().flat_map(|e| &e.notes).all(|note| !note.contains("`.puz`")), "{source:?}: {errors:#?}");
    }
}
