//! cpsolve's own printer of MiniZinc solutions (src/ozn/) against MiniZinc's
//! (`minizinc --ozn-file`): on every MiniZinc model of the repository (tests/minizinc/ and
//! bench/mzn/), the same run printed both ways must be the same bytes, and cpsolve's printer
//! must be the one that printed (`--stats` says which). Up to three solutions each, and at
//! most 5,000 nodes, so that dropping duplicates and the status lines are exercised and
//! the run stays short. Needs `minizinc` on the PATH (`.ci/run` installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

struct Printed {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&Path], printer_minizinc: bool) -> Printed {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cpsolve"));
    command.args(["--stats", "--limit", "3", "--nodes", "5000"]).args(args);
    if printer_minizinc {
        command.env("CPSOLVE_MZN_PRINTER", "minizinc");
    } else {
        command.env_remove("CPSOLVE_MZN_PRINTER");
    }
    let output = command.output().expect("cpsolve runs");
    Printed {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    }
}

/// Every model with its data: tests/minizinc/ as its expected.json lists it, bench/mzn/.
fn models() -> Vec<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listing = std::fs::read_to_string(root.join("tests/minizinc/expected.json")).expect("expected.json");
    let listing: serde_json::Value = serde_json::from_str(&listing).expect("JSON");
    let mut models = Vec::new();
    for entry in listing.as_array().expect("a list") {
        let folder = root.join("tests/minizinc").join(entry["folder"].as_str().expect("folder"));
        let mut files = vec![folder.join(entry["mzn"].as_str().expect("mzn"))];
        files.extend(entry["dzn"].as_str().map(|dzn| folder.join(dzn)));
        models.push(files);
    }
    let mut bench: Vec<PathBuf> = std::fs::read_dir(root.join("bench/mzn"))
        .expect("bench/mzn")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mzn"))
        .collect();
    bench.sort();
    models.extend(bench.into_iter().map(|p| vec![p]));
    models
}

#[test]
fn cpsolve_prints_every_corpus_model_byte_for_byte_as_minizinc_does() {
    if Command::new("minizinc").arg("--version").output().is_err() {
        eprintln!("*** minizinc is NOT installed: cpsolve's MiniZinc printer was not compared ***");
        return;
    }
    let models = models();
    assert!(models.len() >= 80, "the corpus holds {} models", models.len());
    // Two halves side by side: most of the time is MiniZinc's flattening.
    let (first, second) = models.split_at(models.len() / 2);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let other = scope.spawn(|| compare(second));
        let mut failures = compare(first);
        failures.extend(other.join().expect("the other half runs"));
        failures
    });
    assert!(failures.is_empty(), "{} of {} models:\n{}", failures.len(), models.len(), failures.join("\n"));
}

/// The models whose two printings differ, each with what differs.
fn compare(models: &[Vec<PathBuf>]) -> Vec<String> {
    let mut failures = Vec::new();
    for files in models {
        let args: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        let own = run(&args, false);
        let theirs = run(&args, true);
        let name = files[0].display();
        if !own.stderr.contains("printer: cpsolve") {
            failures.push(format!("{name}: not printed by cpsolve: {}", own.stderr));
        } else if own.stdout != theirs.stdout || own.code != theirs.code {
            failures.push(format!(
                "{name}: exit {:?} against {:?}\n--- cpsolve\n{}--- minizinc\n{}",
                own.code, theirs.code, own.stdout, theirs.stdout
            ));
        } else if !theirs.stderr.contains("printer: minizinc") {
            failures.push(format!("{name}: CPSOLVE_MZN_PRINTER=minizinc was not honoured"));
        }
    }
    failures
}
