//! Typed indices, so a variable can never be confused with a propagator or a counter.

/// An integer variable of a [`crate::Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The position of the variable in creation order, from 0: an index into arrays the
    /// caller keeps per variable.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A posted propagator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropId(pub(crate) u32);

impl PropId {
    /// The position of the propagator in posting order, from 0.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An integer that is restored on backtrack, for a propagator's incremental state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrailedInt(pub(crate) u32);
