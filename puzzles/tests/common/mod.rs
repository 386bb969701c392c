//! Seeded random Number Match boards shared by the tests that compare two searches on them
//! (`numbermatch_reduction.rs`, `numbermatch_parallel.rs`).

use cpsolve_puzzles::numbermatch::grid::Game;
use cpsolve_puzzles::numbermatch::rules::{remove_empty_rows, Rules};

/// Random cells: digits 1-9, about one in `hole` cleared (0: none).
pub(crate) fn board(seed: &mut u64, n: usize, hole: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = *seed >> 33;
            if hole > 0 && x % hole == 0 {
                0
            } else {
                ((x >> 8) % 9) as u8 + 1
            }
        })
        .collect()
}

/// A game with `adds` adds; under the app's rules its empty rows are gone first.
pub(crate) fn game(rules: Rules, cols: usize, mut cells: Vec<u8>, adds: u32) -> Game {
    if rules == Rules::App {
        remove_empty_rows(&mut cells, cols);
    }
    Game { rules, cols, cells, adds: Some(adds) }
}

/// Runs `check` (which returns whether the game is won) on `rounds` games made by `shape`
/// from `seed`, and asserts that both verdicts occurred, so that both were compared.
pub(crate) fn run(seed: u64, rounds: usize, shape: impl Fn(usize, &mut u64) -> Game, check: impl Fn(&Game) -> bool) {
    let mut seed = seed;
    let mut won = 0;
    for round in 0..rounds {
        let game = shape(round, &mut seed);
        won += usize::from(check(&game));
    }
    assert!(won > rounds / 10 && won < rounds, "{won} of {rounds} won");
}

/// Two to four columns, 6 to 12 digits: row removals are frequent.
pub(crate) fn narrow(round: usize, seed: &mut u64) -> Game {
    let cols = 2 + round % 3;
    let n = 6 + round % 7;
    let cells = board(seed, n, [0, 5, 3][round % 3]);
    game(Rules::App, cols, cells, (round % 4 == 0) as u32)
}

/// Four, five or nine columns, 8 to 13 digits, some under the classic rules.
pub(crate) fn square_and_wide(round: usize, seed: &mut u64) -> Game {
    let cols = [4, 5, 9][round % 3];
    let n = 8 + round % 6;
    let cells = board(seed, n, [0, 6][round % 2]);
    let rules = if round % 5 == 4 { Rules::Classic } else { Rules::App };
    game(rules, cols, cells, (round % 3 == 0) as u32 + (round % 7 == 0) as u32)
}
