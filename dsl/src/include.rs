//! Reading a model together with the files it includes.
//!
//! `include "lib.puz"` stands for the statements of `lib.puz`, spliced in its place, so a
//! model reads top to bottom as one file. The path is relative to the directory of the file
//! that includes it (for a model with no file, such as standard input, to the current
//! directory), and an included file may include others. As in MiniZinc, a file is read once
//! per model: a second `include` of it (two libraries sharing a third) adds nothing. A file
//! that includes itself, directly or through others, is an error at the `include` that
//! closes the cycle.
//!
//! This crate does no file I/O: the caller's loader reads a path and names the file it
//! found by a key (the canonical path, so that two spellings of one file are one file).
//! Each file read gets its own stretch of the model's [`SourceMap`], so every span of the
//! result, and of every error, names its file.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use crate::ast::{File, Item, Span, Spanned};
use crate::diagnostic::Diagnostic;
use crate::source_map::SourceMap;

/// The file a model starts from.
#[derive(Debug, Clone)]
pub struct Root<'a> {
    /// The name diagnostics show: the path as given, `<stdin>`, `<expr>`.
    pub label: &'a str,
    pub text: &'a str,
    /// The directory its `include` paths are relative to (empty: the current directory).
    pub dir: &'a Path,
    /// Its key, as the loader would give it (see [`Loaded::key`]), when it is a file: an
    /// included file that includes it back is then a cycle.
    pub key: Option<PathBuf>,
}

/// What the loader gives for a path.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file's identity: two paths to one file must give the same key (the canonical
    /// path does), so that it is read once and a cycle through it is seen.
    pub key: PathBuf,
    pub text: String,
}

/// A model read with its includes: the files it came from, and its syntax tree (with no
/// `include` left in it) or every error found in any of the files.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub map: SourceMap,
    pub file: Result<File, Vec<Diagnostic>>,
}

/// Includes nested deeper than this are refused: each level is a frame of the reader's
/// recursion, and no honest model needs many.
const MAX_DEPTH: usize = 64;

/// Parses `root` and, in place of each `include`, the file it names, read by `load`. The
/// errors of every file are reported together, sorted by file (in the order read) and
/// position.
pub fn parse_with_includes(root: Root<'_>, mut load: impl FnMut(&Path) -> io::Result<Loaded>) -> Parsed {
    let mut reader = Reader {
        load: &mut load,
        map: SourceMap::default(),
        read: HashSet::new(),
        open: Vec::new(),
        errors: Vec::new(),
    };
    let items = reader.read(root.label.to_owned(), root.text, root.dir, root.key);
    let Reader { map, mut errors, .. } = reader;
    let file = if errors.is_empty() {
        Ok(File { items })
    } else {
        errors.sort_by_key(|d| (d.span.start, d.span.end));
        Err(errors)
    };
    Parsed { map, file }
}

struct Reader<'l> {
    load: &'l mut dyn FnMut(&Path) -> io::Result<Loaded>,
    map: SourceMap,
    /// The keys of the files read so far: each is read once.
    read: HashSet<PathBuf>,
    /// The files being read, outermost first (key and label): including one is a cycle.
    open: Vec<(Option<PathBuf>, String)>,
    errors: Vec<Diagnostic>,
}

impl Reader<'_> {
    /// The items of one file, its includes spliced in.
    fn read(&mut self, label: String, text: &str, dir: &Path, key: Option<PathBuf>) -> Vec<Spanned<Item>> {
        let base = self.map.add(label.clone(), text);
        // A file with errors still gives the statements that parsed: its includes are
        // read, so that one run reports the errors of every file.
        let (file, errors) = crate::parse_at(text, base);
        self.errors.extend(errors);
        if let Some(key) = &key {
            self.read.insert(key.clone());
        }
        self.open.push((key, label));
        let mut items = Vec::with_capacity(file.items.len());
        for item in file.items {
            match item.node {
                Item::Include(path) => items.extend(self.include(&path, item.span, dir)),
                node => items.push(Spanned::new(node, item.span)),
            }
        }
        self.open.pop();
        items
    }

    /// The items an `include` (at `at`) of `path` stands for: none if the file was read
    /// before or cannot be.
    fn include(&mut self, path: &Spanned<String>, at: Span, dir: &Path) -> Vec<Spanned<Item>> {
        let written = Path::new(&path.node);
        if is_minizinc_library(&path.node) {
            // MiniZinc's library, as a MiniZinc model opens it: the globals are built in, so
            // it stands for nothing (a file of that name beside the model is not read either).
            // A global cpsolve lacks is reported where the model uses it.
            return Vec::new();
        }
        if self.open.len() > MAX_DEPTH {
            self.errors.push(
                Diagnostic::new("includes nested too deeply", at.clone())
                    .with_label(format!("more than {MAX_DEPTH} files, each included by the one before")),
            );
            return Vec::new();
        }
        // `Path::components` drops the `.` of `./lib.puz`, so the label reads `dir/lib.puz`.
        let full: PathBuf = dir.join(written).components().collect();
        let loaded = match (self.load)(&full) {
            Ok(loaded) => loaded,
            Err(error) => {
                let mut diagnostic =
                    Diagnostic::new(format!("cannot read `{}`: {error}", full.display()), path.span.clone())
                        .with_label("included here");
                if full.extension().is_some_and(|e| e == "mzn") {
                    diagnostic = diagnostic
                        .with_note("MiniZinc's library files are not needed: the global constraints are built in");
                }
                self.errors.push(diagnostic);
                return Vec::new();
            }
        };
        if let Some(first) = self.open.iter().position(|(key, _)| key.as_ref() == Some(&loaded.key)) {
            let chain: Vec<&str> =
                self.open[first..].iter().chain([&self.open[first]]).map(|(_, label)| label.as_str()).collect();
            self.errors.push(
                Diagnostic::new(format!("include cycle: {}", chain.join(" → ")), at)
                    .with_label("includes a file that is being read")
                    .with_note("a file may not include itself, directly or through others"),
            );
            return Vec::new();
        }
        if self.read.contains(&loaded.key) {
            // Read once: its statements are already in the model.
            self.map.add_include(at, None);
            return Vec::new();
        }
        self.map.add_include(at, Some(self.map.files().len()));
        let dir = full.parent().map(Path::to_path_buf).unwrap_or_default();
        self.read(full.display().to_string(), &loaded.text, &dir, Some(loaded.key))
    }
}

/// The files of MiniZinc's standard library that a model includes by name: `globals.mzn`
/// and one file per global constraint (`include "circuit.mzn";`).
const MINIZINC_LIBRARY: &[&str] = &[
    "all_different",
    "all_different_except",
    "all_different_except_0",
    "all_disjoint",
    "all_equal",
    "alldifferent",
    "alldifferent_except_0",
    "among",
    "arg_max",
    "arg_min",
    "at_least",
    "at_most",
    "atleast",
    "atmost",
    "bin_packing",
    "bin_packing_capa",
    "bin_packing_load",
    "circuit",
    "count",
    "count_eq",
    "count_geq",
    "count_gt",
    "count_leq",
    "count_lt",
    "count_neq",
    "cumulative",
    "decreasing",
    "diffn",
    "disjoint",
    "disjunctive",
    "distribute",
    "element",
    "exactly",
    "globals",
    "global_cardinality",
    "global_cardinality_closed",
    "increasing",
    "int_set_channel",
    "inverse",
    "inverse_set",
    "knapsack",
    "lex2",
    "lex_greater",
    "lex_greatereq",
    "lex_less",
    "lex_lesseq",
    "link_set_to_booleans",
    "maximum",
    "member",
    "minimum",
    "network_flow",
    "network_flow_cost",
    "nvalue",
    "partition_set",
    "range",
    "regular",
    "roots",
    "sliding_sum",
    "sort",
    "strict_lex2",
    "subcircuit",
    "sum_pred",
    "table",
    "value_precede",
    "value_precede_chain",
];

/// Whether `path` names a file of MiniZinc's standard library (no directory, `.mzn`).
fn is_minizinc_library(path: &str) -> bool {
    path.strip_suffix(".mzn").is_some_and(|stem| MINIZINC_LIBRARY.contains(&stem))
}
