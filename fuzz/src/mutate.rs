//! Damaging an input: a few mutations drawn at random and applied one after the other.
//!
//! Mutations work at three levels, because faults hide at all three:
//! - **bytes** (flip a bit, overwrite, insert, delete, duplicate a chunk): the lexer's
//!   view, where a stray `\r`, a UTF-8 lead byte or a cut token lives;
//! - **lines** (duplicate, delete, swap, splice in lines of another seed): the statement
//!   view, which keeps each statement well formed but breaks the relations between them
//!   (a name used before its declaration, a `given` grid without its variable);
//! - **tokens and numbers** (insert a keyword or operator, repeat an opener thousands of
//!   times, replace a number by `2^63-1` or a 40-digit one): the compiler's view, where a
//!   valid file asks for a range, an array or a loop far larger than any test wrote.
//!
//! Stacking several mutations on one input (1 to 8, small counts likelier) reaches
//! combinations no single mutation can, such as a duplicated line whose number then grows.

use crate::corpus::Kind;
use crate::dictionary::{self, INTERESTING_NUMBERS, NESTERS, SPECIAL_BYTES};
use crate::rng::Rng;

/// One way of damaging an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    FlipBit,
    SetByte,
    InsertBytes,
    DeleteChunk,
    DuplicateChunk,
    /// Insert a chunk of another seed.
    Splice,
    /// The first lines of this input, then the last lines of another seed.
    Crossover,
    ReplaceNumber,
    DuplicateLine,
    DeleteLine,
    SwapLines,
    InsertToken,
    /// Replace a word or an operator by a dictionary token.
    ReplaceToken,
    /// Repeat a token or an opener (with its closer later) many times.
    RepeatToken,
}

impl Mutation {
    /// Each mutation with its weight: the structured ones (numbers, tokens, lines) are the
    /// most likely to reach past the parser, so they are drawn most.
    const WEIGHTED: [(Mutation, usize); 14] = [
        (Mutation::FlipBit, 2),
        (Mutation::SetByte, 3),
        (Mutation::InsertBytes, 2),
        (Mutation::DeleteChunk, 3),
        (Mutation::DuplicateChunk, 2),
        (Mutation::Splice, 2),
        (Mutation::Crossover, 1),
        (Mutation::ReplaceNumber, 8),
        (Mutation::DuplicateLine, 3),
        (Mutation::DeleteLine, 3),
        (Mutation::SwapLines, 2),
        (Mutation::InsertToken, 5),
        (Mutation::ReplaceToken, 4),
        (Mutation::RepeatToken, 1),
    ];

    fn draw(rng: &mut Rng) -> Mutation {
        let total: usize = Self::WEIGHTED.iter().map(|(_, w)| w).sum();
        let mut ticket = rng.below(total);
        for (mutation, weight) in Self::WEIGHTED {
            if ticket < weight {
                return mutation;
            }
            ticket -= weight;
        }
        unreachable!("the ticket is below the total weight")
    }
}

/// The mutation engine of one language.
#[derive(Debug, Clone)]
pub struct Mutator {
    kind: Kind,
    /// Inputs never grow past this many bytes, so that one input cannot cost seconds to
    /// lex merely because it is long.
    pub max_len: usize,
}

impl Mutator {
    pub fn new(kind: Kind, max_len: usize) -> Mutator {
        Mutator { kind, max_len }
    }

    /// A mutated copy of `base`: 1 to 8 stacked mutations. `donors` are other inputs of
    /// the same language, for splicing (may be empty).
    pub fn mutate(&self, rng: &mut Rng, base: &[u8], donors: &[&[u8]]) -> Vec<u8> {
        let mut input = base.to_vec();
        let count = rng.size(8);
        for _ in 0..count {
            self.apply(Mutation::draw(rng), rng, &mut input, donors);
            input.truncate(self.max_len);
        }
        input
    }

    /// Applies one mutation. A mutation that does not apply (no number to replace, an
    /// empty input) falls back to inserting a token, so that every draw changes something.
    pub fn apply(&self, mutation: Mutation, rng: &mut Rng, input: &mut Vec<u8>, donors: &[&[u8]]) {
        let applied = match mutation {
            Mutation::FlipBit => flip_bit(rng, input),
            Mutation::SetByte => set_byte(rng, input),
            Mutation::InsertBytes => insert_bytes(rng, input),
            Mutation::DeleteChunk => delete_chunk(rng, input),
            Mutation::DuplicateChunk => duplicate_chunk(rng, input),
            Mutation::Splice => splice(rng, input, donors),
            Mutation::Crossover => crossover(rng, input, donors),
            Mutation::ReplaceNumber => replace_number(rng, input),
            Mutation::DuplicateLine => duplicate_line(rng, input),
            Mutation::DeleteLine => delete_line(rng, input),
            Mutation::SwapLines => swap_lines(rng, input),
            Mutation::InsertToken => self.insert_token(rng, input),
            Mutation::ReplaceToken => self.replace_token(rng, input),
            Mutation::RepeatToken => self.repeat_token(rng, input),
        };
        if !applied {
            self.insert_token(rng, input);
        }
    }

    fn insert_token(&self, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
        let token = *rng.pick(dictionary::tokens(self.kind));
        let at = token_boundary(rng, input);
        let mut text = Vec::new();
        if rng.chance(1, 2) {
            text.push(b' ');
        }
        text.extend_from_slice(token.as_bytes());
        if rng.chance(1, 2) {
            text.push(b' ');
        }
        input.splice(at..at, text);
        true
    }

    fn replace_token(&self, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
        let words = words(input);
        if words.is_empty() {
            return false;
        }
        let (start, end) = *rng.pick(&words);
        let token = *rng.pick(dictionary::tokens(self.kind));
        input.splice(start..end, token.bytes());
        true
    }

    fn repeat_token(&self, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
        let times = rng.size(20_000);
        let at = token_boundary(rng, input);
        if self.kind == Kind::Puz && rng.chance(2, 3) {
            // Nesting: `((((x))))` reaches the recursion of every later pass.
            let (open, close) = *rng.pick(NESTERS);
            let closing_at = at + rng.below(input.len() - at + 1);
            input.splice(closing_at..closing_at, close.repeat(times).into_bytes());
            input.splice(at..at, open.repeat(times).into_bytes());
        } else {
            let token = *rng.pick(dictionary::tokens(self.kind));
            let separator = if rng.chance(1, 2) { " " } else { "" };
            input.splice(at..at, format!("{token}{separator}").repeat(times).into_bytes());
        }
        true
    }
}

fn flip_bit(rng: &mut Rng, input: &mut [u8]) -> bool {
    if input.is_empty() {
        return false;
    }
    let at = rng.below(input.len());
    input[at] ^= 1 << rng.below(8);
    true
}

fn random_byte(rng: &mut Rng) -> u8 {
    if rng.chance(3, 4) {
        *rng.pick(SPECIAL_BYTES)
    } else {
        rng.u64() as u8
    }
}

fn set_byte(rng: &mut Rng, input: &mut [u8]) -> bool {
    if input.is_empty() {
        return false;
    }
    let at = rng.below(input.len());
    input[at] = random_byte(rng);
    true
}

fn insert_bytes(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let at = rng.below(input.len() + 1);
    let bytes: Vec<u8> = (0..rng.size(4)).map(|_| random_byte(rng)).collect();
    input.splice(at..at, bytes);
    true
}

/// A chunk `start..end` of `input`, at most half of it long (at least one byte).
fn chunk(rng: &mut Rng, len: usize) -> Option<(usize, usize)> {
    if len == 0 {
        return None;
    }
    let size = rng.size((len / 2).max(1));
    let start = rng.below(len - size + 1);
    Some((start, start + size))
}

fn delete_chunk(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let Some((start, end)) = chunk(rng, input.len()) else { return false };
    input.drain(start..end);
    true
}

fn duplicate_chunk(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let Some((start, end)) = chunk(rng, input.len()) else { return false };
    let copy = input[start..end].to_vec();
    let at = rng.below(input.len() + 1);
    input.splice(at..at, copy);
    true
}

fn splice(rng: &mut Rng, input: &mut Vec<u8>, donors: &[&[u8]]) -> bool {
    let Some(donor) = donors.get(rng.below(donors.len().max(1))) else { return false };
    let Some((start, end)) = chunk(rng, donor.len()) else { return false };
    let at = rng.below(input.len() + 1);
    if rng.chance(1, 2) {
        input.splice(at..at, donor[start..end].iter().copied());
    } else {
        // Overwrite instead of insert: keeps the length, changes the content.
        let end_at = (at + end - start).min(input.len());
        input.splice(at..end_at, donor[start..end].iter().copied());
    }
    true
}

fn crossover(rng: &mut Rng, input: &mut Vec<u8>, donors: &[&[u8]]) -> bool {
    let Some(donor) = donors.get(rng.below(donors.len().max(1))) else { return false };
    let mine = line_starts(input);
    let theirs = line_starts(donor);
    let cut = *rng.pick(&mine);
    let from = *rng.pick(&theirs);
    input.truncate(cut);
    input.extend_from_slice(&donor[from..]);
    true
}

/// The byte ranges of the integers in `input`, a leading `-` included.
fn numbers(input: &[u8]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < input.len() {
        if input[i].is_ascii_digit() {
            let start = if i > 0 && input[i - 1] == b'-' { i - 1 } else { i };
            while i < input.len() && input[i].is_ascii_digit() {
                i += 1;
            }
            found.push((start, i));
        } else {
            i += 1;
        }
    }
    found
}

fn replace_number(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let numbers = numbers(input);
    if numbers.is_empty() {
        return false;
    }
    let (start, end) = *rng.pick(&numbers);
    let old: i128 = std::str::from_utf8(&input[start..end]).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let new = match rng.below(6) {
        0..=2 => (*rng.pick(INTERESTING_NUMBERS)).to_string(),
        // Off by a little: the fence posts of a range or a grid.
        3 => (old + [-2, -1, 1, 2][rng.below(4)]).to_string(),
        // Scaled: a 9 becomes 9000 or 9 000 000.
        4 => (old.saturating_mul(10i128.pow(rng.size(9) as u32))).to_string(),
        // A huge digit string, longer than any integer type.
        _ => (0..rng.size(300)).map(|_| char::from(b'0' + rng.below(10) as u8)).collect(),
    };
    input.splice(start..end, new.into_bytes());
    true
}

/// The offset of the start of every line, plus the end of the input.
fn line_starts(input: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(input.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    if *starts.last().expect("starts with 0") != input.len() {
        starts.push(input.len());
    }
    starts
}

/// A random whole line `start..end` (its line break included).
fn pick_line(rng: &mut Rng, input: &[u8]) -> Option<(usize, usize)> {
    let starts = line_starts(input);
    if starts.len() < 2 {
        return None;
    }
    let i = rng.below(starts.len() - 1);
    Some((starts[i], starts[i + 1]))
}

fn duplicate_line(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let Some((start, end)) = pick_line(rng, input) else { return false };
    let mut line = input[start..end].to_vec();
    if line.last() != Some(&b'\n') {
        line.push(b'\n');
    }
    // Mostly once; now and then many times, for files with thousands of statements.
    let times = if rng.chance(1, 8) { rng.size(2000) } else { 1 };
    let at = *rng.pick(&line_starts(input));
    let copies = line.repeat(times);
    if at == input.len() && input.last().is_some_and(|&b| b != b'\n') {
        input.push(b'\n');
        let at = input.len();
        input.splice(at..at, copies);
    } else {
        input.splice(at..at, copies);
    }
    true
}

fn delete_line(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let Some((start, end)) = pick_line(rng, input) else { return false };
    input.drain(start..end);
    true
}

fn swap_lines(rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let starts = line_starts(input);
    if starts.len() < 3 {
        return false;
    }
    let mut lines: Vec<Vec<u8>> = starts.windows(2).map(|w| input[w[0]..w[1]].to_vec()).collect();
    if lines.last().is_some_and(|l| l.last() != Some(&b'\n')) {
        lines.last_mut().expect("not empty").push(b'\n');
    }
    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
    lines.swap(a, b);
    *input = lines.concat();
    true
}

/// A position to insert a token at: mostly right after a space or a line break, so the
/// token stands alone rather than gluing onto a name.
fn token_boundary(rng: &mut Rng, input: &[u8]) -> usize {
    let at = rng.below(input.len() + 1);
    if rng.chance(1, 4) {
        return at;
    }
    input[at..].iter().position(|b| b.is_ascii_whitespace()).map_or(input.len(), |p| at + p + 1)
}

/// The byte ranges of the words (letters, digits, `_`) and operator runs of `input`.
fn words(input: &[u8]) -> Vec<(usize, usize)> {
    let class = |b: u8| {
        if b.is_ascii_alphanumeric() || b == b'_' {
            1
        } else if b.is_ascii_punctuation() {
            2
        } else {
            0
        }
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let c = class(input[i]);
        let start = i;
        while i < input.len() && class(input[i]) == c {
            i += 1;
        }
        if c != 0 {
            found.push((start, i));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &[u8] = b"let n = 8\nvar q[1..n] in 1..n\nalldifferent(q)\nsolve all\n";

    #[test]
    fn same_seed_same_mutants() {
        let mutator = Mutator::new(Kind::Puz, 1 << 16);
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200).map(|_| mutator.mutate(&mut rng, SEED, &[b"queens n = 8\n"])).collect::<Vec<_>>()
        };
        assert_eq!(run(11), run(11));
        assert_ne!(run(11), run(12));
    }

    #[test]
    fn every_mutation_applies_to_an_empty_input_and_respects_the_length_cap() {
        let mutator = Mutator::new(Kind::Puz, 100);
        let mut rng = Rng::new(5);
        for (mutation, _) in Mutation::WEIGHTED {
            for _ in 0..50 {
                let mut input = Vec::new();
                mutator.apply(mutation, &mut rng, &mut input, &[]);
                let mut input = SEED.to_vec();
                mutator.apply(mutation, &mut rng, &mut input, &[SEED]);
            }
        }
        for _ in 0..500 {
            assert!(mutator.mutate(&mut rng, SEED, &[SEED]).len() <= 100);
        }
    }

    #[test]
    fn numbers_are_replaced_whole() {
        let mut rng = Rng::new(1);
        let mut seen_huge = false;
        for _ in 0..300 {
            let mut input = b"x in -12..345".to_vec();
            assert!(replace_number(&mut rng, &mut input));
            let text = String::from_utf8(input).expect("ASCII stays ASCII");
            assert!(text.starts_with("x in "), "{text}");
            seen_huge |= text.len() > 40;
        }
        assert!(seen_huge, "huge digit strings are drawn");
    }

    #[test]
    fn line_helpers_see_every_line() {
        assert_eq!(line_starts(b"a\nbc\nd"), vec![0, 2, 5, 6]);
        assert_eq!(line_starts(b"a\n"), vec![0, 2]);
        assert_eq!(numbers(b"a-1 b22"), vec![(1, 3), (5, 7)]);
        assert_eq!(words(b"x[1..n] "), vec![(0, 1), (1, 2), (2, 3), (3, 5), (5, 6), (6, 7)]);
    }
}
