//! Limits that hold in every phase: `--timeout` and `--memory` stop a run with exit 3 and
//! say which limit struck, whether it struck in a search (which then prints what it found),
//! in a puzzle's own solver, or while compiling (where nothing checks: the watchdog ends
//! the process). How close to the limit a run stops is measured by `bench/limits.sh`,
//! not here: timings do not belong in tests.

mod common;

use std::path::Path;
use std::process::Command;

use common::cpsolve;
use serde_json::Value;

/// `n` × `n` bits of domains: about 1.2 GB for n = 100,000, while compiling.
const HUGE_QUEENS: &str = "queens n = 100000\nsolve count";

#[test]
fn the_memory_limit_stops_a_model_that_outgrows_it_while_compiling() {
    let run = cpsolve(&["--memory", "100", "-e", HUGE_QUEENS], None);
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(run.stdout, "stopped: memory limit of 100 MB reached\n");
    let json = cpsolve(&["--memory", "100", "--format", "json", "-e", HUGE_QUEENS], None);
    assert_eq!(json.code, 3, "{json:?}");
    let object: Value = serde_json::from_str(json.stdout.trim()).expect("one JSON object");
    assert_eq!(object["status"], "limit");
    assert_eq!(object["stopped"], "memory");
}

#[test]
fn the_time_limit_holds_while_compiling() {
    // Two million compiled constraints: about half a second of compiling, far more than
    // the limit, and no search yet to check the clock.
    let model = "let n = 1999999\nvar x in 0..n\nforall i in 1..n: x != i\nsolve first";
    let run = cpsolve(&["--timeout", "0.05", "-e", model], None);
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(run.stdout, "stopped: time limit of 0.05 s reached\n");
}

#[test]
fn a_search_out_of_memory_stops_and_reports_what_it_found() {
    // 9^8 solutions, each kept for the JSON output until the memory runs out.
    let model = "var x[1..8] in 1..9\nsolve all";
    let run = cpsolve(&["--memory", "60", "--format", "json", "-e", model], None);
    assert_eq!(run.code, 3, "{run:?}");
    let object: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["status"], "limit");
    assert_eq!(object["stopped"], "memory");
    let count = object["count"].as_u64().expect("a count");
    assert!(count > 1000, "found {count} before the limit");
    assert_eq!(object["solutions"].as_array().map(Vec::len), Some(count as usize));
}

#[test]
fn a_later_model_runs_after_an_earlier_one_ran_out_of_memory_in_its_search() {
    let run = cpsolve(
        &["--memory", "60", "--format", "json", "-e", "var x[1..8] in 1..9\nsolve all", "-e", "var y in 1..3\ny > 2"],
        None,
    );
    assert_eq!(run.code, 3, "{run:?}");
    let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["status"], "solved");
    assert_eq!(lines[1]["solutions"][0]["y"], 3);
}

/// A 100 × 100 Minesweeper position with 2,000 mines and a third of the safe cells open:
/// its exact count takes minutes and gigabytes.
fn large_minesweeper() -> String {
    let (w, h, mines) = (100usize, 100usize, 2000usize);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut is_mine = vec![false; w * h];
    let mut placed = 0;
    while placed < mines {
        let i = (next() % (w * h) as u64) as usize;
        if !is_mine[i] {
            is_mine[i] = true;
            placed += 1;
        }
    }
    let mut text = format!("minesweeper mines = {mines}\n");
    for r in 0..h {
        let row: Vec<String> = (0..w)
            .map(|c| {
                if is_mine[r * w + c] || next() % 3 != 0 {
                    return ".".to_string();
                }
                let near = (r.saturating_sub(1)..=(r + 1).min(h - 1))
                    .flat_map(|rr| (c.saturating_sub(1)..=(c + 1).min(w - 1)).map(move |cc| rr * w + cc))
                    .filter(|&j| is_mine[j])
                    .count();
                near.to_string()
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

#[test]
fn a_puzzle_solver_stopped_by_either_limit_prints_what_it_proved() {
    let position = large_minesweeper();
    // 2 s, not less: the local deductions run before the exact count,
    // and at a load of 5 on 2 cores a 0.3 s limit once stopped them before the count began.
    for (args, limit) in [(["--timeout", "2"], "time"), (["--memory", "60"], "memory")] {
        let run = cpsolve(&[args[0], args[1], "-"], Some(&position));
        let head: String = run.stdout.lines().take(2).collect::<Vec<_>>().join("\n");
        assert_eq!(run.code, 3, "{head}");
        let expected = format!("stopped: the exact count did not finish within the {limit} limit");
        assert!(run.stdout.contains(&expected), "{head}");
        assert!(run.stdout.contains("certain: "), "the cells proven by local deduction are shown");
    }
}

/// `explain` on a large Minesweeper board stays within `--memory`: it stops with exit 3,
/// naming the limit, in the shape of every explanation (issue 51: a 300×300 board once
/// reached gigabytes).
#[test]
fn explain_of_a_large_position_stops_at_the_memory_limit() {
    let position = large_minesweeper();
    let run = cpsolve(&["explain", "--memory", "60", "-"], Some(&position));
    assert_eq!(run.code, 3, "{}", run.stdout);
    assert!(run.stdout.contains("memory limit"), "{}", run.stdout);
    let run = cpsolve(&["explain", "--format", "json", "--memory", "60", "-"], Some(&position));
    assert_eq!(run.code, 3, "{}", run.stdout);
    let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!((object["stopped"].as_str(), object["ending"].as_str()), (Some("memory"), Some("stopped")), "{object}");
}

#[test]
fn a_later_model_runs_after_an_earlier_one_was_stopped_while_compiling() {
    // Two million compiled constraints, stopped in the middle of compiling by the limit.
    let slow = "let n = 1999999\nvar x in 0..n\nforall i in 1..n: x != i\nsolve first";
    let run = cpsolve(&["--timeout", "0.05", "--format", "json", "-e", slow, "-e", "var y in 1..3\ny > 2"], None);
    assert_eq!(run.code, 3, "{run:?}");
    let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), 2, "{run:?}");
    assert_eq!(lines[0]["stopped"], "time");
    assert_eq!(lines[1]["solutions"][0]["y"], 3);
}

#[test]
fn fzn_cpsolve_stopped_by_time_where_nothing_polls_exits_0_for_minizinc() {
    // Reading 400,000 constraints polls nothing and takes far longer than the limit and its
    // grace, so the watchdog ends the process. MiniZinc takes any exit status but 0 from a
    // FlatZinc solver for an error and prints `=====ERROR=====` (found by the sweep of the
    // MiniZinc benchmarks: debruijn_binary 03_08, whose deep search takes longer to undo
    // than the grace); exit 0 with nothing printed is its status unknown.
    let mut text = String::from("var 0..1000000: x :: output_var;\n");
    for i in 0..400_000 {
        text.push_str(&format!("constraint int_ne(x, {i});\n"));
    }
    text.push_str("solve satisfy;\n");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("limits-fzn-hard-stop.fzn");
    std::fs::write(&path, text).expect("the FlatZinc file is written");
    let output = Command::new(env!("CARGO_BIN_EXE_fzn-cpsolve"))
        .args(["-t", "20"])
        .arg(&path)
        .output()
        .expect("fzn-cpsolve runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "stdout: {stdout}");
    assert_eq!(stdout, "", "nothing found, nothing printed");
}

#[test]
fn an_element_over_a_table_with_a_huge_value_is_solved_not_listed() {
    // Found by the fuzzer: the result's domain spans 2^32 values, which propagation once
    // listed one by one (8.5 GB, and past any time limit).
    let model = "let c = [1, 4294967295]\nvar i in 1..2\nminimize c[i]";
    let run = cpsolve(&["--format", "json", "-e", model], None);
    assert_eq!(run.code, 0, "{run:?}");
    let object: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["objective"], 1);
}

/// Standard input that stays open and silent: the read blocks, and the run still ends at its
/// time limit with the limit's line (exit 3), not when the writer gives up.
#[test]
fn the_time_limit_holds_while_reading_standard_input() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(["--timeout", "0.3", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cpsolve starts");
    let writer = child.stdin.take();
    let output = child.wait_with_output().expect("cpsolve ends");
    drop(writer);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "stopped: time limit of 0.3 s reached\n");
}

/// An endless input (`/dev/zero`) is read under the limits like any other phase: the
/// memory limit stops it, and so does a time limit already spent (`--timeout 0`) before
/// the first byte; `check` has its own `--timeout`.
#[test]
fn an_endless_input_stops_at_the_limits() {
    let run = cpsolve(&["--memory", "100", "/dev/zero"], None);
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(run.stdout, "stopped: memory limit of 100 MB reached\n");
    let run = cpsolve(&["--timeout", "0", "--format", "json", "/dev/zero"], None);
    assert_eq!(run.code, 3, "{run:?}");
    let object: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!((object["status"].as_str(), object["stopped"].as_str()), (Some("limit"), Some("time")));
    let run = cpsolve(&["check", "--timeout", "0", "/dev/zero"], None);
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(run.stdout, "/dev/zero: stopped: time limit of 0 s reached\n");
}

/// A pigeonhole in FlatZinc: nine variables over eight values, pairwise different. No
/// solution, and no short proof by search, learning or not.
fn pigeonhole_fzn() -> String {
    let mut text = String::new();
    for i in 1..=9 {
        text.push_str(&format!("var 1..8: x{i} :: output_var;\n"));
    }
    for i in 1..=9 {
        for j in i + 1..=9 {
            text.push_str(&format!("constraint int_ne(x{i}, x{j});\n"));
        }
    }
    text.push_str("solve satisfy;\n");
    text
}

#[test]
fn the_node_limit_holds_on_flatzinc_and_says_so() {
    let dir = std::env::temp_dir().join(format!("cpsolve-node-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("pigeonhole.fzn");
    std::fs::write(&path, pigeonhole_fzn()).expect("the model written");
    let path = path.to_str().expect("a UTF-8 path");
    for learning in ["yes", "no"] {
        let json = cpsolve(&["--nodes", "20", "--learning", learning, "--format", "json", "--stats", path], None);
        assert_eq!(json.code, 3, "{json:?}");
        let object: Value = serde_json::from_str(json.stdout.trim()).expect("one JSON object");
        assert_eq!(object["stopped"], "nodes", "{object}");
        let nodes = object["stats"]["nodes"].as_u64().expect("the nodes searched");
        assert!(nodes <= 20, "{nodes} nodes searched under --nodes 20");
        let text = cpsolve(&["--nodes", "20", "--learning", learning, path], None);
        assert_eq!(text.code, 3, "{text:?}");
        assert!(!text.stdout.contains("=====UNSATISFIABLE====="), "{text:?}");
    }
    // Without the limit the same model is proved to have no solution.
    let whole = cpsolve(&[path], None);
    assert_eq!(whole.code, 1, "{whole:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
