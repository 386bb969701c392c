//! `cpsolve table compte`: which targets each selection of the game reaches.
//!
//! The game's 24 tiles are 1..10 twice and 25, 50, 75, 100; a selection is 6 of them,
//! 13,243 distinct multisets in all. Selections share most of their parts, so the values
//! of every multiset of up to 5 tiles (5,402 of size 5, 7,837 in all) are computed once,
//! each from its splits into two smaller multisets (`reach::combine` on every pair of values),
//! level by level, the multisets of a level in parallel. A selection itself needs only
//! the values inside the target range: its own splits are combined with range-restricted
//! lookups (`combine_in_range`), and its sub-multisets' in-range sets are or-ed in (not
//! every tile need be used). Every figure is a sum over selections done in a fixed order,
//! so the result is the same for any thread count.
//!
//! Both computations stop at their [`Deadline`] (its time, or a stop requested on the run's
//! token: out of memory): they return [`Stopped`] then, never a partial set of targets, which
//! would read as a smaller answer.

use crate::Deadline;
use std::collections::HashMap;
use std::ops::RangeInclusive;

use rayon::prelude::*;

use super::reach::{combine, Counters, Reach, Value};

/// The game's tiles and how many of each the bag holds.
pub const BAG: [(u32, u32); 14] = [
    (1, 2),
    (2, 2),
    (3, 2),
    (4, 2),
    (5, 2),
    (6, 2),
    (7, 2),
    (8, 2),
    (9, 2),
    (10, 2),
    (25, 1),
    (50, 1),
    (75, 1),
    (100, 1),
];
/// Tiles drawn for one game.
pub const DRAWN: usize = 6;

/// A set of targets, one bit each, from the range's low end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets {
    pub lo: u64,
    pub hi: u64,
    words: Vec<u64>,
}

impl Targets {
    pub fn new(range: &RangeInclusive<u64>) -> Targets {
        let (lo, hi) = (*range.start(), *range.end());
        let len = if hi >= lo { hi - lo + 1 } else { 0 };
        Targets { lo, hi, words: vec![0; len.div_ceil(64) as usize] }
    }

    fn set(&mut self, v: u64) {
        let i = v - self.lo;
        self.words[(i / 64) as usize] |= 1 << (i % 64);
    }

    pub fn contains(&self, v: u64) -> bool {
        (self.lo..=self.hi).contains(&v) && {
            let i = v - self.lo;
            self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
        }
    }

    fn union(&mut self, other: &Targets) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The targets in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (self.lo..=self.hi).filter(|&v| self.contains(v))
    }

    /// Sets every value in the range that sorted `values` holds.
    fn add_sorted<T: Copy + Into<u64>>(&mut self, values: &[T]) {
        let start = values.partition_point(|&v| v.into() < self.lo);
        for &v in &values[start..] {
            let v = v.into();
            if v > self.hi {
                break;
            }
            self.set(v);
        }
    }
}

/// Adds to `out` every value in its range that one step on some `x` of `xs` and some `y`
/// of `ys` gives (both sorted). Each `y` of the smaller side looks up, by binary search,
/// the slice of the other side that can land in the range, so the work grows with the
/// smaller side and the results, not with the product of the sizes.
pub(crate) fn combine_in_range<T: Copy + Into<u64>>(xs: &[T], ys: &[T], out: &mut Targets) {
    let (xs, ys) = if xs.len() >= ys.len() { (xs, ys) } else { (ys, xs) };
    let (lo, hi) = (out.lo, out.hi);
    if lo > hi || lo == 0 {
        return;
    }
    // The `x` of `xs` in `from..=to`.
    let slice = |from: u64, to: u64| -> &[T] {
        if from > to {
            return &[];
        }
        let a = xs.partition_point(|&x| x.into() < from);
        let b = xs.partition_point(|&x| x.into() <= to);
        &xs[a..b.max(a)]
    };
    for &y in ys {
        let y: u64 = y.into();
        // x + y
        for &x in slice(lo.saturating_sub(y), hi.saturating_sub(y)) {
            out.set(x.into() + y);
        }
        // x - y
        for &x in slice(lo.saturating_add(y), hi.saturating_add(y)) {
            out.set(x.into() - y);
        }
        // y - x
        if y > lo {
            for &x in slice((y.saturating_sub(hi)).max(1), y - lo) {
                out.set(y - x.into());
            }
        }
        if y > 1 {
            // x × y (x > 1)
            for &x in slice(lo.div_ceil(y).max(2), hi / y) {
                out.set(x.into() * y);
            }
            // x ÷ y
            for &x in slice(lo.saturating_mul(y), hi.saturating_mul(y)) {
                let x: u64 = x.into();
                if x % y == 0 {
                    out.set(x / y);
                }
            }
            // y ÷ x (x > 1)
            for &x in slice(y.div_ceil(hi).max(2), y / lo) {
                let x: u64 = x.into();
                if y % x == 0 {
                    out.set(y / x);
                }
            }
        }
    }
}

/// A limit stopped the computation before it was complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// Which limit: `"time"` or `"memory"` (as JSON's `"stopped"` names them).
    pub limit: &'static str,
}

fn stopped(deadline: &Deadline) -> Stopped {
    Stopped { limit: deadline.stop_name() }
}

/// The targets in `range` that some subset of `tiles` makes: the subset table up to
/// `n - 1` tiles, then the whole set's splits restricted to the range.
pub fn reachable(
    tiles: &[u64],
    range: RangeInclusive<u64>,
    threads: usize,
    deadline: &Deadline,
) -> Result<Targets, Stopped> {
    let mut out = Targets::new(&range);
    if tiles.is_empty() {
        return Ok(out);
    }
    let pool = (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten();
    let mut reach = Reach::new(tiles);
    let n = reach.tiles.len();
    reach.extend_to(n - 1, deadline, pool.as_ref()).map_err(|_| stopped(deadline))?;
    for m in 1..reach.full() {
        if reach.canon(m) == m {
            out.add_sorted(reach.values(m));
        }
    }
    if n == 1 {
        out.add_sorted(&reach.tiles);
        return Ok(out);
    }
    for (a, b) in reach.splits(reach.full()) {
        if deadline.expired() {
            return Err(stopped(deadline));
        }
        combine_in_range(reach.values(a), reach.values(b), &mut out);
    }
    Ok(out)
}

/// One selection's row of the table.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The tiles, ascending.
    pub tiles: Vec<u32>,
    /// Large tiles (25, 50, 75, 100) among them.
    pub large: usize,
    /// Ways to draw it from the bag (the product of binomials over tile values).
    pub draws: u64,
    pub reached: Targets,
}

/// The whole table and its figures.
#[derive(Debug)]
pub struct Table {
    pub lo: u64,
    pub hi: u64,
    pub selections: Vec<Selection>,
    /// For each target (from `lo`), the number of selections that reach it.
    pub per_target: Vec<u64>,
    /// Pairs of values combined for the shared memo.
    pub nodes: u64,
    /// Values stored in the shared memo.
    pub stored: u64,
}

impl Table {
    pub fn targets(&self) -> u64 {
        self.hi.saturating_sub(self.lo) + u64::from(self.hi >= self.lo)
    }

    /// (selections, pairs, solvable pairs) for selections with `large` large tiles.
    pub fn by_large(&self, large: usize) -> (u64, u64, u64) {
        let rows: Vec<&Selection> = self.selections.iter().filter(|s| s.large == large).collect();
        let solvable = rows.iter().map(|s| s.reached.count()).sum();
        (rows.len() as u64, rows.len() as u64 * self.targets(), solvable)
    }

    pub fn solvable(&self) -> u64 {
        self.selections.iter().map(|s| s.reached.count()).sum()
    }

    /// The share of solvable games when the 6 tiles are drawn at random from the bag and
    /// the target uniformly from the range (the French rule).
    pub fn draw_weighted_share(&self) -> f64 {
        let total: u128 =
            self.selections.iter().map(|s| u128::from(s.draws)).sum::<u128>() * u128::from(self.targets());
        let hit: u128 = self.selections.iter().map(|s| u128::from(s.draws) * u128::from(s.reached.count())).sum();
        if total == 0 {
            0.0
        } else {
            hit as f64 / total as f64
        }
    }
}

/// A multiset of tiles as a sorted array and its length; the key of the shared memo.
type Key = ([u8; DRAWN], u8);

fn key(tiles: &[u32]) -> Key {
    let mut k = [0u8; DRAWN];
    for (slot, &t) in k.iter_mut().zip(tiles) {
        // Tiles of the bag are at most 100.
        *slot = u8::try_from(t).unwrap_or(u8::MAX);
    }
    (k, tiles.len() as u8)
}

/// The distinct multisets of `size` tiles from the bag, in lexicographic order.
fn multisets(size: usize) -> Vec<Vec<u32>> {
    fn extend(from: usize, size: usize, current: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if current.len() == size {
            out.push(current.clone());
            return;
        }
        for (i, &(value, copies)) in BAG.iter().enumerate().skip(from) {
            let used = current.iter().filter(|&&t| t == value).count() as u32;
            if used < copies {
                current.push(value);
                extend(i, size, current, out);
                current.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(0, size, &mut Vec::new(), &mut out);
    out
}

/// The distinct splits of a sorted multiset into two non-empty sorted parts.
fn splits(tiles: &[u32]) -> Vec<(Vec<u32>, Vec<u32>)> {
    let n = tiles.len();
    let mut out = Vec::new();
    // Part `a` holds position 0, so each unordered split comes once (up to equal tiles).
    for mask in (1u32..1 << n).filter(|m| m & 1 == 1 && m.count_ones() < n as u32) {
        let side = |inside: bool| -> Vec<u32> {
            tiles.iter().enumerate().filter(|&(i, _)| (mask >> i & 1 == 1) == inside).map(|(_, &t)| t).collect()
        };
        let (a, b) = (side(true), side(false));
        out.push(if a <= b { (a, b) } else { (b, a) });
    }
    out.sort();
    out.dedup();
    out
}

/// The sub-multisets with one tile fewer.
fn minus_one(tiles: &[u32]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = (0..tiles.len())
        .map(|i| tiles.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &t)| t).collect())
        .collect();
    out.dedup();
    out
}

/// What the memo keeps of a multiset of up to 5 tiles.
#[derive(Debug)]
struct Part {
    /// Every value of exactly these tiles, sorted. `u32` holds them: the largest is
    /// 100 × 75 × 50 × 25 × 10, and an overflowing product is dropped (and counted).
    values: Vec<u32>,
    /// The targets these tiles, or some of them, reach.
    within: Targets,
}

fn ways(copies: u32, taken: u32) -> u64 {
    match (copies, taken) {
        (_, 0) => 1,
        (c, t) if t > c => 0,
        (2, 1) => 2,
        _ => 1,
    }
}

/// Computes the table for `range`, on `threads` worker threads, by `deadline`.
pub fn table(range: RangeInclusive<u64>, threads: usize, deadline: &Deadline) -> Result<Table, Stopped> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build();
    let work = || build(range.clone(), deadline);
    match &pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

fn build(range: RangeInclusive<u64>, deadline: &Deadline) -> Result<Table, Stopped> {
    let mut memo: HashMap<Key, Part> = HashMap::new();
    let mut counters = Counters::default();
    // Each multiset checks the limits before its work; one that stops fails its level.
    let check = || if deadline.expired() { Err(stopped(deadline)) } else { Ok(()) };
    for size in 1..DRAWN {
        let level = multisets(size);
        let parts: Vec<(Part, Counters)> =
            level.par_iter().map(|tiles| check().map(|()| part(tiles, &memo, &range))).collect::<Result<_, _>>()?;
        for (tiles, (p, c)) in level.iter().zip(parts) {
            counters.add(&c);
            counters.stored += p.values.len() as u64;
            memo.insert(key(tiles), p);
        }
    }
    let selections: Vec<Selection> = multisets(DRAWN)
        .par_iter()
        .map(|tiles| {
            check()?;
            let mut reached = Targets::new(&range);
            for sub in minus_one(tiles) {
                if let Some(p) = memo.get(&key(&sub)) {
                    reached.union(&p.within);
                }
            }
            for (a, b) in splits(tiles) {
                if let (Some(pa), Some(pb)) = (memo.get(&key(&a)), memo.get(&key(&b))) {
                    combine_in_range(&pa.values, &pb.values, &mut reached);
                }
            }
            let large = tiles.iter().filter(|&&t| t > 10).count();
            let draws = BAG
                .iter()
                .map(|&(value, copies)| ways(copies, tiles.iter().filter(|&&t| t == value).count() as u32))
                .product();
            Ok(Selection { tiles: tiles.clone(), large, draws, reached })
        })
        .collect::<Result<_, _>>()?;
    let targets = Targets::new(&range);
    let per_target =
        targets_range(&targets).map(|v| selections.iter().filter(|s| s.reached.contains(v)).count() as u64).collect();
    Ok(Table { lo: targets.lo, hi: targets.hi, selections, per_target, nodes: counters.nodes, stored: counters.stored })
}

fn targets_range(t: &Targets) -> RangeInclusive<u64> {
    t.lo..=t.hi
}

/// The memo entry of one multiset of up to 5 tiles, from its (memoised) parts.
fn part(tiles: &[u32], memo: &HashMap<Key, Part>, range: &RangeInclusive<u64>) -> (Part, Counters) {
    let mut counters = Counters::default();
    let mut within = Targets::new(range);
    let values: Vec<u32> = if tiles.len() == 1 {
        tiles.to_vec()
    } else {
        let mut out: Vec<u32> = Vec::new();
        let mut dropped = 0;
        for (a, b) in splits(tiles) {
            let (Some(pa), Some(pb)) = (memo.get(&key(&a)), memo.get(&key(&b))) else { continue };
            for &x in &pa.values {
                for &y in &pb.values {
                    combine(Value::from(x), Value::from(y), &mut counters, |v| match u32::try_from(v) {
                        Ok(v) => out.push(v),
                        Err(_) => dropped += 1,
                    });
                }
            }
        }
        counters.failures += dropped;
        out.sort_unstable();
        out.dedup();
        for sub in minus_one(tiles) {
            if let Some(p) = memo.get(&key(&sub)) {
                within.union(&p.within);
            }
        }
        out
    };
    within.add_sorted(&values);
    (Part { values, within }, counters)
}
