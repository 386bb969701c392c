//! When a puzzle's own solver must stop, and how the stop is told.
//!
//! The puzzles with a search of their own (Compte est Bon, Minesweeper, Number Match)
//! check their deadline in their loops; they stop as well when the process asks every
//! search to stop ([`cpsolve_engine::interrupt`]: out of time or out of memory).

use std::time::Instant;

use cpsolve_engine::{interrupt, Stop};

use cpsolve_models::run::RunOptions;

/// Whether a loop checking `deadline` must stop now.
pub(crate) fn expired(deadline: Option<Instant>) -> bool {
    interrupt::raised().is_some() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The JSON `"stopped"` name of the limit that stopped a puzzle's own solver.
pub(crate) fn stop_name() -> &'static str {
    if interrupt::raised() == Some(Stop::Memory) {
        "memory"
    } else {
        "time"
    }
}

/// The limit that stopped a puzzle's own solver, in words: "time limit of 2 s".
pub(crate) fn reached(options: &RunOptions) -> String {
    if stop_name() == "memory" {
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

/// Frees a large structure abandoned at a limit on a thread of its own: freeing millions
/// of allocations (a Minesweeper count's layers of big numbers) can take longer than the
/// grace a stopped run has to print its answer.
pub(crate) fn free_later<T: Send + 'static>(abandoned: T) {
    // Without a thread to spare, the structure is freed here by the failed spawn: late
    // rather than never.
    let _ = std::thread::Builder::new().name("free".into()).spawn(move || drop(abandoned));
}
