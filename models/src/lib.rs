//! The puzzle front ends of cpsolve. Each compiles a parsed `.puz` file into engine
//! variables and propagators (a [`problem::Problem`]); the runner searches it and
//! renders the answer.

mod compile;
pub mod compte;
mod cryptarithm;
pub mod direct;
pub mod generic;
pub(crate) mod limit;
pub mod minesweeper;
mod nothreeinline;
pub mod numbermatch;
mod options;
pub mod outcome;
mod params;
pub mod problem;
mod queens;
pub mod report;
pub mod run;

pub use compile::{compile, part};
