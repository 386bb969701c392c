//! Effort counters of a search: what it did, summed over the searches of a solver.

use std::time::Duration;

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
    /// Nogoods posted at restarts ([`SearchConfig::nogoods`](super::SearchConfig::nogoods)).
    pub nogoods: u64,
    /// Nogoods learned from failures and kept
    /// ([`SearchConfig::learning`](super::SearchConfig::learning)).
    pub learned: u64,
    /// Learned nogoods forgotten since (at restarts, the database keeps the best).
    pub forgotten: u64,
    /// Failures that taught a nogood already kept: the database missed a propagation
    /// (it should be rare; a diagnostic).
    pub relearned: u64,
    /// The work learning did: nogoods visited by the database plus literals cited by
    /// conflict analysis (a deterministic measure of its cost, beside `propagations`).
    pub learning_work: u64,
    /// Propagations of a probe that gave way to the main search
    /// ([`SearchConfig::probe`](super::SearchConfig::probe)).
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
