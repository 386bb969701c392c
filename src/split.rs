//! `cpsolve split` and `cpsolve merge`: solving one model on many machines.
//!
//! `split` writes K copies of a model, each ending in `option part = i, K`. Run on its own,
//! part i searches only its slice of the search tree: the tree is cut into many subtrees
//! in depth-first order (the same cut on every machine, for the same model and options),
//! and the slices are contiguous runs of them. `merge` adds up the parts' JSON results
//! (counts, statuses) and lists their solutions in part order, which is the order a single
//! run would list them in.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cpsolve_dsl::Parsed;
use serde_json::{json, Map, Value};

use crate::cli::ReportFormat as Format;
use crate::includes;
use crate::solve::Source;

/// Writes the parts; returns the exit status.
pub(crate) fn split(model: &Path, parts: u64, out: &Path) -> io::Result<u8> {
    let text = match std::fs::read_to_string(model) {
        Ok(text) => text,
        Err(e) => {
            writeln!(io::stderr(), "error: cannot read `{}`: {e}", model.display())?;
            return Ok(2);
        }
    };
    let source = Source { label: model.display().to_string(), text, path: Some(model.to_path_buf()) };
    let Parsed { map, file } = includes::parse(&source);
    let file = match file.and_then(|file| {
        if cpsolve_models::part(&file)?.is_some() {
            let at = map.text().find("option part").unwrap_or(0);
            return Err(vec![cpsolve_dsl::Diagnostic::new("this model is already a part of a split", at..at + 11)]);
        }
        cpsolve_models::compile(&file).map(|_| file)
    }) {
        Ok(file) => file,
        Err(diagnostics) => {
            let color = std::io::IsTerminal::is_terminal(&io::stderr());
            io::stderr().write_all(cpsolve_dsl::render_map(&map, &diagnostics, color).as_bytes())?;
            return Ok(2);
        }
    };
    drop(file);
    std::fs::create_dir_all(out)?;
    let stem = model.file_stem().map_or("model".into(), |s| s.to_string_lossy().to_string());
    let width = parts.to_string().len();
    let mut stdout = io::stdout().lock();
    for i in 1..=parts {
        let path = out.join(format!("{stem}-part-{i:0width$}-of-{parts}.puz"));
        // The included files inlined: a part runs where they are not.
        let mut body = map.inlined();
        if !body.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(&format!("# part {i} of {parts}, written by `cpsolve split`\noption part = {i}, {parts}\n"));
        std::fs::write(&path, body)?;
        writeln!(stdout, "{}", path.display())?;
    }
    Ok(0)
}

/// Reads the parts' results and prints their sum; returns the exit status.
pub(crate) fn merge(files: &[PathBuf], format: Format) -> io::Result<u8> {
    let mut objects: Vec<(String, Value)> = Vec::new();
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
                Ok(value) if value.is_object() => objects.push((format!("{}:{}", path.display(), n + 1), value)),
                _ => {
                    writeln!(io::stderr(), "error: {}:{}: not a JSON result of cpsolve", path.display(), n + 1)?;
                    return Ok(2);
                }
            }
        }
    }
    let merged = match merge_objects(&objects) {
        Ok(merged) => merged,
        Err(message) => {
            writeln!(io::stderr(), "error: {message}")?;
            return Ok(2);
        }
    };
    let status = merged["status"].as_str().unwrap_or("solved").to_string();
    let mut out = io::stdout().lock();
    match format {
        Format::Json => writeln!(out, "{merged}")?,
        Format::Text => {
            if let Some(solutions) = merged.get("solutions").and_then(Value::as_array) {
                for s in solutions {
                    writeln!(out, "{s}")?;
                }
            }
            let count = &merged["count"];
            match status.as_str() {
                "unsatisfiable" => writeln!(out, "no solution ({} parts)", objects.len())?,
                "limit" => writeln!(out, "stopped: a part hit a limit; {count} solutions found so far")?,
                _ => writeln!(out, "{count} solutions ({} parts)", objects.len())?,
            }
        }
    }
    Ok(match status.as_str() {
        "solved" => 0,
        "unsatisfiable" => 1,
        _ => 3,
    })
}

/// The sum of the parts: counts added, solutions concatenated, the worst status.
fn merge_objects(objects: &[(String, Value)]) -> Result<Value, String> {
    let Some((_, first)) = objects.first() else { return Err("no results to merge".into()) };
    let kind = first["kind"].clone();
    let mut count: u128 = 0;
    let mut solutions: Option<Vec<Value>> = Some(Vec::new());
    let mut limited = false;
    let mut stats: Option<Map<String, Value>> = None;
    for (at, o) in objects {
        if o["status"] == "error" {
            return Err(format!("{at}: that part did not compile"));
        }
        if o["kind"] != kind {
            return Err(format!("{at}: a `{}` result among `{}` results", o["kind"], kind));
        }
        if o.get("objective").is_some() {
            return Err(format!("{at}: optimisation results cannot be added up"));
        }
        let n = match &o["count"] {
            Value::Number(n) => n.as_u64().map(u128::from),
            Value::String(s) => s.parse().ok(),
            _ => None,
        };
        count += n.ok_or_else(|| format!("{at}: no count"))?;
        limited |= o["status"] == "limit";
        match (o.get("solutions").and_then(Value::as_array), &mut solutions) {
            (Some(list), Some(all)) => all.extend(list.iter().cloned()),
            _ => solutions = None,
        }
        if let Some(Value::Object(s)) = o.get("stats") {
            let total = stats.get_or_insert_with(Map::new);
            for (key, value) in s {
                let sum = total.get(key).and_then(Value::as_f64).unwrap_or(0.0) + value.as_f64().unwrap_or(0.0);
                let value = if key == "time_ms" { json!(sum) } else { json!(sum as u64) };
                total.insert(key.clone(), value);
            }
        }
    }
    let status = if limited {
        "limit"
    } else if count == 0 {
        "unsatisfiable"
    } else {
        "solved"
    };
    let mut merged = Map::new();
    merged.insert("kind".into(), kind);
    merged.insert("status".into(), json!(status));
    merged.insert("count".into(), cpsolve_models::report::count_json(count));
    merged.insert("parts".into(), json!(objects.len()));
    if let Some(all) = solutions {
        merged.insert("solutions".into(), Value::Array(all));
    }
    if let Some(stats) = stats {
        merged.insert("stats".into(), Value::Object(stats));
    }
    Ok(Value::Object(merged))
}
