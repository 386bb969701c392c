//! The puzzles with a solver of their own use the engine only for its stop request and its
//! statistics record (see the crate's documentation). This test reads every source file of
//! the crate and fails on any other engine name, so that a puzzle cannot start leaning on
//! the engine's variables, propagators or search without the architecture saying so.

use std::path::{Path, PathBuf};

/// What a puzzle's own solver may take from `cpsolve_engine`.
const ALLOWED: &[&str] = &["StopToken", "Stop", "Stats"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The first names after each `cpsolve_engine::` in `source`: `a` in `cpsolve_engine::a::b`,
/// and `a`, `b` in `cpsolve_engine::{a, b::c}`.
fn engine_names(source: &str) -> Vec<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut names = Vec::new();
    for (at, _) in source.match_indices("cpsolve_engine::") {
        let rest = &source[at + "cpsolve_engine::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(group.split(',').map(|part| ident(part.trim())).filter(|n| !n.is_empty()));
        } else {
            names.push(ident(rest));
        }
    }
    names
}

#[test]
fn puzzles_use_only_the_engines_stop_request_and_statistics() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    files.sort();
    assert!(files.len() > 10, "the crate's sources were not found");
    let mut uses = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable source file");
        for name in engine_names(&source) {
            uses += 1;
            assert!(
                ALLOWED.contains(&name.as_str()),
                "{} uses `cpsolve_engine::{name}`; a puzzle with its own solver may use only {ALLOWED:?}",
                file.display()
            );
        }
    }
    assert!(uses > 0, "no engine use found at all: the scan is broken");
}

#[test]
fn the_scan_sees_grouped_and_nested_names() {
    assert_eq!(engine_names("use cpsolve_engine::{StopToken, Stop};"), ["StopToken", "Stop"]);
    assert_eq!(engine_names("let s = cpsolve_engine::Solver::new();"), ["Solver"]);
    assert_eq!(engine_names("use cpsolve_engine::{search::Limits, Stats};"), ["search", "Stats"]);
}
