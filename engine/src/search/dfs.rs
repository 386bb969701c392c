//! The search loop: depth-first search, branch and bound, and the solutions met.
//!
//! Everything else is asked of a part with one job (see the module doc of
//! [`crate::search`]): the brancher for the next decision, the conflict handler after a
//! failure, the restart strategy whether to start again, the probe whether to give way.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::branch::Decision;
use crate::domain::Val;
use crate::ids::VarId;
use crate::literal::Literal;
use crate::solver::Solver;

use super::brancher::{Brancher, Groups};
use super::config::{SearchConfig, Stop};
use super::conflict::Resolution;
use super::dedicated::Dedicated;
use super::probe::ProbeRun;
use super::restart::{LubyRestarts, RestartStrategy};
use super::resume::Resume;
use super::{Outcome, Solution};

/// The variables the branching groups name, and where the decisions on the others began:
/// with [`SearchConfig::project`], one solution below that depth is enough.
#[derive(Debug)]
struct Projection {
    in_groups: Vec<bool>,
    others_from: Option<usize>,
}

impl Projection {
    fn new(solver: &Solver, config: &SearchConfig) -> Projection {
        let mut in_groups = vec![false; solver.num_vars()];
        for group in &config.branching {
            for x in &group.vars {
                in_groups[x.index()] = true;
            }
        }
        Projection { in_groups, others_from: None }
    }

    /// A decision on `x` is about to be pushed at stack depth `depth`.
    fn decide(&mut self, x: VarId, depth: usize) {
        if self.others_from.is_none() && !self.in_groups[x.index()] {
            self.others_from = Some(depth);
        }
    }
}

impl Solver {
    /// The search loop. With `cutoff`, nodes at that depth are leaves handed to `on_cutoff`.
    pub(super) fn explore(
        &mut self,
        config: &SearchConfig,
        cutoff: Option<usize>,
        mut on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
        mut on_cutoff: impl FnMut(&[Literal]),
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
        // The path as literals, kept only when a split needs it.
        let track = cutoff.is_some();
        let mut path: Vec<Literal> = Vec::new();
        let base_depth = self.store.trail.depth();
        // Nogoods posted at restarts get the ids from here on.
        let first_nogood = self.props.len();
        let main = config;
        let probe_phase = main.probe_phase(track);
        let mut config: &SearchConfig = probe_phase.as_ref().map_or(main, |(probe_config, _)| probe_config);
        let mut probe =
            probe_phase.as_ref().map(|(_, probe)| ProbeRun::new(probe, self.stats.nodes, self.stats.propagations));
        let mut projection =
            (config.project && config.objective.is_none() && !track).then(|| Projection::new(self, config));
        let projecting = projection.is_some();
        let backjumps = |config: &SearchConfig| config.restart_scale.is_some() && !track && !projecting;
        let (mut ok, mut conflicts) = self.open_root(config, track, backjumps(config), bound);
        let resumable = config.resumable && config.objective.is_none() && config.restart_scale.is_none() && !track;
        let saved = self.resume.take();
        if let (true, true, Some(saved)) = (resumable, ok, saved) {
            ok = self.replay(saved, &mut stack, conflicts.as_mut(), config);
        }
        let mut restarts = LubyRestarts::of(config, self.stats.failures).filter(|_| !track);
        // The dedicated solvers' stop test holds its own clone: `self` is busy with them.
        let token = self.stop.clone();
        'search: loop {
            let mut brancher = Groups(&config.branching);
            if ok && cutoff == Some(stack.len()) && brancher.next_decision(self).is_some() {
                on_cutoff(&path);
                ok = false;
            }
            let stop = || config.limits.reached(start, &token).is_some();
            if ok && config.first_only && !track {
                match self.dedicated_solution(&stop) {
                    Dedicated::Solved(values) => {
                        stack.push((Decision::Assign(VarId(0), 0), true));
                        self.enter_dedicated_solution(&values, |s| brancher.next_decision(s).is_none());
                    }
                    Dedicated::NoSolution => ok = false,
                    Dedicated::Interrupted => {
                        outcome.stopped = config.limits.reached(start, &self.stop);
                        break 'search;
                    }
                    Dedicated::NotHere | Dedicated::Counted(_) => {}
                }
            }
            // A dedicated count counts every variable's values; with a projection, only
            // where the one constraint left is over the groups' variables alone (asked only
            // when counting: listing the constraint's variables costs their number).
            let countable = |s: &mut Solver| {
                projection.as_ref().is_none_or(|proj| {
                    s.sole_propagator().is_some_and(|p| s.props[p].vars().iter().all(|x| proj.in_groups[x.index()]))
                })
            };
            if ok && config.count_only && !track && countable(self) {
                match self.dedicated_count(&stop) {
                    Dedicated::Counted(n) => {
                        outcome.solutions += n;
                        self.stats.solutions += n;
                        ok = false;
                    }
                    Dedicated::Interrupted => {
                        outcome.stopped = config.limits.reached(start, &self.stop);
                        break 'search;
                    }
                    _ => {}
                }
            }
            if ok {
                match brancher.next_decision(self) {
                    Some(decision) => {
                        let x = decision.literal(false).var();
                        if let Some(projection) = projection.as_mut() {
                            projection.decide(x, stack.len());
                        }
                        if let Some(probe) = probe.as_mut() {
                            probe.progress.decide(
                                stack.len(),
                                decision,
                                &self.store.domains[x.index()],
                                self.stats.nodes,
                            );
                        }
                        stack.push((decision, false));
                        if track {
                            path.push(decision.literal(false));
                        }
                        self.stats.max_depth = self.stats.max_depth.max(stack.len());
                        ok = self.branch(conflicts.as_mut(), decision, false, config, bound);
                        let right = stack.iter().map(|&(_, right)| right);
                        let gave_way =
                            probe.as_mut().and_then(|p| p.gives_way(self.stats.nodes, self.stats.propagations, right));
                        if let Some(work) = gave_way {
                            // The main search, from its own root, with the probe's bound.
                            self.leave_probe(&mut stack, work);
                            config = main;
                            probe = None;
                            (ok, conflicts) = self.open_root(config, track, backjumps(config), bound);
                            restarts = LubyRestarts::of(config, self.stats.failures).filter(|_| !track);
                        }
                        if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                            outcome.stopped = Some(stop);
                            break 'search;
                        }
                        continue 'search;
                    }
                    None => {
                        if let ControlFlow::Break(stop) =
                            self.at_solution(config, &mut outcome, &mut bound, &path, &mut on_solution)
                        {
                            outcome.stopped = stop;
                            break 'search;
                        }
                        if let Some(probe) = probe.as_mut() {
                            probe.improved();
                        }
                    }
                }
            }
            let restart_due = restarts.as_ref().is_some_and(|r| r.is_due(self.stats.failures));
            if !ok {
                match conflicts.resolve(self, &stack, base_depth, restart_due) {
                    Resolution::Exhausted => break 'search,
                    Resolution::Backjump { keep } => {
                        while stack.len() > keep {
                            stack.pop();
                            self.store.close_level();
                        }
                        self.post_learned();
                        ok = self.propagate_node(conflicts.as_mut(), config, bound);
                        if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                            outcome.stopped = Some(stop);
                            break 'search;
                        }
                        continue 'search;
                    }
                    Resolution::Backtrack => {}
                }
            }
            if let (true, Some(strategy)) = (restart_due && !stack.is_empty(), restarts.as_mut()) {
                let refuted = config.objective.is_some() || outcome.solutions == 0;
                self.restart(&mut stack, config, refuted);
                path.clear();
                strategy.restarted(self.stats.failures);
                ok = self.propagate_node(conflicts.as_mut(), config, bound);
                if !ok {
                    // The bound cut or the root itself failed: nothing is left.
                    break 'search;
                }
                continue 'search;
            }
            // With a projection, a solution below the groups' last decision ends that subtree.
            if let (true, Some(depth)) = (ok, projection.as_ref().and_then(|p| p.others_from)) {
                while stack.len() > depth {
                    stack.pop();
                    self.store.close_level();
                }
                if let Some(projection) = projection.as_mut() {
                    projection.others_from = None;
                }
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
                if self.post_learned() && !self.propagate_node(conflicts.as_mut(), config, bound) {
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
                        path.push(decision.literal(true));
                    }
                    if let Some(projection) = projection.as_mut() {
                        if projection.others_from.is_some_and(|depth| stack.len() <= depth) {
                            // Back on a decision of the groups.
                            projection.others_from = None;
                        }
                    }
                    ok = self.branch(conflicts.as_mut(), decision, true, config, bound);
                    break;
                }
                stack.pop();
            }
            if let Some(stop) = self.check_limits(&config.limits, start, start_nodes) {
                outcome.stopped = Some(stop);
                break 'search;
            }
        }
        self.end_search(config, &outcome, resumable, Resume { stack, ok }, base_depth, first_nogood);
        self.stats.time += start.elapsed();
        outcome
    }

    /// Every variable is fixed: a solution, unless a lossy domain (an interval that kept a
    /// removed value) let a violated constraint through. Counts it, tightens the bound,
    /// saves the phases, and reports it; `Break` with why the search stops.
    fn at_solution(
        &mut self,
        config: &SearchConfig,
        outcome: &mut Outcome,
        bound: &mut Option<Val>,
        path: &[Literal],
        on_solution: &mut impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> ControlFlow<Option<Stop>> {
        if config.check_solutions {
            if let Some((p, name)) = self.violated_constraint() {
                panic!("propagator {} ({name}) accepted a solution that violates it", p.index());
            }
        }
        if self.store.lossy && self.violated_constraint().is_some() {
            self.stats.failures += 1;
            return ControlFlow::Continue(());
        }
        outcome.solutions += 1;
        self.stats.solutions += 1;
        if let Some((obj, sense)) = config.objective {
            *bound = Some(self.min(obj));
            if let Some(shared) = &config.shared_bound {
                shared.offer(self.min(obj), sense);
            }
        }
        if config.phase_saving {
            self.save_phases();
        }
        let flow = if config.count_only {
            ControlFlow::Continue(())
        } else {
            on_solution(&Solution { store: &self.store, path })
        };
        if flow.is_break() {
            return ControlFlow::Break(Some(Stop::Callback));
        }
        if config.limits.solutions.is_some_and(|n| outcome.solutions >= n) {
            return ControlFlow::Break(Some(Stop::Solutions));
        }
        ControlFlow::Continue(())
    }

    /// After the loop: keeps the place of a resumable search stopped on its node limit,
    /// undoes the trail (unless a final search stopped early), stops learning and forgets
    /// the nogoods posted at restarts (they hold under this search's bound only).
    fn end_search(
        &mut self,
        config: &SearchConfig,
        outcome: &Outcome,
        resumable: bool,
        place: Resume,
        base_depth: usize,
        first_nogood: usize,
    ) {
        if config.final_search && outcome.stopped.is_some() {
            // Left as it is for the caller to drop, or to exit without dropping.
            self.spent = true;
        } else {
            if resumable && outcome.stopped == Some(Stop::Nodes) {
                self.resume = Some(place);
            }
            while self.store.trail.depth() > base_depth {
                self.store.close_level();
            }
        }
        self.store.queue.clear();
        self.stop_learning();
        if self.props.len() > first_nogood {
            self.props.truncate(first_nogood);
            self.weights.truncate(first_nogood);
            self.store.forget_props_from(first_nogood);
        }
        self.selector.release(&mut self.store);
    }
}
