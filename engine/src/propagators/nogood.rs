//! Nogoods recorded at restarts: sets of search decisions that cannot all hold.
//!
//! When a search restarts, the branch it leaves says which subtrees it has already
//! refuted. Each right branch taken on it (`x ≠ v` after `x = v`) means that the left
//! branch failed, under the decisions above it. Lecoutre, Saïs, Tabary and Vidal ("Recording
//! and minimizing nogoods from restarts", JSAT 2007) show that the negative decisions above
//! can be dropped: the left decisions taken above it together with the refuted one form a
//! *reduced nld-nogood*, a set of decisions that no solution satisfies (with branch and
//! bound: no solution better than the incumbent, which only improves). Posted at the root,
//! the nogoods keep the next runs out of the subtrees already refuted, which is what makes
//! restarts complete and keeps them from repeating work.
//!
//! [`Nogood`] enforces one: when all its decisions but one hold, the last one is negated,
//! and once one of them is false it is entailed. [`from_branch`] derives them from a branch.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// The reduced nld-nogoods of a branch given as its decisions' left branches, each with
/// whether the search is in its right branch (the left one refuted).
pub(crate) fn from_branch(branch: impl IntoIterator<Item = (Literal, bool)>) -> Vec<Vec<Literal>> {
    let mut lefts: Vec<Literal> = Vec::new();
    let mut nogoods = Vec::new();
    for (left, in_right) in branch {
        if in_right {
            let mut nogood = lefts.clone();
            nogood.push(left);
            nogoods.push(nogood);
        } else {
            lefts.push(left);
        }
    }
    nogoods
}

/// Whether a decision holds, fails or is still open in the current domains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Truth {
    True,
    False,
    Open,
}

/// Whether `fixing` holds, fails or is open in `d`, the domain of its variable.
#[inline]
pub(crate) fn truth_in(d: &crate::domain::Domain, fixing: Literal) -> Truth {
    let (holds, fails) = match fixing {
        Literal::Eq(_, v) => (d.is_fixed() && d.min == v, !d.contains(v)),
        Literal::Ne(_, v) => (!d.contains(v), d.is_fixed() && d.min == v),
        Literal::Le(_, v) => (d.max <= v, d.min > v),
        Literal::Gt(_, v) => (d.min > v, d.max <= v),
    };
    if holds {
        Truth::True
    } else if fails {
        Truth::False
    } else {
        Truth::Open
    }
}

fn truth(cx: &Context<'_>, fixing: Literal) -> Truth {
    truth_in(&cx.store.domains[fixing.var().index()], fixing)
}

/// Not all of `decisions` hold.
#[derive(Debug, Clone)]
pub struct Nogood {
    decisions: Vec<Literal>,
}

impl Nogood {
    /// Not all of `decisions` hold; there must be at least one.
    pub(crate) fn new(decisions: Vec<Literal>) -> Nogood {
        debug_assert!(!decisions.is_empty());
        Nogood { decisions }
    }
}

impl Propagator for Nogood {
    fn name(&self) -> &'static str {
        "nogood"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &d in &self.decisions {
            // A decision becomes true by a fixing (`=`), a bound (`≤`, `>`) or a removal (`≠`).
            let events = match d {
                Literal::Eq(..) => Events::ASSIGNED,
                Literal::Le(..) | Literal::Gt(..) => Events::BOUNDS,
                Literal::Ne(..) => Events::DOMAIN,
            };
            cx.subscribe(d.var(), events);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let mut open: Option<Literal> = None;
        for &d in &self.decisions {
            match truth(cx, d) {
                Truth::False => return Ok(PropStatus::Entailed),
                Truth::True => {}
                Truth::Open if open.is_some() => return Ok(PropStatus::Active),
                Truth::Open => open = Some(d),
            }
        }
        match open {
            None => Err(Conflict),
            Some(last) => {
                let _ = cx.store.apply(last.negated())?;
                Ok(PropStatus::Entailed)
            }
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        !self.decisions.iter().all(|&d| d.holds_for(value(d.var())))
    }

    fn vars(&self) -> Vec<VarId> {
        self.decisions.iter().map(|&d| d.var()).collect()
    }

    /// It negated its one open decision because all the others held.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let others: Vec<Literal> = self.decisions.iter().copied().filter(|&d| cx.holds(d)).collect();
        debug_assert!(others.len() + 1 == self.decisions.len(), "{lit:?} was not this nogood's to establish");
        Some(others)
    }

    /// It failed because all its decisions held.
    fn explain_conflict(&self, _cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        Some(self.decisions.clone())
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }
}

#[cfg(test)]
mod tests {
    use super::from_branch;
    use crate::ids::VarId;
    use crate::literal::Literal;

    #[test]
    fn each_refuted_left_branch_gives_the_lefts_above_it_and_itself() {
        let (x, y, z, w) = (VarId(0), VarId(1), VarId(2), VarId(3));
        let branch = [
            (Literal::Eq(x, 1), false),
            (Literal::Eq(y, 2), true),
            (Literal::Le(z, 3), false),
            (Literal::Gt(w, 4), true),
        ];
        assert_eq!(
            from_branch(branch),
            vec![
                vec![Literal::Eq(x, 1), Literal::Eq(y, 2)],
                vec![Literal::Eq(x, 1), Literal::Le(z, 3), Literal::Gt(w, 4)]
            ]
        );
        assert!(from_branch([(Literal::Eq(x, 1), false)]).is_empty());
    }
}
