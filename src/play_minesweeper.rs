//! `cpsolve play minesweeper`: the bot plays seeded games and reports its win rate.

use std::io::{self, Write};

use clap::{Args, ValueEnum};

use crate::cli::Format;

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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum FirstClick {
    #[default]
    Safe,
    Opening,
}

pub(crate) fn play(_args: &PlayArgs) -> io::Result<u8> {
    writeln!(io::stderr(), "error: `play minesweeper` is not supported yet")?;
    Ok(2)
}
