//! `cpsolve`: reads `.puz` models, solves them, prints the answers.

mod cli;
mod explain;
mod flatzinc;
mod includes;
mod limits;
mod merge;
mod mzn_handoff;
mod mzn_output;
mod ozn;
mod pictures;
mod play_minesweeper;
mod play_numbermatch;
mod reading;
mod serve;
mod solve;
mod split;
mod table;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, PlayGame};

#[global_allocator]
static ALLOCATOR: limits::memory::Counting = limits::memory::Counting;

/// The command runs on a thread with a stack for the deepest model the parser takes
/// ([`cpsolve_dsl::STACK_BYTES`]): on the main thread's, a deep one aborted the process.
fn main() -> ExitCode {
    let command = std::thread::Builder::new().name("cpsolve".into()).stack_size(cpsolve_dsl::STACK_BYTES).spawn(run);
    match command.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        // A panic has printed its message already; 101 is Rust's status for it.
        Ok(Err(_)) => ExitCode::from(101),
        Err(err) => {
            let _ = writeln!(io::stderr(), "error: cannot start the solver's thread: {err}");
            ExitCode::from(2)
        }
    }
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    if let Some(mb) = cli.memory.or_else(limits::memory::default_limit_mb) {
        limits::memory::set_limit_mb(mb);
    }
    if cli.refuse_includes {
        includes::refuse();
    }
    let result = match &cli.command {
        Some(Command::Check { models, timeout }) => solve::check(models, *timeout),
        Some(Command::Explain(args)) => explain::explain(args),
        Some(Command::Serve(args)) => serve::serve(args),
        Some(Command::Split { model, parts, out }) => split::split(model, *parts, out),
        Some(Command::Merge { results, format }) => merge::merge(results, *format),
        Some(Command::Table { game: _, targets, threads, tiles, timeout, format }) => {
            let run =
                table::Run { targets: targets.clone(), threads: *threads as usize, timeout: *timeout, format: *format };
            match tiles {
                None => table::table(&run),
                Some(tiles) => table::table_of(tiles, &run),
            }
        }
        Some(Command::Play { game: PlayGame::Minesweeper(args) }) => play_minesweeper::play(args),
        Some(Command::Play { game: PlayGame::Numbermatch(args) }) => play_numbermatch::play(args),
        None if flatzinc::is_minizinc(&cli.solve) => flatzinc::solve(&cli.solve),
        None => solve::solve_all(&cli.solve),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // `cpsolve ... | head` must end quietly, as grep and ripgrep do.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(io::stderr(), "error: {err}");
            ExitCode::from(2)
        }
    }
}
