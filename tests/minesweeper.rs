//! Minesweeper through the binary: `.puz` and JSMinesweeper `.mine` positions (JSON and
//! errors), timeouts, and `play minesweeper` (report fields, same games whatever the threads,
//! the per-game file).

mod common;

use common::cpsolve;
use serde_json::Value;

fn json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let run = cpsolve(&all, None);
    let line = run.stdout.lines().next().unwrap_or_else(|| panic!("no output: {run:?}"));
    (run.code, serde_json::from_str(line).expect("one JSON object"))
}

fn check_minesweepr(v: &Value) {
    assert_eq!(v["kind"], "minesweeper");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["configurations"], "237093780");
    let p = &v["probabilities"];
    assert!(p[0][0].is_null(), "revealed cells have no probability");
    assert!((p[9][9].as_f64().expect("covered") - 6.0 / 77.0).abs() < 1e-12);
    assert!((p[5][1].as_f64().expect("covered") - 71.0 / 77.0).abs() < 1e-12);
    assert_eq!(v["safe"], serde_json::json!([[0, 3], [4, 3], [5, 2]]));
    assert_eq!(v["mines"], serde_json::json!([[1, 3], [2, 3], [3, 3]]));
}

#[test]
fn puz_and_mine_files_give_the_same_answer() {
    let (code, v) = json(&["corpus/minesweeper/minesweepr-readme.puz"]);
    assert_eq!(code, 0);
    check_minesweepr(&v);
    let (code, v) = json(&["corpus/minesweeper/minesweepr.mine"]);
    assert_eq!(code, 0);
    check_minesweepr(&v);
}

#[test]
fn ragged_mine_file_is_bad_input_with_its_cell() {
    let run = cpsolve(&["corpus/minesweeper/ragged.mine"], None);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("corpus/minesweeper/ragged.mine:3:"), "{}", run.stderr);
    assert!(run.stderr.contains("a row of 9 cells, the header says 10"), "{}", run.stderr);
    let run = cpsolve(&["check", "corpus/minesweeper/minesweepr.mine"], None);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("minesweeper 10x10, 10 mines"), "{}", run.stdout);
}

#[test]
fn unsatisfiable_and_timeout() {
    let (code, v) = json(&["corpus/minesweeper/unsatisfiable.puz"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("unsatisfiable")));
    let (code, v) = json(&["--timeout", "0", "corpus/minesweeper/minesweepr-readme.puz"]);
    assert_eq!((code, v["status"].as_str()), (3, Some("limit")));
    assert!(v["configurations"].is_null());
    // What local deduction proves is still reported.
    assert_eq!(v["mines"], serde_json::json!([[1, 3], [2, 3], [3, 3]]));
}

#[test]
fn play_reports_and_is_the_same_whatever_the_threads() {
    let args = ["play", "minesweeper", "--level", "beginner", "--games", "300", "--seed", "9"];
    let one = cpsolve(&[&args[..], &["--format", "json", "--threads", "1"]].concat(), None);
    let two = cpsolve(&[&args[..], &["--format", "json", "--threads", "2"]].concat(), None);
    assert_eq!((one.code, two.code), (0, 0), "{one:?} {two:?}");
    let (a, b): (Value, Value) =
        (serde_json::from_str(&one.stdout).expect("JSON"), serde_json::from_str(&two.stdout).expect("JSON"));
    for key in ["games", "won", "win_rate", "stderr", "seed", "level", "first_click", "guesses"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["games"], 300);
    assert_eq!(a["level"], "beginner");
    assert_eq!(a["first_click"], "safe");
    assert!(a.get("time_ms").is_none(), "timings only with --stats: {a}");
    let few = ["play", "minesweeper", "--level", "beginner", "--games", "5", "--seed", "9"];
    let timed = cpsolve(&[&few[..], &["--format", "json", "--stats"]].concat(), None);
    let timed: Value = serde_json::from_str(&timed.stdout).expect("JSON");
    assert!(timed["time_ms"].is_u64(), "{timed}");
    let text = cpsolve(&few, None);
    assert!(!text.stdout.contains("games/s"), "timings only with --stats: {}", text.stdout);
    let rate = a["win_rate"].as_f64().expect("rate");
    assert!(rate > 0.8, "a beginner bot wins most games: {rate}");
    let opening =
        cpsolve(&["play", "minesweeper", "--level", "9x9x10", "--games", "50", "--first-click", "opening"], None);
    assert_eq!(opening.code, 0, "{opening:?}");
    assert!(opening.stdout.contains("first click opening at (3, 3)"), "{}", opening.stdout);
    let bad = cpsolve(&["play", "minesweeper", "--level", "3x3x9"], None);
    assert_eq!(bad.code, 2, "{bad:?}");
}

/// `--per-game` writes one line per game, in game order, and its wins add up to the
/// summary's.
#[test]
fn play_per_game_file_matches_the_summary() {
    let path = std::env::temp_dir().join(format!("cpsolve-per-game-{}.txt", std::process::id()));
    let file = path.to_str().expect("utf-8 path");
    let run = cpsolve(
        &[
            "play",
            "minesweeper",
            "--level",
            "beginner",
            "--games",
            "200",
            "--seed",
            "5",
            "--format",
            "json",
            "--threads",
            "2",
            "--per-game",
            file,
        ],
        None,
    );
    assert_eq!(run.code, 0, "{run:?}");
    let summary: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let text = std::fs::read_to_string(&path).expect("per-game file");
    let _ = std::fs::remove_file(&path);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 200);
    for (i, fields) in lines.iter().enumerate() {
        assert_eq!(fields.len(), 3, "{fields:?}");
        assert_eq!(fields[0], i.to_string());
        assert!(fields[1] == "won" || fields[1] == "lost", "{fields:?}");
        assert!(fields[2].parse::<u32>().is_ok(), "{fields:?}");
    }
    let won = lines.iter().filter(|f| f[1] == "won").count();
    assert_eq!(summary["won"], won);
    let guesses: u64 = lines.iter().map(|f| f[2].parse::<u64>().unwrap_or(0)).sum();
    let per_game = summary["guesses"].as_f64().expect("guesses");
    assert!((per_game - guesses as f64 / 200.0).abs() < 1e-9, "{per_game} {guesses}");
    let bad = cpsolve(&["play", "minesweeper", "--games", "1", "--per-game", "/nonexistent-dir/x.txt"], None);
    assert_eq!(bad.code, 2, "{bad:?}");
}
