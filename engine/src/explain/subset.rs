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
use crate::propagator::{Context, PropStatus};
use crate::solver::Solver;

/// A narrowing of one variable's domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Narrowing {
    /// Keep only these values (sorted).
    Within(VarId, Vec<Val>),
    /// Remove these values.
    Without(VarId, Vec<Val>),
}

impl Solver {
    /// Opens a level and leaves awake only the propagators marked in `subset`.
    pub(crate) fn enter_subset(&mut self, subset: &[bool]) {
        self.store.queue.clear();
        self.store.open_level();
        for (p, &keep) in subset.iter().enumerate() {
            if !keep && self.store.alive[p] {
                self.store.kill(PropId(p as u32));
            }
        }
    }

    /// Undoes everything since the matching [`Solver::enter_subset`].
    pub(crate) fn leave_subset(&mut self) {
        self.store.close_level();
        self.store.queue.clear();
    }

    /// Applies a narrowing; `false` if a domain became empty.
    pub(crate) fn narrow(&mut self, narrowing: &Narrowing) -> bool {
        match narrowing {
            Narrowing::Within(x, keep) => {
                let (Some(&lo), Some(&hi)) = (keep.first(), keep.last()) else { return false };
                // The bounds first, in one change each: a fact is most often an interval,
                // and long models have wide domains.
                if self.store.set_min(*x, lo).is_err() || self.store.set_max(*x, hi).is_err() {
                    return false;
                }
                if keep.len() as u64 == self.size(*x) {
                    return true;
                }
                let drop: Vec<Val> = self.values(*x).filter(|v| keep.binary_search(v).is_err()).collect();
                drop.iter().all(|&v| self.store.remove(*x, v).is_ok())
            }
            Narrowing::Without(x, drop) => drop.iter().all(|&v| self.store.remove(*x, v).is_ok()),
        }
    }

    /// Queues every awake propagator and runs them to a fixpoint. A propagator that removed
    /// a value, or failed, is marked in `active` when given. `false` on conflict.
    pub(crate) fn run_awake(&mut self, active: Option<&mut [bool]>) -> bool {
        for p in 0..self.props.len() {
            if self.store.alive[p] {
                self.store.queue.push(PropId(p as u32));
            }
        }
        self.run_queued(active)
    }

    /// Runs the queued propagators (those woken by changes since the last fixpoint) to a
    /// fixpoint; as [`Solver::run_awake`] otherwise.
    pub(crate) fn run_queued(&mut self, mut active: Option<&mut [bool]>) -> bool {
        while let Some(p) = self.store.queue.pop() {
            if !self.store.alive[p.index()] {
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
