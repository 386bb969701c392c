//! The reference manual in `docs/` (and the README's tour) is run, so that it cannot drift
//! from the program.
//!
//! Convention of the manual's examples (fenced blocks in `docs/*.md` and `README.md`):
//! - a ```` ```puz ARGS ```` block is a model: it is fed to `cpsolve ARGS -` on standard
//!   input, and the next fenced block, ```` ```text ```` (or ```` ```text exit=N ````), is
//!   what the run prints: standard output, then standard error, and its exit status (0 when
//!   not given);
//! - a ```` ```console ```` (or ```` ```console exit=N ````) block is one command,
//!   `$ cpsolve ARGS`, run in the repository's root, followed by what it prints.
//!
//! Every such block runs; a block of any other language is not run (syntax synopses are
//! written in plain ```` ``` ```` blocks). `DOCS_BLESS=1 cargo test --release --test docs`
//! rewrites the expected outputs from the program instead of failing: review the diff.
//!
//! Two more tests hold the manual complete: every error message the `.puz` readers can
//! produce (the message texts of `dsl/`, `models/` and `puzzles/`) is in `docs/errors.md`,
//! and every long flag of `cpsolve --help` and its subcommands' help is in `docs/cli.md`.

use std::fs;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn manual_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(repo().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("docs/ is readable").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    // The README's tour follows the same convention.
    files.push(repo().join("README.md"));
    files
}

/// One fenced block: its info string (after the backticks) and the byte ranges of the info
/// string and of the body in the file.
#[derive(Debug)]
struct Block {
    info: String,
    info_at: Range<usize>,
    body: String,
    body_at: Range<usize>,
    line: usize,
}

impl Block {
    fn language(&self) -> &str {
        self.info.split_whitespace().next().unwrap_or("")
    }

    /// The expected exit status: `exit=N` in the info string, else 0.
    fn exit(&self) -> i32 {
        self.info
            .split_whitespace()
            .find_map(|word| word.strip_prefix("exit="))
            .map_or(0, |n| n.parse().expect("exit=N holds a number"))
    }
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Range<usize>, usize, usize)> = None;
    let mut at = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let Some(rest) = line.strip_prefix("```") else { continue };
        match open.take() {
            None => {
                let info = rest.trim_end().to_string();
                open = Some((info, start + 3..start + 3 + rest.trim_end().len(), at, number + 1));
            }
            Some((info, info_at, body_start, line)) => {
                blocks.push(Block {
                    info,
                    info_at,
                    body: text[body_start..start].to_string(),
                    body_at: body_start..start,
                    line,
                });
            }
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    blocks
}

/// Splits a command line as a shell would for the simple quoting the manual uses.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in `{line}`");
    words.extend(word);
    words
}

/// Runs the binary in the repository's root; returns standard output then standard error,
/// and the exit status.
fn run(args: &[String], stdin: &str) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpsolve runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.as_bytes()).expect("stdin accepts the model");
    drop(input);
    let output = child.wait_with_output().expect("cpsolve finishes");
    let mut text = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    text += &String::from_utf8(output.stderr).expect("stderr is UTF-8");
    (text, output.status.code().expect("cpsolve exits normally, not by a signal"))
}

/// One runnable example: what to run, and where its expectation lies in the file.
#[derive(Debug)]
struct Example {
    line: usize,
    args: Vec<String>,
    stdin: String,
    expected: String,
    expected_at: Range<usize>,
    exit: i32,
    exit_at: Range<usize>,
    exit_prefix: &'static str,
}

fn examples(text: &str) -> Vec<Example> {
    let blocks = blocks(text);
    let mut examples = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.language() {
            "puz" => {
                let output = blocks.get(i + 1).filter(|b| b.language() == "text").unwrap_or_else(|| {
                    panic!("line {}: a ```puz block is followed by a ```text block, its output", block.line)
                });
                let mut args = shell_words(&block.info["puz".len()..]);
                args.push("-".into());
                examples.push(Example {
                    line: block.line,
                    args,
                    stdin: block.body.clone(),
                    expected: output.body.clone(),
                    expected_at: output.body_at.clone(),
                    exit: output.exit(),
                    exit_at: output.info_at.clone(),
                    exit_prefix: "text",
                });
            }
            "console" => {
                let (command, expected) = block.body.split_once('\n').unwrap_or((&block.body, ""));
                let command = command
                    .strip_prefix("$ cpsolve")
                    .unwrap_or_else(|| panic!("line {}: a ```console block starts with `$ cpsolve ...`", block.line));
                assert!(
                    !expected.lines().any(|l| l.starts_with("$ ")),
                    "line {}: one command per ```console block",
                    block.line
                );
                let body_start = block.body_at.start + block.body.find('\n').map_or(block.body.len(), |n| n + 1);
                examples.push(Example {
                    line: block.line,
                    args: shell_words(command),
                    stdin: String::new(),
                    expected: expected.to_string(),
                    expected_at: body_start..block.body_at.end,
                    exit: block.exit(),
                    exit_at: block.info_at.clone(),
                    exit_prefix: "console",
                });
            }
            _ => {}
        }
    }
    examples
}

#[test]
fn every_example_of_the_manual_prints_what_the_manual_says() {
    let bless = std::env::var_os("DOCS_BLESS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in manual_files() {
        let text = fs::read_to_string(&path).expect("the manual is readable");
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for example in examples(&text) {
            count += 1;
            let (actual, exit) = run(&example.args, &example.stdin);
            if actual == example.expected && exit == example.exit {
                continue;
            }
            let name = path.file_name().expect("a file").to_string_lossy();
            if bless {
                let info = if exit == 0 {
                    example.exit_prefix.to_string()
                } else {
                    format!("{} exit={exit}", example.exit_prefix)
                };
                edits.push((example.exit_at.clone(), info));
                edits.push((example.expected_at.clone(), actual));
            } else {
                failures.push(format!(
                    "docs/{name}:{}: cpsolve {}\n--- exit {} expected, {exit} actual\n--- expected:\n{}--- actual:\n{actual}",
                    example.line,
                    example.args.join(" "),
                    example.exit,
                    example.expected
                ));
            }
        }
        if !edits.is_empty() {
            let mut text = text;
            edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
            for (range, replacement) in edits {
                text.replace_range(range, &replacement);
            }
            fs::write(&path, text).expect("the manual is writable");
        }
    }
    assert!(count >= 20, "the manual's examples are found ({count})");
    assert!(
        failures.is_empty(),
        "{} example(s) of the manual differ from the program:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The constant texts of a message template: `option `{}` must be one of: {}` gives
/// "option `", "` must be one of:". Placeholders are the parts that vary.
fn fixed_parts(template: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0;
    for c in template.chars() {
        match c {
            '{' => {
                depth += 1;
                parts.push(std::mem::take(&mut current));
            }
            '}' if depth > 0 => depth -= 1,
            c if depth == 0 => current.push(c),
            _ => {}
        }
    }
    parts.push(current);
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| p.chars().count() >= 4).collect()
}

/// The string literal at the start of `text` (after `format!(` if any), unescaped, with
/// `\`-continued lines joined.
fn leading_literal(text: &str) -> Option<String> {
    let text = text.trim_start();
    let text = text.strip_prefix("format!(").map_or(text, str::trim_start);
    let body = text.strip_prefix('"')?;
    let mut literal = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(literal),
            '\\' => match chars.next()? {
                '\n' => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                'n' => literal.push('\n'),
                other => literal.push(other),
            },
            c => literal.push(c),
        }
    }
    None
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("readable").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// Every message template of the readers' diagnostics: the literal given to
/// `Diagnostic::new` or bound to `message` before it, outside the unit tests.
fn error_templates() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["dsl/src", "models/src", "puzzles/src"] {
        rust_files(&repo().join(dir), &mut files);
    }
    files.sort();
    let mut templates = Vec::new();
    for file in files {
        let source = fs::read_to_string(&file).expect("source is readable");
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        let name = file.strip_prefix(repo()).expect("in the repository").display().to_string();
        for marker in ["Diagnostic::new(", "let message ="] {
            for (at, _) in code.match_indices(marker) {
                if let Some(literal) = leading_literal(&code[at + marker.len()..]) {
                    templates.push((name.clone(), literal));
                }
            }
        }
    }
    templates
}

#[test]
fn every_error_message_is_in_the_manual() {
    let manual = fs::read_to_string(repo().join("docs/errors.md")).expect("docs/errors.md exists");
    let templates = error_templates();
    assert!(templates.len() >= 80, "the message templates are found ({})", templates.len());
    let missing: Vec<String> = templates
        .iter()
        .flat_map(|(file, template)| {
            fixed_parts(template)
                .into_iter()
                .filter(|part| !manual.contains(part.as_str()))
                .map(move |part| format!("{file}: \"{part}\" (of \"{template}\")"))
        })
        .collect();
    assert!(missing.is_empty(), "docs/errors.md does not mention:\n{}", missing.join("\n"));
}

fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_cpsolve")).args(args).output().expect("cpsolve runs");
    assert!(output.status.success(), "cpsolve {} --help succeeds", args.join(" "));
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The long flags an option line of clap's help declares (`  -e, --expr <MODEL>`).
fn long_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in help.lines().map(str::trim_start).filter(|l| l.starts_with('-')) {
        let declared = line.split("  ").next().unwrap_or_default();
        for word in declared.split([' ', ',']) {
            if let Some(name) = word.strip_prefix("--") {
                flags.push(format!("--{name}"));
            }
        }
    }
    flags
}

#[test]
fn every_long_flag_is_in_the_manual() {
    let manual = fs::read_to_string(repo().join("docs/cli.md")).expect("docs/cli.md exists");
    let mentioned = |flag: &str| {
        manual
            .match_indices(flag)
            .any(|(at, _)| !manual[at + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'))
    };
    let commands: [&[&str]; 10] = [
        &["--help"],
        &["serve", "--help"],
        &["check", "--help"],
        &["explain", "--help"],
        &["split", "--help"],
        &["merge", "--help"],
        &["table", "--help"],
        &["play", "--help"],
        &["play", "minesweeper", "--help"],
        &["play", "numbermatch", "--help"],
    ];
    let mut flags: Vec<String> = commands.iter().flat_map(|args| long_flags(&help(args))).collect();
    flags.sort();
    flags.dedup();
    assert!(flags.len() >= 20, "the flags are found: {flags:?}");
    let missing: Vec<&String> = flags.iter().filter(|f| !mentioned(f)).collect();
    assert!(missing.is_empty(), "docs/cli.md does not mention {missing:?}");
}

#[test]
fn the_conventions_are_read_as_documented() {
    let text =
        "a\n```puz --count\nqueens n = 4\n```\n```text exit=1\nx\n```\n```console\n$ cpsolve -e 'a b'\nout\n```\n";
    let found = examples(text);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].args, ["--count", "-"]);
    assert_eq!(found[0].stdin, "queens n = 4\n");
    assert_eq!((found[0].expected.as_str(), found[0].exit), ("x\n", 1));
    assert_eq!(found[1].args, ["-e", "a b"]);
    assert_eq!(found[1].expected, "out\n");
    assert_eq!(
        fixed_parts("option `{}` must be an integer from {lo} to {hi}"),
        ["option `", "` must be an integer from"]
    );
    assert_eq!(leading_literal(" format!(\"a \\\n    b {x}\", x)").as_deref(), Some("a b {x}"));
}
