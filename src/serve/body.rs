//! A request's body: the model's text, read under a size limit and checked to be UTF-8.
//!
//! A body over the limit is still read to its end (and thrown away, up to
//! [`DRAIN_LIMIT`]) before the 413 is sent: a client that is still sending when the
//! connection closes would see a reset, not the answer.

use std::io::{self, Read};

/// Beyond this many bytes an oversized body is not drained: the connection is dropped.
const DRAIN_LIMIT: u64 = 256 << 20;

/// Why a body is refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Over the limit (HTTP 413): the limit, in bytes.
    TooLarge(usize),
    /// Not UTF-8 (HTTP 400): the 1-based line and column of the first bad byte, and the byte.
    NotUtf8 { line: usize, column: usize, byte: u8 },
    /// The connection failed while reading.
    Broken,
}

/// Reads a body of at most `limit` bytes; `declared` is its `Content-Length`, if given.
pub(crate) fn read(reader: &mut dyn Read, declared: Option<usize>, limit: usize) -> Result<String, Refused> {
    if declared.is_some_and(|n| n > limit) {
        drain(reader);
        return Err(Refused::TooLarge(limit));
    }
    let mut bytes = Vec::new();
    // One byte more than the limit tells an oversized body without a declared length.
    match reader.take(limit as u64 + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() > limit => {
            drain(reader);
            Err(Refused::TooLarge(limit))
        }
        Ok(_) => text(bytes),
        Err(_) => Err(Refused::Broken),
    }
}

/// The bytes as text, or where they stop being UTF-8.
fn text(bytes: Vec<u8>) -> Result<String, Refused> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        // The text before the bad byte is valid: its characters are the column.
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        Refused::NotUtf8 { line, column, byte: bytes[at] }
    })
}

fn drain(reader: &mut dyn Read) {
    let _ = io::copy(&mut reader.take(DRAIN_LIMIT), &mut io::sink());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_within_the_limit_is_its_text() {
        assert_eq!(read(&mut &b"queens n = 8"[..], Some(12), 12), Ok("queens n = 8".to_string()));
    }

    #[test]
    fn a_body_over_the_limit_is_refused_declared_or_not() {
        assert_eq!(read(&mut &[b'x'; 13][..], Some(13), 12), Err(Refused::TooLarge(12)));
        assert_eq!(read(&mut &[b'x'; 13][..], None, 12), Err(Refused::TooLarge(12)));
        assert_eq!(read(&mut &[b'x'; 12][..], None, 12), Ok("x".repeat(12)));
    }

    #[test]
    fn a_bad_byte_is_located_by_line_and_character() {
        let body = "var x in 1..3\nvar é \u{0}".as_bytes().iter().copied().chain([0xff, b'\n']).collect::<Vec<u8>>();
        assert_eq!(read(&mut &body[..], None, 100), Err(Refused::NotUtf8 { line: 2, column: 8, byte: 0xff }));
    }
}
