//! A process-wide request to stop, raised from outside the solver and honoured by every
//! search at its next limit check.
//!
//! # Why a process-wide signal
//! A time or memory limit concerns the whole process, not one search: a program that
//! watches the clock and the allocator (the `cpsolve` binary runs a watchdog thread for
//! this) must be able to stop whatever is running — one search, the parallel workers of a
//! count, or a puzzle's own solver — without knowing which. Each of them polls
//! [`raised`] where it already polls its own limits; the search reports the reason as its
//! [`Stop`]. The signal is one atomic byte, so polling it costs a load.
//!
//! A library user who never calls [`raise`] never sees it: it starts lowered.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::Stop;

const LOWERED: u8 = 0;
const TIME: u8 = 1;
const MEMORY: u8 = 2;

static RAISED: AtomicU8 = AtomicU8::new(LOWERED);

/// Asks every running search to stop, for running out of time ([`Stop::Time`]) or memory
/// ([`Stop::Memory`]); any other reason is recorded as time. The first reason raised is kept
/// until [`lower`].
pub fn raise(reason: Stop) {
    let code = if reason == Stop::Memory { MEMORY } else { TIME };
    let _ = RAISED.compare_exchange(LOWERED, code, Ordering::Relaxed, Ordering::Relaxed);
}

/// The reason a stop was requested, if one was.
#[inline]
pub fn raised() -> Option<Stop> {
    match RAISED.load(Ordering::Relaxed) {
        LOWERED => None,
        MEMORY => Some(Stop::Memory),
        _ => Some(Stop::Time),
    }
}

/// Withdraws the request, before the next model runs.
pub fn lower() {
    RAISED.store(LOWERED, Ordering::Relaxed);
}
