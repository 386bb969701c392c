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
//! reaches slowly: 13, 15, 23, 25, 29). For odd n, before those two: Flammenkamp's
//! near-90° class "rct4" (90° symmetric off the long diagonals, 180° on them), twice, with
//! the cells of a row decided left to right and from the middle outwards: the two orders
//! have heavy tails at different n (alone, n = 23: 260 k against 473 k nodes; n = 25: not
//! in 1.3 M against 963 nodes).
//!
//! Each member resumes its search every turn, with a share of the nodes: the class that
//! reaches solutions at large n gets the most, 32 : 1 : 1 (and a quarter for the full
//! model) for the 90° class of even n, 4 : 4 : 1 : 1 for the near-90° pair of odd n.

use super::{build, NoThreeInLine, Symmetry};
use cpsolve_dsl::ast::SolveMode;

use crate::problem::{Portfolio, Problem};

#[derive(Debug)]
pub(super) struct SymmetricFirst {
    pub(super) n: usize,
}

impl Portfolio for SymmetricFirst {
    fn build(&self) -> Option<Vec<(Problem, u64)>> {
        // (class, cells of a row from the middle outwards, share)
        let members: &[(Symmetry, bool, u64)] = if self.n % 2 == 0 {
            &[(Symmetry::Rotational4, false, 128), (Symmetry::Rotational, false, 4), (Symmetry::Diagonal, false, 4)]
        } else {
            &[
                (Symmetry::NearRotational4, false, 16),
                (Symmetry::NearRotational4, true, 16),
                (Symmetry::Rotational, false, 4),
                (Symmetry::Diagonal, false, 4),
            ]
        };
        members
            .iter()
            .map(|&(symmetry, columns_middle_out, share)| {
                let problem = build(&NoThreeInLine {
                    n: self.n,
                    symmetry,
                    mode: SolveMode::First,
                    chosen: true,
                    columns_middle_out,
                })?;
                Some((problem, share))
            })
            .collect()
    }
}
