//! The seeds: the files under `tests/corpus/`, read once at the start of a run.
//!
//! The corpus is the project's own collection of valid and invalid models, so its files
//! already exercise every statement of the languages; the fuzzer only has to damage them.

use std::path::{Path, PathBuf};
use std::{fs, io};

/// The three input languages, told apart by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A `.puz` model or puzzle.
    Puz,
    /// A JSMinesweeper position (`.mine`).
    Mine,
    /// FlatZinc (`.fzn`).
    Fzn,
}

impl Kind {
    /// Every kind, in a fixed order.
    pub const ALL: [Kind; 3] = [Kind::Puz, Kind::Mine, Kind::Fzn];

    /// The kind a file's extension names, if any.
    pub fn of_path(path: &Path) -> Option<Kind> {
        match path.extension()?.to_str()? {
            "puz" => Some(Kind::Puz),
            "mine" => Some(Kind::Mine),
            "fzn" => Some(Kind::Fzn),
            _ => None,
        }
    }

    /// The file extension, without the dot: the binary picks its front end by it.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Puz => "puz",
            Kind::Mine => "mine",
            Kind::Fzn => "fzn",
        }
    }
}

/// One seed file.
#[derive(Debug, Clone)]
pub struct Seed {
    pub path: PathBuf,
    pub kind: Kind,
    pub bytes: Vec<u8>,
}

/// Every `.puz`, `.mine` and `.fzn` file under `dir`, recursively, sorted by path: the
/// order of the directory listing varies between file systems, and a run must not.
pub fn load(dir: &Path) -> io::Result<Vec<Seed>> {
    let mut paths = Vec::new();
    collect(dir, &mut paths)?;
    paths.sort();
    let mut seeds = Vec::new();
    for path in paths {
        if let Some(kind) = Kind::of_path(&path) {
            let bytes = fs::read(&path)?;
            seeds.push(Seed { path, kind, bytes });
        }
    }
    if seeds.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("no .puz, .mine or .fzn file under {}", dir.display()),
        ));
    }
    Ok(seeds)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
