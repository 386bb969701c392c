//! The exact end-game search: when few layouts remain, the bot lists them all and plays
//! the cell that maximises the probability of winning, over every sequence of reveals
//! (an expectimax over sets of layouts, memoised).
//!
//! The search runs on the whole board, or on an isolated component (a frontier component
//! whose covered neighbours all belong to it, so no number revealed elsewhere can tell
//! anything about it). Layouts carry weights: all equal on the whole board; for a
//! component, the ways the rest of the board completes a layout with that many mines.
//! On a component the search is exact for those weights, but the total number of mines
//! still ties the component to the rest: what the rest of the game reveals about its
//! count is not foreseen, so there the search is a (very good) heuristic.
//!
//! Revealing a cell loses in the layouts where it is a mine, and otherwise splits the set
//! by the number the cell shows. The cells are settled when one layout remains. Flood
//! fills are not modelled (a zero's neighbours are then certain and cost nothing to
//! reveal, so the value is the same).

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::grid::{Board, Cell};

/// At most this many layouts are listed and searched (3,000 rather than 1,000: +0.05
/// points on 6,000 expert games, 20% slower).
pub const MAX_LAYOUTS: usize = 3000;
// Sets of layouts are lists of `u16` indices.
const _: () = assert!(MAX_LAYOUTS <= u16::MAX as usize);
/// Work budget of one search (cell × layout steps); beyond it the bot falls back to its
/// heuristic.
const BUDGET: u64 = 60_000_000;
/// What a cell shows in a layout where it is a mine.
const MINE: u8 = u8::MAX;

/// How the number of mines among the cells is tied.
#[derive(Debug, Clone, Copy)]
pub enum MineCount<'a> {
    /// Exactly this many (the whole board: every covered cell is listed).
    Exactly(usize),
    /// Any number `k`, the layout then weighing `weights[k]` (zero: impossible).
    Weighted(&'a [f64]),
}

/// Cells, and every layout of their mines consistent with the numbers around them.
#[derive(Debug, Clone)]
pub struct Layouts {
    pub cells: Vec<usize>,
    /// `shown[k][l]`: the number of mines around cell `k` among `cells` in layout `l`, or
    /// [`MINE`]. Flags around a cell add the same amount in every layout: left out.
    shown: Vec<Vec<u8>>,
    weight: Vec<f64>,
}

impl Layouts {
    pub fn len(&self) -> usize {
        self.weight.len()
    }

    pub fn is_empty(&self) -> bool {
        self.weight.is_empty()
    }

    /// Every layout holds the same number of mines: the total number of mines left can
    /// never tell them apart.
    pub fn mine_count_fixed(&self) -> bool {
        let mut counts = (0..self.len()).map(|l| self.shown.iter().filter(|s| s[l] == MINE).count());
        let first = counts.next();
        counts.all(|c| Some(c) == first)
    }
}

/// Lists the layouts of `cells` (covered, unflagged) that have a positive weight, or
/// `None` when a listed cell is not covered, a number around them also sees a covered
/// cell not listed, no layout weighs anything, or there are more than [`MAX_LAYOUTS`]
/// layouts or the listing takes more than `LISTING_STEPS` (2,000,000) steps.
pub fn enumerate(board: &Board, cells: &[usize], count: MineCount) -> Option<Layouts> {
    if cells.iter().any(|&c| board.cells[c] != Cell::Covered) {
        return None;
    }
    let cells = &search_order(board, cells)[..];
    let mut slot = vec![usize::MAX; board.cells.len()];
    for (k, &c) in cells.iter().enumerate() {
        slot[c] = k;
    }
    // Constraints: (mines still needed, listed cells left), and per cell its constraints.
    let mut need: Vec<i32> = Vec::new();
    let mut left: Vec<i32> = Vec::new();
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); cells.len()];
    let mut seen = vec![false; board.cells.len()];
    for &c in cells {
        for i in board.neighbours(c) {
            let Cell::Open(n) = board.cells[i] else { continue };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let mut flags = 0;
            let mut unknown = 0;
            for j in board.neighbours(i) {
                match board.cells[j] {
                    Cell::Flag => flags += 1,
                    Cell::Covered if slot[j] == usize::MAX => return None,
                    Cell::Covered => {
                        of_cell[slot[j]].push(need.len());
                        unknown += 1;
                    }
                    Cell::Open(_) => {}
                }
            }
            need.push(i32::from(n) - flags);
            left.push(unknown);
        }
    }
    let (lo, hi) = match count {
        MineCount::Exactly(m) => (m, m),
        MineCount::Weighted(w) => {
            let lo = w.iter().position(|&x| x > 0.0)?;
            let hi = w.iter().rposition(|&x| x > 0.0)?;
            (lo, hi)
        }
    };
    let mut search = Search {
        of_cell: &of_cell,
        need,
        left,
        lo: lo as i32,
        hi: hi as i32,
        mines: 0,
        current: vec![false; cells.len()],
        out: Vec::new(),
        steps: 0,
    };
    if !search.go(0) {
        return None;
    }
    let around: Vec<Vec<usize>> = cells
        .iter()
        .map(|&c| board.neighbours(c).filter(|&j| slot[j] != usize::MAX).map(|j| slot[j]).collect())
        .collect();
    let weight_of = |m: &Vec<bool>| match count {
        MineCount::Exactly(_) => 1.0,
        MineCount::Weighted(w) => w[m.iter().filter(|&&x| x).count()],
    };
    // A layout of weight zero cannot happen (a count between two possible ones may be
    // impossible for the rest of the board): it is dropped, so no set weighs zero.
    let (out, weight): (Vec<Vec<bool>>, Vec<f64>) = search
        .out
        .into_iter()
        .filter_map(|m| {
            let w = weight_of(&m);
            (w > 0.0).then_some((m, w))
        })
        .unzip();
    if out.is_empty() {
        return None;
    }
    let shown = (0..cells.len())
        .map(|k| {
            out.iter().map(|m| if m[k] { MINE } else { around[k].iter().filter(|&&j| m[j]).count() as u8 }).collect()
        })
        .collect();
    Some(Layouts { cells: cells.to_vec(), shown, weight })
}

/// The cells in an order where the numbers are settled soon after they are opened
/// (breadth first over cells two steps apart, the cells that touch a number first; the
/// free cells last, where only the count of mines limits them): a number whose cells are
/// spread over the order would let the depth-first listing wander through many dead ends.
fn search_order(board: &Board, cells: &[usize]) -> Vec<usize> {
    let touches = |c: usize| board.neighbours(c).any(|j| matches!(board.cells[j], Cell::Open(_)));
    let mut member = vec![false; board.cells.len()];
    for &c in cells {
        member[c] = true;
    }
    let (w, h) = (board.width as isize, board.height as isize);
    let mut order = Vec::with_capacity(cells.len());
    let mut queued = vec![false; board.cells.len()];
    for &start in cells.iter().filter(|&&c| touches(c)) {
        if std::mem::replace(&mut queued[start], true) {
            continue;
        }
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            order.push(c);
            let (r, col) = ((c / board.width) as isize, (c % board.width) as isize);
            for dr in -2..=2 {
                for dc in -2..=2 {
                    let (nr, nc) = (r + dr, col + dc);
                    if !(0..h).contains(&nr) || !(0..w).contains(&nc) {
                        continue;
                    }
                    let j = (nr * w + nc) as usize;
                    if member[j] && !queued[j] && touches(j) {
                        queued[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
    }
    order.extend(cells.iter().copied().filter(|&c| !queued[c]));
    order
}

/// Depth-first steps the listing may take before it gives up (a few milliseconds).
const LISTING_STEPS: u64 = 2_000_000;

struct Search<'a> {
    of_cell: &'a [Vec<usize>],
    need: Vec<i32>,
    left: Vec<i32>,
    /// Bounds on the number of mines among all the cells.
    lo: i32,
    hi: i32,
    mines: i32,
    current: Vec<bool>,
    out: Vec<Vec<bool>>,
    steps: u64,
}

impl Search<'_> {
    /// Depth-first over cells in order; false when there are too many layouts or steps.
    fn go(&mut self, k: usize) -> bool {
        self.steps += 1;
        if self.steps > LISTING_STEPS {
            return false;
        }
        let cells_left = (self.of_cell.len() - k) as i32;
        if self.mines > self.hi || self.mines + cells_left < self.lo {
            return true;
        }
        if k == self.of_cell.len() {
            if self.out.len() == MAX_LAYOUTS {
                return false;
            }
            self.out.push(self.current.clone());
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
            self.mines += d;
            self.current[k] = mine;
            let go_on = self.go(k + 1);
            self.current[k] = false;
            self.mines -= d;
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

/// (weight, index): heaviest first, then lowest index (deterministic).
fn heaviest_first(a: &(f64, usize), b: &(f64, usize)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

struct Solver<'a> {
    layouts: &'a Layouts,
    memo: HashMap<Box<[u16]>, f64, FixedState>,
    work: u64,
}

/// Floating-point slack when comparing values.
const EPSILON: f64 = 1e-12;

impl Solver<'_> {
    fn weight(&self, set: &[u16]) -> f64 {
        set.iter().map(|&l| self.layouts.weight[l as usize]).sum()
    }

    /// The probability of settling `set`; `None` when the budget runs out.
    fn value(&mut self, set: &[u16]) -> Option<f64> {
        if set.len() <= 1 {
            return Some(1.0);
        }
        if set.len() == 2 {
            return Some(self.pair(set[0] as usize, set[1] as usize));
        }
        if let Some(&v) = self.memo.get(set) {
            return Some(v);
        }
        let (v, _) = self.best(set)?;
        self.memo.insert(set.into(), v);
        Some(v)
    }

    /// The value of two layouts: 1 when a cell safe in both shows different numbers,
    /// else the weight of the likelier one (a cell safe in it and a mine in the other
    /// tells them apart; two distinct layouts have one).
    fn pair(&self, a: usize, b: usize) -> f64 {
        let shown = &self.layouts.shown;
        if shown.iter().any(|s| s[a] != MINE && s[b] != MINE && s[a] != s[b]) {
            return 1.0;
        }
        let (wa, wb) = (self.layouts.weight[a], self.layouts.weight[b]);
        let a_only = shown.iter().any(|s| s[a] != MINE && s[b] == MINE);
        let b_only = shown.iter().any(|s| s[b] != MINE && s[a] == MINE);
        let best = match (a_only, b_only) {
            (true, true) => wa.max(wb),
            (true, false) => wa,
            (false, true) => wb,
            (false, false) => 0.0,
        };
        best / (wa + wb)
    }

    /// The best cell to reveal in `set` (an index into the cells) and its value.
    fn best(&mut self, set: &[u16]) -> Option<(f64, Option<usize>)> {
        let cells = self.layouts.cells.len();
        self.work += (cells * set.len()) as u64;
        if self.work > BUDGET {
            return None;
        }
        let total = self.weight(set);
        // Which cells are worth revealing. A cell safe in every layout that shows
        // different numbers is free information: revealing it first is never worse, so
        // it is the only move tried. A dead cell (one number whenever it is safe) tells
        // only that it is safe, and postponing it after any other move is never worse:
        // so a best play starts with a live cell, or reveals only dead cells to the end
        // (`dead_only`). Safest first: a cell's value is at most its safety, so the scan
        // stops early.
        let mut live: Vec<(f64, usize)> = Vec::new();
        let mut dead: Vec<(f64, usize)> = Vec::new();
        for k in 0..cells {
            let shown = &self.layouts.shown[k];
            let (mut safe, mut n, mut first, mut constant) = (0.0, 0, MINE, true);
            for &l in set {
                let s = shown[l as usize];
                if s != MINE {
                    safe += self.layouts.weight[l as usize];
                    n += 1;
                    if first == MINE {
                        first = s;
                    } else if s != first {
                        constant = false;
                    }
                }
            }
            match (n, constant) {
                (0, _) => {}
                (n, true) if n == set.len() => {}
                (n, false) if n == set.len() => {
                    live = vec![(safe, k)];
                    dead.clear();
                    break;
                }
                (_, true) => dead.push((safe, k)),
                (_, false) => live.push((safe, k)),
            }
        }
        let only_dead = live.is_empty();
        let dead_cells: Vec<usize> = dead.iter().map(|&(_, k)| k).collect();
        let mut order = if only_dead { dead } else { live };
        order.sort_by(heaviest_first);
        let mut best = (0.0f64, None);
        // The safe layouts, grouped by the number shown (a counting sort into one buffer).
        let mut sorted: Vec<u16> = vec![0; set.len()];
        for (safe, k) in order {
            if safe / total <= best.0 + EPSILON {
                break;
            }
            let shown = &self.layouts.shown[k];
            let mut start = [0usize; 10];
            for &l in set {
                let s = shown[l as usize];
                if s != MINE {
                    start[usize::from(s).min(8) + 1] += 1;
                }
            }
            for v in 1..10 {
                start[v] += start[v - 1];
            }
            let mut next = start;
            for &l in set {
                let s = shown[l as usize];
                if s != MINE {
                    let v = usize::from(s).min(8);
                    sorted[next[v]] = l;
                    next[v] += 1;
                }
            }
            // The groups not yet valued count as won: once even that cannot beat the
            // best, the cell is dropped.
            let (mut v, mut open) = (0.0, safe);
            for g in 0..9 {
                let group = &sorted[start[g]..start[g + 1]];
                if group.is_empty() {
                    continue;
                }
                let w = self.weight(group);
                v += w * self.value(group)?;
                open -= w;
                if (v + open) / total <= best.0 + EPSILON {
                    break;
                }
            }
            let v = v / total;
            if v > best.0 + EPSILON {
                best = (v, Some(k));
                if v >= 1.0 - EPSILON {
                    break;
                }
            }
        }
        if !only_dead {
            if let Some((v, k)) = self.dead_only(set, total, &dead_cells, best.0) {
                best = (v, Some(k));
            }
        }
        Some(best)
    }

    /// The best play that reveals only the `dead` cells: it bets on one layout, reveals
    /// the dead cells safe in it, and wins when the bet is right and those cells are a
    /// mine in every other layout. Returns its value and first cell when it beats `floor`.
    fn dead_only(&self, set: &[u16], total: f64, dead: &[usize], floor: f64) -> Option<(f64, usize)> {
        let shown = &self.layouts.shown;
        let mut bets: Vec<(f64, usize)> = set.iter().map(|&l| (self.layouts.weight[l as usize], l as usize)).collect();
        bets.sort_by(heaviest_first);
        for (w, bet) in bets {
            if w / total <= floor + EPSILON {
                return None;
            }
            let revealed: Vec<usize> = dead.iter().copied().filter(|&k| shown[k][bet] != MINE).collect();
            let separates = set.iter().all(|&l| {
                let l = l as usize;
                l == bet || revealed.iter().any(|&k| shown[k][l] == MINE)
            });
            if separates {
                return revealed.first().map(|&k| (w / total, k));
            }
        }
        None
    }
}

/// The best cell to reveal among the listed layouts and the probability of settling them
/// with best play; `None` when there is nothing to choose or the search is too large.
pub fn best_move_in(layouts: &Layouts) -> Option<(usize, f64)> {
    if layouts.len() < 2 {
        return None;
    }
    let mut solver = Solver { layouts, memo: HashMap::with_hasher(FixedState::default()), work: 0 };
    let all: Vec<u16> = (0..layouts.len() as u16).collect();
    let (v, k) = solver.best(&all)?;
    Some((layouts.cells[k?], v))
}

/// The best cell to reveal on the whole board and its winning probability, when the
/// position is small enough to be searched exactly.
pub fn best_move(board: &Board) -> Option<(usize, f64)> {
    let cells: Vec<usize> = (0..board.cells.len()).filter(|&i| board.cells[i] == Cell::Covered).collect();
    let mines = board.mines?.checked_sub(board.flags())?;
    best_move_in(&enumerate(board, &cells, MineCount::Exactly(mines))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Layouts of two cells given as the mine flags of each layout, all weighing 1.
    fn layouts(mines: &[[bool; 2]]) -> Layouts {
        let shown = (0..2).map(|k| mines.iter().map(|l| if l[k] { MINE } else { 0 }).collect()).collect();
        Layouts { cells: vec![0, 1], shown, weight: vec![1.0; mines.len()] }
    }

    #[test]
    fn the_mine_count_is_fixed_when_every_layout_holds_as_many_mines() {
        assert!(layouts(&[[true, false], [false, true]]).mine_count_fixed());
        assert!(!layouts(&[[true, false], [true, true]]).mine_count_fixed());
        // No layout at all: nothing to tell apart (and no layout 0 to read).
        assert!(layouts(&[]).mine_count_fixed());
    }
}
