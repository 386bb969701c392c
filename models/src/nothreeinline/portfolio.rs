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
//! model) for the 90° class of even n, 4 : 4 : 1 : 1 for the near-90° pair of odd n. Odd
//! n has a third near-90° member with the same share that restarts instead (Luby runs of
//! 1000 nodes per unit, the cells of each row in an order shuffled by the run's number):
//! the two static orders have heavy tails, and n = 31 falls to run 27 (205 k nodes in all,
//! where the static members had not found it in 3.9 M).

use super::{build_with_cells, seeded_branching, NoThreeInLine, Symmetry};
use cpsolve_dsl::ast::SolveMode;

use crate::problem::{Member, Portfolio, Restarts};

#[derive(Debug)]
pub(super) struct SymmetricFirst {
    pub(super) n: usize,
    /// The run's request to stop, for the members' solvers.
    pub(super) stop: cpsolve_engine::StopToken,
}

/// How a member searches: one search resumed to its end, or restarts in seeded orders
/// with this many nodes per unit of the Luby schedule.
#[derive(Clone, Copy)]
enum Order {
    LeftToRight,
    MiddleOut,
    Restarts(u64),
}

impl Portfolio for SymmetricFirst {
    fn build(&self) -> Option<Vec<Member>> {
        let n = self.n;
        // (class, order, share)
        let members: &[(Symmetry, Order, u64)] = if n % 2 == 0 {
            &[
                (Symmetry::Rotational4, Order::LeftToRight, 128),
                (Symmetry::Rotational, Order::LeftToRight, 4),
                (Symmetry::Diagonal, Order::LeftToRight, 4),
            ]
        } else {
            &[
                (Symmetry::NearRotational4, Order::LeftToRight, 16),
                (Symmetry::NearRotational4, Order::MiddleOut, 16),
                (Symmetry::NearRotational4, Order::Restarts(RESTART_SCALE), RESTART_SHARE),
                (Symmetry::Rotational, Order::LeftToRight, 4),
                (Symmetry::Diagonal, Order::LeftToRight, 4),
            ]
        };
        members
            .iter()
            .map(|&(symmetry, order, share)| {
                let (problem, cells) = build_with_cells(&NoThreeInLine {
                    n,
                    symmetry,
                    mode: SolveMode::First,
                    chosen: true,
                    columns_middle_out: matches!(order, Order::MiddleOut),
                    pair_on_either_diagonal: false,
                    stop: self.stop.clone(),
                })?;
                let restarts = match order {
                    Order::Restarts(scale) => {
                        Some(Restarts { scale, order: Box::new(move |run| seeded_branching(n, &cells, run)) })
                    }
                    _ => None,
                };
                Some(Member { problem, share, restarts })
            })
            .collect()
    }
}

/// The restarting near-90° member of odd n: nodes per Luby unit and its share.
const RESTART_SCALE: u64 = 1000;
const RESTART_SHARE: u64 = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn seeded_orders_decide_every_variable_once_and_differ_by_seed() {
        let n = 11;
        let (problem, cells) = build_with_cells(&NoThreeInLine {
            n,
            symmetry: Symmetry::NearRotational4,
            mode: SolveMode::First,
            chosen: true,
            columns_middle_out: false,
            pair_on_either_diagonal: false,
            stop: cpsolve_engine::StopToken::new(),
        })
        .expect("no limit raised");
        let base: BTreeSet<_> = problem.search.branching[0].vars.iter().copied().collect();
        let order = |seed| seeded_branching(n, &cells, seed).remove(0).vars;
        for seed in 1..=5 {
            let vars = order(seed);
            assert_eq!(vars.len(), base.len(), "seed {seed}: each variable once");
            assert_eq!(vars.iter().copied().collect::<BTreeSet<_>>(), base, "seed {seed}: all of them");
            assert_eq!(vars, order(seed), "seed {seed}: the same order every time");
        }
        assert_ne!(order(1), order(2), "another seed, another order");
    }

    /// Solutions of the near-90° class on the n×n grid, with the diagonal pair on either
    /// diagonal or on the main one only.
    fn near_rotational_count(n: usize, either: bool) -> u128 {
        let (mut problem, _) = build_with_cells(&NoThreeInLine {
            n,
            symmetry: Symmetry::NearRotational4,
            mode: SolveMode::Count,
            chosen: true,
            columns_middle_out: false,
            pair_on_either_diagonal: either,
            stop: cpsolve_engine::StopToken::new(),
        })
        .expect("no limit raised");
        let mut config = problem.search.clone();
        config.count_only = true;
        problem.solver.search(&config, |_| std::ops::ControlFlow::Continue(())).solutions
    }

    #[test]
    fn the_main_diagonal_alone_keeps_one_solution_of_each_mirror_pair() {
        let mut some = false;
        for n in [5, 7, 9, 11, 13, 15, 17, 19] {
            let main_only = near_rotational_count(n, false);
            assert_eq!(near_rotational_count(n, true), 2 * main_only, "n = {n}");
            some |= main_only > 0;
        }
        assert!(some, "some n has solutions in the class");
    }
}
