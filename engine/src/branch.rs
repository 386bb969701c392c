//! Branching: which variable to decide next, and how to split its domain.
//!
//! A decision splits the current node in two: the left branch (`x = v`, or `x <= v` for
//! domain splitting) and its negation on the right. Together they cover the node exactly,
//! so counting solutions over the tree is exact.

use crate::domain::Val;
use crate::ids::VarId;
use crate::solver::Solver;

/// Which unfixed variable to branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VarOrder {
    /// The first unfixed variable in the order given.
    #[default]
    Input,
    /// The smallest domain first ("first fail"); ties go to the earlier variable.
    SmallestDomain,
    /// Smallest domain size divided by the failure-weighted degree (Boussemart et al. 2004).
    DomWdeg,
    /// The largest domain first (MiniZinc's `anti_first_fail`).
    LargestDomain,
    /// The variable with the smallest minimum value (MiniZinc's `smallest`).
    SmallestMin,
    /// The variable with the largest maximum value (MiniZinc's `largest`).
    LargestMax,
    /// The variable in the most constraints still alive (MiniZinc's `occurrence`).
    Occurrence,
    /// The smallest domain, ties broken by the most constraints (MiniZinc's
    /// `most_constrained`).
    MostConstrained,
    /// The largest gap between the two smallest values (MiniZinc's `max_regret`).
    MaxRegret,
}

/// Which value to try first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValOrder {
    /// The smallest value first: left `x = min`, right `x ≠ min`.
    #[default]
    Min,
    /// The largest value first: left `x = max`, right `x ≠ max`.
    Max,
    /// The value nearest the centre of the variable's initial range first.
    MiddleOut,
    /// `x <= mid` then `x > mid`: halves the domain instead of picking a value.
    Split,
    /// `x > mid` then `x <= mid`: the upper half first.
    ReverseSplit,
    /// The middle value of the current domain (the lower one of two), as MiniZinc's
    /// `indomain_median`.
    Median,
}

/// A group of variables branched on with one strategy. Groups are tried in order; every
/// variable of the model that is still unfixed after all groups is decided last, in input
/// order with the smallest value, so that a solution always fixes every variable.
#[derive(Debug, Clone, Default)]
pub struct Branching {
    /// The variables of the group; [`VarOrder::Input`] takes them in this order.
    pub vars: Vec<VarId>,
    /// Which unfixed variable of the group is decided next.
    pub var_order: VarOrder,
    /// How the chosen variable's domain is split.
    pub val_order: ValOrder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Left `x = v`, right `x != v`.
    Assign(VarId, Val),
    /// Left `x <= v`, right `x > v`.
    LessEq(VarId, Val),
    /// Left `x > v`, right `x <= v`.
    Greater(VarId, Val),
}

impl Solver {
    /// The next decision of a search over `branching`, `None` when every variable is fixed.
    /// The variable comes from the search's [`crate::select::Selector`] (prepared for
    /// `branching`), the value from the group's value order or the saved phase; with
    /// activity-based search ([`crate::SearchConfig::activity`]), from the activities in a
    /// run by activity alone and for the variables the groups leave.
    pub(crate) fn next_decision(&mut self, branching: &[Branching]) -> Option<Decision> {
        if self.activity_run() {
            return self.most_active().map(|x| self.activity_decision(x));
        }
        let found = if self.uses_activity() {
            match self.selector.next_in_groups(&mut self.store, &self.weights, branching) {
                Some(found) => Some(found),
                None => return self.most_active().map(|x| self.activity_decision(x)),
            }
        } else {
            self.selector.next(&mut self.store, &self.weights, branching)
        };
        let (x, order) = found?;
        Some(self.saved_phase(x, order).unwrap_or_else(|| self.select_value(x, order)))
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

    fn group(vars: Vec<VarId>, val_order: ValOrder) -> Vec<Branching> {
        vec![Branching { vars, var_order: VarOrder::Input, val_order }]
    }

    /// The next decision of a search over `branching`, from the current state.
    fn next(solver: &mut Solver, branching: &[Branching]) -> Option<Decision> {
        solver.selector.prepare(&mut solver.store, &solver.weights, branching);
        solver.next_decision(branching)
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
