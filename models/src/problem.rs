//! What every front end hands to the runner: a solver ready to search, how to search it,
//! and how to show a solution.
//!
//! A front end (cryptarithm, generic model, ...) compiles its statement into a [`Problem`];
//! the runner ([`crate::run`]) owns the search loop, limits, modes and output framing, so
//! every kind gets `--all`, `--count`, `--limit`, `--timeout`, `--stats` and JSON alike.

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{Branching, SearchConfig, Solution, Solver, Val, VarId};

use crate::explain::Vocabulary;
use crate::picture::Canvas;

/// The `"kind"` field of the JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Model,
    Cryptarithm,
    Queens,
    NoThreeInLine,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Model => "model",
            Kind::Cryptarithm => "cryptarithm",
            Kind::Queens => "queens",
            Kind::NoThreeInLine => "nothreeinline",
        }
    }
}

/// The values of one solution that the output needs, in the order of
/// [`SolutionView::vars`].
pub type Record = Vec<Val>;

/// Turns solutions into text and JSON.
pub trait SolutionView: std::fmt::Debug + Send + Sync {
    /// The variables whose values make up a [`Record`].
    fn vars(&self) -> &[VarId];

    /// Human-readable rendering of one solution (one or more lines, each ending in `\n`).
    fn text(&self, record: &Record) -> String;

    /// The JSON object of one solution: `{"NAME": value, "q[3]": value, ...}`.
    fn json(&self, record: &Record) -> serde_json::Value;

    /// True when some solutions of the engine are not solutions of the puzzle (for example
    /// all but one placement per symmetry class): the runner then asks [`Self::accept`].
    fn filters(&self) -> bool {
        false
    }

    fn accept(&self, _record: &Record) -> bool {
        true
    }

    /// Whether [`Self::picture`] draws this model (`--format svg`): the kinds with a board.
    fn draws(&self) -> bool {
        false
    }

    /// The picture of one solution, when [`Self::draws`]; the caller adds the caption.
    fn picture(&self, _record: &Record) -> Option<Canvas> {
        None
    }

    fn record(&self, solution: &Solution<'_>) -> Record {
        self.vars().iter().map(|&x| solution.value(x)).collect()
    }
}

/// A compiled model, ready to search.
#[derive(Debug)]
pub struct Problem {
    pub kind: Kind,
    pub solver: Solver,
    /// Branching and objective; the runner fills in the limits.
    pub search: SearchConfig,
    /// The model's own `solve` line (the command line may override it).
    pub mode: SolveMode,
    /// Set when compilation already proved that there is no solution, with the reason
    /// shown to the user (e.g. more distinct letters than digits).
    pub unsat_reason: Option<String>,
    pub view: Box<dyn SolutionView>,
    /// The names `cpsolve explain` tells its steps in (empty for kinds it cannot explain).
    pub vocabulary: Vocabulary,
    /// Narrower models to try in turns with this one when one solution is wanted.
    pub first_portfolio: Option<Box<dyn Portfolio>>,
}

/// Models of the same puzzle whose solutions are all solutions of the problem (for example
/// only its symmetric placements), often much faster to a first solution. The runner
/// searches them and the problem itself in turns under growing node budgets (see
/// [`crate::run`]), so the answer does not depend on timing, and the problem's own search
/// still proves that there is none when none exists.
pub trait Portfolio: std::fmt::Debug + Send + Sync {
    /// The narrower models, in the order of their turns; `None` when a limit stopped the
    /// building.
    fn build(&self) -> Option<Vec<Member>>;
}

/// One narrower model of a [`Portfolio`].
pub struct Member {
    pub problem: Problem,
    /// The nodes of its turn in units of the problem's own turn (the likelier a member is
    /// to reach a solution soon, the larger its share).
    pub share: u64,
    /// `None`: one search, resumed turn after turn until it ends. `Some`: the member
    /// restarts instead, each run in another order.
    pub restarts: Option<Restarts>,
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Member").field("share", &self.share).field("restarts", &self.restarts).finish_non_exhaustive()
    }
}

/// Restarts of a [`Member`]: run k (from 1) searches from the root in the order `order(k)`
/// and stops after `scale × luby(k)` nodes (the Luby schedule). A search whose costly
/// subtrees come from early choices (a heavy tail) is then cut short and tried again
/// elsewhere; seeding the order with k keeps the answer the same on every run. A run that
/// ends without a solution proves that the member has none (every order is complete).
pub struct Restarts {
    pub scale: u64,
    pub order: Box<dyn Fn(u64) -> Vec<Branching> + Send + Sync>,
}

impl std::fmt::Debug for Restarts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Restarts").field("scale", &self.scale).finish_non_exhaustive()
    }
}
