//! Minesweeper (docs/language.md, `minesweeper`): the exact mine probability of every covered cell, and a bot
//! that plays seeded games.
//!
//! `grid.rs` reads positions (`.puz` statement or JSMinesweeper `.mine`), `frontier.rs`
//! turns one into numbers, boxes and components, `count.rs` counts a component's layouts
//! exactly by number of mines, `analysis.rs` combines components and the off-frontier
//! cells into exact probabilities, `view.rs` writes the answers and `picture.rs` draws
//! them (`--format svg`); `game.rs` simulates games, `bot.rs` plays them (`endgame.rs`
//! and `guess.rs` choose its risky moves, `fifty.rs` finds the 50/50s that are forming)
//! and `play.rs` runs a batch. `explain.rs` tells why each certain cell is certain: a
//! smallest set of numbers that proves it.

pub mod analysis;
pub mod bot;
pub mod count;
pub mod endgame;
pub mod explain;
pub mod fifty;
pub mod frontier;
pub mod game;
pub mod grid;
mod guess;
mod picture;
pub mod play;
mod view;

use std::time::Instant;

use cpsolve_dsl::ast::File;
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::Stats;

use crate::outcome::Outcome;
use analysis::Verdict;
use cpsolve_models::run::{RunOptions, Status};
use grid::Board;

pub use explain::{explain, explanation_json, explanation_text, ExplainOptions, MineExplanation, Stopped};

fn answer(board: &Board, options: &RunOptions) -> Outcome {
    let start = Instant::now();
    let deadline = &crate::Deadline::of_run(options, start);
    let a = analysis::analyse(board, deadline);
    let status = match a.verdict {
        Verdict::Exact => Status::Solved,
        Verdict::Impossible => Status::Unsatisfiable,
        Verdict::TimedOut => Status::Limit,
    };
    let stats = Stats {
        nodes: a.states,
        solutions: u128::try_from(&a.total).unwrap_or(u128::MAX),
        time: start.elapsed(),
        ..Stats::default()
    };
    // As for every kind: no layout, no picture (the text goes to standard error).
    let picture = (options.picture && status != Status::Unsatisfiable).then(|| picture::svg(board, &a, options));
    Outcome { status, text: view::text(board, &a, options), json: view::json(board, &a), stats, picture }
}

/// Analyses a `minesweeper` position.
pub fn solve(file: &File, options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    let board = grid::read_puz(file)?;
    Ok(answer(&board, options))
}

/// Checks a `minesweeper` position without analysing it.
pub fn check(file: &File) -> Result<String, Vec<Diagnostic>> {
    grid::read_puz(file).map(|b| view::describe(&b))
}

/// Analyses a JSMinesweeper position file (`.mine`), given its text; diagnostics point into it.
pub fn solve_mine_file(text: &str, options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    let board = grid::read_mine(text)?;
    Ok(answer(&board, options))
}

/// Checks a JSMinesweeper position file without analysing it.
pub fn check_mine_file(text: &str) -> Result<String, Vec<Diagnostic>> {
    grid::read_mine(text).map(|b| view::describe(&b))
}

/// The answer of `cpsolve explain` for a position: the steps of [`explain::explain`] as
/// text and JSON; `limit` when the deadline (`options.timeout`) passes first. The work
/// counted (`stats.nodes`) is the sets of numbers checked.
fn explain_answer(board: &Board, options: &RunOptions, chain: bool) -> Outcome {
    let start = Instant::now();
    let deadline = &crate::Deadline::of_run(options, start);
    let (status, text, json, checks) = match explain::explain(board, ExplainOptions { chain }, deadline) {
        Ok(e) => {
            let status = if e.impossible { Status::Unsatisfiable } else { Status::Solved };
            (status, explain::explanation_text(board, &e), explain::explanation_json(board, &e), e.checks)
        }
        Err(Stopped) => {
            let text = format!(
                "{}\nstopped: the explanation did not finish within the {} limit\n",
                view::describe(board),
                crate::limit::stop_name(options)
            );
            let json = serde_json::json!({
                "kind": "minesweeper",
                "status": "limit",
                "stopped": crate::limit::stop_name(options),
                "steps": [],
                "ending": "stopped",
            });
            (Status::Limit, text, json, 0)
        }
    };
    let stats = Stats { nodes: checks, time: start.elapsed(), ..Stats::default() };
    Outcome { status, text, json, stats, picture: None }
}

/// Explains a `minesweeper` position (`cpsolve explain`): why each certain cell is certain.
pub fn explain_puz(file: &File, options: &RunOptions, chain: bool) -> Result<Outcome, Vec<Diagnostic>> {
    let board = grid::read_puz(file)?;
    Ok(explain_answer(&board, options, chain))
}

/// Explains a JSMinesweeper position file (`.mine`), given its text.
pub fn explain_mine_file(text: &str, options: &RunOptions, chain: bool) -> Result<Outcome, Vec<Diagnostic>> {
    let board = grid::read_mine(text)?;
    Ok(explain_answer(&board, options, chain))
}
