//! Search: depth-first over decisions, on a trail, with everything that varies around it
//! in small parts of its own.
//!
//! # The loop
//! A search repeats three steps (`dfs.rs` is the loop, and it does nothing else):
//! 1. **decide**: a `Brancher` picks a decision (`x = v`, `x ≤ v`); the search opens a
//!    trail level, applies its left branch and propagates;
//! 2. **at a leaf**: every variable fixed is a solution (reported; with an objective, the
//!    next must be strictly better: branch and bound); a failure goes to the
//!    `ConflictHandler`;
//! 3. **go back**: close levels up to the newest decision whose right branch is untried,
//!    and take it.
//!
//! Nothing is copied per node: going back is undoing the trail.
//!
//! # What varies, and where it lives
//! - *Which decision*: a `Brancher` (`brancher.rs`): the model's branching groups, phases
//!   saved from the newest solution, and the variables' activity when learning.
//! - *What a failure teaches, and where the search goes next*: a `ConflictHandler`
//!   (`conflict.rs`). The chronological one learns nothing and backtracks; the learning one
//!   analyses the conflict into a nogood and, where a restart may go back to the root,
//!   jumps back to where that nogood asserts.
//! - *When to start again*: a `RestartStrategy` (`restart.rs`, Luby's schedule), and
//!   what a restart keeps (nogoods of the refuted branch, the learned database reduced).
//! - *A phase before the search*: the probe (`probe.rs`) runs the model's own search
//!   without learning while it projects to finish soon, then gives way.
//! - *Where a search starts*: from the root, or from where a resumable search stopped
//!   (`resume.rs`).
//! - *What is searched*: the whole tree, or its top cut into parts (`split.rs`); below a
//!   node where one constraint is left, a dedicated algorithm may count or solve instead
//!   (`dedicated.rs`).
//! - *The node*: opening a level, applying a branch, propagating with the objective's
//!   bound (`node.rs`), the better of the search's own and, when searches of other parts
//!   share one, theirs (`shared_bound.rs`).
//!
//! The options that choose among these are in [`SearchConfig`] (`config.rs`), which also
//! says, in one place, which of them apply together.
//!
//! # Resuming
//! A search may also be *resumed*: stopped on its node limit, it leaves its decision stack
//! (each decision with whether its right branch is the one taken) in the solver, and the
//! next resumable search replays that stack — one level per decision, the same branch
//! applied and propagated — and goes on from the very node where the other stopped.
//! Propagation is deterministic, so the replayed state is the one left; replaying costs the
//! depth of the stack, not the nodes explored, and is not counted as nodes. Searching a few
//! problems in turns with growing budgets (a portfolio) then spends each budget on new
//! nodes instead of exploring the same top of the tree again every turn.
//!
//! # Ending
//! Undoing the trail when a search stops is what lets the solver be searched again; a
//! caller that will not ([`SearchConfig::final_search`]: a process that prints what was
//! found and exits) skips it, since a deep search's trail can take a quarter of a second to
//! undo after the time limit. The solver is then left at the node where the search stopped.

mod brancher;
mod config;
mod conflict;
mod dedicated;
mod dfs;
mod node;
mod probe;
mod restart;
mod resume;
mod shared_bound;
mod split;
mod stats;

use std::ops::ControlFlow;

use crate::branch::Decision;
use crate::domain::Val;
use crate::ids::VarId;
use crate::literal::Literal;
use crate::solver::Solver;
use crate::store::Store;

pub use config::{ActivityOver, ActivitySearch, Limits, Probe, SearchConfig, Sense, Stop};
pub use restart::luby;
pub(crate) use resume::Resume;
pub use shared_bound::SharedBound;
pub use stats::Stats;

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
    path: &'a [Literal],
}

impl Solution<'_> {
    /// The value of `x` in this solution (every variable is fixed in a solution).
    pub fn value(&self, x: VarId) -> Val {
        self.store.domains[x.index()].min
    }
}

/// A subtree of the search, as the literals on the path from the root to it.
pub type Subproblem = Vec<Literal>;

impl Decision {
    /// The literal its left branch (`right == false`) or its right branch makes true.
    pub(crate) fn literal(self, right: bool) -> Literal {
        match (self, right) {
            (Decision::Assign(x, v), false) => Literal::Eq(x, v),
            (Decision::Assign(x, v), true) => Literal::Ne(x, v),
            (Decision::LessEq(x, v), false) => Literal::Le(x, v),
            (Decision::LessEq(x, v), true) => Literal::Gt(x, v),
            (Decision::Greater(x, v), false) => Literal::Gt(x, v),
            (Decision::Greater(x, v), true) => Literal::Le(x, v),
            (Decision::Exclude(x, v), false) => Literal::Ne(x, v),
            (Decision::Exclude(x, v), true) => Literal::Eq(x, v),
        }
    }

    /// The decision whose left branch makes `lit` true.
    pub(crate) fn of_literal(lit: Literal) -> Decision {
        match lit {
            Literal::Eq(x, v) => Decision::Assign(x, v),
            Literal::Ne(x, v) => Decision::Exclude(x, v),
            Literal::Le(x, v) => Decision::LessEq(x, v),
            Literal::Gt(x, v) => Decision::Greater(x, v),
        }
    }
}

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

    /// Applies the literals of a subproblem at the root. `false` if that empties a domain.
    pub fn apply(&mut self, literals: &[Literal]) -> bool {
        self.assert_not_spent();
        for &f in literals {
            if self.store.apply(f).is_err() {
                self.fail();
            }
        }
        !self.is_failed()
    }
}
