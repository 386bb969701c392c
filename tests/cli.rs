//! The command line contract of docs/cli.md and docs/json.md: inputs, modes, limits, exit statuses, JSON.

mod common;

use common::cpsolve;
use serde_json::Value;

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

#[test]
fn send_more_money_prints_the_sum_written_out() {
    let run = cpsolve(&["corpus/cryptarithm/send-more-money.puz"], None);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "SEND + MORE = MONEY\n9567 + 1085 = 10652\nS=9 E=5 N=6 D=7 M=1 O=0 R=8 Y=2\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn json_output_follows_the_spec() {
    let run = cpsolve(&["--format", "json", "corpus/cryptarithm/send-more-money.puz"], None);
    assert_eq!(run.code, 0);
    let objects = json_lines(&run.stdout);
    assert_eq!(objects.len(), 1);
    let o = &objects[0];
    assert_eq!(o["file"], "corpus/cryptarithm/send-more-money.puz");
    assert_eq!(o["kind"], "cryptarithm");
    assert_eq!(o["status"], "solved");
    assert_eq!(o["count"], 1);
    assert_eq!(o["solutions"][0]["M"], 1);
    assert_eq!(o["solutions"][0]["Y"], 2);
    assert!(o.get("stats").is_none(), "timings only with --stats");
    let with_stats = json_lines(&cpsolve(&["--stats", "--format", "json", "-e", "cryptarithm A+A=B"], None).stdout);
    for key in ["nodes", "failures", "propagations", "time_ms"] {
        assert!(with_stats[0]["stats"].get(key).is_some(), "stats.{key}");
    }
}

#[test]
fn several_files_give_one_json_object_each_in_order() {
    let run = cpsolve(
        &[
            "--count",
            "--format",
            "json",
            "corpus/cryptarithm/send-more-money.puz",
            "corpus/cryptarithm/moi-toi-lui-elle-nous.puz",
        ],
        None,
    );
    let objects = json_lines(&run.stdout);
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["count"], 1);
    assert_eq!(objects[1]["file"], "corpus/cryptarithm/moi-toi-lui-elle-nous.puz");
    assert_eq!(objects[1]["count"], 160);
    assert!(objects[1].get("solutions").is_none(), "no solutions with --count");
}

#[test]
fn models_come_from_stdin_and_inline() {
    let stdin = cpsolve(&["--count", "-"], Some("cryptarithm MOI+TOI+LUI+ELLE=NOUS\n"));
    assert_eq!((stdin.code, stdin.stdout.as_str()), (0, "160 solutions\n"));
    let inline = cpsolve(&["--count", "-e", "cryptarithm SEND+MORE=MONEY"], None);
    assert_eq!((inline.code, inline.stdout.as_str()), (0, "1 solution\n"));
}

#[test]
fn a_solution_limit_stops_cleanly_with_status_3() {
    let run = cpsolve(&["--limit", "3", "corpus/cryptarithm/moi-toi-lui-elle-nous.puz"], None);
    assert_eq!(run.code, 3);
    assert_eq!(run.stdout.matches("MOI + TOI").count(), 3, "the three solutions shown");
    assert!(run.stdout.ends_with("stopped: solution limit of 3 reached; 3 solutions found so far\n"), "{}", run.stdout);
    // A limit that the model does not reach is no limit at all.
    let exact = cpsolve(&["--limit", "2", "--format", "json", "corpus/cryptarithm/rouge-gorge-oiseau.puz"], None);
    assert_eq!(exact.code, 0);
    assert_eq!(json_lines(&exact.stdout)[0]["status"], "solved");
}

#[test]
fn a_time_limit_stops_cleanly_with_status_3() {
    let run =
        cpsolve(&["--timeout", "0", "--all", "--format", "json", "corpus/cryptarithm/moi-toi-lui-elle-nous.puz"], None);
    let o = &json_lines(&run.stdout)[0];
    // A zero budget is spent before the model is compiled, whatever the load: the answer
    // must not depend on when the watchdog thread is scheduled.
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(o["status"], "limit");
    assert_eq!(o["stopped"], "time");
}

#[test]
fn too_many_letters_is_a_proven_no_solution() {
    let run = cpsolve(&["-e", "cryptarithm ABCDE + FGHIJ = KLMNOP"], None);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "no solution: 16 distinct letters, but base 10 has only 10 digits, and letters stand for distinct digits\n"
    );
    let json = cpsolve(&["--format", "json", "-e", "cryptarithm ABCDE + FGHIJ = KLMNOP"], None);
    assert_eq!(json_lines(&json.stdout)[0]["status"], "unsatisfiable");
}

#[test]
fn other_bases_and_leading_zeros() {
    // In base 2 with leading zeros allowed: A+A=B has A=0,B=0 excluded (distinct), A=1 gives 10.
    let run = cpsolve(&["--all", "--format", "json", "-e", "cryptarithm A + A = BA\noption base = 2"], None);
    let o = &json_lines(&run.stdout)[0];
    assert_eq!(o["count"], 0, "{}", run.stdout);
    // Base 16: a solution exists for SEND+MORE=MONEY and digits print as hex.
    let hex = cpsolve(&["-e", "cryptarithm SEND+MORE=MONEY\noption base = 16"], None);
    assert_eq!(hex.code, 0, "{}", hex.stderr);
    let leading = cpsolve(&["--count", "-e", "cryptarithm AB + AB = CD\noption leading-zeros = true"], None);
    let strict = cpsolve(&["--count", "-e", "cryptarithm AB + AB = CD"], None);
    let count = |s: &str| s.split_whitespace().next().and_then(|n| n.parse::<u32>().ok()).expect("a count");
    assert!(count(&leading.stdout) > count(&strict.stdout), "{} vs {}", leading.stdout, strict.stdout);
}

#[test]
fn coefficients_constants_and_subtraction() {
    let coef = cpsolve(&["--format", "json", "-e", "cryptarithm MARI+FEMME+12*ENFANT=FAMILLE"], None);
    let seed = cpsolve(&["--format", "json", "-e", "cryptarithm MARI+FEMME+12.ENFANT=FAMILLE"], None);
    assert_eq!(json_lines(&coef.stdout)[0]["solutions"], json_lines(&seed.stdout)[0]["solutions"]);
    let minus = cpsolve(&["--format", "json", "-e", "cryptarithm MONEY - MORE = SEND"], None);
    let plus = cpsolve(&["--format", "json", "-e", "cryptarithm SEND + MORE = MONEY"], None);
    assert_eq!(json_lines(&minus.stdout)[0]["solutions"][0]["Y"], json_lines(&plus.stdout)[0]["solutions"][0]["Y"]);
    let constant = cpsolve(&["-e", "cryptarithm MOT+MOT+MOT+1=TOM"], None);
    assert!(
        constant.stdout.starts_with("MOT + MOT + MOT + 1 = TOM\n247 + 247 + 247 + 1 = 742\n"),
        "{}",
        constant.stdout
    );
}

#[test]
fn bad_input_exits_2_with_a_located_message() {
    let run = cpsolve(&["-e", "cryptarithm SEND+MORE=MONEY\noption base = 99"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("<expr>:2:15"), "{}", run.stderr);
    let missing = cpsolve(&["no-such-file.puz"], None);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("cannot read `no-such-file.puz`"), "{}", missing.stderr);
    let flag = cpsolve(&["--no-such-flag", "x.puz"], None);
    assert_eq!(flag.code, 2);
}

#[test]
fn check_compiles_without_solving() {
    let ok = cpsolve(&["check", "corpus/cryptarithm/send-more-money.puz"], None);
    assert_eq!(ok.code, 0);
    assert!(ok.stdout.starts_with("corpus/cryptarithm/send-more-money.puz: ok"), "{}", ok.stdout);
    let bad = cpsolve(&["check", "corpus/errors/crypt-no-equals.puz"], None);
    assert_eq!(bad.code, 2);
}

#[test]
fn the_worst_status_of_several_models_wins() {
    let run = cpsolve(&["-e", "cryptarithm SEND+MORE=MONEY", "-e", "cryptarithm ABCDE+FGHIJ=KLMNOP"], None);
    assert_eq!(run.code, 1);
    let with_error = cpsolve(&["-e", "cryptarithm A+B=", "-e", "cryptarithm ABCDE+FGHIJ=KLMNOP"], None);
    assert_eq!(with_error.code, 2);
}

#[test]
fn every_error_file_exits_2_with_file_line_column_and_no_panic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/errors");
    for entry in std::fs::read_dir(dir).expect("errors corpus") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_string_lossy().to_string();
        let relative = format!("corpus/errors/{name}");
        let run = cpsolve(&[&relative], None);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
        let located = format!("{relative}:");
        let at = run.stderr.find(&located).unwrap_or_else(|| panic!("{name}: no location in {}", run.stderr));
        let rest = run.stderr[at + located.len()..].lines().next().expect("the location line");
        let mut parts = rest.splitn(3, ':');
        let line: u32 = parts.next().and_then(|l| l.parse().ok()).expect("a line number");
        let column: u32 = parts.next().and_then(|c| c.trim_end().parse().ok()).expect("a column number");
        assert!(line >= 1 && column >= 1, "{name}");
        assert!(run.stderr.contains('^'), "{name}: a caret under the fault: {}", run.stderr);
    }
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // A million solutions: far more output than a pipe buffer holds.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(["--all", "-e", "var x[1..6] in 0..9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpsolve runs");
    let mut stdout = child.stdout.take().expect("piped");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let output = child.wait_with_output().expect("cpsolve ends");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}
