//! The values reachable from every subset of the tiles: dynamic programming over subsets.
//!
//! `sets[m]` holds, sorted and without repeats, every value that an expression using
//! *exactly* the tiles of mask `m` can take. A mask's values come from its splits into two
//! disjoint parts, combined with the four operations. Equal tiles are interchangeable, so
//! each mask is first mapped to a canonical one (the same count of each tile value, taken
//! from the lowest positions): `1 1 2 …` computes `{1a, 2}` once, not twice.
//!
//! The full mask is never stored: its values are what the puzzle asks about, and they are
//! read on the fly ([`Reach::full_contains`], [`Reach::scan_full`]), which saves the largest
//! set of all (tens of millions of values for ten tiles).

use crate::Deadline;

use rayon::prelude::*;

/// A tile or an intermediate result.
pub(crate) type Value = u64;

/// An operation of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl Op {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "×",
            Op::Div => "÷",
        }
    }
}

/// The results of one step on two values, larger first: `a + b`, `a - b`, `a × b`, `a ÷ b`
/// when each is a positive integer. Multiplying or dividing by 1 changes nothing: such a
/// step never makes a new value (the spec's "steps that change nothing"), so it is skipped.
/// A product above `u64::MAX` is skipped too (no game gets near it; the count of such
/// skips is reported as failures).
#[inline]
pub(crate) fn combine(x: Value, y: Value, counters: &mut Counters, mut f: impl FnMut(Value)) {
    let (a, b) = if x >= y { (x, y) } else { (y, x) };
    counters.nodes += 1;
    match a.checked_add(b) {
        Some(s) => f(s),
        None => counters.failures += 1,
    }
    if a > b {
        f(a - b);
    }
    if b > 1 {
        match a.checked_mul(b) {
            Some(p) => f(p),
            None => counters.failures += 1,
        }
        if a % b == 0 {
            f(a / b);
        }
    }
}

/// Effort figures, reported under `--stats`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counters {
    /// Pairs of values combined.
    pub(crate) nodes: u64,
    /// Results skipped because they overflow.
    pub(crate) failures: u64,
    /// Values stored in the subset table.
    pub(crate) stored: u64,
}

impl Counters {
    pub(crate) fn add(&mut self, other: &Counters) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.stored += other.stored;
    }
}

/// The search ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TimedOut;

/// Values below this are collected in a bitmap rather than sorted (8 KiB per subset).
const SMALL: u64 = 1 << 16;

/// The subset table of one set of tiles.
#[derive(Debug)]
pub(crate) struct Reach {
    /// The tiles, ascending (so that equal tiles sit side by side).
    pub(crate) tiles: Vec<Value>,
    /// `canon[m]`: the canonical mask with the same multiset of tiles as `m`.
    canon: Vec<u32>,
    /// `sets[m]` for canonical proper masks computed so far; empty otherwise.
    sets: Vec<Vec<Value>>,
    /// Levels (tile counts) computed so far.
    pub(crate) levels: usize,
    pub(crate) counters: Counters,
}

impl Reach {
    /// The table with only the single tiles filled in. `tiles` need not be sorted.
    pub(crate) fn new(tiles: &[Value]) -> Reach {
        let mut tiles = tiles.to_vec();
        tiles.sort_unstable();
        let n = tiles.len();
        let masks = 1usize << n;
        // first[i]: the lowest position holding the value of tile i.
        let first: Vec<usize> = (0..n).map(|i| tiles.iter().position(|&t| t == tiles[i]).unwrap_or(i)).collect();
        let canon = (0..masks)
            .map(|m| {
                let mut c = 0u32;
                for (i, &start) in first.iter().enumerate() {
                    if m >> i & 1 == 1 {
                        // Take the next free position of this value's run.
                        let mut j = start;
                        while c >> j & 1 == 1 {
                            j += 1;
                        }
                        c |= 1 << j;
                    }
                }
                c
            })
            .collect();
        let mut sets = vec![Vec::new(); masks];
        for (i, &t) in tiles.iter().enumerate() {
            sets[1 << i] = vec![t];
        }
        Reach { tiles, canon, sets, levels: 1, counters: Counters::default() }
    }

    pub(crate) fn full(&self) -> u32 {
        ((1u64 << self.tiles.len()) - 1) as u32
    }

    pub(crate) fn canon(&self, m: u32) -> u32 {
        self.canon[m as usize]
    }

    /// The values of exactly the tiles of `m` (`m` a proper mask of a computed level).
    pub(crate) fn values(&self, m: u32) -> &[Value] {
        &self.sets[self.canon[m as usize] as usize]
    }

    /// The canonical masks with `level` tiles, ascending.
    pub(crate) fn masks_of_level(&self, level: usize) -> Vec<u32> {
        (1..=self.full()).filter(|&m| m.count_ones() as usize == level && self.canon(m) == m).collect()
    }

    /// The distinct splits of `m` into two non-empty parts, as pairs of canonical masks
    /// (each unordered split once; equal tiles make many splits alike).
    pub(crate) fn splits(&self, m: u32) -> Vec<(u32, u32)> {
        let low = m & m.wrapping_neg();
        let mut out: Vec<(u32, u32)> = Vec::new();
        let rest = m ^ low;
        // Every submask of `rest`, joined with the lowest bit, is the part holding it.
        let mut s = rest;
        loop {
            let a = s | low;
            let b = m ^ a;
            if b != 0 {
                let (ca, cb) = (self.canon(a), self.canon(b));
                let pair = if ca <= cb { (ca, cb) } else { (cb, ca) };
                out.push(pair);
            }
            if s == 0 {
                break;
            }
            s = (s - 1) & rest;
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Fills in every proper mask with up to `level` tiles (at most `n - 1`), level by
    /// level, the masks of a level in parallel on `pool`. The result does not depend on
    /// the number of threads.
    pub(crate) fn extend_to(
        &mut self,
        level: usize,
        deadline: &Deadline,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<(), TimedOut> {
        let top = level.min(self.tiles.len().saturating_sub(1));
        while self.levels < top {
            let next = self.levels + 1;
            let masks = self.masks_of_level(next);
            let this = &*self;
            // Without a pool, no rayon at all: starting its global pool costs more than
            // a whole 6-tile game.
            let results: Vec<Result<(Vec<Value>, Counters), TimedOut>> = match pool {
                Some(pool) => pool.install(|| masks.par_iter().map(|&m| this.compute(m, deadline)).collect()),
                None => masks.iter().map(|&m| this.compute(m, deadline)).collect(),
            };
            for (m, result) in masks.into_iter().zip(results) {
                let (set, counters) = result?;
                self.counters.add(&counters);
                self.counters.stored += set.len() as u64;
                self.sets[m as usize] = set;
            }
            self.levels = next;
        }
        Ok(())
    }

    /// The sorted values of canonical mask `m`, from its splits' (already computed) sets.
    fn compute(&self, m: u32, deadline: &Deadline) -> Result<(Vec<Value>, Counters), TimedOut> {
        if deadline.expired() {
            return Err(TimedOut);
        }
        let mut counters = Counters::default();
        // Most values are small: those go to a bitmap (deduplicated for free and read out
        // in order), and only the few large ones are sorted. Sorting everything cost
        // more than all the arithmetic.
        let mut small = vec![0u64; (SMALL / 64) as usize];
        let mut large = Vec::new();
        for (a, b) in self.splits(m) {
            let (xs, ys) = (&self.sets[a as usize], &self.sets[b as usize]);
            for &x in xs {
                for &y in ys {
                    combine(x, y, &mut counters, |v| {
                        if v < SMALL {
                            small[(v / 64) as usize] |= 1 << (v % 64);
                        } else {
                            large.push(v);
                        }
                    });
                }
            }
        }
        large.sort_unstable();
        large.dedup();
        let mut out = Vec::with_capacity(large.len() + 64);
        for (i, &word) in small.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push(i as u64 * 64 + u64::from(w.trailing_zeros()));
                w &= w - 1;
            }
        }
        out.extend(large);
        Ok((out, counters))
    }

    /// Whether `v` is a value of the whole set of tiles (every proper level computed).
    pub(crate) fn full_contains(&self, v: Value) -> bool {
        let full = self.full();
        if self.tiles.len() == 1 {
            return self.tiles[0] == v;
        }
        self.splits(full).into_iter().any(|(a, b)| {
            let ys = &self.sets[b as usize];
            self.sets[a as usize]
                .iter()
                .any(|&x| partners(x, v).into_iter().flatten().any(|y| ys.binary_search(&y).is_ok()))
        })
    }

    /// Calls `f` with every value of the whole set of tiles (repeats included).
    pub(crate) fn scan_full(&mut self, deadline: &Deadline, mut f: impl FnMut(Value)) -> Result<(), TimedOut> {
        if self.tiles.len() == 1 {
            f(self.tiles[0]);
            return Ok(());
        }
        let mut counters = Counters::default();
        for (a, b) in self.splits(self.full()) {
            if deadline.expired() {
                return Err(TimedOut);
            }
            for &x in &self.sets[a as usize] {
                for &y in &self.sets[b as usize] {
                    combine(x, y, &mut counters, &mut f);
                }
            }
        }
        self.counters.add(&counters);
        Ok(())
    }
}

/// The values `y` such that some step on `x` and `y` gives `v`: `v - x`, `x - v`, `x + v`,
/// `v ÷ x`, `x ÷ v`, `x × v` (steps by 1 excluded, as in [`combine`]).
pub(crate) fn partners(x: Value, v: Value) -> [Option<Value>; 6] {
    [
        v.checked_sub(x).filter(|&y| y > 0),
        x.checked_sub(v).filter(|&y| y > 0),
        x.checked_add(v),
        (x > 1 && v % x == 0 && v / x > 1).then(|| v / x),
        (v > 0 && x % v == 0 && x / v > 1).then(|| x / v),
        if x > 1 { x.checked_mul(v) } else { None },
    ]
}
