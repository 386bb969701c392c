//! The store: domains, the trail, trailed integers, subscriptions and the queue.
//!
//! This is the only code that changes a domain. Each change records what it overwrites
//! on the trail and wakes the propagators subscribed to the event it causes. A domain of at
//! most 64 values is saved whole (bounds and bitset word) once per variable per level; a
//! wider one saves its bounds once per level and each bitset word it changes.
//!
//! A propagator that keeps incremental state (a running sum of its terms' bounds) also
//! needs to know *which* of its variables changed and how: it registers an advisor per
//! variable ([`Store::advise`]), with a local id of its own choosing. A change of bounds of
//! an advised variable is recorded as a [`BoundsChange`] (old and new bounds); the solver
//! hands each one to the advisors' propagators (`Propagator::notify_bounds`) before it runs
//! the next propagator, and always before a level opens, so an update of trailed state
//! lands at the level of the change it follows. A level closed undoes its changes, so its
//! undelivered records are dropped with it. Variables without advisors pay one test of a
//! bit per change.

use crate::domain::{Domain, Val};
use crate::ids::{PropId, TrailedInt, VarId};
use crate::learn::history::History;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events};
use crate::queue::Queue;
use crate::trail::{Trail, Undo};

#[derive(Debug, Clone, Copy)]
struct Watch {
    prop: PropId,
    events: u8,
}

/// A propagator that is told of each change of bounds of a variable, with its local id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Advisor {
    pub(crate) prop: PropId,
    pub(crate) local: u32,
}

/// A change of bounds of an advised variable, not yet handed to its advisors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoundsChange {
    pub(crate) var: VarId,
    pub(crate) old: (Val, Val),
    pub(crate) new: (Val, Val),
}

/// The bit of `Store::watched` that says a variable has advisors (no event uses it).
const ADVISED: u8 = 0x80;

#[derive(Debug, Default)]
pub(crate) struct Store {
    pub(crate) domains: Vec<Domain>,
    /// Trail stamp at which each variable's bounds were last saved.
    saved_at: Vec<u64>,
    pub(crate) trail: Trail,
    ints: Vec<i64>,
    int_saved_at: Vec<u64>,
    watches: Vec<Vec<Watch>>,
    /// Per variable, the union of the events its watchers wait for: a change no watcher
    /// waits for (an inner value removed under bounds reasoning) skips the walk. Bit
    /// `ADVISED` is set when it has advisors.
    watched: Vec<u8>,
    /// Per variable, the propagators told of its changes of bounds (see the module doc).
    pub(crate) advisors: Vec<Vec<Advisor>>,
    /// Changes of bounds of advised variables since the last delivery, oldest first.
    pub(crate) changes: Vec<BoundsChange>,
    pub(crate) queue: Queue,
    pub(crate) alive: Vec<bool>,
    pub(crate) alive_count: usize,
    /// Set once an inner value could not be removed from a huge interval domain: from then
    /// on, solutions are checked against every constraint before they are reported.
    pub(crate) lossy: bool,
    /// The running propagator, when it is idempotent: its own changes do not wake it.
    pub(crate) running: Option<PropId>,
    /// While learning: every change of the branch with its cause.
    pub(crate) history: Option<Box<History>>,
    /// Which variables variable selection must look at again (see `crate::select`).
    pub(crate) marks: crate::select::Marks,
}

impl Store {
    pub(crate) fn add_var(&mut self, domain: Domain) -> VarId {
        let id = VarId(self.domains.len() as u32);
        self.domains.push(domain);
        self.saved_at.push(u64::MAX);
        self.watches.push(Vec::new());
        self.watched.push(0);
        self.advisors.push(Vec::new());
        id
    }

    pub(crate) fn add_prop(&mut self, priority: crate::outcome::Priority) -> PropId {
        let id = PropId(self.alive.len() as u32);
        self.alive.push(true);
        self.alive_count += 1;
        self.queue.register(priority);
        id
    }

    pub(crate) fn subscribe(&mut self, x: VarId, prop: PropId, events: Events) {
        // A propagator subscribes while it is posted, so it can only be the newest watcher:
        // checking the last one keeps posting linear in the number of constraints.
        self.watched[x.index()] |= events.0;
        let list = &mut self.watches[x.index()];
        match list.last_mut() {
            Some(w) if w.prop == prop => w.events |= events.0,
            _ => {
                list.push(Watch { prop, events: events.0 });
                // The nogood database subscribes during a search, as it learns: a new
                // watcher of `x` counts in its degree, as the scan counts every watch.
                self.marks.subscribed(x, prop, self.alive[prop.index()]);
            }
        }
    }

    /// Tells `prop` of every later change of `x`'s bounds, with `local` (a variable may have
    /// several advisors of one propagator, one per place it occurs). Changes not yet
    /// delivered are none of its business, so there must be none.
    pub(crate) fn advise(&mut self, x: VarId, prop: PropId, local: u32) {
        debug_assert!(self.changes.is_empty(), "an advisor must not receive older changes");
        self.watched[x.index()] |= ADVISED;
        self.advisors[x.index()].push(Advisor { prop, local });
    }

    pub(crate) fn watchers(&self, x: VarId) -> impl Iterator<Item = PropId> + '_ {
        self.watches[x.index()].iter().map(|w| w.prop)
    }

    /// Records `x`'s domain once per level before its first change there: a small domain
    /// whole, a wide one its bounds (its bitset words are recorded as they change).
    #[inline]
    fn save_domain(&mut self, x: VarId) {
        let stamp = self.trail.stamp();
        let i = x.index();
        // Root changes are never undone, so they need no record.
        if self.trail.depth() > 0 && self.saved_at[i] != stamp {
            self.saved_at[i] = stamp;
            let d = &self.domains[i];
            self.trail.push(if d.is_small() {
                Undo::Small { var: x, min: d.min, max: d.max, word: d.word }
            } else {
                Undo::Bounds { var: x, min: d.min, max: d.max, size: d.wide_size }
            });
        }
    }

    /// [`Store::notify`] after a change that may have moved a bound (`old` the bounds
    /// before): the advisors hear of it first.
    #[inline]
    fn notify_bounds(&mut self, x: VarId, fired: u8, old: (Val, Val)) {
        if self.watched[x.index()] & ADVISED != 0 {
            self.record_bounds_change(x, old);
        }
        self.notify(x, fired);
    }

    /// Wakes `x`'s watchers after a change of its domain.
    #[inline]
    fn notify(&mut self, x: VarId, fired: u8) {
        self.marks.changed(x);
        if self.watched[x.index()] & fired == 0 {
            return;
        }
        for w in &self.watches[x.index()] {
            if w.events & fired != 0 && self.alive[w.prop.index()] && self.running != Some(w.prop) {
                self.queue.push(w.prop);
            }
        }
    }

    /// Out of line: most variables have no advisors, and the test before the call is all
    /// they pay.
    #[cold]
    #[inline(never)]
    fn record_bounds_change(&mut self, x: VarId, old: (Val, Val)) {
        let d = &self.domains[x.index()];
        let new = (d.min, d.max);
        if new != old {
            self.changes.push(BoundsChange { var: x, old, new });
        }
    }

    /// Records a change of `x` that established `claimed`, while learning.
    #[inline]
    fn record(&mut self, x: VarId, claimed: &[Literal], old: (Val, Val)) {
        if self.history.is_some() {
            self.record_event(x, claimed, old);
        }
    }

    #[cold]
    fn record_event(&mut self, x: VarId, claimed: &[Literal], old: (Val, Val)) {
        if let Some(history) = self.history.as_deref_mut() {
            let depth = self.trail.depth();
            if depth > 0 {
                history.record(x, claimed, old, &self.domains[x.index()], depth);
            }
        }
    }

    #[inline]
    pub(crate) fn set_min(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        if self.history.is_some() {
            return self.set_min_recorded(x, v);
        }
        self.raise_min(x, v)
    }

    #[cold]
    fn set_min_recorded(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        let old = (d.min, d.max);
        let changed = self.raise_min(x, v)?;
        if changed {
            self.record(x, &[Literal::Gt(x, v - 1)], old);
        }
        Ok(changed)
    }

    #[inline]
    fn raise_min(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        if v <= d.min {
            return Ok(false);
        }
        let new_min = d.next_value(v).ok_or(Conflict)?;
        let removed = if d.counts_lazily() { 0 } else { d.count_in(d.min, new_min - 1) };
        let old = (d.min, d.max);
        self.save_domain(x);
        let d = &mut self.domains[x.index()];
        d.min = new_min;
        d.wide_size -= removed;
        let fixed = d.is_fixed();
        self.notify_bounds(x, Events::fired(true, fixed), old);
        Ok(true)
    }

    #[inline]
    pub(crate) fn set_max(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        if self.history.is_some() {
            return self.set_max_recorded(x, v);
        }
        self.lower_max(x, v)
    }

    #[cold]
    fn set_max_recorded(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        let old = (d.min, d.max);
        let changed = self.lower_max(x, v)?;
        if changed {
            self.record(x, &[Literal::Le(x, v)], old);
        }
        Ok(changed)
    }

    #[inline]
    fn lower_max(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        if v >= d.max {
            return Ok(false);
        }
        let new_max = d.prev_value(v).ok_or(Conflict)?;
        let removed = if d.counts_lazily() { 0 } else { d.count_in(new_max + 1, d.max) };
        let old = (d.min, d.max);
        self.save_domain(x);
        let d = &mut self.domains[x.index()];
        d.max = new_max;
        d.wide_size -= removed;
        let fixed = d.is_fixed();
        self.notify_bounds(x, Events::fired(true, fixed), old);
        Ok(true)
    }

    pub(crate) fn assign(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        if !d.contains(v) {
            return Err(Conflict);
        }
        if d.is_fixed() {
            return Ok(false);
        }
        let old = (d.min, d.max);
        self.save_domain(x);
        let d = &mut self.domains[x.index()];
        d.min = v;
        d.max = v;
        d.wide_size = 1;
        self.notify_bounds(x, Events::fired(true, true), old);
        if self.history.is_some() {
            match (v > old.0, v < old.1) {
                (true, true) => self.record(x, &[Literal::Gt(x, v - 1), Literal::Le(x, v)], old),
                (true, false) => self.record(x, &[Literal::Gt(x, v - 1)], old),
                _ => self.record(x, &[Literal::Le(x, v)], old),
            }
        }
        Ok(true)
    }

    pub(crate) fn remove(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        if !d.contains(v) {
            return Ok(false);
        }
        let old = (d.min, d.max);
        if v == d.min {
            if d.is_fixed() {
                return Err(Conflict);
            }
            let changed = self.raise_min(x, v + 1)?;
            self.record(x, &[Literal::Ne(x, v)], old);
            return Ok(changed);
        }
        if v == d.max {
            let changed = self.lower_max(x, v - 1)?;
            self.record(x, &[Literal::Ne(x, v)], old);
            return Ok(changed);
        }
        if d.is_small() {
            // The common case (digits, cells): one bit of the inline word, saved with the
            // bounds once per level.
            let bit = 1 << (v - d.offset);
            self.save_domain(x);
            self.domains[x.index()].word &= !bit;
            self.notify(x, Events::fired(false, false));
            self.record(x, &[Literal::Ne(x, v)], old);
            return Ok(true);
        }
        if !self.domains[x.index()].materialise() {
            self.lossy = true;
            return Ok(false);
        }
        self.save_domain(x);
        let d = &mut self.domains[x.index()];
        let (index, mask) = d.block_of(v);
        let word = d.block(index);
        d.set_block(index, word & !mask);
        if !d.counts_lazily() {
            d.wide_size -= 1;
        }
        if self.trail.depth() > 0 {
            self.trail.push(Undo::Block { var: x, index: index as u32, word });
        }
        self.notify(x, Events::fired(false, false));
        self.record(x, &[Literal::Ne(x, v)], old);
        Ok(true)
    }

    /// Removes the values of a small domain whose bits (bit `i` is `offset + i`) are set in
    /// `gone`, all at once: one record on the trail and one wake-up of the watchers, where a
    /// removal per value would walk the watcher list once per value. `gone` must hold only
    /// values of the domain.
    pub(crate) fn remove_small_bits(&mut self, x: VarId, gone: fixedbitset::Block) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        debug_assert!(d.is_small());
        if gone == 0 {
            return Ok(false);
        }
        let live = d.live_word() & !gone;
        if live == 0 {
            return Err(Conflict);
        }
        let new_min = d.offset + live.trailing_zeros() as Val;
        let new_max = d.offset + (63 - live.leading_zeros()) as Val;
        let bounds_changed = new_min != d.min || new_max != d.max;
        let (old, offset) = ((d.min, d.max), d.offset);
        self.save_domain(x);
        let d = &mut self.domains[x.index()];
        d.word &= !gone;
        d.min = new_min;
        d.max = new_max;
        self.notify_bounds(x, Events::fired(bounds_changed, new_min == new_max), old);
        if self.history.is_some() {
            let removed: Vec<Literal> =
                (0..64).filter(|i| gone >> i & 1 == 1).map(|i| Literal::Ne(x, offset + i as Val)).collect();
            self.record(x, &removed, old);
        }
        Ok(true)
    }

    /// Removes from a wide domain (more than 64 initial values, its bitset materialised) the
    /// values whose bits are set in `gone`, given as `(block index, bits)` pairs, all at once:
    /// one record per changed block on the trail, the bounds moved once and one wake-up of
    /// the watchers. Removing the values one by one would move a bound, search for the next
    /// value and walk the watcher list once per value; `x mod 97 = 0` over 0..138516 removes
    /// 137 000 of them. `gone` must hold only values of the domain.
    pub(crate) fn remove_wide_bits(
        &mut self,
        x: VarId,
        gone: &[(usize, fixedbitset::Block)],
    ) -> Result<bool, Conflict> {
        let d = &self.domains[x.index()];
        debug_assert!(!d.is_small() && d.bits.is_some());
        let removed: u64 = gone.iter().map(|&(_, bits)| bits.count_ones() as u64).sum();
        if removed == 0 {
            return Ok(false);
        }
        if removed >= d.size() {
            // Checked before any change, so a conflict leaves the domain as it was.
            return Err(Conflict);
        }
        let (old, offset) = ((d.min, d.max), d.offset);
        self.save_domain(x);
        let trailing = self.trail.depth() > 0;
        let d = &mut self.domains[x.index()];
        for &(index, bits) in gone {
            let word = d.block(index);
            debug_assert_eq!(word & bits, bits, "only values of the domain are removed");
            d.set_block(index, word & !bits);
            if trailing {
                self.trail.push(Undo::Block { var: x, index: index as u32, word });
            }
        }
        if !d.counts_lazily() {
            d.wide_size -= removed;
        }
        // Not empty (checked above), so both bounds find a value.
        let (new_min, new_max) = (d.next_value(d.min), d.prev_value(d.max));
        let (new_min, new_max) = (new_min.ok_or(Conflict)?, new_max.ok_or(Conflict)?);
        d.min = new_min;
        d.max = new_max;
        let bounds_changed = (new_min, new_max) != old;
        self.notify_bounds(x, Events::fired(bounds_changed, new_min == new_max), old);
        if self.history.is_some() {
            let removed: Vec<Literal> = gone
                .iter()
                .flat_map(|&(index, bits)| {
                    (0..fixedbitset::Block::BITS).filter(move |i| bits >> i & 1 == 1).map(move |i| {
                        Literal::Ne(x, offset + (index * fixedbitset::Block::BITS as usize) as Val + i as Val)
                    })
                })
                .collect();
            self.record(x, &removed, old);
        }
        Ok(true)
    }

    /// Applies one search step: fixes, removes or bounds its variable.
    pub(crate) fn apply(&mut self, step: Literal) -> Result<bool, Conflict> {
        match step {
            Literal::Eq(x, v) => self.assign(x, v),
            Literal::Ne(x, v) => self.remove(x, v),
            Literal::Le(x, v) => self.set_max(x, v),
            Literal::Gt(x, v) => self.set_min(x, v + 1),
        }
    }

    pub(crate) fn new_int(&mut self, initial: i64) -> TrailedInt {
        self.ints.push(initial);
        self.int_saved_at.push(u64::MAX);
        TrailedInt(self.ints.len() as u32 - 1)
    }

    pub(crate) fn int(&self, id: TrailedInt) -> i64 {
        self.ints[id.0 as usize]
    }

    pub(crate) fn set_int(&mut self, id: TrailedInt, value: i64) {
        let i = id.0 as usize;
        let stamp = self.trail.stamp();
        if self.trail.depth() > 0 && self.int_saved_at[i] != stamp {
            self.int_saved_at[i] = stamp;
            self.trail.push(Undo::Int { id, old: self.ints[i] });
        }
        self.ints[i] = value;
    }

    /// Forgets the propagators from `first` on (the nogoods of a search that has ended):
    /// their watches, queue slots and liveness. None of them may be queued or on the trail.
    pub(crate) fn forget_props_from(&mut self, first: usize) {
        if first >= self.alive.len() {
            return;
        }
        self.alive_count -= self.alive[first..].iter().filter(|&&a| a).count();
        self.alive.truncate(first);
        self.queue.truncate(first);
        for (list, watched) in self.watches.iter_mut().zip(&mut self.watched) {
            if list.iter().any(|w| w.prop.index() >= first) {
                list.retain(|w| w.prop.index() < first);
                *watched = list.iter().fold(*watched & ADVISED, |events, w| events | w.events);
            }
        }
        for (list, watched) in self.advisors.iter_mut().zip(&mut self.watched) {
            if list.iter().any(|a| a.prop.index() >= first) {
                list.retain(|a| a.prop.index() < first);
                if list.is_empty() {
                    *watched &= !ADVISED;
                }
            }
        }
    }

    /// Puts a propagator to sleep until the current level is undone.
    pub(crate) fn kill(&mut self, prop: PropId) {
        self.alive[prop.index()] = false;
        self.alive_count -= 1;
        self.marks.killed(prop);
        if self.trail.depth() > 0 {
            self.trail.push(Undo::Revive { prop });
        }
    }

    /// Opens a level. Every change of bounds must have reached its advisors
    /// (`Solver::open_level` delivers them first): an update delivered later would be
    /// trailed at the new level, and undone while the change it follows stays.
    pub(crate) fn open_level(&mut self) {
        debug_assert!(self.changes.is_empty(), "changes of bounds left undelivered at a new level");
        self.trail.open_level();
    }

    pub(crate) fn close_level(&mut self) {
        // Undelivered changes all belong to this level (none is left when a level opens),
        // and are undone with it.
        self.changes.clear();
        if let Some(history) = self.history.as_deref_mut() {
            history.backtrack_to(self.trail.depth() - 1);
        }
        let Store { trail, domains, ints, alive, alive_count, marks, .. } = self;
        let tracking = marks.tracking();
        for undo in trail.close_level() {
            match undo {
                Undo::Small { var, min, max, word } => {
                    if tracking {
                        marks.changed(var);
                    }
                    let d = &mut domains[var.index()];
                    d.min = min;
                    d.max = max;
                    d.word = word;
                }
                Undo::Bounds { var, min, max, size } => {
                    if tracking {
                        marks.changed(var);
                    }
                    let d = &mut domains[var.index()];
                    d.min = min;
                    d.max = max;
                    d.wide_size = size;
                }
                // The level saved the variable's bounds too (`Undo::Bounds`), which marks it.
                Undo::Block { var, index, word } => domains[var.index()].set_block(index as usize, word),
                Undo::Int { id, old } => ints[id.0 as usize] = old,
                Undo::Revive { prop } => {
                    alive[prop.index()] = true;
                    *alive_count += 1;
                    marks.revived(prop);
                }
            }
        }
    }
}
