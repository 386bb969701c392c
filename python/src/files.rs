//! `cpsolve.solve_file(path, data=None, ...)`: a model file as the command line reads it,
//! by its extension: `.puz` (with its includes), `.mine` (a JSMinesweeper position), `.fzn`,
//! or `.mzn` with `.dzn` data files.

use std::path::{Path, PathBuf};

use cpsolve_engine::StopToken;
use cpsolve_models::run::RunOptions;
use cpsolve_puzzles::outcome::Outcome;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::flatzinc;
use crate::outcome::Ran;
use crate::running::{self, Ask, Failed, Keep};
use crate::waiting::{self, Deadline};

/// The answer of a puzzle with a solver of its own, framed as a search's.
pub(crate) fn from_outcome(label: &str, outcome: Outcome) -> Ran {
    let mut object = serde_json::Map::new();
    object.insert("file".into(), Value::from(label));
    if let Value::Object(fields) = &outcome.json {
        object.extend(fields.clone());
    }
    object.insert("stats".into(), cpsolve_models::report::stats_json(&outcome.stats));
    let count = object.get("count").and_then(Value::as_u64).map(u128::from).unwrap_or(0);
    Ran {
        status: outcome.status.name(),
        count,
        stats: outcome.stats,
        json: Value::Object(object).to_string(),
        ..Ran::default()
    }
}

fn extension(path: &Path) -> String {
    path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase()
}

/// `_native.solve_file(path, data=None, mode=None, limit=None, timeout=None, nodes=None, threads=1)`.
#[pyfunction]
#[pyo3(signature = (path, data=None, mode=None, limit=None, timeout=None, nodes=None, threads=1))]
#[allow(clippy::too_many_arguments, reason = "keyword arguments of a Python function")]
pub(crate) fn solve_file(
    py: Python<'_>,
    path: PathBuf,
    data: Option<Vec<PathBuf>>,
    mode: Option<&str>,
    limit: Option<u128>,
    timeout: Option<f64>,
    nodes: Option<u64>,
    threads: usize,
) -> PyResult<Py<PyDict>> {
    let ask = Ask {
        mode: running::parse_mode(mode)?,
        limit,
        timeout: running::parse_timeout(timeout)?,
        nodes,
        threads: threads.max(1),
        keep: if mode == Some("all") { Keep::All } else { Keep::Last },
        shared_bound: None,
    };
    let label = path.display().to_string();
    let kind = extension(&path);
    let data = data.unwrap_or_default();
    if kind != "mzn" && !data.is_empty() {
        return Err(PyValueError::new_err(format!("`{label}`: data files go with a .mzn model only")));
    }
    if let Some(other) = data.iter().find(|p| !matches!(extension(p).as_str(), "dzn" | "json")) {
        return Err(PyValueError::new_err(format!("`{}` is not a MiniZinc data file (.dzn, .json)", other.display())));
    }
    // MiniZinc reads its files itself; the others are read here.
    let text = if kind == "mzn" {
        String::new()
    } else {
        std::fs::read_to_string(&path).map_err(|e| PyOSError::new_err(format!("cannot read `{label}`: {e}")))?
    };
    let stop = StopToken::new();
    let token = stop.clone();
    let ran = waiting::run_interruptible(py, &stop, move || {
        let _deadline = Deadline::arm(ask.timeout, &token);
        match kind.as_str() {
            "fzn" => flatzinc::solve_fzn(&label, &text, &ask, &token),
            "mzn" => match flatzinc::flatten(&path, &data, &token) {
                Ok(fzn) => flatzinc::solve_fzn(&label, &fzn, &ask, &token),
                Err(_) if token.requested().is_some() => Ok(running::stopped_early(&label, &token)),
                Err(message) => Err(Failed::Unlocated(label, message)),
            },
            "mine" => {
                let options = RunOptions { timeout: ask.timeout, stop: token.clone(), ..RunOptions::default() };
                match cpsolve_puzzles::minesweeper::solve_mine_file(&text, &options) {
                    Ok(outcome) => Ok(from_outcome(&label, outcome)),
                    Err(diagnostics) => {
                        Err(Failed::Model(cpsolve_dsl::SourceMap::single(label.as_str(), &text), diagnostics))
                    }
                }
            }
            _ => running::search(&label, &text, Some(&path), &ask, &token, &mut |_, _| {
                std::ops::ControlFlow::Continue(())
            }),
        }
    })?;
    match ran {
        Ok(ran) => ran.into_dict(py),
        Err(failed) => Err(failed.into_err(py)),
    }
}
