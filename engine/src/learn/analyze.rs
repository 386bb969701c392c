//! Conflict analysis: from a failure to a nogood that keeps the search from failing the
//! same way again (first unique implication point, as in Chuffed and Pumpkin).
//!
//! A failure comes with a *conflict*: literals that hold now and cannot all hold together
//! (a propagator's explanation of why its constraint is violated). Each literal was made
//! true by an event of the branch. While more than one of them was made at the current
//! decision level, the newest such event is replaced by its explanation: the literals that
//! implied it, all older. What is left is one literal of the current level (the *unique
//! implication point*) and literals of earlier levels: they still cannot all hold, in any
//! node of the search, since every step used only the constraints. Literals that held when
//! the search began, or that the objective bound established, are left out: they hold for
//! the rest of the search.
//!
//! Of the literals of earlier levels on one bound of one variable, the nogood keeps the
//! strongest, which implies the others. An event is resolved as it was made (`x > 8`),
//! not only as far as the literals cited need (`x > 4`): on PSPLIB and cyclic RCPSP the
//! weaker resolution makes more failures (notes/learning.md, "Scheduling under learning").

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::learn::db::NogoodDb;
use crate::learn::explain::{naive, ExplainContext};
use crate::learn::history::{Cause, History};
use crate::learn::verify::{check_holes, check_reason};
use crate::literal::Literal;
use crate::propagator::Propagator;

/// The nogood learned from `conflict` (literals that all hold now at `depth` and cannot
/// hold together): literals that cannot all hold, one of them from the current level when
/// the conflict involves it, with the level where it asserts. Empty when the conflict rests
/// on facts of the whole search alone (the search below the root is then over). With `verify`, every literal cited is
/// checked to have held when it was cited (a propagator's explanation bug panics).
///
/// Without a nogood (`nogood: None`) when the analysis would cite more than [`WORK_LIMIT`]
/// literals: an analysis through naive explanations of large constraints can grow without
/// use, and the search must go on. It goes on past the point where its nogood is sure to
/// be too long to keep: the variables it meets raise their activity, and stopping there
/// made PSPLIB's J30_45_2 lose its way (not proved in 60 s, against 37 s). The
/// variables met so far are reported either way.
pub(crate) fn analyze(
    history: &History,
    props: &[Box<dyn Propagator>],
    db: &NogoodDb,
    conflict: &[Literal],
    depth: usize,
    verify: bool,
) -> Learned {
    let mut work = Analysis {
        history,
        verify,
        depth: depth as u32,
        current: BTreeSet::new(),
        earlier: Vec::new(),
        newest_earlier: None,
        seen: HashSet::default(),
        met: Vec::new(),
        cited: 0,
    };
    for &lit in conflict {
        work.add(lit, usize::MAX);
    }
    let mut uip = None;
    while let Some(p) = work.current.pop_last() {
        if work.cited > WORK_LIMIT {
            return Learned { nogood: None, assert_level: history.root_level, met: work.met, cited: work.cited };
        }
        let event = history.events[p];
        if work.current.is_empty() {
            uip = Some(event.lit);
            break;
        }
        let reason = match event.cause {
            Cause::Decision => {
                // The decision's own events come first at its level: what is left of the
                // level is implied by the decision.
                work.current.clear();
                uip = Some(history.decision(event.level).unwrap_or(event.lit));
                break;
            }
            Cause::Prop(q) => {
                let cx = ExplainContext { history, at: p };
                let prop = &props[q.index()];
                let reason = prop.explain(event.lit, &cx).unwrap_or_else(|| naive(history, &prop.vars(), p));
                if verify {
                    check_reason(history, prop.as_ref(), &reason, Some(event.lit));
                }
                reason
            }
            Cause::Holes => {
                let reason = naive(history, &[event.lit.var()], p);
                if verify {
                    check_holes(history, &reason, event.lit);
                }
                reason
            }
            Cause::Nogood(k) => {
                let reason = db.reason(k, history, p);
                if verify {
                    assert!(!db.nogoods[k as usize].is_empty(), "the nogood {k}, forgotten, is the reason of an event");
                    let nogood = crate::propagators::Nogood::new(db.nogoods[k as usize].clone());
                    check_reason(history, &nogood, &reason, Some(event.lit));
                }
                reason
            }
            Cause::Axiom => unreachable!("axioms are not analysed"),
        };
        for lit in reason {
            work.add(lit, p);
        }
    }
    let mut nogood = strongest_per_bound(work.earlier);
    nogood.extend(uip);
    let assert_level = work.newest_earlier.unwrap_or(history.root_level);
    Learned { nogood: Some(nogood), assert_level, met: work.met, cited: work.cited }
}

/// What analysis learned from a conflict.
#[derive(Debug)]
pub(crate) struct Learned {
    /// Literals that cannot all hold; the last is the one of the current level, if any.
    /// `None` when the analysis gave up.
    pub(crate) nogood: Option<Vec<Literal>>,
    /// The newest level among the other literals: back there, all of them still hold and
    /// the nogood makes the last one false (the root level when there are none).
    pub(crate) assert_level: u32,
    /// Every literal analysis met below the root (with repeats of a variable): the ones
    /// whose activity the conflict raises.
    pub(crate) met: Vec<Literal>,
    /// The literals cited on the way (the analysis's work).
    pub(crate) cited: usize,
}

/// The most literals one analysis cites before it gives up.
const WORK_LIMIT: usize = 100_000;

struct Analysis<'a> {
    history: &'a History,
    /// Check that every literal cited held when it was cited (tests).
    verify: bool,
    depth: u32,
    /// Events of the current level still to resolve, by position.
    current: BTreeSet<usize>,
    /// Literals of earlier levels, each once.
    earlier: Vec<Literal>,
    /// The newest of their levels.
    newest_earlier: Option<u32>,
    seen: HashSet<Literal>,
    met: Vec<Literal>,
    /// The literals cited so far.
    cited: usize,
}

impl Analysis<'_> {
    /// Adds a literal that held just before position `before`.
    fn add(&mut self, lit: Literal, before: usize) {
        self.cited += 1;
        match lit {
            Literal::Eq(x, v) => {
                self.add(Literal::Gt(x, v - 1), before);
                self.add(Literal::Le(x, v), before);
            }
            _ => {
                if self.verify {
                    let cx = ExplainContext { history: self.history, at: before };
                    assert!(cx.holds(lit), "an explanation cites {lit:?}, which did not hold");
                }
                let Some(p) = self.history.position(lit) else {
                    return; // held when the search began
                };
                assert!(p < before, "an explanation cites {lit:?}, which became true only after what it explains");
                let event = self.history.events[p];
                if event.cause == Cause::Axiom || event.level <= self.history.root_level {
                    return;
                }
                if event.level == self.depth {
                    if self.current.insert(p) {
                        self.met.push(lit);
                    }
                } else if self.seen.insert(lit) {
                    self.met.push(lit);
                    self.earlier.push(lit);
                    self.newest_earlier = self.newest_earlier.max(Some(event.level));
                }
            }
        }
    }
}

/// The literals of `lits` with, on each bound of each variable, only the strongest (`x > 7`
/// implies `x > 4`; in a set of literals that cannot all hold, the weaker adds nothing), in
/// their first order.
fn strongest_per_bound(lits: Vec<Literal>) -> Vec<Literal> {
    let mut best: HashMap<(crate::ids::VarId, bool), Literal> = HashMap::default();
    for &lit in &lits {
        let key = match lit {
            Literal::Gt(x, _) => (x, true),
            Literal::Le(x, _) => (x, false),
            _ => continue,
        };
        let entry = best.entry(key).or_insert(lit);
        *entry = match (*entry, lit) {
            (Literal::Gt(x, u), Literal::Gt(_, v)) => Literal::Gt(x, u.max(v)),
            (Literal::Le(x, u), Literal::Le(_, v)) => Literal::Le(x, u.min(v)),
            (kept, _) => kept,
        };
    }
    let mut out = Vec::with_capacity(lits.len());
    for lit in lits {
        match lit {
            Literal::Gt(x, _) | Literal::Le(x, _) => {
                let key = (x, matches!(lit, Literal::Gt(..)));
                if let Some(kept) = best.remove(&key) {
                    out.push(kept);
                }
            }
            _ => out.push(lit),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::strongest_per_bound;
    use crate::ids::VarId;
    use crate::literal::Literal;

    #[test]
    fn keeps_the_strongest_literal_on_each_bound() {
        let (x, y) = (VarId(0), VarId(1));
        let lits = vec![
            Literal::Gt(x, 4),
            Literal::Le(x, 9),
            Literal::Ne(y, 3),
            Literal::Gt(x, 7),
            Literal::Le(x, 6),
            Literal::Gt(y, 1),
            Literal::Ne(y, 5),
        ];
        assert_eq!(
            strongest_per_bound(lits),
            vec![Literal::Gt(x, 7), Literal::Le(x, 6), Literal::Ne(y, 3), Literal::Gt(y, 1), Literal::Ne(y, 5)]
        );
    }
}
