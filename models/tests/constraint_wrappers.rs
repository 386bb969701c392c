//! MiniZinc's constraint wrappers `symmetry_breaking_constraint`, `redundant_constraint` and
//! `implied_constraint` mean their argument, wherever a condition stands: posted, negated,
//! reified. Each count is a brute force over the same small domain, so a wrapper that were
//! dropped (more solutions) or read as its negation (other solutions) fails.

mod common;

use cpsolve_models::generic::compile;

const WRAPPERS: [&str; 3] = ["symmetry_breaking_constraint", "redundant_constraint", "implied_constraint"];

fn count(source: &str) -> u128 {
    common::count_solutions(source, |_| false)
}

/// The assignments of three variables over 1..3 that `holds` accepts.
fn brute(holds: impl Fn(&[i64; 3]) -> bool) -> u128 {
    let mut n = 0;
    for a in 1..=3 {
        for b in 1..=3 {
            for c in 1..=3 {
                n += u128::from(holds(&[a, b, c]));
            }
        }
    }
    n
}

#[test]
fn a_wrapped_constraint_is_posted_as_written() {
    for wrapper in WRAPPERS {
        let model = format!("var x[1..3] in 1..3\nconstraint {wrapper}(x[1] < x[2] /\\ x[2] <= x[3]);\n");
        assert_eq!(count(&model), brute(|x| x[0] < x[1] && x[1] <= x[2]), "{wrapper}");
        assert_eq!(count(&model), 4, "{wrapper}");
    }
}

#[test]
fn a_wrapper_under_not_and_in_a_reification_is_its_argument() {
    for wrapper in WRAPPERS {
        let negated = format!("var x[1..3] in 1..3\nconstraint not {wrapper}(x[1] < x[2]);\n");
        assert_eq!(count(&negated), brute(|x| x[0] >= x[1]), "{wrapper}");
        let reified = format!("var x[1..3] in 1..3\nconstraint (x[3] == 1) <-> {wrapper}(x[1] == x[2]);\n");
        assert_eq!(count(&reified), brute(|x| (x[2] == 1) == (x[0] == x[1])), "{wrapper}");
        let counted = format!("var x[1..3] in 1..3\nconstraint bool2int({wrapper}(x[1] == 1)) + x[2] == 3;\n");
        assert_eq!(count(&counted), brute(|x| i64::from(x[0] == 1) + x[1] == 3), "{wrapper}");
    }
}

#[test]
fn a_wrapper_over_constants_and_inside_a_predicate() {
    let model = "var x[1..3] in 1..3\n\
                 predicate ordered(a, b) = symmetry_breaking_constraint(a <= b)\n\
                 constraint forall(i in 1..2)(ordered(x[i], x[i + 1]));\n\
                 constraint redundant_constraint(3 > 2);\n";
    assert_eq!(count(model), brute(|x| x[0] <= x[1] && x[1] <= x[2]));
    let false_constant = "var x[1..3] in 1..3\nconstraint implied_constraint(2 > 3);\n";
    assert_eq!(count(false_constant), 0);
}

fn errors(source: &str) -> Vec<String> {
    let file = cpsolve_dsl::parse(source).expect("parses");
    let Err(errors) = compile(&file) else { panic!("refused") };
    errors.into_iter().map(|e| e.message).collect()
}

#[test]
fn a_wrapper_takes_one_constraint_and_is_no_user_name() {
    assert_eq!(
        errors("var x in 1..3\nconstraint redundant_constraint(x > 1, x < 3);\n"),
        ["`redundant_constraint` takes one constraint, not 2 arguments"]
    );
    assert_eq!(
        errors("predicate implied_constraint(c) = c\nvar x in 1..3\n"),
        ["`implied_constraint` is a built-in function or constraint"]
    );
}
