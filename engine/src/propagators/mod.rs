//! The generic propagators. None of them knows what puzzle it serves.

pub(crate) mod all_different;
pub(crate) mod arith;
mod bitrow;
mod fixed_front;
pub(crate) mod linear;
pub(crate) mod linear_domain;
pub(crate) mod not_equal;
pub(crate) mod queens;

pub use all_different::AllDifferent;
pub use linear::{LinearEq, LinearLe, LinearNe};
pub use linear_domain::LinearEqDomain;
pub use not_equal::NotEqual;
pub use queens::Queens;
