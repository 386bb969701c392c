//! The learned nogoods, propagated by two watched literals.
//!
//! A nogood is a set of literals that cannot all hold. It can only prune when all its
//! literals but one hold (the last one is then made false) or fail when all hold; so it
//! needs to look only at two of its literals that do not hold yet: while both stay so,
//! nothing can happen to it. When one of them comes to hold, it looks for another to watch;
//! if there is none, it propagates. The nogoods are woken by the history's events (each
//! event names its variable): one propagator for all of them, with a watch list per
//! variable, instead of one propagator per nogood woken by every change of every variable
//! it names.
//!
//! Watches need no undoing on backtrack: a literal watched because it did not hold still
//! does not hold after backtracking. A nogood added while it propagates (learning asserts
//! one literal) watches its open literal and its newest true one, so that backtracking past
//! the latter, and coming back, wakes it again. That rests on a nogood acting at the level
//! where it became unit; one checked whole after a backtrack (new, or of one literal) may
//! have become unit at a lower level than where it acts, so it is checked again after a
//! backtrack above that one (`late`). The search checks at every fixpoint, in its tests,
//! that no nogood was missed ([`NogoodDb::missed`]): before these rules, a fifth to a half
//! of the failures on the hard instances taught a nogood already kept.
//!
//! The database is pruned at restarts ([`NogoodDb::reduce`]): a nogood's worth is told by
//! its *literal block distance* (Audemard and Simon, Glucose 2009), the number of decision
//! levels its literals came from when it was learned. Few levels mean a nogood that links
//! few decisions and prunes often; those of at most [`GLUE`] are kept for good, the others
//! compete for the places left. Nothing is lost by forgetting one: every nogood follows
//! from the constraints. A search that never restarts (an enumeration, a count, an
//! annotated search without restarts) is pruned in place, at any node
//! ([`NogoodDb::forget_in_place`]): the nogoods forgotten leave an empty place, so that the
//! indices the history's events cite stay valid, and those that are the reason of an event
//! on the current branch are kept. Without it such a search learned a nogood per failure
//! for ever, and each event visited more of them (a count of 4×4 magic squares: 94 s
//! against 0.9 s without learning).

use crate::ids::{PropId, VarId};
use crate::learn::history::{Cause, History};
use crate::learn::watches::{Watch, Watches};
use crate::literal::Literal;
use crate::outcome::Conflict;
use crate::propagators::nogood::{truth_in, Truth};
use crate::store::Store;

#[inline]
fn truth(store: &Store, lit: Literal) -> Truth {
    truth_in(&store.domains[lit.var().index()], lit)
}

/// The blocker of the watch on a nogood's literal `w` (0 or 1): its other watched literal
/// (itself, for a nogood of one).
fn other_watch(lits: &[Literal], w: usize) -> Literal {
    lits.get(1 - w).copied().unwrap_or(lits[w])
}

/// Nogoods learned from at most this many levels are never forgotten.
pub(crate) const GLUE: u32 = 2;

/// The learned nogoods of a search and their watches.
#[derive(Debug, Default)]
pub(crate) struct NogoodDb {
    /// Each nogood's literals; the first two are watched (one, for a nogood of one).
    pub(crate) nogoods: Vec<Vec<Literal>>,
    /// Each nogood's literal block distance: the decision levels it spanned when learned.
    lbd: Vec<u32>,
    /// Per variable, the nogoods watching one of its literals, with that literal (an entry
    /// whose nogood watches another literal since is stale, and dropped when met).
    watches: Watches,
    /// The watches taken out by an event, being visited.
    holding: Vec<(Watch, Literal)>,
    /// The variables whose events wake the database's propagator.
    subscribed: Vec<bool>,
    /// The history's events already looked at.
    cursor: usize,
    /// Nogoods added since the last run, to be checked whole.
    fresh: Vec<u32>,
    /// Nogoods checked whole that rest on a literal made false deeper than their true ones
    /// (a nogood checked after a backtrack may be unit since a lower level, one of one
    /// literal since the root), with that depth. A backtrack above it undoes the false
    /// literal while the true ones stay, and nothing would wake them: they are checked
    /// again.
    late: Vec<(usize, u32)>,
    /// The nogood that failed in the last run.
    pub(crate) conflict: Option<u32>,
    /// The propagator slot through which the queue runs the database.
    pub(crate) slot: Option<PropId>,
    /// Nogoods visited so far (the database's work).
    pub(crate) visits: u64,
    /// Literals the nogoods made false so far (their unit propagations).
    pub(crate) prunings: u64,
    /// Places emptied by [`NogoodDb::forget_in_place`].
    emptied: usize,
}

impl NogoodDb {
    /// Adds a nogood (at least one literal), to be checked at the next run; returns the
    /// variables the database must now be woken by.
    pub(crate) fn add(&mut self, mut lits: Vec<Literal>, lbd: u32, store: &Store, num_vars: usize) -> Vec<VarId> {
        self.watches.grow(num_vars);
        if self.subscribed.len() < num_vars {
            self.subscribed.resize(num_vars, false);
        }
        // Watch open literals first, then the newest true ones.
        if let Some(history) = store.history.as_deref() {
            let rank = |lit: Literal| match truth(store, lit) {
                Truth::True => history.position(lit).map_or(0, |p| p + 1),
                _ => usize::MAX,
            };
            lits.sort_by_key(|&lit| std::cmp::Reverse(rank(lit)));
        }
        let k = self.nogoods.len() as u32;
        let mut new_vars = Vec::new();
        for (w, &lit) in lits.iter().enumerate().take(2) {
            let x = lit.var();
            self.watches.add(k, lit, other_watch(&lits, w));
            if !self.subscribed[x.index()] {
                self.subscribed[x.index()] = true;
                new_vars.push(x);
            }
        }
        self.nogoods.push(lits);
        self.lbd.push(lbd);
        self.fresh.push(k);
        new_vars
    }

    /// After a backtrack to trail depth `depth`: has the nogoods whose propagation it undid
    /// checked at the next run, and says whether the next run has nogoods to check whole.
    pub(crate) fn backtracked_to(&mut self, depth: usize) -> bool {
        let fresh = &mut self.fresh;
        self.late.retain(|&(at, k)| {
            if at > depth {
                fresh.push(k);
            }
            at <= depth
        });
        !self.fresh.is_empty()
    }

    /// The number of nogoods kept.
    pub(crate) fn len(&self) -> usize {
        self.nogoods.len() - self.emptied
    }

    /// The nogoods that would be forgotten to keep `keep` beyond the glue ones (see
    /// [`NogoodDb::reduce`]), and `locked` aside.
    fn to_forget(&self, keep: usize, locked: &[bool]) -> Vec<bool> {
        let mut order: Vec<usize> = (0..self.nogoods.len())
            .filter(|&k| self.lbd[k] > GLUE && !self.nogoods[k].is_empty() && !locked.get(k).copied().unwrap_or(false))
            .collect();
        order.sort_by_key(|&k| (self.lbd[k], std::cmp::Reverse(k)));
        let mut forget = vec![false; self.nogoods.len()];
        for &k in order.iter().skip(keep) {
            forget[k] = true;
        }
        forget
    }

    /// As [`NogoodDb::reduce`], at any node: the nogoods that are the reason of an event
    /// of `history` (the current branch) stay, the others forgotten leave an empty place
    /// (no index changes, so the events stay explained). Their watches go stale and are
    /// dropped when met. Returns the ones forgotten.
    pub(crate) fn forget_in_place(&mut self, keep: usize, history: &History) -> Vec<Vec<Literal>> {
        let mut locked = vec![false; self.nogoods.len()];
        for event in &history.events {
            if let Cause::Nogood(k) = event.cause {
                locked[k as usize] = true;
            }
        }
        let forget = self.to_forget(keep, &locked);
        let mut forgotten = Vec::new();
        for (k, _) in forget.iter().enumerate().filter(|(_, &f)| f) {
            forgotten.push(std::mem::take(&mut self.nogoods[k]));
            self.emptied += 1;
        }
        let nogoods = &self.nogoods;
        self.fresh.retain(|&k| !nogoods[k as usize].is_empty());
        self.late.retain(|&(_, k)| !nogoods[k as usize].is_empty());
        if self.conflict.is_some_and(|k| nogoods[k as usize].is_empty()) {
            self.conflict = None;
        }
        forgotten
    }

    /// Forgets all nogoods but those of at most [`GLUE`] levels and, of the others, the
    /// `keep` of fewest levels (the newest first among equals); returns the ones forgotten.
    /// Only at the search's root: nogood indices change, and the history's events charged
    /// to a nogood must all be facts of the whole search, never analysed again. Every kept
    /// nogood is checked whole at the next run, as if new.
    pub(crate) fn reduce(&mut self, keep: usize) -> Vec<Vec<Literal>> {
        let forget = self.to_forget(keep, &[]);
        self.emptied = 0;
        let nogoods = std::mem::take(&mut self.nogoods);
        let lbd = std::mem::take(&mut self.lbd);
        let mut forgotten = Vec::new();
        self.watches.clear();
        self.fresh.clear();
        self.late.clear();
        for ((lits, lbd), forget) in nogoods.into_iter().zip(lbd).zip(forget) {
            if forget {
                forgotten.push(lits);
                continue;
            }
            if lits.is_empty() {
                continue; // forgotten in place before
            }
            let k = self.nogoods.len() as u32;
            for (w, &lit) in lits.iter().enumerate().take(2) {
                self.watches.add(k, lit, other_watch(&lits, w));
            }
            self.nogoods.push(lits);
            self.lbd.push(lbd);
            self.fresh.push(k);
        }
        self.conflict = None;
        forgotten
    }

    /// Propagates the nogoods over the events since the last run, and the fresh ones.
    pub(crate) fn propagate(&mut self, store: &mut Store) -> Result<(), Conflict> {
        self.conflict = None;
        let fresh = std::mem::take(&mut self.fresh);
        for (i, &k) in fresh.iter().enumerate() {
            if let Err(conflict) = self.visit(k, store) {
                // Those not checked yet, and the one that failed, are checked after the
                // backtrack: their watches may sit on literals the backtrack keeps.
                self.fresh.extend_from_slice(&fresh[i..]);
                return Err(conflict);
            }
            if let Some(level) = self.late_at(k, store) {
                self.late.push((level, k));
            }
        }
        if let Some(history) = store.history.as_deref_mut() {
            self.cursor = self.cursor.min(history.unread_from);
        }
        loop {
            let Some(history) = store.history.as_deref_mut() else { return Ok(()) };
            history.unread_from = history.events.len();
            let history = &*history;
            let Some(event) = history.events.get(self.cursor) else { return Ok(()) };
            self.cursor += 1;
            let x = event.lit.var();
            if !self.watches.watches(x) {
                continue;
            }
            let p = self.cursor - 1;
            // The event moved one bound, to its own value, or made a hole: the other
            // bound is the same before and after it.
            let before = (history.min_at(x, p), history.max_at(x, p));
            let (after, hole) = match event.lit {
                Literal::Gt(_, v) => ((v + 1, before.1), None),
                Literal::Le(_, v) => ((before.0, v), None),
                Literal::Ne(_, v) => (before, Some(v)),
                Literal::Eq(..) => unreachable!("an event is a bound or a hole"),
            };
            debug_assert_eq!(after, (history.min_at(x, p + 1), history.max_at(x, p + 1)));
            // Only a watched literal that this event made hold calls for a visit.
            let mut holding = std::mem::take(&mut self.holding);
            holding.clear();
            // A watch whose blocker is false stays where it is: its nogood cannot act while
            // the blocker is false, and the blocker became false no later than the event
            // (a backtrack that undoes the one undoes the other).
            let domains = &store.domains;
            let blocked = |blocker: Literal| truth_in(&domains[blocker.var().index()], blocker) == Truth::False;
            self.watches.take_made_true(x, before, after, hole, blocked, &mut holding);
            let mut result = Ok(());
            for (i, &((k, _), lit)) in holding.iter().enumerate() {
                let lits = &self.nogoods[k as usize];
                if lits.first() != Some(&lit) && lits.get(1) != Some(&lit) {
                    continue; // stale: the nogood watches another literal now, or is forgotten
                }
                let outcome = self.visit(k, store);
                // Keep the entry if the nogood still watches this literal.
                let lits = &self.nogoods[k as usize];
                if let Some(w) = lits.iter().take(2).position(|&l| l == lit) {
                    self.watches.add(k, lit, other_watch(lits, w));
                }
                if let Err(conflict) = outcome {
                    for &((k, blocker), lit) in &holding[i + 1..] {
                        self.watches.add(k, lit, blocker);
                    }
                    result = Err(conflict);
                    break;
                }
            }
            self.holding = holding;
            result?;
        }
    }

    /// Where a nogood just checked whole rests on a literal made false at a deeper level
    /// than all its true ones (the one it made false, or one false already): that level.
    /// A backtrack above it leaves the nogood unit with no event to wake it.
    fn late_at(&self, k: u32, store: &Store) -> Option<usize> {
        let history = store.history.as_deref()?;
        let mut false_lit = None;
        let mut true_level = 0;
        for &lit in &self.nogoods[k as usize] {
            match truth(store, lit) {
                Truth::True => true_level = true_level.max(history.level_of(lit).unwrap_or(0)),
                Truth::False if false_lit.is_none() => false_lit = Some(lit),
                _ => return None,
            }
        }
        let false_level = history.level_of(false_lit?.negated())?;
        (false_level > true_level).then_some(false_level as usize)
    }

    /// Restores the watch invariant of nogood `k` and propagates it if it is unit.
    fn visit(&mut self, k: u32, store: &mut Store) -> Result<(), Conflict> {
        self.visits += 1;
        let lits = &mut self.nogoods[k as usize];
        let unit = if lits.len() == 1 {
            // A nogood of one literal is unit from the start: its literal is made false.
            match truth(store, lits[0]) {
                Truth::True => {
                    self.conflict = Some(k);
                    return Err(Conflict);
                }
                Truth::Open => lits[0],
                Truth::False => return Ok(()),
            }
        } else {
            // The watches' truths, read once: nothing changes a domain during the visit.
            let mut truths = [truth(store, lits[0]), truth(store, lits[1])];
            for w in 0..2 {
                if truths[w] != Truth::True {
                    continue;
                }
                let replacement = (2..lits.len()).find_map(|j| {
                    let t = truth(store, lits[j]);
                    (t != Truth::True).then_some((j, t))
                });
                if let Some((j, t)) = replacement {
                    lits.swap(w, j);
                    truths[w] = t;
                    let (lit, new) = (lits[w], lits[w].var());
                    self.watches.add(k, lit, other_watch(lits, w));
                    if !self.subscribed[new.index()] {
                        self.subscribed[new.index()] = true;
                        if let Some(slot) = self.slot {
                            store.subscribe(new, slot, crate::outcome::Events::DOMAIN);
                        }
                    }
                }
            }
            match (truths[0], truths[1]) {
                (Truth::True, Truth::True) => {
                    self.conflict = Some(k);
                    return Err(Conflict);
                }
                (Truth::True, Truth::Open) => lits[1],
                (Truth::Open, Truth::True) => lits[0],
                _ => return Ok(()),
            }
        };
        if let Some(history) = store.history.as_deref_mut() {
            history.cause = Cause::Nogood(k);
        }
        if store.apply(unit.negated()).is_err() {
            self.conflict = Some(k);
            return Err(Conflict);
        }
        self.prunings += 1;
        Ok(())
    }

    /// A nogood the database should have acted on and did not: none of its literals is
    /// false and at most one is open (it should have failed, or made that one false). At a
    /// fixpoint there is none; the search checks this when it checks its work.
    pub(crate) fn missed(&self, store: &Store) -> Option<&[Literal]> {
        self.nogoods.iter().map(Vec::as_slice).filter(|lits| !lits.is_empty()).find(|lits| {
            let mut open = 0;
            for &lit in lits.iter() {
                match truth(store, lit) {
                    Truth::False => return false,
                    Truth::Open => open += 1,
                    Truth::True => {}
                }
            }
            open <= 1
        })
    }

    /// Why nogood `k` established what it did: its other literals, which held then.
    pub(crate) fn reason(&self, k: u32, history: &History, at: usize) -> Vec<Literal> {
        let cx = crate::learn::explain::ExplainContext { history, at };
        self.nogoods[k as usize].iter().copied().filter(|&l| cx.holds(l)).collect()
    }
}
