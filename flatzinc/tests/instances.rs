//! The MiniZinc benchmark instances of `tests/minizinc/`, from their checked-in FlatZinc
//! (flattened with cpsolve's `mznlib` by `tests/minizinc/regen.sh`), against Gecode's
//! answers in `expected.json`. No `minizinc` is needed.
//!
//! Correctness, not speed, is tested: each instance runs under a time limit; whatever
//! cpsolve claims must agree with Gecode: a proven optimum must be Gecode's, an
//! unsatisfiability must be Gecode's, every solution is checked against the FlatZinc
//! constraints as written, and no solution may beat Gecode's proven optimum. The instances
//! cut short by the limit are listed (the benchmark, `bench/minizinc.sh`, measures speed).
//!
//! Four times: with learning as it is by default (on where one solution or an optimum is
//! wanted), forced on, and forced off, following the annotations; and with free search (the
//! `cpsolve` command's default for one answer); every claim of each must agree.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cpsolve_flatzinc::{load, solve, Goal, Options, SearchChoice, Status};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/minizinc")
}

/// The FlatZinc file of an instance: named after its data file, or its model without one.
fn fzn_path(entry: &Value) -> PathBuf {
    let file = entry["dzn"].as_str().or(entry["mzn"].as_str()).expect("an mzn name");
    let stem = Path::new(file).file_stem().expect("a file name").to_string_lossy().to_string();
    root().join("fzn").join(entry["folder"].as_str().expect("a folder")).join(format!("{stem}.fzn.gz"))
}

fn read_gzipped(path: &Path) -> String {
    let file =
        std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e} (run tests/minizinc/regen.sh)", path.display()));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

#[test]
fn every_answer_agrees_with_gecode() {
    agree_with_gecode(None, SearchChoice::Model);
}

#[test]
fn every_answer_agrees_with_gecode_with_free_search() {
    agree_with_gecode(None, SearchChoice::Free);
}

#[test]
fn every_answer_agrees_with_gecode_with_learning_forced_on() {
    agree_with_gecode(Some(true), SearchChoice::Model);
}

#[test]
fn every_answer_agrees_with_gecode_with_learning_off() {
    agree_with_gecode(Some(false), SearchChoice::Model);
}

/// Solves every instance with `learning` (`None`: the default) and `search`, and checks
/// each claim.
fn agree_with_gecode(learning: Option<bool>, search: SearchChoice) {
    let expected: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("expected.json")).expect("expected.json"))
            .expect("valid JSON");
    let limit =
        Duration::from_secs(std::env::var("CPSOLVE_INSTANCE_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5));
    let (mut agreed, mut cut) = (Vec::new(), Vec::new());
    for entry in &expected {
        let path = fzn_path(entry);
        let name = format!(
            "{}/{}",
            entry["folder"].as_str().unwrap_or("?"),
            path.file_name().unwrap_or_default().to_string_lossy().trim_end_matches(".fzn.gz")
        );
        let text = read_gzipped(&path);
        let mut model = load(&text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        // The default search: restarts with nogoods where the order is dom/wdeg.
        let options = Options { timeout: Some(limit), verify: true, learning, search, ..Options::default() };
        let minimize = matches!(model.goal, Goal::Minimize(_));
        let result = solve(&mut model, &options, |_, _| {});
        let gecode_status = entry["status"].as_str().unwrap_or("");
        let optimum = entry["objective"].as_i64();
        match result.status {
            Status::Unsatisfiable => assert_eq!(gecode_status, "unsat", "{name}: cpsolve says unsatisfiable"),
            Status::Complete | Status::Satisfied => {
                assert_ne!(gecode_status, "unsat", "{name}: cpsolve found a solution of an unsatisfiable model");
                if let (Some(found), Some(best)) = (result.objective, optimum) {
                    let no_better = if minimize { found >= best } else { found <= best };
                    assert!(no_better, "{name}: objective {found} beats Gecode's proven optimum {best}");
                    if result.status == Status::Complete {
                        assert_eq!(found, best, "{name}: cpsolve's proven optimum differs from Gecode's");
                    }
                }
            }
            Status::Unknown => {}
        }
        let finished = match result.status {
            Status::Unsatisfiable | Status::Complete => true,
            Status::Satisfied => matches!(model.goal, Goal::Satisfy),
            Status::Unknown => false,
        };
        if finished {
            agreed.push(name);
        } else {
            cut.push(name);
        }
    }
    eprintln!(
        "learning {learning:?}, {search:?} search: {} of {} instances finished within {limit:?} each, all agreeing with Gecode",
        agreed.len(),
        expected.len()
    );
    if !cut.is_empty() {
        eprintln!("cut short by the limit (no wrong answer): {}", cut.join(", "));
    }
}
