//! The answer of a puzzle that has its own solver rather than one engine search
//! (Le Compte est Bon, Minesweeper analysis, Number Match): what the command line prints.

use cpsolve_engine::Stats;

use cpsolve_models::run::Status;

/// What a puzzle's own solver found, ready to print.
#[derive(Debug)]
pub struct Outcome {
    pub status: Status,
    /// The whole standard output in text mode.
    pub text: String,
    /// The JSON object of docs/json.md, without `"file"` (put first by the caller) and without
    /// `"stats"` (added by the caller under `--stats`, from [`Outcome::stats`]).
    pub json: serde_json::Value,
    /// The solver's own measure of work (each solver documents what its counters mean)
    /// and the time of the whole run.
    pub stats: Stats,
    /// The picture of the answer (`--format svg`, caption included), for the puzzles that
    /// draw one; `None` otherwise.
    pub picture: Option<String>,
}
