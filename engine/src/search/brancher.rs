//! Which decision comes next: the [`Brancher`] the search loop asks at every node.
//!
//! A brancher looks at the current node and returns a decision on an unfixed variable
//! (`x = v` on the left, `x ≠ v` on the right, or the other way round; or a split
//! `x ≤ v` / `x > v`, either side first), or `None`
//! when every variable is fixed, which makes the node a solution. The search owns nothing
//! of how decisions are chosen: a custom branching is one more implementation.
//!
//! The engine's own brancher, [`Groups`], follows the model's branching groups in order
//! (each with its variable and value order, as MiniZinc's search annotations say) and then
//! the variables they leave, in input order. Two things learned along the search steer it:
//! - *phases*: with [`crate::SearchConfig::phase_saving`], a variable is decided first to its
//!   value in the newest solution, while that value is possible (a local search around the
//!   incumbent);
//! - *activity*: with learning and [`crate::SearchConfig::activity`], what recent conflicts
//!   met most is decided first, for the variables the groups leave or in every decision of
//!   a run (Chuffed's free search): the most active open literal on its saved side
//!   (`learn/literal_activity.rs`), else the most active variable (`learn/activity.rs`), as
//!   [`crate::SearchConfig::activity_over`] says. Conflict analysis feeds the activities.

use crate::branch::{Branching, Decision, ValOrder};
use crate::ids::VarId;
use crate::solver::Solver;

/// Chooses the decision at each node of a search.
pub(crate) trait Brancher {
    /// The next decision at the solver's current node, `None` when every variable is fixed.
    fn next_decision(&mut self, solver: &mut Solver) -> Option<Decision>;
}

/// The model's branching groups, with saved phases and activity as configured: the
/// variable comes from the search's selector (`select/`, prepared for the groups), the
/// value from the group's value order or the saved phase; with activity-based search, from
/// the activities in a run by activity alone and for the variables the groups leave.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Groups<'a>(pub(crate) &'a [Branching]);

impl Brancher for Groups<'_> {
    fn next_decision(&mut self, solver: &mut Solver) -> Option<Decision> {
        solver.decide_in_groups(self.0)
    }
}

impl Solver {
    /// The next decision over `branching` (see [`Groups`]).
    fn decide_in_groups(&mut self, branching: &[Branching]) -> Option<Decision> {
        if self.activity_run() {
            return self.decide_by_activity();
        }
        let found = if self.uses_activity() {
            match self.selector.next_in_groups(&mut self.store, &self.weights, branching) {
                Some(found) => Some(found),
                None => return self.decide_by_activity(),
            }
        } else {
            self.selector.next(&mut self.store, &self.weights, branching)
        };
        let (x, order) = found?;
        Some(self.saved_phase(x, order).unwrap_or_else(|| self.select_value(x, order)))
    }

    /// The decision by activity: on the most active open literal, else on the most active
    /// variable (`None` when every variable is fixed).
    fn decide_by_activity(&mut self) -> Option<Decision> {
        if let Some(lit) = self.most_active_literal() {
            return Some(Decision::of_literal(lit));
        }
        self.most_active().map(|x| self.activity_decision(x))
    }

    /// The decision on `x` chosen by activity: its value in the newest solution if still
    /// possible, else `x ≤ min` (whose other side, `x > min`, is a bound).
    fn activity_decision(&self, x: VarId) -> Decision {
        self.saved_phase(x, ValOrder::Min).unwrap_or(Decision::LessEq(x, self.min(x)))
    }

    /// Remembers the current (full) assignment as the preferred values of later decisions.
    pub(crate) fn save_phases(&mut self) {
        self.phases.clear();
        self.phases.extend(self.store.domains.iter().map(|d| d.min));
    }

    /// The decision that leads towards `x`'s value in the saved solution, if that value is
    /// still in its domain: the value itself, or the half of a split that holds it.
    fn saved_phase(&self, x: VarId, order: ValOrder) -> Option<Decision> {
        let v = *self.phases.get(x.index())?;
        let d = &self.store.domains[x.index()];
        if !d.contains(v) {
            return None;
        }
        let mid = d.min + (d.max - d.min) / 2;
        Some(match order {
            ValOrder::Split | ValOrder::ReverseSplit if v <= mid => Decision::LessEq(x, mid),
            ValOrder::Split | ValOrder::ReverseSplit => Decision::Greater(x, mid),
            _ => Decision::Assign(x, v),
        })
    }

    fn select_value(&self, x: VarId, order: ValOrder) -> Decision {
        let d = &self.store.domains[x.index()];
        match order {
            ValOrder::Min => Decision::Assign(x, d.min),
            ValOrder::Max => Decision::Assign(x, d.max),
            ValOrder::MiddleOut => {
                let (lo, hi) = self.initial[x.index()];
                let mid = lo + (hi - lo) / 2;
                let above = d.next_value(mid);
                let below = d.prev_value(mid);
                let v = match (below, above) {
                    (Some(b), Some(a)) => {
                        if mid - b <= a - mid {
                            b
                        } else {
                            a
                        }
                    }
                    (Some(b), None) => b,
                    (None, Some(a)) => a,
                    (None, None) => d.min,
                };
                Decision::Assign(x, v)
            }
            ValOrder::Split => Decision::LessEq(x, d.min + (d.max - d.min) / 2),
            ValOrder::ReverseSplit => Decision::Greater(x, d.min + (d.max - d.min) / 2),
            ValOrder::Median => {
                // An interval (no bitset) has its median in the middle; only holes need a walk.
                let v = if d.bits.is_none() && !d.is_small() {
                    d.min + (d.max - d.min) / 2
                } else {
                    d.values().nth(((d.size() - 1) / 2) as usize).unwrap_or(d.min)
                };
                Decision::Assign(x, v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::branch::VarOrder;

    fn group(vars: Vec<VarId>, val_order: ValOrder) -> Vec<Branching> {
        vec![Branching { vars, var_order: VarOrder::Input, val_order }]
    }

    /// The next decision of a search over `branching`, from the current state.
    fn next(solver: &mut Solver, branching: &[Branching]) -> Option<Decision> {
        solver.selector.prepare(&mut solver.store, &solver.weights, branching);
        Groups(branching).next_decision(solver)
    }

    #[test]
    fn a_saved_phase_is_tried_first_while_it_is_possible() {
        let mut solver = Solver::new();
        let x = solver.new_var(0, 9).unwrap();
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Min)), Some(Decision::Assign(x, 0)));
        solver.phases = vec![7];
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Min)), Some(Decision::Assign(x, 7)));
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Max)), Some(Decision::Assign(x, 7)));
        // A split goes to the half that holds the saved value.
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Split)), Some(Decision::Greater(x, 4)));
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::ReverseSplit)), Some(Decision::Greater(x, 4)));
        solver.phases = vec![2];
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Split)), Some(Decision::LessEq(x, 4)));
        // Once the value is gone, the order's own choice.
        solver.store.remove(x, 2).unwrap();
        assert_eq!(next(&mut solver, &group(vec![x], ValOrder::Max)), Some(Decision::Assign(x, 9)));
    }
}
