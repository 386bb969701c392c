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
//! # What a stopped run leaves behind
//! A run stopped by a limit has a short grace to print what it found before its watcher
//! ends the process. Freeing what it abandoned (a deep trail, a Minesweeper count's layers
//! of big numbers: millions of allocations) can take longer than that, and on another
//! thread it still takes the CPU the run needs to print. So the run hands it to its token
//! ([`StopToken::abandon`]), and its watcher frees it once the answer is out
//! ([`StopToken::free_abandoned`]); if nobody does, it is freed with the token's last clone.
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

use std::any::Any;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use crate::Stop;

const NONE: u8 = 0;
const TIME: u8 = 1;
const MEMORY: u8 = 2;
const CANCELLED: u8 = 3;

/// A shared, cloneable request to stop one run: the watcher requests, the solver polls.
/// Every clone sees the same request; a new token starts unrequested.
#[derive(Debug, Clone, Default)]
pub struct StopToken(Arc<Shared>);

/// What the clones of a token share.
#[derive(Default)]
struct Shared {
    reason: AtomicU8,
    /// What the run abandoned when it stopped, to be freed off its clock.
    abandoned: Mutex<Vec<Box<dyn Any + Send>>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").field("reason", &self.reason).finish_non_exhaustive()
    }
}

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
        let _ = self.0.reason.compare_exchange(NONE, code, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The reason a stop was requested, if one was.
    #[inline]
    pub fn requested(&self) -> Option<Stop> {
        match self.0.reason.load(Ordering::Relaxed) {
            NONE => None,
            TIME => Some(Stop::Time),
            MEMORY => Some(Stop::Memory),
            _ => Some(Stop::Cancelled),
        }
    }

    /// Keeps a large structure the stopped run no longer needs, to be freed once the run
    /// has printed its answer ([`StopToken::free_abandoned`]).
    pub fn abandon<T: Send + 'static>(&self, abandoned: T) {
        self.0.abandoned.lock().unwrap_or_else(|p| p.into_inner()).push(Box::new(abandoned));
    }

    /// Frees what the run abandoned, on a thread of its own: the run has printed its
    /// answer, and the process may exit before the freeing ends. Without a thread to
    /// spare it is freed here, by the failed spawn.
    pub fn free_abandoned(&self) {
        let abandoned = std::mem::take(&mut *self.0.abandoned.lock().unwrap_or_else(|p| p.into_inner()));
        if !abandoned.is_empty() {
            let _ = std::thread::Builder::new().name("free".into()).spawn(move || drop(abandoned));
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
    fn what_a_run_abandons_is_kept_until_freed() {
        let token = StopToken::new();
        let kept = Arc::new(());
        token.clone().abandon(Arc::clone(&kept));
        assert_eq!(Arc::strong_count(&kept), 2, "kept by the token, not by the clone that abandoned it");
        token.free_abandoned();
        assert!(token.0.abandoned.lock().map(|a| a.is_empty()).unwrap_or(false), "handed to the freeing thread");
        let other = StopToken::new();
        let kept = Arc::new(());
        other.abandon(Arc::clone(&kept));
        drop(other);
        assert_eq!(Arc::strong_count(&kept), 1, "freed with the token's last clone");
    }

    #[test]
    fn other_reasons_are_a_cancellation() {
        let token = StopToken::new();
        token.request(Stop::Nodes);
        assert_eq!(token.requested(), Some(Stop::Cancelled));
    }
}
