//! `cpsolve split` and `cpsolve merge`: an optimisation model's parts each run branch and
//! bound over their slice and only all of them prove the optimum; `merge` refuses a set of
//! results that is not exactly the parts of one split, and is stopped when a part was.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{cpsolve_in, Run};
use serde_json::Value;

/// A scratch directory of model files, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str, files: &[(&str, &str)]) -> Dir {
        let dir = std::env::temp_dir().join(format!("cpsolve-split-merge-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("the directory is made");
        for (path, text) in files {
            fs::write(dir.join(path), text).expect("the file is written");
        }
        Dir(dir)
    }

    fn run(&self, args: &[&str]) -> Run {
        cpsolve_in(&self.0, args, None)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Splits `model` into `parts`, runs each part with `--format json` and `extra`, and
    /// returns the result files (relative to the directory), in part order.
    fn split_and_run(&self, model: &str, parts: u32, extra: &[&str]) -> Vec<String> {
        let out = format!("{model}.parts");
        let split = self.run(&["split", model, "--parts", &parts.to_string(), "--out", &out]);
        assert_eq!(split.code, 0, "{}", split.stderr);
        let mut results = Vec::new();
        for part in split.stdout.lines() {
            let mut args = vec!["--format", "json"];
            args.extend_from_slice(extra);
            args.push(part);
            let run = self.run(&args);
            assert!([0, 1, 3].contains(&run.code), "{part}: {}", run.stderr);
            let result = format!("{}.json", part.trim_end_matches(".puz"));
            fs::write(self.path().join(&result), &run.stdout).expect("the result is written");
            results.push(result);
        }
        results
    }

    fn merge(&self, results: &[String], format: &str) -> Run {
        let mut args = vec!["merge", "--format", format];
        args.extend(results.iter().map(String::as_str));
        self.run(&args)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const MINIMIZE: &str = "var x, y in 0..5\nx + y >= 3\nminimize x + y\n";
const MAXIMIZE: &str = "var x, y, z in 0..6\nx + 2*y + 3*z <= 10\nx != y\nmaximize 2*x + 3*y + 4*z - x*z\n";

fn json(run: &Run) -> Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

#[test]
fn a_part_of_an_optimisation_model_reports_the_best_of_its_slice_not_a_proven_optimum() {
    let dir = Dir::new("one-part", &[("m.puz", &format!("{MINIMIZE}option part = 1, 1\n"))]);
    let run = dir.run(&["m.puz"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "best of part 1 of 1: 3 (its slice searched to the end; `cpsolve merge` the parts for the optimum)\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("proven"), "{}", run.stdout);
    let run = dir.run(&["--format", "json", "m.puz"]);
    let object = json(&run);
    assert_eq!(object["objective"], 3);
    assert_eq!(object["part"]["objective"], "minimize");
}

#[test]
fn merged_optimisation_parts_give_the_unsplit_optimum() {
    for (name, model) in [("minimize", MINIMIZE), ("maximize", MAXIMIZE)] {
        let dir = Dir::new(name, &[("m.puz", model)]);
        let whole = json(&dir.run(&["--format", "json", "m.puz"]));
        for parts in [1, 2, 3, 7] {
            let results = dir.split_and_run("m.puz", parts, &[]);
            let merged = dir.merge(&results, "json");
            assert_eq!(merged.code, 0, "{name} in {parts}: {}", merged.stderr);
            let merged = json(&merged);
            assert_eq!(merged["status"], "solved");
            assert_eq!(merged["objective"], whole["objective"], "{name} in {parts} parts");
            assert_eq!(merged["parts"], parts);
            let text = dir.merge(&results, "text");
            let counted = if parts == 1 { "1 part".to_string() } else { format!("{parts} parts") };
            let optimum =
                format!("optimum: {} (proven: every part searched to the end, {counted})\n", whole["objective"]);
            assert!(text.stdout.ends_with(&optimum), "{}", text.stdout);
        }
    }
}

#[test]
fn a_part_twice_is_an_error_naming_both_files() {
    let dir = Dir::new("twice", &[("q.puz", "queens n = 6\nsolve all\n")]);
    let results = dir.split_and_run("q.puz", 3, &[]);
    fs::copy(dir.path().join(&results[1]), dir.path().join("copy.json")).expect("copied");
    let merged = dir.merge(&[results[0].clone(), results[1].clone(), "copy.json".into(), results[2].clone()], "text");
    assert_eq!(merged.code, 2, "{}", merged.stdout);
    assert!(
        merged.stderr.contains(&format!("{}:1 and copy.json:1 are both part 2 of 3", results[1])),
        "{}",
        merged.stderr
    );
    assert_eq!(merged.stdout, "");
}

#[test]
fn an_incomplete_set_of_parts_is_an_error_listing_the_missing_ones() {
    let dir = Dir::new("missing", &[("q.puz", "queens n = 7\nsolve count\n")]);
    let results = dir.split_and_run("q.puz", 5, &[]);
    let merged = dir.merge(&[results[0].clone(), results[2].clone()], "text");
    assert_eq!(merged.code, 2, "{}", merged.stdout);
    assert!(merged.stderr.contains("incomplete: parts 2, 4..5 of 5 missing"), "{}", merged.stderr);
    assert_eq!(merged.stdout, "");
    // All of them, in any order: the parts are put back in part order.
    let mut shuffled = results.clone();
    shuffled.reverse();
    let merged = dir.merge(&shuffled, "json");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(json(&merged)["count"], 40);
}

#[test]
fn parts_of_different_models_or_splits_are_not_merged() {
    let dir = Dir::new("mixed", &[("a.puz", "queens n = 6\nsolve count\n"), ("b.puz", "queens n = 7\nsolve count\n")]);
    let a = dir.split_and_run("a.puz", 2, &[]);
    let b = dir.split_and_run("b.puz", 2, &[]);
    let merged = dir.merge(&[a[0].clone(), b[1].clone()], "text");
    assert_eq!(merged.code, 2);
    assert!(merged.stderr.contains("of another split than"), "{}", merged.stderr);
    // The same model in another number of parts.
    let c = dir.split_and_run("b.puz", 3, &[]);
    let merged = dir.merge(&[b[0].clone(), c[1].clone(), c[2].clone()], "text");
    assert_eq!(merged.code, 2);
    assert!(merged.stderr.contains("is part 2 of 3 of another split"), "{}", merged.stderr);
    // A result that is no part at all.
    fs::write(dir.path().join("whole.json"), dir.run(&["--format", "json", "a.puz"]).stdout).expect("written");
    let merged = dir.merge(&["whole.json".to_string()], "text");
    assert_eq!(merged.code, 2);
    assert!(merged.stderr.contains("whole.json:1: not the result of a part"), "{}", merged.stderr);
}

#[test]
fn a_part_stopped_by_a_limit_stops_the_merge() {
    let dir = Dir::new("stopped", &[("q.puz", "queens n = 6\nsolve all\n")]);
    let results = dir.split_and_run("q.puz", 2, &["--limit", "1"]);
    let merged = dir.merge(&results, "text");
    assert_eq!(merged.code, 3, "{}", merged.stderr);
    assert!(merged.stdout.contains("stopped: part 1 of 2 ("), "{}", merged.stdout);
    assert!(merged.stdout.contains("hit a solution limit"), "{}", merged.stdout);
    let merged = json(&dir.merge(&results, "json"));
    assert_eq!(merged["status"], "limit");
    // An optimisation part stopped by its node limit: the best found is not an optimum.
    let dir = Dir::new("stopped-opt", &[("m.puz", MAXIMIZE)]);
    let results = dir.split_and_run("m.puz", 2, &["--nodes", "1"]);
    let merged = dir.merge(&results, "text");
    assert_eq!(merged.code, 3, "{}", merged.stdout);
    assert!(merged.stdout.contains("hit a node limit"), "{}", merged.stdout);
    assert!(!merged.stdout.contains("optimum"), "{}", merged.stdout);
}

#[test]
fn two_part_lines_in_one_model_are_a_located_error() {
    let model = "var x in 1..3\noption part = 1, 2\noption part = 2, 2\nsolve count";
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let run = cpsolve_in(&dir, &["--format", "json", "-e", model], None);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("`option part` is given twice"), "{}", run.stderr);
    let object = json(&run);
    assert_eq!(object["errors"][0]["line"], 3);
    assert_eq!(object["errors"][0]["column"], 1);
    // `explain` and `check` refuse them too, at the second line, with its caret.
    let model = "var x in 1..3\nx > 1\noption part = 1, 2\noption part = 2, 2\nsolve count";
    let models = Dir::new("two-parts", &[("m.puz", model)]);
    for command in ["explain", "check"] {
        let run = cpsolve_in(&models.0, &[command, "m.puz"], None);
        assert_eq!(run.code, 2, "{command}: {run:?}");
        assert!(run.stderr.contains("error: `option part` is given twice"), "{command}: {}", run.stderr);
        assert!(run.stderr.contains("┌─ m.puz:4:1"), "{command}: {}", run.stderr);
        assert!(run.stderr.contains("^^^^^^^^^^^^^^^^^^ given again here"), "{command}: {}", run.stderr);
    }
    let out_of_range = "var x in 1..3\nx > 1\noption part = 3, 2\nsolve count";
    let run = cpsolve_in(&dir, &["explain", "-e", out_of_range], None);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("`option part = i, k` needs 1 <= i <= k"), "{}", run.stderr);
}
