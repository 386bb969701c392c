//! Running a search without holding the GIL, and stopping it on Ctrl-C.
//!
//! The work runs on a thread of its own; the calling thread waits for it in slices of
//! [`SLICE`], without the GIL, and between slices lets Python look at its signals. A
//! KeyboardInterrupt (or any exception a signal handler raises) requests a stop on the
//! run's token, waits for the search to wind down (it polls the token) and is raised. A
//! panic of the work is caught and raised as a `RuntimeError`: it never ends the process.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

use cpsolve_engine::{Stop, StopToken};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals: Ctrl-C stops a search within it
/// and the search's own polling interval.
pub(crate) const SLICE: Duration = Duration::from_millis(10);

/// Deep models recurse while compiling: the search thread gets the stack a main thread has
/// on Linux, not a spawned thread's 2 MB.
const STACK: usize = 64 << 20;

/// Runs `work` on its own thread and returns its result; see the module doc.
pub(crate) fn run_interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: &StopToken,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    // The waiting closure runs without the GIL, so it must be `Send`: a shared receiver
    // needs the lock.
    let rx = std::sync::Mutex::new(rx);
    let handle = std::thread::Builder::new()
        .name("cpsolve-search".into())
        .stack_size(STACK)
        .spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
    loop {
        match py.allow_threads(|| rx.lock().unwrap_or_else(|p| p.into_inner()).recv_timeout(SLICE)) {
            Ok(Ok(value)) => {
                let _ = py.allow_threads(|| handle.join());
                return Ok(value);
            }
            Ok(Err(panic)) => {
                let _ = py.allow_threads(|| handle.join());
                return Err(internal_error(panic.as_ref()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop.request(Stop::Cancelled);
                    let _ = py.allow_threads(|| handle.join());
                    return Err(signal);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error in cpsolve: the search thread ended without an answer",
                ));
            }
        }
    }
}

/// A panic of cpsolve's, as a Python exception that says it is a bug.
pub(crate) fn internal_error(panic: &(dyn std::any::Any + Send)) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string());
    PyRuntimeError::new_err(format!("internal error in cpsolve (a bug, please report it): {what}"))
}

/// A time limit over a whole run (reading and compiling too, not only the search): a
/// thread that requests [`Stop::Time`] on the run's token at the deadline, unless the run
/// ends first (dropping the guard wakes and ends the thread).
#[derive(Debug)]
pub(crate) struct Deadline {
    _done: Option<mpsc::Sender<()>>,
}

impl Deadline {
    pub(crate) fn arm(timeout: Option<Duration>, stop: &StopToken) -> Deadline {
        let Some(timeout) = timeout else { return Deadline { _done: None } };
        let (tx, rx) = mpsc::channel::<()>();
        let stop = stop.clone();
        let spawned = std::thread::Builder::new().name("cpsolve-deadline".into()).spawn(move || {
            if rx.recv_timeout(timeout) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.request(Stop::Time);
            }
        });
        // Without the thread the search's own clock still holds (the limit is in its
        // configuration too); only compiling would go unwatched.
        Deadline { _done: spawned.ok().map(|_| tx) }
    }
}
