//! The FlatZinc front end of cpsolve: FlatZinc in, engine variables and propagators out.
//!
//! # Background
//! MiniZinc compiles a model and its data into FlatZinc: a flat list of integer and Boolean
//! variables, constraints drawn from a fixed set of builtins (`int_lin_le`, `bool_clause`,
//! `array_int_element`, ...) plus the globals the solver declares in its library
//! (`mznlib/`), and a solve item with search annotations. A solver reads FlatZinc, solves,
//! and prints the values of the variables marked for output; MiniZinc turns those back into
//! the model's own output.
//!
//! # Stages
//! 1. [`read::parse`]: the text (`.fzn`) or FlatZinc JSON, parsed by the MiniZinc
//!    project's `flatzinc-serde`; a [`source::SourceIndex`] keeps where each item is, for
//!    errors that point at the item.
//! 2. [`compile::compile`]: variables (merged where the model equates them), each builtin
//!    posted as engine constraints, search annotations as branching groups.
//! 3. [`run::solve`]: the search the FlatZinc interface asks for, and the output format.
//! 4. [`check`]: every solution can be checked against the constraints as written, from
//!    their definitions, independently of the engine.
//!
//! This crate knows no puzzle and no `.puz` syntax; it only calls the engine's public API.

pub mod annotations;
pub mod check;
pub mod compile;
mod json;
pub mod model;
mod parity;
mod post;
pub mod read;
pub mod run;
pub mod source;

pub use compile::{compile, compile_with_stop};
pub use cpsolve_engine::{Stop, Val, VarId};
pub use json::solution_json;
pub use model::{Arg, Goal, Kind, Model, Output, Ref, Term, Written};
pub use read::{parse, Parsed};
pub use run::{format_solution, solve, status_line, Found, Options, PhaseSaving, RunResult, SearchChoice, Status};

/// Parses and compiles a FlatZinc text (`.fzn` or JSON), with a stop token of its own.
pub fn load(text: &str) -> Result<Model, cpsolve_dsl::Diagnostic> {
    load_with_stop(text, &cpsolve_engine::StopToken::new())
}

/// Parses and compiles a FlatZinc text (`.fzn` or JSON), for a run stopped by requests on
/// `stop` (see [`compile_with_stop`]).
pub fn load_with_stop(text: &str, stop: &cpsolve_engine::StopToken) -> Result<Model, cpsolve_dsl::Diagnostic> {
    let parsed = parse(text)?;
    compile_with_stop(&parsed.fzn, &parsed.index, stop)
}
