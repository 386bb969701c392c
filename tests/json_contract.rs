//! `--format json` is a contract (docs/json.md): every run prints exactly one JSON object per
//! model on standard output, errors included (`"status":"error"` with located messages), for
//! every command and every kind of input; and a MiniZinc model's solutions are the model's
//! own, counted as its text output counts them.
//!
//! The MiniZinc tests need `minizinc` on the PATH and are skipped without it (as in
//! tests/minizinc.rs, which says so loudly).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cpsolve, cpsolve_in, Run};
use serde_json::{json, Value};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn minizinc_installed() -> bool {
    Command::new("minizinc").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The one object a run printed: exactly one line, and JSON.
fn one_object(run: &Run, what: &str) -> Value {
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: one JSON object on stdout, got:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {}", lines[0]))
}

/// The one error object of a run that failed with bad input: status `error`, each error with
/// a message, a line and a column.
fn one_error(run: &Run, what: &str) -> Value {
    assert_eq!(run.code, 2, "{what}: exit 2\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    let object = one_object(run, what);
    assert_eq!(object["status"], "error", "{what}: {object}");
    assert!(object["file"].is_string(), "{what}: names its file: {object}");
    let errors = object["errors"].as_array().unwrap_or_else(|| panic!("{what}: `errors` is a list: {object}"));
    assert!(!errors.is_empty(), "{what}: {object}");
    for error in errors {
        assert!(error["message"].is_string(), "{what}: {error}");
        assert!(error["line"].is_u64() && error["column"].is_u64(), "{what}: {error}");
    }
    object
}

/// Writes `files` (name, text) into a fresh temporary directory and runs cpsolve there.
fn run_with_files(tag: &str, files: &[(&str, &str)], args: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("cpsolve-json-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("written");
    }
    let run = cpsolve_in(&dir, args, None);
    let _ = std::fs::remove_dir_all(&dir);
    run
}

#[test]
fn a_file_that_cannot_be_read_is_an_error_object_for_solve_and_explain() {
    for args in [
        &["--format", "json", "corpus/no-such-file.puz"][..],
        &["explain", "--format", "json", "corpus/no-such-file.puz"],
        &["--format", "json", "corpus/no-such-file.fzn"],
    ] {
        let object = one_error(&cpsolve(args, None), &args.join(" "));
        assert_eq!(object["file"], args[args.len() - 1]);
        let message = object["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("cannot read"), "{object}");
    }
    // Among other models, the unreadable one has its object too.
    let run = cpsolve(&["--format", "json", "corpus/no-such-file.puz", "-"], Some("queens n = 4"));
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
}

#[test]
fn a_flag_refused_for_a_model_with_an_objective_is_its_error_object() {
    let run = cpsolve(&["--format", "json", "--count", "corpus/model/coin-change.puz"], None);
    one_error(&run, "--count on an objective (.puz)");
    if minizinc_installed() {
        let model = "var 1..3: x;\nsolve maximize x;\n";
        let run = run_with_files("count-opt", &[("opt.mzn", model)], &["--format", "json", "--count", "opt.mzn"]);
        let object = one_error(&run, "--count on an objective (.mzn)");
        assert_eq!(object["file"], "opt.mzn");
    }
}

#[test]
fn explain_refusals_are_error_objects() {
    let run = cpsolve(&["explain", "--format", "json", "-e", "compte 1 2 -> 3"], None);
    one_error(&run, "explain of a compte puzzle");
    let run = cpsolve(&["explain", "--format", "json", "-e", "var x in 1..3\nx == y"], None);
    let object = one_error(&run, "explain of a model with an error");
    assert_eq!(object["errors"][0]["line"], 2);
}

#[test]
fn flatzinc_errors_are_located_error_objects() {
    let fzn = "var 1..3: x;\nconstraint foo(x);\nsolve satisfy;\n";
    let run = run_with_files("fzn", &[("bad.fzn", fzn)], &["--format", "json", "bad.fzn"]);
    let object = one_error(&run, "an unknown FlatZinc constraint");
    assert_eq!(
        object["errors"][0],
        json!({"message": "the constraint `foo` is not supported by cpsolve", "line": 2, "column": 1})
    );
}

#[test]
fn a_model_minizinc_cannot_flatten_is_a_located_error_object() {
    if !minizinc_installed() {
        return;
    }
    let model = "var 1..3: x;\nconstraint x > y;\n";
    let run = run_with_files("flatten", &[("bad.mzn", model)], &["--format", "json", "bad.mzn"]);
    let object = one_error(&run, "a type error in a .mzn");
    let error = &object["errors"][0];
    assert_eq!((error["line"].clone(), error["column"].clone()), (json!(2), json!(16)), "{object}");
    assert!(error["message"].as_str().unwrap_or_default().contains("undefined identifier"), "{object}");
    assert!(run.stderr.contains("bad.mzn:2.16"), "MiniZinc's own words stay on stderr: {}", run.stderr);
    let syntax = "var 1..3: x;\nconstraint x >;\n";
    let run = run_with_files("syntax", &[("bad.mzn", syntax)], &["--format", "json", "bad.mzn"]);
    let object = one_error(&run, "a syntax error in a .mzn");
    assert_eq!(object["errors"][0]["line"], 2, "{object}");
}

#[test]
fn an_enum_constructor_prints_in_text_and_json() {
    if !minizinc_installed() {
        return;
    }
    let model = "enum E = X(1..3);\nvar E: e;\nconstraint e != X(1);\n";
    let run = run_with_files("enum", &[("enum.mzn", model)], &["enum.mzn"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "e = X(2);\n----------\n"), "{}", run.stderr);
    let run = run_with_files("enum-json", &[("enum.mzn", model)], &["--all", "--format", "json", "enum.mzn"]);
    let object = one_object(&run, "enum");
    assert_eq!(object["solutions"], json!([{"e": "X(2)"}, {"e": "X(3)"}]));
}

#[test]
fn sets_and_defined_output_variables_are_the_models_own() {
    if !minizinc_installed() {
        return;
    }
    let model = "var set of 1..3: s;\nconstraint card(s) = 2 /\\ 1 in s;\n\
                 array[1..2] of var 0..2: x;\nvar int: value :: output = sum(x);\nconstraint value = 4;\n";
    let run = run_with_files("sets", &[("m.mzn", model)], &["--all", "--format", "json", "m.mzn"]);
    let object = one_object(&run, "sets");
    assert_eq!(
        object["solutions"],
        json!([{"s": [1, 3], "x": [2, 2], "value": 4}, {"s": [1, 2], "x": [2, 2], "value": 4}]),
        "{object}"
    );
}

/// The text answers of a MiniZinc run: what lies between its `----------` lines.
fn text_answers(stdout: &str) -> Vec<String> {
    let mut answers: Vec<String> = stdout.split("----------\n").map(str::to_string).collect();
    answers.pop();
    answers
}

#[test]
fn an_output_that_hides_variables_counts_each_answer_once_in_text_and_json() {
    if !minizinc_installed() {
        return;
    }
    // The areas model prints region sizes; the grid and the order cells were decided in
    // (`when`) stay hidden, and many orders give one grid.
    let dir = repo().join("tests/minizinc/areas");
    let files = [dir.join("areas.mzn"), dir.join("2_2_1.dzn")];
    let files: Vec<&str> = files.iter().map(|p| p.to_str().expect("UTF-8")).collect();
    let text = cpsolve(&[&["--all"], &files[..]].concat(), None);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let answers = text_answers(&text.stdout);
    let mut distinct = answers.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(answers.len(), distinct.len(), "each answer once:\n{}", text.stdout);
    let json_run = cpsolve(&[&["--all", "--format", "json"], &files[..]].concat(), None);
    let object = one_object(&json_run, "areas");
    assert_eq!(object["count"], json!(answers.len()), "{object}\n{}", text.stdout);
    assert_eq!(object["solutions"].as_array().map(Vec::len), Some(answers.len()), "{object}");
    let count = cpsolve(&[&["--count", "--format", "json"], &files[..]].concat(), None);
    assert_eq!(one_object(&count, "areas --count")["count"], json!(answers.len()));
}

/// The examples of docs/errors.md: `(arguments, standard input)` for each model block whose
/// run fails (`text exit=2`), and each `console exit=2` command.
fn error_examples(manual: &str) -> Vec<(Vec<String>, String)> {
    let mut examples = Vec::new();
    let mut lines = manual.lines();
    let mut pending_model: Option<String> = None;
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut body = String::new();
        for inner in lines.by_ref() {
            if inner == "```" {
                break;
            }
            body.push_str(inner);
            body.push('\n');
        }
        let fails = info.split_whitespace().any(|w| w == "exit=2");
        match info.split_whitespace().next() {
            Some("puz") => pending_model = Some(body),
            Some("text") if fails => {
                if let Some(model) = pending_model.take() {
                    examples.push((vec!["-".to_string()], model));
                }
            }
            Some("console") if fails => {
                let command = body.lines().next().and_then(|l| l.strip_prefix("$ cpsolve ")).unwrap_or_default();
                let words = command.split_whitespace().map(|w| w.trim_matches('\'').to_string()).collect();
                examples.push((words, String::new()));
            }
            _ => pending_model = None,
        }
    }
    examples
}

#[test]
fn every_error_example_of_the_manual_is_one_error_object_in_json() {
    let manual = std::fs::read_to_string(repo().join("docs/errors.md")).expect("docs/errors.md exists");
    let examples = error_examples(&manual);
    assert!(examples.len() >= 30, "the manual's examples were found: {}", examples.len());
    let mut checked = 0;
    for (words, stdin) in examples {
        let mut args: Vec<&str> = vec!["--format", "json"];
        args.extend(words.iter().map(String::as_str));
        let run = cpsolve_in(&repo(), &args, Some(&stdin));
        // A command line clap refuses names no model: it is the one run without an object.
        if run.stderr.contains("For more information, try '--help'") {
            continue;
        }
        one_error(&run, &format!("{args:?} with {stdin:?}"));
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

/// One input: what it shows, the files written for it (name, text), the arguments.
type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// The messages of docs/errors.md's "FlatZinc and MiniZinc" and "The command line" sections
/// that concern a model, each with one input that gives it.
#[test]
fn every_model_error_of_the_command_line_is_one_error_object_in_json() {
    let queens = repo().join("tests/corpus/queens/queens-8.puz");
    let queens = queens.to_str().expect("UTF-8");
    let coins = repo().join("tests/corpus/model/coin-change.puz");
    let coins = coins.to_str().expect("UTF-8");
    let cases: Vec<Case> = vec![
        ("unreadable", vec![], vec!["missing.puz"]),
        ("objective", vec![], vec!["--all", coins]),
        ("two models", vec![("a.fzn", "solve satisfy;\n")], vec!["a.fzn", "a.fzn"]),
        ("not data", vec![("a.mzn", "var 1..2: x;\n"), ("b.txt", "")], vec!["a.mzn", "b.txt"]),
        ("fzn data", vec![("a.fzn", "solve satisfy;\n"), ("d.dzn", "")], vec!["a.fzn", "d.dzn"]),
        ("float", vec![("f.fzn", "var 0.0..1.0: x;\nsolve satisfy;\n")], vec!["f.fzn"]),
        ("syntax", vec![("s.fzn", "var 1..2 x;\nsolve satisfy;\n")], vec!["s.fzn"]),
        ("link", vec![("l.fzn", "constraint int_le(x, 1);\nsolve satisfy;\n")], vec!["l.fzn"]),
        ("svg", vec![("a.fzn", "solve satisfy;\n")], vec!["--out", "x.svg", "a.fzn"]),
        ("out", vec![], vec!["--out", "x.svg", queens]),
    ];
    for (what, files, args) in cases {
        let mut all = vec!["--format", "json"];
        all.extend(args);
        one_error(&run_with_files(&what.replace(' ', "-"), &files, &all), what);
    }
    let run = cpsolve_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["explain", "--format", "json", "-e", "compte 1 -> 1"],
        None,
    );
    one_error(&run, "explain of a compte puzzle");
}

#[test]
fn models_after_a_hard_stop_each_get_their_object() {
    // Placing 100,000 queens does not look at the clock in 0.3 s: the watchdog ends the
    // process, and the models after it, not run, still answer one object each.
    let run = cpsolve(
        &[
            "--format",
            "json",
            "--timeout",
            "0.3",
            "-e",
            "queens n = 100000\nsolve count",
            "-e",
            "var x in 1..2",
            "-e",
            "var y in",
        ],
        None,
    );
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    let objects: Vec<Value> =
        run.stdout.lines().map(|line| serde_json::from_str(line).expect("one JSON object per line")).collect();
    assert_eq!(objects.len(), 3, "{}", run.stdout);
    assert_eq!(objects[0]["status"], "limit");
    for later in &objects[1..] {
        // A soft stop runs them (the second solves, the third is an error); a hard stop
        // leaves them out.
        let status = later["status"].as_str().unwrap_or_default();
        assert!(later["stopped"] == "not_run" || status == "solved" || status == "error", "{later}");
    }
}
