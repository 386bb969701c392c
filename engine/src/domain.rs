//! The domain of one integer variable: a bitset of values with cached bounds and size.
//!
//! A domain is the set `{ v ∈ [min, max] : bit(v - offset) }`. Bits outside `[min, max]`
//! are ignored, so narrowing the bounds never touches the bitset: only the three cached
//! numbers change. That makes bound changes O(1) to apply and to undo, which matters
//! because they are by far the most frequent change (linear and all-different work on
//! bounds).
//!
//! Very large ranges are kept as pure intervals (`bits == None`) until a value inside
//! them must be removed; the bitset then covers the variable's initial range, all set,
//! which describes the current interval exactly, so materialising needs no undo. A range
//! wider than [`MAX_BITSET_SPAN`] is never materialised: removing an inner value from it is
//! skipped (see `Store::remove`), which only weakens propagation; the search checks every
//! constraint on each solution when that has happened.
//!
//! Domains whose initial range spans at most 64 values (digits, cells, booleans: most
//! domains of puzzles) keep their bitset in one inline word instead, with no heap block to
//! reach and no size to maintain: their size is counted from the word when asked for, which
//! is rarer than a bound change. The store saves such a domain whole (bounds and word) once
//! per search level, so removing an inner value needs no trail entry of its own.
//!
//! Domains of up to 256 values (a few words) do not keep their size either: it is counted
//! from the bits when asked. Only wider ones keep it up to date at every change, where a
//! count would walk too many words.

use fixedbitset::{Block, FixedBitSet};

pub(crate) type Val = i64;

/// Ranges up to this many values get their bitset at creation.
pub(crate) const EAGER_BITSET_SPAN: u64 = 4096;
/// Ranges wider than this stay intervals for ever.
pub(crate) const MAX_BITSET_SPAN: u64 = 1 << 24;

const BLOCK_BITS: usize = Block::BITS as usize;

/// Domains spanning at most this many values (four words) count their size when asked
/// (`wide_size` is then not kept); wider ones keep it.
pub(crate) const LAZY_SIZE_SPAN: u64 = 256;

#[derive(Debug, Clone)]
pub(crate) struct Domain {
    pub(crate) min: Val,
    pub(crate) max: Val,
    /// The number of values, kept up to date only for wide domains (see [`Domain::size`]).
    pub(crate) wide_size: u64,
    /// The value of bit 0: the initial minimum.
    pub(crate) offset: Val,
    /// The initial number of values in `[offset, initial max]`.
    span: u64,
    /// The bitset of a small domain (`span <= 64`); unused otherwise.
    pub(crate) word: Block,
    /// The bitset of a wide domain, once materialised; always `None` for a small one.
    pub(crate) bits: Option<FixedBitSet>,
}

impl Domain {
    /// `[lo, hi]`, which must not be empty and must not span more than `u64` values.
    pub(crate) fn range(lo: Val, hi: Val) -> Domain {
        debug_assert!(lo <= hi);
        let span = (hi as i128 - lo as i128 + 1) as u64;
        let word = if span >= BLOCK_BITS as u64 { !0 } else { (1 << span) - 1 };
        let mut domain = Domain { min: lo, max: hi, wide_size: span, offset: lo, span, word, bits: None };
        if span <= EAGER_BITSET_SPAN {
            domain.materialise();
        }
        domain
    }

    /// Whether the bitset is the inline word.
    #[inline]
    pub(crate) fn is_small(&self) -> bool {
        self.span <= BLOCK_BITS as u64
    }

    /// The number of values.
    #[inline]
    pub(crate) fn size(&self) -> u64 {
        if self.is_small() {
            self.live_word().count_ones() as u64
        } else if self.counts_lazily() {
            self.count_in(self.min, self.max)
        } else {
            self.wide_size
        }
    }

    /// Whether the size is counted from the bits when asked instead of kept up to date: a
    /// bound change, far more frequent than a question about the size, then counts nothing.
    /// True up to [`LAZY_SIZE_SPAN`] values, a few words to count.
    #[inline]
    pub(crate) fn counts_lazily(&self) -> bool {
        self.span <= LAZY_SIZE_SPAN
    }

    /// Exactly the given values (sorted and deduplicated by the caller; not empty).
    pub(crate) fn from_values(values: &[Val]) -> Domain {
        let (lo, hi) = (values[0], values[values.len() - 1]);
        let mut domain = Domain::range(lo, hi);
        if domain.is_small() {
            domain.word = values.iter().fold(0, |word, &v| word | 1 << (v - lo));
            return domain;
        }
        if domain.span > MAX_BITSET_SPAN {
            // Cannot hold holes this far apart: keep the hull (checked again on solutions).
            return domain;
        }
        let mut bits = FixedBitSet::with_capacity(domain.span as usize);
        for &v in values {
            bits.insert((v - lo) as usize);
        }
        domain.wide_size = values.len() as u64;
        domain.bits = Some(bits);
        domain
    }

    #[inline]
    pub(crate) fn is_fixed(&self) -> bool {
        self.min == self.max
    }

    #[inline]
    pub(crate) fn contains(&self, v: Val) -> bool {
        if v < self.min || v > self.max {
            return false;
        }
        if self.is_small() {
            return self.word >> (v - self.offset) & 1 != 0;
        }
        match &self.bits {
            None => true,
            Some(bits) => bits.contains((v - self.offset) as usize),
        }
    }

    /// Whether values inside the bounds can ever be removed: false for a range too wide for
    /// a bitset, which stays an interval.
    pub(crate) fn can_hold_holes(&self) -> bool {
        self.span <= MAX_BITSET_SPAN
    }

    /// Creates the bitset if it is missing and allowed; returns whether one exists now.
    pub(crate) fn materialise(&mut self) -> bool {
        if self.is_small() || self.bits.is_some() {
            return true;
        }
        if self.span > MAX_BITSET_SPAN {
            return false;
        }
        let mut bits = FixedBitSet::with_capacity(self.span as usize);
        bits.insert_range(..);
        self.bits = Some(bits);
        true
    }

    /// The values `lo..=lo + 63` of the domain as the bits of one word (bit `i` is `lo + i`),
    /// for propagators that reason on bit sets (domain-consistent all-different).
    #[inline]
    pub(crate) fn window(&self, lo: Val) -> u64 {
        if self.is_small() {
            // One word already: shift the live bits to start at `lo`.
            let live = self.live_word() as u64;
            return match lo - self.offset {
                shift @ 0..=63 => live >> shift,
                shift @ -63..=-1 => live << -shift,
                _ => 0,
            };
        }
        let (first, last) = (self.min.max(lo), self.max.min(lo.saturating_add(63)));
        if first > last {
            return 0;
        }
        let in_bounds = (!0u64 >> (63 - (last - lo))) & (!0u64 << (first - lo));
        // `shift` is where bit 0 of the window sits in the domain's own bits (may be negative:
        // the window starts below the initial range, whose bits are then absent).
        let shift = lo - self.offset;
        let raw = if self.is_small() {
            shifted(&[self.word], shift)
        } else {
            match &self.bits {
                None => !0,
                Some(bits) => shifted(bits.as_slice(), shift),
            }
        };
        raw & in_bounds
    }

    /// The word of a small domain with the bits outside `[min, max]` cleared (bit `i` is
    /// `offset + i`).
    #[inline]
    pub(crate) fn live_word(&self) -> Block {
        debug_assert!(self.is_small());
        let (first, last) = ((self.min - self.offset) as u32, (self.max - self.offset) as u32);
        self.word & (!0 << first) & (!0 >> (BLOCK_BITS as u32 - 1 - last))
    }

    /// The single word holding a domain of at most 64 initial values: most domains of
    /// puzzles (digits, cells, booleans) are that small, and one word needs no loop.
    #[inline]
    fn small_word(&self) -> Option<Block> {
        self.is_small().then_some(self.word)
    }

    /// The smallest value of the domain that is `>= v` (and `<= max`).
    pub(crate) fn next_value(&self, v: Val) -> Option<Val> {
        if v > self.max {
            return None;
        }
        let v = v.max(self.min);
        if let Some(word) = self.small_word() {
            // Bits above max may be stale: the bound check below excludes them.
            let rest = word >> ((v - self.offset) as u32);
            if rest == 0 {
                return None;
            }
            let found = v + rest.trailing_zeros() as Val;
            return (found <= self.max).then_some(found);
        }
        let Some(bits) = &self.bits else {
            return Some(v);
        };
        let blocks = bits.as_slice();
        let mut i = (v - self.offset) as usize;
        let end = (self.max - self.offset) as usize;
        let mut b = i / BLOCK_BITS;
        let mut word = blocks[b] & (!0 << (i % BLOCK_BITS));
        loop {
            if word != 0 {
                i = b * BLOCK_BITS + word.trailing_zeros() as usize;
                return (i <= end).then(|| self.offset + i as Val);
            }
            b += 1;
            if b * BLOCK_BITS > end {
                return None;
            }
            word = blocks[b];
        }
    }

    /// The largest value of the domain that is `<= v` (and `>= min`).
    pub(crate) fn prev_value(&self, v: Val) -> Option<Val> {
        if v < self.min {
            return None;
        }
        let v = v.min(self.max);
        if let Some(word) = self.small_word() {
            let i = (v - self.offset) as u32;
            let below = word << (BLOCK_BITS as u32 - 1 - i);
            if below == 0 {
                return None;
            }
            let found = v - below.leading_zeros() as Val;
            return (found >= self.min).then_some(found);
        }
        let Some(bits) = &self.bits else {
            return Some(v);
        };
        let blocks = bits.as_slice();
        let i = (v - self.offset) as usize;
        let start = (self.min - self.offset) as usize;
        let mut b = i / BLOCK_BITS;
        let shift = BLOCK_BITS - 1 - i % BLOCK_BITS;
        let mut word = blocks[b] << shift >> shift;
        loop {
            if word != 0 {
                let j = b * BLOCK_BITS + (BLOCK_BITS - 1 - word.leading_zeros() as usize);
                return (j >= start).then(|| self.offset + j as Val);
            }
            if b == 0 || (b * BLOCK_BITS) <= start {
                return None;
            }
            b -= 1;
            word = blocks[b];
        }
    }

    /// Number of values in `[lo, hi]` (clamped to the bounds).
    pub(crate) fn count_in(&self, lo: Val, hi: Val) -> u64 {
        let (lo, hi) = (lo.max(self.min), hi.min(self.max));
        if lo > hi {
            return 0;
        }
        if let Some(word) = self.small_word() {
            let (first, last) = ((lo - self.offset) as u32, (hi - self.offset) as u32);
            let mask = (!0 << first) & (!0 >> (BLOCK_BITS as u32 - 1 - last));
            return (word & mask).count_ones() as u64;
        }
        let Some(bits) = &self.bits else { return (hi as i128 - lo as i128 + 1) as u64 };
        let (first, last) = ((lo - self.offset) as usize, (hi - self.offset) as usize);
        let blocks = bits.as_slice();
        let (fb, lb) = (first / BLOCK_BITS, last / BLOCK_BITS);
        let low_mask = !0 << (first % BLOCK_BITS);
        let high_mask = !0 >> (BLOCK_BITS - 1 - last % BLOCK_BITS);
        if fb == lb {
            return (blocks[fb] & low_mask & high_mask).count_ones() as u64;
        }
        let middle: u64 = blocks[fb + 1..lb].iter().map(|b| b.count_ones() as u64).sum();
        (blocks[fb] & low_mask).count_ones() as u64 + middle + (blocks[lb] & high_mask).count_ones() as u64
    }

    /// The block index and bit mask that hold value `v` (a wide domain's bitset must exist).
    pub(crate) fn block_of(&self, v: Val) -> (usize, Block) {
        let i = (v - self.offset) as usize;
        (i / BLOCK_BITS, 1 << (i % BLOCK_BITS))
    }

    /// One block of a wide domain's bitset (a small domain's word is changed and saved
    /// whole by the store instead).
    pub(crate) fn block(&self, index: usize) -> Block {
        debug_assert!(!self.is_small());
        self.bits.as_ref().map_or(!0, |bits| bits.as_slice()[index])
    }

    pub(crate) fn set_block(&mut self, index: usize, word: Block) {
        debug_assert!(!self.is_small());
        if let Some(bits) = &mut self.bits {
            bits.as_mut_slice()[index] = word;
        }
    }

    /// Iterates the values in increasing order.
    pub(crate) fn values(&self) -> DomainValues<'_> {
        DomainValues(if self.is_small() {
            Walk::Word { offset: self.offset, rest: self.live_word() }
        } else {
            Walk::Scan { domain: self, next: Some(self.min) }
        })
    }
}

/// Iterator over the values of a domain, in increasing order.
#[derive(Debug)]
pub struct DomainValues<'a>(Walk<'a>);

/// How the values are walked: a small domain pops the lowest bit of a copy of its word
/// (no search per value); a wide one asks for the next value from the last.
#[derive(Debug)]
enum Walk<'a> {
    Word { offset: Val, rest: Block },
    Scan { domain: &'a Domain, next: Option<Val> },
}

impl Iterator for DomainValues<'_> {
    type Item = Val;

    #[inline]
    fn next(&mut self) -> Option<Val> {
        match &mut self.0 {
            Walk::Word { offset, rest } => {
                if *rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros();
                *rest &= *rest - 1;
                Some(*offset + bit as Val)
            }
            Walk::Scan { domain, next } => {
                let v = domain.next_value((*next)?)?;
                *next = v.checked_add(1);
                Some(v)
            }
        }
    }
}

/// The 64 bits of `blocks` (bit `i` of the result is bit `shift + i` of the set) that start at
/// `shift`; bits before 0 or past the end read as 0. Blocks are 64 bits on the targets the
/// engine is built for (the assertion below says so at compile time).
fn shifted(blocks: &[Block], shift: i64) -> u64 {
    const _: () = assert!(BLOCK_BITS == 64);
    if shift < 0 {
        return if shift <= -64 { 0 } else { blocks.first().map_or(0, |&w| (w as u64) << -shift) };
    }
    let (index, bit) = ((shift / 64) as usize, (shift % 64) as u32);
    let low = blocks.get(index).map_or(0, |&w| w as u64 >> bit);
    let high = if bit == 0 { 0 } else { blocks.get(index + 1).map_or(0, |&w| (w as u64) << (64 - bit)) };
    low | high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_and_prev_skip_holes_and_respect_bounds() {
        let mut d = Domain::from_values(&[-3, 0, 64, 65, 200]);
        assert_eq!(d.next_value(-10), Some(-3));
        assert_eq!(d.next_value(1), Some(64));
        assert_eq!(d.prev_value(63), Some(0));
        assert_eq!(d.prev_value(199), Some(65));
        d.max = 65;
        assert_eq!(d.next_value(66), None);
        assert_eq!(d.values().collect::<Vec<_>>(), vec![-3, 0, 64, 65]);
        d.min = 1;
        assert_eq!(d.prev_value(63), None);
        assert_eq!(d.count_in(i64::MIN, i64::MAX), 2);
    }

    proptest::proptest! {
        /// A window agrees with `contains` value by value, for small, wide and interval
        /// domains, with bounds narrowed, and windows starting below, inside or past them.
        #[test]
        fn a_window_holds_exactly_the_values_it_covers(
            values in proptest::collection::btree_set(-70i64..200, 1..40),
            cut in (0usize..5, 0usize..5),
            lo in -200i64..250,
            interval in proptest::bool::ANY,
        ) {
            let values: Vec<Val> = values.into_iter().collect();
            let mut d = if interval { Domain::range(values[0], values[values.len() - 1]) } else { Domain::from_values(&values) };
            let (a, b) = (cut.0.min(values.len() - 1), cut.1.min(values.len() - 1));
            if values[a] <= values[values.len() - 1 - b] {
                d.min = values[a];
                d.max = values[values.len() - 1 - b];
            }
            let window = d.window(lo);
            for i in 0..64 {
                proptest::prop_assert_eq!(window >> i & 1 != 0, d.contains(lo + i), "value {}", lo + i);
            }
        }
    }

    #[test]
    fn huge_ranges_stay_intervals() {
        let d = Domain::range(-1_000_000_000_000, 1_000_000_000_000);
        assert!(d.bits.is_none());
        assert_eq!(d.size(), 2_000_000_000_001);
        assert_eq!(d.next_value(5), Some(5));
        let mut d = d;
        assert!(!d.materialise());
    }
}
