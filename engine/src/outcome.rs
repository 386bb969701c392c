//! What propagation concludes: the vocabulary shared by propagators, the store and search.
//!
//! A propagator's run ends in a [`PropResult`]: the constraint is still [`PropStatus::Active`],
//! or [`PropStatus::Entailed`] (it sleeps until the search backtracks), or a [`Conflict`]
//! (the current node has no solution). It is woken by [`Events`] on its variables and runs in
//! the order of its [`Priority`]. A dedicated algorithm (counting, finding one solution)
//! polled for a stop ends in [`Interrupted`]. These types sit on the ground floor, below the
//! store and the propagators, so that every layer can name an outcome without importing the
//! layer that produces it.

/// Raised when a domain becomes empty: the current node has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict;

/// What a successful propagation concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropStatus {
    /// The constraint may still prune later.
    Active,
    /// Every remaining combination satisfies the constraint: it sleeps until backtrack.
    Entailed,
}

/// What [`Propagator::post`](crate::Propagator::post) and
/// [`Propagator::propagate`](crate::Propagator::propagate) return: a status, or a conflict when
/// the current node has no solution of the constraint.
pub type PropResult = Result<PropStatus, Conflict>;

/// A set of domain events a propagator subscribes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Events(pub(crate) u8);

impl Events {
    /// The variable became fixed.
    pub const ASSIGNED: Events = Events(1);
    /// The minimum or the maximum changed (includes becoming fixed).
    pub const BOUNDS: Events = Events(1 | 2);
    /// Any value was removed.
    pub const DOMAIN: Events = Events(1 | 2 | 4);

    pub(crate) fn fired(bounds_changed: bool, fixed: bool) -> u8 {
        4 | if bounds_changed { 2 } else { 0 } | if fixed { 1 } else { 0 }
    }
}

/// Order in which queued propagators run: lower first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// Constant time: binary relations.
    Unary = 0,
    /// Linear in the number of variables.
    Linear = 1,
    /// Superlinear: global constraints with sorting or matching.
    Expensive = 2,
    /// Cubic or worse, and only worth running on a fixpoint of the others (energetic
    /// reasoning over all windows of a resource).
    Last = 3,
}

impl Priority {
    pub(crate) const COUNT: usize = 4;
}

/// A dedicated count was stopped by a limit before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;
