//! What a run found, and where it is written.
//!
//! Each finding is two files in the output directory (`fuzz/findings/<target>/` by
//! default, ignored by git): the input itself, with the extension of its language so
//! that `cpsolve` can be run on it as it is, and a `.txt` beside it that says what
//! happened. Names are `<kind>-<hash of the input>`, so the same input found twice is
//! written once.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What kind of misbehaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An in-process target panicked, or the binary printed "panicked".
    Panic,
    /// An in-process target ran past its budget.
    Hang,
    /// The fuzzing process's resident memory passed its limit.
    Memory,
    /// The process died: an abort or a signal.
    Crash,
    /// The binary exited with a status outside 0..=3.
    Exit,
    /// The binary ran past its `--timeout` plus slack.
    Time,
    /// The binary's peak resident memory passed its `--memory` plus slack.
    Rss,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Panic => "panic",
            Kind::Hang => "hang",
            Kind::Memory => "memory",
            Kind::Crash => "crash",
            Kind::Exit => "exit",
            Kind::Time => "time",
            Kind::Rss => "rss",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One misbehaviour of one input.
#[derive(Debug, Clone)]
pub struct Problem {
    pub kind: Kind,
    /// What makes two problems the same bug: a panic's location, a message's first
    /// line. The campaign reports each signature once.
    pub signature: String,
    /// One line for the console.
    pub message: String,
    /// Everything else worth keeping: a backtrace, the binary's standard error.
    pub detail: String,
    /// A warning is reported but is not a finding (peak memory of a binary that has no
    /// `--memory` option to hold it back).
    pub warning: bool,
}

/// The FNV-1a hash of the input: a stable, dependency-free name for its file.
pub fn hash(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Writes the input and its description; returns the input's path.
pub fn save(dir: &Path, extension: &str, target: &str, problem: &Problem, input: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let prefix = if problem.warning { "warning-" } else { "" };
    let stem = format!("{prefix}{}-{:016x}", problem.kind, hash(input));
    let path = dir.join(format!("{stem}.{extension}"));
    fs::write(&path, input)?;
    let text = format!(
        "target: {target}\nkind: {}\nsignature: {}\nmessage: {}\ninput: {} bytes\n\n{}\n",
        problem.kind,
        problem.signature,
        problem.message,
        input.len(),
        problem.detail
    );
    fs::write(dir.join(format!("{stem}.txt")), text)?;
    Ok(path)
}
