//! How open the model is where the explanation stalls: where nothing short of a case split
//! moves it on, how many values can no single assumption refute?
//!
//! A person stuck on a puzzle tries "what if x were v?" and follows the consequences. When
//! most of the values still open fall to such a try, the puzzle is nearly done; when few do,
//! the person faces a large open position with little to hold on to. The count of values
//! that survive every one-level try is what [`crate::explain::Explanation::difficulty`]
//! reads from a case split or a search step.

use crate::domain::Val;
use crate::explain::subset::Narrowing;
use crate::explain::Stall;
use crate::ids::VarId;

use super::Driver;

impl Driver<'_> {
    /// From the fixpoint of all groups with the known facts: every (variable, value) pair
    /// still open, and how many of them, assumed, make the groups contradict each other by
    /// propagation alone.
    pub(super) fn stall(&mut self) -> Stall {
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let facts = self.known_facts();
        let mut stall = Stall { open: 0, refuted: 0 };
        if self.enter_and_propagate(&all, &facts, None, None) {
            let open: Vec<(VarId, Vec<Val>)> = self
                .config
                .shown
                .iter()
                .map(|&x| (x, self.solver.values(x).collect::<Vec<Val>>()))
                .filter(|(_, values)| values.len() > 1)
                .collect();
            for (x, values) in open {
                for v in values {
                    stall.open += 1;
                    // Only what the assumption wakes runs again, from the fixpoint.
                    self.solver.store.open_level();
                    let holds = self.solver.narrow(&Narrowing::Within(x, vec![v])) && self.solver.run_queued(None);
                    self.solver.store.close_level();
                    self.solver.store.queue.clear();
                    if !holds {
                        stall.refuted += 1;
                    }
                }
            }
        }
        self.solver.leave_subset();
        stall
    }
}
