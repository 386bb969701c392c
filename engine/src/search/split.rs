//! Splitting a search into parts: embarrassingly parallel search (Régin et al., 2013).
//!
//! The search runs with a depth cutoff: the nodes it reaches at that depth, with
//! decisions left, are leaves handed out as parts (the literals of their path), and the
//! solutions met above the cutoff are parts too. Together, in the order met, they cover
//! the tree exactly, so that solving them in turn and concatenating gives the sequential
//! search's answer; they run independently, on threads or on other machines. A split
//! learns nothing, never restarts and never jumps: its parts must be the plain tree's.

use std::ops::ControlFlow;

use crate::solver::Solver;

use super::config::{Limits, SearchConfig};
use super::Subproblem;

impl Solver {
    /// Splits the search tree into at least `target` disjoint subtrees that together cover
    /// it (fewer when the tree is smaller), in the order depth-first search meets them, so
    /// that solving them in turn and concatenating gives the sequential search's answer.
    /// This is embarrassingly parallel search (Régin et al., 2013): the subtrees run
    /// independently, on threads or on other machines.
    pub fn split(&mut self, config: &SearchConfig, target: usize) -> Vec<Subproblem> {
        let mut config = config.clone();
        config.limits = Limits::default();
        config.objective = None;
        // Each depth searches the tree again, even after a stop.
        config.final_search = false;
        // Solutions above the cutoff are parts too: they must reach the callback.
        config.count_only = false;
        let mut depth = 1;
        loop {
            // Solutions above the cutoff and cut subtrees, interleaved in the order met.
            let parts = std::cell::RefCell::new(Vec::<Subproblem>::new());
            let mut cut = 0;
            let _ = self.explore(
                &config,
                Some(depth),
                |s| {
                    parts.borrow_mut().push(s.path.to_vec());
                    ControlFlow::Continue(())
                },
                |path| {
                    cut += 1;
                    parts.borrow_mut().push(path.to_vec());
                },
            );
            let parts = parts.into_inner();
            // Stop once there are enough parts, or when no part was cut at the limit: the
            // whole tree is already listed.
            if parts.len() >= target || cut == 0 {
                return parts;
            }
            depth += 1;
        }
    }
}
