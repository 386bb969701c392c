//! `cpsolve explain`: a model's solution told step by step, in the model's own words.
//!
//! The engine ([`cpsolve_engine::explain`]) finds the steps: each names a few constraints
//! and known facts, and one conclusion that they alone imply, checked independently before
//! it is kept. This module gives them names ([`Vocabulary`], recorded by each front end
//! while it compiles) and tells them as text or JSON.

mod grade;
mod technique;
mod tell;
mod vocabulary;

pub use grade::grade;
pub use technique::{Candidates, House, HouseKind, Shape, Technique};
pub use tell::{explain, Told, ToldEnding, ToldStep};
pub use vocabulary::{NamedConstraint, Vocabulary};
