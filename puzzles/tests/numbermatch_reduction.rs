//! The partial-order reduction and the transposition table change how much is searched,
//! never what is found: on seeded random boards of several shapes, the search with both
//! (as `cpsolve` runs it) returns exactly the line — same moves, in the same order — or
//! the same proof of no win as a plain IDA* with neither (every order of every match, no
//! table). Narrow boards make row removals frequent; cleared cells make neighbours
//! through gaps (and diagonals through rows that vanish) frequent.
//!
//! Comparing the line itself, not only its cost, is what makes this sharp: a lost line is
//! often not the only optimal one, but it is often the first in index order.

use cpsolve_engine::StopToken;
use cpsolve_puzzles::Deadline;
use std::time::{Duration, Instant};

use cpsolve_puzzles::numbermatch::grid::Game;
use cpsolve_puzzles::numbermatch::rules::Rules;
use cpsolve_puzzles::numbermatch::search::{solve, Limits, Verdict};

mod common;
use common::{board, game, narrow, run, square_and_wide};

/// A few milliseconds are enough for any board here: a budget that creeps (one match
/// more per iteration, as when a partial table entry cuts where it does not hold) shows
/// as a search that runs out of time.
fn reduced() -> Limits<'static> {
    let deadline = Deadline::new(Some(Instant::now() + Duration::from_secs(5)), StopToken::new());
    Limits { table_limit: 1 << 20, deadline, ..Limits::default() }
}

fn plain() -> Limits<'static> {
    Limits { table_limit: 0, every_order: true, ..Limits::default() }
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

#[test]
fn narrow_boards_give_the_same_line_with_and_without_the_reduction() {
    run(3, 1500, narrow, assert_same_verdict);
}

#[test]
fn square_and_wide_boards_give_the_same_line_with_and_without_the_reduction() {
    run(5, 600, square_and_wide, assert_same_verdict);
}

/// One or two columns with adds: the same grid recurs with different adds left (`4 6 8 8`
/// comes back after `8 8`, an add, and `6 4` `8 8`), so the table must tell them apart.
#[test]
fn grids_that_recur_after_an_add_give_the_same_line_with_and_without_the_reduction() {
    run(
        9,
        1500,
        |round, seed| {
            let cols = 1 + round % 2;
            let n = 3 + round % 5;
            let cells = board(seed, n, 0);
            game(Rules::App, cols, cells, 1 + u32::from(n <= 5 && round % 3 == 0))
        },
        assert_same_verdict,
    );
}
