//! How `nothreeinline n = N` finds one solution when no `symmetry` option says how: by
//! searching in turns (see [`crate::run`]) the placements invariant under a symmetry of
//! the square, and the full model last in each round. A symmetric placement is a
//! placement, and the symmetric models have a half or a quarter of the variables, so one
//! of them usually reaches a solution long before the full model would (Flammenkamp found
//! solutions up to n = 52 this way). The full model's turns keep the answer complete: for
//! the small n where no symmetric solution exists, it finds one or proves there is none.
//!
//! The classes, in the order of their turns, measured by bench/nothreeinline.sh: the 90°
//! rotation first for even n (points come in fours, so odd n has none), then the 180°
//! rotation, then both diagonals (which holds solutions for odd n that the 180° class
//! reaches slowly: 13, 15, 23, 25, 29).

use super::{build, NoThreeInLine, Symmetry};
use cpsolve_dsl::ast::SolveMode;

use crate::problem::{Portfolio, Problem};

#[derive(Debug)]
pub(super) struct SymmetricFirst {
    pub(super) n: usize,
}

impl Portfolio for SymmetricFirst {
    fn build(&self) -> Option<Vec<Problem>> {
        let classes: &[Symmetry] = if self.n % 2 == 0 {
            &[Symmetry::Rotational4, Symmetry::Rotational, Symmetry::Diagonal]
        } else {
            &[Symmetry::Rotational, Symmetry::Diagonal]
        };
        classes
            .iter()
            .map(|&symmetry| build(&NoThreeInLine { n: self.n, symmetry, mode: SolveMode::First, chosen: true }))
            .collect()
    }
}
