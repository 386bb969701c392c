//! Activity over literals (VSIDS on lazy literals, as Chuffed's and Huub's free search).
//!
//! Variable activity ([`crate::learn::activity`]) says *which variable* conflicts meet, and
//! leaves the value to a fixed rule (`x ≤ min`). A conflict says more: it met `x > 8`, a
//! threshold where the search went wrong. Here each such threshold is an *atom*, `x ≤ v` or
//! `x = v` up to negation, with an activity of its own; the search decides the most active
//! atom whose truth the domains leave open, on the side it held last (*phase saving*):
//! `x ≤ 8` or `x > 8`, as a SAT solver decides its most active Boolean variable with its
//! saved polarity. On scheduling models the thresholds the conflicts name are precedences
//! in disguise (`s_j > e_i`), which a fixed value rule never picks.
//!
//! Atoms are created lazily, when analysis first meets one of their literals, so none exists
//! for a threshold no conflict named; the search falls back to variable activity where no
//! atom is open. An atom found decided at the top of the heap leaves it and waits, parked
//! with its variable, until a backtrack leaves it open again: only the parked atoms the
//! domain now leaves open come back, found by value, so that the many atoms a branch decides
//! do not go in and out of the heap at every backtrack (on evilshop, whose variables span
//! 0..138516, that cost 13× the search's time).
//!
//! *Phases.* Before a backtrack undoes a branch, the bounds each variable had at its end are
//! saved (read from the events undone, newest first); an atom's phase is what those bounds
//! made of it, so that after a restart the search heads back to where it was, in the order
//! the activities now give (progress saving). An atom the saved bounds leave open takes the
//! lower side (`x ≤ v`, `x = v`): the side variable activity's `x ≤ min` takes too. Once
//! branch and bound has a solution and the search saves its phases
//! ([`crate::SearchConfig::phase_saving`]), an atom takes the side of the newest solution
//! instead: on the hard instances of notes/learning-bench.md the objectives found were
//! better that way (talent scheduling film103 943 against 1015 in 30 s, jobshop la24 935
//! against 941) and jobshop ft10 was proved sooner (2.7 s against 3.9 s).

use std::collections::{BTreeMap, HashMap};

use crate::domain::{Domain, Val};
use crate::ids::VarId;
use crate::literal::Literal;
use crate::select::heap::IndexedHeap;

/// When activities grow past this, all are scaled down (with the increment).
const RESCALE_ABOVE: f64 = 1e100;

/// The most atoms kept; past it, literals not yet atoms are not made ones (their variables
/// still gain variable activity), so that a search over huge domains stays bounded.
const MAX_ATOMS: usize = 1 << 22;

/// A literal up to negation: `x ≤ v` stands for `x > v` too, `x = v` for `x ≠ v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Atom {
    Le(VarId, Val),
    Eq(VarId, Val),
}

impl Atom {
    /// The atom of `lit`, and whether `lit` is its positive side.
    fn of(lit: Literal) -> (Atom, bool) {
        match lit {
            Literal::Le(x, v) => (Atom::Le(x, v), true),
            Literal::Gt(x, v) => (Atom::Le(x, v), false),
            Literal::Eq(x, v) => (Atom::Eq(x, v), true),
            Literal::Ne(x, v) => (Atom::Eq(x, v), false),
        }
    }

    fn var(self) -> VarId {
        match self {
            Atom::Le(x, _) | Atom::Eq(x, _) => x,
        }
    }

    /// The literal of its `positive` or negative side.
    pub(crate) fn literal(self, positive: bool) -> Literal {
        match (self, positive) {
            (Atom::Le(x, v), true) => Literal::Le(x, v),
            (Atom::Le(x, v), false) => Literal::Gt(x, v),
            (Atom::Eq(x, v), true) => Literal::Eq(x, v),
            (Atom::Eq(x, v), false) => Literal::Ne(x, v),
        }
    }

    /// Its truth in domain `d`: `Some(true)` or `Some(false)` when decided, `None` when open.
    fn truth(self, d: &Domain) -> Option<bool> {
        match self {
            Atom::Le(_, v) if d.max <= v => Some(true),
            Atom::Le(_, v) if d.min > v => Some(false),
            Atom::Le(..) => None,
            Atom::Eq(_, v) if !d.contains(v) => Some(false),
            Atom::Eq(..) if d.min == d.max => Some(true),
            Atom::Eq(..) => None,
        }
    }
}

/// The heap key of an activity: the smallest key comes first, activities are never
/// negative, so their bit patterns order as they do.
fn key(score: f64) -> u128 {
    u128::from(u64::MAX - score.to_bits())
}

/// The atoms, their activities and phases, and the heap of the open ones.
#[derive(Debug)]
pub(crate) struct LiteralActivity {
    index: HashMap<Atom, u32>,
    atoms: Vec<Atom>,
    score: Vec<f64>,
    increment: f64,
    decay: f64,
    heap: IndexedHeap,
    /// Per variable, its atoms out of the heap (found decided), by their value, until a
    /// backtrack opens them again.
    parked: Vec<Parked>,
    /// The variables whose events backtracks undid since the atoms were last unparked.
    touched: Vec<VarId>,
    /// Per variable, the bounds it had at the end of the newest branch undone: the saved
    /// phases of its atoms.
    saved: Vec<(Val, Val)>,
    /// Per variable, the number of the backtrack that last saved its bounds.
    saved_at: Vec<u64>,
    backtracks: u64,
}

impl LiteralActivity {
    /// No atoms yet, for `num_vars` variables; `decay` in (0, 1].
    pub(crate) fn new(num_vars: usize, decay: f64) -> LiteralActivity {
        LiteralActivity {
            index: HashMap::new(),
            atoms: Vec::new(),
            score: Vec::new(),
            increment: 1.0,
            decay,
            heap: IndexedHeap::new(0),
            parked: (0..num_vars).map(|_| Parked::default()).collect(),
            touched: Vec::new(),
            saved: vec![(Val::MIN, Val::MAX); num_vars],
            saved_at: vec![0; num_vars],
            backtracks: 0,
        }
    }

    /// Raises the activity of `lit`'s atom (making it one if it is not yet).
    pub(crate) fn bump(&mut self, lit: Literal) {
        let (atom, _) = Atom::of(lit);
        let (a, fresh) = match self.index.get(&atom) {
            Some(&a) => (a, false),
            None if self.atoms.len() >= MAX_ATOMS => return,
            None => {
                let a = self.atoms.len() as u32;
                self.index.insert(atom, a);
                self.atoms.push(atom);
                self.score.push(0.0);
                self.heap.grow(self.atoms.len());
                (a, true)
            }
        };
        let i = a as usize;
        self.score[i] += self.increment;
        if self.score[i] > RESCALE_ABOVE {
            self.increment /= RESCALE_ABOVE;
            for (b, s) in self.score.iter_mut().enumerate() {
                *s /= RESCALE_ABOVE;
                if self.heap.contains(b as u32) {
                    self.heap.set(b as u32, key(*s));
                }
            }
        }
        // An atom out of the heap is parked: it comes back with its new activity.
        if fresh || self.heap.contains(a) {
            self.heap.set(a, key(self.score[i]));
        }
    }

    /// Ends a conflict: later bumps weigh more than the ones before.
    pub(crate) fn decay(&mut self) {
        self.increment /= self.decay;
    }

    /// Starts reading the events of one backtrack.
    pub(crate) fn begin_backtrack(&mut self) {
        self.backtracks += 1;
    }

    /// Reads an event the current backtrack undid (newest first): its literal held at the
    /// end of the branch, which saves it as a phase; its variable's parked atoms may be
    /// open again ([`LiteralActivity::unpark`]).
    pub(crate) fn undone(&mut self, lit: Literal) {
        let x = lit.var().index();
        if self.saved_at[x] != self.backtracks {
            self.saved_at[x] = self.backtracks;
            self.saved[x] = (Val::MIN, Val::MAX);
            self.touched.push(lit.var());
        }
        let (lo, hi) = &mut self.saved[x];
        match lit {
            Literal::Gt(_, v) => *lo = (*lo).max(v + 1),
            Literal::Le(_, v) => *hi = (*hi).min(v),
            Literal::Eq(_, v) => (*lo, *hi) = (v, v),
            Literal::Ne(..) => {}
        }
    }

    /// Puts back into the heap the parked atoms of the variables backtracks touched that
    /// the domains leave open now; the others stay parked. Only a backtrack that undoes an
    /// event of a variable opens one of its atoms, so none is lost, and an atom decided
    /// since the root (a hole, a bound) costs nothing at each backtrack.
    fn unpark(&mut self, domains: &[Domain]) {
        for x in self.touched.drain(..) {
            let d = &domains[x.index()];
            let parked = &mut self.parked[x.index()];
            if d.min == d.max {
                continue;
            }
            let open: Vec<Val> = parked.le.range(d.min..d.max).map(|(&v, _)| v).collect();
            for v in open {
                let a = parked.le.remove(&v).expect("a parked atom");
                self.heap.set(a, key(self.score[a as usize]));
            }
            let open: Vec<Val> = parked.eq.range(d.min..=d.max).map(|(&v, _)| v).filter(|&v| d.contains(v)).collect();
            for v in open {
                let a = parked.eq.remove(&v).expect("a parked atom");
                self.heap.set(a, key(self.score[a as usize]));
            }
        }
    }

    /// The most active open atom, as the literal of its phase: the side `solution` (the
    /// newest solution's values, when the search saves them, else empty) takes, or the
    /// saved one. The decided atoms on the way are parked. `None` when no atom is open.
    pub(crate) fn decide(&mut self, domains: &[Domain], solution: &[Val]) -> Option<Literal> {
        self.unpark(domains);
        while let Some(top) = self.heap.top() {
            let atom = self.atoms[top as usize];
            let x = atom.var().index();
            if atom.truth(&domains[x]).is_none() {
                let (lo, hi) = match solution.get(x) {
                    Some(&v) => (v, v),
                    None => self.saved[x],
                };
                let phase = match atom {
                    Atom::Le(_, v) => lo <= v,
                    Atom::Eq(_, v) => lo <= v && v <= hi,
                };
                return Some(atom.literal(phase));
            }
            self.heap.remove(top);
            match atom {
                Atom::Le(_, v) => self.parked[x].le.insert(v, top),
                Atom::Eq(_, v) => self.parked[x].eq.insert(v, top),
            };
        }
        None
    }
}

/// A variable's parked atoms: `x ≤ v` and `x = v` by `v`, so that the ones a domain leaves
/// open are found by range.
#[derive(Debug, Default)]
struct Parked {
    le: BTreeMap<Val, u32>,
    eq: BTreeMap<Val, u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domains(ranges: &[(Val, Val)]) -> Vec<Domain> {
        ranges.iter().map(|&(lo, hi)| Domain::range(lo, hi)).collect()
    }

    #[test]
    fn the_most_active_open_atom_is_decided_on_its_saved_side() {
        let (x, y) = (VarId(0), VarId(1));
        let mut act = LiteralActivity::new(2, 0.9);
        let d = domains(&[(0, 9), (0, 9)]);
        assert_eq!(act.decide(&d, &[]), None, "no atom before a conflict");
        act.bump(Literal::Gt(x, 4));
        act.decay();
        act.bump(Literal::Le(y, 6));
        act.bump(Literal::Gt(x, 4));
        // x ≤ 4 has the higher activity; no saved phase: the lower side.
        assert_eq!(act.decide(&d, &[]), Some(Literal::Le(x, 4)));
        // A branch that ended with x in 7..8 saves x > 4.
        act.begin_backtrack();
        act.undone(Literal::Le(x, 8));
        act.undone(Literal::Gt(x, 6));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Gt(x, 4)));
        // Once x ≤ 4 is decided by the domains, y's atom comes next; x's is parked.
        let d2 = domains(&[(5, 9), (0, 9)]);
        assert_eq!(act.decide(&d2, &[]), Some(Literal::Le(y, 6)));
        // Restoring x (an event of x undone) brings its atom back.
        act.begin_backtrack();
        act.undone(Literal::Gt(x, 4));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Gt(x, 4)));
    }

    #[test]
    fn equality_atoms_follow_the_saved_value() {
        let x = VarId(0);
        let mut act = LiteralActivity::new(1, 0.9);
        act.bump(Literal::Ne(x, 3));
        let d = domains(&[(0, 9)]);
        act.begin_backtrack();
        act.undone(Literal::Eq(x, 5));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Ne(x, 3)));
        act.begin_backtrack();
        act.undone(Literal::Eq(x, 3));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Eq(x, 3)));
        // Decided atoms are not offered.
        assert_eq!(act.decide(&domains(&[(4, 9)]), &[]), None);
    }
}
