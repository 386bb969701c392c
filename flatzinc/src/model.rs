//! What a FlatZinc model becomes: an engine solver, the goal, the search, what to print, and
//! the constraints as written, for checking solutions.

use cpsolve_engine::{Branching, Solver, Val, VarId};

/// A FlatZinc argument reduced to what the engine sees: a variable or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    Var(VarId),
    Const(Val),
}

impl Term {
    pub fn value(self, value_of: &dyn Fn(VarId) -> Val) -> Val {
        match self {
            Term::Var(x) => value_of(x),
            Term::Const(c) => c,
        }
    }
}

/// A constraint argument: one term, an array of terms, or a constant set (as ranges).
/// `T` is [`Term`] for posting, [`Ref`] for checking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<T = Term> {
    Term(T),
    Array(Vec<T>),
    Set(Vec<(Val, Val)>),
}

/// A FlatZinc variable (its position among the model's declarations) or a constant: what
/// a written constraint refers to, before variables the model equates are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ref {
    Var(usize),
    Const(Val),
}

impl Ref {
    pub fn value(self, value_of: &dyn Fn(usize) -> Val) -> Val {
        match self {
            Ref::Var(i) => value_of(i),
            Ref::Const(c) => c,
        }
    }
}

/// One FlatZinc constraint as written, kept to check solutions against the FlatZinc
/// definitions, independently of the propagators and of the merging of variables.
#[derive(Debug, Clone)]
pub struct Written {
    pub name: String,
    pub args: Vec<Arg<Ref>>,
}

/// Whether an output value prints as an integer or as `true`/`false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
}

/// A name the model asks to print with each solution (`output_var` / `output_array`).
#[derive(Debug, Clone)]
pub struct Output {
    pub name: String,
    pub kind: Kind,
    /// `None` for a single variable; the index sets for an array.
    pub dims: Option<Vec<(i64, i64)>>,
    pub terms: Vec<Term>,
}

/// What to search for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    Satisfy,
    Minimize(Term),
    Maximize(Term),
}

/// A compiled FlatZinc model.
#[derive(Debug)]
pub struct Model {
    pub solver: Solver,
    pub goal: Goal,
    /// The search the model's annotations ask for (empty: none given).
    pub annotated_search: Vec<Branching>,
    /// cpsolve's own search, for free search or when there is no annotation.
    pub free_search: Vec<Branching>,
    /// Whether the free search begins with the 0/1 variables the objective counts: then
    /// activity decides only what they leave.
    pub count_first: bool,
    pub outputs: Vec<Output>,
    pub written: Vec<Written>,
    /// The FlatZinc variables in declaration order (names and the engine terms that hold
    /// their values): what [`Ref::Var`] indexes.
    pub fzn_vars: Vec<(String, Term)>,
    /// Warnings for the user (annotations not understood, and so on).
    pub warnings: Vec<String>,
    /// How many FlatZinc constraints of each name went to the engine, and how: the first
    /// line says which propagators the model runs on (shown with `--stats`).
    pub posted: std::collections::BTreeMap<String, usize>,
}
