//! Writing a `compte` answer: text for people, the JSON object of docs/json.md for programs.
//! The framing (summary lines, `"status"`, `"count"`, `"stopped"`) follows
//! `cpsolve_models::report`, so a `compte` run reads like any other kind.

use cpsolve_dsl::ast::SolveMode;
use serde_json::{json, Map, Value as Json};

use super::expr::Nf;
use super::reach::Value;
use super::Answer;
use cpsolve_models::report::count_json;
use cpsolve_models::run::{RunOptions, Status};

/// Which limit cut the search short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    Time,
    Solutions,
}

/// The steps of a solution; a lone tile (the target is a tile) is the tile itself.
fn steps(nf: &Nf) -> Vec<String> {
    match nf {
        Nf::Tile(v) => vec![v.to_string()],
        _ => nf.render(),
    }
}

fn plural(n: u128, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The text output: a line on the closest value when the target is out of reach, the
/// solutions (one step per line, a blank line between solutions), then the summary line
/// as for other kinds.
pub(crate) fn text(target: Value, mode: SolveMode, answer: &Answer, options: &RunOptions) -> String {
    let mut out = String::new();
    if let Some(best) = answer.best.filter(|&b| b != target) {
        let away = best.abs_diff(target);
        match answer.best_other {
            Some(other) => out.push_str(&format!(
                "no exact solution: closest {best} and {other} ({away} away); solutions for {best}\n"
            )),
            None => out.push_str(&format!("no exact solution: closest {best} ({away} away)\n")),
        }
    }
    for (i, nf) in answer.solutions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for step in steps(nf) {
            out.push_str(&step);
            out.push('\n');
        }
    }
    let summary = match answer.stopped {
        Some(stopped) => {
            let why = match (stopped, options.timeout, options.limit) {
                (Stopped::Time, _, _) => format!("{} reached", crate::limit::reached(options)),
                (Stopped::Solutions, _, Some(n)) => format!("solution limit of {n} reached"),
                (Stopped::Solutions, _, None) => "solution limit reached".to_string(),
            };
            format!("stopped: {why}; {} found so far\n", plural(answer.count, "solution"))
        }
        None if answer.count == 0 => "no solution\n".to_string(),
        None => match mode {
            SolveMode::First => String::new(),
            SolveMode::All | SolveMode::Count => format!("{}\n", plural(answer.count, "solution")),
        },
    };
    if !summary.is_empty() && !answer.solutions.is_empty() && mode != SolveMode::First {
        out.push('\n');
    }
    out.push_str(&summary);
    out
}

/// The JSON object of docs/json.md, without `"file"` and `"stats"`.
pub(crate) fn json(target: Value, mode: SolveMode, status: Status, answer: &Answer, options: &RunOptions) -> Json {
    let mut object = Map::new();
    object.insert("kind".into(), Json::from("compte"));
    object.insert("status".into(), Json::from(status.name()));
    object.insert("count".into(), count_json(answer.count));
    object.insert("target".into(), Json::from(target));
    if let Some(best) = answer.best {
        object.insert("exact".into(), Json::from(best == target));
        object.insert("best".into(), Json::from(best));
    }
    if let Some(other) = answer.best_other {
        object.insert("best_other".into(), Json::from(other));
    }
    if mode != SolveMode::Count {
        let solutions: Vec<Json> = answer.solutions.iter().map(|nf| json!(steps(nf))).collect();
        object.insert("solutions".into(), Json::Array(solutions));
    }
    if let Some(stopped) = answer.stopped {
        let name = match stopped {
            Stopped::Time => crate::limit::stop_name(options),
            Stopped::Solutions => "solutions",
        };
        object.insert("stopped".into(), Json::from(name));
    }
    Json::Object(object)
}
