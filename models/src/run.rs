//! The runner: searches a compiled [`Problem`] in the requested mode, within the limits,
//! and reports what it found. Every puzzle kind goes through here, so modes, limits and
//! statuses mean the same thing everywhere.

use std::ops::ControlFlow;
use std::time::Duration;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{Stats, Stop, Val};

use crate::problem::{Kind, Problem, Record, SolutionView};

/// What the command line asks for, over what the model says.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Overrides the model's `solve` line.
    pub mode: Option<SolveMode>,
    /// Stop after this many solutions (implies enumerating them, unless counting).
    pub limit: Option<u128>,
    pub timeout: Option<Duration>,
}

/// The outcome of a model, as the exit status and the JSON `"status"` report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A solution, a finished enumeration or count with at least one solution, or a proven optimum.
    Solved,
    /// The whole search space was explored: no solution exists.
    Unsatisfiable,
    /// A time or solution limit cut the search short.
    Limit,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Limit => "limit",
        }
    }
}

/// What a run found.
#[derive(Debug)]
pub struct Report {
    pub kind: Kind,
    pub status: Status,
    pub mode: SolveMode,
    /// Solutions found (exact when the search finished).
    pub count: u128,
    /// Which limit stopped the search, when one did.
    pub stopped_by: Option<Stop>,
    /// The objective value of the best solution, for `minimize`/`maximize`.
    pub objective: Option<Val>,
    /// Why there is no solution, when compilation proved it.
    pub unsat_reason: Option<String>,
    pub stats: Stats,
}

fn view_filters(problem: &Problem) -> bool {
    problem.view.filters()
}

/// Searches `problem`, calling `on_solution` for each solution to show (none when
/// counting; each improving one when optimising). `on_solution` may stop the search.
pub fn solve(
    mut problem: Problem,
    options: &RunOptions,
    mut on_solution: impl FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Report {
    let optimising = problem.search.objective.is_some();
    let mut mode = options.mode.unwrap_or(problem.mode);
    if mode == SolveMode::First && options.limit.is_some() {
        mode = SolveMode::All;
    }
    let mut config = problem.search.clone();
    config.limits.time = options.timeout;
    // Look for one solution beyond the limit: finding it is what proves the limit cut
    // the search short.
    // The callback decides when to stop (it sees which solutions count); the search only
    // needs to know when a limit ended it.
    config.limits.solutions = None;
    config.count_only = mode == SolveMode::Count && !optimising && !view_filters(&problem) && options.limit.is_none();
    // Look for one solution beyond a limit: finding it proves that the limit cut the
    // search short.
    let shown_limit = if optimising { u128::MAX } else { options.limit.unwrap_or(u128::MAX) };
    let mut count: u128 = 0;
    let mut best: Option<Val> = None;
    let view = problem.view;
    let objective = config.objective;
    let filters = view.filters();
    let mut first_found = false;
    let outcome = problem.solver.search(&config, |solution| {
        let record = (filters || mode != SolveMode::Count || optimising).then(|| view.record(solution));
        if let Some(record) = &record {
            if !view.accept(record) {
                return ControlFlow::Continue(());
            }
        }
        if count >= shown_limit {
            return ControlFlow::Break(());
        }
        count += 1;
        if let Some((obj, _)) = objective {
            best = Some(solution.value(obj));
        }
        if mode != SolveMode::Count || optimising {
            on_solution(view.as_ref(), &record.expect("built above"))?;
        }
        if mode == SolveMode::First && !optimising {
            first_found = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if config.count_only {
        // Dedicated counting adds whole subtrees at once, without the callback.
        count = outcome.solutions;
    }
    let stopped_by = match outcome.stopped {
        Some(Stop::Callback) if first_found => None,
        Some(Stop::Solutions | Stop::Callback) => Some(Stop::Solutions),
        other => other,
    };
    let status = match (stopped_by, count) {
        (Some(_), _) => Status::Limit,
        (None, 0) => Status::Unsatisfiable,
        (None, _) => Status::Solved,
    };
    Report {
        kind: problem.kind,
        status,
        mode,
        count,
        stopped_by,
        objective: best,
        unsat_reason: problem.unsat_reason,
        stats: problem.solver.stats().clone(),
    }
}
