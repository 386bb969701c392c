//! dsl (being written)
pub mod ast;
