//! One search on several threads: each iteration of the IDA* of `search.rs` is dealt out
//! as tasks, and the threads share one transposition table.
//!
//! The hard starts spend their time in iterations that fail, and a failing iteration is
//! exhaustive: every line within the budget is searched, whoever searches it. So the top
//! of the tree is walked first, down to `SPLIT_DEPTH` moves, by every order of matches and
//! without sleep sets; each distinct position met there (with the cost paid) becomes a
//! task, in the order a depth-first search meets it. The threads take the tasks in that
//! order and search each with the depth-first search of `search.rs`, sleep sets and all.
//! An iteration is first tried on one thread, as `search.rs` runs it, and dealt out only
//! past [`ALONE`] positions: most starts never are.
//!
//! Why it is exact:
//! - A task starts with an empty sleep set, so the lines a task skips are covered by lines
//!   searched earlier *in the same task*: when a thread stores a position, the lines it
//!   skipped there were already searched (as on one thread). Every entry is therefore
//!   proven when it is written, by searches done and entries written before it, and a
//!   thread may cut with any entry another thread wrote (a partial one too, in the same
//!   iteration at the same cost paid, as on one thread).
//! - A position dropped as a copy of an earlier task (the same grid by another order of
//!   moves, at the same cost) is that earlier task's search.
//! - The line: on one thread it is the first win in depth-first order (the index order of
//!   matches, then the add). Here a task's own search finds the first win within the task
//!   (a cut or a skip never hides a win: entries are proven, and a skipped line did not
//!   win where it was searched, else the task would have stopped there), and the line
//!   kept is the one of the first task in order that wins, once every task before it has
//!   failed. A task after a task that won stops (it cannot give the line). So the verdict
//!   and the line do not depend on the thread count or on which thread finishes first;
//!   only the counters (`--stats`) do.
//! - The next budget is the least over the tasks and the cuts of the top: each is a lower
//!   bound on the lines through it, as on one thread.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use super::bounds::{bound_of, census, INF};
use super::grid::Game;
use super::rules::{key, play_add, play_match, Move, Rules};
use super::search::{Counters, Limits, Line, Searcher, Step, Verdict};
use super::table::{key_of, Key, Shared, Table};

/// Moves of the top of the tree walked before the tasks start: 35 digits make about 10
/// to 15 matches a position, so a few hundred distinct tasks, enough for two threads to
/// share the work evenly to the end, few enough that walking every order costs nothing.
const SPLIT_DEPTH: usize = 3;

/// Positions an iteration may take on one thread before it is dealt out: most starts
/// are decided in a few thousand positions (a millisecond or two), where walking the top
/// of the tree and starting threads would cost more than they save.
const ALONE: u64 = 20_000;

/// A position at the foot of the top of the tree: searched by one thread.
struct Task {
    cells: Vec<u8>,
    count: (u64, u64),
    adds_left: Option<u32>,
    g: u64,
    depth: usize,
    /// The moves from the start to it.
    prefix: Vec<Move>,
}

/// How a task ended.
enum Outcome {
    /// Its first win, from the start.
    Won(Vec<Move>),
    /// No win within the budget: the least cost over it (the `next` of `Step::Over`).
    Over(u64),
    /// The time limit, or the search was cancelled.
    Stopped,
}

/// What an iteration gave.
enum Round {
    Won(Vec<Move>),
    Over(u64),
    Stopped,
}

/// The tasks of one iteration and what the top of the tree showed.
#[derive(Default)]
struct Split {
    tasks: Vec<Task>,
    /// The positions already made tasks, with the cost paid.
    seen: HashSet<(Key, u64)>,
    /// The least cost over the budget at the positions of the top that were cut.
    least_next: u64,
}

/// Searches `game` for a win of least cost on `limits.threads` threads: the verdict and
/// the line of [`super::search::solve`] on one thread.
pub(crate) fn solve(game: &Game, limits: Limits<'_>) -> (Verdict, Counters) {
    let table = Shared::new();
    let first_win = AtomicUsize::new(usize::MAX);
    let mut top = Searcher::new(game, &table, limits.clone());
    let mut workers: Vec<_> = (0..limits.threads).map(|_| Searcher::new(game, &table, limits.clone())).collect();
    let (n, odd) = census(&game.cells);
    let mut budget = bound_of(n, odd, game.adds, top.add_cost);
    let verdict = loop {
        if budget >= INF {
            break Verdict::NoWin;
        }
        top.counters.iterations += 1;
        let first = match limits.alone.unwrap_or(ALONE) {
            0 => None,
            positions => alone(&mut top, game, (n, odd), budget, positions),
        };
        let round = match first {
            Some(round) => round,
            None => {
                // Dealt out under a new iteration number: the entries of the attempt on
                // one thread keep their bounds but not their `next`, which leaves out the
                // lines skipped there, whose costs went to the attempt's own least, now
                // dropped.
                top.counters.iterations += 1;
                for w in &mut workers {
                    w.counters.iterations = top.counters.iterations;
                }
                iteration(&mut top, &mut workers, game, (n, odd), budget, &first_win)
            }
        };
        match round {
            Round::Won(moves) => break Verdict::Optimal(Line { moves }),
            Round::Over(next) => budget = next,
            Round::Stopped => break Verdict::Stopped { budget },
        }
    };
    let mut counters = top.counters.clone();
    for w in &workers {
        counters.nodes += w.counters.nodes;
        counters.cutoffs += w.counters.cutoffs;
        counters.table_hits += w.counters.table_hits;
        counters.max_depth = counters.max_depth.max(w.counters.max_depth);
    }
    counters.stored = (&table).len() as u64;
    (verdict, counters)
}

/// One iteration at `budget` on one thread, as `search::solve` runs it, unless it takes
/// more than `positions` (then `None`: what it stored is proven, and stays).
fn alone(
    top: &mut Searcher<'_, &Shared>,
    game: &Game,
    count: (u64, u64),
    budget: u64,
    positions: u64,
) -> Option<Round> {
    top.give_up_at = top.counters.nodes + positions;
    top.stopped = false;
    top.path.clear();
    let step = top.dfs(&game.cells, count, game.adds, 0, budget, 0, &[]);
    top.give_up_at = u64::MAX;
    match step {
        Step::Won => Some(Round::Won(top.path.drain(..).rev().collect())),
        Step::Over { next, .. } => Some(Round::Over(next)),
        Step::Stopped if top.limits_reached() => Some(Round::Stopped),
        Step::Stopped => {
            top.stopped = false;
            None
        }
    }
}

/// One iteration at `budget`: the top walked by `top`, the tasks searched by `workers`.
fn iteration<'a>(
    top: &mut Searcher<'a, &'a Shared>,
    workers: &mut [Searcher<'a, &'a Shared>],
    game: &Game,
    count: (u64, u64),
    budget: u64,
    first_win: &'a AtomicUsize,
) -> Round {
    let mut split = Split { least_next: INF, ..Split::default() };
    if !walk_top(top, &mut split, &game.cells, count, game.adds, 0, budget, &mut Vec::new()) {
        return Round::Stopped;
    }
    first_win.store(usize::MAX, Ordering::Relaxed);
    let taken = AtomicUsize::new(0);
    let tasks = &split.tasks;
    let mut outcomes: Vec<(usize, Outcome)> = thread::scope(|scope| {
        let running: Vec<_> =
            workers.iter_mut().map(|w| scope.spawn(|| work(w, tasks, &taken, first_win, budget))).collect();
        running.into_iter().flat_map(|r| r.join().expect("a search thread panicked")).collect()
    });
    outcomes.sort_by_key(|(i, _)| *i);
    // In task order: the first win counts once every task before it has failed.
    let mut least_next = split.least_next;
    let searched = outcomes.len();
    for (expected, (i, outcome)) in outcomes.into_iter().enumerate() {
        if i != expected {
            return Round::Stopped;
        }
        match outcome {
            Outcome::Won(moves) => return Round::Won(moves),
            Outcome::Over(next) => least_next = least_next.min(next),
            Outcome::Stopped => return Round::Stopped,
        }
    }
    if searched < tasks.len() {
        return Round::Stopped;
    }
    Round::Over(least_next)
}

/// Takes tasks in order and searches them, until none is left or one before them won.
fn work<'a>(
    s: &mut Searcher<'a, &'a Shared>,
    tasks: &[Task],
    taken: &AtomicUsize,
    first_win: &'a AtomicUsize,
    budget: u64,
) -> Vec<(usize, Outcome)> {
    let mut outcomes = Vec::new();
    loop {
        let i = taken.fetch_add(1, Ordering::Relaxed);
        if i >= tasks.len() || first_win.load(Ordering::Relaxed) < i {
            return outcomes;
        }
        let t = &tasks[i];
        s.race = Some((first_win, i));
        s.stopped = false;
        s.path.clear();
        if s.scratch.len() <= t.depth + 1 {
            s.scratch.resize_with(t.depth + 2, Default::default);
        }
        match s.dfs(&t.cells, t.count, t.adds_left, t.g, budget, t.depth, &[]) {
            Step::Won => {
                first_win.fetch_min(i, Ordering::Relaxed);
                let mut moves = t.prefix.clone();
                moves.extend(s.path.drain(..).rev());
                outcomes.push((i, Outcome::Won(moves)));
            }
            Step::Over { next, .. } => outcomes.push((i, Outcome::Over(next))),
            // Behind a task that won: its outcome cannot count.
            Step::Stopped if first_win.load(Ordering::Relaxed) < i => {}
            Step::Stopped => {
                outcomes.push((i, Outcome::Stopped));
                return outcomes;
            }
        }
    }
}

/// Walks the top of the tree from `cells` (depth `prefix.len()`, cost paid `g`): every
/// order of matches, no sleep sets, the cuts of the bound and of the table (entries of
/// earlier iterations), and a task at each new position `SPLIT_DEPTH` moves down or won.
/// False when the search must stop.
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down the recursion as arguments")]
fn walk_top(
    s: &mut Searcher<'_, &Shared>,
    split: &mut Split,
    cells: &[u8],
    count: (u64, u64),
    adds_left: Option<u32>,
    g: u64,
    budget: u64,
    prefix: &mut Vec<Move>,
) -> bool {
    let (n, odd) = count;
    let depth = prefix.len();
    if depth == SPLIT_DEPTH || n == 0 {
        let k = key_of(key(cells, s.cols, s.rules, adds_left.unwrap_or(u32::MAX)));
        if split.seen.insert((k, g)) {
            split.tasks.push(Task { cells: cells.to_vec(), count, adds_left, g, depth, prefix: prefix.clone() });
        }
        return true;
    }
    if !s.visit(depth) {
        return false;
    }
    let mut bound = bound_of(n, odd, adds_left, s.add_cost);
    if g + bound <= budget {
        let k = key_of(key(cells, s.cols, s.rules, adds_left.unwrap_or(u32::MAX)));
        // Only entries of earlier iterations are there yet: a partial one is no proof.
        if let Some(known) = s.table.get(&k) {
            if known.full() > bound && !known.partial() {
                s.counters.table_hits += 1;
                bound = known.full();
            }
        }
    }
    if g + bound > budget {
        s.counters.cutoffs += 1;
        split.least_next = split.least_next.min(g.saturating_add(bound).min(INF));
        return true;
    }
    let mut pairs = Vec::new();
    s.rays.matches(cells, s.rules, &mut pairs);
    for &(i, j) in &pairs {
        let mut child = cells.to_vec();
        play_match(&mut child, s.cols, s.rules, i as usize, j as usize);
        prefix.push(Move::Match(i, j));
        let going = walk_top(s, split, &child, (n - 2, odd), adds_left, g + 1, budget, prefix);
        prefix.pop();
        if !going {
            return false;
        }
    }
    let may_add = match s.rules {
        Rules::App => true,
        Rules::Classic => pairs.is_empty(),
    };
    if !may_add || adds_left == Some(0) {
        return true;
    }
    let after_add = g + s.add_cost;
    if after_add + bound_of(2 * n, 0, None, s.add_cost) > budget {
        // As in `Searcher::dfs`: the add's child is cut by its own bound, unbuilt.
        if !s.visit(depth + 1) {
            return false;
        }
        s.counters.cutoffs += 1;
        split.least_next = split.least_next.min(after_add.saturating_add(n).min(INF));
        return true;
    }
    let mut child = cells.to_vec();
    play_add(&mut child);
    prefix.push(Move::Add);
    let going = walk_top(s, split, &child, (2 * n, 0), adds_left.map(|a| a - 1), after_add, budget, prefix);
    prefix.pop();
    going
}
