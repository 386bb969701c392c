//! The seed program's player: match the first available pair in index order (lowest first
//! cell, then lowest second), add only when stuck, lose when stuck with no add left.

use super::grid::Game;
use super::rules::{matches, play_add, play_match, Move, Rules};

/// A paper game may go on adding forever; past this many cells the greedy player gives up.
const MAX_CELLS: usize = 1 << 16;

/// The greedy player's game: its moves, and whether it cleared the grid.
#[derive(Debug, Clone)]
pub struct Played {
    pub moves: Vec<Move>,
    pub won: bool,
}

impl Played {
    pub fn adds(&self) -> usize {
        self.moves.iter().filter(|m| **m == Move::Add).count()
    }
}

/// Plays `game` greedily to the end.
pub fn play(game: &Game) -> Played {
    let mut cells = game.cells.clone();
    let mut adds_left = game.adds;
    let mut moves = Vec::new();
    let mut pairs = Vec::new();
    loop {
        if cells.iter().all(|&d| d == 0) {
            return Played { moves, won: true };
        }
        matches(&cells, game.cols, game.rules, &mut pairs);
        if let Some(&(i, j)) = pairs.first() {
            play_match(&mut cells, game.cols, game.rules, i as usize, j as usize);
            moves.push(Move::Match(i, j));
        } else if adds_left != Some(0) && cells.len() <= MAX_CELLS {
            play_add(&mut cells);
            adds_left = adds_left.map(|a| a - 1);
            moves.push(Move::Add);
        } else {
            return Played { moves, won: false };
        }
        // The paper grid keeps its cleared rows; a long game makes that the cost of a move.
        if game.rules == Rules::Classic && cells.len() > MAX_CELLS {
            return Played { moves, won: false };
        }
    }
}
