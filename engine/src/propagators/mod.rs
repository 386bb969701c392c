//! The generic propagators. None of them knows what puzzle it serves.

pub(crate) mod all_different;
pub(crate) mod arith;
pub(crate) mod binary_function;
mod bitrow;
pub(crate) mod clause;
pub(crate) mod element;
pub(crate) mod extremum;
mod fixed_front;
pub(crate) mod function;
pub(crate) mod linear;
pub(crate) mod linear_domain;
mod matching;
pub(crate) mod not_equal;
pub(crate) mod queens;
pub(crate) mod reified;
pub(crate) mod table;
pub(crate) mod times;

pub use all_different::AllDifferent;
pub use binary_function::BinaryFunction;
pub use clause::Clause;
pub use element::Element;
pub use extremum::Extremum;
pub use function::Function;
pub use linear::{LinearEq, LinearLe, LinearNe};
pub use linear_domain::LinearEqDomain;
pub use not_equal::NotEqual;
pub use queens::Queens;
pub use reified::ReifiedLinear;
pub use table::Table;
pub use times::Times;
