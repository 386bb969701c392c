//! A property of every command: under any limit, a run either says it stopped (exit 3,
//! "stopped") or gives exactly the answer of the run without the limit. A partial answer
//! presented as the answer (a count too small, an optimum not proven, a table of fewer
//! targets) breaks it.
//!
//! The commands are small models of every kind (counting, listing, optimising, split parts
//! and their merge, the Compte est Bon table, Minesweeper, Number Match, Compte est Bon),
//! the limits tiny: `--nodes` (engine searches), `--timeout` of a few milliseconds,
//! `--memory` of a few megabytes. Whether a timeout strikes depends on the machine; the
//! property holds either way, so the test does not depend on timing.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use common::{cpsolve_in, Run};
use proptest::prelude::*;

/// A limit added to a command line.
#[derive(Debug, Clone)]
enum Limit {
    Nodes(u64),
    /// Milliseconds.
    Timeout(u32),
    /// Megabytes.
    Memory(u64),
}

impl Limit {
    fn args(&self) -> Vec<String> {
        match self {
            Limit::Nodes(n) => vec!["--nodes".into(), n.to_string()],
            Limit::Timeout(ms) => vec!["--timeout".into(), format!("{}", f64::from(*ms) / 1000.0)],
            Limit::Memory(mb) => vec!["--memory".into(), mb.to_string()],
        }
    }
}

/// The commands: their arguments, and whether they take `--nodes` and `--timeout`.
const SOLVES: &[&[&str]] = &[
    &["--count", "-e", "queens n = 7"],
    &["--all", "-e", "queens n = 6"],
    &["--count", "--threads", "2", "-e", "queens n = 8"],
    &["--all", "-e", "cryptarithm SEND+MORE=MONEY"],
    &["--all", "corpus/model/magic-square-3.puz"],
    &["corpus/model/futoshiki.puz"],
    &["corpus/model/coin-change.puz"],
    &["corpus/model/knapsack.puz"],
    &["corpus/model/golomb-8.puz"],
    &["--limit", "3", "corpus/model/knapsack.puz"],
    &["corpus/minesweeper/beginner.puz"],
    &["corpus/numbermatch/one-add.puz"],
    &["corpus/compte/compte-952.puz"],
];
const TABLE: &[&str] = &["table", "compte", "--tiles", "1 2 3 4 5", "--targets", "1..200"];
/// Models split into parts, each part run with the limit, then merged (without one).
const SPLITS: &[(&str, &str, u32)] = &[
    ("count.puz", "queens n = 8\nsolve count\n", 3),
    ("all.puz", "var x, y, z in 0..4\nx + y + z == 6\nx <= y\nsolve all\n", 2),
    ("opt.puz", "var x, y, z in 0..6\nx + 2*y + 3*z <= 10\nx != y\nmaximize 2*x + 3*y + 4*z - x*z\n", 4),
];

/// One command of the property: which one, and its limit.
#[derive(Debug, Clone)]
enum Command {
    Solve(usize),
    Table,
    Split(usize),
}

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The scratch directory holding the split models and their parts, made once.
fn split_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("cpsolve-limits-proptest-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("the directory is made");
        for (name, model, parts) in SPLITS {
            fs::write(dir.join(name), model).expect("the model is written");
            let run =
                cpsolve_in(&dir, &["split", name, "--parts", &parts.to_string(), "--out", &format!("{name}.d")], None);
            assert_eq!(run.code, 0, "{}", run.stderr);
        }
        dir
    })
}

/// Runs each part of split `i` with `extra`, then merges their results.
fn split_and_merge(i: usize, extra: &[String], tag: &str) -> Run {
    let dir = split_dir();
    let (name, _, parts) = SPLITS[i];
    let stem = name.trim_end_matches(".puz");
    let mut results = Vec::new();
    for k in 1..=parts {
        let part = format!("{name}.d/{stem}-part-{k}-of-{parts}.puz");
        let mut args: Vec<&str> = vec!["--format", "json"];
        args.extend(extra.iter().map(String::as_str));
        args.push(&part);
        let run = cpsolve_in(dir, &args, None);
        let result = format!("{name}.d/{stem}-{k}-{tag}.json");
        fs::write(dir.join(&result), run.stdout).expect("the result is written");
        results.push(result);
    }
    let mut args = vec!["merge"];
    args.extend(results.iter().map(String::as_str));
    cpsolve_in(dir, &args, None)
}

fn run(command: &Command, limit: Option<&Limit>) -> Run {
    let extra: Vec<String> = limit.map(Limit::args).unwrap_or_default();
    match command {
        Command::Solve(i) => {
            let mut args: Vec<&str> = extra.iter().map(String::as_str).collect();
            args.extend_from_slice(SOLVES[*i]);
            cpsolve_in(&tests_dir(), &args, None)
        }
        Command::Table => {
            let mut args: Vec<&str> = TABLE.to_vec();
            args.extend(extra.iter().map(String::as_str));
            cpsolve_in(&tests_dir(), &args, None)
        }
        Command::Split(i) => {
            // Results of different runs of the property must not overwrite each other.
            static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let tag = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed).to_string();
            split_and_merge(*i, &extra, &tag)
        }
    }
}

/// The run without a limit, computed once per command.
fn unlimited(command: &Command) -> (i32, String) {
    static CACHE: OnceLock<Mutex<HashMap<String, (i32, String)>>> = OnceLock::new();
    let key = format!("{command:?}");
    let cache = CACHE.get_or_init(Default::default);
    if let Some(answer) = cache.lock().expect("the cache").get(&key) {
        return answer.clone();
    }
    let full = run(command, None);
    // 3 only for the command with its own `--limit`.
    assert!([0, 1, 3].contains(&full.code), "{command:?} without a limit: {}{}", full.stdout, full.stderr);
    let answer = (full.code, full.stdout);
    cache.lock().expect("the cache").insert(key, answer.clone());
    answer
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        6 => (0..SOLVES.len()).prop_map(Command::Solve),
        1 => Just(Command::Table),
        2 => (0..SPLITS.len()).prop_map(Command::Split),
    ]
}

fn limit(command: &Command) -> BoxedStrategy<Limit> {
    let timeout = (0u32..=5).prop_map(Limit::Timeout);
    let memory = (1u64..=40).prop_map(Limit::Memory);
    match command {
        // `table` has no node limit.
        Command::Table => prop_oneof![timeout, memory].boxed(),
        _ => prop_oneof![(1u64..=300).prop_map(Limit::Nodes), timeout, memory].boxed(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_limited_run_says_stopped_or_gives_the_unlimited_answer(
        (command, limit) in command().prop_flat_map(|c| (Just(c.clone()), limit(&c)))
    ) {
        let expected = unlimited(&command);
        let limited = run(&command, Some(&limit));
        if limited.code == 3 {
            prop_assert!(
                limited.stdout.contains("stopped") || limited.stderr.contains("stopped"),
                "{command:?} {limit:?}: exit 3 without saying stopped: {}{}", limited.stdout, limited.stderr
            );
        } else {
            prop_assert_eq!((limited.code, limited.stdout.as_str()), (expected.0, expected.1.as_str()),
                "{:?} {:?}: {}", command, limit, limited.stderr);
        }
    }
}
