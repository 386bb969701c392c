//! The MiniZinc benchmark problems translated to `.puz` (`tests/corpus/model/mzn-*.puz`) give
//! the answers Gecode gives on the original `.mzn` and `.dzn`: the table
//! `tests/corpus/model/mzn-expected.tsv` (copied from the benchmarks' `expected.json`) holds,
//! per model, the method, the status and the proved optimum.
//!
//! Each model runs with `--format json`. An unsatisfiable instance must be proved so (exit 1);
//! a satisfiable one must give a solution (exit 0); an optimisation instance must end with
//! the optimum proved (exit 0) and equal to the table's. The last solution is then checked
//! again: every variable it names is fixed to its value in a copy of the model, which must
//! still be satisfiable (with the same objective). Independent checkers, one per problem,
//! are in `bench/mzn-corpus/check.py`.
//!
//! A model whose `.mzn` uses a construct the language lacks yet is kept in the shape of the
//! `.mzn` and marked `blocked` in the table: it must fail to compile; once it compiles, its
//! answer is checked as any other and the test asks for the mark to be removed.

mod common;

use std::path::Path;

use common::cpsolve;
use serde_json::Value;

/// One line of `mzn-expected.tsv`.
#[derive(Debug)]
struct Expected {
    file: String,
    method: String,
    status: String,
    objective: Option<i64>,
    /// The construct the model waits for, if any.
    blocked: Option<String>,
}

const TABLE: &str = "corpus/model/mzn-expected.tsv";

fn table() -> Vec<Expected> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(TABLE);
    let text = std::fs::read_to_string(&path).expect("the table of expected answers is readable");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty() && !line.starts_with("file\t"))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{TABLE}: five tab-separated fields in {line:?}");
            let objective = match fields[3] {
                "-" => None,
                value => Some(value.parse().expect("the objective is an integer or -")),
            };
            assert!(["satisfy", "minimize", "maximize"].contains(&fields[1]), "{TABLE}: method in {line:?}");
            assert!(["solution", "unsat", "complete"].contains(&fields[2]), "{TABLE}: status in {line:?}");
            assert_eq!(objective.is_some(), fields[2] == "complete", "{TABLE}: an objective exactly for `complete`");
            let blocked = (fields[4] != "-").then(|| fields[4].to_string());
            Expected {
                file: fields[0].to_string(),
                method: fields[1].to_string(),
                status: fields[2].to_string(),
                objective,
                blocked,
            }
        })
        .collect()
}

/// Whether one run's exit status and JSON object are the expected answer; on success, the
/// solution to check again (for a satisfiable instance).
fn verdict(expected: &Expected, code: i32, out: &Value) -> Result<Option<Value>, String> {
    let status = out["status"].as_str().unwrap_or("(none)");
    if status == "error" {
        return Err(format!("does not compile: {}", out["errors"]));
    }
    if expected.status == "unsat" {
        if status != "unsatisfiable" || code != 1 {
            return Err(format!("status {status} (exit {code}), expected unsatisfiable (exit 1)"));
        }
        return Ok(None);
    }
    if status != "solved" || code != 0 {
        return Err(format!("status {status} (exit {code}), expected solved (exit 0)"));
    }
    let last = out["solutions"].as_array().and_then(|s| s.last()).ok_or("solved, but no solution listed")?;
    if let Some(optimum) = expected.objective {
        if out["objective"].as_i64() != Some(optimum) {
            return Err(format!("objective {}, expected the optimum {optimum}", out["objective"]));
        }
    } else if !out["objective"].is_null() {
        return Err(format!("an objective ({}) for a satisfaction problem", out["objective"]));
    }
    Ok(Some(last.clone()))
}

/// The model with every variable of `solution` fixed to its value.
fn fixed(source: &str, solution: &Value) -> String {
    let mut model = source.to_string();
    model.push_str("\n# the solution to check again\n");
    for (name, value) in solution.as_object().expect("a solution is an object") {
        let value = match value {
            Value::Bool(b) => i64::from(*b).to_string(),
            other => other.to_string(),
        };
        model.push_str(&format!("constraint {name} == {value}\n"));
    }
    model
}

/// Fixes the solution in the model and solves again: the solution must satisfy it.
fn recheck(expected: &Expected, source: &str, solution: &Value) -> Result<(), String> {
    let run = cpsolve(&["--format", "json", "-"], Some(&fixed(source, solution)));
    let out: Value = serde_json::from_str(run.stdout.lines().next().unwrap_or(""))
        .map_err(|e| format!("the check again gave no JSON ({e}): {}", run.stderr))?;
    if out["status"] != "solved" {
        return Err(format!("the solution {solution} does not satisfy the model: {} {}", out["status"], run.stderr));
    }
    if expected.objective.is_some() && out["objective"].as_i64() != expected.objective {
        return Err(format!("with the solution fixed the objective is {}", out["objective"]));
    }
    Ok(())
}

fn check(expected: &Expected) -> Result<(), String> {
    let path = format!("corpus/model/{}", expected.file);
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(&path))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    let run = cpsolve(&["--format", "json", &path], None);
    if run.stderr.contains("panicked") {
        return Err(format!("cpsolve panicked: {}", run.stderr));
    }
    let out: Value = serde_json::from_str(run.stdout.lines().next().unwrap_or(""))
        .map_err(|e| format!("no JSON on standard output ({e}): {}", run.stderr))?;
    if let Some(construct) = &expected.blocked {
        if out["status"] == "error" {
            eprintln!("{}: blocked on {construct}: {}", expected.file, out["errors"][0]["message"]);
            return Ok(());
        }
    }
    if let Some(solution) = verdict(expected, run.code, &out)? {
        recheck(expected, &source, &solution)?;
    }
    match &expected.blocked {
        Some(construct) => Err(format!("compiles and answers right now: remove its mark `{construct}` in {TABLE}")),
        None => Ok(()),
    }
}

#[test]
fn every_translated_minizinc_model_gives_gecodes_answer() {
    let rows = table();
    let running = rows.iter().filter(|row| row.blocked.is_none()).count();
    assert!(running >= 20, "{TABLE} lists {running} models that run");
    let failures: Vec<String> =
        rows.iter().filter_map(|row| check(row).err().map(|why| format!("{}: {why}", row.file))).collect();
    assert!(
        failures.is_empty(),
        "{} of {} models answer wrongly:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn the_table_lists_exactly_the_mzn_models() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/model");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/corpus/model is readable")
        .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("mzn-") && name.ends_with(".puz"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = table().into_iter().map(|row| row.file).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "every mzn-*.puz has one line in {TABLE}, and every line a file");
    for row in table() {
        let source = std::fs::read_to_string(dir.join(&row.file)).expect("readable");
        assert!(
            source.starts_with("# Source: MiniZinc benchmarks, "),
            "{} starts with a comment naming its source model and instance",
            row.file
        );
        let method_line = source.lines().any(|line| match row.method.as_str() {
            "satisfy" => line.starts_with("solve satisfy"),
            sense => line.starts_with(&format!("solve {sense} ")),
        });
        assert!(method_line, "{}: the solve item says `{}` as the .mzn does", row.file, row.method);
    }
}

// ---- the checks themselves fail on wrong answers ----

fn row(status: &str, objective: Option<i64>) -> Expected {
    let method = if objective.is_some() || status == "complete" { "minimize" } else { "satisfy" };
    Expected { file: "x.puz".into(), method: method.into(), status: status.into(), objective, blocked: None }
}

#[test]
fn a_wrong_status_or_objective_is_refused() {
    let solved = serde_json::json!({"status": "solved", "count": 1, "solutions": [{"x": 1}]});
    let optimum =
        serde_json::json!({"status": "solved", "count": 2, "solutions": [{"x": 3}, {"x": 2}], "objective": 2});
    let unsat = serde_json::json!({"status": "unsatisfiable", "count": 0, "solutions": []});
    let limit = serde_json::json!({"status": "limit", "stopped": "time", "count": 0, "solutions": []});
    assert!(verdict(&row("solution", None), 0, &solved).is_ok());
    assert!(verdict(&row("solution", None), 1, &unsat).is_err());
    assert!(verdict(&row("solution", None), 3, &limit).is_err());
    assert!(verdict(&row("unsat", None), 1, &unsat).is_ok());
    assert!(verdict(&row("unsat", None), 0, &solved).is_err());
    assert!(verdict(&row("unsat", None), 3, &limit).is_err());
    assert!(verdict(&row("complete", Some(2)), 0, &optimum).is_ok());
    assert!(verdict(&row("complete", Some(1)), 0, &optimum).is_err(), "a worse objective than the optimum");
    assert!(verdict(&row("complete", Some(3)), 0, &optimum).is_err(), "a better objective than the optimum");
    assert!(verdict(&row("complete", Some(2)), 3, &optimum).is_err(), "an optimum not proved");
    assert!(verdict(&row("solution", None), 0, &optimum).is_err(), "an objective where none is asked");
}

#[test]
fn a_solution_that_breaks_the_model_is_refused() {
    let expected = row("solution", None);
    let source = "var x[1..3] in 1..3\nalldifferent(x)\nsolve satisfy\n";
    assert!(recheck(&expected, source, &serde_json::json!({"x[1]": 2, "x[2]": 3, "x[3]": 1})).is_ok());
    assert!(recheck(&expected, source, &serde_json::json!({"x[1]": 2, "x[2]": 2, "x[3]": 1})).is_err());
}
