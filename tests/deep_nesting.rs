//! Models nested as deep as the parser takes them (just under `MAX_NESTING` operators and
//! brackets in one statement) run in `cpsolve`, `check` and `explain` to an answer or a
//! located error, never to a stack overflow. The main thread's 8 MiB overflowed at about
//! 5,000 nested `not`s (exit 134, no message): each form here did so, or would on a
//! smaller stack; the binary now runs its command on a larger one (`src/main.rs`).
//! One statement past the cap is the lexer's own located error.

mod common;

use common::cpsolve;

/// The operators and brackets the parser takes in one statement.
const CAP: usize = cpsolve_dsl::MAX_NESTING;

/// A model per nested form, with what `cpsolve` must print.
fn forms() -> Vec<(&'static str, String, &'static str)> {
    let n = CAP - 10;
    vec![
        ("not", format!("var b in bool\n{}b\nsolve count", "not ".repeat(n)), "1 solution"),
        ("abs", format!("var x in -3..3\n{}x{} == 2\nsolve count", "abs(".repeat(n), ")".repeat(n)), "2 solutions"),
        (
            "min",
            format!("var x in 0..3\n{}x{} == 0\nsolve count", "min(1, ".repeat(n / 2), ")".repeat(n / 2)),
            "1 solution",
        ),
        ("implies", format!("var b in bool\n{}b\nsolve count", "b -> ".repeat(n)), "2 solutions"),
        ("sum", format!("var x in -3..3\nx{} == 2\nsolve count", " + 0".repeat(n)), "1 solution"),
        (
            "index",
            format!("var x[1..3] in 0..3\n{}1{} == 1\nsolve count", "x[".repeat(n / 2), "]".repeat(n / 2)),
            "18 solutions",
        ),
        (
            "generator",
            format!("var x in 0..3\n{}x{} == 2\nsolve count", "sum(i in 1..1)(".repeat(n / 4), ")".repeat(n / 4)),
            "1 solution",
        ),
        (
            "constant",
            format!("let c = {}true\nvar x in 0..1\nx == 1 -> c\nsolve count", "not ".repeat(n)),
            "2 solutions",
        ),
    ]
}

#[test]
fn every_deep_form_is_solved_checked_and_explained_without_a_crash() {
    for (name, model, answer) in forms() {
        let run = cpsolve(&["-e", &model], None);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(run.stdout.contains(answer), "{name}: {}", run.stdout);
        // `check` and `explain` read files; `-` is standard input.
        let check = cpsolve(&["check", "-"], Some(&model));
        assert_eq!(check.code, 0, "{name}: check: {}", check.stderr);
        assert!(check.stdout.starts_with("<stdin>: ok"), "{name}: check: {}", check.stdout);
        // Explaining tells steps or refuses a model without a constraint; either way it
        // exits with a status of its own, not by a signal (which `cpsolve` would panic on).
        let explain = cpsolve(&["explain", "-e", &model], None);
        assert!(matches!(explain.code, 0 | 2 | 3), "{name}: explain: {}", explain.stderr);
    }
}

#[test]
fn one_level_past_the_cap_is_a_located_error() {
    let model = format!("var b in bool\n{}b", "not ".repeat(CAP + 1));
    let run = cpsolve(&["--format", "json", "-e", &model], None);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("statement nested too deeply"), "{}", run.stderr);
    let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["errors"][0]["line"], 2);
    assert_eq!(object["errors"][0]["column"], 1);
}

#[test]
fn a_long_chain_of_user_functions_is_a_located_error() {
    let mut model = String::from("var x in 0..3\nfunction f0(a) = a\n");
    for i in 1..9990 {
        model += &format!("function f{i}(a) = f{}(a)\n", i - 1);
    }
    model += "f9989(x) == 2\nsolve count";
    // Too long for one argument: on standard input.
    let run = cpsolve(&["-"], Some(&model));
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("calls nested more than"), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:"), "located: {}", run.stderr);
}
