//! Propagating a *part* of a model from a few stated facts.
//!
//! An explanation step claims: "these constraints, from these facts, give this conclusion".
//! To test such a claim the engine must run the named constraints and nothing else, starting
//! from the named facts and nothing else. It does so on top of the model's root, in a level
//! of its own: every propagator outside the subset is put to sleep, the facts narrow the
//! domains, the subset runs to its fixpoint, and closing the level undoes it all. The root is
//! never propagated, so that nothing is ever deduced without being said.

use crate::domain::Val;
use crate::ids::{PropId, VarId};
use crate::outcome::PropStatus;
use crate::propagator::Context;
use crate::solver::Solver;

use super::values::Values;

/// A narrowing of one variable's domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Narrowing {
    /// Keep only these values.
    Within(VarId, Values),
    /// Remove these values.
    Without(VarId, Values),
}

impl Solver {
    /// Opens a level and leaves awake only the propagators marked in `subset`: the others
    /// are not killed (thousands of them, in a long model, for a probe of one), only never
    /// run while the subset lasts.
    pub(crate) fn enter_subset(&mut self, subset: &[bool]) {
        debug_assert!(self.subset.is_none(), "subsets do not nest");
        self.store.queue.clear();
        self.open_level();
        let awake = (0..subset.len()).filter(|&p| subset[p]).map(|p| PropId(p as u32)).collect();
        self.subset = Some((subset.to_vec(), awake));
    }

    /// Undoes everything since the matching [`Solver::enter_subset`].
    pub(crate) fn leave_subset(&mut self) {
        self.store.close_level();
        self.store.queue.clear();
        self.subset = None;
    }

    /// Applies a narrowing; `false` if a domain became empty. A run that reaches past a
    /// bound moves the bound, in one change: facts are most often intervals, and long
    /// models have wide domains.
    pub(crate) fn narrow(&mut self, narrowing: &Narrowing) -> bool {
        match narrowing {
            Narrowing::Within(x, keep) => {
                let (Some(lo), Some(hi)) = (keep.min(), keep.max()) else { return false };
                if self.store.set_min(*x, lo).is_err() || self.store.set_max(*x, hi).is_err() {
                    return false;
                }
                keep.runs().windows(2).all(|pair| self.remove_run(*x, pair[0].1 + 1, pair[1].0 - 1))
            }
            Narrowing::Without(x, drop) => drop.runs().iter().all(|&(lo, hi)| self.remove_run(*x, lo, hi)),
        }
    }

    /// Removes `lo..=hi` from `x`'s domain; `false` if it became empty.
    fn remove_run(&mut self, x: VarId, lo: Val, hi: Val) -> bool {
        let (min, max) = (self.min(x), self.max(x));
        if lo <= min {
            return hi < max && self.store.set_min(x, hi + 1).is_ok();
        }
        if hi >= max {
            return self.store.set_max(x, lo - 1).is_ok();
        }
        let inside: Vec<Val> = self.values_in(x, lo, hi);
        inside.iter().all(|&v| self.store.remove(x, v).is_ok())
    }

    /// `x`'s values within `lo..=hi`, ascending.
    fn values_in(&self, x: VarId, lo: Val, hi: Val) -> Vec<Val> {
        let domain = &self.store.domains[x.index()];
        let mut out = Vec::new();
        let mut v = domain.next_value(lo);
        while let Some(w) = v.filter(|&w| w <= hi) {
            out.push(w);
            v = domain.next_value(w + 1);
        }
        out
    }

    /// `x`'s domain as runs; an interval in one step.
    pub(crate) fn value_set(&self, x: VarId) -> Values {
        let (lo, hi) = (self.min(x), self.max(x));
        if self.size(x) == (hi - lo) as u64 + 1 {
            return Values::range(lo, hi);
        }
        Values::from_ascending(self.values(x))
    }

    /// Queues every awake propagator and runs them to a fixpoint. A propagator that removed
    /// a value, or failed, is marked in `active` when given. `false` on conflict.
    pub(crate) fn run_awake(&mut self, active: Option<&mut [bool]>) -> bool {
        match &self.subset {
            Some((_, awake)) => {
                for &p in awake {
                    if self.store.alive[p.index()] {
                        self.store.queue.push(p);
                    }
                }
            }
            None => {
                for p in 0..self.props.len() {
                    if self.store.alive[p] {
                        self.store.queue.push(PropId(p as u32));
                    }
                }
            }
        }
        self.run_queued(active)
    }

    /// Runs the queued propagators (those woken by changes since the last fixpoint) to a
    /// fixpoint; as [`Solver::run_awake`] otherwise.
    pub(crate) fn run_queued(&mut self, mut active: Option<&mut [bool]>) -> bool {
        loop {
            self.deliver_changes();
            let Some(p) = self.store.queue.pop() else { break };
            if !self.store.alive[p.index()] || self.subset.as_ref().is_some_and(|(mask, _)| !mask[p.index()]) {
                continue;
            }
            let before = active.as_ref().map(|_| self.scope_size(p));
            let mut cx = Context { store: &mut self.store };
            let result = self.props[p.index()].propagate(&mut cx);
            if let (Some(active), Some(before)) = (active.as_deref_mut(), before) {
                if result.is_err() || self.scope_size(p) != before {
                    active[p.index()] = true;
                }
            }
            match result {
                Ok(PropStatus::Active) => {}
                Ok(PropStatus::Entailed) => self.store.kill(p),
                Err(_) => {
                    self.store.queue.clear();
                    self.deliver_changes();
                    return false;
                }
            }
        }
        true
    }

    /// The total domain size of a propagator's variables: it shrinks exactly when the
    /// propagator removes a value.
    fn scope_size(&self, p: PropId) -> u64 {
        self.props[p.index()].vars().iter().map(|x| self.store.domains[x.index()].size()).sum()
    }
}
