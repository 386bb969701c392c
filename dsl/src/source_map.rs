//! The files of one model, laid end to end so that one span names a place in any of them.
//!
//! A model read with its `include`s comes from several files, but the syntax tree and every
//! diagnostic carry plain byte ranges ([`Span`]). Rather than tag each span with a file,
//! the files share one address space: file k's text starts at its *base* offset, the bases
//! follow each other in the order the files were read (the model's own file first, at 0),
//! and a span of file k is its local range shifted by that base. [`SourceMap::text`] is
//! exactly that layout (each file's text, then one `\n`), so slicing it with any span of the
//! model gives the right text, and a tool that only knows one text (the explanations'
//! quotations) keeps working. The separator belongs to the file before it: a span at the
//! very end of a file (an unexpected end of file) stays in that file.
//!
//! Rendering ([`crate::diagnostic::render_map`]) and line/column lookups go through
//! [`SourceMap::file_of`], which turns a span back into a file and a local range.

use codespan_reporting::files::{Files, SimpleFile};

use crate::ast::Span;

/// The files of a model and their place in the shared address space.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    text: String,
    files: Vec<SourceFile>,
    /// Each `include` statement read, in order: its span, and the file it brought in
    /// (`None`: a file read before, which adds nothing).
    includes: Vec<(Span, Option<usize>)>,
}

/// One file of a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The name diagnostics show: the path as given, `<stdin>`, `<expr>`.
    pub label: String,
    /// Where the file's text starts in [`SourceMap::text`].
    pub base: usize,
    /// The length of the file's text in bytes (the separator after it not counted).
    pub len: usize,
}

/// A place in a model: the file's label and the 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location<'a> {
    pub label: &'a str,
    /// The file's index in [`SourceMap::files`] (0: the model's own file).
    pub file: usize,
    pub line: usize,
    pub column: usize,
}

impl SourceMap {
    /// A model of one file.
    pub fn single(label: impl Into<String>, text: &str) -> Self {
        let mut map = SourceMap::default();
        map.add(label, text);
        map
    }

    /// Appends a file; returns its base offset.
    pub fn add(&mut self, label: impl Into<String>, text: &str) -> usize {
        let base = self.text.len();
        self.text.push_str(text);
        self.text.push('\n');
        self.files.push(SourceFile { label: label.into(), base, len: text.len() });
        base
    }

    /// Records that the `include` statement at `at` brought in file `file`.
    pub(crate) fn add_include(&mut self, at: Span, file: Option<usize>) {
        self.includes.push((at, file));
    }

    /// The model as one file: each `include` statement replaced by the text of the file it
    /// read (and a comment saying so), or removed when its file was read before. This is what
    /// `cpsolve split` writes, so that a part runs where the included files are not.
    pub fn inlined(&self) -> String {
        let mut out = String::new();
        if !self.files.is_empty() {
            self.inline_file(0, &mut out);
        }
        out
    }

    fn inline_file(&self, index: usize, out: &mut String) {
        let file = &self.files[index];
        let end = file.base + file.len;
        let mut at = file.base;
        for (span, read) in self.includes.iter().filter(|(span, _)| (file.base..=end).contains(&span.start)) {
            let (start, stop) = (span.start.max(at), span.end.clamp(span.start.max(at), end));
            out.push_str(&self.text[at..start]);
            if let Some(read) = read {
                out.push_str(&format!("# {}: the file follows\n", &self.text[start..stop]));
                self.inline_file(*read, out);
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            at = stop;
        }
        out.push_str(&self.text[at..end]);
    }

    /// Every file's text in order, each followed by `\n`: any span of the model slices it.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The text of file `index` alone.
    pub fn source(&self, index: usize) -> &str {
        self.files.get(index).map_or("", |f| &self.text[f.base..f.base + f.len])
    }

    /// The file a span starts in, and the span made local to that file's text (clipped to
    /// it: a span cannot run on into the next file). `None` only for an empty map.
    pub fn file_of(&self, span: &Span) -> Option<(usize, Span)> {
        // The last file whose base is at or before the start; past the end, the last file.
        let index = self.files.partition_point(|f| f.base <= span.start).checked_sub(1)?;
        let file = &self.files[index];
        let start = (span.start - file.base).min(file.len);
        let end = span.end.saturating_sub(file.base).clamp(start, file.len);
        Some((index, start..end))
    }

    /// The file, line and column of a byte offset (as the rendered diagnostics show them).
    pub fn locate(&self, offset: usize) -> Option<Location<'_>> {
        let (index, local) = self.file_of(&(offset..offset))?;
        let label = self.files[index].label.as_str();
        let source = self.source(index);
        let at = crate::diagnostic::clamp(source, &local).start;
        let location = SimpleFile::new(label, source).location((), at).ok()?;
        Some(Location { label, file: index, line: location.line_number, column: location.column_number })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_files() -> SourceMap {
        let mut map = SourceMap::single("a.puz", "let n = 3\ninclude \"b.puz\"");
        map.add("b.puz", "var x in 1..n\nx > 1\n");
        map
    }

    #[test]
    fn files_follow_each_other_with_one_separator() {
        let map = two_files();
        assert_eq!(map.files()[1].base, 26);
        assert_eq!(map.source(1), "var x in 1..n\nx > 1\n");
        assert_eq!(&map.text()[26 + 4..26 + 5], "x");
    }

    #[test]
    fn spans_go_back_to_their_file() {
        let map = two_files();
        assert_eq!(map.file_of(&(4..5)), Some((0, 4..5)));
        // The end of the first file (an unexpected end of file) stays in it.
        assert_eq!(map.file_of(&(25..25)), Some((0, 25..25)));
        assert_eq!(map.file_of(&(30..31)), Some((1, 4..5)));
        // A span cannot run on past its file.
        assert_eq!(map.file_of(&(20..40)), Some((0, 20..25)));
        assert_eq!(map.file_of(&(500..600)), Some((1, 20..20)));
        assert_eq!(SourceMap::default().file_of(&(0..1)), None);
    }

    #[test]
    fn inlining_replaces_each_include_by_its_file() {
        let mut map = SourceMap::single("a.puz", "include \"b.puz\"; include \"b.puz\"\nx > 1\n");
        map.add("b.puz", "var x in 1..3");
        map.add_include(0..15, Some(1));
        map.add_include(17..32, None);
        assert_eq!(map.inlined(), "# include \"b.puz\": the file follows\nvar x in 1..3\n; \nx > 1\n");
    }

    #[test]
    fn locations_are_per_file() {
        let map = two_files();
        let at = map.locate(26 + 14).expect("in the map");
        assert_eq!((at.label, at.file, at.line, at.column), ("b.puz", 1, 2, 1));
        let at = map.locate(10).expect("in the map");
        assert_eq!((at.label, at.line, at.column), ("a.puz", 2, 1));
    }
}
