//! `cpsolve table compte [--targets 101..999] [--threads N] [--tiles "…"]`: the
//! reachability table of Le Compte est Bon, as text or one JSON object. The computation
//! is `cpsolve_puzzles::compte::table`; this file parses the range and lays out the figures.
//! `--timeout` and `--memory` hold as for solving: a limit that strikes prints
//! `stopped: …` (JSON: `"status":"limit"`), exit 3, never the figures of a partial table.

use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use cpsolve_puzzles::compte::table::{self as compte_table, Selection, Stopped, Table, DRAWN};
use cpsolve_puzzles::Deadline;
use serde_json::{json, Value};

use crate::cli::ReportFormat as Format;
use crate::limits;

/// What `table compte` computes under: the figures' range and threads, and the limits.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    pub(crate) targets: RangeInclusive<u32>,
    pub(crate) threads: usize,
    pub(crate) timeout: Option<f64>,
    pub(crate) format: Format,
}

impl Run {
    /// Arms the watchdog (a hard stop past the grace prints the same line) and returns
    /// the deadline the computation checks.
    fn arm(&self) -> (limits::watchdog::Armed, limits::HardStop, Deadline) {
        let format = self.format;
        let stop = limits::stop_lines(self.timeout, |why: &str, name: &str| match format {
            Format::Text => format!("stopped: {why}\n"),
            Format::Json => format!("{}\n", json!({ "kind": "compte-table", "status": "limit", "stopped": name })),
        });
        let timeout = self.timeout.map(Duration::from_secs_f64);
        let at = timeout.map(|t| Instant::now() + t);
        let armed = limits::arm(timeout, stop.clone());
        let deadline = Deadline::new(at, armed.stop().clone());
        (armed, stop, deadline)
    }
}

/// Prints the stop line of the limit that struck; the exit status of a limit.
fn report_stop(stopped: Stopped, stop: &limits::HardStop) -> io::Result<u8> {
    let line = stop.line((stopped.limit == "memory").then_some(cpsolve_engine::Stop::Memory));
    let mut out = io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.flush()?;
    Ok(3)
}

/// How many of the hardest targets, and of the selections that reach every target, the
/// text output lists (JSON lists them all).
const SHOWN: usize = 10;

/// Parses `--targets`: `LO..HI` (or `LO..=HI`), 1 <= LO <= HI <= 10^9.
pub(crate) fn parse_targets(text: &str) -> Result<RangeInclusive<u32>, String> {
    let bad = || format!("`{text}` is not a range of targets such as 101..999");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let hi = hi.strip_prefix('=').unwrap_or(hi);
    let lo: u32 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u32 = hi.trim().parse().map_err(|_| bad())?;
    if lo == 0 || hi < lo || hi > 1_000_000_000 {
        return Err(format!("`{text}`: the targets must satisfy 1 <= LO <= HI <= 1000000000"));
    }
    Ok(lo..=hi)
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn tiles_text(s: &Selection) -> String {
    s.tiles.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// `cpsolve table compte`: every selection of 6 of the 24 tiles, against every target.
pub(crate) fn table(run: &Run) -> io::Result<u8> {
    let Run { targets, threads, format, .. } = run.clone();
    let range = u64::from(*targets.start())..=u64::from(*targets.end());
    let start = Instant::now();
    let (armed, stop, deadline) = run.arm();
    let table = match compte_table::table(range, threads, &deadline) {
        Ok(table) => table,
        Err(stopped) => return report_stop(stopped, &stop),
    };
    armed.searched();
    let elapsed = start.elapsed();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match format {
        Format::Text => write!(out, "{}", text(&table))?,
        Format::Json => writeln!(out, "{}", json(&table))?,
    }
    out.flush()?;
    // Timing is not part of the answer (it would differ run to run): only a terminal sees it.
    if std::io::IsTerminal::is_terminal(&io::stderr()) && format == Format::Text {
        writeln!(io::stderr(), "({:.3} s on {threads} thread(s))", elapsed.as_secs_f64())?;
    }
    Ok(0)
}

/// `cpsolve table compte --tiles "T1 T2 …"`: the targets one selection (any tiles, any
/// count) reaches.
pub(crate) fn table_of(tiles: &str, run: &Run) -> io::Result<u8> {
    let Run { targets, threads, format, .. } = run.clone();
    let mut values = Vec::new();
    for word in tiles.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
        match word.parse::<u64>() {
            Ok(v) if v > 0 => values.push(v),
            _ => {
                writeln!(io::stderr(), "error: --tiles: `{word}` is not a positive integer")?;
                return Ok(2);
            }
        }
    }
    if values.is_empty() || values.len() > cpsolve_puzzles::compte::MAX_TILES {
        writeln!(io::stderr(), "error: --tiles takes 1 to {} tiles", cpsolve_puzzles::compte::MAX_TILES)?;
        return Ok(2);
    }
    let range = u64::from(*targets.start())..=u64::from(*targets.end());
    let (armed, stop, deadline) = run.arm();
    let reached = match compte_table::reachable(&values, range.clone(), threads, &deadline) {
        Ok(reached) => reached,
        Err(stopped) => return report_stop(stopped, &stop),
    };
    armed.searched();
    let hit: Vec<u64> = reached.iter().collect();
    let missed: Vec<u64> = range.clone().filter(|v| !reached.contains(*v)).collect();
    let total = hit.len() as u64 + missed.len() as u64;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let tiles_text = values.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    match format {
        Format::Text => {
            writeln!(
                out,
                "tiles {tiles_text}: {} of {total} targets in {}..{} reachable ({:.2}%)",
                hit.len(),
                range.start(),
                range.end(),
                percent(hit.len() as u64, total)
            )?;
            let list = missed.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            writeln!(out, "unreachable ({}): {list}", missed.len())?;
        }
        Format::Json => {
            let object = json!({
                "kind": "compte-table",
                "tiles": values,
                "targets": [range.start(), range.end()],
                "reachable": hit.len(),
                "unreachable": missed,
            });
            writeln!(out, "{object}")?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// Targets by the number of selections that reach them, fewest first (then by value).
fn hardest(table: &Table) -> Vec<(u64, u64)> {
    let mut t: Vec<(u64, u64)> = table.per_target.iter().enumerate().map(|(i, &n)| (table.lo + i as u64, n)).collect();
    t.sort_by_key(|&(v, n)| (n, v));
    t
}

fn text(table: &Table) -> String {
    let mut s = String::new();
    let n = table.selections.len() as u64;
    let pairs = n * table.targets();
    let solvable = table.solvable();
    s.push_str(&format!(
        "Le Compte est Bon: {n} selections of {DRAWN} from 24 tiles, targets {}..{}\n",
        table.lo, table.hi
    ));
    s.push_str(&format!(
        "solvable (selection, target) pairs: {solvable} of {pairs} ({:.2}%)\n",
        percent(solvable, pairs)
    ));
    s.push_str(&format!(
        "draw-weighted share ({DRAWN} drawn at random from 24, target uniform): {:.2}%\n",
        100.0 * table.draw_weighted_share()
    ));
    s.push_str("by number of large tiles (25 50 75 100):\n");
    for large in 0..=4 {
        let (selections, pairs, solvable) = table.by_large(large);
        s.push_str(&format!(
            "  {large} large: {solvable} of {pairs} ({:.2}%), {selections} selections\n",
            percent(solvable, pairs)
        ));
    }
    let hard: Vec<String> = hardest(table).iter().take(SHOWN).map(|(v, n)| format!("{v} ({n})")).collect();
    s.push_str(&format!("hardest targets (selections reaching them): {}\n", hard.join(", ")));
    let every: Vec<&Selection> = table.selections.iter().filter(|x| x.reached.count() == table.targets()).collect();
    let shown: Vec<String> = every.iter().take(SHOWN).map(|x| format!("{{{}}}", tiles_text(x))).collect();
    let more = if every.len() > SHOWN { ", …" } else { "" };
    s.push_str(&format!("selections reaching every target: {} ({}{more})\n", every.len(), shown.join(", ")));
    let none: Vec<String> =
        table.selections.iter().filter(|x| x.reached.count() == 0).map(|x| format!("{{{}}}", tiles_text(x))).collect();
    s.push_str(&format!("selections reaching no target: {} ({})\n", none.len(), none.join(", ")));
    s
}

fn json(table: &Table) -> Value {
    let n = table.selections.len() as u64;
    let pairs = n * table.targets();
    let by_large: Vec<Value> = (0..=4)
        .map(|large| {
            let (selections, pairs, solvable) = table.by_large(large);
            json!({ "large": large, "selections": selections, "pairs": pairs, "solvable": solvable })
        })
        .collect();
    let hardest: Vec<Value> = hardest(table)
        .iter()
        .map(|&(target, selections)| json!({ "target": target, "selections": selections }))
        .collect();
    let every: Vec<&Vec<u32>> =
        table.selections.iter().filter(|x| x.reached.count() == table.targets()).map(|x| &x.tiles).collect();
    let none: Vec<&Vec<u32>> = table.selections.iter().filter(|x| x.reached.count() == 0).map(|x| &x.tiles).collect();
    json!({
        "kind": "compte-table",
        "targets": [table.lo, table.hi],
        "selections": n,
        "pairs": pairs,
        "solvable": table.solvable(),
        "share": table.solvable() as f64 / pairs.max(1) as f64,
        "draw_weighted_share": table.draw_weighted_share(),
        "by_large": by_large,
        "hardest": hardest,
        "reach_every_target": every,
        "reach_no_target": none,
    })
}
