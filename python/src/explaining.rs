//! `cpsolve explain` as data: how a `.puz` model's solution follows from its givens, as the
//! JSON object of `cpsolve explain --format json` (`steps`, `grade`, `ending`, with the
//! run's status and solution).

use std::ops::ControlFlow;
use std::path::PathBuf;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_dsl::Parsed;
use cpsolve_engine::StopToken;
use cpsolve_models::explain::{self, ToldEnding};
use cpsolve_models::report;
use cpsolve_models::run::{self, RunOptions};
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::parsing;
use crate::running::{self, Failed};
use crate::waiting::{self, Deadline};

/// `_native.explain(text, label, path=None, timeout=None)`: the explanation's JSON text.
#[pyfunction]
#[pyo3(name = "explain", signature = (text, label, path=None, timeout=None))]
pub(crate) fn explain_model(
    py: Python<'_>,
    text: String,
    label: String,
    path: Option<PathBuf>,
    timeout: Option<f64>,
) -> PyResult<String> {
    let timeout = running::parse_timeout(timeout)?;
    let stop = StopToken::new();
    let token = stop.clone();
    let told = waiting::run_interruptible(py, &stop, move || {
        let _deadline = Deadline::arm(timeout, &token);
        tell(&label, &text, path.as_deref(), timeout, &token)
    })?;
    told.map_err(|failed| failed.into_err(py))
}

fn tell(
    label: &str,
    text: &str,
    path: Option<&std::path::Path>,
    timeout: Option<std::time::Duration>,
    stop: &StopToken,
) -> Result<String, Failed> {
    let Parsed { map, file } = parsing::parse(label, text, path);
    let file = file.map_err(|d| Failed::Model(map.clone(), d))?;
    if cpsolve_puzzles::direct::direct_kind(&file).is_some() {
        let message = "explain tells the generic models, cryptarithms and queens; this puzzle has a solver of its own";
        return Err(Failed::Unlocated(label.to_string(), message.to_string()));
    }
    let problem = match cpsolve_models::compile_to_explain(&file, stop) {
        Ok(problem) => problem,
        Err(_) if stop.requested().is_some() => return Ok(running::stopped_early(label, stop).json),
        Err(diagnostics) => return Err(Failed::Model(map, diagnostics)),
    };
    let kind = problem.kind;
    let told = explain::explain(problem).map_err(|message| Failed::Unlocated(label.to_string(), message))?;
    let mut solutions = Vec::new();
    let report = if told.ending == ToldEnding::Stopped {
        None
    } else {
        let options = RunOptions { mode: Some(SolveMode::First), timeout, stop: stop.clone(), ..RunOptions::default() };
        let build = || cpsolve_models::compile_with_stop(&file, stop).ok();
        build().map(|problem| {
            run::solve(problem, &build, &options, |view, record| {
                solutions.push(view.json(record).to_string());
                ControlFlow::Continue(())
            })
        })
    };
    let mut object = match &report {
        Some(report) => match report::json(report, label, false) {
            Value::Object(object) => object,
            _ => serde_json::Map::new(),
        },
        None => {
            json!({ "file": label, "kind": kind.name(), "status": "limit" }).as_object().cloned().unwrap_or_default()
        }
    };
    object.extend(told.json(Some(map.text())));
    let mut out = Vec::new();
    let _ = report::write_with_solutions(&mut out, &Value::Object(object), &solutions);
    Ok(String::from_utf8_lossy(&out).trim_end().to_string())
}
