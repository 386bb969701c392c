//! Reading a `.puz` model with the files it includes, from disk.
//!
//! The dsl crate splices `include`s and keeps each file's place (`cpsolve_dsl::SourceMap`)
//! but reads no file itself: this is its loader. Paths are relative to the directory of the
//! including file; for a model on standard input or given with `-e`, to the current
//! directory. A file is known by its canonical path, so that `lib.puz` and `./lib.puz` (or a
//! link to it) are one file, read once.
//!
//! A model posted to `cpsolve serve` comes from someone else: its run refuses every
//! `include` ([`refuse`]), before the path is even looked at.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use cpsolve_dsl::{Loaded, Parsed, Root};

use crate::solve::Source;

/// Parses a model and every file it includes.
pub(crate) fn parse(source: &Source) -> Parsed {
    let path = source.path.as_deref();
    let root = Root {
        label: &source.label,
        text: &source.text,
        dir: path.and_then(Path::parent).unwrap_or(Path::new("")),
        key: path.and_then(|path| fs::canonicalize(path).ok()),
    };
    cpsolve_dsl::parse_with_includes(root, load)
}

/// Set once, at the start of a run that must read no file but its model.
static REFUSED: AtomicBool = AtomicBool::new(false);

/// From now on, every `include` is an error.
pub(crate) fn refuse() {
    REFUSED.store(true, Ordering::Relaxed);
}

/// Reads an included file. Only a regular file: a device such as `/dev/zero` would be read
/// until a limit struck, a FIFO could block.
fn load(path: &Path) -> io::Result<Loaded> {
    if REFUSED.load(Ordering::Relaxed) {
        return Err(io::Error::other("a model posted to `cpsolve serve` may not include files"));
    }
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    // Read as the model is, so that a byte that is not UTF-8 is named with its line and column.
    let text = crate::reading::utf8(fs::read(path)?)?;
    Ok(Loaded { key: fs::canonicalize(path)?, text })
}
