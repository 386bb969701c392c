//! Below a node where one constraint alone is left on the unfixed variables, that
//! constraint's own algorithm may count its solutions or find one, faster than search
//! ([`crate::Propagator::count_solutions`], [`crate::Propagator::find_solution`]): the
//! shifted all-different counts n-queens' completions, for instance.

use std::time::Instant;

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::Share;
use crate::solver::Solver;
use crate::Interrupted;

use super::config::SearchConfig;
use super::conflict::Chronological;

/// What a dedicated algorithm did at a node.
#[derive(Debug)]
pub(super) enum Dedicated {
    /// None applies here: the search goes on.
    NotHere,
    /// The node's solutions were counted.
    Counted(u128),
    /// One solution: the values of the constraint's variables, in its order.
    Solved(Vec<Val>),
    /// The node has no solution.
    NoSolution,
    /// A limit struck while it ran.
    Interrupted,
}

impl Solver {
    /// Whether, after propagation at the root, one constraint alone would count all the
    /// solutions (so that splitting the tree would only slow the count down).
    pub fn counts_at_root(&mut self, config: &SearchConfig) -> bool {
        self.assert_not_spent();
        if self.is_failed() {
            return false;
        }
        self.open_level();
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(crate::ids::PropId(p as u32));
            }
        }
        let counts = self.propagate_node(&mut Chronological, config, None) && self.sole_counter().is_some();
        self.store.close_level();
        self.store.queue.clear();
        counts
    }

    /// One share of the count that one constraint alone makes at the root, after
    /// propagation ([`crate::Propagator::count_solutions_share`]): the shares `0..of` add up
    /// to the number of solutions. `None` when no constraint counts the root's solutions on
    /// its own (the tree must then be searched); `Err` when `config`'s limits stopped it.
    /// This is how a part of a split count keeps the dedicated count's speed (and its
    /// symmetries) instead of searching the subtrees above it.
    pub fn count_share_at_root(&mut self, config: &SearchConfig, share: Share) -> Option<Result<u128, Interrupted>> {
        self.assert_not_spent();
        if self.is_failed() {
            return Some(Ok(0));
        }
        let start = Instant::now();
        self.open_level();
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(crate::ids::PropId(p as u32));
            }
        }
        let counted = if !self.propagate_node(&mut Chronological, config, None) {
            // No solution: every share counts none.
            Some(Ok(0))
        } else if let Some(p) = self.sole_counter().filter(|&p| self.counts_every_solution(config, p)) {
            let token = self.stop.clone();
            let limits = config.limits.clone();
            let stop = move || limits.reached(start, &token).is_some();
            let cx = crate::propagator::Context { store: &mut self.store };
            self.props[p].count_solutions_share(&cx, &stop, share)
        } else {
            None
        };
        self.store.close_level();
        self.store.queue.clear();
        if let Some(Ok(n)) = counted {
            self.stats.solutions += n;
        }
        self.stats.time += start.elapsed();
        counted
    }

    /// Whether counting `p`'s completions counts the search's solutions: always, but with
    /// [`SearchConfig::project`] only when `p` is over the groups' variables alone (its
    /// count counts every variable's values).
    fn counts_every_solution(&self, config: &SearchConfig, p: usize) -> bool {
        !config.project || {
            let vars = self.props[p].vars();
            vars.iter().all(|x| config.branching.iter().any(|group| group.vars.contains(x)))
        }
    }

    /// The one propagator left below this node: the only one alive, covering every
    /// unfixed variable.
    pub(super) fn sole_propagator(&mut self) -> Option<usize> {
        self.selector.sole_propagator(&mut self.store)
    }

    /// The one propagator left that could count the solutions below this node: the only
    /// one alive, covering every unfixed variable, and able to count.
    fn sole_counter(&mut self) -> Option<usize> {
        let p = self.sole_propagator()?;
        let cx = crate::propagator::Context { store: &mut self.store };
        self.props[p].can_count_solutions(&cx).then_some(p)
    }

    /// Finds one solution below this node by the one constraint left, if it can: the
    /// values of that constraint's variables ([`Dedicated::Solved`]).
    pub(super) fn dedicated_solution(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Dedicated {
        let Some(p) = self.sole_propagator() else { return Dedicated::NotHere };
        let cx = crate::propagator::Context { store: &mut self.store };
        match self.props[p].find_solution(&cx, stop) {
            None => Dedicated::NotHere,
            Some(Err(Interrupted)) => Dedicated::Interrupted,
            Some(Ok(None)) => Dedicated::NoSolution,
            Some(Ok(Some(values))) => Dedicated::Solved(values),
        }
    }

    /// Makes the dedicated solution `values` the current node, in a level of its own, so
    /// that it reads like any other solution: assigned, propagated, and with nothing left
    /// to decide (which `no_decision_left` checks).
    pub(super) fn enter_dedicated_solution(
        &mut self,
        values: &[Val],
        no_decision_left: impl FnOnce(&mut Solver) -> bool,
    ) {
        self.open_level();
        let p = self.sole_propagator().expect("a dedicated solution came from the one constraint left");
        let vars: Vec<VarId> = self.props[p].vars();
        let ok = vars.iter().zip(values).all(|(&x, &v)| self.store.assign(x, v).is_ok())
            && self.propagate_queue()
            && no_decision_left(self);
        assert!(ok, "the dedicated solution of {} is not a solution", self.props[p].name());
    }

    /// Counts the solutions below this node by the one constraint left, if it can.
    pub(super) fn dedicated_count(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Dedicated {
        let Some(p) = self.sole_counter() else { return Dedicated::NotHere };
        let cx = crate::propagator::Context { store: &mut self.store };
        match self.props[p].count_solutions(&cx, stop) {
            None => Dedicated::NotHere,
            Some(Ok(n)) => Dedicated::Counted(n),
            Some(Err(Interrupted)) => Dedicated::Interrupted,
        }
    }
}
