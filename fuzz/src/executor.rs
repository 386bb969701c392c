//! Running one input in-process, and watching it.
//!
//! The target runs on a dedicated worker thread; the calling thread is the watchdog. It
//! hands the worker an input, then waits for the answer in short slices, and between
//! slices checks the clock and the process's resident memory. Three things can go wrong:
//!
//! - **Panic.** The worker runs the target under `catch_unwind`, so a panic comes back as
//!   an answer and the next input can run. A panic hook records the message, the
//!   location and a backtrace on the worker thread (and stays silent there, so a run
//!   that finds a thousand panics does not print a thousand backtraces); panics on other
//!   threads go to the hook that was there before.
//! - **Hang.** The input took longer than the budget. Half-way through the budget the
//!   watchdog requests a stop on the input's [`StopToken`] (each input runs with its own),
//!   as the binary's watchdog does at its time limit: compiling a huge but valid model must then stop, and only an input that
//!   does not stop within the other half is a hang. A thread cannot be killed from the
//!   outside, so the executor marks itself stuck and the campaign ends: the caller saves
//!   the input and exits the process.
//!
//!   The budget is the worker thread's *CPU time*, not the wall clock: on a loaded machine
//!   (a fuzzer beside compilations, load 12 on two cores) a thread may get a sixth of a
//!   core, and a wall-clock budget then reports inputs that merely waited for the CPU. What
//!   the check is after, code that keeps working after the stop request, is measured by the
//!   work itself. A wall-clock ceiling (`WALL_FACTOR` budgets) still catches a worker
//!   that blocks without using the CPU.
//! - **Memory.** The resident set grew past the limit while the input ran. Same ending.
//!
//! The worker's stack is the one the `cpsolve` binary parses and compiles on
//! ([`cpsolve_dsl::STACK_BYTES`]): an input that overflows here overflows there too.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Once;
use std::thread;
use std::time::{Duration, Instant};

use cpsolve_engine::{Stop, StopToken};

use crate::crash_guard;
use crate::memory;
use crate::targets::{TargetFn, Verdict};

/// How long and how large one input may grow.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// CPU time of the worker thread for one input.
    pub budget: Duration,
    /// Resident memory of the whole process, in bytes.
    pub memory: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { budget: Duration::from_secs(2), memory: 2 << 30 }
    }
}

/// What became of one input.
#[derive(Debug)]
pub enum Outcome {
    /// The target returned (accepting or rejecting the input).
    Returned(Verdict),
    /// The target panicked.
    Panicked(PanicReport),
    /// Still running when the budget ran out; the worker is stuck for good.
    Hung(Duration),
    /// The process's resident memory passed the limit (bytes seen).
    OverMemory(u64),
}

/// A caught panic.
#[derive(Debug)]
pub struct PanicReport {
    pub message: String,
    /// `file:line:column` of the `panic!`, `unwrap` or failed index.
    pub location: String,
    pub backtrace: Backtrace,
}

/// How often the watchdog looks at the clock and the memory while an input runs.
const POLL: Duration = Duration::from_millis(50);
/// An input that took longer than this may have grown the heap: check the memory after it.
const SLOW: Duration = Duration::from_millis(10);
/// A worker that has used less CPU than its budget is still a hang after this many budgets
/// of wall-clock time (it is blocked, not working).
const WALL_FACTOR: u32 = 20;

type Answer = Result<Verdict, PanicReport>;

/// A worker thread running one target, and its watchdog.
#[derive(Debug)]
pub struct Executor {
    jobs: Option<Sender<(Vec<u8>, StopToken)>>,
    /// The worker thread's CPU clock.
    worker_clock: libc::clockid_t,
    answers: Receiver<Answer>,
    limits: Limits,
    stuck: bool,
}

impl Executor {
    pub fn new(target: TargetFn, limits: Limits) -> Executor {
        install_panic_hook();
        let (jobs, inbox) = mpsc::channel::<(Vec<u8>, StopToken)>();
        let (outbox, answers) = mpsc::channel();
        let worker = thread::Builder::new()
            .name("fuzz-target".into())
            .stack_size(cpsolve_dsl::STACK_BYTES)
            .spawn(move || {
                CAPTURING.with(|c| c.set(true));
                for (input, stop) in inbox {
                    if outbox.send(run_caught(&target, &input, &stop)).is_err() {
                        break;
                    }
                }
            })
            .expect("the worker thread starts");
        let worker_clock = thread_cpu_clock(&worker);
        Executor { jobs: Some(jobs), worker_clock, answers, limits, stuck: false }
    }

    /// Runs one input and judges it. After [`Outcome::Hung`] or [`Outcome::OverMemory`]
    /// the worker may still be running that input, and the executor takes no more.
    pub fn run(&mut self, input: &[u8]) -> Outcome {
        assert!(!self.stuck, "the worker is stuck on an earlier input");
        let start = Instant::now();
        let cpu_start = cpu_time(self.worker_clock);
        let used = |clock| cpu_time(clock).saturating_sub(cpu_start);
        let stop = StopToken::new();
        let job = (input.to_vec(), stop.clone());
        self.jobs.as_ref().expect("the job queue is open").send(job).expect("the worker is alive");
        loop {
            if used(self.worker_clock) >= self.limits.budget / 2 {
                stop.request(Stop::Time);
            }
            let left = self.limits.budget.saturating_sub(used(self.worker_clock));
            match self.answers.recv_timeout(left.clamp(Duration::from_millis(1), POLL)) {
                Ok(answer) => {
                    if start.elapsed() > SLOW {
                        if let Some(resident) = self.over_memory() {
                            return Outcome::OverMemory(resident);
                        }
                    }
                    return match answer {
                        Ok(verdict) => Outcome::Returned(verdict),
                        Err(report) => Outcome::Panicked(report),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    if used(self.worker_clock) >= self.limits.budget
                        || start.elapsed() >= self.limits.budget * WALL_FACTOR
                    {
                        self.stuck = true;
                        return Outcome::Hung(used(self.worker_clock));
                    }
                    if let Some(resident) = self.over_memory() {
                        self.stuck = true;
                        return Outcome::OverMemory(resident);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Only an abort ends the worker, and an abort ends the process too.
                    unreachable!("the worker thread ended without answering")
                }
            }
        }
    }

    fn over_memory(&self) -> Option<u64> {
        memory::resident_bytes().filter(|&r| r > self.limits.memory)
    }
}

/// The CPU-time clock of a thread.
fn thread_cpu_clock<T>(thread: &thread::JoinHandle<T>) -> libc::clockid_t {
    use std::os::unix::thread::JoinHandleExt;
    let mut clock: libc::clockid_t = 0;
    // SAFETY: the handle names a live thread (it was just spawned and is never joined).
    let status = unsafe { libc::pthread_getcpuclockid(thread.as_pthread_t(), &mut clock) };
    assert_eq!(status, 0, "the worker thread has a CPU clock");
    clock
}

/// The time a CPU clock has counted.
fn cpu_time(clock: libc::clockid_t) -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec to write into.
    let status = unsafe { libc::clock_gettime(clock, &mut now) };
    assert_eq!(status, 0, "the CPU clock can be read");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

impl Drop for Executor {
    fn drop(&mut self) {
        // Closing the queue ends the worker once it finishes its input (if ever).
        self.jobs = None;
    }
}

fn run_caught(target: &TargetFn, input: &[u8], stop: &StopToken) -> Answer {
    crash_guard::publish(input);
    let text = String::from_utf8_lossy(input);
    let result = panic::catch_unwind(AssertUnwindSafe(|| target(&text, stop)));
    crash_guard::clear();
    result.map_err(|payload| {
        LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| PanicReport {
            message: payload_text(payload.as_ref()),
            location: String::from("(unknown)"),
            backtrace: Backtrace::disabled(),
        })
    })
}

thread_local! {
    /// Set on the worker threads: their panics are findings, recorded, not printed.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<PanicReport>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                return previous(info);
            }
            let report = PanicReport {
                message: payload_text(info.payload()),
                location: info.location().map_or_else(|| "(unknown)".into(), |l| l.to_string()),
                // Captured now, while the panicking frames are still on the stack;
                // symbols are resolved only if the finding is saved.
                backtrace: Backtrace::force_capture(),
            };
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(report));
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        String::from("(a panic payload that is not text)")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use super::*;

    fn verdict() -> Verdict {
        Verdict { accepted: true, signature: String::from("ok") }
    }

    #[test]
    fn catches_a_panic_and_carries_on() {
        let target: TargetFn = Arc::new(|text: &str, _: &StopToken| {
            if text.contains("boom") {
                let cells: Vec<u8> = Vec::new();
                let _ = cells[text.len()];
            }
            verdict()
        });
        let mut executor = Executor::new(target, Limits::default());
        assert!(matches!(executor.run(b"fine"), Outcome::Returned(_)));
        match executor.run(b"a boom") {
            Outcome::Panicked(report) => {
                assert!(report.message.contains("index out of bounds"), "{}", report.message);
                assert!(report.location.contains("executor.rs"), "{}", report.location);
            }
            other => panic!("expected a panic, got {other:?}"),
        }
        assert!(matches!(executor.run(b"fine again"), Outcome::Returned(_)));
    }

    #[test]
    fn a_loop_past_the_budget_is_a_hang() {
        static RELEASE: AtomicBool = AtomicBool::new(false);
        let target: TargetFn = Arc::new(|text: &str, _: &StopToken| {
            while text == "loop" && !RELEASE.load(Ordering::SeqCst) {
                std::hint::spin_loop();
            }
            verdict()
        });
        let limits = Limits { budget: Duration::from_millis(300), ..Limits::default() };
        let mut executor = Executor::new(target, limits);
        assert!(matches!(executor.run(b"quick"), Outcome::Returned(_)));
        let start = Instant::now();
        assert!(matches!(executor.run(b"loop"), Outcome::Hung(_)));
        assert!(start.elapsed() < Duration::from_secs(2), "the watchdog fires on time");
        RELEASE.store(true, Ordering::SeqCst);
    }

    #[test]
    fn waiting_for_the_cpu_is_not_a_hang() {
        // Blocked for three budgets of wall-clock time but using no CPU: on a loaded
        // machine that is an input waiting its turn, not one that keeps working.
        let target: TargetFn = Arc::new(|_: &str, _: &StopToken| {
            thread::sleep(Duration::from_millis(300));
            verdict()
        });
        let limits = Limits { budget: Duration::from_millis(100), ..Limits::default() };
        let mut executor = Executor::new(target, limits);
        assert!(matches!(executor.run(b"x"), Outcome::Returned(_)));
    }

    #[test]
    fn memory_past_the_limit_is_a_finding() {
        let _alone = memory::RESIDENT_SET_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let target: TargetFn = Arc::new(|_: &str, _: &StopToken| {
            let block = std::hint::black_box(vec![7u8; 256 << 20]);
            thread::sleep(Duration::from_millis(150));
            drop(block);
            verdict()
        });
        let resident = memory::resident_bytes().expect("runs on Linux");
        let limits = Limits { memory: resident + (128 << 20), ..Limits::default() };
        let mut executor = Executor::new(target, limits);
        assert!(matches!(executor.run(b"x"), Outcome::OverMemory(_)));
    }
}
