//! The player: certain cells first (local deduction, then the exact analysis); when
//! nothing is certain, the exact end-game search (`endgame.rs`) on the whole board when
//! few layouts remain, or on an isolated component; else a guess (`guess.rs`).

use num_bigint::BigUint;
use num_traits::Zero;

use super::analysis::{analyse, ratio, Analysis, Verdict};
use super::endgame::{self, MineCount};
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
        let a = analyse(&game.view, None);
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
        let Some(cell) = endgame_move(&game.view, &a).or_else(|| guess::choose(&game.view, &a)) else {
            return result;
        };
        result.guesses += 1;
        if game.reveal(cell) == Reveal::Boom {
            return result;
        }
    }
}

/// The move of the exact end-game search: on the whole board when few layouts remain,
/// else in an isolated component small enough (the one most likely to be settled).
fn endgame_move(board: &Board, a: &Analysis) -> Option<usize> {
    if a.total <= BigUint::from(endgame::MAX_LAYOUTS) {
        if let Some((cell, _)) = endgame::best_move(board) {
            return Some(cell);
        }
    }
    let mut best: Option<(usize, f64)> = None;
    for comp in a.components.iter().filter(|c| isolated(board, &c.cells)) {
        let Some(max) = comp.completions.iter().max().filter(|m| !m.is_zero()) else { continue };
        let weights: Vec<f64> = comp.completions.iter().map(|c| ratio(c, max)).collect();
        let Some(layouts) = endgame::enumerate(board, &comp.cells, MineCount::Weighted(&weights)) else { continue };
        if let Some((cell, p)) = endgame::best_move_in(&layouts) {
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
