//! `cpsolve play numbermatch`: seeded random starts, each solved exactly (the fewest adds
//! that win, or the proof that none do) and played by the greedy player for comparison.
//!
//! A start is `digits` digits drawn independently and uniformly from 1..9, laid out
//! `cols` to a row under app rules. Start `k` of seed `s` comes from its own generator
//! (SplitMix64 seeded with a mix of `s` and `k`), so the starts do not depend on the
//! thread count or on the order in which workers take them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cpsolve_models::report::counted;
use rayon::prelude::*;
use serde_json::{json, Value};

use super::greedy;
use super::grid::Game;
use super::rules::{mix, Rules};
use super::search::{self, Limits, Verdict};

/// Positions kept in the table of one start (each worker solves one start at a time):
/// the same as one `cpsolve` run, [`super::TABLE_LIMIT`] (420 MB at most per worker).
/// The hardest of the 1,000 starts of `bench/numbermatch.sh` store 11.5M positions; with
/// 4M (the cap before), #277 visited 88M positions instead of 30M.
const TABLE_LIMIT: usize = super::TABLE_LIMIT;

/// What to play.
#[derive(Debug, Clone)]
pub struct Settings {
    pub cols: usize,
    pub digits: usize,
    pub adds: u32,
    pub games: u64,
    pub seed: u64,
    /// Per start, for the exact search (a start cut short counts as undecided).
    pub timeout: Option<Duration>,
    pub threads: usize,
    /// Threads on each start (at most `threads`): the others solve other starts at once.
    /// With all of them on one start, the starts are solved one at a time, each as fast as
    /// the threads make it (the time limit is per start, in wall time).
    pub threads_per_start: usize,
    /// The run's request to stop (out of memory): every start ends at once, undecided.
    pub stop: cpsolve_engine::StopToken,
}

/// How one start ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Won, with this many adds.
    Won(u32),
    Lost,
    /// The exact search ran out of time.
    Undecided,
}

/// One start and what both players made of it.
#[derive(Debug, Clone)]
pub struct Record {
    /// Which start (`k` of [`start`]).
    pub index: u64,
    pub solver: End,
    /// Moves of the optimal win.
    pub solver_moves: usize,
    pub greedy: End,
    pub time: Duration,
}

/// The `k`-th start of `seed`.
pub fn start(settings: &Settings, k: u64) -> Game {
    let mut state = mix(settings.seed ^ mix(k.wrapping_add(0x5851_F42D_4C95_7F2D)));
    let mut next = || {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(state)
    };
    // Rejection keeps the 9 digits equally likely.
    let cells = (0..settings.digits)
        .map(|_| loop {
            let r = next() >> 60;
            if r < 9 {
                break r as u8 + 1;
            }
        })
        .collect();
    Game { rules: Rules::App, cols: settings.cols, cells, adds: Some(settings.adds) }
}

fn play_one(settings: &Settings, k: u64) -> Record {
    let game = start(settings, k);
    let begin = Instant::now();
    let limits = Limits {
        deadline: crate::Deadline::new(settings.timeout.map(|t| begin + t), settings.stop.clone()),
        cancel: None,
        table_limit: TABLE_LIMIT,
        every_order: false,
        alone: None,
        threads: settings.threads_per_start.clamp(1, settings.threads.max(1)),
    };
    let (verdict, _) = search::solve(&game, limits);
    let time = begin.elapsed();
    let (solver, solver_moves) = match verdict {
        Verdict::Optimal(line) => (End::Won(line.adds() as u32), line.moves.len()),
        Verdict::NoWin => (End::Lost, 0),
        Verdict::Stopped { .. } => (End::Undecided, 0),
    };
    let g = greedy::play(&game);
    let greedy = if g.won { End::Won(g.adds() as u32) } else { End::Lost };
    Record { index: k, solver, solver_moves, greedy, time }
}

/// Plays every start, calling `progress` with the number done as they finish.
pub fn play(settings: &Settings, progress: &(dyn Fn(u64) + Sync)) -> Vec<Record> {
    let done = AtomicU64::new(0);
    let run = || {
        (0..settings.games)
            .into_par_iter()
            .map(|k| {
                let r = play_one(settings, k);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                r
            })
            .collect()
    };
    let per_start = settings.threads_per_start.clamp(1, settings.threads.max(1));
    let at_once = (settings.threads.max(1) / per_start).max(1);
    match rayon::ThreadPoolBuilder::new().num_threads(at_once).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// The tallies of one player.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Starts won with 0, 1, … `adds` adds.
    pub by_adds: Vec<u64>,
    pub lost: u64,
    pub undecided: u64,
}

impl Tally {
    fn new(records: &[Record], adds: u32, of: impl Fn(&Record) -> End) -> Tally {
        let mut t = Tally { by_adds: vec![0; adds as usize + 1], ..Tally::default() };
        for r in records {
            match of(r) {
                End::Won(a) => t.by_adds[a as usize] += 1,
                End::Lost => t.lost += 1,
                End::Undecided => t.undecided += 1,
            }
        }
        t
    }

    pub fn won(&self) -> u64 {
        self.by_adds.iter().sum()
    }

    /// Mean adds over the starts won.
    pub fn mean_adds(&self) -> f64 {
        let total: u64 = self.by_adds.iter().enumerate().map(|(a, n)| a as u64 * n).sum();
        if self.won() == 0 {
            0.0
        } else {
            total as f64 / self.won() as f64
        }
    }
}

/// The summary of a run.
#[derive(Debug, Clone)]
pub struct Summary {
    pub solver: Tally,
    pub greedy: Tally,
    pub games: u64,
    /// Mean and largest solve time per start, and the median and 95th percentile.
    pub mean_ms: f64,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
    pub mean_moves: f64,
    /// The slowest starts, slowest first: (index, milliseconds).
    pub slowest: Vec<(u64, f64)>,
    /// The starts the exact search left undecided, in index order (to solve them alone).
    pub undecided: Vec<u64>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn summarise(settings: &Settings, records: &[Record]) -> Summary {
    let mut times: Vec<f64> = records.iter().map(|r| r.time.as_secs_f64() * 1000.0).collect();
    times.sort_by(f64::total_cmp);
    let n = records.len().max(1) as f64;
    let mut slowest: Vec<(u64, f64)> = records.iter().map(|r| (r.index, r.time.as_secs_f64() * 1000.0)).collect();
    slowest.sort_by(|a, b| b.1.total_cmp(&a.1));
    slowest.truncate(3);
    let solver = Tally::new(records, settings.adds, |r| r.solver);
    let won_moves: Vec<usize> =
        records.iter().filter(|r| matches!(r.solver, End::Won(_))).map(|r| r.solver_moves).collect();
    Summary {
        greedy: Tally::new(records, settings.adds, |r| r.greedy),
        games: records.len() as u64,
        mean_ms: times.iter().sum::<f64>() / n,
        median_ms: percentile(&times, 0.5),
        p95_ms: percentile(&times, 0.95),
        max_ms: times.last().copied().unwrap_or(0.0),
        mean_moves: won_moves.iter().sum::<usize>() as f64 / won_moves.len().max(1) as f64,
        solver,
        slowest,
        undecided: records.iter().filter(|r| r.solver == End::Undecided).map(|r| r.index).collect(),
    }
}

/// A start as a `.puz` file, to solve it on its own.
pub fn start_text(settings: &Settings, k: u64) -> String {
    let game = start(settings, k);
    let mut out = format!(
        "# start {k} of seed {}\nnumbermatch cols = {} adds = {}\n",
        settings.seed, settings.cols, settings.adds
    );
    for row in game.cells.chunks(settings.cols) {
        let row: Vec<String> = row.iter().map(u8::to_string).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

fn rate(won: u64, games: u64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 0.0);
    }
    let p = won as f64 / games as f64;
    (p, (p * (1.0 - p) / games as f64).sqrt())
}

fn tally_json(t: &Tally, games: u64) -> Value {
    let (p, se) = rate(t.won(), games);
    json!({
        "won": t.won(),
        "win_rate": p,
        "stderr": se,
        "won_with_adds": t.by_adds,
        "never": t.lost,
        "undecided": t.undecided,
        "mean_adds": t.mean_adds(),
    })
}

/// The JSON of a run (docs/json.md, `play`): the solver's figures at the top level; the
/// timings only when `time` (the run's) is given (`--stats`).
pub fn json(settings: &Settings, s: &Summary, time: Option<Duration>) -> Value {
    let (p, se) = rate(s.solver.won(), s.games);
    let mut object = json!({
        "games": s.games,
        "won": s.solver.won(),
        "win_rate": p,
        "stderr": se,
        "seed": settings.seed,
        "cols": settings.cols,
        "digits": settings.digits,
        "adds": settings.adds,
        "won_with_adds": s.solver.by_adds,
        "never": s.solver.lost,
        "undecided": s.solver.undecided,
        "undecided_starts": s.undecided,
        "mean_adds": s.solver.mean_adds(),
        "mean_moves": s.mean_moves,
        "greedy": tally_json(&s.greedy, s.games),
    });
    if let (Some(time), Some(fields)) = (time, object.as_object_mut()) {
        fields.insert(
            "solve_ms".into(),
            json!({"mean": s.mean_ms, "median": s.median_ms, "p95": s.p95_ms, "max": s.max_ms}),
        );
        let slowest = s.slowest.iter().map(|&(k, ms)| json!({"start": k, "ms": ms, "puz": start_text(settings, k)}));
        fields.insert("slowest".into(), Value::Array(slowest.collect()));
        fields.insert("time_ms".into(), json!(time.as_secs_f64() * 1000.0));
    }
    object
}

/// The text table of a run; the timings only when `time` (the run's) is given (`--stats`).
pub fn text(settings: &Settings, s: &Summary, time: Option<Duration>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} of {} digits (uniform 1-9), {} columns, at most {}, seed {}",
        counted(s.games, "start", "starts"),
        settings.digits,
        settings.cols,
        counted(settings.adds, "add", "adds"),
        settings.seed
    );
    let pct = |n: u64| if s.games == 0 { 0.0 } else { 100.0 * n as f64 / s.games as f64 };
    let _ = writeln!(out, "{:<14} {:>10} {:>10}", "won with", "exact", "greedy");
    for a in 0..=settings.adds as usize {
        let _ = writeln!(
            out,
            "{:<14} {:>9.1}% {:>9.1}%",
            counted(a as u64, "add", "adds"),
            pct(s.solver.by_adds[a]),
            pct(s.greedy.by_adds[a])
        );
    }
    let _ = writeln!(out, "{:<14} {:>9.1}% {:>9.1}%", "never", pct(s.solver.lost), pct(s.greedy.lost));
    if s.solver.undecided > 0 {
        let _ = writeln!(out, "{:<14} {:>9.1}% {:>10}", "undecided", pct(s.solver.undecided), "-");
    }
    let (p, se) = rate(s.solver.won(), s.games);
    let (gp, gse) = rate(s.greedy.won(), s.games);
    let _ = writeln!(
        out,
        "{:<14} {:>6.1}±{:<3.1}% {:>6.1}±{:<3.1}%",
        "won",
        100.0 * p,
        100.0 * se,
        100.0 * gp,
        100.0 * gse
    );
    let _ = writeln!(out, "{:<14} {:>10.2} {:>10.2}", "mean adds", s.solver.mean_adds(), s.greedy.mean_adds());
    let _ = writeln!(out, "mean moves of an optimal win: {:.1}", s.mean_moves);
    if let Some(time) = time {
        let _ = writeln!(
            out,
            "exact search per start: mean {:.1} ms, median {:.1} ms, 95th percentile {:.1} ms, max {:.1} ms",
            s.mean_ms, s.median_ms, s.p95_ms, s.max_ms
        );
        let _ = writeln!(out, "total time {:.1} s on {} threads", time.as_secs_f64(), settings.threads);
    }
    out
}
