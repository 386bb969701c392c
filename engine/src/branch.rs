//! Branching: which variable to decide next, and how to split its domain.
//!
//! A decision splits the current node in two: the left branch (`x = v`, or `x <= v` for
//! domain splitting) and its negation on the right. Together they cover the node exactly,
//! so counting solutions over the tree is exact.

use crate::domain::Val;
use crate::ids::VarId;

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
    /// Left `x != v`, right `x = v`.
    Exclude(VarId, Val),
}
