//! `_native.SharedBound`: the engine's bound shared between the runs of a model's parts
//! ([`cpsolve_engine::SharedBound`]), as a Python object.
//!
//! A run given one (`_native.run(..., bound=b)`) prunes with it and offers its improving
//! solutions to it while it searches; Python threads read and feed it meanwhile, which is
//! how `cpsolve.dask` carries a bound between worker processes. Its value is a *rank*, lower
//! is better (the objective minimised, or the negated objective maximised), so a carrier
//! keeps the least rank without knowing the model's sense.

use pyo3::prelude::*;

/// A bound shared between runs: `rank()` reads it, `offer(rank)` keeps the lower.
#[pyclass(name = "SharedBound", module = "cpsolve._native", frozen)]
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedBound(pub(crate) cpsolve_engine::SharedBound);

#[pymethods]
impl SharedBound {
    #[new]
    fn new() -> SharedBound {
        SharedBound::default()
    }

    /// The best rank offered so far, or `None`.
    fn rank(&self) -> Option<i64> {
        self.0.rank_now()
    }

    /// Offers the rank of a solution found elsewhere (another part's `rank()`).
    fn offer(&self, rank: i64) {
        self.0.offer_rank(rank);
    }
}
