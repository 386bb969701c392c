//! A plain text run of `cpsolve model.mzn data.dzn` is one whole `minizinc --solver
//! cpsolve` run (src/mzn_handoff.rs): MiniZinc flattens, runs `fzn-cpsolve` and prints.
//!
//! Checked two ways: with a stand-in `minizinc` first on the PATH, which records how it
//! was called and plays an outcome, the rule itself (which runs are handed over, with which
//! flags, and how the exit status comes back); with the real `minizinc`, that a handed-over
//! run prints the same bytes and exits the same as cpsolve's own path
//! (`CPSOLVE_MZN_PRINTER=cpsolve`) on every MiniZinc model of tests/minizinc/.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory holding a stand-in `minizinc`: it writes its arguments, one a line, into
/// `args` beside it, then runs `script` (shell).
struct StandIn {
    dir: PathBuf,
}

impl StandIn {
    fn new(name: &str, script: &str) -> StandIn {
        let dir = std::env::temp_dir().join(format!("cpsolve-handoff-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("minizinc");
        let text = format!(
            "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > \"{}\"\n{script}\n",
            dir.join("args").display()
        );
        std::fs::write(&path, text).expect("written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("made executable");
        std::fs::write(dir.join("model.mzn"), "var 1..3: x;\n").expect("written");
        StandIn { dir }
    }

    /// Runs cpsolve on the stand-in's model with `flags`: its exit status and stdout.
    fn run(&self, flags: &[&str]) -> (i32, String) {
        let output = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
            .args(flags)
            .arg(self.dir.join("model.mzn"))
            .env("PATH", &self.dir)
            .env_remove("CPSOLVE_MZN_PRINTER")
            .output()
            .expect("cpsolve runs");
        (output.status.code().expect("an exit status"), String::from_utf8_lossy(&output.stdout).to_string())
    }

    fn args(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.dir.join("args")).expect("the stand-in ran");
        text.lines().map(str::to_string).collect()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn has_flag(args: &[String], flag: &str, value: &str) -> bool {
    args.windows(2).any(|w| w[0] == flag && w[1] == value)
}

#[test]
fn a_plain_run_is_handed_whole_to_minizinc_with_its_search_and_limits() {
    let stand_in = StandIn::new("plain", "echo 'x = 1;'; echo '----------'; echo 0 > \"$CPSOLVE_OUTCOME_FILE\"");
    let (code, stdout) = stand_in.run(&["--all", "--timeout", "2.5", "--learning", "no"]);
    assert_eq!(code, 0);
    // MiniZinc's output is the run's, byte for byte.
    assert_eq!(stdout, "x = 1;\n----------\n");
    let args = stand_in.args();
    assert!(!args.contains(&"-c".to_string()), "not flattening alone: {args:?}");
    assert!(args.iter().any(|a| a.ends_with("cpsolve.msc")), "{args:?}");
    assert!(args.contains(&"-a".to_string()), "{args:?}");
    assert!(has_flag(&args, "--time-limit", "2500"), "{args:?}");
    assert!(has_flag(&args, "--search", "auto"), "{args:?}");
    assert!(has_flag(&args, "--learning", "no"), "{args:?}");
    assert!(args.last().is_some_and(|a| a.ends_with("model.mzn")), "{args:?}");
}

#[test]
fn the_exit_status_is_the_solvers_report_else_minizincs_last_status_line() {
    let reported = StandIn::new("reported", "echo '----------'; echo 3 > \"$CPSOLVE_OUTCOME_FILE\"");
    assert_eq!(reported.run(&[]).0, 3);
    // Unsatisfiable while flattening: MiniZinc runs no solver.
    let flattening = StandIn::new("flattening", "echo '=====UNSATISFIABLE====='");
    assert_eq!(flattening.run(&[]).0, 1);
    // Stopped by the time limit with nothing reported.
    let unknown = StandIn::new("unknown", "echo '=====UNKNOWN====='");
    assert_eq!(unknown.run(&[]).0, 3);
    // MiniZinc failed on the model: bad input.
    let failed = StandIn::new("failed", "echo 'Error: type error' >&2; exit 1");
    assert_eq!(failed.run(&[]).0, 2);
}

#[test]
fn runs_minizinc_has_no_flag_for_flatten_and_solve_here() {
    for flags in [&["--stats"][..], &["--format", "json"], &["--count"], &["--nodes", "10"]] {
        let stand_in = StandIn::new("own", "exit 1");
        let _ = stand_in.run(flags);
        let args = stand_in.args();
        assert!(args.contains(&"-c".to_string()), "{flags:?} flattens alone: {args:?}");
    }
}

/// Every model of tests/minizinc/ with its data, as its expected.json lists them, but
/// those Gecode takes a second or more on: they search to an optimum whatever `--limit`
/// says, which would make this test a minute long, and print nothing the others do not.
fn corpus() -> Vec<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/minizinc");
    let listing = std::fs::read_to_string(root.join("expected.json")).expect("expected.json");
    let listing: serde_json::Value = serde_json::from_str(&listing).expect("JSON");
    let entries = listing.as_array().expect("a list");
    entries
        .iter()
        .filter(|entry| entry["gecode_s"].as_f64().is_some_and(|s| s < 1.0))
        .map(|entry| {
            let folder = root.join(entry["folder"].as_str().expect("folder"));
            let mut files = vec![folder.join(entry["mzn"].as_str().expect("mzn"))];
            files.extend(entry["dzn"].as_str().map(|dzn| folder.join(dzn)));
            files
        })
        .collect()
}

fn run_real(files: &[PathBuf], own_path: bool) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cpsolve"));
    // Three answers at most: enumerations and the status lines after them, kept short.
    let _ = command.args(["--limit", "3"]).args(files);
    if own_path {
        let _ = command.env("CPSOLVE_MZN_PRINTER", "cpsolve");
    } else {
        let _ = command.env_remove("CPSOLVE_MZN_PRINTER");
    }
    let output = command.output().expect("cpsolve runs");
    (output.status.code(), String::from_utf8_lossy(&output.stdout).to_string())
}

#[test]
fn a_handed_over_run_prints_and_exits_as_cpsolves_own_path_on_the_corpus() {
    if Command::new("minizinc").arg("--version").output().is_err() {
        eprintln!("*** minizinc is NOT installed: the handed-over runs were not compared ***");
        return;
    }
    let mut differ = Vec::new();
    for files in corpus() {
        let handed = run_real(&files, false);
        let own = run_real(&files, true);
        if handed != own {
            differ.push(format!("{}:\n  handed over {handed:?}\n  own path    {own:?}", files[0].display()));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
