//! A request to stop one run, made from outside its search.
//!
//! # Why a token, and why one per run
//! A time or memory limit is watched outside the search: a thread that watches the clock,
//! an allocator that counts bytes, a user who presses a button. They need a way to tell a
//! running search "stop now, and say why", and so does a model being built, since building
//! a huge model takes time too. A [`StopToken`] is that line: the watcher keeps one clone
//! and calls [`StopToken::request`]; the [`Solver`](crate::Solver) holds another
//! ([`Solver::set_stop_token`](crate::Solver::set_stop_token)) and polls it where it
//! already polls its own [`Limits`](crate::Limits). The search then ends with the reason as
//! its [`Stop`], and creating a variable fails with
//! [`ModelError::Interrupted`](crate::ModelError::Interrupted).
//!
//! The token belongs to the run, not to the process: two solvers on two threads (two tests,
//! the requests of a server) each have their own, and stopping one leaves the other alone.
//! The parallel workers of one run share their run's token by cloning it. Polling costs one
//! atomic load.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::{SearchConfig, Solver, Stop, StopToken};
//!
//! let stop = StopToken::new();
//! let mut solver = Solver::new();
//! solver.set_stop_token(stop.clone());
//! let _x = solver.new_var(0, 9)?;
//! stop.request(Stop::Time); // as a watchdog would, from another thread
//! let outcome = solver.search(&SearchConfig::default(), |_| ControlFlow::Continue(()));
//! assert_eq!(outcome.stopped, Some(Stop::Time));
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use crate::Stop;

const NONE: u8 = 0;
const TIME: u8 = 1;
const MEMORY: u8 = 2;
const CANCELLED: u8 = 3;

/// A shared, cloneable request to stop one run: the watcher requests, the solver polls.
/// Every clone sees the same request; a new token starts unrequested.
#[derive(Debug, Clone, Default)]
pub struct StopToken(Arc<AtomicU8>);

impl StopToken {
    /// A token nobody has requested a stop on yet.
    pub fn new() -> StopToken {
        StopToken::default()
    }

    /// Asks the run to stop for running out of time ([`Stop::Time`]), out of memory
    /// ([`Stop::Memory`]) or for any other reason ([`Stop::Cancelled`]; the remaining
    /// reasons are recorded as that). The first reason requested is kept.
    pub fn request(&self, reason: Stop) {
        let code = match reason {
            Stop::Time => TIME,
            Stop::Memory => MEMORY,
            _ => CANCELLED,
        };
        let _ = self.0.compare_exchange(NONE, code, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The reason a stop was requested, if one was.
    #[inline]
    pub fn requested(&self) -> Option<Stop> {
        match self.0.load(Ordering::Relaxed) {
            NONE => None,
            TIME => Some(Stop::Time),
            MEMORY => Some(Stop::Memory),
            _ => Some(Stop::Cancelled),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reason_is_kept_and_every_clone_sees_it() {
        let token = StopToken::new();
        let clone = token.clone();
        assert_eq!(clone.requested(), None);
        token.request(Stop::Memory);
        token.request(Stop::Time);
        assert_eq!(clone.requested(), Some(Stop::Memory));
        assert_eq!(StopToken::new().requested(), None, "a new token is its own");
    }

    #[test]
    fn other_reasons_are_a_cancellation() {
        let token = StopToken::new();
        token.request(Stop::Nodes);
        assert_eq!(token.requested(), Some(Stop::Cancelled));
    }
}
