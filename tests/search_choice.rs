//! `--search auto|model|free` on a FlatZinc model whose annotation and cpsolve's own search
//! order the solutions differently: four queens, the annotation trying the largest value
//! first (its first solution is `3 1 4 2`), cpsolve's own search the smallest (`2 4 1 3`).
//!
//! `model` follows the annotation and `free` ignores it, in every mode; `auto` is `free`
//! where one answer is wanted (the search learns there) and `model` for an enumeration,
//! which lists the solutions in the annotation's order. The same solutions either way.

mod common;

use common::cpsolve_in;

const QUEENS: &str = "\
array [1..4] of int: one = [1, 1, 1, 1];
var 1..4: q1 :: output_var;
var 1..4: q2 :: output_var;
var 1..4: q3 :: output_var;
var 1..4: q4 :: output_var;
array [1..4] of var int: q = [q1, q2, q3, q4];
constraint int_ne(q1, q2);
constraint int_ne(q1, q3);
constraint int_ne(q1, q4);
constraint int_ne(q2, q3);
constraint int_ne(q2, q4);
constraint int_ne(q3, q4);
constraint int_lin_ne([1, -1], [q1, q2], 1);
constraint int_lin_ne([1, -1], [q1, q2], -1);
constraint int_lin_ne([1, -1], [q1, q3], 2);
constraint int_lin_ne([1, -1], [q1, q3], -2);
constraint int_lin_ne([1, -1], [q1, q4], 3);
constraint int_lin_ne([1, -1], [q1, q4], -3);
constraint int_lin_ne([1, -1], [q2, q3], 1);
constraint int_lin_ne([1, -1], [q2, q3], -1);
constraint int_lin_ne([1, -1], [q2, q4], 2);
constraint int_lin_ne([1, -1], [q2, q4], -2);
constraint int_lin_ne([1, -1], [q3, q4], 1);
constraint int_lin_ne([1, -1], [q3, q4], -1);
solve :: int_search(q, input_order, indomain_max, complete) satisfy;
";

/// The solutions printed, each as its four values.
fn solutions(search: &str, mode: &str) -> Vec<String> {
    solutions_with(search, &[mode])
}

fn solutions_with(search: &str, flags: &[&str]) -> Vec<String> {
    let mode = flags.join("");
    // A folder per run: the tests of this file run at once in one process.
    let dir = std::env::temp_dir().join(format!("cpsolve-search-{search}{mode}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("queens.fzn"), QUEENS).expect("the model is written");
    let mut args = vec!["--search", search];
    args.extend(flags);
    args.push("queens.fzn");
    let run = cpsolve_in(&dir, &args, None);
    assert_eq!(run.code, 0, "--search {search} {mode}: {}", run.stderr);
    let values: Vec<String> = run
        .stdout
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(_, v)| v.trim_end_matches(';').to_string()))
        .collect();
    values.chunks(4).map(|q| q.join(" ")).collect()
}

#[test]
fn an_enumeration_follows_the_annotation_under_auto() {
    let model = solutions("model", "--all");
    assert_eq!(model, ["3 1 4 2", "2 4 1 3"], "the annotation tries the largest value first");
    assert_eq!(solutions("auto", "--all"), model);
    let mut free = solutions("free", "--all");
    assert_eq!(free, ["2 4 1 3", "3 1 4 2"], "cpsolve's own search tries the smallest value first");
    free.sort();
    let mut sorted = model.clone();
    sorted.sort();
    assert_eq!(free, sorted, "the same solutions either way");
}

/// Learning asked for: no probe of the annotation goes first (where learning is on by
/// default, the annotation is tried first and finds four queens at once, in every choice).
#[test]
fn one_solution_comes_from_cpsolves_own_search_under_auto() {
    let first = |search| solutions_with(search, &["--first", "--learning", "yes"]);
    assert_eq!(first("model"), ["3 1 4 2"]);
    assert_eq!(first("free"), ["2 4 1 3"]);
    assert_eq!(first("auto"), ["2 4 1 3"]);
    assert_eq!(solutions("auto", "--first"), ["3 1 4 2"], "the probe of the annotation finds it first");
}

#[test]
fn the_default_is_auto() {
    let dir = std::env::temp_dir().join(format!("cpsolve-search-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("queens.fzn"), QUEENS).expect("the model is written");
    let run = cpsolve_in(&dir, &["--first", "--learning", "yes", "queens.fzn"], None);
    assert!(run.stdout.contains("q1 = 2;"), "{}", run.stdout);
    let run = cpsolve_in(&dir, &["--all", "queens.fzn"], None);
    assert!(run.stdout.starts_with("q1 = 3;"), "{}", run.stdout);
}
