//! Solving a `.puz` model given as text: parse, compile and search in-process, as the
//! command line's `cpsolve model.puz` does, under the caller's mode and limits.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_dsl::{Diagnostic, Parsed, SourceMap};
use cpsolve_engine::{Sense, StopToken, Val};
use cpsolve_models::problem::{Record, SolutionView};
use cpsolve_models::report;
use cpsolve_models::run::{self, RunOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::errors;
use crate::outcome::Ran;
use crate::parsing;
use crate::waiting::{self, Deadline};

/// What the caller asks of a run.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ask {
    /// `None`: the model's own `solve` line (one solution, or the optimum of its goal).
    pub(crate) mode: Option<SolveMode>,
    pub(crate) limit: Option<u128>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) nodes: Option<u64>,
    pub(crate) threads: usize,
    pub(crate) keep: Keep,
    /// With an objective: the bound shared with the model's other parts.
    pub(crate) shared_bound: Option<cpsolve_engine::SharedBound>,
}

/// Which solutions' values a run keeps for Python.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Keep {
    /// None (a count).
    #[default]
    Nothing,
    /// The last one found (one solution, or the best of an optimisation).
    Last,
    /// Every one, in order.
    All,
}

/// Why a run gave no answer: errors located in the model, or a refusal that is not at a
/// place (`(file, message)`).
#[derive(Debug)]
pub(crate) enum Failed {
    Model(SourceMap, Vec<Diagnostic>),
    Unlocated(String, String),
}

impl Failed {
    pub(crate) fn into_err(self, py: Python<'_>) -> PyErr {
        match self {
            Failed::Model(map, diagnostics) => errors::model_error(py, &map, &diagnostics),
            Failed::Unlocated(file, message) => errors::unlocated(py, &file, &message),
        }
    }
}

pub(crate) fn parse_mode(mode: Option<&str>) -> PyResult<Option<SolveMode>> {
    match mode {
        None => Ok(None),
        Some("first") => Ok(Some(SolveMode::First)),
        Some("all") => Ok(Some(SolveMode::All)),
        Some("count") => Ok(Some(SolveMode::Count)),
        Some(other) => {
            Err(PyValueError::new_err(format!("mode must be \"first\", \"all\" or \"count\", not {other:?}")))
        }
    }
}

pub(crate) fn parse_timeout(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        None => Ok(None),
        Some(t) if (0.0..1e9).contains(&t) => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(PyValueError::new_err(format!("timeout must be a number of seconds >= 0, not {t}"))),
    }
}

/// `_native.run(text, label, ...)`: solves a `.puz` text and returns the run as a dict (see
/// [`Ran`]); located errors raise `ModelError`.
#[pyfunction]
#[pyo3(name = "run", signature = (text, label, path=None, mode=None, limit=None, timeout=None, nodes=None, threads=1, keep="last", bound=None))]
#[allow(clippy::too_many_arguments, reason = "keyword arguments of a Python function")]
pub(crate) fn run_model(
    py: Python<'_>,
    text: String,
    label: String,
    path: Option<std::path::PathBuf>,
    mode: Option<&str>,
    limit: Option<u128>,
    timeout: Option<f64>,
    nodes: Option<u64>,
    threads: usize,
    keep: &str,
    bound: Option<PyRef<'_, crate::bound::SharedBound>>,
) -> PyResult<Py<PyDict>> {
    let keep = match keep {
        "none" => Keep::Nothing,
        "last" => Keep::Last,
        "all" => Keep::All,
        other => {
            return Err(PyValueError::new_err(format!("keep must be \"none\", \"last\" or \"all\", not {other:?}")))
        }
    };
    let ask = Ask {
        mode: parse_mode(mode)?,
        limit,
        timeout: parse_timeout(timeout)?,
        nodes,
        threads: threads.max(1),
        keep,
        shared_bound: bound.map(|b| b.0.clone()),
    };
    let stop = StopToken::new();
    let token = stop.clone();
    let ran = waiting::run_interruptible(py, &stop, move || {
        let _deadline = Deadline::arm(ask.timeout, &token);
        search(&label, &text, path.as_deref(), &ask, &token, &mut |_, _| ControlFlow::Continue(()))
    })?;
    match ran {
        Ok(ran) => ran.into_dict(py),
        Err(failed) => Err(failed.into_err(py)),
    }
}

/// Where each shown variable's value lies in a record: the view's JSON of a record whose
/// values are their own positions (names that are not plain integers, such as an enum's,
/// are left out: their values are read from the JSON).
pub(crate) fn layout_of(view: &dyn SolutionView) -> Vec<(String, usize)> {
    let positions: Record = (0..view.vars().len() as Val).collect();
    match view.json(&positions) {
        Value::Object(fields) => {
            fields.into_iter().filter_map(|(name, v)| v.as_u64().map(|at| (name, at as usize))).collect()
        }
        _ => Vec::new(),
    }
}

/// What a search calls with each solution shown: the layout of [`layout_of`] and the
/// record; it may stop the search.
pub(crate) type OnSolution<'a> = dyn FnMut(&[(String, usize)], &Record) -> ControlFlow<()> + 'a;

/// Parses, compiles and searches a model; `each` sees every solution shown (after it is
/// kept) and may stop the search. Runs without the GIL.
pub(crate) fn search(
    label: &str,
    text: &str,
    path: Option<&Path>,
    ask: &Ask,
    stop: &StopToken,
    each: &mut OnSolution<'_>,
) -> Result<Ran, Failed> {
    let Parsed { map, file } = parsing::parse(label, text, path);
    let file = match file {
        Ok(file) => file,
        Err(diagnostics) => return Err(Failed::Model(map, diagnostics)),
    };
    let options = RunOptions {
        mode: ask.mode,
        limit: ask.limit,
        timeout: ask.timeout,
        nodes: ask.nodes,
        threads: ask.threads,
        shared_bound: ask.shared_bound.clone(),
        stop: stop.clone(),
        ..RunOptions::default()
    };
    if let Some(kind) = cpsolve_puzzles::direct::direct_kind(&file) {
        return match cpsolve_puzzles::direct::solve(kind, &file, &options) {
            Ok(outcome) => Ok(crate::files::from_outcome(label, outcome)),
            Err(diagnostics) => Err(Failed::Model(map, diagnostics)),
        };
    }
    let part = cpsolve_models::part(&file).map_err(|d| Failed::Model(map.clone(), d))?;
    let problem = match cpsolve_models::compile_with_stop(&file, stop) {
        Ok(problem) => problem,
        Err(_) if stop.requested().is_some() => return Ok(stopped_early(label, stop)),
        Err(diagnostics) => return Err(Failed::Model(map, diagnostics)),
    };
    let optimising = problem.search.objective.is_some();
    if optimising && matches!(ask.mode, Some(SolveMode::All | SolveMode::Count)) {
        let what = if ask.mode == Some(SolveMode::All) { "listing all solutions" } else { "counting" };
        let message = format!("{what} does not apply to a model with an objective (minimize/maximize)");
        return Err(Failed::Unlocated(label.to_string(), message));
    }
    let goal = problem.search.objective.map(|(_, sense)| match sense {
        Sense::Minimize => "minimize",
        Sense::Maximize => "maximize",
    });
    let layout = layout_of(problem.view.as_ref());
    let options = RunOptions { part, ..options };
    let build = || cpsolve_models::compile_with_stop(&file, stop).ok();
    let mut records: Vec<Record> = Vec::new();
    let mut solutions: Vec<String> = Vec::new();
    let report = run::solve(problem, &build, &options, |view, record| {
        match ask.keep {
            Keep::Nothing => {}
            Keep::Last => {
                records.clear();
                records.push(record.clone());
                solutions.clear();
                solutions.push(view.json(record).to_string());
            }
            Keep::All => {
                records.push(record.clone());
                solutions.push(view.json(record).to_string());
            }
        }
        each(&layout, record)
    });
    let mut object = report::json(&report, label, true);
    if let (Some((index, parts)), Value::Object(fields)) = (part, &mut object) {
        let mut identity = serde_json::json!({ "index": index + 1, "of": parts });
        if let Some(goal) = goal {
            identity["objective"] = Value::from(goal);
        }
        fields.insert("part".into(), identity);
    }
    let mut json = Vec::new();
    // Writing to memory cannot fail.
    let _ = report::write_with_solutions(&mut json, &object, &solutions);
    Ok(Ran {
        status: report.status.name(),
        count: report.count,
        objective: report.objective,
        bound: report.bound,
        optimising,
        stopped: report.stopped_by,
        stats: report.stats,
        layout,
        records,
        json: String::from_utf8_lossy(&json).trim_end().to_string(),
    })
}

/// A run that a limit stopped before the search began (while compiling).
pub(crate) fn stopped_early(label: &str, stop: &StopToken) -> Ran {
    let stopped = stop.requested();
    let object = serde_json::json!({
        "file": label,
        "status": "limit",
        "stopped": stopped.map(crate::outcome::stop_name).unwrap_or("interrupted"),
    });
    Ran { status: "limit", stopped, json: object.to_string(), ..Ran::default() }
}
