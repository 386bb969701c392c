//! `cpsolve play minesweeper`: the bot plays seeded games and reports its win rate.

use std::io::{self, IsTerminal, Write};

use clap::{Args, ValueEnum};
use cpsolve_models::report::counted;
use cpsolve_puzzles::minesweeper::game::{self, Level};
use cpsolve_puzzles::minesweeper::play::{self, Batch};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::cli::ReportFormat as Format;

#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// beginner (9x9, 10 mines), intermediate (16x16, 40), expert (30x16, 99), or WxHxM.
    #[arg(long, default_value = "expert")]
    pub(crate) level: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(crate) games: u64,
    /// Seed of the first game (the same seed gives the same games, whatever the threads).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// safe: the first cell is never a mine; opening: it and its neighbours are mine-free.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) first_click: FirstClick,
    /// Worker threads (games run in parallel; results do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: Format,
    /// Print how long the games took (timings differ from run to run, so they are not part
    /// of the answer without this flag).
    #[arg(long)]
    pub(crate) stats: bool,
    /// Also write one line per game to FILE: its index, `won` or `lost`, its guesses
    /// (to replay a lost game, or to compare two versions of the bot game by game).
    #[arg(long, value_name = "FILE")]
    pub(crate) per_game: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum FirstClick {
    #[default]
    Safe,
    Opening,
}

pub(crate) fn play(args: &PlayArgs) -> io::Result<u8> {
    let level = match Level::parse(&args.level) {
        Ok(level) => level,
        Err(message) => {
            writeln!(io::stderr(), "error: --level {message}")?;
            return Ok(2);
        }
    };
    let first = match args.first_click {
        FirstClick::Safe => game::FirstClick::Safe,
        FirstClick::Opening => game::FirstClick::Opening,
    };
    let batch = Batch { level, first, games: args.games, seed: args.seed, threads: args.threads as usize };
    let bar = (io::stderr().is_terminal() && args.format == Format::Text).then(|| {
        let bar = ProgressBar::new(args.games);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})") {
            bar.set_style(style);
        }
        bar
    });
    let tick = |done: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let summary = match play::run(&batch, Some(&tick)) {
        Ok(summary) => summary,
        Err(message) => {
            writeln!(io::stderr(), "error: {message}")?;
            return Ok(2);
        }
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(path) = &args.per_game {
        if let Err(e) = write_per_game(path, &summary.results) {
            writeln!(io::stderr(), "error: {}: {e}", path.display())?;
            return Ok(2);
        }
    }
    let first_cell = first.cell(level);
    let mut out = io::stdout().lock();
    match args.format {
        Format::Json => {
            let mut object = json!({
                "games": summary.games,
                "won": summary.won,
                "win_rate": summary.win_rate(),
                "stderr": summary.stderr(),
                "seed": args.seed,
                "level": level.name(),
                "first_click": first.name(),
                "guesses": summary.guesses_per_game(),
            });
            if let (true, Some(fields)) = (args.stats, object.as_object_mut()) {
                fields.insert("time_ms".into(), json!(summary.time.as_millis() as u64));
            }
            writeln!(out, "{object}")?
        }
        Format::Text => {
            writeln!(
                out,
                "minesweeper {} ({}x{}, {}), first click {} at ({}, {}), seed {}",
                level.name(),
                level.width,
                level.height,
                counted(level.mines as u64, "mine", "mines"),
                first.name(),
                first_cell / level.width,
                first_cell % level.width,
                args.seed
            )?;
            writeln!(
                out,
                "won {} of {} games: {:.2}% ± {:.2}% (standard error)",
                summary.won,
                summary.games,
                100.0 * summary.win_rate(),
                100.0 * summary.stderr()
            )?;
            write!(out, "guesses per game {:.3}", summary.guesses_per_game())?;
            if args.stats {
                let secs = summary.time.as_secs_f64();
                write!(
                    out,
                    "; {:.1} s, {:.1} games/s on {} thread(s)",
                    secs,
                    summary.games as f64 / secs.max(1e-9),
                    args.threads
                )?;
            }
            writeln!(out)?;
        }
    }
    Ok(0)
}

fn write_per_game(path: &std::path::Path, results: &[play::GameResult]) -> io::Result<()> {
    let mut file = io::BufWriter::new(std::fs::File::create(path)?);
    for (index, r) in results.iter().enumerate() {
        writeln!(file, "{index} {} {}", if r.won { "won" } else { "lost" }, r.guesses)?;
    }
    file.flush()
}
