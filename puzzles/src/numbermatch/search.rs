//! The exact search: iterative deepening A* (IDA*) on the cost of a win, with a
//! transposition table of proven lower bounds.
//!
//! Cost: under app rules an add costs `ADD_COST` (more than any number of matches) and a
//! match 1, so the cheapest win has the fewest adds, then the fewest matches — and with
//! the adds fixed, the fewest moves. Under the paper rules adds are forced, not chosen, and
//! the cost is the number of matches. Each iteration searches depth first every line whose
//! cost so far plus the lower bound of `bounds.rs` stays within the budget; the first
//! iteration that wins is optimal, and one that ends with every line dead (bound
//! infinite) proves that no win exists. What an iteration learns — a position cannot be
//! won for less than `b` — goes into the table keyed on the position and the adds left,
//! so transpositions (the same grid by another order of moves) are searched once and the
//! next iteration skips what the last one refuted.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::bitboard::Rays;
use super::bounds::{bound_of, census, INF};
use super::grid::Game;
use super::rules::{key, play_add, play_match, Move, Rules};
use super::sleep::{asleep_below, quiet_pairs};

/// The cost of an add under app rules: more than the matches of any game.
pub(crate) const ADD_COST: u64 = 1 << 32;

/// A win: its moves and what they cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub moves: Vec<Move>,
}

impl Line {
    pub fn adds(&self) -> usize {
        self.moves.iter().filter(|m| **m == Move::Add).count()
    }

    pub fn matches(&self) -> usize {
        self.moves.len() - self.adds()
    }
}

/// What the search ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A win of least cost.
    Optimal(Line),
    /// No win within the adds allowed.
    NoWin,
    /// Stopped by the time limit: no win costs less than `budget` (in `Cost` units).
    Stopped { budget: u64 },
}

/// The counters of one search, for `--stats`.
#[derive(Debug, Clone, Default)]
pub struct Counters {
    /// Positions visited.
    pub nodes: u64,
    /// Positions cut off by a lower bound (computed or from the table).
    pub cutoffs: u64,
    /// Lower bounds found in the table that were stronger than the computed one.
    pub table_hits: u64,
    /// Positions stored in the table at the end.
    pub stored: u64,
    pub max_depth: usize,
    /// Iterations (budgets tried).
    pub iterations: u64,
}

/// The table keys are fingerprints already: hashing them again would be wasted work.
#[derive(Default)]
struct Identity(u64);

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

/// Where to stop early.
#[derive(Debug, Clone, Default)]
pub struct Limits<'a> {
    pub deadline: Option<Instant>,
    /// Set by someone else to stop the search (another game of `play` ran out of time...).
    pub cancel: Option<&'a AtomicBool>,
    /// Positions kept in the table at most (beyond, new ones are not stored: the search
    /// stays exact, only slower).
    pub table_limit: usize,
    /// Search every order of commuting matches: the partial-order reduction off. Only for
    /// the tests that check the reduction against the search without it.
    #[doc(hidden)]
    pub every_order: bool,
}

enum Step {
    Won,
    /// No win within the budget. `full`: a lower bound on every line from the position
    /// (what the table may keep); `next`: the least cost over the budget among the lines
    /// this iteration searched from here (the next budget is the least `next` of all).
    Over {
        full: u64,
        next: u64,
    },
    Stopped,
}

/// What the table knows of a position, in cost from it: 12 bytes, so that an entry with
/// its 96-bit key takes 24 bytes (40 before: the hardest starts store 10M positions and
/// more, and a table that stops growing makes the search re-expand transpositions).
#[derive(Clone, Copy)]
struct Entry {
    /// A lower bound on every line from it, packed (see [`pack`]).
    full: u32,
    /// Its `next` of iteration `iteration` (see [`Step::Over`]), packed.
    next: u32,
    iteration: u16,
    /// The matches paid to reach it: with the adds left (in the key), the whole cost paid.
    /// One position can be reached at different costs (adds made earlier or later), and
    /// what a search left out of `full` was covered elsewhere at that cost only.
    paid: u16,
}

/// The bits of a packed cost that hold its matches; the adds are above them.
const MATCH_BITS: u32 = 26;

/// A cost (`adds * ADD_COST + matches`, or `INF`) in 32 bits, when it fits: adds in the
/// top 6 bits, matches in the low 26; `INF` is `u32::MAX`. A cost that does not fit is
/// not stored at all (`None`): the table may always forget, never round.
fn pack(cost: u64) -> Option<u32> {
    if cost >= INF {
        return Some(u32::MAX);
    }
    let (adds, matches) = (cost / ADD_COST, cost % ADD_COST);
    let packed = (adds << MATCH_BITS) | matches;
    (adds < 63 && matches < 1 << MATCH_BITS).then_some(packed as u32)
}

fn unpack(packed: u32) -> u64 {
    if packed == u32::MAX {
        INF
    } else {
        u64::from(packed >> MATCH_BITS) * ADD_COST + u64::from(packed & ((1 << MATCH_BITS) - 1))
    }
}

impl Entry {
    /// The entry, if every field fits (else the position is not stored).
    fn new(full: u64, next: u64, iteration: u64, paid: u64) -> Option<Entry> {
        Some(Entry {
            full: pack(full)?,
            next: pack(next)?,
            iteration: u16::try_from(iteration).ok()?,
            paid: u16::try_from(paid).ok()?,
        })
    }

    fn full(&self) -> u64 {
        unpack(self.full)
    }

    fn next(&self) -> u64 {
        unpack(self.next)
    }

    /// Whether `full` counts skipped lines at the budget of its iteration: then it holds
    /// only where the skipped lines were covered, in the same iteration at the same cost.
    fn partial(&self) -> bool {
        self.full() < self.next()
    }
}

struct Searcher<'a> {
    rules: Rules,
    cols: usize,
    /// Move generation for the grids of up to 64 cells (all of them before the first add).
    rays: Rays,
    add_cost: u64,
    /// Keyed on 96 bits of the 128-bit fingerprint, as three `u32` (a `u64` in the key
    /// would align the entries on 8 bytes: 32 instead of 24). A false hit needs a 96-bit
    /// collision: with 10^8 probes into 2 * 10^7 positions, a chance of about 10^-13 per
    /// search.
    table: HashMap<(u32, u32, u32), Entry, BuildHasherDefault<Identity>>,
    limits: Limits<'a>,
    counters: Counters,
    path: Vec<Move>,
    stopped: bool,
    /// Buffers for each depth of the search.
    scratch: Vec<Scratch>,
}

/// The buffers of one depth of the search.
#[derive(Default)]
struct Scratch {
    pairs: Vec<(u32, u32)>,
    /// Whether each pair of `pairs` leaves its rows standing.
    quiet: Vec<bool>,
    /// Digits left in each row.
    rows: Vec<u32>,
    /// The row of each cell.
    row_of: Vec<u32>,
    /// The sleep set handed to the child being searched.
    sleeping: Vec<(u32, u32)>,
    child: Vec<u8>,
}

/// The cost of a line in search units.
pub(crate) fn cost(rules: Rules, adds: u64, matches: u64) -> u64 {
    match rules {
        Rules::App => adds * ADD_COST + matches,
        Rules::Classic => matches,
    }
}

/// Searches `game` for a win of least cost.
pub fn solve(game: &Game, limits: Limits<'_>) -> (Verdict, Counters) {
    let add_cost = cost(game.rules, 1, 0);
    let mut s = Searcher {
        rules: game.rules,
        cols: game.cols,
        rays: Rays::new(game.cols),
        add_cost,
        table: HashMap::default(),
        limits,
        counters: Counters::default(),
        path: Vec::new(),
        stopped: false,
        scratch: vec![Scratch::default()],
    };
    let (n, odd) = census(&game.cells);
    let mut budget = bound_of(n, odd, game.adds, add_cost);
    let verdict = loop {
        if budget >= INF {
            break Verdict::NoWin;
        }
        s.counters.iterations += 1;
        match s.dfs(&game.cells, (n, odd), game.adds, 0, budget, 0, &[]) {
            Step::Won => {
                s.path.reverse();
                break Verdict::Optimal(Line { moves: std::mem::take(&mut s.path) });
            }
            Step::Over { next, .. } => budget = next,
            Step::Stopped => break Verdict::Stopped { budget },
        }
    };
    s.counters.stored = s.table.len() as u64;
    (verdict, s.counters)
}

impl Searcher<'_> {
    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // The first node checks too, so that a spent budget stops even a tiny search.
        if self.counters.nodes % 1024 == 1 {
            let late = crate::limit::expired(self.limits.deadline);
            let cancelled = self.limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
            self.stopped = late || cancelled;
        }
        self.stopped
    }

    /// Counts a position visited at `depth`; false when the search must stop.
    fn visit(&mut self, depth: usize) -> bool {
        self.counters.nodes += 1;
        self.counters.max_depth = self.counters.max_depth.max(depth);
        !self.out_of_time()
    }

    /// Searches `cells` (with `adds_left`, having paid `g`, holding `count.0` digits of
    /// which `count.1` classes have an odd count) for a win within `budget`, without
    /// starting with a match of `asleep`. On a win, `path` holds its moves, last first.
    ///
    /// Partial-order reduction (sleep sets). Two matches that share no cell and remove no
    /// row commute: either order is legal (clearing cells only opens neighbours, and the
    /// indices do not shift) and ends in the same grid. So once the line through one of
    /// them has been searched, the sibling lines need not play it first again: `asleep`
    /// holds such matches, and a match stays asleep below as long as it commutes with the
    /// moves played since. The lines skipped this way were searched, in another order,
    /// earlier in the same iteration, so
    /// - `next` may leave them out: they gave their costs to the iteration already;
    /// - `full`, what the table keeps for later iterations and other paths, counts them at
    ///   `budget + 1`: they did not win within the budget (else the iteration would have
    ///   stopped), and that is all this search knows of them.
    ///
    /// Both orders are legal, so the first win in index order never plays a match after a
    /// later-sorted one it commutes with: the line found is the same as without the
    /// reduction.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        cells: &[u8],
        count: (u64, u64),
        adds_left: Option<u32>,
        g: u64,
        budget: u64,
        depth: usize,
        asleep: &[(u32, u32)],
    ) -> Step {
        if !self.visit(depth) {
            return Step::Stopped;
        }
        let (n, odd) = count;
        if n == 0 {
            return Step::Won;
        }
        let k = key(cells, self.cols, self.rules, adds_left.unwrap_or(u32::MAX));
        let k = (k as u32, (k >> 32) as u32, (k >> 64) as u32);
        let mut bound = bound_of(n, odd, adds_left, self.add_cost);
        let mut next_known = None;
        // The table is probed only when the computed bound does not already cut.
        if g + bound <= budget {
            if let Some(known) = self.table.get(&k) {
                let here =
                    u64::from(known.iteration) == self.counters.iterations && u64::from(known.paid) == g % ADD_COST;
                // A partial entry from another iteration or cost is no proof: searched
                // again, never cut at a bound that would make the budget creep.
                if known.full() > bound && (here || !known.partial()) {
                    self.counters.table_hits += 1;
                    bound = known.full();
                    if here {
                        next_known = Some(known.next());
                    }
                }
            }
        }
        if g + bound > budget {
            self.counters.cutoffs += 1;
            let full = g.saturating_add(bound).min(INF);
            let next = next_known.map_or(full, |next| g.saturating_add(next).min(INF));
            return Step::Over { full, next };
        }
        // The buffers of this depth, reused from position to position (the search
        // expands millions of positions; allocating for each showed in the profile).
        let mut scratch = std::mem::take(&mut self.scratch[depth]);
        let Scratch { pairs, quiet, rows, row_of, sleeping, child } = &mut scratch;
        self.rays.matches(cells, self.rules, pairs);
        // The matches that remove no row here: the ones that may commute with others.
        quiet_pairs(cells, self.cols, self.rules, pairs, (rows, row_of), quiet);
        if self.limits.every_order {
            quiet.iter_mut().for_each(|q| *q = false);
        }
        if self.scratch.len() <= depth + 1 {
            self.scratch.push(Scratch::default());
        }
        let mut least_full = INF;
        let mut least_next = INF;
        let mut skipped = false;
        // The child of a quiet match (no row removed: `play_match` would only clear the
        // two cells) is this grid with two cells cleared, then set back: one copy of the
        // grid per position instead of one per match.
        child.clear();
        child.extend_from_slice(cells);
        for (p, &(i, j)) in pairs.iter().enumerate() {
            if asleep.binary_search(&(i, j)).is_ok() {
                skipped = true;
                continue;
            }
            asleep_below(pairs, quiet, p, asleep, sleeping);
            let (i_, j_) = (i as usize, j as usize);
            if quiet[p] {
                child[i_] = 0;
                child[j_] = 0;
            } else {
                play_match(child, self.cols, self.rules, i_, j_);
            }
            let step = self.dfs(child, (n - 2, odd), adds_left, g + 1, budget, depth + 1, sleeping);
            if quiet[p] {
                child[i_] = cells[i_];
                child[j_] = cells[j_];
            } else {
                child.clear();
                child.extend_from_slice(cells);
            }
            match step {
                Step::Won => {
                    self.path.push(Move::Match(i, j));
                    return Step::Won;
                }
                Step::Over { full, next } => {
                    least_full = least_full.min(full);
                    least_next = least_next.min(next);
                }
                Step::Stopped => return Step::Stopped,
            }
        }
        let may_add = match self.rules {
            Rules::App => true,
            // The paper game adds exactly when no match is left.
            Rules::Classic => pairs.is_empty(),
        };
        let child = &mut scratch.child;
        let after_add = g + self.add_cost;
        if may_add && adds_left != Some(0) && after_add + bound_of(2 * n, 0, None, self.add_cost) > budget {
            // The add's child would be cut by its own bound (2n digits, no odd class:
            // n matches), which needs neither its grid nor its key: it is counted as
            // visited and cut, as if searched, and nothing else is done. Before the
            // add's depth, this is the case at almost every position the search expands.
            if !self.visit(depth + 1) {
                return Step::Stopped;
            }
            self.counters.cutoffs += 1;
            let cut = after_add.saturating_add(n).min(INF);
            least_full = least_full.min(cut);
            least_next = least_next.min(cut);
        } else if may_add && adds_left != Some(0) {
            child.clear();
            child.extend_from_slice(cells);
            play_add(child);
            match self.dfs(child, (2 * n, 0), adds_left.map(|a| a - 1), after_add, budget, depth + 1, &[]) {
                Step::Won => {
                    self.path.push(Move::Add);
                    return Step::Won;
                }
                Step::Over { full, next } => {
                    least_full = least_full.min(full);
                    least_next = least_next.min(next);
                }
                Step::Stopped => return Step::Stopped,
            }
        }
        if skipped {
            least_full = least_full.min(budget + 1);
        }
        // Every line from here costs at least `least_full` in all, so `least_full - g` from here.
        let relative = |least: u64| if least >= INF { INF } else { least - g };
        let (full, next) = (relative(least_full), relative(least_next));
        let useful = full > bound || next > full;
        if useful && (self.table.len() < self.limits.table_limit || self.table.contains_key(&k)) {
            if let Some(entry) = Entry::new(full, next, self.counters.iterations, g % ADD_COST) {
                self.table.insert(k, entry);
            }
        }
        self.scratch[depth] = scratch;
        Step::Over { full: least_full, next: least_next }
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
        assert_eq!(std::mem::size_of::<((u32, u32, u32), Entry)>(), 24);
    }
}
