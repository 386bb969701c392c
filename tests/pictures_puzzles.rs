//! `--format svg` over the corpus of the three puzzles with a solver of their own
//! (Minesweeper, Number Match, Le Compte est Bon): every file gets a snapshot of its picture,
//! or of its message when there is none (an input error: exit 2; no solution: exit 1, the
//! text answer on standard error). Every picture parses as XML with an `svg` root and the
//! part that shows the answer (the board, the frames, the trees). The pictures' structure
//! and drawing are checked in detail by `puzzles/tests/pictures.rs`.

mod common;

#[test]
fn puzzle_pictures() {
    insta::glob!("corpus/{minesweeper,numbermatch,compte}/*.{puz,mine}", |path: &std::path::Path| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let relative = path.strip_prefix(&root).expect("corpus lies under tests/").to_string_lossy().to_string();
        let source = std::fs::read_to_string(path).expect("corpus file is readable");
        let mut args = common::header_args(&source);
        args.extend(["--format".to_string(), "svg".to_string(), relative.clone()]);
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = common::cpsolve(&arg_refs, None);
        assert!(!run.stderr.contains("panicked"), "cpsolve panicked on {relative}: {}", run.stderr);
        match run.code {
            0 | 3 => {
                let doc = roxmltree::Document::parse(&run.stdout).unwrap_or_else(|e| panic!("{relative}: {e}"));
                assert_eq!(doc.root_element().tag_name().name(), "svg", "{relative}");
                let shows = |class: &str| doc.descendants().any(|n| n.attribute("class") == Some(class));
                let board = doc.descendants().any(|n| n.attribute("id") == Some("board"));
                assert!(board || shows("frame") || shows("tree"), "{relative}: the answer is drawn");
            }
            _ => assert!(run.stdout.is_empty(), "{relative}: no picture without an answer"),
        }
        insta::assert_snapshot!(format!("exit: {}\n--- stdout\n{}--- stderr\n{}", run.code, run.stdout, run.stderr));
    });
}
