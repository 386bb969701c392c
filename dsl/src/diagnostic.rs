//! Errors that point at the source, and their rendering.
//!
//! Every stage (lexer, parser, and later the model compiler of `cpsolve-models`) reports
//! a problem as a [`Diagnostic`]: a message and the byte range of the offending text. Line
//! and column numbers are computed only here, at render time, by `codespan-reporting`, so
//! spans stay plain `usize` ranges everywhere else. A model read with its `include`s spans
//! several files: [`render_map`] finds each span's file in the [`SourceMap`].

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

use crate::ast::Span;
use crate::source_map::SourceMap;

/// One error, located in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What went wrong: "unexpected `819`", "unknown name `y`".
    pub message: String,
    /// Byte range of the offending text.
    pub span: Span,
    /// Short text under the caret; may be empty.
    pub label: String,
    /// Extra lines, e.g. "expected one of `->`, an integer".
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>, span: Span) -> Self {
        Diagnostic { message: message.into(), span, label: String::new(), notes: Vec::new() }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The last error of a file whose reading stopped at `at` after more errors than are
    /// shown: the reader does not collect more (a file of junk would give millions).
    pub fn reading_stopped(at: usize) -> Self {
        Diagnostic::new(READING_STOPPED, at..at).with_label("the rest of the file is not read")
    }

    /// Whether this is the mark of [`Diagnostic::reading_stopped`].
    pub fn is_reading_stopped(&self) -> bool {
        self.message == READING_STOPPED
    }
}

const READING_STOPPED: &str = "too many errors: reading stopped here";

/// Renders diagnostics as `error: message`, ` ┌─ path:line:col`, the source line, a caret
/// under the span and the notes. With `color` false the text holds no ANSI escapes.
pub fn render(path: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    render_map(&SourceMap::single(path, source), diagnostics, color)
}

/// [`render`] for a model of several files (its `include`s): each diagnostic is shown in
/// the file its span falls in, with that file's name, line and column.
pub fn render_map(map: &SourceMap, diagnostics: &[Diagnostic], color: bool) -> String {
    let config = term::Config::default();
    let mut out = Vec::new();
    for diagnostic in diagnostics.iter().take(MAX_RENDERED) {
        let (index, local) = map.file_of(&diagnostic.span).unwrap_or((0, 0..0));
        let path = map.files().get(index).map_or("", |f| f.label.as_str());
        let source = map.source(index);
        let span = clamp(source, &local);
        let diagnostic = &printable(diagnostic);
        if longest_line_of(source, &span) > MAX_RENDERED_LINE || has_control_characters(source, &span) {
            out.extend_from_slice(render_in_window(path, source, diagnostic, &span).as_bytes());
            continue;
        }
        let file = SimpleFile::new(path, source);
        let label = Label::primary((), span).with_message(&diagnostic.label);
        let rendered = CsDiagnostic::error()
            .with_message(&diagnostic.message)
            .with_labels(vec![label])
            .with_notes(diagnostic.notes.clone());
        // Writing into a `Vec` cannot fail, and the span was clamped, so an error here
        // would be a bug in the renderer; fall back to the bare message rather than panic.
        let result = if color {
            term::emit(&mut termcolor::Ansi::new(&mut out), &config, &file, &rendered)
        } else {
            term::emit(&mut termcolor::NoColor::new(&mut out), &config, &file, &rendered)
        };
        if result.is_err() {
            out.extend_from_slice(format!("error: {}\n", diagnostic.message).as_bytes());
        }
    }
    if diagnostics.len() > MAX_RENDERED {
        let more = diagnostics.len() - MAX_RENDERED;
        let tail = if diagnostics.iter().any(Diagnostic::is_reading_stopped) {
            "... and more errors: reading stopped after these\n".to_string()
        } else {
            format!("... and {more} more error{}\n", if more == 1 { "" } else { "s" })
        };
        out.extend_from_slice(tail.as_bytes());
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// At most this many errors are shown: a damaged file can hold thousands (one per bad
/// cell of a grid), and the first ones tell what is wrong.
pub const MAX_RENDERED: usize = 20;

/// Lines longer than this are not shown whole: the renderer's time grows with the square
/// of a line's length (a 16,000-character line took 47 s), and nobody reads such a line.
const MAX_RENDERED_LINE: usize = 400;

/// Characters shown on each side of the caret in a line too long to show whole.
const WINDOW: usize = 40;

/// The longest a message or label is shown (in characters): one that quotes a huge piece
/// of the input (a million-digit integer) is cut in the middle.
const MAX_MESSAGE: usize = 300;

/// The longest a note is shown: notes list what is expected (the known functions take
/// 900 characters), so they get more room.
const MAX_NOTE: usize = 2_000;

/// The line range (start, end) of the line holding byte `at`.
fn line_around(source: &str, at: usize) -> (usize, usize) {
    let start = source[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = source[at..].find('\n').map_or(source.len(), |i| at + i);
    (start, end)
}

/// The length in bytes of the longest of the lines where `span` starts and ends.
fn longest_line_of(source: &str, span: &Span) -> usize {
    let length = |at: usize| {
        let (start, end) = line_around(source, at);
        end - start
    };
    length(span.start).max(length(span.end))
}

/// Whether the lines where `span` starts and ends hold control characters (a tab aside):
/// echoed raw, they would drive the terminal (colours, the cursor, the bell).
fn has_control_characters(source: &str, span: &Span) -> bool {
    let controls = |at: usize| {
        let (start, end) = line_around(source, at);
        source[start..end].chars().any(is_control)
    };
    controls(span.start) || controls(span.end)
}

fn is_control(c: char) -> bool {
    c.is_control() && c != '\t'
}

/// A character as shown in a snippet: a control character escaped (`\u{1b}`), a tab as a
/// blank (so that the caret below stays in its column).
fn shown(c: char) -> String {
    match c {
        '\t' => " ".to_string(),
        c if is_control(c) => c.escape_debug().collect(),
        c => c.to_string(),
    }
}

/// `text` safe to print: control characters escaped (a newline too: each note is one line),
/// and cut in the middle when longer than `max` characters.
fn printable_text(text: &str, max: usize) -> String {
    let escaped: String =
        text.chars().map(|c| if c.is_control() { c.escape_debug().collect() } else { c.to_string() }).collect();
    let count = escaped.chars().count();
    if count <= max {
        return escaped;
    }
    let half = max / 2;
    let head: String = escaped.chars().take(half).collect();
    let tail: String = escaped.chars().skip(count - half).collect();
    format!("{head} … {tail}")
}

fn printable(diagnostic: &Diagnostic) -> Diagnostic {
    Diagnostic {
        message: printable_text(&diagnostic.message, MAX_MESSAGE),
        span: diagnostic.span.clone(),
        label: printable_text(&diagnostic.label, MAX_MESSAGE),
        notes: diagnostic.notes.iter().map(|note| printable_text(note, MAX_NOTE)).collect(),
    }
}

/// The same layout as the renderer's, for a span in a line too long to show whole or one
/// holding control characters: the location, then a window of the line around the span's
/// start (control characters escaped) with the caret.
fn render_in_window(path: &str, source: &str, diagnostic: &Diagnostic, span: &Span) -> String {
    let (line_start, line_end) = line_around(source, span.start);
    let line_number = source[..line_start].matches('\n').count() + 1;
    let before: Vec<char> = source[line_start..span.start].chars().collect();
    let column = before.len() + 1;
    let shown_before: String = before[before.len().saturating_sub(WINDOW)..].iter().map(|&c| shown(c)).collect();
    let rest = &source[span.start..line_end];
    let shown_after: String = rest.chars().take(WINDOW).map(shown).collect();
    let (open, close) =
        (if before.len() > WINDOW { "…" } else { "" }, if rest.chars().count() > WINDOW { "…" } else { "" });
    let spanned: String = source[span.start..span.end.min(line_end)].chars().take(WINDOW).map(shown).collect();
    let carets = spanned.chars().count().clamp(1, WINDOW);
    let gutter = " ".repeat(line_number.to_string().len());
    let indent = " ".repeat(open.chars().count() + shown_before.chars().count());
    let mut text = format!("error: {}\n{gutter} ┌─ {path}:{line_number}:{column}\n{gutter} │\n", diagnostic.message);
    text += &format!("{line_number} │ {open}{shown_before}{shown_after}{close}\n");
    text += format!("{gutter} │ {indent}{} {}", "^".repeat(carets), diagnostic.label).trim_end();
    text.push('\n');
    if !diagnostic.notes.is_empty() {
        text += &format!("{gutter} │\n");
        for note in &diagnostic.notes {
            text += &format!("{gutter} = {note}\n");
        }
    }
    text.push('\n');
    text
}

/// Makes a span safe to render: inside the source and on character boundaries. A span
/// past the end (an unexpected end of file) becomes the empty span at the end.
pub(crate) fn clamp(source: &str, span: &Span) -> Span {
    let mut end = span.end.min(source.len());
    let mut start = span.start.min(end);
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_and_column_one_based() {
        let source = "let n = 8\nvar x in 0..@\n";
        let diagnostic = Diagnostic::new("unexpected character `@`", 22..23).with_label("here").with_note("a note");
        let text = render("f.puz", source, &[diagnostic], false);
        assert!(text.contains("f.puz:2:13"), "{text}");
        assert!(text.contains("= a note"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
    }

    #[test]
    fn color_adds_escapes() {
        let text = render("f.puz", "x", &[Diagnostic::new("boom", 0..1)], true);
        assert!(text.contains('\u{1b}'), "{text}");
    }

    #[test]
    fn span_past_the_end_is_clamped() {
        let text = render("f.puz", "x +", &[Diagnostic::new("unexpected end of file", 3..40)], false);
        assert!(text.contains("f.puz:1:4"), "{text}");
        let empty = render("f.puz", "", &[Diagnostic::new("empty", 5..9)], false);
        assert!(empty.contains("error: empty"), "{empty}");
    }

    #[test]
    fn span_inside_a_character_is_widened() {
        let source = "# é\n";
        assert_eq!(clamp(source, &(3..4)), 2..4);
        let text = render("f.puz", source, &[Diagnostic::new("x", 3..4)], false);
        assert!(text.contains("f.puz:1:3"), "{text}");
    }
}
