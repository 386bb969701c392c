//! Counting the completions of the queens constraint ([`super::AllDifferentShifted`]) with
//! bitboards: one variable per column, its value the row, and three 64-bit masks — rows
//! taken, and the two diagonals taken, each shifted by one row per column — in the style of
//! Jeff Somers' counter. The free rows of the next column are `allowed & !(rows | down | up)`;
//! taking the lowest one is `free & free.wrapping_neg()`.
//!
//! Two searches share that core:
//!
//! - [`count_all`] on any domains (a window of at most 64 rows): a depth-first search over an
//!   explicit stack of masks. When the domains are symmetric about the middle row, the
//!   left-right mirror halves the work: the first queen in the lower half counts twice.
//! - On a full n×n board (every domain the whole window), [`D4`]: the classic count by the
//!   8 symmetries of the square (rotations and reflections, the dihedral group D4), due to
//!   Takaki. Cuts keep the search to placements that can represent their class: first a
//!   queen in a corner (its class always has 8 members), then a first queen on the edge
//!   away from the corners, where each completion is compared with its rotations to know
//!   whether it represents its class and whether that class has 2, 4 or 8 members. It
//!   visits a little under half the nodes the mirror alone would.
//!
//! Both ask whether to stop every [`CHECK_EVERY`] nodes, and both split the search into
//! subtrees counted in parallel on the current rayon pool: the count is a sum of exact
//! parts, the same on any number of threads. A [`Share`] of the count is a contiguous run
//! of those tasks (the shares of a split count, each on its own machine, add up to the
//! count, and each still profits from the symmetries).

use rayon::prelude::*;

use crate::outcome::Interrupted;
use crate::propagator::Share;

/// How often (in nodes) the search asks whether to stop: rarely enough that the question
/// costs nothing, often enough (about every half millisecond) that a timeout or an interrupt
/// is honoured at once.
const CHECK_EVERY: u32 = 1 << 16;

/// One column's state on the explicit stack.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    /// Rows of this column allowed, free and not yet tried.
    free: u64,
    /// Rows, `x + i` diagonals and `x − i` diagonals taken by the columns before, as seen
    /// from this column.
    rows: u64,
    down: u64,
    up: u64,
}

/// The state of the next column after a queen on `bit`: a queen on row r attacks row r−1
/// of the next column along `x + i` and row r+1 along `x − i`.
#[inline(always)]
fn place(rows: u64, down: u64, up: u64, bit: u64) -> (u64, u64, u64) {
    (rows | bit, (down | bit) >> 1, (up | bit) << 1)
}

/// Completions of the last two columns of a square board (as many columns as rows), where
/// the column before last has at most two free rows and the last one at most one: both
/// candidates are tried without a branch, since whether each fits is as good as random.
#[inline(always)]
fn last_two(before_last: u64, last: u64, rows: u64, down: u64, up: u64) -> u64 {
    let free = before_last & !(rows | down | up);
    let first = free & free.wrapping_neg();
    let second = free ^ first;
    let fits = |bit: u64| {
        let (rows, down, up) = place(rows, down, up, bit);
        u64::from(bit != 0) & u64::from(last & !(rows | down | up) != 0)
    };
    fits(first) + fits(second)
}

/// Counts the completions of a board: `allowed[c]` holds the rows column `c` may take, as
/// bits from the lowest row of a window of `rows_in_window` (≤ 64) rows. `Err` when `stop`
/// said so.
pub(crate) fn count_all(
    allowed: &[u64],
    rows_in_window: u32,
    stop: &(dyn Fn() -> bool + Sync),
    share: Share,
) -> Result<u128, Interrupted> {
    let n = allowed.len();
    if n > rows_in_window as usize {
        // More columns than rows: two queens would share a row.
        return Ok(0);
    }
    let full = u64::MAX >> (64 - rows_in_window);
    if n == rows_in_window as usize && n >= D4::MIN_N && allowed.iter().all(|&m| m == full) {
        return D4::count(n, stop, share);
    }
    let counter = Counter { allowed, square: n == rows_in_window as usize, stop };
    if n < 3 {
        // One task, in the first share.
        if !share.holds(0, 1) {
            return Ok(0);
        }
        let total = if n == 0 { Some(1) } else { counter.count(0, 0, 0, 0) };
        return total.map(u128::from).ok_or(Interrupted);
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
    // The subtrees below the first two columns are the parallel tasks.
    let tasks: Vec<(u64, u64, u64, u128)> = firsts
        .iter()
        .flat_map(|&(bit, weight)| {
            let (rows, down, up) = place(0, 0, 0, bit);
            bits(allowed[1] & !(rows | down | up)).map(move |b| {
                let (rows, down, up) = place(rows, down, up, b);
                (rows, down, up, weight)
            })
        })
        .collect();
    let count = tasks.len();
    let tasks: Vec<_> = tasks.into_iter().enumerate().filter(|&(i, _)| share.holds(i, count)).map(|(_, t)| t).collect();
    let parts: Vec<Option<u128>> = tasks
        .par_iter()
        .map(|&(rows, down, up, weight)| counter.count(2, rows, down, up).map(|n| weight * u128::from(n)))
        .collect();
    parts.into_iter().sum::<Option<u128>>().ok_or(Interrupted)
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

/// The depth-first counter over any domains (at most 64 columns).
struct Counter<'a> {
    allowed: &'a [u64],
    /// As many columns as rows: then every row but two is taken when the column before last
    /// is reached, which [`last_two`] relies on.
    square: bool,
    stop: &'a (dyn Fn() -> bool + Sync),
}

impl Counter<'_> {
    /// Completions of columns `c..` given the rows and both diagonals already taken (`c` <
    /// number of columns), or `None` when asked to stop.
    fn count(&self, c: usize, rows: u64, down: u64, up: u64) -> Option<u64> {
        if self.square {
            self.count_from::<true>(c, rows, down, up)
        } else {
            self.count_from::<false>(c, rows, down, up)
        }
    }

    /// The search as a loop over an explicit stack of masks instead of a recursion: no
    /// call, no registers to save per node. Only columns up to the fourth from last take
    /// stack frames. The third from last tries its free rows in an inner loop, and the last
    /// two are counted by [`last_two`] (or, on boards with more rows than columns, by a
    /// loop and a population count). A child without any free row is not pushed at all.
    fn count_from<const SQUARE: bool>(&self, c: usize, rows: u64, down: u64, up: u64) -> Option<u64> {
        let allowed = self.allowed;
        let n = allowed.len();
        debug_assert!(c < n && n <= 64);
        let free = allowed[c] & !(rows | down | up);
        let (before_last, last) = (allowed[n - 2], allowed[n - 1]);
        // Completions of the last two columns.
        let tail = |rows: u64, down: u64, up: u64| {
            if SQUARE {
                return last_two(before_last, last, rows, down, up);
            }
            let mut free = before_last & !(rows | down | up);
            let mut total = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let (rows, down, up) = place(rows, down, up, bit);
                total += u64::from((last & !(rows | down | up)).count_ones());
            }
            total
        };
        // Completions of the last three columns, given the free rows of the first.
        let tail3 = |mut free: u64, rows: u64, down: u64, up: u64| {
            let mut total = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let (rows, down, up) = place(rows, down, up, bit);
                total += tail(rows, down, up);
            }
            total
        };
        match n - c {
            1 => return Some(u64::from(free.count_ones())),
            2 => return Some(tail(rows, down, up)),
            3 => return Some(tail3(free, rows, down, up)),
            _ => {}
        }
        // Frame `d` is column `c + d`; the frame `top` is the fourth column from last.
        let top = n - 4 - c;
        let mut next = [0u64; 64];
        next[..n - c - 1].copy_from_slice(&allowed[c + 1..]);
        let mut frames = [Frame::default(); 64];
        frames[0] = Frame { free, rows, down, up };
        let mut d = 0;
        let mut total = 0;
        let mut budget = CHECK_EVERY;
        loop {
            // `d < 64` always; the mask spares the bounds check.
            let frame = &mut frames[d & 63];
            if frame.free == 0 {
                if d == 0 {
                    return Some(total);
                }
                d -= 1;
                continue;
            }
            let bit = frame.free & frame.free.wrapping_neg();
            frame.free ^= bit;
            let (rows, down, up) = place(frame.rows, frame.down, frame.up, bit);
            let free = next[d & 63] & !(rows | down | up);
            if d == top {
                total += tail3(free, rows, down, up);
                continue;
            }
            if free == 0 {
                continue;
            }
            d += 1;
            frames[d & 63] = Frame { free, rows, down, up };
            budget -= 1;
            if budget == 0 {
                if (self.stop)() {
                    return None;
                }
                budget = CHECK_EVERY;
            }
        }
    }
}

/// The count of a full n×n board by its 8 symmetries (Takaki's algorithm).
///
/// Rows and columns are those of the board as the counter sees it: column `y` is the
/// `y`-th queen placed, its bit the row. A class of solutions under the symmetries of the
/// square has 8 members, or 4 if it is invariant under the half turn, or 2 under the
/// quarter turn. The search places one representative of each class, and adds its class's
/// size:
///
/// - **Corner:** a queen on row 0 of column 0. No such solution is invariant under a
///   rotation (it would need a queen in the opposite corner, on the same diagonal) or a
///   reflection (the one in the diagonal through the corner would pair queens on a common
///   antidiagonal), so its class has 8 members. Of the two that keep the corner queen, the
///   search keeps the one where column 1's queen is on a row `bound1` smaller than the
///   column of row 1's queen (row 1 stays free up to column `bound1`). Each counts 8.
/// - **Edge:** no queen in any corner; the first column's queen on row `bound1` in the lower
///   half. Columns before `bound1` keep their queens off the first and last rows; at column
///   `bound2 = n − 1 − bound1` the branch is cut if neither is taken yet, and the queen takes
///   the other if one is; the last column keeps its queen at least `bound1` rows from either
///   end. Those cuts keep at least the representative of each class; a completion is then
///   compared with its three rotations (in the order of the search: column by column,
///   lower rows first) and counted only if none comes first, with the size of its class.
///
/// It visits a little under half the nodes of the mirror-only search (n = 12 to 16).
#[derive(Debug, Clone)]
struct D4 {
    n: usize,
    /// Rows allowed per column by the pruning rules.
    allowed: [u64; 64],
    bound1: usize,
    bound2: usize,
    /// The first and last rows.
    edges: u64,
    /// For the half-turn test: the last column's queen where the half turn of the first
    /// column's queen would be.
    end_bit: u64,
}

impl D4 {
    /// Smaller boards take the mirror counter (the rules assume room for both bounds).
    const MIN_N: usize = 6;

    fn count(n: usize, stop: &(dyn Fn() -> bool + Sync), share: Share) -> Result<u128, Interrupted> {
        let full = u64::MAX >> (64 - n);
        let top_bit = 1u64 << (n - 1);
        // Corner: a task per row of column 1, counted by the plain counter whose domains
        // carry the rule "row 1 stays free before column bound1".
        let corners: Vec<Vec<u64>> = (2..n - 1)
            .map(|bound1| {
                (0..n)
                    .map(|y| match y {
                        0 => 1,
                        1 => 1 << bound1,
                        y if y < bound1 => full & !2,
                        _ => full,
                    })
                    .collect()
            })
            .collect();
        // Edge: a task per (bound1, row of column 1).
        let mut edge_tasks: Vec<(D4, [u64; 2])> = Vec::new();
        let edges = top_bit | 1;
        let mut last_mask = edges;
        let mut end_bit = top_bit >> 1;
        let (mut bound1, mut bound2) = (1, n - 2);
        while bound1 < bound2 {
            let mut allowed = [0u64; 64];
            for (y, a) in allowed.iter_mut().enumerate().take(n) {
                *a = if y < bound1 { full & !edges } else { full };
            }
            allowed[n - 1] = full & !last_mask;
            let d4 = D4 { n, allowed, bound1, bound2, edges, end_bit };
            let first = 1u64 << bound1;
            let (rows, down, up) = place(0, 0, 0, first);
            for second in bits(allowed[1] & !(rows | down | up)) {
                edge_tasks.push((d4.clone(), [first, second]));
            }
            last_mask |= last_mask >> 1 | last_mask << 1;
            end_bit >>= 1;
            bound1 += 1;
            bound2 -= 1;
        }
        // The share's tasks: corners first, then edges, in the order listed.
        let tasks = corners.len() + edge_tasks.len();
        let corners: Vec<Vec<u64>> =
            corners.into_iter().enumerate().filter(|&(i, _)| share.holds(i, tasks)).map(|(_, c)| c).collect();
        let skipped = tasks - edge_tasks.len();
        let edge_tasks: Vec<(D4, [u64; 2])> = edge_tasks
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| share.holds(skipped + i, tasks))
            .map(|(_, t)| t)
            .collect();
        let corner_parts = corners.par_iter().map(|allowed| {
            let counter = Counter { allowed, square: true, stop };
            let (rows, down, up) = place(0, 0, 0, 1);
            let (rows, down, up) = place(rows, down, up, allowed[1]);
            counter.count(2, rows, down, up).map(|k| 8 * u128::from(k))
        });
        let edge_parts = edge_tasks.par_iter().map(|(d4, start)| d4.count_edge(*start, stop).map(u128::from));
        let parts: Vec<Option<u128>> = corner_parts.chain(edge_parts).collect();
        parts.into_iter().sum::<Option<u128>>().ok_or(Interrupted)
    }

    /// The free rows of column `y` given what is taken, with the rule of column `bound2`.
    #[inline(always)]
    fn free(&self, y: usize, rows: u64, down: u64, up: u64) -> u64 {
        let free = self.allowed[y & 63] & !(rows | down | up);
        if y != self.bound2 {
            return free;
        }
        match rows & self.edges {
            0 => 0,
            taken if taken != self.edges => free & self.edges,
            _ => free,
        }
    }

    /// The edge search below the queens of the first two columns: the sum of the class
    /// sizes of the representatives found. `None` when asked to stop.
    fn count_edge(&self, start: [u64; 2], stop: &(dyn Fn() -> bool + Sync)) -> Option<u64> {
        let n = self.n;
        let mut board = [0u64; 64];
        board[..2].copy_from_slice(&start);
        let (rows, down, up) = place(0, 0, 0, start[0]);
        let (rows, down, up) = place(rows, down, up, start[1]);
        let mut frames = [Frame::default(); 64];
        frames[2] = Frame { free: self.free(2, rows, down, up), rows, down, up };
        // As in `Counter::count_from`, but frame `y` is column `y`, columns up to n − 3 take
        // frames, and the last two are tried in place, each solution then compared with its
        // rotations.
        let mut y = 2;
        let mut total = 0;
        let mut budget = CHECK_EVERY;
        loop {
            let frame = &mut frames[y & 63];
            if frame.free == 0 {
                if y == 2 {
                    return Some(total);
                }
                y -= 1;
                continue;
            }
            let bit = frame.free & frame.free.wrapping_neg();
            frame.free ^= bit;
            board[y & 63] = bit;
            let (rows, down, up) = place(frame.rows, frame.down, frame.up, bit);
            if y + 3 == n {
                total += self.last_two(&mut board, rows, down, up);
                continue;
            }
            let free = self.free(y + 1, rows, down, up);
            if free == 0 {
                continue;
            }
            y += 1;
            frames[y & 63] = Frame { free, rows, down, up };
            budget -= 1;
            if budget == 0 {
                if stop() {
                    return None;
                }
                budget = CHECK_EVERY;
            }
        }
    }

    /// The last two columns of the edge search, and the class sizes of the solutions.
    fn last_two(&self, board: &mut [u64; 64], rows: u64, down: u64, up: u64) -> u64 {
        let n = self.n;
        let mut free = self.free(n - 2, rows, down, up);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let (rows, down, up) = place(rows, down, up, bit);
            let last = self.allowed[n - 1] & !(rows | down | up);
            if last != 0 {
                board[n - 2] = bit;
                board[n - 1] = last;
                total += self.class_size(board);
            }
        }
        total
    }

    /// The size of the class of the solution `board` (column `y`'s queen as a bit), or 0
    /// when one of its rotations comes first in the order of the search (smaller bits
    /// first, column by column): that rotation is the class's representative.
    fn class_size(&self, board: &[u64; 64]) -> u64 {
        let n = self.n;
        let e = n - 1;
        let row = |y: usize| board[y].trailing_zeros() as usize;
        // column[r]: the column whose queen is on row r.
        let mut column = [0usize; 64];
        for y in 0..n {
            column[row(y)] = y;
        }
        // `Less` if the board comes first, `Greater` if the rotation does, `Equal` if they
        // are the same placement; column 0 is equal whenever the test is made.
        let compare = |rotated: &dyn Fn(usize) -> u64| {
            (1..n).map(|y| board[y].cmp(&rotated(y))).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
        };
        use std::cmp::Ordering::{Equal, Greater};
        // Each rotation is compared only if it puts the first column's queen on row
        // `bound1` too (else the cuts already decided): the quarter turn does if column
        // `bound2`'s queen is on row 0, the half turn if the last column's is on `end_bit`,
        // the three-quarter turn if column `bound1`'s is on the last row.
        if board[self.bound2] == 1 {
            match compare(&|y| 1u64 << (e - column[y])) {
                Greater => return 0,
                Equal => return 2,
                _ => {}
            }
        }
        if board[e] == self.end_bit {
            match compare(&|y| 1u64 << (e - row(e - y))) {
                Greater => return 0,
                Equal => return 4,
                _ => {}
            }
        }
        if board[self.bound1] == 1 << e && compare(&|y| 1u64 << column[e - y]) == Greater {
            return 0;
        }
        8
    }
}
