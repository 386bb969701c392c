//! The partial-order reduction and the transposition table change how much is searched,
//! never what is found: on seeded random boards of several shapes, the search with both
//! (as `cpsolve` runs it) returns exactly the line — same moves, in the same order — or
//! the same proof of no win as a plain IDA* with neither (every order of every match, no
//! table). Narrow boards make row removals frequent; cleared cells make neighbours
//! through gaps (and diagonals through rows that vanish) frequent.
//!
//! Comparing the line itself, not only its cost, is what makes this sharp: a lost line is
//! often not the only optimal one, but it is often the first in index order.

use std::time::{Duration, Instant};

use cpsolve_puzzles::numbermatch::grid::Game;
use cpsolve_puzzles::numbermatch::rules::{remove_empty_rows, Rules};
use cpsolve_puzzles::numbermatch::search::{solve, Limits, Verdict};

/// A few milliseconds are enough for any board here: a budget that creeps (one match
/// more per iteration, as when a partial table entry cuts where it does not hold) shows
/// as a search that runs out of time.
fn reduced() -> Limits<'static> {
    let deadline = Some(Instant::now() + Duration::from_secs(5));
    Limits { table_limit: 1 << 20, deadline, ..Limits::default() }
}

fn plain() -> Limits<'static> {
    Limits { table_limit: 0, every_order: true, ..Limits::default() }
}

/// Random cells: digits 1-9, about one in `hole` cleared (0: none).
fn board(seed: &mut u64, n: usize, hole: u64) -> Vec<u8> {
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

fn game(rules: Rules, cols: usize, mut cells: Vec<u8>, adds: u32) -> Game {
    if rules == Rules::App {
        remove_empty_rows(&mut cells, cols);
    }
    Game { rules, cols, cells, adds: Some(adds) }
}

/// Returns whether the game is won.
fn assert_same_verdict(game: &Game) -> bool {
    let (with, counters) = solve(game, reduced());
    let (without, plain_counters) = solve(game, plain());
    assert!(!matches!(with, Verdict::Stopped { .. }), "the reduced search ran out of time: {game:?}");
    assert!(!matches!(without, Verdict::Stopped { .. }));
    assert_eq!(with, without, "{game:?}");
    // The table's bounds are sound, so the next budget never falls short of the plain
    // search's: no more iterations.
    assert!(counters.iterations <= plain_counters.iterations, "{game:?}");
    matches!(with, Verdict::Optimal(_))
}

fn run(seed: u64, rounds: usize, shape: impl Fn(usize, &mut u64) -> Game) {
    let mut seed = seed;
    let mut won = 0;
    for round in 0..rounds {
        let game = shape(round, &mut seed);
        won += usize::from(assert_same_verdict(&game));
    }
    // Both verdicts occur, so both are compared.
    assert!(won > rounds / 10 && won < rounds, "{won} of {rounds} won");
}

#[test]
fn narrow_boards_give_the_same_line_with_and_without_the_reduction() {
    run(3, 1500, |round, seed| {
        let cols = 2 + round % 3;
        let n = 6 + round % 7;
        let cells = board(seed, n, [0, 5, 3][round % 3]);
        game(Rules::App, cols, cells, (round % 4 == 0) as u32)
    });
}

#[test]
fn square_and_wide_boards_give_the_same_line_with_and_without_the_reduction() {
    run(5, 600, |round, seed| {
        let cols = [4, 5, 9][round % 3];
        let n = 8 + round % 6;
        let cells = board(seed, n, [0, 6][round % 2]);
        let rules = if round % 5 == 4 { Rules::Classic } else { Rules::App };
        game(rules, cols, cells, (round % 3 == 0) as u32 + (round % 7 == 0) as u32)
    });
}

/// One or two columns with adds: the same grid recurs with different adds left (`4 6 8 8`
/// comes back after `8 8`, an add, and `6 4` `8 8`), so the table must tell them apart.
#[test]
fn grids_that_recur_after_an_add_give_the_same_line_with_and_without_the_reduction() {
    run(9, 1500, |round, seed| {
        let cols = 1 + round % 2;
        let n = 3 + round % 5;
        let cells = board(seed, n, 0);
        game(Rules::App, cols, cells, 1 + u32::from(n <= 5 && round % 3 == 0))
    });
}
