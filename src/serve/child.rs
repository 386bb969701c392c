//! One request run by a child process: this binary, on the posted model, under the
//! request's own time and memory limits.
//!
//! The child is given its limits (`--timeout`, `--memory`) and stops itself with the
//! command line's `stopped` answer when one strikes. Should it not (a read that blocks, a
//! fault), the server kills it [`GRACE`] after its deadline and answers for it: a hung
//! child must never hold a worker for ever.

use std::io::{self, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long past its own deadline a child may take to stop before it is killed.
const GRACE: Duration = Duration::from_secs(3);
/// How often a running child is looked at.
const POLL: Duration = Duration::from_millis(5);

/// What a request asks the command line to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Task {
    Solve,
    Explain,
    Picture,
}

impl Task {
    fn arguments(self) -> &'static [&'static str] {
        match self {
            Task::Solve => &["--format", "json"],
            Task::Explain => &["explain", "--format", "json"],
            Task::Picture => &["--format", "svg"],
        }
    }
}

/// How a child ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// It exited with this status, printing this.
    Exited { code: u8, stdout: String, stderr: String },
    /// It ran past its deadline and the grace, and was killed.
    Killed,
    /// It was ended by a signal not sent by the server (a fault).
    Crashed,
}

/// Runs `task` on `model` with `seconds` and `memory_mb` as its limits.
pub(crate) fn run(task: Task, model: &str, seconds: f64, memory_mb: u64) -> io::Result<Ended> {
    let mut child = Command::new(std::env::current_exe()?)
        .args(task.arguments())
        .args(["--timeout", &seconds.to_string(), "--memory", &memory_mb.to_string(), "--refuse-includes", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let deadline = Instant::now() + Duration::from_secs_f64(seconds) + GRACE;
    // Writing and reading on threads of their own: a child that fills its output pipe
    // before it has read all its input would otherwise block, and so would this thread.
    let mut stdin = child.stdin.take().ok_or_else(|| io::Error::other("no pipe to the child"))?;
    let model = model.to_string();
    let writer = thread::spawn(move || {
        // A child that stopped before reading all its input closed the pipe: not an error.
        let _ = stdin.write_all(model.as_bytes());
    });
    let stdout = reader(child.stdout.take());
    let stderr = reader(child.stderr.take());
    let status: Option<ExitStatus> = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(POLL);
    };
    let _ = writer.join();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    Ok(match status.map(|s| s.code()) {
        Some(Some(code)) => Ended::Exited { code: u8::try_from(code).unwrap_or(u8::MAX), stdout, stderr },
        Some(None) => Ended::Crashed,
        None => Ended::Killed,
    })
}

/// Reads a pipe to its end on a thread of its own.
fn reader(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}
