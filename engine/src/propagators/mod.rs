//! The generic propagators. None of them knows what puzzle it serves.

pub(crate) mod all_different;
pub(crate) mod arith;
pub(crate) mod linear;
pub(crate) mod not_equal;

pub use all_different::AllDifferent;
pub use linear::{LinearEq, LinearLe, LinearNe};
pub use not_equal::NotEqual;
