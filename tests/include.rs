//! `include` through the binary: files on disk in a temporary directory, paths relative to
//! the including file (or to the current directory for standard input), errors shown in the
//! file they are in (text and JSON), `check`, `explain` and `split` reading the same way.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{cpsolve_in, Run};

/// A temporary directory holding `files`, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str, files: &[(&str, &str)]) -> Dir {
        let dir = std::env::temp_dir().join(format!("cpsolve-include-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().expect("a file in the directory")).expect("the directory is made");
            fs::write(path, text).expect("the file is written");
        }
        Dir(dir)
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Run {
        cpsolve_in(&self.0, args, stdin)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A model in `models/` using a library in `models/lib/` that includes a shared file in
/// `common/` twice over (the diamond).
const LIBRARY: &[(&str, &str)] = &[
    ("models/magic.puz", "include \"lib/rows.puz\"\ninclude \"lib/cols.puz\"\nx[1, 1] == 2\nsolve count\n"),
    ("models/lib/rows.puz", "include \"../../common/grid.puz\"\nforall i in 1..n: sum([x[i, j] | j in 1..n]) == s\n"),
    ("models/lib/cols.puz", "include \"../../common/grid.puz\"\nforall j in 1..n: sum([x[i, j] | i in 1..n]) == s\n"),
    ("common/grid.puz", "let n = 3\nlet s = 15\nvar x[1..n, 1..n] in 1..9\nalldifferent(x)\n"),
];

#[test]
fn a_model_reads_its_includes_relative_to_its_own_file() {
    let dir = Dir::new("library", LIBRARY);
    // 3×3 squares of distinct digits whose rows and columns sum to 15, with 2 in a corner:
    // 8 of the 72 (counted by brute force over the 9! placements).
    let run = dir.run(&["models/magic.puz"], None);
    assert_eq!((run.code, run.stdout.as_str()), (0, "8 solutions\n"), "{}", run.stderr);
    let run = dir.run(&["check", "models/magic.puz"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The same from another directory.
    let run = dir.run(&["magic.puz"], None);
    assert_eq!(run.code, 2);
    let run = cpsolve_in(&dir.path().join("models"), &["magic.puz"], None);
    assert_eq!((run.code, run.stdout.as_str()), (0, "8 solutions\n"), "{}", run.stderr);
}

#[test]
fn a_model_on_standard_input_reads_includes_relative_to_the_current_directory() {
    let dir = Dir::new("stdin", &[("lib/queens.puz", "let n = 6\nvar q[1..n] in 1..n\nalldifferent(q)\n")]);
    let model = "include \"lib/queens.puz\"\nalldifferent([q[i] + i | i in 1..n])\n\
                 alldifferent([q[i] - i | i in 1..n])\nsolve count\n";
    let run = dir.run(&["-"], Some(model));
    assert_eq!((run.code, run.stdout.as_str()), (0, "4 solutions\n"), "{}", run.stderr);
    let run = dir.run(&["-e", model], None);
    assert_eq!((run.code, run.stdout.as_str()), (0, "4 solutions\n"), "{}", run.stderr);
}

#[test]
fn an_error_in_an_included_file_is_shown_in_that_file() {
    let dir = Dir::new(
        "error",
        &[
            ("main.puz", "let n = 3\ninclude \"sub/lib.puz\"\nsolve all\n"),
            ("sub/lib.puz", "# the library\nvar x[1..n] in 1..n\nalldifferent(y)\n"),
        ],
    );
    let run = dir.run(&["main.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("error: unknown name `y`"), "{}", run.stderr);
    assert!(run.stderr.contains("┌─ sub/lib.puz:3:14"), "{}", run.stderr);
    assert!(run.stderr.contains("3 │ alldifferent(y)"), "{}", run.stderr);

    let run = dir.run(&["--format", "json", "main.puz"], None);
    let json: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(json["file"], "main.puz");
    assert_eq!(json["status"], "error");
    let error = &json["errors"][0];
    assert_eq!((&error["file"], &error["line"], &error["column"]), (&"sub/lib.puz".into(), &3.into(), &14.into()));
}

#[test]
fn a_cycle_and_a_missing_file_are_located_errors() {
    let dir = Dir::new(
        "cycle",
        &[
            ("a.puz", "var x in 1..3\ninclude \"lib/b.puz\"\n"),
            ("lib/b.puz", "include \"../a.puz\"\ninclude \"missing.puz\"\n"),
        ],
    );
    let run = dir.run(&["a.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("error: include cycle: a.puz → lib/b.puz → a.puz"), "{}", run.stderr);
    assert!(run.stderr.contains("┌─ lib/b.puz:1:1"), "{}", run.stderr);
    assert!(run.stderr.contains("error: cannot read `lib/missing.puz`: "), "{}", run.stderr);
    assert!(run.stderr.contains("┌─ lib/b.puz:2:9"), "{}", run.stderr);
    // A directory, or a device, is not read.
    let run = dir.run(&["-e", "include \"lib\"\ninclude \"/dev/zero\""], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("error: cannot read `lib`: not a regular file"), "{}", run.stderr);
    assert!(run.stderr.contains("error: cannot read `/dev/zero`: not a regular file"), "{}", run.stderr);
}

#[test]
fn split_parts_carry_their_includes_inline() {
    let dir = Dir::new("split", LIBRARY);
    let run = dir.run(&["split", "models/magic.puz", "--parts", "2", "--out", "parts"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut total = 0;
    for part in run.stdout.lines() {
        let text = fs::read_to_string(dir.path().join(part)).expect("the part is written");
        assert!(!text.lines().any(|line| line.starts_with("include")), "{text}");
        let run = dir.run(&["--format", "json", part], None);
        let json: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
        total += json["count"].as_u64().expect("a count");
    }
    assert_eq!(total, 8);
}

#[test]
fn explain_reads_includes_too() {
    let dir = Dir::new(
        "explain",
        &[("main.puz", "include \"lib.puz\"\nx + y == 3\nx < y\n"), ("lib.puz", "var x, y in 0..9\n")],
    );
    let run = dir.run(&["explain", "main.puz"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("x=0 y=3"), "{}", run.stdout);
}

#[test]
fn an_included_file_that_is_not_utf8_names_the_first_bad_byte() {
    let dir = Dir::new("not-utf8", &[("a.puz", "var x in 1..3\ninclude \"b.puz\"\n")]);
    fs::write(dir.path().join("b.puz"), b"var y in 1..3\nx > \xff1\n").expect("the file is written");
    let run = dir.run(&["a.puz"], None);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("error: cannot read `b.puz`: not UTF-8 text: byte 0xFF at line 2, column 5"),
        "{}",
        run.stderr
    );
    // Located at the `include` that reads it, with its caret.
    assert!(run.stderr.contains("┌─ a.puz:2:9"), "{}", run.stderr);
    assert!(run.stderr.contains("^^^^^^^ included here"), "{}", run.stderr);
}

#[test]
fn a_model_that_is_not_utf8_is_located_in_json_too() {
    let dir = Dir::new("not-utf8-model", &[]);
    fs::create_dir_all(dir.path()).expect("the directory is made");
    fs::write(dir.path().join("m.puz"), b"var x in 1..3\nx > \xff1\nsolve count\n").expect("the file is written");
    let run = dir.run(&["--format", "json", "m.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not UTF-8 text: byte 0xFF at line 2, column 5"), "{}", run.stderr);
    let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["status"], "error");
    assert_eq!((object["errors"][0]["line"].as_u64(), object["errors"][0]["column"].as_u64()), (Some(2), Some(5)));
}
