//! The player: certain cells first (local deduction, then the exact analysis), and when
//! nothing is certain, a guess chosen by exact probability with a tie-break for progress.
//!
//! The candidates (cells whose mine probability is close to the lowest) are weighed by a
//! look-ahead: for each number a candidate may show, the position with that number is
//! analysed exactly (`P(safe, shows v)` is the ratio of its layouts to the current ones).
//! The score is the two-move safety (surviving this guess and the next move) plus a
//! small weight for progress (the number makes another cell certain). With few layouts
//! left, the exact end-game search (`endgame.rs`) chooses instead.

use num_bigint::BigUint;
use num_traits::Zero;

use super::analysis::{analyse, ratio, Analysis, Verdict};
use super::endgame::{self, MineCount};
use super::frontier::{self, MINE, SAFE};
use super::game::{game_rng, FirstClick, Game, Level, Reveal};
use super::grid::{Board, Cell};

/// The result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameResult {
    pub won: bool,
    pub guesses: u32,
}

/// Candidates whose mine probability is within this factor of the best are weighed by progress.
const NEAR_BEST: f64 = 1.15;
/// Absolute slack over the best probability for the same purpose.
const NEAR_BEST_SLACK: f64 = 0.005;
/// At most this many candidates are weighed (each costs up to 9 analyses).
const MAX_CANDIDATES: usize = 8;
/// Off-frontier cells are interchangeable for safety: only this many are weighed, the
/// ones with fewest covered neighbours (corners, then edges: most likely to show a 0).
const MAX_OUTSIDE: usize = 3;
/// Weight of progress against safety in a candidate's score (0, 0.1 and 0.3 measured the
/// same within a standard error on 3,000 intermediate games).
const PROGRESS_WEIGHT: f64 = 0.1;

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
        let Some(cell) = endgame_move(&game.view, &a).or_else(|| choose_guess(&game.view, &a)) else { return result };
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

/// No covered cell outside `cells` (ascending) touches them: nothing revealed elsewhere
/// can ever tell anything about them, so they can be settled on their own.
fn isolated(board: &Board, cells: &[usize]) -> bool {
    cells
        .iter()
        .all(|&c| board.neighbours(c).all(|j| board.cells[j] != Cell::Covered || cells.binary_search(&j).is_ok()))
}

fn covered_neighbours(board: &Board, i: usize) -> usize {
    board.neighbours(i).filter(|&j| board.cells[j] == Cell::Covered).count()
}

/// What revealing `cell` promises, over the numbers it may show: the probability of
/// surviving it and the next move (two-move safety: after a number that makes some cell
/// certain the next move is safe, otherwise it is the best guess of that position), and
/// the probability of progress (being safe and making another cell certain).
fn look_ahead(board: &Board, a: &Analysis, cell: usize) -> (f64, f64) {
    let mut trial = board.clone();
    let (mut survive, mut progress) = (0.0, 0.0);
    let room = board.neighbours(cell).filter(|&j| board.cells[j] != Cell::Open(0)).count();
    for v in 0..=room.min(8) {
        trial.cells[cell] = Cell::Open(v as u8);
        let b = analyse(&trial, None);
        if b.verdict != Verdict::Exact || b.total.is_zero() {
            continue;
        }
        let p = ratio(&b.total, &a.total);
        let moves = !b.safe.is_empty() || !b.mines.iter().all(|m| a.mines.contains(m));
        if moves {
            progress += p;
            survive += p;
        } else {
            let best = (0..trial.cells.len())
                .filter(|&i| trial.cells[i] == Cell::Covered)
                .filter_map(|i| b.probability(i))
                .fold(1.0f64, f64::min);
            survive += p * (1.0 - best);
        }
    }
    (survive, progress)
}

/// The guess: lowest mine probability, then the best mix of safety and progress.
fn choose_guess(board: &Board, a: &Analysis) -> Option<usize> {
    let mut cells: Vec<(f64, usize)> = (0..board.cells.len())
        .filter(|&i| board.cells[i] == Cell::Covered)
        .filter_map(|i| a.probability(i).map(|p| (p, i)))
        .collect();
    if cells.is_empty() {
        return None;
    }
    cells.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let best = cells[0].0;
    let limit = best * NEAR_BEST + NEAR_BEST_SLACK;
    // A cell is off-frontier when no revealed number touches it.
    let outside = |i: usize| board.neighbours(i).all(|j| !matches!(board.cells[j], Cell::Open(_)));
    let mut near: Vec<(f64, usize)> = cells.iter().copied().filter(|(p, _)| *p <= limit).collect();
    let (mut out, inside): (Vec<_>, Vec<_>) = near.drain(..).partition(|&(_, i)| outside(i));
    out.sort_by_key(|&(_, i)| (covered_neighbours(board, i), i));
    out.truncate(MAX_OUTSIDE);
    let mut candidates: Vec<(f64, usize)> = inside.into_iter().chain(out).collect();
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    candidates.truncate(MAX_CANDIDATES);
    if candidates.len() == 1 {
        return Some(candidates[0].1);
    }
    let mut best_cell = None;
    let mut best_score = f64::NEG_INFINITY;
    for &(_, i) in &candidates {
        let (survive, progress) = look_ahead(board, a, i);
        let score = survive + PROGRESS_WEIGHT * progress;
        if score > best_score {
            best_score = score;
            best_cell = Some(i);
        }
    }
    best_cell
}
