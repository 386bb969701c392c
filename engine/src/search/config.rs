//! What to search for: the goal, the limits, the branching, and the search's options.
//!
//! A [`SearchConfig`] says everything a search needs besides the model. Some of its options
//! only make sense together (restarts want one solution or an optimum; a resumable search
//! and a split do not learn): each option's doc says where it applies, and a combination
//! that does not apply is ignored.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::branch::Branching;
use crate::ids::VarId;

/// Bounds on the effort of a search. Reaching one stops the search cleanly.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Wall-clock time for this search (read every 256 nodes).
    pub time: Option<Duration>,
    /// Stop once this many solutions were found.
    pub solutions: Option<u128>,
    /// Stop once this many branches were taken.
    pub nodes: Option<u64>,
    /// Another thread may set this to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A stop requested on the run's token, the time limit or the cancel flag, if one has
    /// been reached.
    pub(super) fn reached(&self, start: Instant, stop: &crate::StopToken) -> Option<Stop> {
        if let Some(stop) = stop.requested() {
            Some(stop)
        } else if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(Stop::Cancelled)
        } else if self.time.is_some_and(|t| start.elapsed() >= t) {
            Some(Stop::Time)
        } else {
            None
        }
    }
}

/// Why a search stopped before exploring the whole tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// [`Limits::time`] ran out, or a stop was requested for the time ([`crate::StopToken`]).
    Time,
    /// The run ran out of the memory it may use (requested on its [`crate::StopToken`]).
    Memory,
    /// [`Limits::solutions`] solutions were found.
    Solutions,
    /// [`Limits::nodes`] branches were taken.
    Nodes,
    /// [`Limits::cancel`] was set, or a stop was requested on the run's
    /// [`crate::StopToken`] for another reason than time or memory.
    Cancelled,
    /// The solution callback asked to stop.
    Callback,
}

/// The direction of optimisation in [`SearchConfig::objective`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    /// Each solution after the first has a smaller objective.
    Minimize,
    /// Each solution after the first has a larger objective.
    Maximize,
}

/// What to search for.
#[derive(Debug, Clone, Default)]
pub struct SearchConfig {
    /// The groups of variables to branch on, in order (empty: every variable in input order,
    /// smallest value first).
    pub branching: Vec<Branching>,
    /// When to stop early.
    pub limits: Limits,
    /// Branch and bound: every solution after the first must be strictly better.
    pub objective: Option<(VarId, Sense)>,
    /// With an objective: a bound shared with searches of other parts of the same model's
    /// tree (`shared_bound.rs`). Each improving solution is offered to it, and every node
    /// is cut with the better of it and the search's own bound. A search that finishes has
    /// then searched its tree only for solutions better than the shared bound.
    pub shared_bound: Option<super::SharedBound>,
    /// Check every solution against every constraint's `is_satisfied` and panic on a
    /// violation: a propagator bug. For tests; costs a pass over all constraints per solution.
    pub check_solutions: bool,
    /// Only the number of solutions is wanted: `on_solution` is not called, and where one
    /// constraint alone remains on the unfixed variables, its dedicated counting algorithm
    /// ([`crate::Propagator::count_solutions`]) replaces the search below that node.
    pub count_only: bool,
    /// Only one solution is wanted: where one constraint alone remains on the unfixed
    /// variables, its dedicated algorithm ([`crate::Propagator::find_solution`]) may find
    /// it instead of the search. The search then ends after that solution.
    pub first_only: bool,
    /// Restart from the root after `scale × luby(k)` failures in the `k`-th run. Only for
    /// a search that wants one solution or an optimum (a restarted enumeration would list
    /// solutions again), and only useful with an order that learns (dom/wdeg): each run
    /// starts with the failure weights of the runs before.
    pub restart_scale: Option<u64>,
    /// Solution-based phase saving (Demirović, Chu and Stuckey, CP 2018): once a solution
    /// is found, each decision tries first the value its variable had in the newest
    /// solution, when that value is still possible. With branch and bound and restarts,
    /// the search then explores around the incumbent, as a local search would.
    pub phase_saving: bool,
    /// With restarts: at each restart, post the reduced nld-nogoods of the branch left
    /// ([`crate::propagators::Nogood`]), so that later runs do not search again the subtrees
    /// already refuted. They are forgotten when the search ends.
    pub nogoods: bool,
    /// Keep the place where the search stopped on [`Limits::nodes`], and go on from a place
    /// kept by the previous resumable search of this solver instead of starting at the root
    /// (see the module doc). Only for a satisfaction search without restarts: with an
    /// objective or a restart scale this is ignored (the bound and the restart schedule are
    /// not part of the place kept). Every resumed search must use the same configuration,
    /// apart from its limits, and the model must not change in between. A search that ends
    /// any other way (the whole tree explored, the callback stopping it, a solution or time
    /// limit) forgets the place, as does a search that is not resumable.
    pub resumable: bool,
    /// The solutions are the values of the branching groups' variables: once a node fixes
    /// all of them, one way to fix the other variables is enough, and the search goes back
    /// to the groups' last decision. Without it, two solutions that differ only in a
    /// variable no group names (a model's local, unconstrained variable) count twice. Only
    /// for a search without an objective (the objective may depend on those variables).
    pub project: bool,
    /// The caller will not search this solver again: a search that stops before exploring
    /// the whole tree (a limit, a solution limit, the callback) returns at once, without
    /// undoing its trail, and leaves the solver *spent* ([`Solver::is_spent`](crate::Solver::is_spent)). Undoing a
    /// deep search's trail costs about as much as writing it did not (debruijn_binary 03_08
    /// from the MiniZinc collection: 6,558 levels, 1.1 GB of trail, a quarter of a second),
    /// and a process that will only print what it found and exit has no use for the root
    /// state. The statistics are the same either way. A spent solver's domains are those of
    /// the node where the search stopped; searching, splitting, applying fixings, posting or
    /// propagating on it again is a caller's bug and panics. Not for a resumable search
    /// (the next one replays from the root), which it overrides.
    pub final_search: bool,
    /// Learn from failures ([`crate::learn`]): each failure's conflict is analysed into a
    /// nogood, implied by the constraints, that is kept for the rest of the search and
    /// prunes the same failure under other decisions. The tree explored is the same tree
    /// with failed subtrees cut, so counts, enumerations and optima do not change. Not for
    /// a resumable search or a split (it is ignored there).
    pub learning: bool,
    /// With [`SearchConfig::learning`]: which decisions follow the variables' activity
    /// (`learn/activity.rs`: the variables the recent conflicts met most) instead of the
    /// branching groups. Ignored without learning.
    pub activity: ActivitySearch,
    /// What a decision by activity ranks ([`ActivityOver`]).
    pub activity_over: ActivityOver,
    /// With [`SearchConfig::learning`] and restarts: how many learned nogoods, beyond those
    /// of at most two levels, survive the first pruning of the database (it grows by 300 at
    /// each one after); `None`: 2,000. Pruning happens at a restart once the database
    /// holds twice that many.
    pub learned_kept: Option<usize>,
    /// Before this search, a plain depth-first search over [`Probe::branching`] (no
    /// learning, no restarts, no saved phases) that goes on while it will finish soon, as
    /// it projects from the share of its tree explored (`probe.rs`). When it finishes, that
    /// is the search's answer; when the projection passes [`Probe::max_propagations`], the
    /// search goes back to the root and runs as configured, with the probe's best bound
    /// and the limits as they stand (not the probe's solution as phases: on cyclic-rcpsp
    /// medium_3 that took the learning search 91 k nodes instead of 53 k). Only for one
    /// solution or an optimum; ignored for a count, an enumeration, a resumable search,
    /// with `project`, or in a split.
    pub probe: Option<Probe>,
}

/// The plain search [`SearchConfig::probe`] tries first.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// Its branching groups (they should not restart: dom/wdeg's do).
    pub branching: Vec<Branching>,
    /// It gives way once the propagations its whole tree would take, as projected, or those
    /// it has done, pass this.
    pub max_propagations: u64,
    /// How often, in nodes, it projects ([`Probe::LOOK_EVERY`] unless a test wants it
    /// sooner); it gives way at the first look that projects nothing explored.
    pub look_every: u64,
    /// It gives way once it has done this many times the work its first look projected:
    /// the tree is then unlike the estimate's ([`Probe::OVERRUN`] unless said otherwise).
    pub overrun: f64,
}

impl Probe {
    /// How much a probe may cost, in propagations, where the front ends learn by default
    /// ([`SearchConfig::learn_by_default`]): about 18 s of cvrp's at this machine's pace.
    /// Measured on the public MiniZinc instances at 20 s (notes/learning.md, "a probe of
    /// the model's own search"): cvrp simple2 projects 84 M at the first look and takes
    /// 99 M, which no learning search proves; the scheduling instances learning proves
    /// project a million times this or more, and give way at the first look.
    pub const DEFAULT_PROPAGATIONS: u64 = 1 << 27;

    /// How often a probe projects its tree's work, in nodes: early enough to cost little
    /// where it gives way (a few hundredths of a second on the scheduling instances), late
    /// enough for subtrees near the leaves to be finished (cvrp's first projection, at 1,024
    /// nodes, was 84 million propagations for the 99 million the tree took).
    pub const LOOK_EVERY: u64 = 1024;

    /// How far past its first projection a probe of a MiniZinc model's annotation may go: a
    /// nonogram's projection grew with the work, at about 1.4 times it, from 34 thousand to
    /// 8 million propagations; cvrp's stayed within 30% of its first, 84 million, to the end
    /// at 99 million.
    pub const OVERRUN: f64 = 2.0;

    /// How far past its first projection a probe of a `.puz` model's own order may go. That
    /// order is dom/wdeg unless the model says otherwise, whose first projection is lower
    /// still: a Golomb ruler of 10 marks projects 0.89 million propagations at 1,024 nodes
    /// and its plain search proves the optimum in 10 million (0.7 s), where learning takes
    /// 30 s and more. The budget ([`Probe::DEFAULT_PROPAGATIONS`]) still bounds it.
    pub const OVERRUN_OWN_ORDER: f64 = 16.0;
}

/// Which decisions a learning search takes by activity ([`SearchConfig::activity`]). A
/// decision by activity tries the variable's value in the newest solution first (with
/// [`SearchConfig::phase_saving`]), else its smallest value (`x ≤ min`, whose other side
/// `x > min` is a bound, which explains better than a hole).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ActivitySearch {
    /// None: the groups, then the variables they leave in input order.
    #[default]
    Off,
    /// The groups, then the variables they leave by activity.
    Rest,
    /// The runs between restarts alternate: the first as [`ActivitySearch::Rest`], the
    /// next by activity alone, and so on (Chuffed's free search with an annotation).
    Alternate,
    /// Every decision by activity: the groups only say nothing.
    Only,
}

/// What a decision by activity ([`SearchConfig::activity`]) ranks by the conflicts that met
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ActivityOver {
    /// The literals (`x ≤ 8`, `x = 3`) the conflicts met (`learn/literal_activity.rs`): the
    /// most active open one is decided, on its saved side; variable activity decides where
    /// no such literal is open. Chuffed's and Huub's free search: the thresholds conflicts
    /// name are what a proof needs decided (notes/learning.md, "Activity over literals").
    #[default]
    Literals,
    /// The variables the conflicts met (`learn/activity.rs`), each decided to its smallest
    /// value (`x ≤ min`) or its saved phase.
    Variables,
}

impl SearchConfig {
    /// The restart scale of a search that learns from failures: it keeps what it learned
    /// across restarts (nogoods, activities), so it restarts sooner than dom/wdeg alone. On
    /// the hard instances of notes/learning.md, 20 s each: 11 of 28 proved with 100, 9 with
    /// 1000.
    pub const LEARNING_RESTART_SCALE: u64 = 100;

    /// Makes this search, a model's own that wants one solution or an optimum, learn the way
    /// that pays by default: the model's order goes first as a plain depth-first
    /// [`Probe`], without learning, for as long as it projects to finish soon (easy models
    /// keep their tree and their answer, with none of learning's cost per node); then a
    /// learning search decides by activity, restarts every
    /// [`SearchConfig::LEARNING_RESTART_SCALE`] × luby(k) failures with the refuted
    /// subtrees kept as nogoods, and, when optimising, tries each variable's value in the
    /// newest solution first. The probe runs the model's order as that order's plain search
    /// does, without restarts, so a search that restarts already gets none (its tree changes
    /// at every restart); dom/wdeg without restarts is one tree like any other. The solution
    /// shown may be another optimum, or another first solution, than the model's order alone
    /// would show.
    pub fn learn_by_default(&mut self) {
        self.learning = true;
        self.activity = ActivitySearch::Only;
        self.phase_saving = self.objective.is_some();
        let restarts = self.restart_scale.is_some();
        self.probe = (!restarts).then(|| Probe {
            branching: self.branching.clone(),
            max_propagations: Probe::DEFAULT_PROPAGATIONS,
            look_every: Probe::LOOK_EVERY,
            overrun: Probe::OVERRUN_OWN_ORDER,
        });
        self.restart_scale = Some(Self::LEARNING_RESTART_SCALE);
        self.nogoods = true;
        // One answer is wanted: which other variables' values come with it does not
        // matter, and a projected search neither probes nor backjumps.
        self.project = false;
    }

    /// True when the search order depends only on the current node, not on what the search
    /// met before (dom/wdeg learns from failures). Only then does solving split subtrees in
    /// fresh solvers list the solutions in the sequential order.
    pub fn is_history_free(&self) -> bool {
        self.branching.iter().all(|b| b.var_order != crate::VarOrder::DomWdeg)
    }
}
