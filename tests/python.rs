//! The Python package's tests (`python/tests/`, pytest), run from `cargo test` so that the
//! one test command covers them. They need the package installed with its test
//! dependencies (`pip install ./python pytest cpmpy "dask[distributed]"`, which `.ci/run`
//! does): without them this test fails and says so, it does not skip.

use std::path::Path;
use std::process::Command;

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

#[test]
fn the_python_package_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let check = Command::new(python())
        .args(["-c", "import cpsolve, pytest, numpy"])
        .current_dir(root.join("python").join("tests"))
        .output();
    match check {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "the Python package or its test dependencies are not installed:\n{}\n\
             install them with: pip install ./python pytest cpmpy \"dask[distributed]\"",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!("cannot run {}: {e} (set PYTHON to the interpreter to test with)", python()),
    }
    // From `python/tests` with the repository outside the import path: the installed package
    // is tested, not the sources beside it (which have no native module).
    let status = Command::new(python())
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "."])
        .current_dir(root.join("python").join("tests"))
        .status()
        .expect("run pytest");
    assert!(status.success(), "the Python tests failed (pytest exit {status})");
}
