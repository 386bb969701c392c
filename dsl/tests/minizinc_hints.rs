//! MiniZinc habits: the typed declarations `.puz` reads as its own statements, and the
//! forms it does not accept, whose error carries a note with the `.puz` form, built from
//! the statement's own names where it can be.

use cpsolve_dsl::ast::Item;
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

/// The only statement of `source`, which must parse.
fn item(source: &str) -> Item {
    let file = parse(source).unwrap_or_else(|errors| panic!("{source:?} does not parse: {errors:#?}"));
    assert_eq!(file.items.len(), 1, "{source:?}");
    file.items.into_iter().next().map(|item| item.node).unwrap_or_else(|| unreachable!())
}

#[test]
fn typed_declarations_are_the_puz_statements() {
    let var = |source: &str, name: &str, dims: usize| match item(source) {
        Item::Var { decls, .. } => assert!(decls[0].name.node == name && decls[0].dims.len() == dims, "{source:?}"),
        other => panic!("{source:?}: {other:?}"),
    };
    var("var 1..9: x;", "x", 0);
    var("var bool: b", "b", 0);
    var("var {1, 3, 5}: odd;", "odd", 0);
    var("var -3..n: y;", "y", 0);
    var("array[1..n] of var 1..9: x;", "x", 1);
    var("array[1..3, 1..n] of var set of 1..5: grid;", "grid", 2);
    let constant = |source: &str, name: &str| match item(source) {
        Item::Let { name: n, .. } => assert_eq!(n.node, name, "{source:?}"),
        other => panic!("{source:?}: {other:?}"),
    };
    constant("int: n = 3;", "n");
    constant("bool: verbose = true;", "verbose");
    constant("set of int: S = {1,3};", "S");
    constant("array[1..3] of int: w = [4, 1, 3];", "w");
    // The index sets of a typed array stay with the `let`: its value takes them.
    match item("array[0..1, int] of int: t = [| 1, 2 | 3, 4 |];") {
        Item::Let { dims, .. } => assert_eq!(dims.len(), 2),
        other => panic!("{other:?}"),
    }
    match item("array[0..1] of var 1..9: r = [a, b];") {
        Item::Defined { dims, .. } => assert_eq!(dims.len(), 1),
        other => panic!("{other:?}"),
    }
    let defined = |source: &str, name: &str, bounded: bool| match item(source) {
        Item::Defined { name: n, domain, .. } => {
            assert!(n.node == name && domain.is_some() == bounded, "{source:?}")
        }
        other => panic!("{source:?}: {other:?}"),
    };
    defined("var int: z = x + y;", "z", false);
    defined("var z = x + y", "z", false);
    defined("var 0..9: z = x + y;", "z", true);
    defined("array[1..2] of var 1..9: LD = [a, b];", "LD", true);
}

#[test]
fn declarations_without_a_value_parse() {
    // MiniZinc's parameters whose values come from data lines (the model binds them).
    for source in ["array[int] of int: cost;", "int: n;", "set of int: S;", "bool: b;", "array[1..2, 1..3] of int: d;"]
    {
        let file = parse(source).unwrap_or_else(|e| panic!("{source}: {e:?}"));
        assert!(matches!(file.items[0].node, cpsolve_dsl::ast::Item::Param { .. }), "{source}");
    }
}

#[test]
fn typed_parameters() {
    // MiniZinc's parameter and result types parse; a type with a domain gets the untyped form.
    for accepted in [
        "predicate p(var int: x, array[int] of var int: a) = x > a[1];",
        "function var int: area(var int: w, int: h) = w * h;",
        "test even(int: v) = v mod 2 == 0;",
        "predicate q(array[int, int] of var bool: g, var set of int: s, bool: b) = b;",
    ] {
        assert!(parse(accepted).is_ok(), "{accepted}");
    }
    has_hint("predicate p(var 1..3: x, array[int] of var int: a) = x > a[1];", "`predicate p(x, a) = ...`");
    has_hint("function var int: area(var 0..9: w, var int: h) = w * h;", "`function area(w, h) = ...`");
}

#[test]
fn an_output_item_is_read_and_left_out() {
    let file = parse("var x in 1..3\noutput [\"x = \", show(x)];").expect("output items parse");
    assert_eq!(file.items.len(), 1);
}

#[test]
fn an_annotated_solve_without_its_goal() {
    has_hint(
        "solve :: int_search(x, first_fail, indomain_min);",
        "the form is `solve :: int_search(x, first_fail, indomain_min) satisfy`; or, as `.puz` writes it, \
         the search as a statement of its own: `search int_search(x, first_fail, indomain_min)`, then the goal",
    );
    has_hint(
        "solve: seq_search([int_search(q, input_order, indomain_min)]) minimize cost;",
        "`search seq_search([int_search(q, input_order, indomain_min)])`, then `minimize cost`",
    );
}

#[test]
fn the_message_and_place_stay_the_parsers() {
    let source = "let n = 2\nint: m = ;";
    let errors = parse(source).expect_err("MiniZinc syntax");
    assert_eq!(errors[0].message, "unexpected end of line");
    assert_eq!(errors[0].notes.len(), 2, "{:?}", errors[0].notes);
}

#[test]
fn puz_typos_get_no_minizinc_hint() {
    for source in ["var x 1..9", "let n = = 3", "predicate p(a, b) = a <", "solve firts", "x > > 2"] {
        let errors = parse(source).expect_err("a typo");
        assert!(errors.iter().flat_map(|e| &e.notes).all(|note| !note.contains("`.puz`")), "{source:?}: {errors:#?}");
    }
}
