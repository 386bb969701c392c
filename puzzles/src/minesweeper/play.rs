//! A batch of games: run in parallel (rayon), each from its own seeded generator, so the
//! same seed gives the same games and the same totals whatever the threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::bot::play_game;
pub use super::bot::GameResult;
use super::game::{FirstClick, Level};

/// What a batch asks for.
#[derive(Debug, Clone, Copy)]
pub struct Batch {
    pub level: Level,
    pub first: FirstClick,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
}

/// What a batch found.
#[derive(Debug, Clone)]
pub struct Summary {
    pub games: u64,
    pub won: u64,
    pub guesses: u64,
    pub time: Duration,
    /// Each game's result, in game order.
    pub results: Vec<GameResult>,
}

impl Summary {
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.won as f64 / self.games as f64
        }
    }

    /// The standard error of the win rate (binomial).
    pub fn stderr(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let p = self.win_rate();
        (p * (1.0 - p) / self.games as f64).sqrt()
    }

    /// Guesses per game.
    pub fn guesses_per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.guesses as f64 / self.games as f64
        }
    }
}

/// Plays the batch; `progress` is called with the number of games finished.
pub fn run(batch: &Batch, progress: Option<&(dyn Fn(u64) + Sync)>) -> Result<Summary, String> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(batch.threads.max(1)).build().map_err(|e| e.to_string())?;
    let done = AtomicU64::new(0);
    let results: Vec<GameResult> = pool.install(|| {
        (0..batch.games)
            .into_par_iter()
            .map(|index| {
                let r = play_game(batch.level, batch.first, batch.seed, index);
                let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(progress) = progress {
                    progress(finished);
                }
                r
            })
            .collect()
    });
    Ok(Summary {
        games: batch.games,
        won: results.iter().filter(|r| r.won).count() as u64,
        guesses: results.iter().map(|r| u64::from(r.guesses)).sum(),
        time: start.elapsed(),
        results,
    })
}
