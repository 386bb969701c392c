//! Explanations: the literals that made a propagator deduce what it did.
//!
//! When conflict analysis meets a literal a propagator established, it asks the propagator
//! why, lazily, long after the fact: [`crate::Propagator::explain`] gets the literal and an
//! [`ExplainContext`] that shows the domains as they were just before the change. The answer
//! is a set of literals that held then and that, with the constraint, imply the literal.
//!
//! A propagator that cannot explain answers `None`, and the engine uses the *naive*
//! explanation: the domains of all its variables at that moment (their bounds and holes,
//! as far as they differ from the start of the search). That is always sound, because a
//! propagator deduces only from its variables' domains; it is weak, because it cites more
//! than was used, so learned clauses get longer. Precise explanations are an optimisation.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::history::History;
use crate::literal::Literal;

/// The domains just before a past change, for a propagator that explains it.
#[derive(Debug)]
pub struct ExplainContext<'a> {
    pub(crate) history: &'a History,
    /// The position of the event explained: the domains are read as they were before it.
    pub(crate) at: usize,
}

impl ExplainContext<'_> {
    /// The minimum of `x` then.
    pub fn min(&self, x: VarId) -> Val {
        self.history.min_at(x, self.at)
    }

    /// The maximum of `x` then.
    pub fn max(&self, x: VarId) -> Val {
        self.history.max_at(x, self.at)
    }

    /// Whether `v` was in the domain of `x` then.
    pub fn contains(&self, x: VarId, v: Val) -> bool {
        self.history.contains_at(x, v, self.at)
    }

    /// Whether `lit` held then.
    pub fn holds(&self, lit: Literal) -> bool {
        match lit {
            Literal::Eq(x, v) => self.min(x) == v && self.max(x) == v,
            Literal::Ne(x, v) => !self.contains(x, v),
            Literal::Le(x, v) => self.max(x) <= v,
            Literal::Gt(x, v) => self.min(x) > v,
        }
    }

    /// A literal that held then and says `v` was not a value of `x`: its bound when `v`
    /// lay beyond it (one bound covers many values, and explains better), else the hole.
    /// `None` when `v` was still there.
    pub fn why_not(&self, x: VarId, v: Val) -> Option<Literal> {
        let (lo, hi) = (self.min(x), self.max(x));
        if v < lo {
            Some(Literal::Gt(x, lo - 1))
        } else if v > hi {
            Some(Literal::Le(x, hi))
        } else if !self.contains(x, v) {
            Some(Literal::Ne(x, v))
        } else {
            None
        }
    }

    /// The literals that describe the domain of `x` then (bounds and holes that differ from
    /// the start of the search): the naive explanation's part for `x`.
    pub fn domain_of(&self, x: VarId, out: &mut Vec<Literal>) {
        self.history.domain_literals(x, self.at, out);
    }
}

/// Values a moved bound may pass and still be explained one by one.
const MAX_PASSED: Val = 4096;

/// What `lit`, a literal a propagator made true about its variable `x`, took from `x`: the
/// values it ruled out that `x` still had then, each to be explained by the propagator's
/// rule. The part of the reason about `x` itself goes to `reason`: for a bound that moved,
/// the bound it moved from and the holes it passed. `None` for an `Eq` (never an event) or
/// a bound that passed more than [`MAX_PASSED`] values.
pub(crate) fn ruled_out(cx: &ExplainContext<'_>, lit: Literal, reason: &mut Vec<Literal>) -> Option<Vec<Val>> {
    let x = lit.var();
    let (lo, hi) = (cx.min(x), cx.max(x));
    let (from, to) = match lit {
        Literal::Ne(_, v) => return Some(vec![v]),
        Literal::Gt(_, v) => {
            reason.push(Literal::Gt(x, lo - 1));
            (lo, v)
        }
        Literal::Le(_, v) => {
            reason.push(Literal::Le(x, hi));
            (v + 1, hi)
        }
        Literal::Eq(..) => return None,
    };
    if to.checked_sub(from)? > MAX_PASSED {
        return None;
    }
    let mut values = Vec::new();
    for u in from..=to {
        if cx.contains(x, u) {
            values.push(u);
        } else {
            reason.push(Literal::Ne(x, u));
        }
    }
    Some(values)
}

/// The explanation of `lit` for a propagator that keeps a value of a variable exactly
/// while the *other* variables' domains support it (support search over distinct
/// variables): the other variables' domains, with the part of [`ruled_out`] about `lit`'s
/// own variable. Tighter than the naive explanation by the domain of that variable. `None`
/// when the variable occurs more than once in `vars`, or as [`ruled_out`].
pub(crate) fn by_other_domains(cx: &ExplainContext<'_>, vars: &[VarId], lit: Literal) -> Option<Vec<Literal>> {
    let x = lit.var();
    if vars.iter().filter(|&&y| y == x).count() != 1 {
        return None;
    }
    let mut reason = Vec::new();
    ruled_out(cx, lit, &mut reason)?;
    for &y in vars.iter().filter(|&&y| y != x) {
        cx.domain_of(y, &mut reason);
    }
    Some(reason)
}

/// The naive explanation of a change at `at` by a propagator over `vars`: their domains
/// just before it.
pub(crate) fn naive(history: &History, vars: &[VarId], at: usize) -> Vec<Literal> {
    let mut out = Vec::new();
    for &x in vars {
        history.domain_literals(x, at, &mut out);
    }
    out
}

/// For unit tests of explanations: a branch made of given literals, read after all of them.
#[cfg(test)]
pub(crate) mod testing {
    use super::ExplainContext;
    use crate::domain::{Domain, Val};
    use crate::ids::VarId;
    use crate::learn::history::History;
    use crate::literal::Literal;

    /// A history over variables `0..` with the given initial ranges, whose events are
    /// `lits` in order, all at level 1 (an `Eq` becomes its two bounds).
    pub(crate) struct Past {
        history: History,
    }

    impl Past {
        pub(crate) fn new(ranges: &[(Val, Val)], lits: &[Literal]) -> Past {
            let domains: Vec<Domain> = ranges.iter().map(|&(lo, hi)| Domain::range(lo, hi)).collect();
            let mut history = History::new(&domains, 0);
            let apply = |history: &mut History, lit: Literal| {
                let (x, at) = (lit.var(), history.events.len());
                let old = (history.min_at(x, at), history.max_at(x, at));
                let now = match lit {
                    Literal::Gt(_, v) => (v + 1, old.1),
                    Literal::Le(_, v) => (old.0, v),
                    _ => old,
                };
                history.record(x, &[lit], old, &Domain::range(now.0, now.1), 1);
            };
            for &lit in lits {
                match lit {
                    Literal::Eq(x, v) => {
                        apply(&mut history, Literal::Gt(x, v - 1));
                        apply(&mut history, Literal::Le(x, v));
                    }
                    _ => apply(&mut history, lit),
                }
            }
            Past { history }
        }

        /// The history itself, for checking a reason by brute force.
        pub(crate) fn history(&self) -> &History {
            &self.history
        }

        /// The domains after every literal.
        pub(crate) fn cx(&self) -> ExplainContext<'_> {
            ExplainContext { history: &self.history, at: self.history.events.len() }
        }
    }

    /// The variable of index `i`.
    pub(crate) fn var(i: u32) -> VarId {
        VarId(i)
    }
}

#[cfg(test)]
mod tests {
    use super::ruled_out;
    use super::testing::{var, Past};
    use crate::literal::Literal;

    /// A bound that moved from 1 past the hole 3 to above 4: the reason about the variable
    /// is its old bound and the hole, and the values left to explain are 1, 2 and 4.
    #[test]
    fn a_moved_bound_gives_its_old_place_its_holes_and_its_values() {
        let x = var(0);
        let past = Past::new(&[(0, 9)], &[Literal::Gt(x, 0), Literal::Ne(x, 3)]);
        let mut reason = Vec::new();
        let values = ruled_out(&past.cx(), Literal::Gt(x, 4), &mut reason);
        assert_eq!(values, Some(vec![1, 2, 4]));
        assert_eq!(reason, vec![Literal::Gt(x, 0), Literal::Ne(x, 3)]);
        let mut reason = Vec::new();
        assert_eq!(ruled_out(&past.cx(), Literal::Ne(x, 5), &mut reason), Some(vec![5]));
        assert!(reason.is_empty());
        assert_eq!(ruled_out(&past.cx(), Literal::Le(x, 2), &mut reason), Some(vec![4, 5, 6, 7, 8, 9]));
        assert_eq!(reason, vec![Literal::Le(x, 9), Literal::Ne(x, 3)]);
    }
}
