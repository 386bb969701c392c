//! Variable selection that scales: the next variable to decide without a pass over all of
//! them at every node.
//!
//! The choice is exactly the one of a scan over each group in turn (`scan.rs`, which small
//! groups still use), then of the first unfixed variable of the model; only its cost changes.
//!
//! - **Input order** (the groups that take their variables in the order given, and the final
//!   "every variable" pass): a cursor, a trailed integer, past the prefix of fixed variables.
//!   Along a branch a fixed variable stays fixed, so the cursor only moves forward, and
//!   backtracking restores it with the domains: amortised `O(1)` per decision.
//! - **Groups**: a trailed cursor past the leading groups that have no unfixed variable left.
//! - **Score orders** (smallest domain, dom/wdeg, ...) on a group of at least
//!   [`SCAN_LIMIT`] variables: an indexed binary heap keyed by `(score, position)`, as SAT
//!   solvers keep their activity heap. The store marks a variable dirty when its domain
//!   changes or is restored, and when a propagator on it dies, wakes up or fails
//!   ([`Marks`]); a decision first recomputes the keys of the dirty variables — a fixed one
//!   leaves its heaps, an unfixed one (back after a backtrack) comes in again — and then reads
//!   the top. A decision costs `O(k log n)` for the `k` variables changed since the last one,
//!   instead of `O(n)`, and dom/wdeg's weighted degrees are kept incrementally instead of
//!   summed over every watcher of every variable.
//!
//! The same module answers the search's other question of every node, whether one
//! propagator alone is left (`sole.rs`), with cursors of the same kind.
//!
//! The search calls [`Selector::prepare`] when it starts (the groups are the search's) and
//! [`Selector::release`] when it ends; between searches nothing is tracked.

pub(crate) mod heap;
pub(crate) mod marks;
pub(crate) mod scan;
mod sole;
#[cfg(test)]
mod tests;

use crate::branch::{Branching, ValOrder, VarOrder};
use crate::domain::Domain;
use crate::ids::{TrailedInt, VarId};
use crate::store::Store;
use heap::IndexedHeap;
pub(crate) use marks::Marks;

/// Groups with fewer variables than this are scanned, and so are the model's variables when
/// there are fewer: a pass over a few variables costs less than the marks and heap moves of
/// every domain change, or than a cursor's trail entries (see notes/engine-speed.md).
pub(crate) const SCAN_LIMIT: usize = 256;

/// With fewer groups than this, the groups are tried from the first at every decision.
const GROUP_CURSOR_FROM: usize = 8;

#[derive(Debug)]
enum Group {
    /// Input order: the cursor (a position in the group's variables).
    Input(TrailedInt),
    /// A small group: scanned at each decision.
    Scan,
    /// A score order on a large group.
    Heap(HeapGroup),
}

#[derive(Debug)]
struct HeapGroup {
    order: VarOrder,
    /// The group's variables, each once (a repeat can never win: the first has the same key
    /// and comes earlier).
    vars: Vec<VarId>,
    heap: IndexedHeap,
}

/// The selection state of one search: its groups' cursors and heaps.
#[derive(Debug)]
pub(crate) struct Selector {
    groups: Vec<Group>,
    /// The first group that may still have an unfixed variable (none for a few groups: a
    /// cursor's trail entries cost more than looking at them all).
    first_group: Option<TrailedInt>,
    /// The cursor of the final pass over every variable (none for a small model).
    every_var: Option<TrailedInt>,
    /// The cursors that find the one propagator left.
    sole: Option<sole::SoleCursors>,
    /// Trailed integers kept from search to search, so that searches do not allocate new ones.
    pool: Vec<TrailedInt>,
    /// Per variable, `(group, position)` of each heap that holds it:
    /// `members[member_start[x]..member_start[x + 1]]`.
    member_start: Vec<u32>,
    members: Vec<(u32, u32)>,
    /// Some heap's order needs degrees or weighted degrees.
    needs_degrees: bool,
    prepared: bool,
    /// Groups smaller than this are scanned ([`SCAN_LIMIT`]; the tests lower it).
    pub(crate) scan_limit: usize,
}

impl Default for Selector {
    fn default() -> Selector {
        Selector {
            groups: Vec::new(),
            first_group: None,
            every_var: None,
            sole: None,
            pool: Vec::new(),
            member_start: Vec::new(),
            members: Vec::new(),
            needs_degrees: false,
            prepared: false,
            scan_limit: SCAN_LIMIT,
        }
    }
}

/// Whether the order reads degrees (`Marks::degree`, `Marks::wdeg`).
fn reads_degrees(order: VarOrder) -> bool {
    matches!(order, VarOrder::Occurrence | VarOrder::MostConstrained | VarOrder::DomWdeg)
}

/// The heap key of an unfixed variable: smaller is decided first, as the scan's
/// `min_by_key` (or dom/wdeg's strict `<`) would.
fn key(order: VarOrder, d: &Domain, degree: u32, wdeg: u64) -> u128 {
    // Signed values map to unsigned ones in the same order by flipping the sign bit.
    let ordered = |v: i64| (v as u64 ^ (1 << 63)) as u128;
    let most = |v: u64| (u64::MAX - v) as u128;
    match order {
        VarOrder::Input => 0,
        VarOrder::SmallestDomain => d.size() as u128,
        VarOrder::LargestDomain => most(d.size()),
        VarOrder::SmallestMin => ordered(d.min),
        VarOrder::LargestMax => u64::MAX as u128 - ordered(d.max),
        VarOrder::Occurrence => most(degree as u64),
        VarOrder::MostConstrained => ((d.size() as u128) << 64) | most(degree as u64),
        VarOrder::MaxRegret => {
            let second = d.next_value(d.min + 1).unwrap_or(d.min);
            most((second - d.min) as u64)
        }
        // A positive finite `f64` orders as its bits do (the size of an unfixed variable is
        // at least 2, so the score is never 0 or NaN), and equal scores have equal bits.
        VarOrder::DomWdeg => (d.size() as f64 / wdeg.max(1) as f64).to_bits() as u128,
    }
}

impl HeapGroup {
    /// Brings the variable at `pos` up to date: out if fixed, else in with its key.
    fn update(&mut self, pos: u32, store: &Store) {
        let x = self.vars[pos as usize].index();
        let d = &store.domains[x];
        if d.is_fixed() {
            self.heap.remove(pos);
        } else {
            let marks = &store.marks;
            let (degree, wdeg) = match reads_degrees(self.order) {
                true => (marks.degree[x], marks.wdeg[x]),
                false => (0, 0),
            };
            self.heap.set(pos, key(self.order, d, degree, wdeg));
        }
    }
}

/// Moves `cursor` past the fixed variables from where it is, and returns the first unfixed one
/// among the `len` variables `var(0), var(1), ...`.
fn advance(store: &mut Store, cursor: TrailedInt, len: usize, var: impl Fn(usize) -> VarId) -> Option<VarId> {
    let start = store.int(cursor) as usize;
    let mut i = start;
    while i < len && store.domains[var(i).index()].is_fixed() {
        i += 1;
    }
    if i != start {
        store.set_int(cursor, i as i64);
    }
    (i < len).then(|| var(i))
}

impl Selector {
    /// Sets up the cursors and heaps of a search over `branching` from the current state, and
    /// starts tracking the changes that concern them.
    pub(crate) fn prepare(&mut self, store: &mut Store, weights: &[u64], branching: &[Branching]) {
        self.release(store);
        let mut used = 0;
        let mut cursor = |store: &mut Store| {
            if used == self.pool.len() {
                self.pool.push(store.new_int(0));
            }
            let c = self.pool[used];
            used += 1;
            store.set_int(c, 0);
            c
        };
        let n = store.domains.len();
        // The tests lower `scan_limit` to have every cursor and heap tried on small models.
        self.first_group = (branching.len() >= GROUP_CURSOR_FROM.min(self.scan_limit)).then(|| cursor(store));
        self.every_var = (n >= self.scan_limit).then(|| cursor(store));
        self.sole = Some(sole::SoleCursors {
            first_alive: cursor(store),
            covered_for: cursor(store),
            covered_from: cursor(store),
        });
        store.set_int(self.sole.expect("just set").covered_for, -1);
        let mut heaped: Vec<(u32, u32, u32)> = Vec::new(); // (variable, group, position)
        let mut seen: Vec<u32> = Vec::new();
        for (g, b) in branching.iter().enumerate() {
            let group = match b.var_order {
                _ if b.vars.len() < self.scan_limit => Group::Scan,
                VarOrder::Input => Group::Input(cursor(store)),
                order => {
                    if seen.is_empty() {
                        seen = vec![u32::MAX; n];
                    }
                    let mut vars = Vec::with_capacity(b.vars.len());
                    for &x in &b.vars {
                        if seen[x.index()] != g as u32 {
                            seen[x.index()] = g as u32;
                            heaped.push((x.0, g as u32, vars.len() as u32));
                            vars.push(x);
                        }
                    }
                    self.needs_degrees |= reads_degrees(order);
                    Group::Heap(HeapGroup { order, heap: IndexedHeap::new(vars.len()), vars })
                }
            };
            self.groups.push(group);
        }
        // Degrees are counted for the variables of heaps only.
        self.needs_degrees &= !heaped.is_empty();
        if !heaped.is_empty() {
            // Membership, by variable (a counting sort).
            self.member_start = vec![0; n + 1];
            for &(x, _, _) in &heaped {
                self.member_start[x as usize + 1] += 1;
            }
            for i in 0..n {
                self.member_start[i + 1] += self.member_start[i];
            }
            let mut fill = self.member_start.clone();
            self.members = vec![(0, 0); heaped.len()];
            for &(x, g, pos) in &heaped {
                self.members[fill[x as usize] as usize] = (g, pos);
                fill[x as usize] += 1;
            }
            store.marks.state = vec![marks::UNTRACKED; n];
            for &(x, _, _) in &heaped {
                store.marks.state[x as usize] = marks::CLEAN;
            }
            if self.needs_degrees {
                count_degrees(store, weights);
            }
            self.refill(store, false);
        }
        self.prepared = true;
    }

    /// Recomputes every heap's keys (`only_degrees`: of the heaps whose order reads degrees).
    fn refill(&mut self, store: &Store, only_degrees: bool) {
        for group in &mut self.groups {
            if let Group::Heap(h) = group {
                if !only_degrees || reads_degrees(h.order) {
                    for pos in 0..h.vars.len() as u32 {
                        h.update(pos, store);
                    }
                }
            }
        }
    }

    /// Stops tracking: the search is over.
    pub(crate) fn release(&mut self, store: &mut Store) {
        store.marks.clear();
        self.groups.clear();
        self.member_start.clear();
        self.members.clear();
        self.needs_degrees = false;
        self.sole = None;
        self.prepared = false;
    }

    /// The index of the only propagator alive, if it watches every unfixed variable (its
    /// dedicated algorithm may then solve what is below the node). Amortised `O(1)` within a
    /// search, a pass over everything outside one.
    pub(crate) fn sole_propagator(&self, store: &mut Store) -> Option<usize> {
        sole::sole_propagator(store, self.sole)
    }

    /// Brings the heaps up to date with the variables marked since the last decision.
    fn flush(&mut self, store: &mut Store) {
        if store.marks.dirty.is_empty() {
            return;
        }
        let mut dirty = std::mem::take(&mut store.marks.dirty);
        for &x in &dirty {
            store.marks.state[x.index()] = marks::CLEAN;
            let (from, to) = (self.member_start[x.index()], self.member_start[x.index() + 1]);
            for &(g, pos) in &self.members[from as usize..to as usize] {
                if let Group::Heap(h) = &mut self.groups[g as usize] {
                    h.update(pos, store);
                }
            }
        }
        dirty.clear();
        store.marks.dirty = dirty;
    }

    /// The variable to decide next and its value order: the first group's choice that has an
    /// unfixed variable, else the first unfixed variable of the model (smallest value first).
    /// `None` when every variable is fixed.
    pub(crate) fn next(
        &mut self,
        store: &mut Store,
        weights: &[u64],
        branching: &[Branching],
    ) -> Option<(VarId, ValOrder)> {
        if let Some(found) = self.next_in_groups(store, weights, branching) {
            return Some(found);
        }
        let n = store.domains.len();
        let x = match self.every_var {
            Some(c) => advance(store, c, n, |i| VarId(i as u32))?,
            None => (0..n as u32).map(VarId).find(|x| !store.domains[x.index()].is_fixed())?,
        };
        Some((x, ValOrder::Min))
    }

    /// The next variable of the groups alone, with the group's value order; `None` once
    /// every variable of every group is fixed.
    pub(crate) fn next_in_groups(
        &mut self,
        store: &mut Store,
        weights: &[u64],
        branching: &[Branching],
    ) -> Option<(VarId, ValOrder)> {
        debug_assert!(self.prepared && self.groups.len() == branching.len(), "selection not prepared for these groups");
        if self.needs_degrees && store.marks.prop_start.len() != store.alive.len() + 1 {
            // Propagators were posted (nogoods at a restart): count the degrees again.
            count_degrees(store, weights);
            self.refill(store, true);
        }
        self.flush(store);
        let first = self.first_group.map_or(0, |c| store.int(c) as usize);
        for (g, group) in self.groups.iter().enumerate().skip(first) {
            let b = &branching[g];
            let found = match group {
                Group::Input(cursor) => advance(store, *cursor, b.vars.len(), |i| b.vars[i]),
                Group::Scan => scan::select_var(store, weights, &b.vars, b.var_order),
                Group::Heap(h) => h.heap.top().map(|pos| h.vars[pos as usize]),
            };
            if let Some(x) = found {
                if let (Some(c), true) = (self.first_group, g != first) {
                    store.set_int(c, g as i64);
                }
                return Some((x, b.val_order));
            }
        }
        if let (Some(c), true) = (self.first_group, first != self.groups.len()) {
            store.set_int(c, self.groups.len() as i64);
        }
        None
    }
}

/// Counts, for the tracked variables, their alive watchers and the sum of their weights, and
/// which tracked variables each propagator watches.
fn count_degrees(store: &mut Store, weights: &[u64]) {
    let n = store.domains.len();
    let props = store.alive.len();
    let tracked = |x: usize| store.marks.state[x] != marks::UNTRACKED;
    let mut prop_start = vec![0u32; props + 1];
    let mut degree = vec![0u32; n];
    let mut wdeg = vec![0u64; n];
    for x in (0..n).filter(|&x| tracked(x)) {
        for p in store.watchers(VarId(x as u32)) {
            prop_start[p.index() + 1] += 1;
            if store.alive[p.index()] {
                degree[x] += 1;
                wdeg[x] += weights[p.index()];
            }
        }
    }
    for p in 0..props {
        prop_start[p + 1] += prop_start[p];
    }
    let mut fill = prop_start.clone();
    let mut prop_vars = vec![0u32; prop_start[props] as usize];
    for x in (0..n).filter(|&x| tracked(x)) {
        for p in store.watchers(VarId(x as u32)) {
            prop_vars[fill[p.index()] as usize] = x as u32;
            fill[p.index()] += 1;
        }
    }
    let marks = &mut store.marks;
    marks.prop_start = prop_start;
    marks.prop_vars = prop_vars;
    // The count saw every watch, the late ones too.
    marks.late_vars.clear();
    marks.degree = degree;
    marks.wdeg = wdeg;
    marks.weight = weights.to_vec();
}
