//! Shrinking a finding to the little that still triggers it.
//!
//! A mutant is usually a whole corpus file with a few changes in it; the bug needs only
//! one or two of its lines. Delta debugging finds them by deletion: try removing a
//! large chunk, keep the removal if the input still fails the same way, and halve the
//! chunk size when no chunk of that size can go. This runs first over lines, then over
//! words, then (for short inputs) over bytes, and starts again until nothing changes or
//! the test budget is spent. The result is *1-minimal* at each level: removing any single
//! remaining line (word, byte) loses the failure.
//!
//! The test of "still fails the same way" is the caller's: for an in-process target it
//! runs each candidate in a child process (a hang must not leave a stuck thread behind
//! in the minimiser), for the binary it runs the binary.

/// The pieces a pass deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Line,
    Word,
    Byte,
}

/// Inputs longer than this skip the byte pass, which costs one test per byte.
const BYTE_PASS_MAX: usize = 4096;

/// The smallest input found that `still_fails`, testing at most `max_tests` candidates.
/// `input` itself is assumed to fail.
pub fn minimise(input: &[u8], mut still_fails: impl FnMut(&[u8]) -> bool, max_tests: usize) -> Vec<u8> {
    let mut best = input.to_vec();
    let mut tests = 0;
    loop {
        let before = best.len();
        for unit in [Unit::Line, Unit::Word, Unit::Byte] {
            if unit == Unit::Byte && best.len() > BYTE_PASS_MAX {
                continue;
            }
            shrink(&mut best, unit, &mut still_fails, &mut tests, max_tests);
        }
        if best.len() == before || tests >= max_tests {
            return best;
        }
    }
}

fn shrink(best: &mut Vec<u8>, unit: Unit, still_fails: &mut impl FnMut(&[u8]) -> bool, tests: &mut usize, max: usize) {
    let mut size = pieces(best, unit).len() / 2;
    while size >= 1 {
        let mut start = 0;
        loop {
            let pieces = pieces(best, unit);
            if start >= pieces.len() {
                break;
            }
            let end = (start + size).min(pieces.len());
            let mut candidate = best[..pieces[start].0].to_vec();
            candidate.extend_from_slice(&best[pieces[end - 1].1..]);
            if *tests >= max {
                return;
            }
            *tests += 1;
            if still_fails(&candidate) {
                // The same start now names the next chunk.
                *best = candidate;
            } else {
                start += size;
            }
        }
        size /= 2;
    }
}

/// The byte ranges of the pieces of `input`; together they cover it.
fn pieces(input: &[u8], unit: Unit) -> Vec<(usize, usize)> {
    match unit {
        Unit::Byte => (0..input.len()).map(|i| (i, i + 1)).collect(),
        Unit::Line | Unit::Word => {
            // A piece ends after a line break (lines) or after a run of blanks (words).
            let mut found = Vec::new();
            let mut start = 0;
            for i in 0..input.len() {
                let ends = match unit {
                    Unit::Line => input[i] == b'\n',
                    _ => input[i].is_ascii_whitespace() && input.get(i + 1).is_none_or(|b| !b.is_ascii_whitespace()),
                };
                if ends {
                    found.push((start, i + 1));
                    start = i + 1;
                }
            }
            if start < input.len() {
                found.push((start, input.len()));
            }
            found
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_what_the_failure_needs() {
        let input = b"let a = 1\nlet b = 2\nvar x in 1..9\nboom(x)\nsolve all\n";
        let fails = |c: &[u8]| {
            let text = String::from_utf8_lossy(c);
            text.contains("var x") && text.contains("boom")
        };
        let small = minimise(input, fails, 1000);
        assert_eq!(String::from_utf8_lossy(&small), "var xboom");
    }

    #[test]
    fn stops_at_the_test_budget() {
        let input = vec![b'a'; 1000];
        let mut tests = 0;
        let _ = minimise(
            &input,
            |_| {
                tests += 1;
                false
            },
            50,
        );
        assert_eq!(tests, 50);
    }

    #[test]
    fn pieces_cover_the_input() {
        assert_eq!(pieces(b"a b\nc", Unit::Line), vec![(0, 4), (4, 5)]);
        assert_eq!(pieces(b"a  b\nc", Unit::Word), vec![(0, 3), (3, 5), (5, 6)]);
    }
}
