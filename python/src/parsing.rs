//! Reading a `.puz` model, with the files it includes, from text or from disk.
//!
//! As the command line does: `include` paths are relative to the directory of the file
//! that includes them (for a model built in Python, to the current directory), and a file
//! is known by its canonical path, so that it is read once.

use std::fs;
use std::io;
use std::path::Path;

use cpsolve_dsl::{Loaded, Parsed, Root};

/// Parses `text` (labelled `label` in errors) and the files it includes; `path` is the file
/// it was read from, if any.
pub(crate) fn parse(label: &str, text: &str, path: Option<&Path>) -> Parsed {
    let root = Root {
        label,
        text,
        dir: path.and_then(Path::parent).unwrap_or(Path::new("")),
        key: path.and_then(|path| fs::canonicalize(path).ok()),
    };
    cpsolve_dsl::parse_with_includes(root, load)
}

/// Reads an included file: only a regular file (a device or a FIFO could be read forever).
fn load(path: &Path) -> io::Result<Loaded> {
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let text = fs::read_to_string(path)?;
    Ok(Loaded { key: fs::canonicalize(path)?, text })
}
