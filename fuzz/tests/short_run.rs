//! A short fuzz run of every target, as part of `cargo test --release --workspace`: five
//! seconds of each in-process target and ten of the binary, with fixed seeds. It will
//! not find deep bugs (the long runs of `notes/fuzzing.md` are for that), but it fails
//! as soon as a change makes a parser or a compiler panic, hang or blow up on inputs a
//! few mutations away from the corpus.
//!
//! The targets run one at a time, not in parallel as test threads would: the budgets are
//! wall-clock times, and two fuzzers sharing two cores (with the binary's children)
//! would make a slow input look like a hang.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use cpsolve_fuzz::campaign::{self, Config, InProcess, Report};
use cpsolve_fuzz::corpus::{self, Seed};
use cpsolve_fuzz::executor::Limits;
use cpsolve_fuzz::{binary, targets};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("fuzz/ lies in the workspace").to_path_buf()
}

fn seeds() -> Vec<Seed> {
    corpus::load(&workspace().join("tests").join("corpus")).expect("the corpus loads")
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cpsolve-fuzz-short-{name}-{}", std::process::id()))
}

fn config(seconds: u64, seed: u64, out: &Path) -> Config {
    Config {
        duration: Duration::from_secs(seconds),
        seed,
        max_inputs: None,
        out: out.to_path_buf(),
        max_len: 65536,
        verbose: true,
    }
}

/// Fails with every finding's input in the message, so the failure can be reproduced
/// from the test log alone.
fn assert_clean(report: &Report) {
    print!("{}", report.summary());
    let mut message = String::new();
    for found in &report.findings {
        message += &format!(
            "\n--- {} ({}): {}\n{}\n",
            found.problem.kind,
            found.path.as_ref().map_or_else(String::new, |p| p.display().to_string()),
            found.problem.message,
            String::from_utf8_lossy(&found.input.bytes)
        );
    }
    assert!(report.findings.is_empty(), "{}{message}", report.summary());
}

fn in_process(name: &str, seed: u64) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // Errors are rendered too, as the binary prints them: a line too long to show whole
    // used to make that take seconds.
    let target = targets::by_name(name).expect("a target of that name");
    let seeds: Vec<Seed> = seeds().into_iter().filter(|s| s.kind == target.kind).collect();
    assert!(!seeds.is_empty(), "no seed for {name}");
    let out = scratch(name);
    let mut runner = InProcess::new(target, Limits::default(), &out);
    let report = campaign::run(&mut runner, &seeds, &config(5, seed, &out));
    assert!(report.inputs > 1000, "too few inputs to mean anything: {}", report.summary());
    assert_clean(&report);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn puz_for_five_seconds() {
    in_process("puz", 1);
}

/// The `.puz` target on seeds nested to the parser's cap ([`cpsolve_fuzz::deep`]), on a
/// stack the size of the binary's: every pass after parsing walks the tree recursively.
#[test]
fn deep_nesting_for_five_seconds() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let target = targets::by_name("puz").expect("a target of that name");
    let out = scratch("deep");
    let mut runner = InProcess::new(target, Limits::default(), &out);
    let report = campaign::run(&mut runner, &cpsolve_fuzz::deep::seeds(5, 40), &config(5, 5, &out));
    assert!(report.inputs > 30, "too few inputs to mean anything: {}", report.summary());
    assert_clean(&report);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn mine_for_five_seconds() {
    in_process("mine", 2);
}

#[test]
fn fzn_for_five_seconds() {
    in_process("fzn", 3);
}

/// The release `cpsolve` binary: built by the same `cargo test --release --workspace` (it
/// is a workspace member), so it lies beside this test's `deps/` directory.
fn locate_cpsolve() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("tests run from target/<profile>/deps");
    let cpsolve = profile_dir.join("cpsolve");
    assert!(
        cpsolve.is_file(),
        "\n\n*** THE BINARY FUZZ TEST CANNOT RUN: no cpsolve binary at {} ***\n\
         Build it first (`cargo build --release`), or run the whole workspace's tests \
         (`cargo test --release --workspace`), which builds it.\n",
        cpsolve.display()
    );
    if let Some(newer) = newer_source(&cpsolve) {
        eprintln!(
            "\n*** WARNING: {} is older than {}: this test fuzzes a stale binary. \
             `cargo test --release --workspace` rebuilds it. ***\n",
            cpsolve.display(),
            newer.display()
        );
    }
    cpsolve
}

/// A source file of the binary newer than the binary itself, if any.
fn newer_source(binary: &Path) -> Option<PathBuf> {
    let built = std::fs::metadata(binary).and_then(|m| m.modified()).ok()?;
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    let mut stack: Vec<PathBuf> =
        ["src", "engine/src", "dsl/src", "models/src", "flatzinc/src"].iter().map(|d| workspace().join(d)).collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).ok()?.filter_map(|e| Some(e.ok()?.path())));
        } else if modified(&path) > built {
            return Some(path);
        }
    }
    None
}

#[test]
fn binary_for_ten_seconds() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cpsolve = locate_cpsolve();
    let memory = binary::supports_memory(&cpsolve).expect("cpsolve --help runs");
    let work = scratch("binary-work");
    let config_binary = binary::Config {
        cpsolve,
        timeout: 1.0,
        memory_mb: memory.then_some(512),
        warn_mb: 512,
        jobs: 2,
        work: work.clone(),
    };
    let out = scratch("binary");
    let mut runner = binary::Binary::new(config_binary);
    let report = campaign::run(&mut runner, &seeds(), &config(10, 4, &out));
    assert!(report.inputs > 50, "too few runs to mean anything: {}", report.summary());
    assert_clean(&report);
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&work);
}
