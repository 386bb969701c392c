//! `cpsolve play numbermatch`: seeded random starts, solved exactly, against a greedy player.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::Args;
use cpsolve_puzzles::numbermatch::play::{self, Settings};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::ReportFormat as Format;

#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// Columns of the grid.
    #[arg(long, default_value_t = 9)]
    pub(crate) cols: u32,
    /// Digits in a start (the app deals 27, 32 or 35).
    #[arg(long, default_value_t = 35)]
    pub(crate) digits: u32,
    /// Adds allowed.
    #[arg(long, default_value_t = 5)]
    pub(crate) adds: u32,
    /// Number of starts.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(crate) games: u64,
    /// Seed of the first start (the same seed gives the same starts, whatever the threads).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Stop each start's exact search after this many seconds (counted as undecided).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) timeout: Option<f64>,
    /// Worker threads (results do not depend on it; see --threads-per-start).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: u32,
    /// Threads on each start (default: all of them, one start at a time). With fewer,
    /// several starts run at once, each on fewer threads.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads_per_start: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: Format,
    /// Print how long the games took (timings differ from run to run, so they are not part
    /// of the answer without this flag).
    #[arg(long)]
    pub(crate) stats: bool,
}

pub(crate) fn play(args: &PlayArgs) -> io::Result<u8> {
    if !(1..=64).contains(&args.cols) || !(1..=1000).contains(&args.digits) || args.adds > 20 {
        writeln!(io::stderr(), "error: --cols takes 1 to 64, --digits 1 to 1000, --adds 0 to 20")?;
        return Ok(2);
    }
    if args.timeout.is_some_and(|t| !(t.is_finite() && t >= 0.0)) {
        writeln!(io::stderr(), "error: --timeout takes a number of seconds")?;
        return Ok(2);
    }
    // No time limit on the whole play (`--timeout` is per start), but the memory limit holds.
    let lines = crate::limits::stop_lines(None, |why: &str, _| format!("stopped: {why}\n"));
    let armed = crate::limits::arm(None, lines.clone());
    let settings = Settings {
        cols: args.cols as usize,
        digits: args.digits as usize,
        adds: args.adds,
        games: args.games,
        seed: args.seed,
        timeout: args.timeout.map(Duration::from_secs_f64),
        threads: args.threads as usize,
        threads_per_start: args.threads_per_start.unwrap_or(args.threads) as usize,
        stop: armed.stop().clone(),
    };
    let bar = (io::stderr().is_terminal() && args.format == Format::Text).then(|| {
        let bar = ProgressBar::new(args.games);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pos}/{len} starts {wide_bar} {elapsed_precise}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let start = Instant::now();
    let records = play::play(&settings, &|done| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let elapsed = start.elapsed();
    let summary = play::summarise(&settings, &records);
    let mut out = io::stdout().lock();
    // Out of memory, the starts after the stop were left undecided: the tally is not the
    // player's, and says so.
    let stopped = armed.stop().requested().is_some();
    match args.format {
        Format::Text => {
            write!(out, "{}", play::text(&settings, &summary, args.stats.then_some(elapsed)))?;
            if stopped {
                writeln!(out, "{}: the starts after it are counted as undecided", lines.memory.trim_end())?;
            }
        }
        Format::Json => {
            let mut json = play::json(&settings, &summary, args.stats.then_some(elapsed));
            if let (true, Some(object)) = (stopped, json.as_object_mut()) {
                object.insert("status".into(), "limit".into());
                object.insert("stopped".into(), "memory".into());
            }
            writeln!(out, "{json}")?;
        }
    }
    out.flush()?;
    Ok(if stopped { crate::limits::LIMIT_EXIT as u8 } else { 0 })
}
