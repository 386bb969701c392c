//! The models of cpsolve that the engine solves: cryptarithms, queens, no-three-in-line
//! and generic `.puz` models. Each front end compiles a parsed file into engine variables
//! and propagators (a [`problem::Problem`]); the runner ([`run`]) searches it under the
//! user's limits, modes and threads, and [`report`] frames the answer.
//!
//! The puzzles with a solver of their own (Le Compte est Bon, Minesweeper, Number Match)
//! live in the `cpsolve-puzzles` crate; they share this crate's run options, statuses,
//! statement readers ([`params`], [`options`]) and output framing.
//!
//! What it may use: the engine's public API and the DSL's syntax tree; never a puzzle's own
//! solver (the dependency runs the other way; `tests/layout.rs` at the workspace root checks
//! which crate may use which).

mod compile;
mod cryptarithm;
pub mod explain;
pub mod generic;
mod nothreeinline;
pub mod options;
pub mod params;
pub mod picture;
pub mod problem;
mod queens;
pub mod report;
pub mod run;

pub use compile::{compile, compile_to_explain, compile_with_stop, part, part_spans};
