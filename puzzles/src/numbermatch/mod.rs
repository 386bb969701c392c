//! Number Match (docs/language.md, `numbermatch`): a winning sequence with the fewest adds, then the fewest
//! moves, or the proof that none exists within the adds allowed.
//!
//! Not compiled to the engine: a position is a sequence of cells whose layout changes
//! with every move (rows disappear, adds append), which a fixed set of variables models
//! poorly. `grid.rs` reads the statement, `rules.rs` says which pairs match and what
//! moves do, `bitboard.rs` finds the same matches from 64-bit words (grids of up to 64
//! cells), `bounds.rs` gives admissible lower bounds, `search.rs` is the exact search
//! (IDA* with a transposition table, `table.rs`; on several threads, `parallel.rs`), `greedy.rs` the seed program's player, `view.rs`
//! the output, `picture.rs` its picture (one frame per move, `--format svg`), and
//! `play.rs` runs `cpsolve play numbermatch`.

pub mod bitboard;
mod bounds;
pub mod greedy;
pub mod grid;
mod parallel;
mod picture;
pub mod play;
pub mod rules;
pub mod search;
mod sleep;
mod table;
mod view;

use std::time::Instant;

use cpsolve_dsl::ast::File;
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::Stats;

use crate::outcome::Outcome;
use cpsolve_models::run::{RunOptions, Status};
use rules::Rules;
use search::{Limits, Verdict};
use view::Shown;

/// Positions kept in the transposition table of one `cpsolve` run: 24 bytes each, and
/// exactly what the hash table holds at 2^24 buckets, so that it never grows past them
/// (420 MB; one more position would double it).
pub const TABLE_LIMIT: usize = 14 << 20;

/// Reads a `numbermatch` file into a game (the rules, the grid, the adds allowed).
pub fn read(file: &File) -> Result<grid::Game, Vec<Diagnostic>> {
    grid::read(file)
}

/// Solves a `numbermatch` grid.
pub fn solve(file: &File, options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    let game = grid::read(file)?;
    let start = Instant::now();
    let limits = Limits {
        deadline: crate::Deadline::of_run(options, start),
        cancel: None,
        table_limit: TABLE_LIMIT,
        every_order: false,
        alone: None,
        threads: options.threads,
    };
    let (verdict, counters) = search::solve(&game, limits);
    let (status, shown, greedy);
    match &verdict {
        Verdict::Optimal(line) => {
            status = Status::Solved;
            shown = Shown::Optimal(&line.moves);
        }
        Verdict::NoWin => {
            status = Status::Unsatisfiable;
            shown = Shown::NoWin;
        }
        Verdict::Stopped { budget } => {
            // The best win found so far: the greedy player's, when it wins.
            greedy = greedy::play(&game);
            status = Status::Limit;
            shown = Shown::Stopped { best: greedy.won.then_some(greedy.moves.as_slice()), budget: *budget };
        }
    }
    let text = view::text(&game, &shown, options);
    let json = view::json(&game, status.name(), &shown);
    // As for every kind: no win, no picture (the text goes to standard error).
    let picture = (options.picture && status != Status::Unsatisfiable).then(|| picture::svg(&game, &shown, options));
    let stats = Stats {
        nodes: counters.nodes,
        failures: counters.cutoffs,
        propagations: counters.table_hits,
        solutions: u128::from(status == Status::Solved),
        max_depth: counters.max_depth,
        time: start.elapsed(),
        ..Stats::default()
    };
    Ok(Outcome { status, text, json, stats, picture })
}

/// Checks a `numbermatch` grid without solving it.
pub fn check(file: &File) -> Result<String, Vec<Diagnostic>> {
    let game = grid::read(file)?;
    let rules = match game.rules {
        Rules::App => "app rules",
        Rules::Classic => "paper rules",
    };
    Ok(format!("numbermatch, {} digits, {} columns, {rules}", game.remaining(), game.cols))
}
