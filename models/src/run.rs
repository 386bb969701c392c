//! The runner: searches a compiled [`Problem`] in the requested mode, within the limits,
//! and reports what it found. Every puzzle kind goes through here, so modes, limits,
//! threads and statuses mean the same thing everywhere.
//!
//! With `--threads N` (N > 1), enumeration and counting use embarrassingly parallel search:
//! the tree is split into many disjoint subtrees (about 32 per thread, in depth-first
//! order), the workers solve them independently, and the results are put back in subtree
//! order — so counts, and the order of listed solutions, are the same for any N. A model
//! whose constraint counts its own solutions at the root (queens) is counted by that
//! constraint on the thread pool instead. `option part = i, k` (written by `cpsolve split`)
//! restricts a run to the i-th of k slices of the same subtrees — except a count whose
//! one constraint counts the root's solutions on its own (queens): its part i counts the
//! i-th of k shares of that constraint's own work (`Solver::count_share_at_root`), which
//! keeps the dedicated count's speed and symmetries (searching the subtrees above it
//! cannot). Every part of one model makes the same choice, so the parts still add up to
//! the count. A part of an optimisation
//! model runs branch and bound over its slice: its subtrees are searched in order, each
//! under the bound of the best solution found in the subtrees before it, so the part ends
//! with the best solution of its slice and knows whether it searched all of it. Only all
//! the parts together prove an optimum (`cpsolve merge`).
//!
//! When one solution is wanted and the model offers a [`crate::problem::Portfolio`]
//! (narrower models whose solutions are its own, such as the symmetric placements of
//! no-three-in-line), the narrower models and the model itself are searched in turns, each
//! turn under a fixed node budget (the member's share of it), each search resuming where
//! its previous turn stopped (see [`cpsolve_engine::SearchConfig::resumable`]): a member
//! that needs N nodes has them after N / its share turns. The first solution ends the run;
//! a member whose search ends without one drops out, and when the model itself ends
//! without one there is none. A member may restart instead of resuming
//! ([`crate::problem::Restarts`]): its turns are then whole runs in seeded orders on the
//! Luby schedule. Budgets count nodes, not time, so the answer is the same on any machine
//! and load.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{luby, Literal, SearchConfig, Sense, Share, SharedBound, Stats, Stop, StopToken, Subproblem, Val};
use rayon::prelude::*;

use crate::problem::{Kind, Member, Problem, Record, SolutionView};

/// What the command line asks for, over what the model says.
#[derive(Clone)]
pub struct RunOptions {
    /// Overrides the model's `solve` line.
    pub mode: Option<SolveMode>,
    /// Stop after this many solutions (implies enumerating them, unless counting).
    pub limit: Option<u128>,
    pub timeout: Option<Duration>,
    /// Stop after this many search nodes (`--nodes`): a limit that is the same on every
    /// machine and load. Each search counts its own nodes: the subtrees of a parallel or
    /// split search each have the whole budget.
    pub nodes: Option<u64>,
    /// The process's memory limit in MB, for the message when it is reached (the limit
    /// itself is enforced by whoever requests a stop on [`RunOptions::stop`]).
    pub memory_mb: Option<u64>,
    /// The run's request to stop (time, memory, a caller's request): the puzzles' own
    /// solvers poll it, and it must be the token the run's problems were compiled with
    /// ([`crate::compile_with_stop`]), so that their searches stop too.
    pub stop: StopToken,
    /// Worker threads for enumeration and counting.
    pub threads: usize,
    /// Only the `index`-th (0-based) of `parts` slices of the search (`cpsolve split`).
    pub part: Option<(u64, u64)>,
    /// With an objective: a bound shared with the runs of the model's other parts while
    /// they run ([`SharedBound`]; a caller carries it between processes). The run prunes
    /// with the best any of them found and offers its own, so a part that finds nothing
    /// ends [`Status::NoBetter`], not unsatisfiable. The command line shares none.
    pub shared_bound: Option<SharedBound>,
    /// Called with (subtrees done, subtrees in all) as a parallel search advances.
    pub progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>>,
    /// Draw the answer (`--format svg`). Only then: a picture can cost more than the
    /// answer (Minesweeper's expert board: 84% of a text run's instructions were its SVG).
    pub picture: bool,
    /// Learn from failures: `Some(true)` (`--learning yes`) over what the model's search
    /// says, which prunes only failed subtrees and keeps the search chronological, so the
    /// solutions, their order and every count stay the same; `Some(false)` never; `None`
    /// where it pays (`learns_by_default`: a language model wanting one solution or an
    /// optimum, its own order first as a probe). Ignored where the engine cannot learn (a
    /// resumed or split search).
    pub learning: Option<bool>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            mode: None,
            limit: None,
            timeout: None,
            nodes: None,
            memory_mb: None,
            stop: StopToken::new(),
            threads: 1,
            part: None,
            shared_bound: None,
            progress: None,
            picture: false,
            learning: None,
        }
    }
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("mode", &self.mode)
            .field("limit", &self.limit)
            .field("timeout", &self.timeout)
            .field("nodes", &self.nodes)
            .field("memory_mb", &self.memory_mb)
            .field("stop", &self.stop.requested())
            .field("threads", &self.threads)
            .field("part", &self.part)
            .field("shared_bound", &self.shared_bound)
            .field("progress", &self.progress.is_some())
            .field("learning", &self.learning)
            .finish()
    }
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
    /// The whole search space was explored under a bound shared with other runs
    /// ([`RunOptions::shared_bound`]), and no solution is better than [`Report::bound`]:
    /// whether one as good exists here is not known (the bound cut it).
    NoBetter,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Limit => "limit",
            Status::NoBetter => "no better",
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
    /// With [`RunOptions::shared_bound`]: its value when the run ended, when better than
    /// [`Report::objective`] (or the run found none). No solution of the run's tree is
    /// better than it (the bound only tightens, so every cut made before still holds).
    pub bound: Option<Val>,
    /// Why there is no solution, when compilation proved it.
    pub unsat_reason: Option<String>,
    pub stats: Stats,
}

/// Subtrees per worker thread: enough to balance uneven subtrees.
const PARTS_PER_THREAD: usize = 32;
/// Subtrees per slice written by `cpsolve split`.
const PARTS_PER_SLICE: usize = 8;

/// How to search, derived once from the problem and the options.
#[derive(Debug, Clone)]
struct Plan {
    mode: SolveMode,
    optimising: bool,
    filters: bool,
    config: SearchConfig,
    /// Solutions to show before the limit.
    shown_limit: u128,
}

impl Plan {
    fn new(problem: &Problem, options: &RunOptions, start: Instant) -> Plan {
        let optimising = problem.search.objective.is_some();
        let mut mode = options.mode.unwrap_or(problem.mode);
        if mode == SolveMode::First && options.limit.is_some() {
            mode = SolveMode::All;
        }
        let filters = problem.view.filters();
        let mut config = problem.search.clone();
        config.limits.time = options.timeout.map(|t| t.saturating_sub(start.elapsed()));
        config.limits.nodes = options.nodes;
        match options.learning {
            Some(learning) => config.learning = learning,
            None if learns_by_default(problem, options, mode, optimising, filters) => config.learn_by_default(),
            None => {}
        }
        // The callback decides when to stop (it sees which solutions count); the search
        // only needs to know when a limit ended it.
        config.limits.solutions = None;
        if optimising {
            config.shared_bound = options.shared_bound.clone();
        }
        config.count_only = mode == SolveMode::Count && !optimising && !filters && options.limit.is_none();
        config.first_only = mode == SolveMode::First && !optimising && !filters;
        // One solution beyond a limit is looked for: finding it proves that the limit cut
        // the search short. When optimising, the limit counts improving solutions, and
        // `--first` is a limit of one: the next improving solution, if any, shows that the
        // first was not optimal.
        let shown_limit = match options.limit {
            _ if optimising && options.mode == Some(SolveMode::First) => 1,
            Some(limit) => limit,
            None => u128::MAX,
        };
        Plan { mode, optimising, filters, config, shown_limit }
    }

    /// Whether solutions must be turned into records (to show them, or to filter them).
    fn needs_records(&self) -> bool {
        self.filters || self.mode != SolveMode::Count || self.optimising
    }
}

/// Whether a model's search learns when the user did not say (`--learning auto`): where a
/// model of the language wants one solution or an optimum, searched whole in one thread,
/// as `cpsolve model.mzn` does ([`SearchConfig::learn_by_default`]: the model's order goes
/// first while it projects to finish soon, so easy models keep their tree). Not for the
/// puzzle kinds with a search of their own, counts and enumerations (learning changes
/// none of their answers and their trees are whole), a slice of a split search, nor a
/// model whose solutions the front end filters (a restart could find a rejected one again).
fn learns_by_default(
    problem: &Problem,
    options: &RunOptions,
    mode: SolveMode,
    optimising: bool,
    filters: bool,
) -> bool {
    problem.kind == Kind::Model
        && (optimising || mode == SolveMode::First)
        && options.limit.is_none()
        && options.part.is_none()
        && !filters
}

/// What one search (of the whole tree or of some subtrees) found.
#[derive(Debug, Default)]
struct Found {
    count: u128,
    best: Option<Val>,
    stopped: Option<Stop>,
    first_found: bool,
    stats: Stats,
}

/// Searches the subtree below `fixings` (all of it when empty), passing each accepted
/// solution to `emit` (unless counting).
fn search(
    problem: &mut Problem,
    fixings: &[Literal],
    plan: &Plan,
    emit: &mut dyn FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Found {
    let mut found = Found::default();
    if !problem.solver.apply(fixings) {
        return found;
    }
    let view = problem.view.as_ref();
    let objective = plan.config.objective;
    let outcome = problem.solver.search(&plan.config, |solution| {
        let record = plan.needs_records().then(|| view.record(solution));
        if let Some(record) = &record {
            if !view.accept(record) {
                return ControlFlow::Continue(());
            }
        }
        if found.count >= plan.shown_limit {
            return ControlFlow::Break(());
        }
        found.count += 1;
        if let Some((obj, _)) = objective {
            found.best = Some(solution.value(obj));
        }
        if plan.mode != SolveMode::Count || plan.optimising {
            emit(view, &record.expect("built above"))?;
        }
        if plan.mode == SolveMode::First && !plan.optimising {
            found.first_found = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if plan.config.count_only {
        // Dedicated counting adds whole subtrees at once, without the callback.
        found.count = outcome.solutions;
    }
    found.stopped = match outcome.stopped {
        Some(Stop::Callback) if found.first_found => None,
        Some(Stop::Solutions | Stop::Callback) => Some(Stop::Solutions),
        other => other,
    };
    found.stats = problem.solver.stats().clone();
    found
}

/// Searches `problem`, calling `on_solution` for each solution to show (none when
/// counting; each improving one when optimising). `on_solution` may stop the search.
/// Parallel workers search copies that `build` compiles from the same model; `None` when
/// a limit stopped the compiling (a stop requested on [`RunOptions::stop`]).
pub fn solve(
    mut problem: Problem,
    build: &(dyn Fn() -> Option<Problem> + Sync),
    options: &RunOptions,
    mut on_solution: impl FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Report {
    let start = Instant::now();
    let mut plan = Plan::new(&problem, options, start);
    // The problem is consumed here and the workers' copies are dropped after their
    // subtree: a stopped search need not undo its trail. The turns of a portfolio search
    // their problems again (they make their own plans).
    plan.config.final_search = true;
    let threads = options.threads.max(1);
    // Listing solutions in parallel keeps their order only when the search order has no
    // memory; counting does not care.
    let parallel = threads > 1
        && plan.mode != SolveMode::First
        && !plan.optimising
        && (plan.mode == SolveMode::Count || plan.config.is_history_free())
        && !(plan.config.count_only && problem.solver.counts_at_root(&plan.config));
    let portfolio = match &problem.first_portfolio {
        Some(p) if plan.mode == SolveMode::First && !plan.optimising && options.part.is_none() => p.build(),
        _ => None,
    };
    let found = if let Some(members) = portfolio {
        solve_in_turns(&mut problem, members, options, start, &mut on_solution)
    } else if let (Some((index, parts)), true) = (options.part, plan.optimising) {
        let subtrees = slice(problem.solver.split(&plan.config, parts as usize * PARTS_PER_SLICE), index, parts);
        optimise_subtrees(build, &subtrees, &plan, options, start, &mut on_solution)
    } else if let Some(found) =
        options.part.filter(|_| plan.config.count_only).and_then(|part| count_share(&mut problem, &plan, part, options))
    {
        found
    } else if options.part.is_some() || parallel {
        let subtrees = match options.part {
            Some((index, parts)) => {
                slice(problem.solver.split(&plan.config, parts as usize * PARTS_PER_SLICE), index, parts)
            }
            None => problem.solver.split(&plan.config, threads * PARTS_PER_THREAD),
        };
        let solve_all = || solve_subtrees(build, &subtrees, &plan, options, start);
        let results = match &pool(threads) {
            Ok(pool) => pool.install(solve_all),
            Err(_) => solve_all(),
        };
        merge(results, &plan, problem.view.as_ref(), &mut on_solution)
    } else if plan.config.count_only {
        // A constraint may count on its own, in parallel on the pool.
        let mut count = || search(&mut problem, &[], &plan, &mut |_, _| ControlFlow::Continue(()));
        match &pool(threads) {
            Ok(pool) => pool.install(count),
            Err(_) => count(),
        }
    } else {
        search(&mut problem, &[], &plan, &mut on_solution)
    };
    let bound = match (&plan.config.shared_bound, plan.config.objective) {
        (Some(shared), Some((_, sense))) => shared.best(sense).filter(|&b| {
            found.best.is_none_or(|own| match sense {
                Sense::Minimize => b < own,
                Sense::Maximize => b > own,
            })
        }),
        _ => None,
    };
    let status = match (found.stopped, found.count, bound) {
        (Some(_), _, _) => Status::Limit,
        (None, 0, Some(_)) => Status::NoBetter,
        (None, 0, None) => Status::Unsatisfiable,
        (None, _, _) => Status::Solved,
    };
    let mut stats = found.stats;
    stats.time = start.elapsed();
    let at_limit = matches!(found.stopped, Some(Stop::Time | Stop::Memory));
    let report = Report {
        kind: problem.kind,
        status,
        mode: plan.mode,
        count: found.count,
        stopped_by: found.stopped,
        objective: found.best,
        bound,
        unsat_reason: problem.unsat_reason.take(),
        stats,
    };
    // A problem whose search a limit stopped, leaving its trail, goes to the run's token,
    // freed once the report is printed: a deep trail is a large allocation (a gigabyte for
    // 6,558 levels of a 6,561-variable all-different) that the report, printed within the
    // limit's grace, need not wait for. Only then: a search stopped by its callback is not
    // racing a deadline.
    if at_limit && problem.solver.is_spent() {
        options.stop.abandon(problem);
    }
    report
}

/// The nodes of the problem's own turn in [`solve_in_turns`]; a member's turn has its
/// share of them. Each turn propagates the root and replays the path to where the previous
/// one stopped: a thousand nodes make that cost small.
const TURN_NODES: u64 = 1000;

/// One solution of `problem`, searched in turns with the narrower `members`, each with its
/// share of [`TURN_NODES`] (see the module doc). A restarting member spends its share on
/// whole runs: the nodes it is owed grow by its share every round, and it starts runs
/// while it is owed some (a long run leaves a debt that later rounds pay back), so over
/// time it gets its share, and every run is searched whole, from the root.
fn solve_in_turns(
    problem: &mut Problem,
    members: Vec<Member>,
    options: &RunOptions,
    start: Instant,
    emit: &mut dyn FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Found {
    // Each member with its last run (from 1) and the nodes it is owed (restarting ones).
    let mut members: Vec<(Member, u64, i128)> = members.into_iter().map(|m| (m, 0, 0)).collect();
    let mut done = Stats::default();
    loop {
        // The members first, the problem itself last in each round.
        let mut k = 0;
        while k <= members.len() {
            let found = match members.get_mut(k) {
                None => turn(problem, TURN_NODES, true, options, start, emit),
                Some((member, run, owed)) => match &member.restarts {
                    None => turn(
                        &mut member.problem,
                        TURN_NODES.saturating_mul(member.share.max(1)),
                        true,
                        options,
                        start,
                        emit,
                    ),
                    Some(restarts) => {
                        *owed += i128::from(TURN_NODES.saturating_mul(member.share.max(1)));
                        loop {
                            *run += 1;
                            member.problem.search.branching = (restarts.order)(*run);
                            let nodes = restarts.scale.max(1).saturating_mul(luby(*run));
                            let before = member.problem.solver.stats().nodes;
                            let found = turn(&mut member.problem, nodes, false, options, start, emit);
                            *owed -= i128::from(member.problem.solver.stats().nodes - before);
                            if found.stopped != Some(Stop::Nodes) || *owed <= 0 {
                                break found;
                            }
                        }
                    }
                },
            };
            let is_member = k < members.len();
            let exhausted = found.stopped.is_none() && found.count == 0;
            if found.stopped == Some(Stop::Nodes) || (exhausted && is_member) {
                // `--nodes` bounds the turns together.
                let spent = done.nodes
                    + members.iter().map(|(m, _, _)| m.problem.solver.stats().nodes).sum::<u64>()
                    + problem.solver.stats().nodes;
                if options.nodes.is_some_and(|budget| spent >= budget) {
                    let mut found = found;
                    found.stopped = Some(Stop::Nodes);
                    found.stats = done;
                    for (m, _, _) in &members {
                        found.stats.add(m.problem.solver.stats());
                    }
                    found.stats.add(problem.solver.stats());
                    return found;
                }
                if exhausted {
                    done.add(members.remove(k).0.problem.solver.stats());
                } else {
                    k += 1;
                }
                continue;
            }
            // A solution, a proof that there is none, or another limit. Each solver's
            // statistics add up all its turns.
            let mut found = found;
            found.stats = done;
            for (m, _, _) in &members {
                found.stats.add(m.problem.solver.stats());
            }
            found.stats.add(problem.solver.stats());
            return found;
        }
    }
}

/// One turn of `member` in [`solve_in_turns`]: a search for one solution that stops after
/// `nodes` nodes, resuming the previous turn's search when `resumable`.
fn turn(
    member: &mut Problem,
    nodes: u64,
    resumable: bool,
    options: &RunOptions,
    start: Instant,
    emit: &mut dyn FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Found {
    let mut plan = Plan::new(member, options, start);
    plan.config.limits.nodes = Some(nodes);
    // The engine resumes a search for one solution without an objective or restarts, and
    // starts afresh otherwise.
    plan.config.resumable = resumable;
    plan.config.final_search = false;
    search(member, &[], &plan, emit)
}

/// A rayon pool of `threads` threads, built once per process and thread count (models
/// solved in turn share it; building one per model would cost a thread spawn each).
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    static POOLS: std::sync::Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = std::sync::Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(pool.clone());
    }
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?);
    pools.push((threads, pool.clone()));
    Ok(pool)
}

/// The `index`-th of `parts` contiguous slices of `subtrees` (slices differ by one subtree
/// at most; some may be empty when there are fewer subtrees than slices).
fn slice(subtrees: Vec<Subproblem>, index: u64, parts: u64) -> Vec<Subproblem> {
    let n = subtrees.len() as u64;
    let (from, to) = (n * index / parts, n * (index + 1) / parts);
    subtrees.into_iter().skip(from as usize).take((to - from) as usize).collect()
}

/// A part of a count, as the `index`-th of `parts` shares of the count that one constraint
/// makes alone at the root; `None` when none does (the part then searches its subtrees).
fn count_share(problem: &mut Problem, plan: &Plan, (index, parts): (u64, u64), options: &RunOptions) -> Option<Found> {
    let counted = problem.solver.count_share_at_root(&plan.config, Share { index, of: parts })?;
    let stats = problem.solver.stats().clone();
    Some(match counted {
        Ok(count) => Found { count, stats, ..Found::default() },
        // Only the time limit or a stop requested on the run's token reach a dedicated count.
        Err(_) => Found { stopped: Some(options.stop.requested().unwrap_or(Stop::Time)), stats, ..Found::default() },
    })
}

/// Solves `subtrees` on the current thread pool; each keeps its solutions.
fn solve_subtrees(
    build: &(dyn Fn() -> Option<Problem> + Sync),
    subtrees: &[Subproblem],
    plan: &Plan,
    options: &RunOptions,
    start: Instant,
) -> Vec<(Found, Vec<Record>)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let done = AtomicU64::new(0);
    let total = subtrees.len() as u64;
    subtrees
        .par_iter()
        .map(|fixings| {
            if cancel.load(Ordering::Relaxed) {
                let stopped = options.stop.requested().unwrap_or(Stop::Cancelled);
                return (Found { stopped: Some(stopped), ..Found::default() }, Vec::new());
            }
            let Some(mut problem) = build() else {
                let stopped = options.stop.requested().unwrap_or(Stop::Cancelled);
                return (Found { stopped: Some(stopped), ..Found::default() }, Vec::new());
            };
            let mut plan = plan.clone();
            plan.config.limits.time = options.timeout.map(|t| t.saturating_sub(start.elapsed()));
            plan.config.limits.cancel = Some(cancel.clone());
            let mut records = Vec::new();
            let found = search(&mut problem, fixings, &plan, &mut |_, record| {
                records.push(record.clone());
                ControlFlow::Continue(())
            });
            if matches!(found.stopped, Some(Stop::Time | Stop::Memory)) {
                cancel.store(true, Ordering::Relaxed);
            }
            // A worker cancelled because another reached the limit races the same deadline.
            if matches!(found.stopped, Some(Stop::Time | Stop::Memory | Stop::Cancelled)) && problem.solver.is_spent() {
                options.stop.abandon(problem);
            }
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(progress) = &options.progress {
                progress(finished, total);
            }
            (found, records)
        })
        .collect()
}

/// Branch and bound over `subtrees` in order (a part of an optimisation model): each is
/// searched in a fresh copy of the problem under the bound of the best solution found so
/// far, and each improving solution goes to `emit` as it is found. The search stops at the
/// first limit; otherwise every subtree was searched to the end and the best solution found
/// is the best of the slice.
fn optimise_subtrees(
    build: &(dyn Fn() -> Option<Problem> + Sync),
    subtrees: &[Subproblem],
    plan: &Plan,
    options: &RunOptions,
    start: Instant,
    emit: &mut dyn FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Found {
    let mut all = Found::default();
    for subtree in subtrees {
        let Some(mut problem) = build() else {
            // Only a limit stops a compiling that succeeded once: the run's token says which.
            all.stopped = Some(options.stop.requested().unwrap_or(Stop::Time));
            break;
        };
        let mut plan = plan.clone();
        plan.config.limits.time = options.timeout.map(|t| t.saturating_sub(start.elapsed()));
        // The solution limit counts the improving solutions of the whole part.
        plan.shown_limit = plan.shown_limit.saturating_sub(all.count);
        let mut fixings = subtree.clone();
        if let (Some((objective, sense)), Some(best)) = (plan.config.objective, all.best) {
            fixings.push(match sense {
                Sense::Minimize => Literal::Le(objective, best - 1),
                Sense::Maximize => Literal::Gt(objective, best),
            });
        }
        let found = search(&mut problem, &fixings, &plan, emit);
        all.count += found.count;
        all.best = found.best.or(all.best);
        all.stats.add(&found.stats);
        if found.stopped.is_some() {
            all.stopped = found.stopped;
            if matches!(found.stopped, Some(Stop::Time | Stop::Memory)) && problem.solver.is_spent() {
                options.stop.abandon(problem);
            }
            break;
        }
    }
    all
}

/// Puts the subtrees' results back together in subtree order, handing their solutions to
/// `emit` up to the limit.
fn merge(
    results: Vec<(Found, Vec<Record>)>,
    plan: &Plan,
    view: &dyn SolutionView,
    emit: &mut dyn FnMut(&dyn SolutionView, &Record) -> ControlFlow<()>,
) -> Found {
    let mut merged = Found::default();
    let mut shown: u128 = 0;
    'merge: for (found, records) in results {
        merged.count += found.count;
        merged.stats.add(&found.stats);
        merged.best = found.best.or(merged.best);
        // A worker cancelled because another ran out of time ran out of time too.
        merged.stopped = match (merged.stopped, found.stopped) {
            (Some(Stop::Memory), _) | (_, Some(Stop::Memory)) => Some(Stop::Memory),
            (Some(Stop::Time), _) | (_, Some(Stop::Time | Stop::Cancelled)) => Some(Stop::Time),
            (a, b) => a.or(b),
        };
        for record in &records {
            if shown >= plan.shown_limit {
                merged.stopped = Some(Stop::Solutions);
                break 'merge;
            }
            shown += 1;
            if emit(view, record).is_break() {
                break 'merge;
            }
        }
    }
    if merged.count > plan.shown_limit {
        merged.count = plan.shown_limit;
        merged.stopped = Some(Stop::Solutions);
    }
    merged
}
