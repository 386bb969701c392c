//! `cpsolve model.mzn data.dzn` handed whole to one `minizinc --solver cpsolve` run, when
//! the run asks for nothing that MiniZinc's own run cannot give.
//!
//! # Why
//! On a small instance nearly all the time is MiniZinc's. Flattening alone (`minizinc -c`)
//! must write the output specification (`.ozn`) as a model that stands on its own, and that
//! costs it about 12 ms of CPU, a quarter of a small model's flattening; a whole `minizinc`
//! run keeps its output model in memory and does not pay it (notes/mzn-output.md). So a
//! plain text run is MiniZinc's whole run, as `minizinc --solver gecode` is: MiniZinc
//! flattens against cpsolve's library, runs `fzn-cpsolve` on the FlatZinc with this run's
//! search and limits, and prints each solution with its own printer. The output is
//! MiniZinc's by construction; `fzn-cpsolve` solves with the options `cpsolve` would use.
//!
//! # What stays on cpsolve's own path (src/flatzinc.rs)
//! What a MiniZinc run has no flag for: `--format json`, `--count`, `--stats` (cpsolve's
//! lines, on stderr), `--nodes`, a time limit under a millisecond; and any run with
//! `CPSOLVE_MZN_PRINTER` set, which chooses the printer of that path (the tests compare
//! the printers, and this run against that path).
//!
//! # The exit status
//! MiniZinc exits 0 whatever the outcome (a solver's other statuses are errors to it), so
//! `fzn-cpsolve` writes cpsolve's exit status into the file `CPSOLVE_OUTCOME_FILE` names.
//! Where it wrote none (MiniZinc found the model unsatisfiable while flattening and ran no
//! solver, or a limit ended the run first), the last status line MiniZinc printed says.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cli::{Format, Learning, Search, SolveArgs};
use crate::limits;

/// The environment variable through which `fzn-cpsolve` reports its outcome.
const OUTCOME_VARIABLE: &str = "CPSOLVE_OUTCOME_FILE";

/// How much of the end of MiniZinc's output is kept to read its last status line: the
/// longest, `=====UNSATISFIABLE=====`, with room for the line before it.
const TAIL_BYTES: usize = 256;

/// The flags of `minizinc --solver cpsolve` that ask for this run, after the solver and
/// before the files; `None` when the run needs cpsolve's own path.
pub(crate) fn flags(args: &SolveArgs) -> Option<Vec<String>> {
    if args.format != Format::Text || args.count || args.stats || args.nodes.is_some() || args.out.is_some() {
        return None;
    }
    if std::env::var_os(crate::flatzinc::PRINTER_VARIABLE).is_some() {
        return None;
    }
    let mut flags = Vec::new();
    if args.all {
        flags.push("-a".to_string());
    }
    if let Some(n) = args.limit {
        flags.extend(["-n".to_string(), n.to_string()]);
    }
    if let Some(seconds) = args.timeout {
        // MiniZinc's limit is in whole milliseconds, and 0 means none: below 1 ms, the
        // own path stops at once as asked.
        let ms = (seconds * 1000.0).ceil();
        if ms < 1.0 {
            return None;
        }
        flags.extend(["--time-limit".to_string(), format!("{ms:.0}")]);
    }
    let search = match args.search {
        Search::Auto => "auto",
        Search::Model => "model",
        Search::Free => "free",
    };
    flags.extend(["--search".to_string(), search.to_string()]);
    let learning = match args.learning {
        Learning::Auto => "auto",
        Learning::Yes => "yes",
        Learning::No => "no",
    };
    flags.extend(["--learning".to_string(), learning.to_string()]);
    if let Some(mb) = limits::memory::limit_mb() {
        flags.extend(["--memory".to_string(), mb.to_string()]);
    }
    Some(flags)
}

/// What became of the run.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Ran {
    /// Its exit status.
    Done(u8),
    /// MiniZinc failed (it said why on stderr): the model or its data are wrong.
    Failed,
}

/// Runs `minizinc` (`command`: its solver and flags set) on the files, its output copied
/// to standard output as it comes; `outcome` is the file `fzn-cpsolve` reports into.
pub(crate) fn run(mut command: Command, files: &[&PathBuf], outcome: &Path) -> io::Result<Ran> {
    let mut child = command
        .args(files)
        .env(OUTCOME_VARIABLE, outcome)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut pipe = child.stdout.take().ok_or_else(|| io::Error::other("no pipe from minizinc"))?;
    // Copied here, not inherited, to keep the end of it: the status line. Reading until
    // the pipe closes also waits for MiniZinc without polling it.
    let mut tail = Vec::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut stdout = io::stdout().lock();
    loop {
        let n = match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Err(e) = stdout.write_all(&buffer[..n]).and_then(|_| stdout.flush()) {
            // The reader went away (`| head`): MiniZinc stops its solver on SIGTERM.
            terminate(child.id());
            let _ = child.wait();
            return Err(e);
        }
        tail.extend_from_slice(&buffer[..n]);
        if tail.len() > TAIL_BYTES {
            tail.drain(..tail.len() - TAIL_BYTES);
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Ok(Ran::Failed);
    }
    let written = std::fs::read_to_string(outcome).ok();
    Ok(Ran::Done(outcome_of(written.as_deref(), &String::from_utf8_lossy(&tail))))
}

fn terminate(pid: u32) {
    // SAFETY: kill(2) on the child's own pid, which it keeps until waited for.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGTERM);
    }
}

/// The exit status from what `fzn-cpsolve` wrote, else from the end of MiniZinc's output.
fn outcome_of(written: Option<&str>, tail: &str) -> u8 {
    if let Some(code) = written.and_then(|w| w.trim().parse::<u8>().ok()) {
        return code;
    }
    match tail.lines().rev().find(|line| !line.trim().is_empty()) {
        Some("=====UNSATISFIABLE=====") => 1,
        Some("=====ERROR=====") => 2,
        // No solver outcome: a limit ended the run (MiniZinc said `=====UNKNOWN=====`, or
        // printed the solutions found before it).
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solvers_report_decides_the_status() {
        assert_eq!(outcome_of(Some("0\n"), "----------\n"), 0);
        assert_eq!(outcome_of(Some("3\n"), "----------\n"), 3);
        assert_eq!(outcome_of(Some("1\n"), "=====UNSATISFIABLE=====\n"), 1);
    }

    #[test]
    fn without_a_report_minizincs_last_status_line_decides() {
        // Found unsatisfiable while flattening: no solver ran.
        assert_eq!(outcome_of(None, "=====UNSATISFIABLE=====\n"), 1);
        assert_eq!(outcome_of(None, "=====ERROR=====\n"), 2);
        assert_eq!(outcome_of(None, "=====UNKNOWN=====\n"), 3);
        // A limit ended the solver after a solution.
        assert_eq!(outcome_of(None, "x = 1;\n----------\n"), 3);
        assert_eq!(outcome_of(Some("garbage"), ""), 3);
    }
}
