//! Every model of `tests/corpus/` gives the same answer with learning from failures forced
//! on (`--learning yes`) as with it off (`--learning no`): the same exit status, status and
//! optimum; where the search is an enumeration or a count, the same solutions in the same
//! order (learning keeps those searches chronological); an error, the same message. The
//! snapshots (`corpus.rs`) hold each model's answer under its default; this test holds the
//! other setting to it.
//!
//! Where the search restarts (dom/wdeg, one solution or an optimum wanted), learning also
//! backjumps, so another solution of the same optimum, or another first solution, may be
//! the one printed: there only the status and the optimum are compared.

mod common;

use std::path::Path;

use common::{cpsolve, header_args};
use serde_json::Value;

/// Models whose search with learning forced on takes far longer than without: by default a count never learns and golomb-10's own order
/// finishes within the probe that goes first, and checking them here would cost most of
/// the test's time. magic-square-4 counts 7,040 squares (30 s against 0.9 s:
/// each failure teaches a nogood that a count rarely meets again, and the watches' visits
/// are most of the time), golomb-10 proves its optimum chronologically (26 s against 1.2 s,
/// likewise).
const TOO_SLOW_WITH_LEARNING: [&str; 2] = ["corpus/model/magic-square-4.puz", "corpus/model/golomb-10.puz"];

fn run(args: &[String], file: &str, learning: &str) -> (i32, String) {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--learning", learning, file]);
    let out = cpsolve(&all, None);
    assert!(!out.stderr.contains("panicked"), "cpsolve panicked on {file} with --learning {learning}: {}", out.stderr);
    (out.code, out.stdout)
}

/// The parts of one JSON answer that learning must not change.
fn answer(json: &str, file: &str) -> Vec<(String, Value)> {
    let value: Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{file}: not one JSON object ({e}): {json}"));
    let field = |k: &str| value.get(k).cloned().unwrap_or(Value::Null);
    let mut kept = vec![("status".to_string(), field("status")), ("errors".to_string(), field("errors"))];
    if value.get("objective").is_some() {
        kept.push(("objective".to_string(), field("objective")));
    } else if field("count").as_u64().is_some_and(|n| n > 1) || value.get("solutions").is_none() {
        // An enumeration or a count: chronological either way.
        kept.push(("count".to_string(), field("count")));
        kept.push(("solutions".to_string(), field("solutions")));
    } else {
        kept.push(("count".to_string(), field("count")));
    }
    kept
}

#[test]
fn every_corpus_model_gives_the_same_answer_with_learning_on_and_off() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    let mut stack = vec![root.join("corpus")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the corpus is readable") {
            let path = entry.expect("a corpus entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "puz" || e == "fzn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 100, "the corpus went missing: {} files", files.len());
    let mut checked = 0;
    for path in &files {
        let relative = path.strip_prefix(&root).expect("under tests/").to_string_lossy().replace('\\', "/");
        if TOO_SLOW_WITH_LEARNING.contains(&relative.as_str()) {
            continue;
        }
        let source = std::fs::read_to_string(path).expect("corpus file is readable");
        let mut args = header_args(&source);
        args.extend(["--format".to_string(), "json".to_string()]);
        let file = path.to_string_lossy().to_string();
        let (on_code, on) = run(&args, &file, "yes");
        let (off_code, off) = run(&args, &file, "no");
        assert_eq!(on_code, off_code, "{relative}: exit {on_code} with learning, {off_code} without");
        assert_eq!(answer(&on, &relative), answer(&off, &relative), "{relative}: the answers differ");
        checked += 1;
    }
    assert!(checked + TOO_SLOW_WITH_LEARNING.len() == files.len());
}
