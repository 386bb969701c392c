//! The Python package's tests (`python/tests/`, pytest), run from `cargo test` so that the
//! one test command covers them, on the package built from this checkout.
//!
//! The test makes its own environment under the target folder: a virtual environment with
//! the test dependencies from PyPI (pytest, numpy, CPMpy, Dask; installed once, kept), and
//! the package built from `python/` by maturin as a user's `pip install ./python` builds it,
//! reinstalled at every run so that the package tested is the sources', never an older
//! install. Its Rust build has its own target folder there (the test command holds the
//! workspace's), incremental from one run to the next. Without Python or the package
//! registry this test fails and says why: it does not skip.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The interpreter that makes the environment: `PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn run(what: &str, command: &mut Command) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The environment's interpreter, made (and its test dependencies installed) on first use.
fn environment(base: &Path) -> PathBuf {
    let venv = base.join("venv");
    let interpreter = venv.join("bin").join("python");
    let ready = venv.join("dependencies-installed");
    if !ready.exists() {
        run("making the virtual environment", Command::new(python()).args(["-m", "venv"]).arg(&venv));
        run(
            "installing the test dependencies",
            Command::new(&interpreter).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "pytest",
                "numpy",
                "cpmpy",
                "dask[distributed]",
            ]),
        );
        std::fs::write(&ready, "").expect("the environment's mark is written");
    }
    interpreter
}

#[test]
fn the_python_package_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python");
    std::fs::create_dir_all(&base).expect("the test's folder under target/");
    let interpreter = environment(&base);
    run(
        "building and installing the package from python/",
        Command::new(&interpreter)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall", "--no-deps"])
            .arg(root.join("python"))
            .env("CARGO_TARGET_DIR", base.join("build")),
    );
    // From `python/tests` with the repository outside the import path: the installed package
    // is tested, not the sources beside it (which have no native module).
    let status = Command::new(&interpreter)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "."])
        .current_dir(root.join("python").join("tests"))
        .status()
        .expect("run pytest");
    assert!(status.success(), "the Python tests failed (pytest exit {status})");
}
