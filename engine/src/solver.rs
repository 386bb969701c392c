//! The solver facade: create variables, post propagators, propagate, search.

use std::fmt;

use crate::domain::{Domain, DomainValues, Val};
use crate::ids::{PropId, VarId};
use crate::outcome::PropStatus;
use crate::propagator::{Context, NotifyContext, PostContext, Propagator};
use crate::search::Stats;
use crate::store::Store;

/// Values must lie in `[-VAL_LIMIT, VAL_LIMIT]`, so that differences and sums of a few of
/// them never overflow an `i64`.
pub const VAL_LIMIT: Val = 1 << 60;

/// A model the engine refuses, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// A variable was declared with no value.
    EmptyDomain,
    /// A domain value outside `[-VAL_LIMIT, VAL_LIMIT]`.
    ValueOutOfRange(i128),
    /// A constraint whose intermediate sums could overflow 64-bit arithmetic.
    Overflow(String),
    /// A constraint whose arguments do not fit together (a table of the wrong shape, a
    /// state that does not exist): the reason.
    InvalidArgument(String),
    /// A stop was requested on the solver's [`crate::StopToken`] while the model was being
    /// built: not a fault of the model.
    Interrupted,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::EmptyDomain => {
                write!(f, "empty domain: the variable has no possible value")
            }
            ModelError::ValueOutOfRange(v) => {
                write!(f, "value {v} is out of range (values must lie within ±2^60)")
            }
            ModelError::Overflow(what) => write!(f, "arithmetic overflow: {what}"),
            ModelError::InvalidArgument(what) => write!(f, "invalid argument: {what}"),
            ModelError::Interrupted => write!(f, "stopped by a limit while the model was built"),
        }
    }
}

impl std::error::Error for ModelError {}

/// Variables, propagators and the search state of one model.
#[derive(Debug, Default)]
pub struct Solver {
    pub(crate) store: Store,
    pub(crate) props: Vec<Box<dyn Propagator>>,
    /// Failure counts per propagator, for dom/wdeg.
    pub(crate) weights: Vec<u64>,
    /// Initial bounds of each variable (middle-out value order starts from their centre).
    pub(crate) initial: Vec<(Val, Val)>,
    /// The newest solution's values, when the search saves phases (else empty).
    pub(crate) phases: Vec<Val>,
    failed: bool,
    pub(crate) stats: Stats,
    /// Where a resumable search stopped on its node limit, for the next one to go on from
    /// (see [`crate::SearchConfig::resumable`]).
    pub(crate) resume: Option<crate::search::Resume>,
    /// A final search stopped here and left its trail (see
    /// [`crate::SearchConfig::final_search`]): the state is a node's, not the root's.
    pub(crate) spent: bool,
    /// The run's request to stop, polled with the limits (see [`crate::StopToken`]).
    pub(crate) stop: crate::StopToken,
    /// The learning state of the current search (see [`crate::learn`]).
    pub(crate) learner: crate::learn::driver::Learner,
    /// The propagator whose failure ended the last propagation, if one did.
    pub(crate) failed_by: Option<PropId>,
    /// The cursors and heaps that choose the next variable of a search.
    pub(crate) selector: crate::select::Selector,
    /// Inside an explanation's subset (`explain::subset`): which propagators may run, and
    /// the list of them, so that entering and waking the subset cost its size, not the
    /// model's.
    pub(crate) subset: Option<(Vec<bool>, Vec<PropId>)>,
}

fn check_value(v: Val) -> Result<(), ModelError> {
    if (-VAL_LIMIT..=VAL_LIMIT).contains(&v) {
        Ok(())
    } else {
        Err(ModelError::ValueOutOfRange(v as i128))
    }
}

impl Solver {
    /// An empty model: no variables, no constraints.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// An empty model whose run stops when a stop is requested on `stop` (see
    /// [`Solver::set_stop_token`]).
    pub fn with_stop_token(stop: crate::StopToken) -> Solver {
        Solver { stop, ..Solver::default() }
    }

    /// Makes `stop` the run's request to stop for this solver: its searches, and the
    /// creation of its variables, stop once a stop is requested on `stop` or any clone of it.
    /// A new solver has a token of its own that nobody else holds.
    pub fn set_stop_token(&mut self, stop: crate::StopToken) {
        self.stop = stop;
    }

    /// The solver's stop token: a clone requests a stop of this solver's run.
    pub fn stop_token(&self) -> &crate::StopToken {
        &self.stop
    }

    /// A variable with domain `lo..=hi`.
    /// Fails with [`ModelError::Interrupted`] once a stop is requested on the solver's
    /// [`StopToken`](crate::StopToken): building a huge model creates variables all along, so
    /// this is where building it stops.
    pub fn new_var(&mut self, lo: Val, hi: Val) -> Result<VarId, ModelError> {
        if self.stop.requested().is_some() {
            return Err(ModelError::Interrupted);
        }
        check_value(lo)?;
        check_value(hi)?;
        if lo > hi {
            return Err(ModelError::EmptyDomain);
        }
        self.initial.push((lo, hi));
        Ok(self.store.add_var(Domain::range(lo, hi)))
    }

    /// A variable whose domain is exactly `values` (in any order, repeats allowed).
    pub fn new_var_in(&mut self, values: &[Val]) -> Result<VarId, ModelError> {
        if self.stop.requested().is_some() {
            return Err(ModelError::Interrupted);
        }
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
            return Err(ModelError::EmptyDomain);
        };
        check_value(lo)?;
        check_value(hi)?;
        self.initial.push((lo, hi));
        Ok(self.store.add_var(Domain::from_values(&values)))
    }

    /// The number of variables created so far.
    pub fn num_vars(&self) -> usize {
        self.store.domains.len()
    }

    /// The number of propagators posted so far (a constraint may post several).
    pub fn num_propagators(&self) -> usize {
        self.props.len()
    }

    /// The smallest value left in the domain of `x` (at the root, outside a search).
    pub fn min(&self, x: VarId) -> Val {
        self.store.domains[x.index()].min
    }

    /// The largest value left in the domain of `x`.
    pub fn max(&self, x: VarId) -> Val {
        self.store.domains[x.index()].max
    }

    /// The number of values left in the domain of `x`.
    pub fn size(&self, x: VarId) -> u64 {
        self.store.domains[x.index()].size()
    }

    /// Whether `x` has a single value left.
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.store.domains[x.index()].is_fixed()
    }

    /// Whether `v` is still in the domain of `x`.
    pub fn contains(&self, x: VarId, v: Val) -> bool {
        self.store.domains[x.index()].contains(v)
    }

    /// The values left in the domain of `x`, in increasing order.
    pub fn values(&self, x: VarId) -> DomainValues<'_> {
        self.store.domains[x.index()].values()
    }

    /// True once the model is known to have no solution (a conflict at the root).
    pub fn is_failed(&self) -> bool {
        self.failed
    }

    /// Marks the model as having no solution (a constraint decided false when posted).
    pub fn fail(&mut self) {
        self.failed = true;
    }

    /// Whether a [`crate::SearchConfig::final_search`] stopped early on this solver and left
    /// it at the node where it stopped: it must not be searched again.
    pub fn is_spent(&self) -> bool {
        self.spent
    }

    /// Panics on a spent solver: its state is a node's, and its trail still holds what
    /// closing that node's levels would undo, so working from it would be wrong silently.
    pub(crate) fn assert_not_spent(&self) {
        assert!(!self.spent, "this solver's final search stopped early and left its trail: it cannot be used again");
    }

    /// The effort counters, summed over every search of this solver so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Raises the minimum of `x` to `v`, at the root; the model fails if no value is left.
    /// Direct root-level pruning, for models that know a domain before posting anything.
    pub fn set_min(&mut self, x: VarId, v: Val) {
        self.assert_not_spent();
        self.failed |= self.store.set_min(x, v).is_err();
    }

    /// Lowers the maximum of `x` to `v`, at the root; the model fails if no value is left.
    pub fn set_max(&mut self, x: VarId, v: Val) {
        self.assert_not_spent();
        self.failed |= self.store.set_max(x, v).is_err();
    }

    /// Removes `v` from the domain of `x`, at the root; the model fails if no value is left.
    pub fn remove(&mut self, x: VarId, v: Val) {
        self.assert_not_spent();
        self.failed |= self.store.remove(x, v).is_err();
    }

    /// Removes from `x` every value for which `keep` says no, at the root, all at once (see
    /// [`Context::retain`]); the model fails if no value is left.
    pub fn retain(&mut self, x: VarId, keep: impl Fn(Val) -> bool) {
        self.assert_not_spent();
        self.failed |= Context { store: &mut self.store }.retain(x, |_, v| keep(v)).is_err();
    }

    /// Keeps of `x` only the values of `sorted` (increasing; values `x` does not have are
    /// ignored), at root, all at once (see [`Context::keep_only`]); the model fails if none
    /// is left.
    pub fn keep_only(&mut self, x: VarId, sorted: &[Val]) {
        self.assert_not_spent();
        self.failed |= Context { store: &mut self.store }.keep_only(x, sorted).is_err();
    }

    /// Fixes `x` to `v`, at the root; the model fails if `v` is not in the domain.
    pub fn assign(&mut self, x: VarId, v: Val) {
        self.assert_not_spent();
        self.failed |= self.store.assign(x, v).is_err();
    }

    /// Adds a propagator: it subscribes, may prune or decide at once, and is queued for the
    /// first propagation. A conflict marks the model as failed.
    pub fn post(&mut self, mut prop: Box<dyn Propagator>) -> Option<PropId> {
        self.assert_not_spent();
        if self.failed {
            return None;
        }
        // Older changes go to the advisors there are; the new propagator's own state starts
        // from the domains its `post` leaves, so the changes `post` makes skip it (it is not
        // in `props` yet when they are delivered).
        self.deliver_changes();
        let id = self.store.add_prop(prop.priority());
        self.weights.push(1);
        let mut cx = PostContext { cx: Context { store: &mut self.store }, prop: id };
        match prop.post(&mut cx) {
            Err(_) => self.failed = true,
            Ok(PropStatus::Entailed) => self.store.kill(id),
            Ok(PropStatus::Active) => self.store.queue.push(id),
        }
        self.deliver_changes();
        self.props.push(prop);
        Some(id)
    }

    /// Runs queued propagators to a fixpoint. `false` on conflict (the queue is then empty).
    pub(crate) fn propagate_queue(&mut self) -> bool {
        self.failed_by = None;
        loop {
            self.deliver_changes();
            let Some(p) = self.store.queue.pop() else { break };
            if !self.store.alive[p.index()] {
                continue;
            }
            self.stats.propagations += 1;
            let result = if self.store.history.is_none() {
                self.props[p.index()].propagate(&mut Context { store: &mut self.store })
            } else {
                self.propagate_learning(p)
            };
            match result {
                Ok(PropStatus::Active) => {}
                Ok(PropStatus::Entailed) => self.store.kill(p),
                Err(_) => {
                    self.store.queue.clear();
                    // The nogood database watches every variable of every nogood: its
                    // failures would weigh on all of them alike.
                    if Some(p) != self.learner.db.slot {
                        self.weights[p.index()] += 1;
                        self.store.marks.weighed(p);
                    }
                    self.failed_by = Some(p);
                    self.deliver_changes();
                    return false;
                }
            }
        }
        true
    }

    /// Hands the changes of bounds recorded since the last delivery to their advisors
    /// ([`Propagator::notify_bounds`]), oldest first; dormant propagators, and one being
    /// posted, are skipped.
    #[inline]
    pub(crate) fn deliver_changes(&mut self) {
        if !self.store.changes.is_empty() {
            self.deliver_changes_now();
        }
    }

    fn deliver_changes_now(&mut self) {
        let mut changes = std::mem::take(&mut self.store.changes);
        for change in &changes {
            let x = change.var.index();
            for k in 0..self.store.advisors[x].len() {
                let advisor = self.store.advisors[x][k];
                let p = advisor.prop.index();
                if p < self.props.len() && self.store.alive[p] {
                    let cx = &mut NotifyContext { store: &mut self.store };
                    self.props[p].notify_bounds(cx, advisor.local, change.old, change.new);
                }
            }
        }
        changes.clear();
        debug_assert!(self.store.changes.is_empty(), "a notification changes no domain");
        self.store.changes = changes;
    }

    /// Opens a search level, once every change of bounds has reached its advisors.
    pub(crate) fn open_level(&mut self) {
        self.deliver_changes();
        self.store.open_level();
    }

    /// Propagates at the root, outside any search. `false` if the model has no solution.
    pub fn propagate(&mut self) -> bool {
        self.assert_not_spent();
        if !self.failed && !self.propagate_queue() {
            self.failed = true;
        }
        !self.failed
    }

    /// The first propagator whose constraint the current (full) assignment violates.
    /// Every variable must be fixed.
    pub fn violated_constraint(&self) -> Option<(PropId, &'static str)> {
        let value = |x: VarId| self.store.domains[x.index()].min;
        self.props.iter().enumerate().find(|(_, p)| !p.is_satisfied(&value)).map(|(i, p)| (PropId(i as u32), p.name()))
    }

    /// The variables a propagator constrains.
    pub fn propagator_vars(&self, p: PropId) -> Vec<VarId> {
        self.props[p.index()].vars()
    }

    /// The terms a propagator keeps pairwise different, when it is an all-different
    /// ([`crate::propagator::Propagator::distinct_terms`]).
    pub fn propagator_distinct_terms(&self, p: PropId) -> Option<Vec<(VarId, i64)>> {
        self.props[p.index()].distinct_terms()
    }

    /// Whether a propagator's constraint holds for a full assignment (its ground truth).
    pub fn propagator_satisfied(&self, p: PropId, value: &dyn Fn(VarId) -> Val) -> bool {
        self.props[p.index()].is_satisfied(value)
    }
}
