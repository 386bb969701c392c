//! The generic propagators: the filtering algorithms behind the post functions of
//! [`crate::constraints`]. None of them knows what puzzle it serves.
//!
//! A propagator removes from the domains of its variables values that cannot appear in any
//! solution of its constraint. How many it finds is its *consistency*: *bounds
//! consistency* makes every variable's minimum and maximum part of some solution of the
//! constraint (within the other variables' bounds), *domain consistency* (generalised arc
//! consistency) makes every remaining value part of one. Stronger filtering costs more per
//! call and saves search nodes; each type's documentation says which it achieves, and the
//! post functions choose among them (a domain-consistent linear equation when its sums
//! span a small range, bounds reasoning otherwise).
//!
//! The types are public so that documentation and statistics can name them; they are
//! created only by the post functions, which check and simplify the arguments first. A
//! propagator of your own implements [`crate::Propagator`] and is added with
//! [`crate::Solver::post`].

pub(crate) mod abs;
pub(crate) mod all_different;
mod all_different_reasons;
pub(crate) mod all_different_shifted;
pub(crate) mod arith;
pub(crate) mod binary_function;
mod bitrow;
pub(crate) mod clause;
pub(crate) mod element;
pub(crate) mod extremum;
mod fixed_front;
pub(crate) mod function;
pub(crate) mod line_counts;
pub(crate) mod linear;
pub(crate) mod linear_domain;
mod matching;
mod matching_bits;
pub(crate) mod monotone;
pub(crate) mod nogood;
pub(crate) mod not_equal;
pub(crate) mod parity;
mod queens_count;
pub(crate) mod reasons;
pub(crate) mod reified;
pub(crate) mod reified_equal;
pub(crate) mod reified_in;
pub(crate) mod table;
mod task_reasons;
mod theta_lambda;
pub(crate) mod times;
pub(crate) mod xor_system;

pub use abs::Abs;
pub use all_different::AllDifferent;
pub use all_different_shifted::AllDifferentShifted;
pub use binary_function::BinaryFunction;
pub use clause::Clause;
pub use element::Element;
pub use extremum::Extremum;
pub use function::Function;
pub use line_counts::{CountedLine, LineCounts};
pub use linear::{LinearEq, LinearLe, LinearNe};
pub use linear_domain::LinearEqDomain;
pub use monotone::Monotone;
pub use nogood::Nogood;
pub use not_equal::NotEqual;
pub use parity::Parity;
pub use reified::ReifiedLinear;
pub use reified_equal::ReifiedEqual;
pub use reified_in::ReifiedIn;
pub use table::Table;
pub use times::Times;
pub use xor_system::XorSystem;
pub(crate) mod circuit;
pub(crate) mod subcircuit;
pub use circuit::Circuit;
pub use subcircuit::Subcircuit;
pub(crate) mod time_table;
pub use time_table::TimeTable;
pub(crate) mod diffn;
mod diffn_reasons;
pub(crate) mod energy;
pub(crate) mod unary;
pub use diffn::Diffn;
pub use energy::CumulativeEnergy;
pub use unary::Unary;
pub(crate) mod matching_reasons;
pub(crate) mod regular;
pub(crate) mod regular_reasons;
pub use regular::Regular;
pub(crate) mod global_cardinality;
pub(crate) mod global_cardinality_reasons;
pub(crate) mod inverse;
pub(crate) mod lex;
pub use global_cardinality::GlobalCardinality;
pub use inverse::Inverse;
pub use lex::Lex;
