//! A clause: `p₁ ∨ … ∨ pₙ ∨ ¬q₁ ∨ … ∨ ¬qₘ` over 0/1 variables, by two watched literals.
//!
//! A clause can only prune when all its literals but one are false (the last one must be
//! true: unit propagation) or fail when all are false. As long as two literals are not
//! false, neither can happen, so the propagator only needs to look at two of them, the
//! *watched literals* of SAT solvers (Moskewicz et al., Chaff, 2001). When a variable of the
//! clause is fixed and both watches are still not false, the wake-up costs two look-ups;
//! only when a watch has become false is the clause scanned for a replacement.
//!
//! The watches are plain fields, not trailed. The test "both watches are not false" is
//! checked against the current domains at every wake-up, so it is sound whatever level
//! the watches were chosen at; undoing assignments only makes more literals not false.
//! The engine wakes the propagator on every assignment of a clause variable (it has no
//! dynamic subscriptions), which is what makes a stale watch harmless: the next wake-up
//! rescans.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// One literal: `var = 1` when `positive`, `var = 0` otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Literal {
    pub(crate) var: VarId,
    pub(crate) positive: bool,
}

impl Literal {
    fn value(self) -> Val {
        Val::from(self.positive)
    }

    fn is_true(self, cx: &Context<'_>) -> bool {
        cx.is_fixed(self.var) && cx.min(self.var) == self.value()
    }

    fn is_false(self, cx: &Context<'_>) -> bool {
        !cx.contains(self.var, self.value())
    }
}

#[derive(Debug, Clone)]
pub struct Clause {
    literals: Vec<Literal>,
    /// Positions of the two watched literals in `literals`.
    watches: [usize; 2],
}

impl Clause {
    /// At least two literals, no variable twice (the post function ensures it).
    pub(crate) fn new(literals: Vec<Literal>) -> Clause {
        debug_assert!(literals.len() >= 2);
        Clause { literals, watches: [0, 1] }
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
        let [a, b] = self.watches;
        let (la, lb) = (self.literals[a], self.literals[b]);
        if la.is_true(cx) || lb.is_true(cx) {
            return Ok(PropStatus::Entailed);
        }
        if !la.is_false(cx) && !lb.is_false(cx) {
            return Ok(PropStatus::Active);
        }
        // A watch is false: find two literals that are not, or a true one.
        let mut found = [usize::MAX; 2];
        let mut count = 0;
        for (i, l) in self.literals.iter().enumerate() {
            if l.is_true(cx) {
                self.watches = [i, if i == a { b } else { a }];
                return Ok(PropStatus::Entailed);
            }
            if !l.is_false(cx) && count < 2 {
                found[count] = i;
                count += 1;
            }
        }
        match count {
            0 => Err(crate::propagator::Conflict),
            1 => {
                let unit = self.literals[found[0]];
                let _ = cx.assign(unit.var, unit.value())?;
                Ok(PropStatus::Entailed)
            }
            _ => {
                self.watches = found;
                Ok(PropStatus::Active)
            }
        }
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
}
