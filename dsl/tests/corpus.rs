//! Parses every `.puz` file of the corpus: valid files must parse (with well-nested spans),
//! and files under `errors/` are snapshotted as the user would see them.
//!
//! The corpus lives in the workspace's `tests/corpus` (or, before it is copied there, in
//! the shared `corpus` next to the workspace). Without either the test does nothing.

mod common;

use std::path::{Path, PathBuf};

use cpsolve_dsl::{parse, render};

/// Error files whose fault is syntactic. The others in `errors/` (an unknown name, a bad
/// cell) parse fine: the model rejects them.
const SYNTAX_ERRORS: &[&str] = &["compte-no-arrow.puz", "crypt-no-equals.puz", "queens-bad-number.puz"];

fn corpus_root() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    Some(manifest.join("../tests/corpus")).filter(|dir| dir.is_dir())
}

fn puz_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            puz_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "puz") {
            found.push(path);
        }
    }
}

/// Every corpus file, as (path relative to the corpus with `/` separators, contents).
fn corpus() -> Vec<(String, String)> {
    let Some(root) = corpus_root() else {
        eprintln!("no corpus found; skipping");
        return Vec::new();
    };
    let mut paths = Vec::new();
    puz_files(&root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&root).unwrap_or(&path);
            let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, source)
        })
        .collect()
}

#[test]
fn valid_files_parse() {
    let files = corpus();
    for (name, source) in files.iter().filter(|(name, _)| !name.starts_with("errors/")) {
        match parse(source) {
            Ok(file) => {
                assert!(!file.items.is_empty(), "{name}: no statement");
                common::check_spans(&file, source);
            }
            Err(errors) => panic!("{name} does not parse:\n{}", render(name, source, &errors, false)),
        }
    }
}

#[test]
fn error_files_give_located_messages() {
    for (name, source) in corpus().iter().filter(|(name, _)| name.starts_with("errors/")) {
        let stem = name.trim_start_matches("errors/");
        let snapshot = match parse(source) {
            Ok(_) => {
                assert!(!SYNTAX_ERRORS.contains(&stem), "{name} should not parse");
                "parses: the fault is for the model to report\n".to_owned()
            }
            Err(errors) => {
                for error in &errors {
                    assert!(error.span.end <= source.len(), "{name}: {error:?}");
                }
                render(name, source, &errors, false)
            }
        };
        insta::assert_snapshot!(format!("error_{}", stem.trim_end_matches(".puz")), snapshot);
    }
}

#[test]
fn syntax_error_files_exist_in_the_corpus() {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    for stem in SYNTAX_ERRORS {
        let name = format!("errors/{stem}");
        let (_, source) = files.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{name} missing"));
        assert!(parse(source).is_err(), "{name}");
    }
}

#[test]
fn syntax_trees_of_reference_files() {
    let files = corpus();
    for name in ["model/send-more-money.puz", "model/sudoku.puz", "model/queens.puz", "minesweeper/beginner.puz"] {
        let Some((_, source)) = files.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let file = parse(source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let snapshot = name.trim_end_matches(".puz").replace('/', "_");
        insta::assert_debug_snapshot!(format!("ast_{snapshot}"), file);
    }
}
