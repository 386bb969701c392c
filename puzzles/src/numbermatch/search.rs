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

use crate::Deadline;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::bitboard::Rays;
use super::bounds::{bound_of, census, INF};
use super::grid::Game;
use super::rules::{key, play_add, play_match, Move, Rules};
use super::sleep::{asleep_below, quiet_pairs};
use super::table::{key_of, Entry, Local, Table};

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

/// Where to stop early.
#[derive(Debug, Clone, Default)]
pub struct Limits<'a> {
    pub deadline: Deadline,
    /// Set by someone else to stop the search (another game of `play` ran out of time...).
    pub cancel: Option<&'a AtomicBool>,
    /// Positions kept in the table at most (beyond, new ones are not stored: the search
    /// stays exact, only slower).
    pub table_limit: usize,
    /// Threads of the search (0 or 1: one). With more, each iteration is split between
    /// them (`parallel.rs`): the same verdict and the same line, sooner.
    pub threads: usize,
    /// With several threads: the positions an iteration may take on one thread before it is
    /// dealt out between them (`None`: the default of `parallel.rs`; `Some(0)`: every
    /// iteration is dealt out). Only for the tests, which must reach the threads on boards
    /// small enough to check.
    #[doc(hidden)]
    pub alone: Option<u64>,
    /// Search every order of commuting matches: the partial-order reduction off. Only for
    /// the tests that check the reduction against the search without it.
    #[doc(hidden)]
    pub every_order: bool,
}

pub(crate) enum Step {
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

pub(crate) struct Searcher<'a, T> {
    pub(crate) rules: Rules,
    pub(crate) cols: usize,
    /// Move generation for the grids of up to 64 cells (all of them before the first add).
    pub(crate) rays: Rays,
    pub(crate) add_cost: u64,
    pub(crate) table: T,
    pub(crate) limits: Limits<'a>,
    pub(crate) counters: Counters,
    /// The moves of the win found, last first.
    pub(crate) path: Vec<Move>,
    pub(crate) stopped: bool,
    /// In a parallel iteration: the first task that won so far, and this searcher's task.
    /// A task after one that won cannot give the line (the first win in order is the
    /// one kept), so it stops.
    pub(crate) race: Option<(&'a AtomicUsize, usize)>,
    /// Stop when `counters.nodes` reaches it (checked with the clock): the parallel search
    /// tries each iteration on one thread first, up to this many positions.
    pub(crate) give_up_at: u64,
    /// Buffers for each depth of the search.
    pub(crate) scratch: Vec<Scratch>,
}

/// The buffers of one depth of the search.
#[derive(Default)]
pub(crate) struct Scratch {
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
///
/// With `limits.threads` above 1 the iterations are split between threads; the verdict
/// and the line are the same (only the counters differ).
pub fn solve(game: &Game, limits: Limits<'_>) -> (Verdict, Counters) {
    if limits.threads > 1 {
        return super::parallel::solve(game, limits);
    }
    let mut s = Searcher::new(game, Local::default(), limits);
    let (n, odd) = census(&game.cells);
    let add_cost = s.add_cost;
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

impl<'a, T: Table> Searcher<'a, T> {
    pub(crate) fn new(game: &Game, table: T, limits: Limits<'a>) -> Searcher<'a, T> {
        Searcher {
            rules: game.rules,
            cols: game.cols,
            rays: Rays::new(game.cols),
            add_cost: cost(game.rules, 1, 0),
            table,
            limits,
            counters: Counters::default(),
            path: Vec::new(),
            stopped: false,
            race: None,
            give_up_at: u64::MAX,
            scratch: vec![Scratch::default()],
        }
    }

    /// Whether the time limit has passed or someone cancelled the search.
    pub(crate) fn limits_reached(&self) -> bool {
        self.limits.deadline.expired() || self.limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // The first node checks too, so that a spent budget stops even a tiny search.
        if self.counters.nodes % 1024 == 1 {
            let lost_race = self.race.is_some_and(|(first, mine)| first.load(Ordering::Relaxed) < mine);
            self.stopped = self.limits_reached() || lost_race || self.counters.nodes >= self.give_up_at;
        }
        self.stopped
    }

    /// Counts a position visited at `depth`; false when the search must stop.
    pub(crate) fn visit(&mut self, depth: usize) -> bool {
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
    #[allow(clippy::too_many_arguments, reason = "the position's state, passed down the recursion as arguments")]
    pub(crate) fn dfs(
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
        let k = key_of(key(cells, self.cols, self.rules, adds_left.unwrap_or(u32::MAX)));
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
        if useful {
            if let Some(entry) = Entry::new(full, next, self.counters.iterations, g % ADD_COST) {
                self.table.store(k, entry, self.limits.table_limit);
            }
        }
        self.scratch[depth] = scratch;
        Step::Over { full: least_full, next: least_next }
    }
}
