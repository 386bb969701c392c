//! Long-term risk: the 50/50s a cell may be caught in later.
//!
//! Two covered cells side by side, walled in by mines (or the board's edge) at both ends,
//! become a 50/50 whatever is revealed around them: every number that touches one
//! touches the other. So does a 2×2 block with mines on its four diagonal corners and on
//! one of its own diagonals. In the layouts where a cell is part of such a forming
//! structure it will be risked at one half some day anyway, so guessing it now costs
//! less than its mine probability says. A cell's influence is the number of those layouts
//! (the idea, and the weight 0.9 below, are DavidNHill's "50/50 influence" in
//! JSMinesweeper); the guess multiplies a candidate's score by `factor`.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use super::analysis::{analyse, ratio, Analysis, Verdict};
use super::grid::{Board, Cell};

/// A cell by its column and row, possibly off the board.
type Point = (isize, isize);

/// How much of the influence counts as safety (DavidNHill's weight).
const WEIGHT: f64 = 0.9;
/// A structure is weighed only if at most this many mines are still missing for it
/// (besides its own): each is a layout count, and far-fetched ones are rare.
const MAX_MISSING: usize = 3;
/// The largest `factor` can be (influence is capped by the safe layouts).
pub const MAX_FACTOR: f64 = 1.0 + WEIGHT;

/// The structures, each anchored at its top-left cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Shape {
    /// The anchor a mine, its right neighbour safe; mines left and right of the pair.
    Across,
    /// The anchor a mine, the cell below safe; mines above and below the pair.
    Down,
    /// The anchor and the cell diagonally below-right mines, the other two safe; mines
    /// on the four diagonal corners of the block.
    Block,
}

/// Influence counts for one position, each structure counted once.
#[derive(Debug)]
pub struct Influence<'a> {
    board: &'a Board,
    a: &'a Analysis,
    counted: HashMap<(Shape, bool, usize, usize), BigUint>,
    /// Mines not yet flagged (`None` without a total): no structure may need more.
    mines_left: Option<usize>,
}

impl<'a> Influence<'a> {
    pub fn new(board: &'a Board, a: &'a Analysis) -> Self {
        let mines_left = board.mines.and_then(|m| m.checked_sub(board.flags()));
        Influence { board, a, counted: HashMap::new(), mines_left }
    }

    /// 1 + 0.9 × tally / (layouts where `cell` is safe), the tally being the layouts of
    /// the forming structures that hold `cell` (each counted in one of its two mirror
    /// images, so about half its layouts; blocks only the likeliest).
    pub fn factor(&mut self, cell: usize) -> f64 {
        let Some(mine) = self.a.mine_weight[cell].clone() else { return 1.0 };
        let safe = &self.a.total - &mine;
        if safe.is_zero() {
            return 1.0;
        }
        let (x, y) = ((cell % self.board.width) as isize, (cell / self.board.width) as isize);
        let mut tally = self.count(Shape::Across, false, x, y)
            + self.count(Shape::Across, false, x - 1, y)
            + self.count(Shape::Down, false, x, y)
            + self.count(Shape::Down, false, x, y - 1);
        // Blocks overlap one another: only the likeliest counts.
        let blocks = [(x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)];
        tally += blocks.iter().map(|&(bx, by)| self.count(Shape::Block, false, bx, by)).max().unwrap_or_default();
        // Half the layouts of a 50/50 at most: never more than the mine or the safe ones.
        let tally = tally.min(mine).min(safe.clone());
        1.0 + WEIGHT * ratio(&tally, &safe)
    }

    /// A cell that may be a mine and, in every layout where it is one, is the mine of a
    /// closed structure. Swapping the structure's mines and safe cells keeps every revealed
    /// number (only the walls touch one side alone, and they are never revealed), so the
    /// mirror image is as likely: in those layouts a 50/50 will have to be guessed some
    /// day. Guessing the cell now risks no more, and spares the guesses made meanwhile.
    /// The safest such cell, if any (certain cells are played before any guess).
    pub fn coin_flip_or_safe(&mut self) -> Option<usize> {
        let (w, h) = (self.board.width as isize, self.board.height as isize);
        let mut found: Option<(f64, usize)> = None;
        for y in 0..h {
            for x in 0..w {
                for shape in [Shape::Across, Shape::Down, Shape::Block] {
                    for flip in [false, true] {
                        // A pair with one wall mine missing, a block with none (as in
                        // JSMinesweeper): enough to find most, and cheap.
                        let missing = if shape == Shape::Block { 0 } else { 1 };
                        let Some((mines, _)) = self.structure(shape, flip, x, y, missing) else { continue };
                        let tally = self.count(shape, flip, x, y);
                        let own = if shape == Shape::Block { 2 } else { 1 };
                        for &m in &mines[..own] {
                            let Some(weight) = &self.a.mine_weight[m] else { continue };
                            if weight.is_zero() || *weight != tally {
                                continue;
                            }
                            let p = ratio(weight, &self.a.total);
                            if found.is_none_or(|(q, c)| (p, m) < (q, c)) {
                                found = Some((p, m));
                            }
                        }
                    }
                }
            }
        }
        found.map(|(_, m)| m)
    }

    fn index(&self, x: isize, y: isize) -> Option<usize> {
        let (w, h) = (self.board.width as isize, self.board.height as isize);
        (0 <= x && x < w && 0 <= y && y < h).then(|| (y * w + x) as usize)
    }

    /// Layouts in which the structure `shape` at (x, y) is complete (zero if it cannot be);
    /// `flip` swaps its own mines and safe cells.
    fn count(&mut self, shape: Shape, flip: bool, x: isize, y: isize) -> BigUint {
        if x < 0 || y < 0 {
            return BigUint::zero();
        }
        let key = (shape, flip, x as usize, y as usize);
        if let Some(n) = self.counted.get(&key) {
            return n.clone();
        }
        let Some((mines, safe)) = self.structure(shape, flip, x, y, MAX_MISSING) else { return BigUint::zero() };
        let n = self.layouts(&mines, &safe);
        self.counted.insert(key, n.clone());
        n
    }

    /// The cells a structure needs to be mines and to be safe, if the position allows it.
    fn structure(
        &self,
        shape: Shape,
        flip: bool,
        x: isize,
        y: isize,
        max_missing: usize,
    ) -> Option<(Vec<usize>, Vec<usize>)> {
        let (mut own_mines, mut own_safe, ends): (Vec<Point>, Vec<Point>, Vec<Point>) = match shape {
            Shape::Across => {
                (vec![(x, y)], vec![(x + 1, y)], (-1..=1).flat_map(|d| [(x - 1, y + d), (x + 2, y + d)]).collect())
            }
            Shape::Down => {
                (vec![(x, y)], vec![(x, y + 1)], (-1..=1).flat_map(|d| [(x + d, y - 1), (x + d, y + 2)]).collect())
            }
            Shape::Block => (
                vec![(x, y), (x + 1, y + 1)],
                vec![(x + 1, y), (x, y + 1)],
                vec![(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)],
            ),
        };
        if flip {
            std::mem::swap(&mut own_mines, &mut own_safe);
        }
        let covered = |i: usize| self.board.cells[i] == Cell::Covered;
        let mut mines = Vec::new();
        for &(cx, cy) in &own_mines {
            mines.push(self.index(cx, cy).filter(|&i| covered(i))?);
        }
        let mut safe = Vec::new();
        for &(cx, cy) in &own_safe {
            safe.push(self.index(cx, cy).filter(|&i| covered(i))?);
        }
        let own = mines.len();
        // Off the board is a wall; a revealed end cell opens the structure.
        for i in ends.iter().filter_map(|&(cx, cy)| self.index(cx, cy)) {
            match self.board.cells[i] {
                Cell::Open(_) => return None,
                Cell::Flag => {}
                Cell::Covered => mines.push(i),
            }
        }
        let left = self.mines_left?;
        (mines.len() - own <= max_missing && mines.len() <= left).then_some((mines, safe))
    }

    /// Layouts with every cell of `mines` a mine and every cell of `safe` safe.
    fn layouts(&self, mines: &[usize], safe: &[usize]) -> BigUint {
        let mut trial = self.board.clone();
        for &m in mines {
            trial.cells[m] = Cell::Flag;
        }
        safe_layouts(&mut trial, safe)
    }
}

/// Layouts of `board` with every cell of `safe` safe: one analysis for the last cell (all
/// layouts but those where it is a mine), and for each cell before it, those with the rest
/// safe minus those where it is also a mine.
fn safe_layouts(board: &mut Board, safe: &[usize]) -> BigUint {
    match safe {
        [] => {
            let a = analyse(board, &crate::Deadline::never());
            if a.verdict == Verdict::Exact {
                a.total
            } else {
                BigUint::zero()
            }
        }
        [s] => {
            let a = analyse(board, &crate::Deadline::never());
            if a.verdict != Verdict::Exact {
                return BigUint::zero();
            }
            let mined = a.mine_weight[*s].clone().unwrap_or_default();
            a.total - mined
        }
        [s, rest @ ..] => {
            let all = safe_layouts(board, rest);
            board.cells[*s] = Cell::Flag;
            let mined = safe_layouts(board, rest);
            board.cells[*s] = Cell::Covered;
            all - mined
        }
    }
}
