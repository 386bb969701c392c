//! Typed indices, so a variable can never be confused with a propagator or a counter.

/// An integer variable of a [`crate::Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub(crate) u32);

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A posted propagator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropId(pub(crate) u32);

impl PropId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An integer that is restored on backtrack, for a propagator's incremental state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrailedInt(pub(crate) u32);
