//! Solving a compiled model the way the FlatZinc interface asks: the first solution, `n`
//! of them or all (satisfaction), or every improving solution up to a proven optimum
//! (optimisation); and printing solutions and the final status line as the FlatZinc
//! specification says.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::time::Duration;

use cpsolve_engine::{
    ActivityOver, ActivitySearch, Limits, Probe, SearchConfig, Sense, Solution, Stats, Stop, Val, VarId, VarOrder,
};

use crate::check;
use crate::model::{Goal, Kind, Model, Output, Term};

/// The restart scale cpsolve uses unless told otherwise, with nogoods recorded at each
/// restart. Measured on `tests/minizinc/`, free search (dom/wdeg), 10 s each
/// (notes/flatzinc.md): of the 34 optimisation instances, 27 proved without restarts, 26
/// with restarts every 1,000 × luby(k) failures alone, 29 with them and nogoods (twice; 26
/// at 100 × luby(k), 28 at 10,000); the 22 satisfaction instances took 21.3 s without
/// restarts and 17.1 s with these, 21 solved either way.
pub const RESTART_SCALE: u64 = 1000;

/// Which decisions follow activity, with learning, in cpsolve's own search (free search,
/// or a model without annotation): all of them, because activity alone proves more.
/// Measured at 60 s on the 28 hard instances (notes/learning.md, "a database that misses
/// nothing"): 15 proved against 13 when the runs alternate dom/wdeg and activity (Pumpkin
/// 13); on the 56 public ones at 20 s, 53 against 54 (groupsplitter, whose tables and sums
/// explained naively then, is the one dom/wdeg proves and activity does not).
const OWN_SEARCH_ACTIVITY: ActivitySearch = ActivitySearch::Only;

/// The probe's budget where cpsolve's own search decides a count's terms first: under the
/// projection of parity-learning's annotated tree (113 million propagations, which that own
/// search beats by far), above the whole tree of diameterc-mst's annotation (5.7 million,
/// which the own search does not finish in 20 s).
const COUNT_FIRST_PROBE_PROPAGATIONS: u64 = Probe::DEFAULT_PROPAGATIONS / 8;

/// What the user asked for (MiniZinc's standard flags).
#[derive(Debug, Clone)]
pub struct Options {
    /// `-a`: all solutions (satisfaction), or every improving one (optimisation).
    pub all: bool,
    /// `-n N`: at most this many solutions.
    pub solutions: Option<u128>,
    /// Whose search decides: the model's annotation, cpsolve's own (`-f`), or both in turn.
    pub search: SearchChoice,
    pub timeout: Option<Duration>,
    /// Stop after this many nodes (branches taken), the same on any machine and load.
    pub nodes: Option<u64>,
    /// Check every solution against the written constraints (and panic on a violation).
    pub verify: bool,
    /// Restarts every `scale × luby(k)` failures, for searches that learn (dom/wdeg, or
    /// learning from failures) and want one solution or an optimum; 0: never; `None`: the
    /// default, [`RESTART_SCALE`], or [`SearchConfig::LEARNING_RESTART_SCALE`] when the search learns
    /// from failures.
    pub restart_scale: Option<u64>,
    /// Solution-based phase saving in optimisation (a satisfaction search stops at its
    /// solutions, so it has none to save).
    pub phase_saving: PhaseSaving,
    /// With restarts, post at each restart the nogoods of the branch left
    /// ([`SearchConfig::nogoods`]).
    pub nogoods: bool,
    /// The model will not be solved again (the process prints the answer and exits): a
    /// search stopped by a limit or a solution count returns without undoing its trail and
    /// leaves `model.solver` spent ([`SearchConfig::final_search`]).
    pub final_search: bool,
    /// A satisfaction search that enumerates counts and reports a solution only when its
    /// output values differ from every earlier one's: a model whose output hides variables
    /// has many search solutions per answer (MiniZinc's `-a` prints each answer once).
    /// Off: every search solution is one (FlatZinc's own `-a`).
    pub distinct_outputs: bool,
    /// Learn nogoods from failures ([`SearchConfig::learning`]); `None`: where one solution
    /// or an optimum is wanted (there the search may backjump and restart), not when it
    /// enumerates or counts.
    pub learning: Option<bool>,
    /// With learning: which decisions follow the variables' activity
    /// ([`SearchConfig::activity`]); `None`: all of them in cpsolve's own search (free
    /// search or no annotation), those the annotation leaves otherwise.
    pub activity: Option<ActivitySearch>,
    /// What decisions by activity rank ([`cpsolve_engine::ActivityOver`]).
    pub activity_over: ActivityOver,
    /// With learning by default and an annotated search that does not restart: try that
    /// search first, without learning, while it projects to finish within
    /// [`Probe::DEFAULT_PROPAGATIONS`] ([`cpsolve_engine::SearchConfig::probe`]).
    pub probe: bool,
}

impl Default for Options {
    /// One solution, the model's own search, restarts with nogoods where the order learns.
    fn default() -> Options {
        Options {
            all: false,
            solutions: None,
            search: SearchChoice::default(),
            timeout: None,
            nodes: None,
            verify: false,
            restart_scale: None,
            phase_saving: PhaseSaving::default(),
            nogoods: true,
            final_search: false,
            distinct_outputs: false,
            learning: None,
            activity: None,
            activity_over: ActivityOver::default(),
            probe: true,
        }
    }
}

/// Whose search decides the branching: MiniZinc's `-f` (free search) in three choices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SearchChoice {
    /// The model's search annotation (cpsolve's own search where there is none), with the
    /// variables it leaves to activity when the search learns: MiniZinc without `-f`.
    #[default]
    Model,
    /// cpsolve's own search, the annotation ignored: MiniZinc's `-f`. Where the search
    /// learns by default, the annotation is still tried first as a probe that goes on while
    /// it projects to finish soon ([`cpsolve_engine::SearchConfig::probe`]), so a short
    /// model-driven search keeps its quick proofs (cvrp simple2 of the public instances).
    Free,
    /// [`SearchChoice::Free`] where one solution or an optimum is wanted and the search
    /// learns; the annotation otherwise (an enumeration lists its solutions in the
    /// annotation's order). For a user who does not know which search suits the model:
    /// free search proved twice as many held-out hard instances as the annotations did
    /// (notes/learning.md).
    Auto,
}

/// When decisions prefer the newest solution's values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PhaseSaving {
    /// In cpsolve's own search (free search, or a model without annotations), not in an
    /// annotated one, whose value order the model chose. Measured on the 34 optimisation
    /// instances of `tests/minizinc/`, free search, 10 s each: 27 proved with it, 26
    /// without (notes/flatzinc.md).
    #[default]
    OwnSearch,
    /// In every optimisation search.
    Always,
    Never,
}

/// How a run ended, in the FlatZinc interface's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Optimisation finished: the last solution is optimal. Satisfaction: every solution
    /// asked for was found and the search is complete.
    Complete,
    /// Solutions found, the search stopped before it was complete (as asked, or a limit).
    Satisfied,
    Unsatisfiable,
    Unknown,
}

#[derive(Debug, Clone)]
pub struct RunResult {
    pub status: Status,
    pub solutions: u128,
    pub objective: Option<Val>,
    /// The limit that stopped the search, if one did.
    pub stopped: Option<Stop>,
    pub stats: Stats,
}

/// The values of one solution: each output in order, as terms resolved.
#[derive(Debug, Clone)]
pub struct Found {
    pub values: Vec<Vec<Val>>,
    pub objective: Option<Val>,
}

/// Solves `model`, calling `on_solution` with each solution found (for optimisation, each
/// better than the one before).
pub fn solve(model: &mut Model, options: &Options, mut on_solution: impl FnMut(&Model, &Found)) -> RunResult {
    let objective = match model.goal {
        Goal::Minimize(Term::Var(x)) => Some((x, Sense::Minimize)),
        Goal::Maximize(Term::Var(x)) => Some((x, Sense::Maximize)),
        _ => None,
    };
    let optimising = objective.is_some();
    let solutions = match (optimising, options.all, options.solutions) {
        (true, _, _) => None,
        (false, true, n) => n,
        (false, false, n) => Some(n.unwrap_or(1)),
    };
    let one_answer = optimising || solutions == Some(1);
    let learning = options.learning.unwrap_or(one_answer);
    let own_search = model.annotated_search.is_empty()
        || match options.search {
            SearchChoice::Model => false,
            SearchChoice::Free => true,
            SearchChoice::Auto => one_answer && learning,
        };
    let branching = if own_search { model.free_search.clone() } else { model.annotated_search.clone() };
    let activity = match options.activity {
        Some(activity) => activity,
        None if own_search && model.count_first => ActivitySearch::Rest,
        None if own_search => OWN_SEARCH_ACTIVITY,
        None => ActivitySearch::Rest,
    };
    // Restarts pay only where the order learns from failures and one answer is wanted.
    let learns =
        branching.iter().any(|b| b.var_order == VarOrder::DomWdeg) || (learning && activity != ActivitySearch::Off);
    let scale =
        options.restart_scale.unwrap_or(if learning { SearchConfig::LEARNING_RESTART_SCALE } else { RESTART_SCALE });
    let restart_scale = (learns && one_answer && scale > 0).then_some(scale);
    // The first solution is always new: only an enumeration has repeats to skip, and then
    // the count of distinct answers, not the engine's, decides when to stop.
    let mut distinct = (options.distinct_outputs && !optimising && solutions != Some(1))
        .then(|| Distinct { seen: HashSet::new(), wanted: solutions });
    let engine_solutions = if distinct.is_some() { None } else { solutions };
    // The model's own search may finish before learning pays: a plain depth-first search
    // of it goes first, while it projects to finish soon. Not where learning was asked for,
    // nor for an order that restarts (its tree changes at each restart). Where cpsolve's
    // own search decides a count's terms first, that rule is what proves the models whose
    // annotated tree is large but not too large to pass the probe (parity-learning: 0.2 s
    // that way, 12 s by its annotation), so the probe there gets an eighth of the budget: a
    // small annotated tree is still kept, a tree of parity-learning's size gives way.
    let count_first = own_search && model.count_first;
    let probe = (options.probe
        && learning
        && options.learning.is_none()
        && !model.annotated_search.is_empty()
        && model.annotated_search.iter().all(|b| b.var_order != VarOrder::DomWdeg))
    .then(|| Probe {
        branching: model.annotated_search.clone(),
        max_propagations: if count_first { COUNT_FIRST_PROBE_PROPAGATIONS } else { Probe::DEFAULT_PROPAGATIONS },
        look_every: Probe::LOOK_EVERY,
        overrun: Probe::OVERRUN,
    });
    let config = SearchConfig {
        branching,
        limits: Limits {
            time: options.timeout,
            solutions: engine_solutions,
            nodes: options.nodes,
            ..Limits::default()
        },
        objective,
        restart_scale,
        nogoods: options.nogoods,
        learning,
        activity,
        activity_over: options.activity_over,
        final_search: options.final_search,
        probe,
        phase_saving: optimising
            && match options.phase_saving {
                PhaseSaving::OwnSearch => own_search,
                PhaseSaving::Always => true,
                PhaseSaving::Never => false,
            },
        ..SearchConfig::default()
    };
    let outputs = model.outputs.clone();
    let written = std::mem::take(&mut model.written);
    let fzn_terms: Vec<Term> = model.fzn_vars.iter().map(|(_, t)| *t).collect();
    let mut best = None;
    let mut solver = std::mem::take(&mut model.solver);
    let outcome = solver.search(&config, |s: &Solution<'_>| {
        let value_of = |x: VarId| s.value(x);
        if options.verify {
            let fzn_value = |i: usize| fzn_terms[i].value(&value_of);
            if let Some(broken) = check::violated(&written, &fzn_value) {
                panic!("cpsolve found a solution that violates the FlatZinc constraint {broken}");
            }
        }
        let found = Found {
            values: outputs.iter().map(|o| o.terms.iter().map(|t| t.value(&value_of)).collect()).collect(),
            objective: match model.goal {
                Goal::Minimize(t) | Goal::Maximize(t) => Some(t.value(&value_of)),
                Goal::Satisfy => None,
            },
        };
        best = found.objective;
        if let Some(distinct) = distinct.as_mut() {
            if !distinct.seen.insert(found.values.clone()) {
                return ControlFlow::Continue(());
            }
            on_solution(model, &found);
            return match distinct.wanted {
                Some(n) if distinct.seen.len() as u128 >= n => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            };
        }
        on_solution(model, &found);
        ControlFlow::Continue(())
    });
    model.solver = solver;
    model.written = written;
    let (found, stopped) = match distinct {
        // Stopped at the distinct answers asked for: as the engine's own solution limit.
        Some(distinct) => (
            distinct.seen.len() as u128,
            outcome.stopped.map(|s| if s == Stop::Callback { Stop::Solutions } else { s }),
        ),
        None => (outcome.solutions, outcome.stopped),
    };
    let complete = stopped.is_none();
    let status = match (found, complete) {
        (0, true) => Status::Unsatisfiable,
        (0, false) => Status::Unknown,
        (_, true) => Status::Complete,
        (_, false) => Status::Satisfied,
    };
    // A satisfaction search stopped by the solution count it was asked for is not a limit.
    let stopped = stopped.filter(|&s| s != Stop::Solutions);
    RunResult { status, solutions: found, objective: best, stopped, stats: model.solver.stats().clone() }
}

/// The answers an enumeration has reported, by their output values.
struct Distinct {
    seen: HashSet<Vec<Vec<Val>>>,
    wanted: Option<u128>,
}

/// One solution as the FlatZinc output: `name = value;` lines, then `----------`.
pub fn format_solution(outputs: &[Output], found: &Found) -> String {
    let mut text = String::new();
    for (output, values) in outputs.iter().zip(&found.values) {
        let show = |v: Val| match output.kind {
            Kind::Bool => (if v != 0 { "true" } else { "false" }).to_string(),
            Kind::Int => v.to_string(),
        };
        match &output.dims {
            None => {
                let _ = writeln!(text, "{} = {};", output.name, show(values[0]));
            }
            Some(dims) => {
                let sets: Vec<String> = dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
                let items: Vec<String> = values.iter().map(|&v| show(v)).collect();
                let _ = writeln!(
                    text,
                    "{} = array{}d({}, [{}]);",
                    output.name,
                    dims.len(),
                    sets.join(", "),
                    items.join(", ")
                );
            }
        }
    }
    text.push_str("----------\n");
    text
}

/// The line that ends the output, if the status has one.
pub fn status_line(status: Status, optimising_or_all: bool) -> Option<&'static str> {
    match status {
        Status::Complete if optimising_or_all => Some("=========="),
        Status::Unsatisfiable => Some("=====UNSATISFIABLE====="),
        Status::Unknown => Some("=====UNKNOWN====="),
        _ => None,
    }
}
