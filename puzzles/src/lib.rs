//! Puzzles with a solver of their own: Le Compte est Bon, Minesweeper and Number Match.
//!
//! The other kinds of `.puz` model (cryptarithms, queens, no-three-in-line, generic
//! models) are compiled into engine variables and propagators by `cpsolve-models` and
//! searched by the engine. These three are not: each has a structure that a dedicated
//! algorithm exploits far better than a generic depth-first search over integer domains.
//! - **Le Compte est Bon** ([`compte`]) enumerates the values reachable from sub-multisets
//!   of tiles, bottom up, with a shared memo, and rebuilds the shortest expression.
//! - **Minesweeper** ([`minesweeper`]) counts the mine configurations of the frontier
//!   exactly, component by component, with big integers: exact probabilities, not samples;
//!   the bot plays whole games on top of that analysis.
//! - **Number Match** ([`numbermatch`]) searches the game's moves with bounds, a table of
//!   positions and proof of the fewest "add" moves.
//!
//! # What this crate may use
//! From the engine, only the run's stop request ([`cpsolve_engine::StopToken`], requested
//! at a time or memory limit; see [`Deadline`]) and the statistics record ([`cpsolve_engine::Stats`]):
//! never its variables, propagators or search (a test, `tests/engine_use.rs`, holds the
//! line). From `cpsolve-models`, the runner's options and statuses, the statement readers
//! and the JSON framing, so that a puzzle's answer reads like every other kind's.

pub mod compte;
pub mod direct;
pub(crate) mod limit;
pub use limit::Deadline;
pub mod minesweeper;
pub mod numbermatch;
pub mod outcome;
pub(crate) mod picture;
