//! The language probes of `tests/language/`: one small model per construct of the `.puz`
//! language (issue 34), each with a MiniZinc twin `NAME.mzn` and an answer in
//! `tests/language/expected.tsv` that Gecode (on the twin) and a brute force
//! (`tests/language/brute.py`) both gave before it was written down.
//!
//! - `probes_give_the_expected_answers` runs cpsolve on every probe and compares. A probe listed
//!   in `tests/language/pending.txt` is one the compiler does not take yet: it must still fail
//!   to compile (exit 2), so that a probe that starts working is moved out of the list and
//!   checked from then on.
//! - `gecode_agrees_on_the_twins` re-runs MiniZinc with Gecode on the twins (skipped with a
//!   message when `minizinc` or its Gecode is missing).
//! - `brute_force_agrees` re-runs `brute.py --check` (skipped when `python3` is missing).
//! - `language_misuse_is_located` checks the negative probes `tests/corpus/errors/lang-*.puz`:
//!   exit 2 and a message located at `file:line:col` with a caret (their full text is in the
//!   corpus snapshots). A misuse main does not refuse properly yet (accepted, or a crash, whose
//!   output could not be a stable snapshot) waits in `tests/language/misuse/`, listed in
//!   `pending.txt` as `misuse/NAME.puz`; it must still fail the check, so that once fixed it is
//!   moved to `tests/corpus/errors/` with its snapshot.
//!
//! - `misuse_hints_show_the_puz_spelling`: MiniZinc's declarations that `.puz` does not accept
//!   get a hint with the `.puz` spelling (syntax of issue 34); one still without its hint is
//!   listed in `pending.txt` as `hint/NAME.puz`.
//!
//! A probe may ask for arguments in its first line, as the corpus does: `# cpsolve: --count`.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn language_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("language")
}

fn expected() -> Vec<common::ExpectedRow> {
    common::expected_rows(&language_dir().join("expected.tsv"), &["count", "optimum", "unsat"])
}

/// The probes of `pending.txt`: the first word of each line, `#` comments and blank lines
/// skipped (the rest of a line may say why).
fn pending() -> BTreeSet<String> {
    let text = std::fs::read_to_string(language_dir().join("pending.txt")).unwrap_or_default();
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| line.split_whitespace().next().expect("a non-empty line has a word").to_owned())
        .collect()
}

fn probe_names(extension: &str) -> BTreeSet<String> {
    std::fs::read_dir(language_dir())
        .expect("tests/language is readable")
        .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter_map(|file| file.strip_suffix(extension).map(str::to_owned))
        .collect()
}

#[test]
fn every_probe_has_a_twin_and_a_row() {
    let rows: BTreeSet<String> = expected().into_iter().map(|row| row.name).collect();
    let puz = probe_names(".puz");
    let mzn = probe_names(".mzn");
    assert_eq!(puz, rows, "the probes (*.puz) and the rows of expected.tsv differ");
    assert_eq!(puz, mzn, "every probe NAME.puz has its MiniZinc twin NAME.mzn");
    let unknown: Vec<String> = pending()
        .into_iter()
        .filter(|name| {
            if let Some(file) = name.strip_prefix("misuse/") {
                !language_dir().join("misuse").join(file).is_file()
            } else if let Some(file) = name.strip_prefix("hint/") {
                !HINTS.iter().any(|(hinted, _)| hinted == &file)
            } else {
                !rows.contains(name)
            }
        })
        .collect();
    assert!(unknown.is_empty(), "pending.txt names probes that do not exist: {unknown:?}");
}

/// What cpsolve's JSON line says, in expected.tsv's terms, or why it cannot be read so.
fn answer(run: &common::Run) -> Result<(String, String), String> {
    let line = run.stdout.lines().next().unwrap_or("");
    let json: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| format!("exit {}, no JSON on stdout ({e}): {}", run.code, first_lines(run)))?;
    let status = json["status"].as_str().unwrap_or("?");
    let number = |key: &str| match &json[key] {
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    };
    match (run.code, status) {
        (0, "solved") => match number("objective") {
            Some(objective) => Ok(("optimum".to_owned(), objective)),
            None => Ok(("count".to_owned(), number("count").unwrap_or_else(|| "?".to_owned()))),
        },
        (1, "unsatisfiable") => Ok(("unsat".to_owned(), "-".to_owned())),
        _ => Err(format!("exit {}, status {status}: {}", run.code, first_lines(run))),
    }
}

/// The first lines of a run's stderr (or stdout), for a failure message.
fn first_lines(run: &common::Run) -> String {
    let text = if run.stderr.trim().is_empty() { &run.stdout } else { &run.stderr };
    text.lines().take(6).collect::<Vec<_>>().join("\n      ")
}

fn run_probe(name: &str) -> common::Run {
    let source = std::fs::read_to_string(language_dir().join(format!("{name}.puz"))).expect("the probe is readable");
    let mut args = common::header_args(&source);
    args.extend(["--format", "json", "--timeout", "60"].map(str::to_owned));
    args.push(format!("language/{name}.puz"));
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    common::cpsolve(&arg_refs, None)
}

#[test]
fn probes_give_the_expected_answers() {
    let pending = pending();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in expected() {
        let run = run_probe(&row.name);
        if run.stderr.contains("panicked") {
            failures.push(format!("{}: cpsolve panicked: {}", row.name, first_lines(&run)));
            continue;
        }
        if pending.contains(&row.name) {
            if run.code != 2 {
                let got = answer(&run).map_or_else(|e| e, |(mode, value)| format!("{mode} {value}"));
                failures.push(format!(
                    "{}: listed in pending.txt but no longer refused (exit {}; {got}, expected {} {}): take it out of pending.txt",
                    row.name, run.code, row.mode, row.value
                ));
            }
            continue;
        }
        checked += 1;
        match answer(&run) {
            Ok((mode, value)) if mode == row.mode && value == row.value => {}
            Ok((mode, value)) => {
                failures
                    .push(format!("{}: expected {} {}, cpsolve gave {mode} {value}", row.name, row.mode, row.value));
            }
            Err(why) => failures.push(format!("{}: expected {} {}, {why}", row.name, row.mode, row.value)),
        }
    }
    eprintln!("{checked} probes checked, {} pending (tests/language/pending.txt)", pending.len());
    assert!(failures.is_empty(), "{} language probes failed:\n  {}", failures.len(), failures.join("\n  "));
}

fn on_path(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|out| out.status.success())
}

/// Gecode's answer on one twin, as gecode.py computes it.
fn gecode(name: &str) -> Result<(String, String), String> {
    let dir = language_dir();
    let source = std::fs::read_to_string(dir.join(format!("{name}.mzn"))).expect("the twin is readable");
    let optimise = source
        .split(';')
        .any(|item| item.trim_start().starts_with("solve") && (item.contains("minimize") || item.contains("maximize")));
    let mut command = Command::new("minizinc");
    command.args(["--solver", "gecode", "--time-limit", "120000", "--all-solutions"]);
    if optimise {
        command.arg("--output-objective");
    }
    let out = command.arg(format!("{name}.mzn")).current_dir(&dir).output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.contains("=====UNSATISFIABLE=====") {
        return Ok(("unsat".to_owned(), "-".to_owned()));
    }
    if !out.status.success() || !stdout.lines().any(|line| line == "==========") {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("no complete answer from Gecode: {}", stderr.lines().last().unwrap_or("")));
    }
    if optimise {
        let objective = stdout
            .lines()
            .rev()
            .find_map(|line| line.strip_prefix("_objective = ")?.strip_suffix(';'))
            .ok_or("no _objective line")?;
        return Ok(("optimum".to_owned(), objective.to_owned()));
    }
    Ok(("count".to_owned(), stdout.lines().filter(|line| *line == "----------").count().to_string()))
}

#[test]
fn gecode_agrees_on_the_twins() {
    if !on_path("minizinc") {
        eprintln!("skipped: minizinc is not on the PATH, so the twins are not re-run with Gecode");
        return;
    }
    let solvers = Command::new("minizinc").arg("--solvers").output().expect("minizinc --solvers runs");
    if !String::from_utf8_lossy(&solvers.stdout).contains("org.gecode.gecode") {
        eprintln!("skipped: minizinc has no Gecode (org.gecode.gecode), so the twins are not re-run");
        return;
    }
    let mut failures = Vec::new();
    for row in expected() {
        match gecode(&row.name) {
            Ok((mode, value)) if mode == row.mode && value == row.value => {}
            Ok((mode, value)) => {
                failures
                    .push(format!("{}: expected.tsv says {} {}, Gecode {mode} {value}", row.name, row.mode, row.value));
            }
            Err(why) => failures.push(format!("{}: {why}", row.name)),
        }
    }
    assert!(failures.is_empty(), "Gecode disagrees on {} twins:\n  {}", failures.len(), failures.join("\n  "));
}

#[test]
fn brute_force_agrees() {
    if !on_path("python3") {
        eprintln!("skipped: python3 is not on the PATH, so brute.py is not re-run");
        return;
    }
    let out = Command::new("python3")
        .args(["brute.py", "--check"])
        .current_dir(language_dir())
        .output()
        .expect("python3 runs brute.py");
    assert!(
        out.status.success(),
        "brute.py disagrees with expected.tsv:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How a misuse run went: `Ok` for exit 2 with a message located at `file:line:col` and a caret,
/// else why not. Run here rather than by `common::cpsolve`, which expects no signal: a crash
/// (a stack overflow aborts) is one of the answers.
fn misuse_verdict(path: &str) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(["--timeout", "10", path])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"))
        .output()
        .expect("cpsolve runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    // `┌─ FILE:LINE:COL`: the file itself, or the file it includes where the fault is
    let located = stderr.lines().any(|line| {
        line.split_once("┌─ ").is_some_and(|(_, place)| {
            let mut parts = place.trim().rsplitn(3, ':');
            let column = parts.next().unwrap_or("");
            let line_number = parts.next().unwrap_or("");
            let file = parts.next().unwrap_or("");
            column.parse::<u32>().is_ok() && line_number.parse::<u32>().is_ok() && file.ends_with(".puz")
        })
    });
    let caret = stderr.lines().any(|line| line.contains('│') && line.contains('^'));
    if code == Some(2) && located && caret && !stderr.contains("panicked") {
        return Ok(());
    }
    let exit = code.map_or_else(|| format!("killed by a signal ({})", out.status), |c| c.to_string());
    let text =
        if stderr.trim().is_empty() { String::from_utf8_lossy(&out.stdout).into_owned() } else { stderr.into_owned() };
    let first: Vec<&str> = text.lines().take(6).collect();
    Err(format!("exit {exit} (expected 2), located {located}, caret {caret}:\n      {}", first.join("\n      ")))
}

fn file_names(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
                .filter(|file| keep(file))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn language_misuse_is_located() {
    let errors = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/errors");
    let files = file_names(&errors, |file| file.starts_with("lang-") && file.ends_with(".puz"));
    assert!(!files.is_empty(), "the negative language probes tests/corpus/errors/lang-*.puz are missing");
    let mut failures = Vec::new();
    for file in &files {
        if let Err(why) = misuse_verdict(&format!("corpus/errors/{file}")) {
            failures.push(format!("{file}: {why}"));
        }
    }
    let pending = pending();
    for file in file_names(&language_dir().join("misuse"), |file| file.ends_with(".puz")) {
        let listed = pending.contains(&format!("misuse/{file}"));
        match misuse_verdict(&format!("language/misuse/{file}")) {
            Ok(()) => failures.push(format!(
                "language/misuse/{file} is now a located error: move it to tests/corpus/errors/, snapshot it, and take it out of pending.txt"
            )),
            Err(why) if !listed => failures.push(format!("language/misuse/{file}: not in pending.txt, and {why}")),
            Err(why) => eprintln!("pending misuse language/misuse/{file}: {why}"),
        }
    }
    assert!(failures.is_empty(), "{} misuses are not located errors:\n  {}", failures.len(), failures.join("\n  "));
}

/// MiniZinc spellings `.puz` refuses with a hint: the misuse file and what its hint must show.
const HINTS: &[(&str, &str)] = &[
    ("lang-mzn-int-param.puz", "let r = 3"),
    ("lang-mzn-solve-annotation.puz", "search int_search(x, input_order, indomain_min)"),
    ("lang-pred-typed-param.puz", "predicate positive(v)"),
];

#[test]
fn misuse_hints_show_the_puz_spelling() {
    let pending = pending();
    let mut failures = Vec::new();
    for (file, hint) in HINTS {
        let run = common::cpsolve(&[&format!("corpus/errors/{file}")], None);
        let shown = run.stderr.contains(hint);
        let listed = pending.contains(&format!("hint/{file}"));
        if shown && listed {
            failures.push(format!("{file}: the hint `{hint}` is shown now: take hint/{file} out of pending.txt"));
        } else if !shown && !listed {
            failures.push(format!("{file}: no hint showing `{hint}`:\n      {}", first_lines(&run)));
        }
    }
    assert!(failures.is_empty(), "{} hints differ:\n  {}", failures.len(), failures.join("\n  "));
}
