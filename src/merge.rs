//! `cpsolve merge`: the answer of a split model from its parts' JSON results.
//!
//! Each result names its part (`"part": {"index", "of", "model"}`, and `"objective"` for an
//! optimisation model), so the merge checks what it is given before it adds anything up:
//! every result is a part of the same split (the same model, the same number of parts, run
//! with the same kind of answer), no part comes twice, and none is missing. Then:
//! - counting and listing: the counts add up and the solutions come in part order, the
//!   order of an unsplit run;
//! - optimising: the best objective over the parts, with its solution. It is the proven
//!   optimum only because every part searched its whole slice.
//!
//! A part that stopped on a limit makes the merge stopped (exit 3): what the other parts
//! found is shown, never as the answer. A set with a part missing, repeated or from
//! another split is an error (exit 2), as is a result that is no part at all.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use cpsolve_models::report::counted;
use serde_json::{json, Map, Value};

use crate::cli::ReportFormat as Format;

/// One JSON result, with where it was read (`file:line`).
struct Result {
    at: String,
    object: Value,
}

/// What makes a result a part of a split.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    /// From 1.
    index: u64,
    of: u64,
    model: String,
    /// `minimize` or `maximize` for an optimisation model.
    goal: Option<String>,
}

fn identity(object: &Value) -> Option<Identity> {
    let part = object.get("part")?;
    Some(Identity {
        index: part.get("index")?.as_u64()?,
        of: part.get("of")?.as_u64()?,
        model: part.get("model")?.as_str()?.to_string(),
        goal: part.get("objective").and_then(Value::as_str).map(str::to_string),
    })
}

/// Reads the parts' results and prints the merged answer; returns the exit status.
pub(crate) fn merge(files: &[PathBuf], format: Format) -> io::Result<u8> {
    let mut results = Vec::new();
    for path in files {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                writeln!(io::stderr(), "error: cannot read `{}`: {e}", path.display())?;
                return Ok(2);
            }
        };
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            match serde_json::from_str::<Value>(line) {
                Ok(object) if object.is_object() => {
                    results.push(Result { at: format!("{}:{}", path.display(), n + 1), object })
                }
                _ => {
                    writeln!(io::stderr(), "error: {}:{}: not a JSON result of cpsolve", path.display(), n + 1)?;
                    return Ok(2);
                }
            }
        }
    }
    let merged = match merge_results(&results) {
        Ok(merged) => merged,
        Err(message) => {
            writeln!(io::stderr(), "error: {message}")?;
            return Ok(2);
        }
    };
    let status = merged["status"].as_str().unwrap_or("limit").to_string();
    let mut out = io::stdout().lock();
    match format {
        Format::Json => writeln!(out, "{merged}")?,
        Format::Text => write!(out, "{}", text(&merged))?,
    }
    Ok(match status.as_str() {
        "solved" => 0,
        "unsatisfiable" => 1,
        _ => 3,
    })
}

/// The merged answer as text: the solutions, then one closing line.
fn text(merged: &Value) -> String {
    let mut s = String::new();
    if let Some(solutions) = merged.get("solutions").and_then(Value::as_array) {
        for solution in solutions {
            s.push_str(&format!("{solution}\n"));
        }
    }
    let parts = counted(merged["parts"].as_u64().unwrap_or(0), "part", "parts");
    let count = match &merged["count"] {
        Value::Number(n) if n.as_u64() == Some(1) => "1 solution".to_string(),
        Value::String(n) => format!("{n} solutions"),
        n => format!("{n} solutions"),
    };
    let objective = merged.get("objective");
    match merged["status"].as_str() {
        Some("unsatisfiable") => s.push_str(&format!("no solution ({parts})\n")),
        Some("solved") => match objective {
            Some(best) => s.push_str(&format!("optimum: {best} (proven: every part searched to the end, {parts})\n")),
            None => s.push_str(&format!("{count} ({parts})\n")),
        },
        _ => {
            let why = merged["why"].as_str().unwrap_or("a part hit a limit");
            let found = match (objective, merged.get("goal")) {
                (Some(best), _) => format!("best objective found: {best} (not proven optimal)"),
                (None, Some(_)) => "no solution found so far".to_string(),
                (None, None) => format!("{count} solutions found so far"),
            };
            s.push_str(&format!("stopped: {why}; {found}\n"));
        }
    }
    s
}

/// The words for a part's JSON `"stopped"`.
fn limit_words(stopped: &Value) -> &'static str {
    match stopped.as_str() {
        Some("time") => "a time limit",
        Some("memory") => "a memory limit",
        Some("solutions") => "a solution limit",
        Some("nodes") => "a node limit",
        _ => "a limit",
    }
}

/// The part numbers of `missing` as short ranges: `3, 5..7`.
fn ranges(missing: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < missing.len() {
        let mut j = i;
        while j + 1 < missing.len() && missing[j + 1] == missing[j] + 1 {
            j += 1;
        }
        out.push(if j == i { missing[i].to_string() } else { format!("{}..{}", missing[i], missing[j]) });
        i = j + 1;
    }
    out.join(", ")
}

/// Checks that `results` are the parts of one split, then merges them.
fn merge_results(results: &[Result]) -> std::result::Result<Value, String> {
    if results.is_empty() {
        return Err("no results to merge".into());
    }
    // The parts by index; the first result read sets the split they must all belong to.
    let mut parts: BTreeMap<u64, &Result> = BTreeMap::new();
    let mut first: Option<(&Result, Identity)> = None;
    // Why the merge is stopped, from the first part (in part order) that stopped.
    let mut stops: Vec<(u64, String)> = Vec::new();
    for result in results {
        let object = &result.object;
        let at = &result.at;
        if object["status"] == "error" {
            return Err(format!("{at}: that part did not compile"));
        }
        let Some(id) = identity(object) else {
            // A run that a limit ended hard prints only its file and the limit.
            if object["status"] == "limit" {
                let file = object["file"].as_str().unwrap_or(at);
                stops.push((0, format!("`{file}` ({at}) hit {}", limit_words(&object["stopped"]))));
                continue;
            }
            return Err(format!(
                "{at}: not the result of a part: merge the JSON results of the parts `cpsolve split` writes"
            ));
        };
        match &first {
            None => first = Some((result, id.clone())),
            Some((f, fid)) => {
                if (&id.model, id.of) != (&fid.model, fid.of) || id.goal != fid.goal {
                    return Err(format!(
                        "{at} is part {} of {} of another split than {} (part {} of {}): merge the parts of one split",
                        id.index, id.of, f.at, fid.index, fid.of
                    ));
                }
                if object["kind"] != f.object["kind"]
                    || object.get("solutions").is_some() != f.object.get("solutions").is_some()
                {
                    return Err(format!(
                        "{at} and {} were run with different options (one lists solutions, the other counts): run every part alike",
                        f.at
                    ));
                }
            }
        }
        if let Some(other) = parts.insert(id.index, result) {
            return Err(format!("{} and {at} are both part {} of {}: give each part once", other.at, id.index, id.of));
        }
        if object["status"] == "limit" {
            stops.push((
                id.index,
                format!("part {} of {} ({at}) hit {}", id.index, id.of, limit_words(&object["stopped"])),
            ));
        }
    }
    let fid = first.as_ref().map(|(_, id)| id.clone());
    let missing: Vec<u64> = match &fid {
        Some(id) => (1..=id.of).filter(|i| !parts.contains_key(i)).collect(),
        None => Vec::new(),
    };
    stops.sort_by_key(|(index, _)| *index);
    if stops.is_empty() && !missing.is_empty() {
        let of = fid.as_ref().map_or(0, |id| id.of);
        let noun = if missing.len() == 1 { "part" } else { "parts" };
        return Err(format!("incomplete: {noun} {} of {of} missing: merge every part", ranges(&missing)));
    }
    let goal = fid.as_ref().and_then(|id| id.goal.clone());
    let mut merged = Map::new();
    merged.insert("kind".into(), parts.values().next().map_or(Value::Null, |r| r.object["kind"].clone()));
    let (count, solutions, best) = match &goal {
        None => add_up(&parts)?,
        Some(goal) => best_of(&parts, goal),
    };
    let status = if !stops.is_empty() {
        "limit"
    } else if count == 0 {
        "unsatisfiable"
    } else {
        "solved"
    };
    merged.insert("status".into(), json!(status));
    merged.insert("count".into(), cpsolve_models::report::count_json(count));
    merged.insert("parts".into(), json!(parts.len()));
    if let Some(solutions) = solutions {
        merged.insert("solutions".into(), Value::Array(solutions));
    }
    if let Some(best) = best {
        merged.insert("objective".into(), best);
    }
    if let Some(goal) = goal {
        merged.insert("goal".into(), json!(goal));
    }
    if let Some((_, why)) = stops.first() {
        let mut why = why.clone();
        if !missing.is_empty() {
            let of = fid.as_ref().map_or(0, |id| id.of);
            why.push_str(&format!(" (and part(s) {} of {of} are missing)", ranges(&missing)));
            merged.insert("missing".into(), json!(missing));
        }
        merged.insert("why".into(), json!(why));
    }
    if let Some(stats) = add_stats(&parts) {
        merged.insert("stats".into(), Value::Object(stats));
    }
    Ok(Value::Object(merged))
}

/// Counting and listing: the counts added, the solutions in part order.
#[allow(clippy::type_complexity, reason = "a private triple read at its one call")]
fn add_up(parts: &BTreeMap<u64, &Result>) -> std::result::Result<(u128, Option<Vec<Value>>, Option<Value>), String> {
    let mut count: u128 = 0;
    let mut solutions: Option<Vec<Value>> = Some(Vec::new());
    for result in parts.values() {
        let o = &result.object;
        let n = match &o["count"] {
            Value::Number(n) => n.as_u64().map(u128::from),
            Value::String(s) => s.parse().ok(),
            _ => None,
        };
        count += n.ok_or_else(|| format!("{}: no count", result.at))?;
        match (o.get("solutions").and_then(Value::as_array), &mut solutions) {
            (Some(list), Some(all)) => all.extend(list.iter().cloned()),
            _ => solutions = None,
        }
    }
    Ok((count, solutions, None))
}

/// Optimising: the best objective of the parts and its solution (the last, best one the
/// first part to reach it listed).
fn best_of(parts: &BTreeMap<u64, &Result>, goal: &str) -> (u128, Option<Vec<Value>>, Option<Value>) {
    let mut best: Option<(i64, &Result)> = None;
    for result in parts.values() {
        let Some(value) = result.object.get("objective").and_then(Value::as_i64) else { continue };
        let better = match best {
            None => true,
            Some((b, _)) if goal == "maximize" => value > b,
            Some((b, _)) => value < b,
        };
        if better {
            best = Some((value, result));
        }
    }
    match best {
        None => (0, Some(Vec::new()), None),
        Some((value, result)) => {
            let solution: Vec<Value> = result
                .object
                .get("solutions")
                .and_then(Value::as_array)
                .and_then(|s| s.last())
                .cloned()
                .into_iter()
                .collect();
            (solution.len() as u128, Some(solution), Some(json!(value)))
        }
    }
}

/// The parts' statistics added up, when they have them.
fn add_stats(parts: &BTreeMap<u64, &Result>) -> Option<Map<String, Value>> {
    let mut stats: Option<Map<String, Value>> = None;
    for result in parts.values() {
        if let Some(Value::Object(s)) = result.object.get("stats") {
            let total = stats.get_or_insert_with(Map::new);
            for (key, value) in s {
                let sum = total.get(key).and_then(Value::as_f64).unwrap_or(0.0) + value.as_f64().unwrap_or(0.0);
                let value = if key == "time_ms" { json!(sum) } else { json!(sum as u64) };
                total.insert(key.clone(), value);
            }
        }
    }
    stats
}
