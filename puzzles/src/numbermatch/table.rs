//! The transposition table of the exact search: what is proven of a position (a lower
//! bound on every line from it, and what the current iteration saw over its budget),
//! keyed on 96 bits of its fingerprint and the adds left.
//!
//! Two tables behind one trait, [`Table`]: a plain hash map for a search on one thread,
//! and [`Shared`], a sharded map (dashmap) that the threads of one parallel search
//! (`parallel.rs`) read and write together. Both may forget (past their cap nothing new
//! is stored), never round: a cost that does not fit an entry is not stored.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;

use super::bounds::INF;
use super::search::ADD_COST;

/// 96 bits of the 128-bit fingerprint, as three `u32` (a `u64` in the key would align the
/// entries on 8 bytes: 32 instead of 24). A false hit needs a 96-bit collision: with 10^8
/// probes into 2 * 10^7 positions, a chance of about 10^-13 per search.
pub(crate) type Key = (u32, u32, u32);

/// The key of a fingerprint.
pub(crate) fn key_of(fingerprint: u128) -> Key {
    (fingerprint as u32, (fingerprint >> 32) as u32, (fingerprint >> 64) as u32)
}

/// The table keys are fingerprints already: hashing them again would be wasted work.
#[derive(Default)]
pub(crate) struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = self.0.rotate_left(32) ^ v;
    }
    fn write_u32(&mut self, v: u32) {
        self.0 = self.0.rotate_left(32) ^ u64::from(v);
    }
}

/// What the table knows of a position, in cost from it: 12 bytes, so that an entry with
/// its 96-bit key takes 24 bytes (40 before: the hardest starts store 10M positions and
/// more, and a table that stops growing makes the search re-expand transpositions).
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// A lower bound on every line from it, packed (see [`pack`]).
    full: u32,
    /// Its `next` of iteration `iteration` (see [`Step::Over`]), packed.
    next: u32,
    pub(crate) iteration: u16,
    /// The matches paid to reach it: with the adds left (in the key), the whole cost paid.
    /// One position can be reached at different costs (adds made earlier or later), and
    /// what a search left out of `full` was covered elsewhere at that cost only.
    pub(crate) paid: u16,
}

/// The bits of a packed cost that hold its matches; the adds are above them.
pub(crate) const MATCH_BITS: u32 = 26;

/// A cost (`adds * ADD_COST + matches`, or `INF`) in 32 bits, when it fits: adds in the
/// top 6 bits, matches in the low 26; `INF` is `u32::MAX`. A cost that does not fit is
/// not stored at all (`None`): the table may always forget, never round.
pub(crate) fn pack(cost: u64) -> Option<u32> {
    if cost >= INF {
        return Some(u32::MAX);
    }
    let (adds, matches) = (cost / ADD_COST, cost % ADD_COST);
    let packed = (adds << MATCH_BITS) | matches;
    (adds < 63 && matches < 1 << MATCH_BITS).then_some(packed as u32)
}

pub(crate) fn unpack(packed: u32) -> u64 {
    if packed == u32::MAX {
        INF
    } else {
        u64::from(packed >> MATCH_BITS) * ADD_COST + u64::from(packed & ((1 << MATCH_BITS) - 1))
    }
}

impl Entry {
    /// The entry, if every field fits (else the position is not stored).
    pub(crate) fn new(full: u64, next: u64, iteration: u64, paid: u64) -> Option<Entry> {
        Some(Entry {
            full: pack(full)?,
            next: pack(next)?,
            iteration: u16::try_from(iteration).ok()?,
            paid: u16::try_from(paid).ok()?,
        })
    }

    pub(crate) fn full(&self) -> u64 {
        unpack(self.full)
    }

    pub(crate) fn next(&self) -> u64 {
        unpack(self.next)
    }

    /// Whether `full` counts skipped lines at the budget of its iteration: then it holds
    /// only where the skipped lines were covered, in the same iteration at the same cost.
    pub(crate) fn partial(&self) -> bool {
        self.full() < self.next()
    }
}

/// What the search asks of a table.
pub(crate) trait Table {
    fn get(&self, k: &Key) -> Option<Entry>;
    /// Stores `entry` for `k` (replacing what was there), unless the table already holds
    /// `limit` positions and `k` is not one of them.
    fn store(&mut self, k: Key, entry: Entry, limit: usize);
    /// Positions stored.
    fn len(&self) -> usize;
}

/// The table of a search on one thread.
pub(crate) type Local = HashMap<Key, Entry, BuildHasherDefault<Identity>>;

impl Table for Local {
    fn get(&self, k: &Key) -> Option<Entry> {
        HashMap::get(self, k).copied()
    }

    fn store(&mut self, k: Key, entry: Entry, limit: usize) {
        if HashMap::len(self) < limit || self.contains_key(&k) {
            self.insert(k, entry);
        }
    }

    fn len(&self) -> usize {
        HashMap::len(self)
    }
}

/// The table of a search on several threads: a map in shards, each behind its own lock
/// (two threads rarely want the same shard at once), and a count of the positions kept,
/// so that the cap needs no walk over the shards.
pub(crate) struct Shared {
    map: DashMap<Key, Entry, BuildHasherDefault<Identity>>,
    stored: AtomicUsize,
}

impl Shared {
    pub(crate) fn new() -> Shared {
        Shared {
            map: DashMap::with_hasher_and_shard_amount(BuildHasherDefault::default(), 64),
            stored: AtomicUsize::new(0),
        }
    }
}

impl Table for &Shared {
    fn get(&self, k: &Key) -> Option<Entry> {
        self.map.get(k).map(|e| *e)
    }

    fn store(&mut self, k: Key, entry: Entry, limit: usize) {
        // Two threads may both pass the test with the table one short of its cap: it then
        // holds one position more, which the cap (a memory bound, not a rule) allows.
        if self.stored.load(Ordering::Relaxed) < limit {
            if self.map.insert(k, entry).is_none() {
                self.stored.fetch_add(1, Ordering::Relaxed);
            }
        } else if let Some(mut old) = self.map.get_mut(&k) {
            *old = entry;
        }
    }

    fn len(&self) -> usize {
        self.stored.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_costs_come_back_exact_and_keep_their_order() {
        let costs = [0, 1, 19, (1 << MATCH_BITS) - 1, ADD_COST, ADD_COST + 20, 5 * ADD_COST + 7, 62 * ADD_COST, INF];
        for &c in &costs {
            assert_eq!(pack(c).map(unpack), Some(c), "{c}");
        }
        for w in costs.windows(2) {
            assert!(pack(w[0]) < pack(w[1]), "{} {}", w[0], w[1]);
        }
        // What does not fit is not stored, never rounded.
        assert_eq!(pack(1 << MATCH_BITS), None);
        assert_eq!(pack(ADD_COST - 2), None);
        assert_eq!(pack(63 * ADD_COST), None);
        assert!(Entry::new(3, 3, 1 << 16, 0).is_none());
        assert!(Entry::new(3, 3, 1, 1 << 16).is_none());
        assert_eq!(std::mem::size_of::<(Key, Entry)>(), 24);
    }

    #[test]
    fn both_tables_keep_at_most_their_cap_and_replace_what_they_hold() {
        let e = |full| Entry::new(full, full, 1, 0).unwrap();
        let mut local = Local::default();
        let shared = Shared::new();
        let mut shared_ref = &shared;
        for t in [&mut local as &mut dyn Table, &mut shared_ref] {
            t.store((1, 0, 0), e(1), 2);
            t.store((2, 0, 0), e(2), 2);
            t.store((3, 0, 0), e(3), 2);
            assert_eq!(t.len(), 2);
            assert!(t.get(&(3, 0, 0)).is_none());
            t.store((2, 0, 0), e(7), 2);
            assert_eq!(t.get(&(2, 0, 0)).map(|x| x.full()), Some(7));
            assert_eq!(t.len(), 2);
        }
    }
}
