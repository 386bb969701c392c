//! The exact end-game search: when few layouts remain, the bot lists them all and plays
//! the cell that maximises the probability of winning the rest of the game, over every
//! sequence of reveals (an expectimax over sets of layouts, memoised).
//!
//! A state is the set of layouts still consistent (a bit set over at most 128 layouts).
//! Revealing a cell loses in the layouts where it is a mine, and otherwise splits the set
//! by the number the cell shows. The game is won when one layout remains. Flood fills
//! are not modelled (a zero's neighbours are then certain and cost nothing to reveal, so
//! the value is the same).

use std::collections::HashMap;

use super::grid::{Board, Cell};

/// At most this many layouts (one bit each in a `u128`).
pub const MAX_LAYOUTS: usize = 128;
/// At most this many unknown cells (one bit each in a `u128`).
const MAX_CELLS: usize = 128;
/// Work budget of one search (states evaluated); beyond it the bot falls back to its heuristic.
const BUDGET: usize = 200_000;

/// The unknown cells of a position and every layout of them consistent with it.
struct Layouts {
    cells: Vec<usize>,
    /// Per layout, the bit set of its mines among `cells`.
    mines: Vec<u128>,
}

/// Lists the layouts of the covered cells (flags are mines), or `None` if there are more
/// than [`MAX_LAYOUTS`] or the position has too many unknown cells.
fn enumerate(board: &Board) -> Option<Layouts> {
    let cells: Vec<usize> = (0..board.cells.len()).filter(|&i| board.cells[i] == Cell::Covered).collect();
    if cells.len() > MAX_CELLS {
        return None;
    }
    let mut slot = vec![usize::MAX; board.cells.len()];
    for (k, &c) in cells.iter().enumerate() {
        slot[c] = k;
    }
    // Constraints: (mines still needed, unknown cells left), and per cell its constraints.
    let mut need: Vec<i32> = Vec::new();
    let mut left: Vec<i32> = Vec::new();
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); cells.len()];
    for (i, cell) in board.cells.iter().enumerate() {
        let Cell::Open(n) = *cell else { continue };
        let mut flags = 0;
        let mut unknown = 0;
        for j in board.neighbours(i) {
            match board.cells[j] {
                Cell::Flag => flags += 1,
                Cell::Covered => {
                    of_cell[slot[j]].push(need.len());
                    unknown += 1;
                }
                Cell::Open(_) => {}
            }
        }
        if unknown > 0 {
            need.push(i32::from(n) - flags);
            left.push(unknown);
        }
    }
    let total = board.mines? as i32 - board.cells.iter().filter(|c| **c == Cell::Flag).count() as i32;
    let mut out = Vec::new();
    let mut state = Search { of_cell: &of_cell, need, left, total, cells_left: cells.len() as i32, out: &mut out };
    if !state.go(0, 0) {
        return None;
    }
    Some(Layouts { cells, mines: out })
}

struct Search<'a> {
    of_cell: &'a [Vec<usize>],
    need: Vec<i32>,
    left: Vec<i32>,
    total: i32,
    cells_left: i32,
    out: &'a mut Vec<u128>,
}

impl Search<'_> {
    /// Depth-first over cells in order; false when there are too many layouts.
    fn go(&mut self, k: usize, mines: u128) -> bool {
        if self.total < 0 || self.total > self.cells_left {
            return true;
        }
        if k == self.of_cell.len() {
            if self.out.len() == MAX_LAYOUTS {
                return false;
            }
            self.out.push(mines);
            return true;
        }
        for mine in [false, true] {
            let d = i32::from(mine);
            let ok = self.of_cell[k].iter().all(|&c| {
                let need = self.need[c] - d;
                need >= 0 && need < self.left[c]
            });
            if !ok {
                continue;
            }
            for &c in &self.of_cell[k] {
                self.need[c] -= d;
                self.left[c] -= 1;
            }
            self.total -= d;
            self.cells_left -= 1;
            let go_on = self.go(k + 1, if mine { mines | 1 << k } else { mines });
            self.total += d;
            self.cells_left += 1;
            for &c in &self.of_cell[k] {
                self.need[c] += d;
                self.left[c] += 1;
            }
            if !go_on {
                return false;
            }
        }
        true
    }
}

struct Solver<'a> {
    layouts: &'a Layouts,
    /// Per unknown cell, the bit set of its unknown neighbours.
    around: Vec<u128>,
    memo: HashMap<u128, f64>,
    work: usize,
}

impl Solver<'_> {
    /// The layouts of `set` where cell `k` is safe, grouped by the number it shows.
    fn split(&self, set: u128, k: usize) -> Vec<u128> {
        let mut groups: [u128; 9] = [0; 9];
        let mut rest = set;
        while rest != 0 {
            let l = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let m = self.layouts.mines[l];
            if m >> k & 1 == 0 {
                groups[((m & self.around[k]).count_ones() as usize).min(8)] |= 1 << l;
            }
        }
        groups.into_iter().filter(|&g| g != 0).collect()
    }

    /// The probability of winning from `set`; `None` when the budget runs out.
    fn value(&mut self, set: u128) -> Option<f64> {
        if set.count_ones() <= 1 {
            return Some(1.0);
        }
        if let Some(&v) = self.memo.get(&set) {
            return Some(v);
        }
        self.work += 1;
        if self.work > BUDGET {
            return None;
        }
        let n = f64::from(set.count_ones());
        let mut best = 0.0f64;
        for k in 0..self.layouts.cells.len() {
            let groups = self.split(set, k);
            // A cell safe everywhere that shows the same number everywhere teaches nothing.
            if groups.len() == 1 && groups[0] == set {
                continue;
            }
            let safe: u32 = groups.iter().map(|g| g.count_ones()).sum();
            // An upper bound on this cell's value: it cannot beat the best so far.
            if f64::from(safe) / n <= best {
                continue;
            }
            let mut v = 0.0;
            for g in groups {
                v += f64::from(g.count_ones()) * self.value(g)?;
            }
            best = best.max(v / n);
            if best >= 1.0 {
                break;
            }
        }
        self.memo.insert(set, best);
        Some(best)
    }
}

/// The best cell to reveal and its winning probability, when the position is small
/// enough to be searched exactly.
pub fn best_move(board: &Board) -> Option<(usize, f64)> {
    let layouts = enumerate(board)?;
    if layouts.mines.len() < 2 {
        return None;
    }
    let mut slot = vec![usize::MAX; board.cells.len()];
    for (k, &c) in layouts.cells.iter().enumerate() {
        slot[c] = k;
    }
    let around = layouts
        .cells
        .iter()
        .map(|&c| board.neighbours(c).filter(|&j| slot[j] != usize::MAX).fold(0u128, |m, j| m | 1 << slot[j]))
        .collect();
    let mut solver = Solver { layouts: &layouts, around, memo: HashMap::new(), work: 0 };
    let all: u128 = if layouts.mines.len() == 128 { u128::MAX } else { (1u128 << layouts.mines.len()) - 1 };
    let n = layouts.mines.len() as f64;
    let mut best: Option<(usize, f64)> = None;
    for k in 0..layouts.cells.len() {
        let groups = solver.split(all, k);
        if groups.len() == 1 && groups[0] == all {
            continue;
        }
        let mut v = 0.0;
        for g in groups {
            v += f64::from(g.count_ones()) * solver.value(g)?;
        }
        let v = v / n;
        if best.is_none_or(|(_, b)| v > b + 1e-12) {
            best = Some((layouts.cells[k], v));
        }
    }
    best
}
