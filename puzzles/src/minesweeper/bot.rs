//! The player: certain cells first (local deduction, then the exact analysis); when
//! nothing is certain, the exact end-game search (`endgame.rs`) on the whole board when
//! few layouts remain, or on an isolated component whose number of mines is fixed; else a
//! guess (`guess.rs`) outside the isolated components whose number of mines the mines left
//! may still settle; those last.

use num_bigint::BigUint;
use num_traits::Zero;

use super::analysis::{analyse, ratio, Analysis, Verdict};
use super::endgame::{self, Layouts, MineCount};
use super::frontier::{self, MINE, SAFE};
use super::game::{game_rng, FirstClick, Game, Level, Reveal};
use super::grid::{Board, Cell};
use super::guess;

/// The result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameResult {
    pub won: bool,
    pub guesses: u32,
}

/// Plays game `index` of a run seeded `seed`.
pub fn play_game(level: Level, first: FirstClick, seed: u64, index: u64) -> GameResult {
    let mut rng = game_rng(seed, index);
    let mut game = Game::new(level, first, &mut rng);
    let mut result = GameResult::default();
    if game.reveal(first.cell(level)) == Reveal::Boom {
        return result;
    }
    loop {
        if game.won() {
            result.won = true;
            return result;
        }
        // Local deduction is cheap and settles most moves.
        let Some(known) = frontier::local_deductions(&game.view) else { return result };
        let mut moved = false;
        for (i, k) in known.iter().enumerate() {
            match *k {
                MINE => game.flag(i),
                SAFE => {
                    if game.reveal(i) == Reveal::Boom {
                        return result;
                    }
                    moved = true;
                }
                _ => {}
            }
        }
        if moved {
            continue;
        }
        let a = analyse(&game.view, &crate::Deadline::never());
        if a.verdict != Verdict::Exact {
            return result;
        }
        for &i in &a.mines {
            game.flag(i);
        }
        if !a.safe.is_empty() {
            for &i in &a.safe {
                if game.reveal(i) == Reveal::Boom {
                    return result;
                }
            }
            continue;
        }
        // The new flags leave the frontier: the components (which the end-game search
        // lists cell by cell) must be counted again without them.
        if !a.mines.is_empty() {
            continue;
        }
        let Some(cell) = next_guess(&game.view, &a) else { return result };
        result.guesses += 1;
        if game.reveal(cell) == Reveal::Boom {
            return result;
        }
    }
}

/// The guess when nothing is certain. The exact end-game search on the whole board when
/// few layouts remain; else on an isolated component whose layouts all hold the same
/// number of mines (nothing revealed can ever tell them apart, so settling it now costs
/// nothing); else the guess rules on the rest of the board. An isolated component whose
/// layouts differ in their number of mines comes last: once the rest is settled, the
/// mines left may tell its layouts apart. (Settling it first would tell the rest its
/// number of mines in turn, but the rest is large here, more than the whole-board search
/// takes, and says little with it; measured, waiting gains.) If the search of those
/// components gives up (work budget), the guess rules take any cell.
fn next_guess(board: &Board, a: &Analysis) -> Option<usize> {
    if a.total <= BigUint::from(endgame::MAX_LAYOUTS) {
        if let Some((cell, _)) = endgame::best_move(board) {
            return Some(cell);
        }
    }
    let (fixed, varying): (Vec<Layouts>, Vec<Layouts>) =
        isolated_layouts(board, a).into_iter().partition(Layouts::mine_count_fixed);
    let later: Vec<usize> = varying.iter().flat_map(|l| l.cells.iter().copied()).collect();
    settle_one(&fixed)
        .or_else(|| guess::choose(board, a, &later))
        .or_else(|| settle_one(&varying))
        .or_else(|| guess::choose(board, a, &[]))
}

/// The layouts of each isolated component small enough to be searched, each weighed by
/// the ways the rest of the board completes it.
fn isolated_layouts(board: &Board, a: &Analysis) -> Vec<Layouts> {
    let mut found = Vec::new();
    for comp in a.components.iter().filter(|c| isolated(board, &c.cells)) {
        let Some(max) = comp.completions.iter().max().filter(|m| !m.is_zero()) else { continue };
        let weights: Vec<f64> = comp.completions.iter().map(|c| ratio(c, max)).collect();
        found.extend(endgame::enumerate(board, &comp.cells, MineCount::Weighted(&weights)));
    }
    found
}

/// The end-game search's move in the component most likely to be settled.
fn settle_one(components: &[Layouts]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for layouts in components {
        if let Some((cell, p)) = endgame::best_move_in(layouts) {
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((cell, p));
            }
        }
    }
    best.map(|(cell, _)| cell)
}

/// No covered cell outside `cells` (ascending) touches them: no number revealed elsewhere
/// can tell anything about them (only the total number of mines ties them to the rest),
/// so they can be settled on their own.
fn isolated(board: &Board, cells: &[usize]) -> bool {
    cells
        .iter()
        .all(|&c| board.neighbours(c).all(|j| board.cells[j] != Cell::Covered || cells.binary_search(&j).is_ok()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::grid::read_mine;

    #[test]
    fn an_isolated_component_the_mines_left_may_settle_waits() {
        // Cells 0, 1, 2 hold either cell 1 (3,003 layouts of the 15 cells below) or cells 0
        // and 2 (1,365): each of 0 and 2 is as likely a mine as any cell below (5/16), but
        // once the cells below are settled, the mines left will tell which.
        let board = read_mine("3x8x10\nHHH\n4F4\nFFF\nHHH\nHHH\nHHH\nHHH\nHHH\n").unwrap();
        let a = analyse(&board, &crate::Deadline::never());
        assert_eq!(a.total, BigUint::from(4368u32));
        assert!(frontier::local_deductions(&board).is_some_and(|k| !k.contains(&SAFE) && !k.contains(&MINE)));
        let cell = next_guess(&board, &a).unwrap();
        assert!(cell >= 9, "guessed cell {cell}, in the component");
    }
}
