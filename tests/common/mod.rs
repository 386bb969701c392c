//! Running the `cpsolve` binary from the integration tests.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `cpsolve` in `tests/` (so that file names in the output are `corpus/...`).
pub(crate) fn cpsolve(args: &[&str], stdin: Option<&str>) -> Run {
    cpsolve_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"), args, stdin)
}

/// Runs `cpsolve` in the directory `dir`.
pub(crate) fn cpsolve_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpsolve runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.unwrap_or("").as_bytes()).expect("stdin accepts the model");
    drop(input);
    let output = child.wait_with_output().expect("cpsolve finishes");
    Run {
        code: output.status.code().expect("cpsolve exits normally, not by a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// The arguments a corpus file asks for in its first line (`# cpsolve: ...`, `% cpsolve:
/// ...` in FlatZinc), less any `--format`: the caller asks for its own.
pub(crate) fn header_args(source: &str) -> Vec<String> {
    let words: Vec<String> = source
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# cpsolve:").or_else(|| line.strip_prefix("% cpsolve:")))
        .map(|rest| rest.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let mut args = Vec::new();
    let mut skip = false;
    for word in words {
        if skip {
            skip = false;
        } else if word == "--format" {
            skip = true;
        } else if !word.starts_with("--format=") {
            args.push(word);
        }
    }
    args
}

/// One row of an `expected.tsv` of probes: the probe's name, how it is checked, and what
/// it must give.
#[derive(Debug)]
pub(crate) struct ExpectedRow {
    pub(crate) name: String,
    pub(crate) mode: String,
    pub(crate) value: String,
}

/// The rows of the `expected.tsv` at `path` (`name`, `mode`, `value`, tab-separated; blank
/// lines, `#` comments and the header skipped), each mode one of `modes`.
pub(crate) fn expected_rows(path: &Path, modes: &[&str]) -> Vec<ExpectedRow> {
    let text = std::fs::read_to_string(path).expect("expected.tsv is readable");
    let mut rows = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') || line.starts_with("name\t") {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "expected.tsv line {}: three tab-separated fields: {line:?}", number + 1);
        assert!(
            modes.contains(&fields[1]),
            "expected.tsv line {}: mode {:?} is not one of {modes:?}",
            number + 1,
            fields[1]
        );
        rows.push(ExpectedRow { name: fields[0].to_owned(), mode: fields[1].to_owned(), value: fields[2].to_owned() });
    }
    rows
}
