//! A thread that watches the clock of the run in progress and ends it if it overstays.
//!
//! The main thread [`arm`]s it for each run with the time limit and the message a hard
//! stop prints, and gets the run's [`StopToken`] back: the run compiles and searches with
//! it. At the deadline, or once the allocator saw the memory limit passed
//! ([`super::memory::exceeded`]), the watchdog requests a stop on that token; a search sees
//! it within a node and the run ends normally. If the run is still searching a grace period
//! after the stop was requested, the watchdog ends the process itself: [`hard_stop`].
//!
//! The grace is 2% of the time limit plus 20 ms, so that even a hard stop, and the exit of a
//! process holding gigabytes, stays within the
//! promised 10% + 50 ms.
//!
//! The grace is counted in the process's CPU time, not on the wall clock: on a busy machine
//! a run gets a fraction of a core, and 60 ms of wall time may be 10 ms of work, less than it
//! takes to notice the stop, leave a table rehash and print what was proved. On an idle
//! machine the two clocks agree. The process's time, not the run thread's: parallel workers
//! that do not poll must not outlast the grace while the run's thread waits for them. What
//! the stopped run abandoned is freed only once it is disarmed
//! ([`StopToken::free_abandoned`]), so that no freeing eats the grace. A wall-clock
//! backstop, [`WALL_BACKSTOP`] past the grace, still ends a run that uses no CPU (blocked on
//! its output).

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use cpsolve_engine::{Stop, StopToken};

/// What a hard stop prints on standard output, prepared when the run is armed (a hard
/// stop may happen inside the allocator, where nothing may be allocated).
#[derive(Debug, Clone)]
pub(crate) struct HardStop {
    pub(crate) time: String,
    pub(crate) memory: String,
    /// The exit status of a stop for time: [`super::LIMIT_EXIT`] for `cpsolve`; 0 for
    /// `fzn-cpsolve`, because MiniZinc takes any other status from a FlatZinc solver for an
    /// error (`=====ERROR=====`) where a time limit means an unknown status or the solutions
    /// already printed. A stop for memory always exits with [`super::LIMIT_EXIT`].
    pub(crate) time_exit: i32,
    /// Printed after the stop line: what the models after this one answer, since the
    /// process ends before it runs them (one JSON object per model is the contract).
    pub(crate) later: String,
}

impl HardStop {
    /// The line of the limit that stopped the run: memory's for a memory stop, time's for
    /// any other.
    pub(crate) fn line(&self, reason: Option<Stop>) -> &str {
        if reason == Some(Stop::Memory) {
            &self.memory
        } else {
            &self.time
        }
    }
}

#[derive(Debug, Default)]
struct Watch {
    /// A run is searching: a stop it does not honour within its grace ends the process.
    armed: bool,
    deadline: Option<Instant>,
    time_grace: Duration,
    /// When the watchdog first saw a stop requested in this run, on the wall clock and on
    /// the process's CPU clock.
    raised_at: Option<(Instant, Duration)>,
    /// The run's token, on which the watchdog requests the stop.
    stop: Option<StopToken>,
    /// When the watchdog will look again of its own accord; `None` while it sleeps until
    /// woken. Arming wakes it only when it would look too late for the new run.
    next_look: Option<Instant>,
}

/// How often the watchdog looks whether the allocator saw the memory limit passed.
const POLL: Duration = Duration::from_millis(10);
/// The time a search has to honour a memory stop: its memory is under the hard cap.
const MEMORY_GRACE: Duration = Duration::from_millis(200);
/// How long past its grace, on the wall clock, a stopped run that uses no CPU may last.
const WALL_BACKSTOP: Duration = Duration::from_secs(1);

static WATCH: Mutex<Watch> = Mutex::new(Watch {
    armed: false,
    deadline: None,
    time_grace: Duration::ZERO,
    raised_at: None,
    next_look: None,
    stop: None,
});
static WAKE: Condvar = Condvar::new();
static THREAD: OnceLock<()> = OnceLock::new();
static MESSAGE: AtomicPtr<HardStop> = AtomicPtr::new(std::ptr::null_mut());
static STOPPING: AtomicBool = AtomicBool::new(false);

fn watch() -> MutexGuard<'static, Watch> {
    WATCH.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A run in progress under the watchdog; dropping it ends the watch.
#[derive(Debug)]
pub(crate) struct Armed {
    stop: StopToken,
}

impl Armed {
    /// The run's stop token: compile and search the run's models with it.
    pub(crate) fn stop(&self) -> &StopToken {
        &self.stop
    }

    /// The search is over and the run is printing what it found: that is bounded by what
    /// was found, so the clock no longer applies (the memory hard cap still does).
    pub(crate) fn searched(&self) {
        watch().armed = false;
        self.stop.free_abandoned();
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let mut watch = watch();
        watch.armed = false;
        watch.stop = None;
        drop(watch);
        super::memory::watch_run(None);
        self.stop.free_abandoned();
    }
}

/// Starts watching a new run, with a stop token of its own: the deadline is `timeout` from
/// now.
pub(crate) fn arm(timeout: Option<Duration>, message: HardStop) -> Armed {
    THREAD.get_or_init(|| {
        std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(run)
            .map(|_| ())
            .unwrap_or_else(|e| panic!("cannot start the watchdog thread: {e}"))
    });
    // Leaked on purpose: a hard stop may read the previous message at any moment, and
    // there are only as many as models in the run.
    MESSAGE.store(Box::into_raw(Box::new(message)), Ordering::Release);
    let stop = StopToken::new();
    super::memory::watch_run(Some(stop.clone()));
    let now = Instant::now();
    let mut watch = watch();
    let deadline = timeout.map(|t| now + t);
    let next_look = watch.next_look;
    *watch = Watch {
        armed: true,
        deadline,
        time_grace: timeout.map_or(Duration::ZERO, |t| t / 50) + Duration::from_millis(20),
        raised_at: None,
        next_look,
        stop: Some(stop.clone()),
    };
    // A deadline already past (`--timeout 0`) stops the run here, not whenever the
    // watchdog thread is next scheduled: the outcome must not depend on the machine's load.
    if watch.deadline.is_some_and(|d| d <= now) {
        stop.request(Stop::Time);
    }
    // Waking the thread costs two context switches; a run of many small models (40
    // cryptarithms take 7 ms in all) would spend more on them than on searching. A watchdog
    // already due to look within a poll and before the deadline needs no wake-up.
    let needed = deadline.map_or(now + POLL, |d| d.min(now + POLL));
    if next_look.is_none_or(|look| look > needed) {
        WAKE.notify_one();
    }
    Armed { stop }
}

fn run() {
    let mut watch = watch();
    loop {
        if !watch.armed {
            watch.next_look = None;
            watch = WAKE.wait(watch).unwrap_or_else(|p| p.into_inner());
            continue;
        }
        let now = Instant::now();
        let Some(stop) = watch.stop.clone() else {
            watch.armed = false;
            continue;
        };
        if watch.deadline.is_some_and(|d| now >= d) {
            stop.request(Stop::Time);
        }
        if super::memory::exceeded() {
            stop.request(Stop::Memory);
        }
        let wait = match stop.requested() {
            Some(reason) => {
                let cpu = process_cpu_time();
                let (since, cpu_since) = *watch.raised_at.get_or_insert((now, cpu));
                let grace = if reason == Stop::Memory { MEMORY_GRACE } else { watch.time_grace };
                let used = cpu.saturating_sub(cpu_since);
                if used >= grace || now >= since + grace + WALL_BACKSTOP {
                    drop(watch);
                    hard_stop(reason);
                }
                // The CPU still granted takes at least as long on the wall clock.
                (grace - used).min(since + grace + WALL_BACKSTOP - now)
            }
            None => watch.deadline.map_or(POLL, |d| d.saturating_duration_since(now).min(POLL)),
        };
        watch.next_look = Some(now + wait);
        watch = WAKE.wait_timeout(watch, wait).unwrap_or_else(|p| p.into_inner()).0;
    }
}

/// The CPU time all threads of the process have used so far; zero if it cannot be read
/// (never on Linux: then no CPU seems used and the wall backstop rules).
fn process_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(u64::try_from(now.tv_sec).unwrap_or(0), u32::try_from(now.tv_nsec).unwrap_or(0))
}

/// Prints the armed run's stop message and ends the process with its exit status (3, or
/// the run's own for time: [`HardStop::time_exit`]), without allocating, unwinding or
/// flushing anything (another thread may hold the output).
pub(crate) fn hard_stop(reason: Stop) -> ! {
    if STOPPING.swap(true, Ordering::SeqCst) {
        // Another thread is already ending the process.
        loop {
            std::thread::park();
        }
    }
    let message = MESSAGE.load(Ordering::Acquire);
    // SAFETY: a non-null MESSAGE points to a leaked, never freed HardStop.
    let (text, later, exit): (&str, &str, i32) = match unsafe { message.as_ref() } {
        Some(m) if reason == Stop::Memory => (&m.memory, &m.later, super::LIMIT_EXIT),
        Some(m) => (&m.time, &m.later, m.time_exit),
        None if reason == Stop::Memory => ("stopped: memory limit reached\n", "", super::LIMIT_EXIT),
        None => ("stopped: time limit reached\n", "", super::LIMIT_EXIT),
    };
    // SAFETY: writing valid buffers to the standard output descriptor, then ending the
    // process without running anything else.
    unsafe {
        libc::write(1, text.as_ptr().cast(), text.len());
        libc::write(1, later.as_ptr().cast(), later.len());
        libc::_exit(exit);
    }
}
