//! Parity: `x₁ ⊕ … ⊕ xₙ = odd` over distinct 0/1 variables, the number of ones being odd
//! (or even).
//!
//! While two variables are unfixed nothing follows: whatever value one takes, the other
//! can still make the parity right. When one is left, the parity of the fixed ones
//! forces it; when none is, the parity is checked. So the rule "all but one fixed: fix the
//! last" is domain consistent, and, like a clause, it needs to look at two unfixed
//! variables only: the propagator *watches* two of them (as SAT solvers watch two
//! unassigned variables of an XOR constraint, e.g. CryptoMiniSat) and returns at once
//! while both are still unfixed. A scan, when a watch was fixed, either finds a new pair
//! or concludes.
//!
//! The watches are plain fields for the reason given for clauses (see
//! [`crate::propagators::clause`]): backtracking only unfixes variables, so a watch that
//! was unfixed when chosen is still unfixed after any backtrack, and one left fixed when
//! the propagator concluded is seen fixed at the next wake-up and replaced.
//!
//! A forced variable is explained by the values of all the others, and a conflict by all
//! the values: nothing less decides a parity.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// An odd or even number of 0/1 variables are 1, by two watched variables; posted by [`crate::constraints::parity`].
#[derive(Debug, Clone)]
pub struct Parity {
    xs: Vec<VarId>,
    odd: bool,
    /// Positions in `xs` of two variables that were unfixed when last looked at.
    watches: [usize; 2],
}

impl Parity {
    /// At least two distinct 0/1 variables (the post function ensures it).
    pub(crate) fn new(xs: Vec<VarId>, odd: bool) -> Parity {
        debug_assert!(xs.len() >= 2);
        Parity { xs, odd, watches: [0, 1] }
    }
}

impl Parity {
    /// The values of every variable but `skip`, as bounds; `None` if one was not fixed.
    fn values_except(&self, cx: &ExplainContext<'_>, skip: Option<VarId>) -> Option<Vec<Literal>> {
        let mut reason = Vec::with_capacity(self.xs.len());
        for &x in &self.xs {
            if Some(x) == skip {
                continue;
            }
            let v = cx.min(x);
            if cx.max(x) != v {
                return None;
            }
            reason.push(if v == 0 { Literal::Le(x, 0) } else { Literal::Gt(x, 0) });
        }
        Some(reason)
    }
}

impl Propagator for Parity {
    fn name(&self) -> &'static str {
        "parity"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.xs {
            cx.subscribe(x, Events::ASSIGNED);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let [a, b] = self.watches;
        if !cx.is_fixed(self.xs[a]) && !cx.is_fixed(self.xs[b]) {
            return Ok(PropStatus::Active);
        }
        let mut open = [0usize; 2];
        let mut count = 0;
        // Parity of the fixed ones seen so far; only needed when fewer than two are open.
        let mut odd = false;
        for (i, &x) in self.xs.iter().enumerate() {
            if cx.is_fixed(x) {
                odd ^= cx.min(x) == 1;
            } else {
                open[count] = i;
                count += 1;
                if count == 2 {
                    self.watches = open;
                    return Ok(PropStatus::Active);
                }
            }
        }
        if count == 0 {
            return if odd == self.odd { Ok(PropStatus::Entailed) } else { Err(Conflict) };
        }
        let _ = cx.assign(self.xs[open[0]], Val::from(odd != self.odd))?;
        Ok(PropStatus::Entailed)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.values_except(cx, Some(lit.var()))
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.values_except(cx, None)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let ones = self.xs.iter().filter(|&&x| value(x) == 1).count();
        (ones % 2 == 1) == self.odd
    }

    fn vars(&self) -> Vec<VarId> {
        self.xs.clone()
    }

    fn idempotent(&self) -> bool {
        true
    }
}
