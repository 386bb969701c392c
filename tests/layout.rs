//! The workspace's architecture, checked: which cpsolve crate may depend on which.
//!
//! - `cpsolve-engine`: the solver core; no other cpsolve crate (no puzzle, no syntax).
//! - `cpsolve-dsl`: the `.puz` language; no other cpsolve crate (no evaluation, no search).
//! - `cpsolve-flatzinc`: the FlatZinc front end; the engine, and the DSL's diagnostics.
//! - `cpsolve-models`: the models compiled to the engine; the engine and the DSL.
//! - `cpsolve-puzzles`: the puzzles with a solver of their own; the DSL, the models' run
//!   options and framing, and of the engine only its stop request and statistics
//!   (`puzzles/tests/engine_use.rs` checks the names).
//! - `cpsolve` (the binary), `cpsolve-fuzz` and `cpsolve-python` (the Python package's
//!   native module) may use every crate.

use std::path::Path;

const ALLOWED: &[(&str, &[&str])] = &[
    ("engine", &[]),
    ("dsl", &[]),
    ("flatzinc", &["cpsolve-engine", "cpsolve-dsl"]),
    ("models", &["cpsolve-engine", "cpsolve-dsl"]),
    ("puzzles", &["cpsolve-engine", "cpsolve-dsl", "cpsolve-models"]),
];

/// The cpsolve crates named in the `[dependencies]` table of a manifest (not dev- or build-).
fn cpsolve_dependencies(manifest: &str) -> Vec<String> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && line.starts_with("cpsolve-") {
            found.push(line.split(['=', '.', ' ']).next().unwrap_or_default().to_string());
        }
    }
    found
}

#[test]
fn each_crate_depends_only_on_the_crates_its_layer_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).expect("workspace manifest");
    for (dir, allowed) in ALLOWED {
        assert!(workspace.contains(&format!("\"{dir}\"")), "{dir}/ is no longer a workspace member");
        let manifest = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).expect("crate manifest");
        for dependency in cpsolve_dependencies(&manifest) {
            assert!(
                allowed.contains(&dependency.as_str()),
                "{dir}/ depends on {dependency}; its layer allows only {allowed:?} (see tests/layout.rs)"
            );
        }
    }
}

#[test]
fn the_manifest_reader_sees_only_normal_dependencies() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\ncpsolve-engine.workspace = true\nserde_json = \"1\"\n\
                    cpsolve-dsl = { path = \"../dsl\" }\n[dev-dependencies]\ncpsolve-models.workspace = true\n";
    assert_eq!(cpsolve_dependencies(manifest), ["cpsolve-engine", "cpsolve-dsl"]);
}
