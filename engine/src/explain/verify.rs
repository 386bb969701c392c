//! The independent check of a step: no assignment satisfies the named constraints and facts
//! while contradicting the conclusion.
//!
//! The check does not trust the propagation that found the step. It enumerates assignments
//! of the step's variables and tests every named constraint with its ground truth
//! (`is_satisfied`). When the space is small (at most [`PURE_ENUMERATION`] assignments) the
//! enumeration is exhaustive and uses no propagator at all; above that, the named
//! propagators prune the enumeration (each has its own brute-force tests), and the leaves
//! are still judged by the ground truth alone. A node budget bounds the work: a step the
//! check cannot finish is reported, never printed as verified.

use crate::domain::Val;
use crate::ids::{PropId, VarId};
use crate::solver::Solver;

use super::subset::Narrowing;

/// Spaces up to this many assignments are enumerated without any propagation.
pub(crate) const PURE_ENUMERATION: u128 = 1 << 14;

/// What the check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// No assignment satisfies the constraints, the facts and the negated conclusion.
    Holds,
    /// This assignment (variable, value) satisfies them all: the step is wrong.
    Counterexample(Vec<(VarId, Val)>),
    /// The node budget ran out.
    Unfinished,
}

impl Solver {
    /// Checks that `props`, under `facts` and `negation`, have no solution.
    pub(crate) fn refute(&mut self, props: &[PropId], facts: &[Narrowing], budget: u64) -> Verdict {
        let mut subset = vec![false; self.props.len()];
        let mut vars: Vec<VarId> = Vec::new();
        for &p in props {
            subset[p.index()] = true;
            vars.extend(self.props[p.index()].vars());
        }
        vars.sort();
        vars.dedup();
        self.enter_subset(&subset);
        let consistent = facts.iter().all(|f| self.narrow(f));
        let space = vars.iter().fold(1u128, |acc, &x| acc.saturating_mul(self.size(x) as u128));
        let propagate = space > PURE_ENUMERATION;
        self.store.queue.clear();
        let mut nodes = 0;
        let verdict =
            if consistent { self.enumerate(props, &vars, propagate, &mut nodes, budget) } else { Verdict::Holds };
        self.leave_subset();
        verdict
    }

    fn enumerate(
        &mut self,
        props: &[PropId],
        vars: &[VarId],
        propagate: bool,
        nodes: &mut u64,
        budget: u64,
    ) -> Verdict {
        *nodes += 1;
        if *nodes > budget {
            return Verdict::Unfinished;
        }
        if propagate && !self.run_awake(None) {
            return Verdict::Holds;
        }
        self.store.queue.clear();
        let open = vars.iter().copied().filter(|&x| !self.is_fixed(x)).min_by_key(|&x| (self.size(x), x));
        let Some(x) = open else {
            let value = |y: VarId| self.store.domains[y.index()].min;
            if props.iter().all(|p| self.props[p.index()].is_satisfied(&value)) {
                return Verdict::Counterexample(vars.iter().map(|&y| (y, value(y))).collect());
            }
            return Verdict::Holds;
        };
        let values: Vec<Val> = self.values(x).collect();
        for v in values {
            self.open_level();
            let verdict = if self.store.assign(x, v).is_ok() {
                self.enumerate(props, vars, propagate, nodes, budget)
            } else {
                Verdict::Holds
            };
            self.store.close_level();
            self.store.queue.clear();
            if verdict != Verdict::Holds {
                return verdict;
            }
        }
        Verdict::Holds
    }
}
