//! What the search loop does for learning: start and end a history, charge changes to
//! their causes, turn a failure into a nogood, and post the nogoods learned.

use crate::ids::PropId;
use crate::learn::analyze::analyze;
use crate::learn::explain::{naive, ExplainContext};
use crate::learn::history::{Cause, History};
use crate::learn::verify::check_reason;
use crate::propagators::Nogood;
use crate::search::Fixing;
use crate::solver::Solver;

/// Nogoods longer than this are not kept: each wakes on every change of its variables, and
/// a long one rarely prunes.
pub(crate) const MAX_NOGOOD_LEN: usize = 64;

/// The learning state of one search.
#[derive(Debug, Default)]
pub(crate) struct Learner {
    /// Nogoods learned at a failure, posted once the search has backtracked.
    pending: Vec<Vec<Fixing>>,
    /// Every nogood learned by the last search, kept when it checks its work (tests).
    pub(crate) log: Vec<Vec<Fixing>>,
    /// Check explanations and keep the log.
    pub(crate) verify: bool,
}

impl Solver {
    /// Starts recording the branch's history; the search's root level is the next one.
    pub(crate) fn start_learning(&mut self, verify: bool) {
        let root_level = self.store.trail.depth() as u32 + 1;
        self.store.history = Some(Box::new(History::new(&self.store.domains, root_level)));
        self.learner = Learner { verify, ..Learner::default() };
    }

    /// Stops recording; the log stays for [`Solver::learned_log`].
    pub(crate) fn stop_learning(&mut self) {
        self.store.history = None;
        self.learner.pending.clear();
    }

    pub(crate) fn is_learning(&self) -> bool {
        self.store.history.is_some()
    }

    /// Charges the next changes to `cause`.
    #[inline]
    pub(crate) fn set_cause(&mut self, cause: Cause) {
        if let Some(history) = self.store.history.as_deref_mut() {
            history.cause = cause;
        }
    }

    /// Charges the next changes to the decision `decision`, taken at the current depth.
    pub(crate) fn set_decision_cause(&mut self, decision: Fixing) {
        let depth = self.store.trail.depth();
        if let Some(history) = self.store.history.as_deref_mut() {
            history.cause = Cause::Decision;
            history.set_decision(depth, decision);
        }
    }

    /// Learns from the failure of propagator `p` at the current node.
    pub(crate) fn learn_from(&mut self, p: PropId) {
        let Some(history) = self.store.history.as_deref() else {
            return;
        };
        let depth = self.store.trail.depth();
        if depth as u32 <= history.root_level {
            return;
        }
        let cx = ExplainContext { history, at: usize::MAX };
        let prop = &self.props[p.index()];
        let conflict = prop.explain_conflict(&cx).unwrap_or_else(|| naive(history, &prop.vars(), usize::MAX));
        if self.learner.verify {
            check_reason(history, prop.as_ref(), &conflict, None);
        }
        let nogood = analyze(history, &self.props, &conflict, depth, self.learner.verify);
        if nogood.is_empty() || nogood.len() > MAX_NOGOOD_LEN {
            return;
        }
        if self.learner.verify {
            self.learner.log.push(nogood.clone());
        }
        self.learner.pending.push(nogood);
    }

    /// Posts the nogoods learned since the last call, at the current node.
    pub(crate) fn post_learned(&mut self) {
        for nogood in std::mem::take(&mut self.learner.pending) {
            self.set_cause(Cause::Axiom);
            if let Some(id) = self.post(Box::new(Nogood::new(nogood))) {
                // It weighs in dom/wdeg once it has failed, not before.
                self.weights[id.index()] = 0;
                self.stats.learned += 1;
            }
        }
    }

    /// The nogoods learned by the last search that checked its solutions
    /// ([`crate::SearchConfig::check_solutions`] with [`crate::SearchConfig::learning`]):
    /// each is a set of literals that no solution satisfies all of. For tests.
    #[doc(hidden)]
    pub fn learned_log(&self) -> &[Vec<Fixing>] {
        &self.learner.log
    }
}
