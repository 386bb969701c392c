//! Depth-first search with a trail.
//!
//! Each decision opens a trail level; a failure or a solution closes levels until a
//! decision whose right branch has not been tried, and tries it. Nothing is copied per
//! node. The same loop serves every mode: the caller's solution callback decides whether
//! to go on (all, count, at most N) or stop (first), and branch and bound tightens the
//! objective after every solution.
//!
//! A search may also be *resumed*: stopped on its node limit, it leaves its decision stack
//! (each decision with whether its right branch is the one taken) in the solver, and the
//! next resumable search replays that stack — one level per decision, the same branch
//! applied and propagated — and goes on from the very node where the other stopped.
//! Propagation is deterministic, so the replayed state is the one left; replaying costs the
//! depth of the stack, not the nodes explored, and is not counted as nodes. Searching a few
//! problems in turns with growing budgets (a portfolio) then spends each budget on new
//! nodes instead of exploring the same top of the tree again every turn.
//!
//! Undoing the trail when a search stops is what lets the solver be searched again; a
//! caller that will not ([`SearchConfig::final_search`]: a process that prints what was
//! found and exits) skips it, since a deep search's trail can take a quarter of a second to
//! undo after the time limit. The solver is then left at the node where the search stopped.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::branch::{Branching, Decision};
use crate::domain::Val;
use crate::ids::VarId;
use crate::probe::ProbeRun;
use crate::solver::Solver;
use crate::store::Store;

/// Effort counters of a search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Branches taken (left and right).
    pub nodes: u64,
    /// Nodes where propagation failed.
    pub failures: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Solutions found (counted ones included).
    pub solutions: u128,
    /// The deepest the decision stack went.
    pub max_depth: usize,
    /// Times the search went back to the root to start again.
    pub restarts: u64,
    /// Nogoods posted at restarts ([`SearchConfig::nogoods`]).
    pub nogoods: u64,
    /// Nogoods learned from failures and kept ([`SearchConfig::learning`]).
    pub learned: u64,
    /// Learned nogoods forgotten since (at restarts, the database keeps the best).
    pub forgotten: u64,
    /// Failures that taught a nogood already kept: the database missed a propagation
    /// (it should be rare; a diagnostic).
    pub relearned: u64,
    /// The work learning did: nogoods visited by the database plus literals cited by
    /// conflict analysis (a deterministic measure of its cost, beside `propagations`).
    pub learning_work: u64,
    /// Propagations of a probe that gave way to the main search ([`SearchConfig::probe`]).
    pub probe_propagations: u64,
    /// Changes that learned nogoods made (their unit propagations).
    pub nogood_prunings: u64,
    /// Failures whose conflict was a learned nogood.
    pub nogood_conflicts: u64,
    /// Time spent searching (building the model not included).
    pub time: Duration,
}

impl Stats {
    /// Adds the counters of another search (a parallel worker's) to these; the depth is the
    /// larger of the two.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.propagations += other.propagations;
        self.solutions += other.solutions;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.restarts += other.restarts;
        self.nogoods += other.nogoods;
        self.learned += other.learned;
        self.forgotten += other.forgotten;
        self.relearned += other.relearned;
        self.learning_work += other.learning_work;
        self.probe_propagations += other.probe_propagations;
        self.nogood_prunings += other.nogood_prunings;
        self.nogood_conflicts += other.nogood_conflicts;
        self.time += other.time;
    }
}

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
    fn reached(&self, start: Instant, stop: &crate::StopToken) -> Option<Stop> {
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
    /// undoing its trail, and leaves the solver *spent* ([`Solver::is_spent`]). Undoing a
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
}

impl Probe {
    /// How often a probe projects its tree's work, in nodes: early enough to cost little
    /// where it gives way (a few hundredths of a second on the scheduling instances), late
    /// enough for subtrees near the leaves to be finished (cvrp's first projection, at 1,024
    /// nodes, was 84 million propagations for the 99 million the tree took).
    pub const LOOK_EVERY: u64 = 1024;
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

/// The `k`-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: the
/// universal restart schedule of Luby, Sinclair and Zuckerman (1993), within a constant
/// factor of the best fixed schedule for any run-time distribution.
pub fn luby(k: u64) -> u64 {
    let mut k = k.max(1);
    loop {
        // The smallest 2^i - 1 that is >= k.
        let mut power = 1u64;
        while power - 1 < k {
            power *= 2;
        }
        if power - 1 == k {
            return power / 2;
        }
        k -= power / 2 - 1;
    }
}

impl SearchConfig {
    /// True when the search order depends only on the current node, not on what the search
    /// met before (dom/wdeg learns from failures). Only then does solving split subtrees in
    /// fresh solvers list the solutions in the sequential order.
    pub fn is_history_free(&self) -> bool {
        self.branching.iter().all(|b| b.var_order != crate::VarOrder::DomWdeg)
    }
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Solutions found by this search (with an objective: the improving ones).
    pub solutions: u128,
    /// `None` when the whole tree was explored (so a count is exact and an optimum proven).
    pub stopped: Option<Stop>,
}

/// A read-only view of a solution, valid during the callback.
#[derive(Debug)]
pub struct Solution<'a> {
    store: &'a Store,
    /// The decisions leading here (only filled while splitting).
    path: &'a [Fixing],
}

/// One step from the root towards a subtree: a decision, or the negation of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fixing {
    /// `x = v`
    Eq(VarId, Val),
    /// `x ≠ v`
    Ne(VarId, Val),
    /// `x ≤ v`
    Le(VarId, Val),
    /// `x > v`
    Gt(VarId, Val),
}

/// A subtree of the search, as the fixings on the path from the root to it.
pub type Subproblem = Vec<Fixing>;

impl Fixing {
    /// The variable it fixes or bounds.
    pub fn var(self) -> VarId {
        match self {
            Fixing::Eq(x, _) | Fixing::Ne(x, _) | Fixing::Le(x, _) | Fixing::Gt(x, _) => x,
        }
    }

    /// The opposite step: the other branch of the same decision.
    pub fn negated(self) -> Fixing {
        match self {
            Fixing::Eq(x, v) => Fixing::Ne(x, v),
            Fixing::Ne(x, v) => Fixing::Eq(x, v),
            Fixing::Le(x, v) => Fixing::Gt(x, v),
            Fixing::Gt(x, v) => Fixing::Le(x, v),
        }
    }

    /// Whether `value` (the variable's value in a full assignment) satisfies it.
    pub fn holds_for(self, value: Val) -> bool {
        match self {
            Fixing::Eq(_, v) => value == v,
            Fixing::Ne(_, v) => value != v,
            Fixing::Le(_, v) => value <= v,
            Fixing::Gt(_, v) => value > v,
        }
    }
}

impl Decision {
    fn fixing(self, right: bool) -> Fixing {
        match (self, right) {
            (Decision::Assign(x, v), false) => Fixing::Eq(x, v),
            (Decision::Assign(x, v), true) => Fixing::Ne(x, v),
            (Decision::LessEq(x, v), false) => Fixing::Le(x, v),
            (Decision::LessEq(x, v), true) => Fixing::Gt(x, v),
            (Decision::Greater(x, v), false) => Fixing::Gt(x, v),
            (Decision::Greater(x, v), true) => Fixing::Le(x, v),
        }
    }
}

impl Solution<'_> {
    /// The value of `x` in this solution (every variable is fixed in a solution).
    pub fn value(&self, x: VarId) -> Val {
        self.store.domains[x.index()].min
    }
}

/// The place where a resumable search stopped: its decision stack, each decision with
/// whether its right branch is the one taken, and whether the newest branch propagated
/// without failing.
#[derive(Debug, Clone)]
pub(crate) struct Resume {
    stack: Vec<(Decision, bool)>,
    ok: bool,
}

/// How often (in nodes) the clock and the cancel flag are read.
const CHECK_EVERY: u64 = 256;

impl Solver {
    /// Explores the search tree, calling `on_solution` for each solution found. The solver
    /// is back in its root state afterwards, so it can be searched again (unless the search
    /// was [`SearchConfig::final_search`] and stopped early).
    pub fn search(
        &mut self,
        config: &SearchConfig,
        on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Outcome {
        self.explore(config, None, on_solution, |_| {})
    }

    /// Splits the search tree into at least `target` disjoint subtrees that together cover
    /// it (fewer when the tree is smaller), in the order depth-first search meets them, so
    /// that solving them in turn and concatenating gives the sequential search's answer.
    /// This is embarrassingly parallel search (Régin et al., 2013): the subtrees run
    /// independently, on threads or on other machines.
    pub fn split(&mut self, config: &SearchConfig, target: usize) -> Vec<Subproblem> {
        let mut config = config.clone();
        config.limits = Limits::default();
        config.objective = None;
        // Each depth searches the tree again, even after a stop.
        config.final_search = false;
        // Solutions above the cutoff are parts too: they must reach the callback.
        config.count_only = false;
        let mut depth = 1;
        loop {
            // Solutions above the cutoff and cut subtrees, interleaved in the order met.
            let parts = std::cell::RefCell::new(Vec::<Subproblem>::new());
            let mut cut = 0;
            let _ = self.explore(
                &config,
                Some(depth),
                |s| {
                    parts.borrow_mut().push(s.path.to_vec());
                    ControlFlow::Continue(())
                },
                |path| {
                    cut += 1;
                    parts.borrow_mut().push(path.to_vec());
                },
            );
            let parts = parts.into_inner();
            // Stop once there are enough parts, or when no part was cut at the limit: the
            // whole tree is already listed.
            if parts.len() >= target || cut == 0 {
                return parts;
            }
            depth += 1;
        }
    }

    /// Whether, after propagation at the root, one constraint alone would count all the
    /// solutions (so that splitting the tree would only slow the count down).
    pub fn counts_at_root(&mut self, config: &SearchConfig) -> bool {
        self.assert_not_spent();
        if self.is_failed() {
            return false;
        }
        self.store.open_level();
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(crate::ids::PropId(p as u32));
            }
        }
        let counts = self.propagate_node(config, None) && self.sole_counter().is_some();
        self.store.close_level();
        self.store.queue.clear();
        counts
    }

    /// The one propagator left below this node: the only one alive, covering every
    /// unfixed variable.
    fn sole_propagator(&mut self) -> Option<usize> {
        self.selector.sole_propagator(&mut self.store)
    }

    /// The one propagator left that could count the solutions below this node: the only
    /// one alive, covering every unfixed variable, and able to count.
    fn sole_counter(&mut self) -> Option<usize> {
        let p = self.sole_propagator()?;
        let cx = crate::propagator::Context { store: &mut self.store };
        self.props[p].can_count_solutions(&cx).then_some(p)
    }

    /// Applies the fixings of a subproblem at the root. `false` if that empties a domain.
    pub fn apply(&mut self, fixings: &[Fixing]) -> bool {
        self.assert_not_spent();
        for &f in fixings {
            if self.store.apply(f).is_err() {
                self.fail();
            }
        }
        !self.is_failed()
    }

    /// The search loop. With `cutoff`, nodes at that depth are leaves handed to `on_cutoff`.
    fn explore(
        &mut self,
        config: &SearchConfig,
        cutoff: Option<usize>,
        mut on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
        mut on_cutoff: impl FnMut(&[Fixing]),
    ) -> Outcome {
        self.assert_not_spent();
        let start = Instant::now();
        let start_nodes = self.stats.nodes;
        let mut outcome = Outcome { solutions: 0, stopped: None };
        if self.is_failed() {
            return outcome;
        }
        let mut bound: Option<Val> = None;
        let mut stack: Vec<(Decision, bool)> = Vec::new();
        // The path as fixings, kept only when someone needs it.
        let mut path: Vec<Fixing> = Vec::new();
        let track = cutoff.is_some();
        let base_depth = self.store.trail.depth();
        // Nogoods posted at restarts get the ids from here on.
        let first_nogood = self.props.len();
        // A probe runs first where it may: it wants one answer, and no mode of its own.
        let main = config;
        let one_answer = main.objective.is_some() || main.limits.solutions == Some(1);
        let probe_config = main
            .probe
            .as_ref()
            .filter(|_| one_answer && !track && !main.resumable && !main.count_only && !main.project)
            .map(|probe| SearchConfig {
                branching: probe.branching.clone(),
                restart_scale: None,
                phase_saving: false,
                learning: false,
                activity: ActivitySearch::Off,
                probe: None,
                ..main.clone()
            });
        let mut config: &SearchConfig = probe_config.as_ref().unwrap_or(main);
        let mut probe = probe_config
            .as_ref()
            .and(main.probe.as_ref())
            .map(|probe| ProbeRun::new(probe, self.stats.nodes, self.stats.propagations));
        let mut ok = self.open_root(config, track, bound);
        let resumable = config.resumable && config.objective.is_none() && config.restart_scale.is_none() && !track;
        let saved = self.resume.take();
        if let (true, true, Some(saved)) = (resumable, ok, saved) {
            ok = self.replay(saved, &mut stack, config);
        }
        let mut restarts = 0u64;
        let mut restart_at = self.first_restart(config);
        // With `project`: which variables the groups name, and the depth of the stack where
        // the decisions on the others began (below it, one solution is enough).
        let project = config.project && config.objective.is_none() && !track;
        let mut in_groups = Vec::new();
        if project {
            in_groups = vec![false; self.num_vars()];
            for group in &config.branching {
                for x in &group.vars {
                    in_groups[x.index()] = true;
                }
            }
        }
        let mut others_from: Option<usize> = None;
        let mut backjump = self.backjumps(config, cutoff, project);
        // The dedicated solvers' stop test holds its own clone: `self` is busy with them.
        let token = self.stop.clone();
        'search: loop {
            if ok && cutoff == Some(stack.len()) && self.next_decision(&config.branching).is_some() {
                on_cutoff(&path);
                ok = false;
            }
            let stop = || config.limits.reached(start, &token).is_some();
            if ok && config.first_only && cutoff.is_none() {
                match self.dedicated_solution(&stop) {
                    Some(Ok(Some(values))) => {
                        // Make the solution the current node, so that it reads like any other.
                        self.store.open_level();
                        stack.push((Decision::Assign(VarId(0), 0), true));
                        let p = self.sole_propagator().expect("checked by dedicated_solution");
                        let vars = self.props[p].vars();
                        ok = vars.iter().zip(&values).all(|(&x, &v)| self.store.assign(x, v).is_ok())
                            && self.propagate_queue()
                            && self.next_decision(&config.branching).is_none();
                        assert!(ok, "the dedicated solution of {} is not a solution", self.props[p].name());
                    }
                    Some(Ok(None)) => ok = false,
                    Some(Err(_)) => {
                        outcome.stopped = config.limits.reached(start, &self.stop);
                        break 'search;
                    }
                    None => {}
                }
            }
            // A dedicated count counts every variable's values; with `project`, only where
            // the one constraint left is over the groups' variables alone (asked only when
            // counting: listing the constraint's variables costs their number).
            let mut countable = || {
                !project
                    || self.sole_propagator().is_some_and(|p| self.props[p].vars().iter().all(|x| in_groups[x.index()]))
            };
            if ok && config.count_only && cutoff.is_none() && countable() {
                match self.dedicated_count(&stop) {
                    Some(Ok(n)) => {
                        outcome.solutions += n;
                        self.stats.solutions += n;
                        ok = false;
                    }
                    Some(Err(_)) => {
                        outcome.stopped = config.limits.reached(start, &self.stop);
                        break 'search;
                    }
                    None => {}
                }
            }
            if ok {
                match self.next_decision(&config.branching) {
                    Some(decision) => {
                        if project && others_from.is_none() && !in_groups[decision.fixing(false).var().index()] {
                            others_from = Some(stack.len());
                        }
                        if let Some(probe) = probe.as_mut() {
                            let x = decision.fixing(false).var();
                            probe.progress.decide(
                                stack.len(),
                                decision,
                                &self.store.domains[x.index()],
                                self.stats.nodes,
                            );
                        }
                        stack.push((decision, false));
                        if track {
                            path.push(decision.fixing(false));
                        }
                        self.stats.max_depth = self.stats.max_depth.max(stack.len());
                        ok = self.branch(decision, false, config, bound);
                        let right = stack.iter().map(|&(_, right)| right);
                        let gave_way =
                            probe.as_mut().and_then(|p| p.gives_way(self.stats.nodes, self.stats.propagations, right));
                        if let Some(work) = gave_way {
                            // Back to before the root, and the main search from there.
                            while stack.pop().is_some() {
                                self.store.close_level();
                            }
                            self.store.close_level();
                            self.store.queue.clear();
                            self.selector.release(&mut self.store);
                            self.stats.probe_propagations += work;
                            config = main;
                            probe = None;
                            ok = self.open_root(config, track, bound);
                            backjump = self.backjumps(config, cutoff, project);
                            restart_at = self.first_restart(config);
                            if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                                outcome.stopped = Some(stop);
                                break 'search;
                            }
                            continue 'search;
                        }
                        if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                            outcome.stopped = Some(stop);
                            break 'search;
                        }
                        continue;
                    }
                    None => {
                        if config.check_solutions {
                            if let Some((p, name)) = self.violated_constraint() {
                                panic!("propagator {} ({name}) accepted a solution that violates it", p.index());
                            }
                        }
                        if self.store.lossy && self.violated_constraint().is_some() {
                            self.stats.failures += 1;
                        } else {
                            outcome.solutions += 1;
                            self.stats.solutions += 1;
                            if let Some((obj, _)) = config.objective {
                                bound = Some(self.min(obj));
                            }
                            if config.phase_saving {
                                self.save_phases();
                            }
                            let flow = if config.count_only {
                                ControlFlow::Continue(())
                            } else {
                                on_solution(&Solution { store: &self.store, path: &path })
                            };
                            if flow.is_break() {
                                outcome.stopped = Some(Stop::Callback);
                                break 'search;
                            }
                            if config.limits.solutions.is_some_and(|n| outcome.solutions >= n) {
                                outcome.stopped = Some(Stop::Solutions);
                                break 'search;
                            }
                        }
                    }
                }
            }
            // Backjump: where a restart may go back to the root (one solution or an optimum is
            // wanted), a failure that taught a nogood goes back to the level where the nogood
            // asserts, and propagates it there, instead of trying the other side of the last
            // decision (the decisions in between are taken again later, as after a restart).
            // A restart that is due goes first: it goes back further than any backjump.
            let restart_due = restart_at.is_some_and(|at| self.stats.failures >= at) && cutoff.is_none();
            if !ok && backjump {
                if self.learner.exhausted {
                    break 'search;
                }
                if let (false, Some(depth)) = (restart_due, self.learner.assert_depth.take()) {
                    let keep = depth.saturating_sub(base_depth + 1);
                    // Only left branches may be dropped: a right branch stands for a refuted
                    // subtree that no nogood may have captured.
                    if keep < stack.len() && stack[keep..].iter().all(|&(_, right)| !right) {
                        while stack.len() > keep {
                            stack.pop();
                            self.store.close_level();
                        }
                        self.post_learned();
                        ok = self.propagate_node(config, bound);
                        if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                            outcome.stopped = Some(stop);
                            break 'search;
                        }
                        continue 'search;
                    }
                }
            }
            // Restart: back to the root, whose propagated state is the first level.
            if let Some(at) = restart_at {
                if self.stats.failures >= at && !stack.is_empty() && cutoff.is_none() {
                    // A refuted left branch is a nogood unless a solution that still counts
                    // may lie below it (an enumeration past its first solution).
                    let refuted = config.objective.is_some() || outcome.solutions == 0;
                    let nogoods = if config.nogoods && refuted {
                        crate::propagators::nogood::from_branch(
                            stack.iter().map(|&(d, right)| (d.fixing(false), right)),
                        )
                    } else {
                        Vec::new()
                    };
                    while stack.pop().is_some() {
                        self.store.close_level();
                    }
                    self.post_learned();
                    self.reduce_learned();
                    for nogood in nogoods {
                        if let Some(id) = self.post(Box::new(crate::propagators::Nogood::new(nogood))) {
                            // It weighs in dom/wdeg once it has failed, not before.
                            self.weights[id.index()] = 0;
                            self.stats.nogoods += 1;
                        }
                    }
                    path.clear();
                    self.next_run();
                    restarts += 1;
                    let scale = config.restart_scale.unwrap_or(1);
                    restart_at = Some(self.stats.failures + scale * luby(restarts + 1));
                    self.stats.restarts += 1;
                    ok = self.propagate_node(config, bound);
                    if !ok {
                        // The bound cut or the root itself failed: nothing is left.
                        break 'search;
                    }
                    continue 'search;
                }
            }
            // With `project`, a solution below the groups' last decision ends that subtree.
            if let (true, Some(depth)) = (ok, others_from) {
                while stack.len() > depth {
                    stack.pop();
                    self.store.close_level();
                }
                others_from = None;
            }
            // Backtrack to the newest decision whose right branch is untried.
            loop {
                let Some(&(decision, right_done)) = stack.last() else {
                    break 'search;
                };
                self.store.close_level();
                if track {
                    path.pop();
                }
                // Nogoods learned below, and those whose propagation the backtrack undid,
                // propagate at this node, where they hold (not only below the next branch,
                // whose backtrack would undo them while they still hold here).
                if self.post_learned() && !self.propagate_node(config, bound) {
                    // This node fails: neither branch of its decision is left to try.
                    stack.pop();
                    continue;
                }
                if !right_done {
                    let top = stack.len() - 1;
                    stack[top].1 = true;
                    if let Some(probe) = probe.as_mut() {
                        probe.progress.turn_right(top, self.stats.nodes);
                    }
                    if track {
                        path.push(decision.fixing(true));
                    }
                    if others_from.is_some_and(|depth| stack.len() <= depth) {
                        // Back on a decision of the groups.
                        others_from = None;
                    }
                    ok = self.branch(decision, true, config, bound);
                    break;
                }
                stack.pop();
            }
            if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                outcome.stopped = Some(stop);
                break 'search;
            }
        }
        if config.final_search && outcome.stopped.is_some() {
            // Left as it is for the caller to drop, or to exit without dropping.
            self.spent = true;
        } else {
            if resumable && outcome.stopped == Some(Stop::Nodes) {
                self.resume = Some(Resume { stack, ok });
            }
            while self.store.trail.depth() > base_depth {
                self.store.close_level();
            }
        }
        self.store.queue.clear();
        self.stop_learning();
        // The nogoods hold under this search's bound only: the next search starts without.
        if self.props.len() > first_nogood {
            self.props.truncate(first_nogood);
            self.weights.truncate(first_nogood);
            self.store.forget_props_from(first_nogood);
        }
        self.selector.release(&mut self.store);
        self.stats.time += start.elapsed();
        outcome
    }

    /// Whether a failure that taught a nogood jumps back to where it asserts: where a
    /// restart may go back to the root (one solution or an optimum is wanted), not in a
    /// split (`cutoff`) nor below the groups' last decision (`project`).
    fn backjumps(&self, config: &SearchConfig, cutoff: Option<usize>, project: bool) -> bool {
        self.is_learning() && config.restart_scale.is_some() && cutoff.is_none() && !project
    }

    /// The failure count at which the first run of `config` ends, if it restarts.
    fn first_restart(&self, config: &SearchConfig) -> Option<u64> {
        config.restart_scale.map(|scale| self.stats.failures + scale * luby(1))
    }

    /// Opens the search's root level and propagates it, for `config`: learning starts
    /// here (its history's root is this level), the selector takes `config`'s groups, and
    /// every propagator runs once (a previous search may have consumed the queue).
    fn open_root(&mut self, config: &SearchConfig, track: bool, bound: Option<Val>) -> bool {
        if config.learning && !track && !config.resumable {
            self.start_learning(config.check_solutions, config.activity, config.learned_kept);
        }
        self.selector.prepare(&mut self.store, &self.weights, &config.branching);
        self.store.open_level();
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(crate::ids::PropId(p as u32));
            }
        }
        // Phases saved by an earlier search steer this one only if it saves phases too.
        if !config.phase_saving {
            self.phases.clear();
        }
        self.propagate_node(config, bound)
    }

    /// Rebuilds the node where a resumable search stopped, from the propagated root: each
    /// saved decision opens a level with the branch taken, as [`Solver::branch`] did. The
    /// newest branch, if it failed, is not propagated again (that would count the failure,
    /// and raise a dom/wdeg weight, twice): an empty level stands for it, which the search
    /// closes at once as it backtracks. Returns whether the node propagated without failing.
    fn replay(&mut self, saved: Resume, stack: &mut Vec<(Decision, bool)>, config: &SearchConfig) -> bool {
        let nodes = self.stats.nodes;
        let last = saved.stack.len().saturating_sub(1);
        for (i, &(decision, right)) in saved.stack.iter().enumerate() {
            stack.push((decision, right));
            if i == last && !saved.ok {
                self.store.open_level();
                break;
            }
            let ok = self.branch(decision, right, config, None);
            // Propagation that is not deterministic is a propagator bug, as is a solution
            // accepted that violates a constraint (`check_solutions`): going on would miss
            // or repeat solutions, so say so.
            assert!(
                ok,
                "replaying a resumed search failed where the search had not: a propagator is not deterministic"
            );
        }
        // Replaying is not searching.
        self.stats.nodes = nodes;
        saved.ok
    }

    /// The count of the subtree by the one constraint left, if it can count it: every
    /// unfixed variable must be one of that constraint's.
    fn dedicated_solution(
        &mut self,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Result<Option<Vec<Val>>, crate::Interrupted>> {
        let p = self.sole_propagator()?;
        let cx = crate::propagator::Context { store: &mut self.store };
        self.props[p].find_solution(&cx, stop)
    }

    fn dedicated_count(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Option<Result<u128, crate::Interrupted>> {
        let p = self.sole_counter()?;
        let cx = crate::propagator::Context { store: &mut self.store };
        self.props[p].count_solutions(&cx, stop)
    }

    /// Opens a level, applies one side of a decision and propagates.
    fn branch(&mut self, decision: Decision, right: bool, config: &SearchConfig, bound: Option<Val>) -> bool {
        self.stats.nodes += 1;
        self.store.open_level();
        self.set_decision_cause(decision.fixing(right));
        if self.store.apply(decision.fixing(right)).is_err() {
            self.stats.failures += 1;
            self.store.queue.clear();
            return false;
        }
        self.propagate_node(config, bound)
    }

    /// Applies the branch-and-bound cut, then propagates to a fixpoint.
    fn propagate_node(&mut self, config: &SearchConfig, bound: Option<Val>) -> bool {
        if let (Some((obj, sense)), Some(best)) = (config.objective, bound) {
            self.set_cause(crate::learn::history::Cause::Axiom);
            let cut = match sense {
                Sense::Minimize => self.store.set_max(obj, best - 1),
                Sense::Maximize => self.store.set_min(obj, best + 1),
            };
            if cut.is_err() {
                self.stats.failures += 1;
                self.store.queue.clear();
                return false;
            }
        }
        let ok = self.propagate_queue();
        if ok && self.learner.verify && self.is_learning() {
            if let Some(nogood) = self.learner.db.missed(&self.store) {
                panic!("the learned nogood {nogood:?} should have propagated at this fixpoint");
            }
        }
        if !ok {
            self.stats.failures += 1;
            if let (true, Some(p)) = (self.is_learning(), self.failed_by) {
                self.learn_from(p);
            }
        }
        ok
    }

    fn check_limits(&self, limits: &Limits, start: Instant, start_nodes: u64) -> Option<Stop> {
        if let Some(n) = limits.nodes {
            if self.stats.nodes - start_nodes >= n {
                return Some(Stop::Nodes);
            }
        }
        if self.stats.nodes % CHECK_EVERY != 0 {
            // A stop requested on the run's token costs one load to see: see it at once,
            // since a node of a huge model may take long.
            return self.stop.requested();
        }
        limits.reached(start, &self.stop)
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
