//! A clause `p₁ ∨ … ∨ pₙ ∨ ¬q₁ ∨ … ∨ ¬qₘ` over 0/1 variables, by two watched literals
//! (Moskewicz et al., Chaff, 2001; Chuffed's clause propagator works the same way).
//!
//! A clause can prune only when all its literals but one are false (unit propagation:
//! the last one must be true), and fail only when all are. While two literals are not
//! false, neither can happen. So the propagator keeps two *watches*, positions of
//! literals not known to be false, and a wake-up first looks at those two alone: if both
//! are still not false it returns at once, whichever other literal was fixed. Only when
//! a watch has become false does it scan the clause for a replacement, and that scan
//! finds either a true literal (satisfied), a second literal not false (new watch), one
//! only (unit: make it true) or none (conflict). That is unit propagation, which on a
//! clause is domain consistent: with two literals not false, every value of every
//! variable is part of a solution.
//!
//! The watches are plain fields, not trailed, as in SAT solvers. Backtracking only
//! unfixes variables, so a literal that was not false stays not false higher up the
//! tree: watches that were valid when chosen are still valid after any backtrack, and
//! there is nothing to restore. (A watch can be left false when the propagator stops
//! looking, after a unit or a satisfied clause; the next wake-up sees it false and
//! rescans, so a stale watch costs one scan, never a missed pruning.) The engine has no
//! dynamic subscriptions, so the propagator subscribes to the fixing of every variable;
//! what the watches save is the scan, not the wake-up.

use super::reasons::exclude;
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// One literal: `var = 1` when `positive`, `var = 0` otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BoolLit {
    pub(crate) var: VarId,
    pub(crate) positive: bool,
}

impl BoolLit {
    /// The value of `var` that makes the literal true.
    pub(crate) fn value(self) -> Val {
        Val::from(self.positive)
    }

    fn is_true(self, cx: &Context<'_>) -> bool {
        cx.is_fixed(self.var) && cx.min(self.var) == self.value()
    }

    fn is_false(self, cx: &Context<'_>) -> bool {
        !cx.contains(self.var, self.value())
    }
}

/// A clause over 0/1 variables, by two watched literals; posted by [`crate::constraints::clause`].
#[derive(Debug, Clone)]
pub struct Clause {
    literals: Vec<BoolLit>,
    /// Positions in `literals` of two literals that were not false when last looked at.
    watches: [usize; 2],
}

impl Clause {
    /// At least two literals over distinct 0/1 variables (the post function ensures it).
    pub(crate) fn new(literals: Vec<BoolLit>) -> Clause {
        debug_assert!(literals.len() >= 2);
        Clause { literals, watches: [0, 1] }
    }

    /// Literals saying that every literal of the clause on a variable other than `except`
    /// was false, if so (the variables are 0/1: a bound each).
    fn others_false(&self, cx: &ExplainContext<'_>, except: Option<VarId>) -> Option<Vec<Literal>> {
        let mut reason = Vec::with_capacity(self.literals.len());
        for l in self.literals.iter().filter(|l| Some(l.var) != except) {
            if !exclude(cx, l.var, &[l.value()], &mut reason) {
                return None;
            }
        }
        Some(reason)
    }
}

impl Propagator for Clause {
    fn name(&self) -> &'static str {
        "clause"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for l in &self.literals {
            cx.subscribe(l.var, Events::ASSIGNED);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        // The common wake-up: a literal that is not watched was fixed. O(1).
        let [a, b] = self.watches.map(|i| self.literals[i]);
        if a.is_true(cx) || b.is_true(cx) {
            return Ok(PropStatus::Entailed);
        }
        if !a.is_false(cx) && !b.is_false(cx) {
            return Ok(PropStatus::Active);
        }
        // A watch is false: look for two literals that are not, or one that is true.
        let mut open = [0usize; 2];
        let mut count = 0;
        for (i, l) in self.literals.iter().enumerate() {
            if l.is_true(cx) {
                return Ok(PropStatus::Entailed);
            }
            if !l.is_false(cx) {
                open[count] = i;
                count += 1;
                if count == 2 {
                    self.watches = open;
                    return Ok(PropStatus::Active);
                }
            }
        }
        if count == 0 {
            return Err(Conflict);
        }
        let unit = self.literals[open[0]];
        let _ = cx.assign(unit.var, unit.value())?;
        Ok(PropStatus::Entailed)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.literals.iter().any(|l| value(l.var) == l.value())
    }

    fn vars(&self) -> Vec<VarId> {
        self.literals.iter().map(|l| l.var).collect()
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// The unit literal: every other literal false. (Its naive explanation cites the same
    /// literals, built from every variable's history.)
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.others_false(cx, Some(lit.var()))
    }

    /// Every literal false.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.others_false(cx, None)
    }
}

#[cfg(test)]
mod tests {
    use super::{BoolLit, Clause};
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;
    use crate::propagator::Propagator;

    #[test]
    fn a_unit_is_explained_by_the_other_literals_false() {
        // x0 ∨ ¬x1 ∨ x2 ∨ x3 with x0 = 0, x1 = 1, x3 = 0: x2 = 1.
        let literal = |i: u32, positive: bool| BoolLit { var: var(i), positive };
        let clause = Clause::new(vec![literal(0, true), literal(1, false), literal(2, true), literal(3, true)]);
        let past = Past::new(&[(0, 1); 4], &[Literal::Le(var(0), 0), Literal::Gt(var(1), 0), Literal::Le(var(3), 0)]);
        let reason = clause.explain(Literal::Gt(var(2), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Le(var(0), 0), Literal::Gt(var(1), 0), Literal::Le(var(3), 0)]));
        // Not all false: no conflict to explain.
        assert_eq!(clause.explain_conflict(&past.cx()), None);
    }
}
