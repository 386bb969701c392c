//! One node of the search: opening its level, applying a branch, propagating with the
//! objective's bound, and reading the limits.

use std::time::Instant;

use crate::branch::Decision;
use crate::domain::Val;
use crate::solver::Solver;

use super::config::{Limits, SearchConfig, Sense, Stop};
use super::conflict::{Chronological, ConflictHandler, Learning};

/// How often (in nodes) the clock and the cancel flag are read.
const CHECK_EVERY: u64 = 256;

impl Solver {
    /// Opens the search's root level and propagates it, for `config`: learning starts
    /// here (its history's root is this level), the selector takes `config`'s groups, and
    /// every propagator runs once (a previous search may have consumed the queue). Returns
    /// whether the root propagated without failing, and the handler of the search's
    /// failures from here on.
    pub(super) fn open_root(
        &mut self,
        config: &SearchConfig,
        track: bool,
        backjump: bool,
        bound: Option<Val>,
    ) -> (bool, Box<dyn ConflictHandler>) {
        if config.learning && !track && !config.resumable {
            self.start_learning(config);
        }
        let mut conflicts: Box<dyn ConflictHandler> =
            if self.is_learning() { Box::new(Learning { backjump }) } else { Box::new(Chronological) };
        // Where activity takes every decision the groups are never asked, and keeping
        // their scores up to date would cost at every domain change and every propagator
        // that dies or wakes.
        if !self.activity_only() {
            self.selector.prepare(&mut self.store, &self.weights, &config.branching);
        }
        self.open_level();
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(crate::ids::PropId(p as u32));
            }
        }
        // Phases saved by an earlier search steer this one only if it saves phases too.
        if !config.phase_saving {
            self.phases.clear();
        }
        let ok = self.propagate_node(conflicts.as_mut(), config, bound);
        (ok, conflicts)
    }

    /// Opens a level, applies one side of a decision and propagates.
    pub(super) fn branch(
        &mut self,
        conflicts: &mut dyn ConflictHandler,
        decision: Decision,
        right: bool,
        config: &SearchConfig,
        bound: Option<Val>,
    ) -> bool {
        self.stats.nodes += 1;
        self.open_level();
        self.set_decision_cause(decision.literal(right));
        if self.store.apply(decision.literal(right)).is_err() {
            self.stats.failures += 1;
            self.store.queue.clear();
            return false;
        }
        self.propagate_node(conflicts, config, bound)
    }

    /// Applies the branch-and-bound cut, then propagates to a fixpoint; a failure of a
    /// propagator goes to `conflicts`.
    pub(super) fn propagate_node(
        &mut self,
        conflicts: &mut dyn ConflictHandler,
        config: &SearchConfig,
        bound: Option<Val>,
    ) -> bool {
        let bound = match (config.objective, &config.shared_bound) {
            (Some((_, sense)), Some(shared)) => shared.tighten(bound, sense),
            _ => bound,
        };
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
            conflicts.on_conflict(self);
        }
        ok
    }

    /// The limit reached, if one is: the node limit at once, a stop requested on the run's
    /// token at once, the clock and the cancel flag every [`CHECK_EVERY`] nodes.
    pub(super) fn check_limits(&self, limits: &Limits, start: Instant, start_nodes: u64) -> Option<Stop> {
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
