//! Learned-nogood minimisation: dropping the literals the others already imply.
//!
//! Conflict analysis stops resolving at the first literal of the current level, so the
//! literals of earlier levels it keeps are whatever the explanations cited. Some of them
//! follow from others: a literal `l` whose own explanation cites only literals that the
//! rest of the nogood implies (a literal implies another of its variable when it is at
//! least as strong: `x ≤ 3` implies `x ≤ 5` and `x ≠ 7`) or facts of the whole search is
//! redundant, and the nogood without it says as much. This is MiniSat's *local*
//! minimisation (Sörensson and Biere, "Minimizing learned clauses", SAT 2009), one step
//! deep, over lazy literals as in Chuffed: the explanation is asked again, as analysis
//! did.
//!
//! Literals are tried newest first and dropped one at a time, each against the literals
//! still kept: the last one dropped follows from those left, the one before from those
//! left and the last, and so on, so the shorter nogood follows from the longer. A literal
//! made by a decision, or explained naively (the domains of a whole constraint: long, and
//! never covered), is kept; so is one whose explanation is longer than [`MAX_REASON`].
//! Shorter nogoods prune earlier, and their literal block distance drops with them.

use std::collections::HashMap;

use crate::ids::VarId;
use crate::learn::db::NogoodDb;
use crate::learn::explain::ExplainContext;
use crate::learn::history::{Cause, History};
use crate::literal::Literal;
use crate::propagator::Propagator;

/// Explanations longer than this are not tried: they would rarely be covered, and asking
/// for them costs.
const MAX_REASON: usize = 32;

/// Whether `a` implies `b`: the same variable, and every value that satisfies `a`
/// satisfies `b`.
pub(crate) fn implies(a: Literal, b: Literal) -> bool {
    if a.var() != b.var() {
        return false;
    }
    match (a, b) {
        (Literal::Eq(_, u), _) => b.holds_for(u),
        (Literal::Le(_, u), Literal::Le(_, v)) => u <= v,
        (Literal::Le(_, u), Literal::Ne(_, v)) => v > u,
        (Literal::Gt(_, u), Literal::Gt(_, v)) => u >= v,
        (Literal::Gt(_, u), Literal::Ne(_, v)) => v <= u,
        (Literal::Ne(_, u), Literal::Ne(_, v)) => u == v,
        _ => false,
    }
}

/// Whether `lit` holds for the whole search: true when the search began, or made true at
/// the root level or as an axiom (the objective's bound).
fn is_fact(history: &History, lit: Literal) -> bool {
    match history.position(lit) {
        None => true,
        Some(p) => {
            let event = history.events[p];
            event.cause == Cause::Axiom || event.level <= history.root_level
        }
    }
}

/// Drops from `lits` (a nogood's literals of earlier levels, all holding now) those the
/// others imply; answers how many it dropped.
pub(crate) fn minimize(history: &History, props: &[Box<dyn Propagator>], db: &NogoodDb, lits: &mut Vec<Literal>) -> usize {
    if lits.len() < 2 {
        return 0;
    }
    let mut by_var: HashMap<VarId, Vec<usize>> = HashMap::new();
    let mut order = Vec::with_capacity(lits.len());
    for (i, &l) in lits.iter().enumerate() {
        by_var.entry(l.var()).or_default().push(i);
        if let Some(p) = history.position(l) {
            order.push((p, i));
        }
    }
    order.sort_unstable_by(|a, b| b.cmp(a));
    let mut kept = vec![true; lits.len()];
    let mut dropped = 0;
    for (p, i) in order {
        let event = history.events[p];
        let reason = match event.cause {
            Cause::Prop(q) => props[q.index()].explain(event.lit, &ExplainContext { history, at: p }),
            Cause::Nogood(k) => Some(db.reason(k, history, p)),
            Cause::Decision | Cause::Holes | Cause::Axiom => None,
        };
        let Some(reason) = reason.filter(|r| r.len() <= MAX_REASON) else {
            continue;
        };
        let covered = |r: Literal| {
            is_fact(history, r)
                || by_var.get(&r.var()).is_some_and(|at| at.iter().any(|&j| j != i && kept[j] && implies(lits[j], r)))
        };
        let redundant = reason.iter().all(|&r| match r {
            Literal::Eq(x, v) => covered(Literal::Gt(x, v - 1)) && covered(Literal::Le(x, v)),
            _ => covered(r),
        });
        if redundant {
            kept[i] = false;
            dropped += 1;
        }
    }
    if dropped > 0 {
        let mut k = kept.iter();
        lits.retain(|_| *k.next().expect("one flag per literal"));
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::implies;
    use crate::ids::VarId;
    use crate::literal::Literal;

    /// `implies` agrees with the values: `a` implies `b` exactly when every value of
    /// `-3..=3` that satisfies `a` satisfies `b`.
    #[test]
    fn implication_is_read_off_the_values() {
        let (x, y) = (VarId(0), VarId(1));
        let lits = |v| [Literal::Eq(x, v), Literal::Ne(x, v), Literal::Le(x, v), Literal::Gt(x, v)];
        for u in -2..=2 {
            for v in -2..=2 {
                for a in lits(u) {
                    for b in lits(v) {
                        // Eq on the right is never implied but by Eq itself.
                        let by_values = (-3..=3).filter(|&w| a.holds_for(w)).all(|w| b.holds_for(w));
                        let expected = by_values && !matches!(b, Literal::Eq(..)) || a == b;
                        assert_eq!(implies(a, b), expected, "{a:?} ⇒ {b:?}");
                    }
                }
                assert!(!implies(Literal::Le(x, u), Literal::Le(y, u + 5)), "another variable");
            }
        }
    }
}
