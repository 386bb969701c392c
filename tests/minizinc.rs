//! `cpsolve model.mzn data.dzn` end to end: MiniZinc flattens with cpsolve's mznlib,
//! cpsolve solves, MiniZinc's output processing prints. Needs `minizinc` on the PATH;
//! `.ci/run` installs it. Without it these tests say so loudly and check only the error.

mod common;

use std::process::Command;

use common::cpsolve;
use serde_json::Value;

fn minizinc_installed() -> bool {
    let found = Command::new("minizinc").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("\n********************************************************************");
        eprintln!("*** minizinc is NOT installed: the MiniZinc end-to-end tests did  ***");
        eprintln!("*** not run (apt-get install minizinc; .ci/run installs it)       ***");
        eprintln!("********************************************************************\n");
    }
    found
}

#[test]
fn golomb_ruler_of_three_marks_is_proven_optimal_through_minizinc() {
    if !minizinc_installed() {
        return;
    }
    let run = cpsolve(&["../tests/minizinc/golomb/golomb.mzn", "../tests/minizinc/golomb/03.dzn"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The model's own output item prints the marks; `==========` says the optimum is proven.
    assert!(run.stdout.contains("[0, 1, 3]"), "{}", run.stdout);
    assert!(run.stdout.trim_end().ends_with("=========="), "{}", run.stdout);
}

#[test]
fn json_gives_status_objective_and_the_output_variables() {
    if !minizinc_installed() {
        return;
    }
    let run =
        cpsolve(&["--format", "json", "../tests/minizinc/golomb/golomb.mzn", "../tests/minizinc/golomb/03.dzn"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let o: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(o["status"], "solved");
    assert_eq!(o["optimal"], true);
    assert_eq!(o["objective"], 3);
    let last = o["solutions"].as_array().and_then(|s| s.last()).expect("a solution");
    assert_eq!(last["mark"], serde_json::json!([0, 1, 3]));
}

#[test]
fn an_unsatisfiable_model_exits_1() {
    if !minizinc_installed() {
        return;
    }
    let run = cpsolve(&["../tests/minizinc/areas/areas.mzn", "../tests/minizinc/areas/3_3_5.dzn"], None);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("=====UNSATISFIABLE====="), "{}", run.stdout);
}

#[test]
fn a_model_error_is_minizincs_located_message_and_exit_2() {
    if !minizinc_installed() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let model = dir.join("bad.mzn");
    std::fs::write(&model, "var 1..3: x;\nconstraint x = y;\nsolve satisfy;\n").expect("written");
    let run = cpsolve(&[model.to_str().expect("UTF-8 path")], None);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("bad.mzn:2"), "{}", run.stderr);
}

#[test]
fn without_minizinc_a_mzn_model_gets_the_install_hint() {
    let run = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .arg("model.mzn")
        .env("PATH", "/nonexistent")
        .output()
        .expect("cpsolve runs");
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("`minizinc` is not installed"), "{stderr}");
    assert!(stderr.contains("apt-get install minizinc"), "{stderr}");
}

#[test]
fn the_time_limit_stops_minizinc_while_it_flattens() {
    if !minizinc_installed() {
        return;
    }
    // Three million pairwise constraints: seconds of flattening.
    let run = cpsolve(&["--timeout", "0.5", "--format", "json", "../tests/minizinc/slow-flattening.mzn"], None);
    assert_eq!(run.code, 3, "{}", run.stderr);
    let object: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["status"], "limit");
    assert_eq!(object["stopped"], "time");
}

/// Writes `text` as `name` in a fresh temporary directory and runs cpsolve on it with `flags`.
fn run_model(name: &str, text: &str, flags: &[&str]) -> common::Run {
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let model = dir.join(format!("{name}.mzn"));
    std::fs::write(&model, text).expect("written");
    let mut args = flags.to_vec();
    args.push(model.to_str().expect("UTF-8 path"));
    let run = cpsolve(&args, None);
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// The sets of `lo..=hi`, each as its sorted elements.
fn subsets(lo: i32, hi: i32) -> Vec<Vec<i32>> {
    let n = (hi - lo + 1) as u32;
    (0..1u32 << n).map(|bits| (lo..=hi).filter(|&i| bits & (1 << (i - lo)) != 0).collect()).collect()
}

#[test]
fn the_set_order_is_minizincs_on_every_pair_of_sets() {
    if !minizinc_installed() {
        return;
    }
    // MiniZinc orders sets as their sorted element lists, lexicographically, a prefix first:
    // exactly Rust's order on sorted vectors. Two sets over different ranges, so that the
    // order also reads elements only one of them can have.
    for (op, strict) in [("<=", false), ("<", true)] {
        let model = format!(
            "var set of 2..5: x;\nvar set of 1..3: y;\nconstraint x {op} y;\nsolve satisfy;\n\
             output [show([i | i in fix(x)]), \" ; \", show([i | i in fix(y)])];\n"
        );
        let run = run_model("set-order", &model, &["--all"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut found: Vec<(Vec<i32>, Vec<i32>)> = Vec::new();
        for line in run.stdout.lines().filter(|l| l.starts_with('[')) {
            let (x, y) = line.split_once(" ; ").expect("two lists");
            let parse = |list: &str| -> Vec<i32> {
                let inner = list.trim_matches(|c| c == '[' || c == ']');
                inner.split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().expect("an int")).collect()
            };
            found.push((parse(x), parse(y)));
        }
        found.sort();
        let mut expected: Vec<(Vec<i32>, Vec<i32>)> = Vec::new();
        for x in subsets(2, 5) {
            for y in subsets(1, 3) {
                if if strict { x < y } else { x <= y } {
                    expected.push((x.clone(), y));
                }
            }
        }
        expected.sort();
        assert_eq!(found, expected, "x {op} y\n{}", run.stdout);
    }
}

/// `--count` in text prints the count of the model's answers: two solutions that its output
/// item prints the same are one answer, as MiniZinc counts them (the JSON's count too).
#[test]
fn a_count_in_text_prints_the_number_of_answers() {
    if !minizinc_installed() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cpsolve-mzn-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let plain = dir.join("plain.mzn");
    let shown = dir.join("shown.mzn");
    let model = "var 1..3: x;\nvar 1..3: y;\nconstraint x < y;\nsolve satisfy;\n";
    std::fs::write(&plain, model).expect("written");
    std::fs::write(&shown, format!("{model}output [\"x = \\(x)\\n\"];\n")).expect("written");
    for (path, count) in [(&plain, 3), (&shown, 2)] {
        let path = path.to_str().expect("a UTF-8 path");
        let run = cpsolve(&["--count", path], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains(&format!("count: {count}\n")), "{path}: {}", run.stdout);
        let json = cpsolve(&["--count", "--format", "json", path], None);
        let object: Value = serde_json::from_str(json.stdout.trim()).expect("one JSON object");
        assert_eq!(object["count"], count, "{path}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
