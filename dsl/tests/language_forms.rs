//! The forms a MiniZinc user writes first: `if … endif`, `let … in`, predicates and
//! functions, enums, membership and set operators, generator calls, `include`, `search`,
//! and MiniZinc's `constraint`, `solve satisfy` and `;`. Each is parsed and shown fully
//! parenthesised, so that precedence and the grouping of `let … in` are visible.

mod common;

use common::{check_spans, show};
use cpsolve_dsl::ast::{EnumPart, FunctionKind, Item, SolveMode};
use cpsolve_dsl::parse;

fn items(source: &str) -> Vec<Item> {
    let file = parse(source).unwrap_or_else(|errors| panic!("{source:?} failed: {errors:#?}"));
    check_spans(&file, source);
    file.items.into_iter().map(|item| item.node).collect()
}

fn constraint(source: &str) -> String {
    match items(source).as_slice() {
        [Item::Constraint(expr)] => show(expr),
        other => panic!("not one constraint: {other:#?}"),
    }
}

#[test]
fn if_then_elseif_else() {
    assert_eq!(
        constraint("if i > 1 then x[i] > x[i - 1] elseif i == 0 then true else x[i] == 0 endif"),
        "(if (i > 1) then (x[i] > x[(i - 1)]) elseif (i == 0) then true else (x[i] == 0) endif)"
    );
    assert_eq!(constraint("y == if b then 1 else 2 endif + 3"), "(y == ((if b then 1 else 2 endif) + 3))");
    assert_eq!(constraint("if b then x > 1 endif"), "(if b then (x > 1) endif)");
}

#[test]
fn let_binds_up_to_its_own_in() {
    assert_eq!(constraint("let y = x[i] + 1 in y > 2"), "(let {y = (x[i] + 1)} in (y > 2))");
    // Membership inside the body, and in a parenthesised definition.
    assert_eq!(constraint("let y = x + 1 in y in 1..3"), "(let {y = (x + 1)} in (y in (1..3)))");
    assert_eq!(constraint("let b = (x in S) in b"), "(let {b = (x in S)} in b)");
    assert_eq!(
        constraint("let { a = 3; var z in 1..5; constraint z > a } in z + a == 7"),
        "(let {a = 3; var z in (1..5); constraint (z > a)} in ((z + a) == 7))"
    );
    assert_eq!(
        constraint("let { a = 3, b = 4 } in let c = a in c < b"),
        "(let {a = 3; b = 4} in (let {c = a} in (c < b)))"
    );
    // A `let` without `in` is a declaration; one split over lines is one statement.
    assert!(matches!(items("let n = 8").as_slice(), [Item::Let { .. }]));
    assert_eq!(constraint("let y = x + 1\n  in y > 2"), "(let {y = (x + 1)} in (y > 2))");
    match items("forall i in 1..3: let y = x[i] + 1 in y > 2").as_slice() {
        [Item::Forall { body, .. }] => assert!(matches!(&body.node, Item::Constraint(_))),
        other => panic!("{other:#?}"),
    }
}

#[test]
fn predicates_functions_enums_include_search() {
    match items("predicate ok(a, b, arr) = a < b\nfunction area(w, h) = w * h").as_slice() {
        [Item::Function { kind: FunctionKind::Predicate, params, .. }, Item::Function { kind: FunctionKind::Function, name, .. }] =>
        {
            assert_eq!(params.len(), 3);
            assert_eq!(name.node, "area");
        }
        other => panic!("{other:#?}"),
    }
    match items("enum Colour = {red, green, blue}").as_slice() {
        [Item::Enum { name, parts }] => {
            assert_eq!(name.node, "Colour");
            assert!(matches!(parts.as_slice(), [EnumPart::Names(values)] if values.len() == 3));
        }
        other => panic!("{other:#?}"),
    }
    match items("enum Job = {idle} ++ J(1..n) ++ _(0..2);").as_slice() {
        [Item::Enum { parts, .. }] => match parts.as_slice() {
            [EnumPart::Names(_), EnumPart::Constructor { name: j, set }, EnumPart::Constructor { name: anonymous, .. }] =>
            {
                assert_eq!((j.node.as_str(), anonymous.node.as_str()), ("J", "_"));
                assert_eq!(show(set), "(1..n)");
            }
            other => panic!("{other:#?}"),
        },
        other => panic!("{other:#?}"),
    }
    match items("include \"lib.puz\"").as_slice() {
        [Item::Include(path)] => assert_eq!(path.node, "lib.puz"),
        other => panic!("{other:#?}"),
    }
    match items("search seq_search([int_search(d, max_regret, indomain_split)])").as_slice() {
        [Item::Search(e)] => assert_eq!(show(e), "seq_search([int_search(d, max_regret, indomain_split)])"),
        other => panic!("{other:#?}"),
    }
    assert!(matches!(items("var s in set of 1..3").as_slice(), [Item::Var { .. }]));
}

#[test]
fn membership_and_set_operators() {
    assert_eq!(constraint("not (x in {1, 6, 7})"), "(not (x in {1, 6, 7}))");
    assert_eq!(constraint("card(a union b intersect c) == 2"), "(card((a union (b intersect c))) == 2)");
    assert_eq!(constraint("t == 1..4 intersect s"), "(t == ((1..4) intersect s))");
    assert_eq!(constraint("card(s intersect 0..1) == 1"), "(card((s intersect (0..1))) == 1)");
    assert_eq!(constraint("a diff b subset c"), "((a diff b) subset c)");
    assert_eq!(constraint("a xor b or c"), "((a xor b) or c)");
}

#[test]
fn generator_calls_are_comprehensions() {
    assert_eq!(constraint("exists(i in 1..n)(x[i] == 3)"), "exists([(x[i] == 3) | i in (1..n)])");
    assert_eq!(
        constraint("sum(i, j in 1..n where i < j)(x[i] * x[j]) > 0"),
        "(sum([(x[i] * x[j]) | i, j in (1..n) where (i < j)]) > 0)"
    );
    assert_eq!(constraint("forall(i in 1..n)(x[i] > 0)"), "forall([(x[i] > 0) | i in (1..n)])");
    assert_eq!(constraint("forall([x[i] > 0 | i in 1..n])"), "forall([(x[i] > 0) | i in (1..n)])");
    assert!(parse("sum(i where i > 2)(x[i]) > 0").is_err());
    assert!(parse("sum(x where x > 2) > 0").is_err());
}

#[test]
fn minizinc_statement_forms() {
    assert_eq!(constraint("constraint x > 3;"), "(x > 3)");
    match items("constraint x > 3; constraint y > 4;\nsolve satisfy;").as_slice() {
        [Item::Constraint(_), Item::Constraint(_), Item::Solve(mode)] => assert_eq!(mode.node, SolveMode::First),
        other => panic!("{other:#?}"),
    }
    assert!(matches!(items("solve minimize x + y;").as_slice(), [Item::Optimize { .. }]));
}

#[test]
fn a_test_item_is_a_function_of_its_kind_and_test_is_otherwise_a_name() {
    match items("test even(k) = k mod 2 == 0;").as_slice() {
        [Item::Function { kind: FunctionKind::Test, name, params, body }] => {
            assert_eq!(name.node, "even");
            assert_eq!(params.len(), 1);
            assert_eq!(show(body), "((k mod 2) == 0)");
        }
        other => panic!("{other:#?}"),
    }
    assert!(matches!(items("let test = 3").as_slice(), [Item::Let { .. }]));
    assert_eq!(constraint("test > 2"), "(test > 2)");
    assert_eq!(constraint("test(1) == x"), "(test(1) == x)");
    assert!(matches!(items("var test in 1..3").as_slice(), [Item::Var { .. }]));
}

#[test]
fn annotations_after_solve_come_before_the_goal() {
    let shown = |annotations: &[cpsolve_dsl::ast::Spanned<cpsolve_dsl::ast::Expr>]| {
        annotations.iter().map(show).collect::<Vec<_>>().join(" :: ")
    };
    match items("solve :: int_search(x, first_fail, indomain_min) satisfy;").as_slice() {
        [Item::SolveAnnotations(annotations), Item::Solve(mode)] => {
            assert_eq!(shown(annotations), "int_search(x, first_fail, indomain_min)");
            assert_eq!(mode.node, SolveMode::First);
        }
        other => panic!("{other:#?}"),
    }
    // Several annotations, and the tutorial's layout: the goal on the next line.
    let source =
        "solve :: seq_search([int_search(q, input_order, indomain_max)]) :: restart_luby(100)\n  minimize cost;";
    match items(source).as_slice() {
        [Item::SolveAnnotations(annotations), Item::Optimize { objective, .. }] => {
            assert_eq!(
                shown(annotations),
                "seq_search([int_search(q, input_order, indomain_max)]) :: restart_luby(100)"
            );
            assert_eq!(show(objective), "cost");
        }
        other => panic!("{other:#?}"),
    }
    assert!(matches!(items("solve :: foo all").as_slice(), [Item::SolveAnnotations(_), Item::Solve(_)]));
    // The goal is part of the statement: without it, nothing is a `solve`.
    assert!(parse("solve :: int_search(x, first_fail, indomain_min);\nx > 1").is_err());
}

#[test]
fn constraint_annotations_are_kept_for_the_compiler() {
    assert_eq!(
        constraint("constraint alldifferent(x) :: domain :: \"rows\";"),
        "(alldifferent(x) :: domain :: \"rows\")"
    );
    assert_eq!(constraint("x + y == 3 :: bounds"), "(((x + y) == 3) :: bounds)");
    // Without an annotation the constraint is not wrapped.
    assert_eq!(constraint("constraint x < y;"), "(x < y)");
}
