//! The words an explanation is told in: what each constraint is called and what each
//! variable is called, as the front end that compiled the model knows them.
//!
//! The engine explains in terms of groups of propagators and variable numbers; a person
//! thinks in "column 3", "row 5", "box 2" and "the carry out of column 2". Each front end
//! records, while it compiles, which propagators each of its constraints posted and how
//! the puzzle names that constraint; `cpsolve explain` tells the engine's steps in those
//! names.

use cpsolve_dsl::ast::Span;
use cpsolve_engine::explain::Group;
use cpsolve_engine::VarId;

/// One constraint as the model states it.
#[derive(Debug, Clone)]
pub struct NamedConstraint {
    /// The propagators it posted.
    pub props: Group,
    /// What a person calls it: "column 3", "row 5", "box 2", "the diagonals".
    pub name: String,
    /// What it says, when the name alone does not: "D + E = Y + 10·c1".
    pub says: Option<String>,
    /// Where the model states it, for the line and text of a generic model.
    pub span: Option<Span>,
    /// The values of the `forall` names it was posted under ("i = 3").
    pub bindings: Vec<(String, i64)>,
    /// The shown variables it makes all different, when it is a plain all-different over
    /// them: a house, whose steps are named as players name them
    /// (`explain/technique.rs`).
    pub all_different: Option<Vec<VarId>>,
}

/// The names of a model's parts.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    /// The constraints, in the order the model states them.
    pub constraints: Vec<NamedConstraint>,
    /// The variables a person follows, with their names (`S`, `c2`, `x[3,4]`).
    pub shown: Vec<(VarId, String)>,
    /// The names of the values of enum-valued shown variables: value `k` is the `k`-th.
    pub value_names: std::collections::HashMap<VarId, std::sync::Arc<Vec<String>>>,
}

impl Vocabulary {
    /// Whether the front end named anything: the kinds that did not cannot be explained.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty() || self.shown.is_empty()
    }
}
