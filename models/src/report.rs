//! Framing a run's outcome for people (text) and for programs (JSON, docs/json.md).
//! The solutions themselves are rendered by each kind's [`crate::problem::SolutionView`].

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{Stats, Stop};
use serde_json::{json, Map, Value};

use crate::run::{Report, RunOptions, Status};

fn plural(n: u128, word: &str) -> String {
    counted(n, word, &format!("{word}s"))
}

/// `n` and the noun, singular for one: "1 mine", "3 mines", "0 mines".
pub fn counted(n: impl Into<u128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The closing line(s) of the text output: a count, "no solution", an optimum, or why the
/// search stopped early. Empty when a single solution says it all.
pub fn summary_text(report: &Report, options: &RunOptions) -> String {
    let optimising = report.objective.is_some();
    match report.status {
        // A part proves nothing about the other parts: only `cpsolve merge` has the answer.
        Status::Unsatisfiable if report.unsat_reason.is_none() && options.part.is_some() => {
            let (index, parts) = options.part.unwrap_or_default();
            format!("no solution in part {} of {parts}\n", index + 1)
        }
        Status::NoBetter => {
            let bound = report.bound.map(|b| format!(" better than {b}")).unwrap_or_default();
            match options.part {
                Some((index, parts)) => format!("no solution{bound} in part {} of {parts}\n", index + 1),
                None => format!("no solution{bound}\n"),
            }
        }
        Status::Unsatisfiable => match &report.unsat_reason {
            Some(reason) => format!("no solution: {reason}\n"),
            None => "no solution\n".to_string(),
        },
        Status::Limit => {
            let why = match report.stopped_by {
                Some(Stop::Time) => match options.timeout {
                    Some(t) => format!("time limit of {} s reached", t.as_secs_f64()),
                    None => "time limit reached".to_string(),
                },
                Some(Stop::Solutions) => match options.limit {
                    Some(n) => format!("solution limit of {n} reached"),
                    None => "solution limit reached".to_string(),
                },
                Some(Stop::Memory) => match options.memory_mb {
                    Some(mb) => format!("memory limit of {mb} MB reached"),
                    None => "memory limit reached".to_string(),
                },
                Some(Stop::Nodes) => match options.nodes {
                    Some(n) => format!("node limit of {n} reached"),
                    None => "node limit reached".to_string(),
                },
                Some(Stop::Cancelled | Stop::Callback) | None => "search interrupted".to_string(),
            };
            let found = plural(report.count, "solution");
            match report.objective {
                Some(best) => format!("stopped: {why}; best objective found: {best} (not proven optimal)\n"),
                None => format!("stopped: {why}; {found} found so far\n"),
            }
        }
        Status::Solved if optimising && options.part.is_some() => {
            let (index, parts) = options.part.unwrap_or_default();
            format!(
                "best of part {} of {parts}: {} (its slice searched to the end; `cpsolve merge` the parts for the optimum)\n",
                index + 1,
                report.objective.unwrap_or_default()
            )
        }
        Status::Solved if optimising => {
            format!("optimum: {} (proven)\n", report.objective.unwrap_or_default())
        }
        Status::Solved => match report.mode {
            SolveMode::First => String::new(),
            SolveMode::All | SolveMode::Count => format!("{}\n", plural(report.count, "solution")),
        },
    }
}

/// One line of effort figures, for `--stats` on standard error.
pub fn stats_text(stats: &Stats) -> String {
    format!(
        "stats: nodes {} failures {} propagations {} solutions {} depth {} time {:.3} ms\n",
        stats.nodes,
        stats.failures,
        stats.propagations,
        stats.solutions,
        stats.max_depth,
        stats.time.as_secs_f64() * 1e3
    )
}

pub fn stats_json(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "failures": stats.failures,
        "propagations": stats.propagations,
        "time_ms": (stats.time.as_secs_f64() * 1e6).round() / 1e3,
    })
}

/// Counts beyond 2^53 lose precision as JSON numbers in many readers: write them as strings.
pub fn count_json(n: u128) -> Value {
    if n <= (1u128 << 53) {
        Value::from(n as u64)
    } else {
        Value::from(n.to_string())
    }
}

/// Where [`write_with_solutions`] puts the solutions in an object: a string no solver
/// output can hold (file names cannot contain NUL).
pub const SOLUTIONS_HERE: &str = "\u{0}solutions\u{0}";

/// Writes `object` as one line, its [`SOLUTIONS_HERE`] value replaced by the array of
/// `solutions`, each already JSON text. Solutions are kept as text while a search runs:
/// a run that keeps a million of them must not hold a million `Value` trees (ten times the
/// memory), nor spend as long again writing them after its time limit.
pub fn write_with_solutions(
    out: &mut impl std::io::Write,
    object: &Value,
    solutions: &[String],
) -> std::io::Result<()> {
    let text = object.to_string();
    let marker = Value::from(SOLUTIONS_HERE).to_string();
    match text.split_once(&marker) {
        Some((before, after)) => {
            out.write_all(before.as_bytes())?;
            out.write_all(b"[")?;
            for (i, solution) in solutions.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(solution.as_bytes())?;
            }
            out.write_all(b"]")?;
            writeln!(out, "{after}")
        }
        None => writeln!(out, "{text}"),
    }
}

/// The JSON object of one model file (docs/json.md), its solutions at [`SOLUTIONS_HERE`].
pub fn json(report: &Report, file: &str, with_stats: bool) -> Value {
    let mut object = Map::new();
    object.insert("file".into(), Value::from(file));
    object.insert("kind".into(), Value::from(report.kind.name()));
    object.insert("status".into(), Value::from(report.status.name()));
    object.insert("count".into(), count_json(report.count));
    if report.mode != SolveMode::Count || report.objective.is_some() {
        object.insert("solutions".into(), Value::from(SOLUTIONS_HERE));
    }
    if let Some(best) = report.objective {
        object.insert("objective".into(), Value::from(best));
    }
    if let Some(bound) = report.bound {
        object.insert("bound".into(), Value::from(bound));
    }
    if let Some(reason) = &report.unsat_reason {
        object.insert("reason".into(), Value::from(reason.as_str()));
    }
    if let Some(stop) = report.stopped_by {
        let name = match stop {
            Stop::Time => "time",
            Stop::Memory => "memory",
            Stop::Solutions => "solutions",
            Stop::Nodes => "nodes",
            Stop::Cancelled | Stop::Callback => "interrupted",
        };
        object.insert("stopped".into(), Value::from(name));
    }
    if with_stats {
        object.insert("stats".into(), stats_json(&report.stats));
    }
    Value::Object(object)
}
