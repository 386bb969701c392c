//! Handling each newly fixed variable once per branch.
//!
//! Value elimination (all-different, queens) must react to every variable that became
//! fixed, but only once on each branch. The variables already handled are kept at the
//! front of a permutation and counted by a trailed integer: backtracking restores the
//! count, and the permutation needs no undo because only the count says which are done.

use crate::ids::{TrailedInt, VarId};
use crate::outcome::Conflict;
use crate::propagator::{Context, PostContext};

#[derive(Debug, Clone)]
pub(crate) struct FixedFront {
    order: Vec<u32>,
    done: Option<TrailedInt>,
}

impl FixedFront {
    pub(crate) fn new(n: usize) -> FixedFront {
        FixedFront { order: (0..n as u32).collect(), done: None }
    }

    pub(crate) fn post(&mut self, cx: &mut PostContext<'_>) {
        self.done = Some(cx.new_int(0));
    }

    /// Calls `handle(cx, k, rest)` for each variable `vars[k]` fixed since it was last
    /// called on this branch, where `rest` holds the indices not handled yet (fixed or not).
    /// Returns how many variables are handled: `vars.len()` when all are fixed.
    pub(crate) fn handle_new(
        &mut self,
        cx: &mut Context<'_>,
        vars: &[VarId],
        mut handle: impl FnMut(&mut Context<'_>, usize, &[u32]) -> Result<(), Conflict>,
    ) -> Result<usize, Conflict> {
        let slot = self.done.expect("posted before propagating");
        let mut done = cx.int(slot) as usize;
        let mut i = done;
        while i < vars.len() {
            let k = self.order[i] as usize;
            if !cx.is_fixed(vars[k]) {
                i += 1;
                continue;
            }
            self.order.swap(i, done);
            done += 1;
            handle(cx, k, &self.order[done..])?;
            // Handling may have fixed a variable that was already scanned.
            i = done;
        }
        cx.set_int(slot, done as i64);
        Ok(done)
    }
}
