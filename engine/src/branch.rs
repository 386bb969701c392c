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
}

/// Which value to try first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValOrder {
    #[default]
    Min,
    Max,
    /// The value nearest the centre of the variable's initial range first.
    MiddleOut,
    /// `x <= mid` then `x > mid`: halves the domain instead of picking a value.
    Split,
}

/// A group of variables branched on with one strategy. Groups are tried in order; every
/// variable of the model that is still unfixed after all groups is decided last, in input
/// order with the smallest value, so that a solution always fixes every variable.
#[derive(Debug, Clone, Default)]
pub struct Branching {
    pub vars: Vec<VarId>,
    pub var_order: VarOrder,
    pub val_order: ValOrder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Left `x = v`, right `x != v`.
    Assign(VarId, Val),
    /// Left `x <= v`, right `x > v`.
    LessEq(VarId, Val),
}

impl Solver {
    pub(crate) fn next_decision(&self, branching: &[Branching]) -> Option<Decision> {
        for group in branching {
            if let Some(x) = self.select_var(&group.vars, group.var_order) {
                return Some(self.select_value(x, group.val_order));
            }
        }
        let x = (0..self.num_vars() as u32).map(VarId).find(|&x| !self.is_fixed(x))?;
        Some(Decision::Assign(x, self.min(x)))
    }

    fn select_var(&self, vars: &[VarId], order: VarOrder) -> Option<VarId> {
        let mut unfixed = vars.iter().copied().filter(|&x| !self.is_fixed(x));
        match order {
            VarOrder::Input => unfixed.next(),
            VarOrder::SmallestDomain => unfixed.min_by_key(|&x| self.size(x)),
            VarOrder::DomWdeg => {
                let mut best: Option<(VarId, f64)> = None;
                for x in unfixed {
                    let wdeg: u64 = self
                        .store
                        .watchers(x)
                        .filter(|p| self.store.alive[p.index()])
                        .map(|p| self.weights[p.index()])
                        .sum();
                    let score = self.size(x) as f64 / wdeg.max(1) as f64;
                    if best.is_none_or(|(_, s)| score < s) {
                        best = Some((x, score));
                    }
                }
                best.map(|(x, _)| x)
            }
        }
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
        }
    }
}
