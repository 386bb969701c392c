//! The whole-binary target: the built `cpsolve`, run on mutated files as a user would.
//!
//! The in-process targets stop at compiling; this one solves too, through every layer
//! the user meets (argument handling, file reading, the search under its limits, the
//! output), and it can see what an in-process run cannot: a death by a signal, and
//! whether the binary keeps the limits it was given. Each run is
//! `cpsolve --timeout 1 [--memory 512] FILE` and must:
//!
//! - exit with 0, 1, 2 or 3 (solved, no solution, bad input, a limit hit); any other
//!   status, or a death by a signal, is a finding;
//! - never print "panicked" on standard error;
//! - end within its timeout plus slack (×1.1 + 0.3 s for process start and compiling);
//! - peak below its memory limit plus 64 MB, when the binary has `--memory`. Without
//!   that option the peak is only a warning: nothing asked the binary to stay below it.
//!
//! The peak memory comes from the kernel's accounting of the child (`wait4` returns its
//! `rusage`, whose `ru_maxrss` is the largest resident set it ever had), so no sampling
//! can miss a short spike. A run a little past its time is confirmed by running it again:
//! on a loaded machine one slow run proves little. A run still going at twice its limit
//! (3 s at least) is killed and needs no confirming.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::campaign::{Input, Judgement, Runner};
use crate::findings::{Kind as FindingKind, Problem};

/// How the binary is run.
#[derive(Debug, Clone)]
pub struct Config {
    pub cpsolve: PathBuf,
    /// `--timeout`, in seconds.
    pub timeout: f64,
    /// `--memory` in MB, when the binary has that option.
    pub memory_mb: Option<u64>,
    /// The memory a run may peak at (MB) before a warning, when it has no `--memory`.
    pub warn_mb: u64,
    /// Children at once (at most 2: the machine has two cores).
    pub jobs: usize,
    /// A scratch directory for the input files.
    pub work: PathBuf,
}

impl Config {
    /// The longest a run may take: the timeout plus 10 %, plus 0.3 s to start the process
    /// and compile the model.
    pub fn time_limit(&self) -> Duration {
        Duration::from_secs_f64(self.timeout * 1.1 + 0.3)
    }

    /// A run still going after this is killed, so that one stuck child cannot stop the
    /// campaign; it is reported as over its time limit.
    fn kill_after(&self) -> Duration {
        self.time_limit().mul_f64(2.0).max(Duration::from_secs(3))
    }

    /// The peak (MB) above which a run is a finding (or a warning without `--memory`).
    pub fn peak_limit_mb(&self) -> u64 {
        self.memory_mb.map_or(self.warn_mb, |m| m + 64)
    }
}

/// Whether `cpsolve --help` lists a `--memory` option.
pub fn supports_memory(cpsolve: &Path) -> io::Result<bool> {
    let output = Command::new(cpsolve).arg("--help").stdin(Stdio::null()).output()?;
    Ok(String::from_utf8_lossy(&output.stdout).contains("--memory"))
}

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Exited(i32),
    Signalled(i32),
}

/// One run of the binary.
#[derive(Debug, Clone)]
pub struct Run {
    pub status: Status,
    pub wall: Duration,
    /// Peak resident memory, in KB.
    pub peak_kb: u64,
    pub stderr: String,
    /// Killed by the harness for running far too long.
    pub killed: bool,
}

/// Runs the binary once on `input`, written to `slot` (a directory of its own).
pub fn run_once(config: &Config, input: &Input, slot: &Path) -> io::Result<Run> {
    fs::create_dir_all(slot)?;
    // The extension picks the front end, as it does for a user's file.
    let file = slot.join(format!("input.{}", input.kind.extension()));
    fs::write(&file, &input.bytes)?;
    let stderr_path = slot.join("stderr.txt");
    let mut command = Command::new(&config.cpsolve);
    command.arg("--timeout").arg(config.timeout.to_string());
    if let Some(mb) = config.memory_mb {
        command.arg("--memory").arg(mb.to_string());
    }
    let start = Instant::now();
    let child = command
        .arg(&file)
        .current_dir(slot)
        .stdin(Stdio::null())
        // The solutions are not judged; /dev/null also spares a pipe that could fill up.
        .stdout(Stdio::null())
        .stderr(File::create(&stderr_path)?)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut killed = false;
    let (status, usage) = loop {
        if let Some(done) = wait4(pid, libc::WNOHANG)? {
            break done;
        }
        if !killed && start.elapsed() > config.kill_after() {
            // SAFETY: the pid is our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        thread::sleep(Duration::from_millis(2));
    };
    let wall = start.elapsed();
    let mut stderr = String::from_utf8_lossy(&fs::read(&stderr_path)?).into_owned();
    if stderr.len() > 64 << 10 {
        let cut = (0..=64 << 10).rev().find(|&i| stderr.is_char_boundary(i)).unwrap_or(0);
        stderr.truncate(cut);
        stderr.push_str("\n[standard error cut at 64 KiB]");
    }
    let status = if libc::WIFSIGNALED(status) {
        Status::Signalled(libc::WTERMSIG(status))
    } else {
        Status::Exited(libc::WEXITSTATUS(status))
    };
    Ok(Run { status, wall, peak_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0), stderr, killed })
}

/// Reaps `pid` if it has ended (or waits for it, without `WNOHANG`): its wait status and
/// resource usage.
fn wait4(pid: libc::pid_t, options: libc::c_int) -> io::Result<Option<(libc::c_int, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: rusage is plain data; zeroes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to locals; the pid is our child.
    let reaped = unsafe { libc::wait4(pid, &mut status, options, &mut usage) };
    match reaped {
        -1 => Err(io::Error::last_os_error()),
        0 => Ok(None),
        _ => Ok(Some((status, usage))),
    }
}

/// The name of a signal, for messages.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        _ => "signal",
    }
}

/// The first line of standard error that is not blank, with its numbers folded.
fn first_error(stderr: &str) -> String {
    crate::targets::fold(stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or(""))
}

/// Judges one run against the rules in the module docs.
pub fn judge(config: &Config, run: &Run) -> Judgement {
    let mut problems = Vec::new();
    let detail = format!(
        "status: {:?}\nwall: {:.3} s\npeak: {} MB\nkilled by the harness: {}\n--- stderr\n{}",
        run.status,
        run.wall.as_secs_f64(),
        run.peak_kb >> 10,
        run.killed,
        run.stderr
    );
    let mut problem = |kind, signature: String, message: String, warning| {
        problems.push(Problem { kind, signature, message, detail: detail.clone(), warning });
    };
    match run.status {
        Status::Exited(0..=3) => {}
        Status::Exited(code) => {
            problem(FindingKind::Exit, format!("exit {code}"), format!("exit status {code}"), false)
        }
        Status::Signalled(_) if run.killed => {}
        Status::Signalled(signal) => {
            let name = signal_name(signal);
            let last = run.stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            problem(FindingKind::Crash, format!("signal {signal}"), format!("killed by {name} ({last})"), false);
        }
    }
    if let Some(at) = run.stderr.find("panicked") {
        let line = run.stderr[at..].lines().next().unwrap_or("");
        let rest = run.stderr[at + line.len()..].lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        // "panicked at models/src/x.rs:12:5:" — the location is the bug's identity.
        let location = line.trim_start_matches("panicked at ").trim_end_matches(':').to_string();
        problem(FindingKind::Panic, location, format!("{line} {}", rest.trim()), false);
    }
    if run.killed || run.wall > config.time_limit() {
        let killed = if run.killed { ", killed" } else { "" };
        problem(
            FindingKind::Time,
            format!("time {}", first_error(&run.stderr)),
            format!(
                "ran {:.2} s{killed}, over its time limit of {:.2} s (--timeout {})",
                run.wall.as_secs_f64(),
                config.time_limit().as_secs_f64(),
                config.timeout
            ),
            false,
        );
    }
    if run.peak_kb >> 10 > config.peak_limit_mb() {
        let without = if config.memory_mb.is_none() { " (the binary has no --memory option)" } else { "" };
        problem(
            FindingKind::Rss,
            format!("rss {}", first_error(&run.stderr)),
            format!("peak resident memory {} MB, over {} MB{without}", run.peak_kb >> 10, config.peak_limit_mb()),
            config.memory_mb.is_none(),
        );
    }
    let code = match run.status {
        Status::Exited(code) => format!("exit {code}"),
        Status::Signalled(signal) => format!("signal {signal}"),
    };
    Judgement { behaviour: format!("{code} {}", first_error(&run.stderr)), problems, fatal: false }
}

/// The binary runner: up to `jobs` children at once, one slot directory each.
#[derive(Debug)]
pub struct Binary {
    config: Config,
}

impl Binary {
    pub fn new(config: Config) -> Binary {
        Binary { config }
    }

    fn slot(&self, index: usize) -> PathBuf {
        self.config.work.join(format!("slot-{index}"))
    }

    /// Runs and judges one input in slot `index`; a run over its time is run again alone.
    fn run_judged(&self, input: &Input, index: usize) -> Judgement {
        let first = match run_once(&self.config, input, &self.slot(index)) {
            Ok(run) => run,
            Err(error) => return harness_error(&error),
        };
        let mut judgement = judge(&self.config, &first);
        let over_time = |j: &Judgement| j.problems.iter().any(|p| p.kind == FindingKind::Time);
        // A run the harness had to kill is far past any slack a busy machine explains.
        if over_time(&judgement) && !first.killed {
            let again = run_once(&self.config, input, &self.slot(index)).map(|run| judge(&self.config, &run));
            if let Ok(again) = again {
                if !over_time(&again) {
                    for problem in judgement.problems.iter_mut().filter(|p| p.kind == FindingKind::Time) {
                        problem.warning = true;
                        problem.signature = String::from("time, not reproduced");
                        problem.message += " (within the limit when run again: a loaded machine?)";
                    }
                }
            }
        }
        judgement
    }
}

/// A run the harness itself could not make (no binary, a full disk): fatal.
fn harness_error(error: &io::Error) -> Judgement {
    eprintln!("cpsolve-fuzz: cannot run the binary: {error}");
    Judgement { behaviour: String::from("harness error"), problems: Vec::new(), fatal: true }
}

impl Runner for Binary {
    fn name(&self) -> &str {
        "binary"
    }

    fn batch(&self) -> usize {
        self.config.jobs.clamp(1, 2)
    }

    fn run(&mut self, inputs: &[Input]) -> Vec<Judgement> {
        let this = &*self;
        thread::scope(|scope| {
            let handles: Vec<_> =
                inputs.iter().enumerate().map(|(i, input)| scope.spawn(move || this.run_judged(input, i))).collect();
            handles.into_iter().map(|h| h.join().expect("a run thread does not panic")).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            cpsolve: PathBuf::from("cpsolve"),
            timeout: 1.0,
            memory_mb: Some(512),
            warn_mb: 512,
            jobs: 2,
            work: PathBuf::from("/tmp"),
        }
    }

    fn run(status: Status, wall_ms: u64, peak_mb: u64, stderr: &str) -> Run {
        Run {
            status,
            wall: Duration::from_millis(wall_ms),
            peak_kb: peak_mb << 10,
            stderr: stderr.to_string(),
            killed: false,
        }
    }

    fn kinds(judgement: &Judgement) -> Vec<FindingKind> {
        judgement.problems.iter().map(|p| p.kind).collect()
    }

    #[test]
    fn a_clean_run_has_no_problem() {
        for code in 0..=3 {
            assert!(judge(&config(), &run(Status::Exited(code), 1300, 570, "error: x\n")).problems.is_empty());
        }
    }

    #[test]
    fn each_rule_is_checked() {
        let c = config();
        assert_eq!(kinds(&judge(&c, &run(Status::Exited(101), 10, 5, ""))), [FindingKind::Exit]);
        assert_eq!(kinds(&judge(&c, &run(Status::Signalled(libc::SIGSEGV), 10, 5, ""))), [FindingKind::Crash]);
        let panic = judge(&c, &run(Status::Exited(2), 10, 5, "\nthread 'main' panicked at a.rs:1:2:\nboom\n"));
        assert_eq!(kinds(&panic), [FindingKind::Panic]);
        assert_eq!(panic.problems[0].signature, "a.rs:1:2");
        assert_eq!(kinds(&judge(&c, &run(Status::Exited(3), 1500, 5, ""))), [FindingKind::Time]);
        assert_eq!(kinds(&judge(&c, &run(Status::Exited(3), 100, 600, ""))), [FindingKind::Rss]);
        let without_memory = Config { memory_mb: None, ..config() };
        let warned = judge(&without_memory, &run(Status::Exited(0), 100, 600, ""));
        assert!(warned.problems.iter().all(|p| p.warning) && !warned.problems.is_empty());
    }
}
