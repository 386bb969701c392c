//! The cpsolve engine: finite-domain constraint solving, with no knowledge of puzzles.
//!
//! # Background
//! A model is a set of integer variables, each with a finite domain, and constraints over
//! them. Each constraint is enforced by a *propagator*, which removes from the domains the
//! values that cannot appear in any solution of that constraint. Propagators are woken by
//! *events* on their variables (fixed, bounds changed, any value removed) and run from a
//! priority queue until none can remove anything more: the *fixpoint*. Search then picks an
//! unfixed variable, splits its domain in two (`x = v` / `x ≠ v`, or `x ≤ v` / `x > v`),
//! and explores both sides depth first. Every domain change is recorded on a *trail*, so
//! going back up the tree is undoing changes, never copying state.
//!
//! # Adding a propagator
//! 1. Write `propagate` from scratch first: read the bounds, prune, return
//!    `Err(Conflict)` on an empty domain.
//! 2. Write `is_satisfied`, the ground truth, and test the propagator against brute force
//!    (see `tests/brute_force.rs`) on small random domains. Do not skip this.
//! 3. Subscribe to the weakest events that suffice in `post` (`ASSIGNED` < `BOUNDS` <
//!    `DOMAIN`), and decide trivial cases there.
//! 4. Only then make it incremental, with [`TrailedInt`]s for state that must be undone.
//! 5. Give it a post function in [`constraints`] that simplifies before creating it.

#![warn(missing_docs)]

mod branch;
pub mod constraints;
mod domain;
mod ids;
pub mod interrupt;
mod propagator;
pub mod propagators;
mod queue;
mod search;
mod solver;
mod store;
mod trail;

pub use branch::{Branching, ValOrder, VarOrder};
pub use constraints::Rel;
pub use domain::DomainValues;
pub use ids::{PropId, TrailedInt, VarId};
pub use propagator::{
    Conflict, Context, Events, Interrupted, PostContext, Priority, PropResult, PropStatus, Propagator,
};
pub use propagators::all_different::Consistency;
pub use search::{luby, Fixing, Limits, Outcome, SearchConfig, Sense, Solution, Stats, Stop, Subproblem};
pub use solver::{ModelError, Solver, VAL_LIMIT};

/// A domain value.
pub type Val = i64;
