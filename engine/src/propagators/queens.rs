//! N-queens as one global constraint: `xᵢ`, `xᵢ + i` and `xᵢ − i` all different.
//!
//! It prunes exactly like the three all-different constraints with offsets (value
//! elimination: a fixed queen removes its row and both diagonals from every other
//! column), in one pass instead of three. What makes it worth a propagator of its own is
//! counting: when it is the only constraint left, [`Propagator::count_solutions`] counts
//! the completions of the current domains with a bitboard depth-first search — rows and
//! both diagonals as 64-bit masks shifted one column at a time (Jeff Somers' counter) —
//! instead of walking the engine's search tree node by node.

use rayon::prelude::*;

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::propagator::{Context, Events, Interrupted, PostContext, Priority, PropResult, PropStatus, Propagator};

#[derive(Debug, Clone)]
pub struct Queens {
    /// Column `i` of the board; its value is the row.
    vars: Vec<VarId>,
    /// Columns in an order whose first `fixed` entries are fixed and eliminated.
    order: Vec<u32>,
    fixed: Option<TrailedInt>,
}

impl Queens {
    pub(crate) fn new(vars: Vec<VarId>) -> Queens {
        let order = (0..vars.len() as u32).collect();
        Queens { vars, order, fixed: None }
    }
}

/// How often (in bitboard nodes) the counter asks whether to stop.
const CHECK_EVERY: u64 = 1 << 16;

struct Counter<'a> {
    /// Allowed rows per column, as bits from the lowest row of the board.
    allowed: &'a [u64],
    nodes: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
    interrupted: bool,
}

impl Counter<'_> {
    /// Completions of columns `c..` given the rows and diagonals already taken
    /// (`c` < number of columns).
    fn count(&mut self, c: usize, rows: u64, down: u64, up: u64) -> u64 {
        let free = self.allowed[c] & !(rows | down | up);
        if c + 1 == self.allowed.len() {
            return u64::from(free.count_ones());
        }
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 && (self.stop)() {
            self.interrupted = true;
        }
        if self.interrupted {
            return 0;
        }
        let mut free = free;
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            // A queen on row r of column c attacks row r−1 of the next column along `x + i`
            // and row r+1 along `x − i`.
            total += self.count(c + 1, rows | bit, (down | bit) >> 1, (up | bit) << 1);
        }
        total
    }

    /// All completions. When every column allows a set of rows symmetric about the middle
    /// of the board, the left-right mirror maps completions with the first queen in the
    /// lower half onto those in the upper half: count one half and double it. The subtrees
    /// below the first two columns are counted in parallel on the current rayon pool (a
    /// sum of exact counts, so the answer is the same on any number of threads).
    fn count_all(allowed: &[u64], rows_in_window: u32, stop: &(dyn Fn() -> bool + Sync)) -> Result<u128, Interrupted> {
        if allowed.len() < 3 {
            let mut counter = Counter { allowed, nodes: 0, stop, interrupted: false };
            let total = if allowed.is_empty() { 1 } else { counter.count(0, 0, 0, 0) };
            return if counter.interrupted { Err(Interrupted) } else { Ok(u128::from(total)) };
        }
        let mirror = |m: u64| m.reverse_bits() >> (64 - rows_in_window);
        let symmetric = allowed.iter().all(|&m| mirror(m) == m);
        // (first queen, weight): the lower half twice and the middle once, or every row once.
        let first = allowed[0];
        let half = rows_in_window / 2;
        let firsts: Vec<(u64, u128)> = if symmetric {
            let lower = first & ((1u64 << half) - 1);
            let middle = if rows_in_window % 2 == 1 { first & (1u64 << half) } else { 0 };
            bits(lower).map(|b| (b, 2)).chain(bits(middle).map(|b| (b, 1))).collect()
        } else {
            bits(first).map(|b| (b, 1)).collect()
        };
        let tasks: Vec<(u64, u64, u64, u128)> = firsts
            .iter()
            .flat_map(|&(bit, weight)| {
                let (rows, down, up) = (bit, bit >> 1, bit << 1);
                bits(allowed[1] & !(rows | down | up)).map(move |b| (rows | b, (down | b) >> 1, (up | b) << 1, weight))
            })
            .collect();
        let results: Vec<(u128, bool)> = tasks
            .par_iter()
            .map(|&(rows, down, up, weight)| {
                let mut counter = Counter { allowed, nodes: 0, stop, interrupted: false };
                let n = counter.count(2, rows, down, up);
                (weight * u128::from(n), counter.interrupted)
            })
            .collect();
        if results.iter().any(|&(_, interrupted)| interrupted) {
            return Err(Interrupted);
        }
        Ok(results.iter().map(|&(n, _)| n).sum())
    }
}

/// The set bits of a mask, lowest first, each as a mask.
fn bits(mut mask: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask & mask.wrapping_neg();
            mask ^= bit;
            bit
        })
    })
}

impl Propagator for Queens {
    fn name(&self) -> &'static str {
        "queens"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::ASSIGNED);
        }
        self.fixed = Some(cx.new_int(0));
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let slot = self.fixed.expect("posted before propagating");
        let n = self.vars.len();
        let mut done = cx.int(slot) as usize;
        let mut i = done;
        while i < n {
            let k = self.order[i] as usize;
            if !cx.is_fixed(self.vars[k]) {
                i += 1;
                continue;
            }
            self.order.swap(i, done);
            done += 1;
            let v = cx.min(self.vars[k]);
            for &j in &self.order[done..] {
                let j = j as usize;
                let d = j as i64 - k as i64;
                let x = self.vars[j];
                let _ = cx.remove(x, v)?;
                let _ = cx.remove(x, v + d)?;
                let _ = cx.remove(x, v - d)?;
            }
            // A removal may have fixed a column that was already scanned.
            i = done;
        }
        cx.set_int(slot, done as i64);
        Ok(if done == n { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let q: Vec<i64> = self.vars.iter().map(|&x| value(x)).collect();
        (0..q.len()).all(|a| (a + 1..q.len()).all(|b| q[a] != q[b] && (q[a] - q[b]).abs() != (b - a) as i64))
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn can_count_solutions(&self, cx: &Context<'_>) -> bool {
        let low = self.vars.iter().map(|&x| cx.min(x)).min();
        let high = self.vars.iter().map(|&x| cx.max(x)).max();
        matches!((low, high), (Some(l), Some(h)) if h - l < 64)
    }

    fn count_solutions(&self, cx: &Context<'_>, stop: &(dyn Fn() -> bool + Sync)) -> Option<Result<u128, Interrupted>> {
        let low = self.vars.iter().map(|&x| cx.min(x)).min()?;
        let high = self.vars.iter().map(|&x| cx.max(x)).max()?;
        if high - low >= 64 {
            return None;
        }
        let allowed: Vec<u64> =
            self.vars.iter().map(|&x| cx.values(x).fold(0u64, |mask, v| mask | 1 << (v - low))).collect();
        let rows = (high - low + 1) as u32;
        Some(Counter::count_all(&allowed, rows, stop))
    }
}
