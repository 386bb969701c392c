//! What a failure teaches, and where the search goes after it: the [`ConflictHandler`].
//!
//! The search loop does not know whether it learns. At every failed propagation it hands
//! the conflict to its handler ([`ConflictHandler::on_conflict`]), and once the node is
//! given up it asks the handler where to go ([`ConflictHandler::resolve`]):
//! - [`Chronological`] learns nothing and backtracks to the newest decision whose right
//!   branch is untried: plain depth-first search.
//! - [`Learning`] analyses each conflict into a nogood (`learn/`), which prunes the same
//!   failure wherever it would happen again. Where a restart may go back to the root (one
//!   solution or an optimum is wanted), it also *backjumps*: to the level where its newest
//!   nogood asserts, as SAT solvers do, dropping the left branches in between (they are
//!   decided again later, as after a restart). Elsewhere (counting, enumerating) it goes
//!   back chronologically, so that the same solutions are met: the nogoods, implied by the
//!   constraints, only cut failed subtrees.

use crate::branch::Decision;
use crate::solver::Solver;

/// Where the search goes after a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// To the newest decision whose right branch is untried.
    Backtrack,
    /// Back to the first `keep` decisions of the stack (all later ones are left branches),
    /// where the newest nogood propagates.
    Backjump { keep: usize },
    /// Nowhere: the conflict rests on facts of the whole search alone.
    Exhausted,
}

/// Handles the failures of one search.
pub(crate) trait ConflictHandler: std::fmt::Debug {
    /// Propagation at the current node has just failed, in the propagator
    /// `solver.failed_by` (if one failed; a decision or the objective's bound may empty a
    /// domain by itself).
    fn on_conflict(&mut self, solver: &mut Solver);

    /// The node at the top of `stack` failed: where the search goes. `base_depth` is the
    /// trail depth below the search's root; `restart_due` says that a restart is due, which
    /// goes back further than any jump.
    fn resolve(
        &mut self,
        solver: &mut Solver,
        stack: &[(Decision, bool)],
        base_depth: usize,
        restart_due: bool,
    ) -> Resolution;
}

/// Depth-first search without learning.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Chronological;

impl ConflictHandler for Chronological {
    fn on_conflict(&mut self, _solver: &mut Solver) {}

    fn resolve(&mut self, _: &mut Solver, _: &[(Decision, bool)], _: usize, _: bool) -> Resolution {
        Resolution::Backtrack
    }
}

/// Conflict analysis into nogoods (`learn/`), with backjumps where `backjump` allows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Learning {
    /// Whether a failure may jump back to where its nogood asserts: where a restart may go
    /// back to the root, not in a split, nor below the groups' last decision (`project`).
    pub(crate) backjump: bool,
}

impl ConflictHandler for Learning {
    fn on_conflict(&mut self, solver: &mut Solver) {
        if let Some(p) = solver.failed_by {
            solver.learn_from(p);
        }
    }

    fn resolve(
        &mut self,
        solver: &mut Solver,
        stack: &[(Decision, bool)],
        base_depth: usize,
        restart_due: bool,
    ) -> Resolution {
        if !self.backjump {
            return Resolution::Backtrack;
        }
        if solver.learner.exhausted {
            return Resolution::Exhausted;
        }
        // A restart that is due goes first, and leaves the nogood's level to the next
        // failure's analysis.
        if restart_due {
            return Resolution::Backtrack;
        }
        let Some(depth) = solver.learner.assert_depth.take() else {
            return Resolution::Backtrack;
        };
        let keep = depth.saturating_sub(base_depth + 1);
        // Only left branches may be dropped: a right branch stands for a refuted subtree
        // that no nogood may have captured.
        if keep < stack.len() && stack[keep..].iter().all(|&(_, right)| !right) {
            Resolution::Backjump { keep }
        } else {
            Resolution::Backtrack
        }
    }
}
