//! When a puzzle's own solver must stop, and how the stop is told.
//!
//! The puzzles with a search of their own (Compte est Bon, Minesweeper, Number Match)
//! check a [`Deadline`] in their loops: the run's time limit, and the run's
//! [`StopToken`] on which a watcher requests a stop (out of memory, out of time, a caller's
//! request). The token is the run's own: another run in the same process goes on.

use std::time::Instant;

use cpsolve_engine::{Stop, StopToken};

use cpsolve_models::run::RunOptions;

/// When a puzzle's own solver must stop: at an instant, or when a stop is requested on the
/// run's token. Cloning is cheap (the token is shared).
#[derive(Debug, Clone, Default)]
pub struct Deadline {
    at: Option<Instant>,
    stop: StopToken,
}

impl Deadline {
    /// Stops at `at` (never, if `None`) or when a stop is requested on `stop`.
    pub fn new(at: Option<Instant>, stop: StopToken) -> Deadline {
        Deadline { at, stop }
    }

    /// The deadline of a run that started at `start` under `options`: its time limit and
    /// its stop token.
    pub fn of_run(options: &RunOptions, start: Instant) -> Deadline {
        Deadline::new(options.timeout.map(|t| start + t), options.stop.clone())
    }

    /// No deadline: only a stop requested on a token nobody else holds would end it.
    pub fn never() -> Deadline {
        Deadline::default()
    }

    /// Whether a loop checking this deadline must stop now.
    pub(crate) fn expired(&self) -> bool {
        self.stop.requested().is_some() || self.at.is_some_and(|d| Instant::now() >= d)
    }

    /// Hands a large structure abandoned at the deadline to the run's token, to be freed
    /// once the run has printed what it proved ([`StopToken::abandon`]): freeing millions
    /// of allocations (a Minesweeper count's layers of big numbers) takes longer than the
    /// grace a stopped run has to print.
    pub(crate) fn abandon<T: Send + 'static>(&self, abandoned: T) {
        self.stop.abandon(abandoned);
    }

    /// The JSON `"stopped"` name of what ended a loop checking this deadline: `"memory"`
    /// if a memory stop was requested, else `"time"`.
    pub(crate) fn stop_name(&self) -> &'static str {
        name_of(&self.stop)
    }
}

/// The JSON `"stopped"` name of the limit that stopped a puzzle's own solver in the run of
/// `options`.
pub(crate) fn stop_name(options: &RunOptions) -> &'static str {
    name_of(&options.stop)
}

/// `"memory"` if a memory stop was requested on `stop`, else `"time"` (a deadline passed).
fn name_of(stop: &StopToken) -> &'static str {
    if stop.requested() == Some(Stop::Memory) {
        "memory"
    } else {
        "time"
    }
}

/// The limit that stopped a puzzle's own solver, in words: "time limit of 2 s".
pub(crate) fn reached(options: &RunOptions) -> String {
    if stop_name(options) == "memory" {
        return match options.memory_mb {
            Some(mb) => format!("memory limit of {mb} MB"),
            None => "memory limit".to_string(),
        };
    }
    match options.timeout {
        Some(t) => format!("time limit of {} s", t.as_secs_f64()),
        None => "time limit".to_string(),
    }
}
