//! MiniZinc's `test NAME(…) = …`: a predicate over constants, used in `where` filters and
//! conditions of constants. Counts against a brute force; a call over variables, or a body
//! that reads a variable, is a located error (MiniZinc refuses both).

mod common;

use cpsolve_models::generic::compile;

fn count(source: &str) -> u128 {
    common::count_solutions(source, |_| false)
}

#[test]
fn a_test_filters_like_its_body() {
    // x[i] > 1 where i is even, x[i] < 2 elsewhere: over 0..3, two values each.
    let model = "test even(k) = k mod 2 == 0;\n\
                 array[1..5] of var 0..3: x;\n\
                 constraint forall(i in 1..5 where even(i))(x[i] > 1);\n\
                 constraint forall(i in 1..5 where not even(i))(x[i] < 2);\n";
    let mut brute = 0;
    for code in 0..4u32.pow(5) {
        let x: Vec<u32> = (0..5).map(|i| code / 4u32.pow(i) % 4).collect();
        let holds = (1..=5).all(|i| if i % 2 == 0 { x[i - 1] > 1 } else { x[i - 1] < 2 });
        brute += u128::from(holds);
    }
    assert_eq!(count(model), brute);
    assert_eq!(brute, 32);
}

#[test]
fn a_test_calls_others_and_decides_a_constraint() {
    // `divides` is used above its declaration, and in an `if` over constants.
    let model = "array[1..6] of var 0..1: x;\n\
                 constraint forall(i in 1..6)(if multiple(i, 3) then x[i] == 1 else true endif);\n\
                 test divides(d, n) = n mod d == 0;\n\
                 test multiple(n, d) = divides(d, n) /\\ n > 0;\n";
    // x[3] and x[6] are 1, the other four free.
    assert_eq!(count(model), 16);
    let negated = model.replace("then x[i] == 1 else true", "then true else x[i] == 0");
    assert_eq!(count(&negated), 4);
}

fn errors(source: &str) -> Vec<(String, String)> {
    let file = cpsolve_dsl::parse(source).expect("parses");
    let Err(errors) = compile(&file) else { panic!("refused") };
    errors.into_iter().map(|e| (e.message, source[e.span].to_owned())).collect()
}

#[test]
fn a_test_is_over_constants_only() {
    let message = "`big` is a `test`, over constants only".to_owned();
    assert_eq!(
        errors("test big(k) = k > 2;\nvar 1..5: x;\nconstraint big(x + 1);\n"),
        [(message.clone(), "x + 1".to_owned())]
    );
    assert_eq!(errors("var 1..5: y;\ntest big(k) = k > y;\nconstraint big(3);\n"), [(message, "big(3)".to_owned())]);
}
