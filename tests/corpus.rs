//! Snapshot tests over every `.puz` and `.fzn` file of `tests/corpus/`: each snapshot holds the
//! arguments, the exit status, standard output and standard error, so a change in any of
//! them shows up in review (`cargo insta review`).
//!
//! A file may ask for arguments in a first-line comment: `# cpsolve: --all --format json`
//! (`% cpsolve: ...` in FlatZinc).

mod common;

fn header_args(source: &str) -> Vec<String> {
    source
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# cpsolve:").or_else(|| line.strip_prefix("% cpsolve:")))
        .map(|rest| rest.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

#[test]
fn corpus_snapshots() {
    insta::glob!("corpus/**/*.{puz,fzn}", |path: &std::path::Path| {
        let source = std::fs::read_to_string(path).expect("corpus file is readable");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let relative = path.strip_prefix(&root).expect("corpus lies under tests/").to_string_lossy().to_string();
        let mut args = header_args(&source);
        args.push(relative);
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = common::cpsolve(&arg_refs, None);
        assert!(!run.stderr.contains("panicked"), "cpsolve panicked on {}: {}", path.display(), run.stderr);
        insta::assert_snapshot!(format!(
            "args: {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
            args.join(" "),
            run.code,
            run.stdout,
            run.stderr
        ));
    });
}
