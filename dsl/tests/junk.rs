//! Junk input: the reader stops collecting errors after the ones it shows (a file of NUL
//! bytes holds one error per byte, and collecting them all took 1.2 GB for 5 MB), and what
//! it shows is bounded in width and holds no raw control character.

use cpsolve_dsl::diagnostic::MAX_RENDERED;
use cpsolve_dsl::{parse, render, Diagnostic};

fn errors(source: &str) -> Vec<Diagnostic> {
    parse(source).expect_err("junk does not parse")
}

/// The errors of junk are the first ones shown, one more, and the mark of the stop.
#[track_caller]
fn stops_early(source: &str) {
    let all = errors(source);
    assert!(all.len() <= MAX_RENDERED + 2, "{} errors", all.len());
    assert!(all.last().is_some_and(Diagnostic::is_reading_stopped), "{:?}", all.last());
    let text = render("junk.puz", source, &all, false);
    assert!(text.ends_with("... and more errors: reading stopped after these\n"), "{text}");
}

#[test]
fn lexical_junk_stops_after_the_errors_shown() {
    stops_early(&"\0".repeat(1_000_000));
    stops_early(&"@ ".repeat(500_000));
    stops_early(&"@\n".repeat(500_000));
}

#[test]
fn syntactic_junk_stops_after_the_errors_shown() {
    stops_early(&")\n".repeat(500_000));
    stops_early(&"a b\n".repeat(500_000));
    stops_early(&"x ==;".repeat(500_000));
}

#[test]
fn a_file_with_as_many_errors_as_are_shown_is_read_to_its_end() {
    let source = format!("{}var x in 1..3\nx @ 2\n", "a b\n".repeat(MAX_RENDERED - 1));
    let all = errors(&source);
    assert_eq!(all.len(), MAX_RENDERED, "{all:#?}");
    assert!(!all.iter().any(Diagnostic::is_reading_stopped));
    let text = render("f.puz", &source, &all, false);
    assert!(!text.contains("more error"), "{text}");
}

#[test]
fn control_characters_are_shown_escaped() {
    let source = "var x in 1..3\nx \u{1b}[31m== 2\u{7}\n";
    let text = render("f.puz", source, &errors(source), false);
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
    assert!(text.contains("x \\u{1b}[31m== 2\\u{7}"), "{text}");
    // The caret stands under the escaped character.
    let line = text.lines().find(|l| l.contains("x \\u{1b}")).expect("the source line");
    let caret = text.lines().find(|l| l.contains("^^^^^^ not part")).expect("the caret");
    assert_eq!(line.find("\\u{1b}"), caret.find('^'), "{text}");
}

#[test]
fn a_huge_token_is_not_echoed_whole() {
    let source = format!("let n = {}\nlet m = {}x\n", "9".repeat(1_000_000), "1".repeat(1_000_000));
    let text = render("f.puz", &source, &errors(&source), false);
    assert!(text.len() < 4_000, "{} bytes", text.len());
    assert!(text.lines().all(|line| line.chars().count() < 400), "{text}");
}
