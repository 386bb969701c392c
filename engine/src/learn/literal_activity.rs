//! Activity over literals (VSIDS on lazy literals, as Chuffed's and Huub's free search).
//!
//! Variable activity ([`crate::learn::activity`]) says *which variable* conflicts meet, and
//! leaves the value to a fixed rule (`x ≤ min`). A conflict says more: it met `x > 8`, a
//! threshold where the search went wrong. Here each such threshold is an *atom*, `x ≤ v` or
//! `x = v` up to negation, with an activity of its own; the search decides the most active
//! atom whose truth the domains leave open, on its saved side (*phase saving*): `x ≤ 8` or
//! `x > 8`, as a SAT solver decides its most active Boolean variable with its saved
//! polarity. On scheduling models the thresholds the conflicts name are precedences in
//! disguise (`s_j > e_i`), which a fixed value rule never picks.
//!
//! Atoms are created lazily, when analysis first meets one of their literals, so none exists
//! for a threshold no conflict named; the search falls back to variable activity where no
//! atom is open. An atom found decided at the top of the heap leaves it and waits, parked
//! with its variable, until a backtrack leaves it open again. Only a backtrack that undoes
//! an event of a variable can open one of its atoms, and only the parked atoms its domain
//! then leaves open come back, found by value: the many atoms a branch decides do not go in
//! and out of the heap at every backtrack (on variables of wide domains, that cost more
//! than the search).
//!
//! *Phases.* A branch leaves each variable it touched with bounds and holes; when the search
//! backtracks out of it, those are read off the events undone (the first backtrack after a
//! descent sees the deepest point; later ones before the next decision only fill in what it
//! did not touch). An atom's phase is what they made of it, so that after a restart the
//! search heads back to where it was, in the order the activities now give (progress
//! saving). An atom they leave open takes the lower side (`x ≤ v`, `x = v`): the side
//! variable activity's `x ≤ min` takes too. Once branch and bound has a solution and the
//! search saves its phases ([`crate::SearchConfig::phase_saving`]), an atom takes the side
//! of the newest solution instead, a local search around the incumbent.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use crate::domain::{Domain, Val};
use crate::ids::VarId;
use crate::learn::vsids::Vsids;
use crate::literal::Literal;

/// The most atoms kept (about 100 bytes each); past it, literals not yet atoms are not made
/// ones (their variables still gain variable activity), so that a search over huge domains
/// stays bounded.
const MAX_ATOMS: usize = 1 << 20;

/// A literal up to negation: `x ≤ v` stands for `x > v` too, `x = v` for `x ≠ v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Atom {
    Le(VarId, Val),
    Eq(VarId, Val),
}

impl Atom {
    fn of(lit: Literal) -> Atom {
        match lit {
            Literal::Le(x, v) | Literal::Gt(x, v) => Atom::Le(x, v),
            Literal::Eq(x, v) | Literal::Ne(x, v) => Atom::Eq(x, v),
        }
    }

    fn var(self) -> VarId {
        match self {
            Atom::Le(x, _) | Atom::Eq(x, _) => x,
        }
    }

    /// The literal of its `positive` or negative side.
    fn literal(self, positive: bool) -> Literal {
        match (self, positive) {
            (Atom::Le(x, v), true) => Literal::Le(x, v),
            (Atom::Le(x, v), false) => Literal::Gt(x, v),
            (Atom::Eq(x, v), true) => Literal::Eq(x, v),
            (Atom::Eq(x, v), false) => Literal::Ne(x, v),
        }
    }

    /// Whether a decision on it would narrow domain `d` on both sides. `x = v` inside the
    /// bounds of a domain that cannot hold holes is not: there `x ≠ v` changes nothing, and
    /// a search deciding it would come back to the same node for ever.
    fn is_open(self, d: &Domain) -> bool {
        match self {
            Atom::Le(_, v) => d.min <= v && v < d.max,
            Atom::Eq(_, v) => d.min < d.max && d.contains(v) && (v == d.min || v == d.max || d.can_hold_holes()),
        }
    }
}

/// The atoms, their activities and phases, and the heap of the open ones.
#[derive(Debug)]
pub(crate) struct LiteralActivity {
    index: HashMap<Atom, u32>,
    atoms: Vec<Atom>,
    /// The atoms' activities; the open ones (and some decided, not yet looked at) are
    /// candidates.
    scores: Vsids,
    /// Per variable, its atoms out of the heap (found decided), by their value, until a
    /// backtrack opens them again.
    parked: Vec<Parked>,
    /// The variables whose events backtracks undid since the atoms were last unparked.
    touched: Vec<VarId>,
    /// Per variable, the backtrack read (a [`LiteralActivity::reads`]) that last put it in
    /// `touched`.
    touched_at: Vec<u64>,
    /// The backtracks read so far.
    reads: u64,
    /// Per variable, the bounds it had at the end of the newest branch left: the saved
    /// phases of its `x ≤ v` atoms.
    saved: Vec<(Val, Val)>,
    /// Per variable, the branch end (a [`LiteralActivity::branch_end`]) its `saved` bounds
    /// are of.
    saved_at: Vec<u64>,
    /// Per atom `x = v`, the branch end at which `v` was a hole of `x`.
    hole_at: Vec<u64>,
    /// The number of branch ends read so far.
    branch_end: u64,
    /// The decision count at the newest branch end.
    decisions_at_end: u64,
}

impl LiteralActivity {
    /// No atoms yet, for `num_vars` variables; `decay` in (0, 1].
    pub(crate) fn new(num_vars: usize, decay: f64) -> LiteralActivity {
        LiteralActivity {
            index: HashMap::default(),
            atoms: Vec::new(),
            scores: Vsids::new(decay),
            parked: (0..num_vars).map(|_| Parked::default()).collect(),
            touched: Vec::new(),
            touched_at: vec![0; num_vars],
            reads: 0,
            saved: vec![(Val::MIN, Val::MAX); num_vars],
            saved_at: vec![0; num_vars],
            hole_at: Vec::new(),
            branch_end: 0,
            decisions_at_end: 0,
        }
    }

    /// Raises the activity of `lit`'s atom (making it one if it is not yet).
    pub(crate) fn bump(&mut self, lit: Literal) {
        let atom = Atom::of(lit);
        let a = match self.index.get(&atom) {
            Some(&a) => a,
            None if self.atoms.len() >= MAX_ATOMS => return,
            None => {
                let a = self.scores.push();
                self.index.insert(atom, a);
                self.atoms.push(atom);
                self.hole_at.push(0);
                a
            }
        };
        self.scores.bump(a);
    }

    /// Ends a conflict: later bumps weigh more than the ones before.
    pub(crate) fn decay(&mut self) {
        self.scores.decay();
    }

    /// Starts reading the events of a backtrack, the search having taken `decisions`
    /// decisions so far: the first backtrack after a decision leaves a branch's end.
    pub(crate) fn begin_backtrack(&mut self, decisions: u64) {
        self.reads += 1;
        if decisions != self.decisions_at_end {
            self.decisions_at_end = decisions;
            self.branch_end += 1;
        }
    }

    /// Reads an event a backtrack undid (each backtrack's newest first): what held at the
    /// end of the branch, saved as a phase unless a deeper point of the same branch end
    /// said already; its variable's parked atoms may be open again
    /// ([`LiteralActivity::unpark`]).
    pub(crate) fn undone(&mut self, lit: Literal) {
        let x = lit.var().index();
        if self.touched_at[x] != self.reads {
            self.touched_at[x] = self.reads;
            self.touched.push(lit.var());
        }
        if self.saved_at[x] != self.branch_end {
            self.saved_at[x] = self.branch_end;
            self.saved[x] = (Val::MIN, Val::MAX);
        }
        let (lo, hi) = &mut self.saved[x];
        match lit {
            Literal::Gt(_, v) if *lo == Val::MIN => *lo = v + 1,
            Literal::Le(_, v) if *hi == Val::MAX => *hi = v,
            Literal::Ne(x, v) => {
                if let Some(&a) = self.index.get(&Atom::Eq(x, v)) {
                    self.hole_at[a as usize] = self.branch_end;
                }
            }
            _ => {}
        }
    }

    /// Puts back into the heap the parked atoms of the variables backtracks touched that
    /// the domains leave open now; the others stay parked.
    pub(crate) fn unpark(&mut self, domains: &[Domain]) {
        let LiteralActivity { touched, parked, atoms, scores, .. } = self;
        let mut open = Vec::new();
        for x in touched.drain(..) {
            let d = &domains[x.index()];
            let parked = &mut parked[x.index()];
            for by_value in [&mut parked.le, &mut parked.eq] {
                let is_open = |a: u32| atoms[a as usize].is_open(d);
                open.extend(by_value.range(d.min..=d.max).map(|(&v, &a)| (v, a)).filter(|&(_, a)| is_open(a)));
                for &(v, a) in &open {
                    by_value.remove(&v);
                    scores.restore(a);
                }
                open.clear();
            }
        }
    }

    /// The most active open atom, as the literal of its phase: the side `solution` (the
    /// newest solution's values, when the search saves them, else empty) takes, or the
    /// saved one. The decided atoms on the way are parked. `None` when no atom is open.
    pub(crate) fn decide(&mut self, domains: &[Domain], solution: &[Val]) -> Option<Literal> {
        while let Some(top) = self.scores.top() {
            let atom = self.atoms[top as usize];
            let x = atom.var().index();
            if atom.is_open(&domains[x]) {
                let positive = match (atom, solution.get(x)) {
                    (Atom::Le(_, v), Some(&value)) => value <= v,
                    (Atom::Eq(_, v), Some(&value)) => value == v,
                    (Atom::Le(_, v), None) => self.saved[x].0 <= v,
                    (Atom::Eq(_, v), None) => {
                        let (lo, hi) = self.saved[x];
                        let hole = self.saved_at[x] == self.hole_at[top as usize] && self.saved_at[x] != 0;
                        lo <= v && v <= hi && !hole
                    }
                };
                return Some(atom.literal(positive));
            }
            self.scores.remove(top);
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
        act.begin_backtrack(1);
        act.undone(Literal::Le(x, 8));
        act.undone(Literal::Gt(x, 6));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Gt(x, 4)));
        // The newest solution's side comes first.
        assert_eq!(act.decide(&d, &[3, 3]), Some(Literal::Le(x, 4)));
        // Once x ≤ 4 is decided by the domains, y's atom comes next; x's is parked.
        let d2 = domains(&[(5, 9), (0, 9)]);
        assert_eq!(act.decide(&d2, &[]), Some(Literal::Le(y, 6)));
        // A backtrack that touches x but leaves x ≤ 4 decided keeps it parked.
        act.begin_backtrack(2);
        act.undone(Literal::Gt(x, 6));
        act.unpark(&d2);
        assert_eq!(act.decide(&d, &[]), Some(Literal::Le(y, 6)));
        // One that opens it brings it back, on the side x had at the end of the branch.
        act.begin_backtrack(3);
        act.undone(Literal::Gt(x, 4));
        act.unpark(&d);
        assert_eq!(act.decide(&d, &[]), Some(Literal::Gt(x, 4)));
    }

    /// The bounds saved are those of the deepest point of the branch left: a later
    /// backtrack before the next decision (a backjump's, or a chronological search's next
    /// level) undoes older, weaker events, which do not replace them.
    #[test]
    fn the_phase_is_the_deepest_point_of_the_branch_left() {
        let x = VarId(0);
        let mut act = LiteralActivity::new(1, 0.9);
        act.bump(Literal::Le(x, 4));
        let d = domains(&[(0, 9)]);
        // Level 7 had set x > 6, level 3 x > 2; they are undone one level at a time.
        act.begin_backtrack(7);
        act.undone(Literal::Gt(x, 6));
        act.unpark(&d);
        act.begin_backtrack(7);
        act.undone(Literal::Gt(x, 2));
        act.unpark(&d);
        assert_eq!(act.decide(&d, &[]), Some(Literal::Gt(x, 4)));
        // After a new decision, a new branch end.
        act.begin_backtrack(8);
        act.undone(Literal::Le(x, 3));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Le(x, 4)));
    }

    #[test]
    fn value_atoms_follow_the_holes_and_bounds_the_branch_left() {
        let x = VarId(0);
        let mut act = LiteralActivity::new(1, 0.9);
        act.bump(Literal::Ne(x, 5));
        let d = domains(&[(0, 9)]);
        // The branch ended with x in 3..7 and 5 removed: x ≠ 5.
        act.begin_backtrack(1);
        act.undone(Literal::Ne(x, 5));
        act.undone(Literal::Le(x, 7));
        act.undone(Literal::Gt(x, 2));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Ne(x, 5)));
        // The next ended with x in 4..6, 5 still there: x = 5.
        act.begin_backtrack(2);
        act.undone(Literal::Le(x, 6));
        act.undone(Literal::Gt(x, 3));
        assert_eq!(act.decide(&d, &[]), Some(Literal::Eq(x, 5)));
        // Decided atoms are not offered.
        assert_eq!(act.decide(&domains(&[(6, 9)]), &[]), None);
    }

    /// `x ≠ v` inside the bounds of a domain too wide to hold holes changes nothing: such an
    /// atom is never offered there (a search would decide it for ever), but is at a bound.
    #[test]
    fn value_atoms_are_not_offered_where_a_hole_cannot_be_made() {
        let x = VarId(0);
        let wide = vec![Domain::range(0, 1 << 30)];
        assert!(!wide[0].can_hold_holes());
        let mut act = LiteralActivity::new(1, 0.9);
        act.bump(Literal::Ne(x, 5));
        assert_eq!(act.decide(&wide, &[]), None);
        act.begin_backtrack(1);
        act.undone(Literal::Gt(x, 4));
        act.unpark(&[Domain::range(5, 1 << 30)]);
        assert_eq!(act.decide(&[Domain::range(5, 1 << 30)], &[]), Some(Literal::Eq(x, 5)));
    }

    /// Random bumps, decisions, backtracks and domains: every atom is in the heap or parked,
    /// never both, and no atom is parked while open once the variables backtracks touched
    /// are unparked; the atom decided is the most active open one.
    #[test]
    fn atoms_are_in_the_heap_or_parked_and_the_most_active_open_one_is_decided() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..300 {
            let n = 1 + next(4) as usize;
            let mut act = LiteralActivity::new(n, 0.8);
            let mut doms: Vec<Domain> = (0..n).map(|_| Domain::range(0, 7)).collect();
            let mut decisions = 0;
            for _ in 0..80 {
                let x = VarId(next(n as u64) as u32);
                match next(5) {
                    0 => {
                        let v = next(8) as Val;
                        act.bump(if next(2) == 0 { Literal::Le(x, v) } else { Literal::Ne(x, v) });
                        act.decay();
                    }
                    1 => {
                        // Narrow: a domain shrinks without a backtrack.
                        let lo = next(8) as Val;
                        let hi = (lo + next(8) as Val).min(7);
                        let d = &doms[x.index()];
                        doms[x.index()] = Domain::range(lo.max(d.min).min(d.max), hi.max(d.min).min(d.max));
                    }
                    2 => {
                        // Widen: a backtrack that undoes an event of x.
                        decisions += next(2);
                        act.begin_backtrack(decisions);
                        act.undone(Literal::Gt(x, next(8) as Val));
                        doms[x.index()] = Domain::range(0, 7);
                        act.unpark(&doms);
                    }
                    _ => {
                        let expected = (0..act.atoms.len())
                            .filter(|&a| act.atoms[a].is_open(&doms[act.atoms[a].var().index()]))
                            .max_by(|&a, &b| {
                                act.scores.score(a as u32).total_cmp(&act.scores.score(b as u32)).then(b.cmp(&a))
                            });
                        let got = act.decide(&doms, &[]).map(Atom::of);
                        assert_eq!(got, expected.map(|a| act.atoms[a]));
                    }
                }
                for (a, atom) in act.atoms.iter().enumerate() {
                    let parked = &act.parked[atom.var().index()];
                    let is_parked = match *atom {
                        Atom::Le(_, v) => parked.le.get(&v) == Some(&(a as u32)),
                        Atom::Eq(_, v) => parked.eq.get(&v) == Some(&(a as u32)),
                    };
                    assert_ne!(is_parked, act.scores.contains(a as u32), "{atom:?}: in the heap xor parked");
                }
            }
        }
    }

    #[test]
    fn activities_stay_finite_where_no_bump_follows_the_decays() {
        let x = VarId(0);
        let mut act = LiteralActivity::new(1, 0.5);
        act.bump(Literal::Le(x, 3));
        for _ in 0..5000 {
            act.decay();
        }
        assert!(act.scores.increment().is_finite());
        act.bump(Literal::Le(x, 5));
        assert!((0..act.atoms.len() as u32).all(|a| act.scores.score(a).is_finite()));
        assert_eq!(act.decide(&domains(&[(0, 9)]), &[]), Some(Literal::Le(x, 5)));
    }
}
