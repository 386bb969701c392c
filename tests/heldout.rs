//! The held-out probes of issue 49 (`tests/heldout/`): one small model per MiniZinc construct
//! the issue lists, written as a MiniZinc user writes it (typed declarations, `constraint`,
//! `include "globals.mzn"`, `solve satisfy`), not in `.puz`'s own spelling.
//! Each row of `tests/heldout/expected.tsv` is one of:
//!
//! - `count N` / `optimum V`: the answer Gecode gave on the twin `NAME.mzn` (the same text, with
//!   MiniZinc's comments and its library files by name), re-checked here when `minizinc` and
//!   Gecode are installed;
//! - `error LINE:COL MESSAGE`: a misuse in MiniZinc too (a false `assert`) or in `.puz` only (a
//!   reserved word as a name): exit 2, located there, the message in its text;
//! - `refused LINE:COL MESSAGE | MODE ANSWER`: MiniZinc answers, cpsolve refuses it today with a
//!   located error. It must stay a located error until it is fixed; a probe that starts giving
//!   an answer fails here, so that its row becomes `MODE ANSWER`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn heldout_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("heldout")
}

fn expected() -> Vec<common::ExpectedRow> {
    common::expected_rows(&heldout_dir().join("expected.tsv"), &["count", "optimum", "error", "refused"])
}

fn optimises(source: &str) -> bool {
    source
        .split(';')
        .any(|item| item.trim_start().starts_with("solve") && (item.contains("minimize") || item.contains("maximize")))
}

/// cpsolve's answer on a probe: `count N`, `optimum V`, or `error LINE:COL MESSAGE`.
fn cpsolve_answer(name: &str) -> String {
    let file = format!("{name}.puz");
    let source = std::fs::read_to_string(heldout_dir().join(&file)).expect("the probe is readable");
    let mut args = vec!["--timeout", "60"];
    if !optimises(&source) {
        args.push("--count");
    }
    args.push(&file);
    let run = common::cpsolve_in(&heldout_dir(), &args, None);
    assert!(!run.stderr.contains("panicked"), "{name}: cpsolve panicked: {}", run.stderr);
    match run.code {
        0 => {
            let last = run.stdout.lines().last().unwrap_or("");
            if let Some(value) = last.strip_prefix("optimum: ").and_then(|rest| rest.strip_suffix(" (proven)")) {
                format!("optimum {value}")
            } else if let Some(n) = last.strip_suffix(" solutions").or_else(|| last.strip_suffix(" solution")) {
                format!("count {}", n.replace(',', ""))
            } else {
                format!("exit 0, unread: {last}")
            }
        }
        2 => {
            // The first error: its message, then `┌─ NAME.puz:LINE:COL`.
            let message = run.stderr.lines().next().unwrap_or("").trim_start_matches("error: ").to_owned();
            let place = run
                .stderr
                .lines()
                .find_map(|line| line.split_once(&format!("{file}:")).map(|(_, at)| at.trim().to_owned()))
                .unwrap_or_default();
            let notes: Vec<&str> = run.stderr.lines().filter_map(|l| l.trim().strip_prefix("= ")).collect();
            format!("error {place} {message} {}", notes.join(" "))
        }
        code => format!("exit {code}: {}", run.stderr.lines().next().unwrap_or("")),
    }
}

#[test]
fn every_probe_has_a_row_and_every_answer_a_twin() {
    let rows = expected();
    for row in &rows {
        assert!(heldout_dir().join(format!("{}.puz", row.name)).is_file(), "{}.puz is missing", row.name);
        let answered = row.mode != "error";
        assert_eq!(
            heldout_dir().join(format!("{}.mzn", row.name)).is_file(),
            answered,
            "{}: a probe MiniZinc answers has its twin .mzn, a misuse none",
            row.name
        );
    }
    let probes = std::fs::read_dir(heldout_dir()).expect("readable").filter_map(|e| {
        let name = e.expect("an entry").file_name().to_string_lossy().into_owned();
        name.strip_suffix(".puz").map(str::to_owned)
    });
    for probe in probes {
        assert!(rows.iter().any(|row| row.name == probe), "{probe}.puz has no row in expected.tsv");
    }
}

#[test]
fn probes_give_the_expected_answers() {
    let mut failures = Vec::new();
    for row in expected() {
        let got = cpsolve_answer(&row.name);
        let ok = match row.mode.as_str() {
            "count" | "optimum" => got == format!("{} {}", row.mode, row.value),
            "error" => error_matches(&got, &row.value),
            _ => error_matches(&got, row.value.split(" | ").next().unwrap_or("")),
        };
        if !ok {
            failures.push(format!("{}: expected {} {}, cpsolve gave {got}", row.name, row.mode, row.value));
        }
    }
    assert!(failures.is_empty(), "{} held-out probes failed:\n  {}", failures.len(), failures.join("\n  "));
}

/// `expected` is `LINE:COL TEXT`: the error is at that place and its message or notes hold TEXT.
fn error_matches(got: &str, expected: &str) -> bool {
    let Some(got) = got.strip_prefix("error ") else { return false };
    let (place, text) = expected.split_once(' ').unwrap_or((expected, ""));
    got.starts_with(&format!("{place} ")) && got.contains(text)
}

/// Gecode's answer on a twin: `count N` (all solutions) or `optimum V`.
fn gecode(name: &str) -> Result<String, String> {
    let file = format!("{name}.mzn");
    let source = std::fs::read_to_string(heldout_dir().join(&file)).expect("the twin is readable");
    let mut command = Command::new("minizinc");
    command.args(["--solver", "gecode", "--time-limit", "120000", "--all-solutions"]);
    if optimises(&source) {
        command.arg("--output-objective");
    }
    let out = command.arg(&file).current_dir(heldout_dir()).output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.lines().any(|line| line == "==========") {
        return Err(format!(
            "no complete answer: {}",
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        ));
    }
    if optimises(&source) {
        let objective = stdout.lines().rev().find_map(|l| l.strip_prefix("_objective = ")?.strip_suffix(';'));
        return objective.map(|v| format!("optimum {v}")).ok_or_else(|| "no _objective line".to_owned());
    }
    Ok(format!("count {}", stdout.lines().filter(|line| *line == "----------").count()))
}

#[test]
fn gecode_agrees_on_the_twins() {
    let solvers = Command::new("minizinc").arg("--solvers").output();
    if !solvers.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("org.gecode.gecode")) {
        eprintln!("skipped: minizinc with Gecode is not installed, so the twins are not re-run");
        return;
    }
    let mut failures = Vec::new();
    for row in expected() {
        let answer = match row.mode.as_str() {
            "count" | "optimum" => format!("{} {}", row.mode, row.value),
            "refused" => row.value.split(" | ").nth(1).unwrap_or("").to_owned(),
            _ => continue,
        };
        match gecode(&row.name) {
            Ok(got) if got == answer => {}
            Ok(got) => failures.push(format!("{}: expected.tsv says {answer}, Gecode {got}", row.name)),
            Err(why) => failures.push(format!("{}: {why}", row.name)),
        }
    }
    assert!(failures.is_empty(), "Gecode disagrees on {} twins:\n  {}", failures.len(), failures.join("\n  "));
}
