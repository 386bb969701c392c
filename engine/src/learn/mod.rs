//! Learning from failures: lazy clause generation's analysis on the engine's own domains.
//!
//! When learning is on ([`crate::SearchConfig::learning`]), the store keeps a
//! history (`learn/history.rs`) of the branch: every domain change as a literal (`x > 4`, `x ≤ 7`,
//! `x ≠ 3`) with its cause and level. At a failure, analysis (`learn/analyze.rs`) turns the failing
//! propagator's conflict into a *nogood*, literals that cannot all hold, by replacing
//! literals of the current level with their explanations until one is left. The nogood is
//! added to a database of nogoods propagated by two watched literals (`learn/db.rs`) for the rest
//! of the search, where it prunes the same failure wherever it would happen again, under
//! other decisions.
//!
//! Literals are created lazily: there is no Boolean variable per `[x ≤ v]`; a literal is a
//! [`crate::Literal`], and whether it holds, and since when, is read off the domains and the
//! history. Explanations are lazy too: a propagator is asked why only when analysis needs
//! it ([`explain`]); one that cannot say gets the naive explanation, the domains of its
//! variables, which is sound for every propagator.
//!
//! Where a restart may go back to the root (one solution or an optimum is wanted), a failure
//! that taught a nogood sends the search back to the level where the nogood asserts, as SAT
//! solvers do (only left branches are dropped, and only for a nogood not learned before).
//! Elsewhere (counting, enumeration) the search stays chronological: the next branch after
//! a failure is the decision's other side, as without learning, so the same solutions are
//! met; the nogoods, implied by the constraints, only cut failed subtrees.
//!
//! With [`crate::SearchConfig::activity`], the variables and the literals the conflicts meet
//! gain activity (`learn/activity.rs`, `learn/literal_activity.rs`), and the search decides
//! the most active open literal next, or the most active variable where none is open.

pub(crate) mod activity;
pub(crate) mod analyze;
pub(crate) mod db;
pub(crate) mod driver;
pub mod explain;
pub(crate) mod history;
pub(crate) mod literal_activity;
pub(crate) mod verify;
pub(crate) mod vsids;
pub(crate) mod watches;
