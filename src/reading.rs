//! Reading a model's text, as a part of its run: under the run's time and memory limits.
//!
//! A model given on the command line is not read up front: its run begins (the watchdog is
//! armed) before its first byte is read, so standard input that never ends, a FIFO nobody
//! writes to or `/dev/zero` cannot hold the process past its limits. Such a stream is read
//! in chunks, and between chunks the run's [`StopToken`] is looked at, so an endless input
//! stops cooperatively as soon as the time or the memory limit strikes; a read that blocks
//! (an idle pipe) is ended by the watchdog's hard stop at the deadline. A regular file has
//! an end and is read whole (still under the watchdog and the memory cap): a run out of
//! time at once (`--timeout 0`) still reads its model and reports what the model's own
//! first checks proved.

use std::io::{self, Read};
use std::path::PathBuf;

use cpsolve_engine::{Stop, StopToken};

use crate::solve::Source;

/// How much is read between two looks at the stop token.
const CHUNK: usize = 1 << 16;

/// A model named on the command line, not read yet.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    /// A file, or `-` for standard input.
    File(PathBuf),
    /// The text of `-e MODEL`.
    Inline(String),
}

/// Why a model could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The run's limit struck while reading: the run reports the limit (exit 3).
    Stopped(Stop),
    /// The input cannot be read: the message says why, and where in the text when it is
    /// a byte that is not UTF-8 (line and column, from 1).
    Failed(String, Option<(usize, usize)>),
}

impl Input {
    /// The inputs of a command line: the files in order, then the `-e` models.
    pub(crate) fn all(paths: &[PathBuf], inline: &[String]) -> Vec<Input> {
        paths.iter().cloned().map(Input::File).chain(inline.iter().cloned().map(Input::Inline)).collect()
    }

    /// How errors and answers name it: the path, `<stdin>` or `<expr>`.
    pub(crate) fn label(&self) -> String {
        match self {
            Input::File(path) if path.as_os_str() == "-" => "<stdin>".to_string(),
            Input::File(path) => path.display().to_string(),
            Input::Inline(_) => "<expr>".to_string(),
        }
    }

    /// Reads the text, looking at `stop` between chunks.
    pub(crate) fn read(&self, stop: &StopToken) -> Result<Source, ReadError> {
        let label = self.label();
        let (text, path) = match self {
            Input::Inline(text) => (Ok(text.clone()), None),
            Input::File(path) if path.as_os_str() == "-" => (read_all(io::stdin().lock(), stop), None),
            Input::File(path) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => {
                (std::fs::read(path).and_then(utf8), Some(path.clone()))
            }
            Input::File(path) => (std::fs::File::open(path).and_then(|file| read_all(file, stop)), Some(path.clone())),
        };
        match text {
            Ok(text) => Ok(Source { label, text, path }),
            Err(e) => match stop.requested() {
                Some(reason) => Err(ReadError::Stopped(reason)),
                None => Err(ReadError::Failed(format!("cannot read `{label}`: {e}"), not_utf8_at(&e))),
            },
        }
    }
}

/// All of `reader` as UTF-8 text, unless a stop is requested on `stop` first.
fn read_all(mut reader: impl Read, stop: &StopToken) -> io::Result<String> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if stop.requested().is_some() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped by a limit"));
        }
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    utf8(bytes)
}

/// The bytes as text, or an error naming the line and column (in characters, from 1) of
/// the first byte that is not UTF-8: "not UTF-8" alone leaves a user searching the file.
pub(crate) fn utf8(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let bad = e.as_bytes()[valid.len()];
        // The prefix is valid UTF-8 by construction.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
        io::Error::new(io::ErrorKind::InvalidData, NotUtf8 { byte: bad, line, column })
    })
}

/// A byte that is not UTF-8, and where it is.
#[derive(Debug)]
struct NotUtf8 {
    byte: u8,
    line: usize,
    column: usize,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not UTF-8 text: byte 0x{:02X} at line {}, column {}", self.byte, self.line, self.column)
    }
}

impl std::error::Error for NotUtf8 {}

/// The line and column of a read error that is a byte not UTF-8.
fn not_utf8_at(error: &io::Error) -> Option<(usize, usize)> {
    let bad = error.get_ref()?.downcast_ref::<NotUtf8>()?;
    Some((bad.line, bad.column))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless input, as `/dev/zero` is, whose reader asks the run to stop after a
    /// megabyte, as the watchdog would at the deadline: no clock involved.
    struct Endless {
        served: usize,
        watcher: StopToken,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.served += buf.len();
            if self.served > 1 << 20 {
                self.watcher.request(Stop::Time);
            }
            buf.fill(b' ');
            Ok(buf.len())
        }
    }

    #[test]
    fn an_endless_input_stops_when_the_run_is_asked_to() {
        let stop = StopToken::new();
        let read = read_all(Endless { served: 0, watcher: stop.clone() }, &stop);
        assert!(read.is_err(), "an endless input was read to its end");
        assert_eq!(stop.requested(), Some(Stop::Time));
    }

    #[test]
    fn a_finite_input_is_read_whole_and_checked_for_utf8() {
        let stop = StopToken::new();
        let text = "x".repeat(3 * CHUNK + 5);
        assert_eq!(read_all(text.as_bytes(), &stop).expect("read"), text);
        assert!(read_all(&[0xff, 0xfe][..], &stop).is_err());
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_located() {
        let error = utf8(b"var x in 1..3\nx \xc3\xa9 \xff= 2\n".to_vec()).expect_err("not UTF-8");
        assert_eq!(error.to_string(), "not UTF-8 text: byte 0xFF at line 2, column 5");
        let error = utf8(vec![0xfe]).expect_err("not UTF-8");
        assert_eq!(error.to_string(), "not UTF-8 text: byte 0xFE at line 1, column 1");
    }
}
