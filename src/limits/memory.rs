//! The bytes in use, counted by the process's global allocator, and the memory limit.
//!
//! Counting at the allocator costs one atomic addition per allocation, and is exact for the
//! heap, which is where a model's memory goes (domains, propagators, trail, tables). The
//! counter is checked against two thresholds on every allocation: the *soft limit*, past
//! which a stop is requested on the token of the run in progress ([`watch_run`]), so that
//! the search stops cleanly, and the *hard cap* a little above it and under the user's
//! limit, past which the process stops at once (see [`super`]). The bytes are the
//! process's, and so is the allocator; the stop it causes is the run's.
//!
//! The allocator must not block or allocate: it only *tries* to lock the run's token
//! (requesting a stop is one atomic operation). When the lock is busy (a run being armed),
//! [`exceeded`] stays true, and the watchdog requests the stop at its next look.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use cpsolve_engine::{Stop, StopToken};

/// The system allocator, counting.
#[derive(Debug)]
pub(crate) struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static SOFT_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static HARD_CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

static LIMIT_MB: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The soft limit was passed since the run began ([`watch_run`]).
static EXCEEDED: AtomicBool = AtomicBool::new(false);

/// Whether the bytes in use passed the soft limit since the run began: the watchdog then
/// requests a memory stop on the run's token.
pub(crate) fn exceeded() -> bool {
    EXCEEDED.load(Ordering::Relaxed)
}

/// The token of the run in progress, if one is.
static RUN: Mutex<Option<StopToken>> = Mutex::new(None);

/// A new run begins with this token (`None`: it ended): what the last one allocated is
/// freed or its own business.
pub(crate) fn watch_run(stop: Option<StopToken>) {
    // A dropped token may free memory: the allocator then takes no lock (it only shrinks).
    let previous = std::mem::replace(&mut *RUN.lock().unwrap_or_else(|p| p.into_inner()), stop);
    EXCEEDED.store(false, Ordering::Relaxed);
    drop(previous);
}

/// Sets the memory limit, in MB: the process's resident memory stays under it. The hard cap
/// on the heap leaves room for the program itself and the allocator's overhead; the
/// cooperative stop comes an eighth earlier, leaving room for the search to unwind and
/// print its answer.
pub(crate) fn set_limit_mb(mb: u64) {
    let bytes = usize::try_from(mb).unwrap_or(usize::MAX).saturating_mul(1 << 20);
    let hard = bytes - (bytes / 16).min(16 << 20);
    LIMIT_MB.store(usize::try_from(mb).unwrap_or(usize::MAX), Ordering::Relaxed);
    HARD_CAP.store(hard, Ordering::Relaxed);
    SOFT_LIMIT.store(hard - hard / 8, Ordering::Relaxed);
}

/// The memory limit, in MB, if one is set.
pub(crate) fn limit_mb() -> Option<u64> {
    let mb = LIMIT_MB.load(Ordering::Relaxed);
    (mb != usize::MAX).then_some(mb as u64)
}

/// The default limit: half of the machine's physical memory (Linux `/proc/meminfo`), so
/// that a run never pushes the machine into swap; none where that cannot be read.
pub(crate) fn default_limit_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024 / 2)
}

#[inline]
fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    if now > SOFT_LIMIT.load(Ordering::Relaxed) {
        EXCEEDED.store(true, Ordering::Relaxed);
        if let Ok(run) = RUN.try_lock() {
            if let Some(stop) = run.as_ref() {
                stop.request(Stop::Memory);
            }
        }
        if now > HARD_CAP.load(Ordering::Relaxed) {
            super::watchdog::hard_stop(Stop::Memory);
        }
    }
}

#[inline]
fn shrank(bytes: usize) {
    IN_USE.fetch_sub(bytes, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only the counters
// are updated around it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            shrank(layout.size() - new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}
