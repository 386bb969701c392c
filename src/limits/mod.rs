//! Limits that hold in every phase of a run: the time limit and the memory limit.
//!
//! # How a limit stops a run
//! Two ways, so that a limit holds even where no code checks it:
//! 1. **Cooperatively.** When the clock passes the deadline, or the bytes in use pass the
//!    memory limit, a stop is requested on the run's [`cpsolve_engine::StopToken`] (each
//!    run gets its own from [`arm`]). Every search of the run polls it with its own limits,
//!    stops, and the run prints what it found, as for any limit (exit 3).
//! 2. **Hard.** If the run is still going a grace period later (a phase that polls nothing:
//!    compiling a huge model, one enormous propagation), or if the bytes in use pass the
//!    hard cap a little above the limit (an allocation that would outrun any poll), the
//!    process writes the stop message prepared when the run was armed and exits with 3 at
//!    once (`fzn-cpsolve`: 0 for time, as MiniZinc expects of a solver out of time; see
//!    [`HardStop`]). Nothing found so far is lost that was not already printed, and the machine never
//!    swaps.
//!
//! [`memory`] counts the bytes in use (it is the process's global allocator) and
//! [`watchdog`] watches the clock and the counter, and requests the stop.

pub(crate) mod memory;
pub(crate) mod watchdog;

pub(crate) use watchdog::{arm, HardStop};

/// The exit status of a run cut short by a limit.
pub(crate) const LIMIT_EXIT: i32 = 3;

/// The stop lines of a run with this time limit, in the words every output uses ("time
/// limit of 2 s reached"), each rendered by `render(words, JSON name)`.
pub(crate) fn stop_lines(timeout: Option<f64>, render: impl Fn(&str, &str) -> String) -> HardStop {
    let time = match timeout {
        Some(t) => format!("time limit of {t} s reached"),
        None => "time limit reached".to_string(),
    };
    let memory = match memory::limit_mb() {
        Some(mb) => format!("memory limit of {mb} MB reached"),
        None => "memory limit reached".to_string(),
    };
    HardStop {
        time: render(&time, "time"),
        memory: render(&memory, "memory"),
        time_exit: LIMIT_EXIT,
        later: String::new(),
    }
}
