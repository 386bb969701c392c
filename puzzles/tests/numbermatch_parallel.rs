//! The search on several threads (`parallel.rs`) finds exactly what it finds on one: the
//! same line, move for move, or the same proof of no win, whatever the thread count and
//! whichever thread finishes first. Every iteration is dealt out here (`alone: Some(0)`),
//! so that boards small enough to solve by the thousand go through the threads, the top of
//! the tree (wins within its depth included) and the choice of the first task that wins;
//! or handed over after its first 1,024 positions on one thread (`alone: Some(1)`).
//! The line of one thread is itself checked against a plain IDA* in
//! `numbermatch_reduction.rs` and against a brute force in `numbermatch.rs`.

use cpsolve_engine::StopToken;
use cpsolve_puzzles::Deadline;
use std::time::{Duration, Instant};

use cpsolve_puzzles::numbermatch::grid::Game;
use cpsolve_puzzles::numbermatch::play::{start, Settings};
use cpsolve_puzzles::numbermatch::rules::Rules;
use cpsolve_puzzles::numbermatch::search::{solve, Limits, Verdict};

mod common;
use common::{board, game, narrow, run, square_and_wide};

fn limits(threads: usize, alone: Option<u64>) -> Limits<'static> {
    let deadline = Deadline::new(Some(Instant::now() + Duration::from_secs(20)), StopToken::new());
    Limits { table_limit: 1 << 20, deadline, threads, alone, ..Limits::default() }
}

/// Solves `game` on one thread, on 2 and 3 with every iteration dealt out, and on 2
/// with each iteration handed over; returns whether it is won.
fn assert_same_on_threads(game: &Game) -> bool {
    let (one, _) = solve(game, limits(1, None));
    assert!(!matches!(one, Verdict::Stopped { .. }), "ran out of time: {game:?}");
    for threads in [2, 3] {
        let (many, _) = solve(game, limits(threads, Some(0)));
        assert_eq!(one, many, "{threads} threads: {game:?}");
    }
    // Each iteration tried on one thread first and handed over past the first check of
    // the clock (1,024 positions): what the attempt stored meets the tasks.
    let (handed_over, _) = solve(game, limits(2, Some(1)));
    assert_eq!(one, handed_over, "handed over: {game:?}");
    matches!(one, Verdict::Optimal(_))
}

#[test]
fn narrow_boards_give_the_same_line_on_several_threads() {
    run(3, 600, narrow, assert_same_on_threads);
}

#[test]
fn square_and_wide_boards_give_the_same_line_on_several_threads() {
    run(5, 400, square_and_wide, assert_same_on_threads);
}

/// Boards of 16 to 25 digits: iterations of thousands of positions, so both threads
/// search tasks at once and meet in the table, and a task after the first win stops.
#[test]
fn larger_boards_give_the_same_line_on_several_threads() {
    run(
        11,
        120,
        |round, seed| {
            let cols = [9, 6, 7][round % 3];
            let n = 16 + round % 10;
            let cells = board(seed, n, [0, 8][round % 2]);
            game(Rules::App, cols, cells, (round % 3 != 0) as u32 + (round % 4 == 0) as u32)
        },
        assert_same_on_threads,
    );
}

/// The starts of `cpsolve play numbermatch` (35 digits), the first 12 of seed 1 (#12 is
/// the slowest of the first 100), as `play` solves them: one thread, and two with the
/// default hand-over.
#[test]
fn play_starts_give_the_same_line_on_two_threads() {
    let settings = Settings {
        cols: 9,
        digits: 35,
        adds: 5,
        games: 12,
        seed: 1,
        timeout: None,
        threads: 2,
        threads_per_start: 2,
        stop: cpsolve_engine::StopToken::new(),
    };
    for k in 0..12 {
        let game = start(&settings, k);
        let (one, _) = solve(&game, limits(1, None));
        let (two, _) = solve(&game, limits(2, None));
        assert!(matches!(one, Verdict::Optimal(_)), "#{k}");
        assert_eq!(one, two, "#{k}");
    }
}
