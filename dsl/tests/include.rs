//! `include`: the included statements spliced in place, paths relative to the including
//! file, a file read once (diamonds), cycles and unreadable files as located errors, and
//! every span and error naming its own file. The files live in a map, read by a loader as
//! the binary's reads the disk (`src/includes.rs`).

mod common;

use std::collections::HashMap;
use std::io;
use std::path::{Component, Path, PathBuf};

use common::{check_spans, show};
use cpsolve_dsl::ast::{File, Item};
use cpsolve_dsl::{parse_with_includes, render_map, Diagnostic, Loaded, Parsed, Root, SourceMap};

/// `a/b/../c` → `a/c`: the test's stand-in for a canonical path.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Reads `main` (at `main.puz` in the current directory) with `files` as the disk; records
/// the paths the loader was asked for.
fn read_with(main: &str, files: &[(&str, &str)], asked: &mut Vec<String>) -> Parsed {
    let disk: HashMap<PathBuf, &str> = files.iter().map(|&(path, text)| (normal(Path::new(path)), text)).collect();
    let root = Root { label: "main.puz", text: main, dir: Path::new(""), key: Some(PathBuf::from("main.puz")) };
    parse_with_includes(root, |path: &Path| {
        asked.push(path.display().to_string());
        let key = normal(path);
        match disk.get(&key) {
            Some(text) => Ok(Loaded { key, text: (*text).to_owned() }),
            None if key == Path::new("main.puz") => Ok(Loaded { key, text: main.to_owned() }),
            None => Err(io::Error::new(io::ErrorKind::NotFound, "No such file or directory")),
        }
    })
}

fn read(main: &str, files: &[(&str, &str)]) -> Parsed {
    read_with(main, files, &mut Vec::new())
}

fn parsed_ok(main: &str, files: &[(&str, &str)]) -> (SourceMap, File) {
    let Parsed { map, file } = read(main, files);
    let file = file.unwrap_or_else(|errors| panic!("{}", render_map(&map, &errors, false)));
    check_spans(&file, map.text());
    (map, file)
}

fn read_errors(main: &str, files: &[(&str, &str)]) -> (SourceMap, Vec<Diagnostic>) {
    let Parsed { map, file } = read(main, files);
    (map, file.expect_err("should not read"))
}

/// Each item as its source text (every span slices the map's text).
fn texts(map: &SourceMap, file: &File) -> Vec<String> {
    file.items.iter().map(|item| map.text()[item.span.clone()].to_owned()).collect()
}

#[test]
fn included_statements_take_the_place_of_the_include() {
    let (map, file) = parsed_ok(
        "let n = 3\ninclude \"lib.puz\"\nx[1] > 1\n",
        &[("lib.puz", "var x[1..n] in 1..n\nalldifferent(x)\n")],
    );
    assert_eq!(texts(&map, &file), ["let n = 3", "var x[1..n] in 1..n", "alldifferent(x)", "x[1] > 1"]);
    assert!(!file.items.iter().any(|item| matches!(item.node, Item::Include(_))));
    assert_eq!(map.files().iter().map(|f| f.label.as_str()).collect::<Vec<_>>(), ["main.puz", "lib.puz"]);
    // The spans of the included items lie in the included file's stretch.
    let lib = &map.files()[1];
    assert!(file.items[1].span.start >= lib.base && file.items[2].span.end <= lib.base + lib.len);
}

#[test]
fn without_includes_the_tree_is_the_one_parse_gives() {
    let source = "let n = 3\nvar x in 1..n\nx > 1; solve all\n";
    let (map, file) = parsed_ok(source, &[]);
    assert_eq!(Ok(file), cpsolve_dsl::parse(source));
    assert_eq!(map.inlined(), source);
}

#[test]
fn an_included_file_may_include_others_relative_to_its_own_directory() {
    let mut asked = Vec::new();
    let parsed = read_with(
        "include \"lib/a.puz\"\nx > y",
        &[
            ("lib/a.puz", "include \"b.puz\"\ninclude \"deeper/c.puz\"\nvar x in 1..9"),
            ("lib/b.puz", "let k = 2"),
            ("lib/deeper/c.puz", "include \"../b.puz\"\ninclude \"../../top.puz\"\nvar y in 1..k"),
            ("top.puz", "let t = 1"),
        ],
        &mut asked,
    );
    let file = parsed.file.expect("reads");
    assert_eq!(texts(&parsed.map, &file), ["let k = 2", "let t = 1", "var y in 1..k", "var x in 1..9", "x > y"]);
    assert_eq!(
        asked,
        ["lib/a.puz", "lib/b.puz", "lib/deeper/c.puz", "lib/deeper/../b.puz", "lib/deeper/../../top.puz"]
    );
    let labels: Vec<&str> = parsed.map.files().iter().map(|f| f.label.as_str()).collect();
    assert_eq!(labels, ["main.puz", "lib/a.puz", "lib/b.puz", "lib/deeper/c.puz", "lib/deeper/../../top.puz"]);
}

#[test]
fn a_file_included_twice_is_read_once() {
    // The diamond: main includes left and right, both include common.
    let (map, file) = parsed_ok(
        "include \"left.puz\"\ninclude \"right.puz\"\ninclude \"./common.puz\"\nsolve all",
        &[
            ("left.puz", "include \"common.puz\"\nvar l in 1..n"),
            ("right.puz", "include \"common.puz\"\nvar r in 1..n"),
            ("common.puz", "let n = 4"),
        ],
    );
    assert_eq!(texts(&map, &file), ["let n = 4", "var l in 1..n", "var r in 1..n", "solve all"]);
    assert_eq!(map.files().len(), 4);
}

#[test]
fn a_cycle_is_an_error_at_the_include_that_closes_it() {
    let (map, errors) = read_errors(
        "let n = 1\ninclude \"a.puz\"",
        &[("a.puz", "include \"b.puz\""), ("b.puz", "let m = 2\ninclude \"a.puz\"")],
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "include cycle: a.puz → b.puz → a.puz");
    assert_eq!(&map.text()[errors[0].span.clone()], "include \"a.puz\"");
    let at = map.locate(errors[0].span.start).expect("located");
    assert_eq!((at.label, at.line, at.column), ("b.puz", 2, 1));

    let (_, errors) = read_errors("include \"main.puz\"", &[]);
    assert_eq!(errors[0].message, "include cycle: main.puz → main.puz");
    let (_, errors) = read_errors("include \"a.puz\"", &[("a.puz", "include \"./a.puz\"")]);
    assert_eq!(errors[0].message, "include cycle: a.puz → a.puz");
}

#[test]
fn a_missing_file_is_an_error_at_its_path_with_the_reason() {
    let (map, errors) = read_errors("let n = 1\ninclude \"nowhere/lib.puz\"\nx > 1", &[]);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "cannot read `nowhere/lib.puz`: No such file or directory");
    assert_eq!(&map.text()[errors[0].span.clone()], "\"nowhere/lib.puz\"");
    let rendered = render_map(&map, &errors, false);
    assert!(rendered.contains("main.puz:2:9"), "{rendered}");
}

#[test]
fn errors_inside_an_included_file_are_shown_in_that_file() {
    let Parsed { map, file } =
        read("let n = 3\ninclude \"lib.puz\"\nx == y\n", &[("lib.puz", "# the library\nvar x in 1..n\nx > @\n")]);
    let mut errors = file.expect_err("`@` is not part of the language");
    // A later stage (the model compiler) reports with spans of the model, in any file.
    let y = map.text().find('y').expect("y is in the model");
    errors.push(Diagnostic::new("unknown name `y`", y..y + 1));
    let rendered = render_map(&map, &errors, false);
    assert!(rendered.contains("┌─ lib.puz:3:5"), "{rendered}");
    assert!(rendered.contains("3 │ x > @"), "{rendered}");
    assert!(rendered.contains("┌─ main.puz:3:6"), "{rendered}");
    let at = map.locate(errors[0].span.start).expect("located");
    assert_eq!((at.label, at.file, at.line, at.column), ("lib.puz", 1, 3, 5));
}

#[test]
fn the_errors_of_several_files_are_reported_together() {
    let (map, errors) = read_errors(
        "include \"a.puz\"\ninclude \"b.puz\"\nx > > 1\nlet k = 1",
        &[("a.puz", "var x in 1..@"), ("b.puz", "let n = ")],
    );
    let places: Vec<String> = errors
        .iter()
        .map(|d| map.locate(d.span.start).map(|at| format!("{}:{}", at.label, at.line)).unwrap_or_default())
        .collect();
    assert_eq!(places, ["main.puz:3", "a.puz:1", "b.puz:1"]);
}

#[test]
fn an_error_at_the_end_of_an_included_file_stays_in_it() {
    let (map, errors) = read_errors("include \"lib.puz\"\nlet n = 1", &[("lib.puz", "var x in 1..")]);
    let rendered = render_map(&map, &errors, false);
    assert!(rendered.contains("unexpected end of file"), "{rendered}");
    assert!(rendered.contains("┌─ lib.puz:1:13"), "{rendered}");
}

#[test]
fn minizinc_globals_are_not_needed() {
    // MiniZinc's whole library, as a MiniZinc model includes it, stands for nothing.
    let (_, file) = parsed_ok("include \"globals.mzn\";\nvar x in 1..3", &[]);
    assert_eq!(file.items.len(), 1, "{:?}", file.items);
    // Nor do its files of one global each, even where a file of that name lies beside it.
    let (_, file) = parsed_ok(
        "include \"alldifferent.mzn\";\ninclude \"lex_lesseq.mzn\";\nvar x in 1..3",
        &[("alldifferent.mzn", "junk junk")],
    );
    assert_eq!(file.items.len(), 1, "{:?}", file.items);
    // Another missing `.mzn` file is an error, with a note.
    let (_, errors) = read_errors("include \"mylib.mzn\"", &[]);
    assert!(errors[0].message.starts_with("cannot read `mylib.mzn`"), "{errors:?}");
    assert!(errors[0].notes[0].contains("built in"), "{:?}", errors[0].notes);
}

#[test]
fn inlining_gives_one_file_that_parses_to_the_same_model() {
    let main = "let n = 3\ninclude \"lib.puz\"; include \"lib.puz\"\nx[1] > 1\n";
    let (map, file) =
        parsed_ok(main, &[("lib.puz", "include \"common.puz\"\nvar x[1..n] in 1..k"), ("common.puz", "let k = 5")]);
    let inlined = map.inlined();
    let again = cpsolve_dsl::parse(&inlined).expect("the inlined text parses");
    let shown = |file: &File, text: &str| -> Vec<String> {
        file.items
            .iter()
            .map(|item| match &item.node {
                Item::Constraint(e) => show(e),
                _ => text[item.span.clone()].to_owned(),
            })
            .collect()
    };
    assert_eq!(shown(&again, &inlined), shown(&file, map.text()));
    assert!(!inlined.contains("\ninclude"), "{inlined}");
}
