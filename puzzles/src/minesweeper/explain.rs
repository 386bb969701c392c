//! Why a cell is certain: for every cell the exact analysis proves safe or a mine, a
//! smallest set of revealed numbers that proves it on its own.
//!
//! # The idea
//! Each revealed number is a constraint: its covered, unflagged neighbours hold exactly
//! `number − flags` mines. The exact analysis ([`analyse`]) uses every number at once, and
//! the total number of mines; a person reads a position a few numbers at a time. A set of
//! numbers *proves* that a cell is safe when, under those numbers' constraints alone, no
//! layout of the cells they touch (their *scope*) puts a mine on it (and a mine when no
//! such layout leaves it empty). The proof is an exhaustive enumeration of the scope,
//! small by construction: a few numbers touch a few cells.
//!
//! The 1-2-1 pattern between two walls is the textbook example: a `1 2 1` row under three
//! covered cells. The `2` alone leaves three layouts. The `2` and the left `1` prove a mine
//! above the right `1` (the left `1` allows one mine in the two cells it shares with the
//! `2`, so the `2`'s other mine is the third cell), and the mirror pair proves the other
//! mine; the cell above the `2` is safe only by all three numbers (or, chained, by one `1`
//! once the mine beside it is known).
//!
//! # Smallest, hence minimal
//! Adding a number never makes a proof fail (fewer layouts survive), so a set is *minimal*
//! (no proper subset proves the cell) as soon as no set with one number fewer does. The
//! search tries sets of 1 number, then 2, ... and stops at the first size that proves the
//! cell: the set it returns is the smallest, and so minimal. Only sets *connected* to the
//! cell need trying: numbers that share no covered cell with the others constrain cells
//! that are independent of the cell (their layouts can be chosen freely next to any
//! layout of the rest, since the position is consistent), so a minimal set is connected
//! through shared cells and contains a number next to the cell.
//!
//! # The mine count
//! A cell may be certain only because of the total number of mines (the last mine is
//! under this `1`, so every other covered cell is safe). Then the step names *the mine
//! count* as a premise, with the numbers it needs. Its check enumerates each connected
//! piece of the numbers' scope for the totals of mines it can hold, and asks whether the
//! mines left fit in the covered cells outside the scope. A proof without the count is
//! always preferred. With the count, numbers far from the cell matter too (each one that
//! needs mines leaves fewer for the rest), so every set of numbers is tried, size by size,
//! as long as the next size fits the budget; then all the numbers (or, when their scope
//! is too large to enumerate, as many as fit, nearest first), made minimal by dropping
//! numbers one at a time, farthest first, while the proof holds: minimal, but maybe not
//! the smallest, and the step says so. Every cell touching no number has the same proof:
//! it is found once.
//!
//! # Chaining
//! With [`ExplainOptions::chain`], a step may also use cells proved by earlier steps as
//! *facts*, as a person does once a cell is known. Each step names the facts its check
//! uses (the known cells next to its numbers; with the mine count, every known cell),
//! and the steps come in rounds: each round, the cells with the smallest proof given the
//! facts so far. Without chaining, every cell is proved from the numbers alone.
//!
//! # Bounds
//! A piece of scope is enumerated only up to [`SCOPE_CAP`] covered cells, and the sets
//! tried for one cell are at most [`SET_BUDGET`]. A cell left unproved by these bounds is
//! reported as needing the whole frontier (every number, and the mine count): such a step
//! is true (the exact analysis proves it) but is not checked here.
//!
//! The checker, [`proves`], is independent of the analysis code: the tests hold each step
//! against it and the analysis's lists of safe cells and mines.

use crate::Deadline;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use foldhash::fast::FixedState;

use super::analysis::{analyse, Verdict};
use super::grid::{Board, Cell};

mod json;
pub use json::explanation_json;

/// The most covered cells one connected piece of a step's scope may have: the checker
/// enumerates the layouts of a piece, at most 2^20 of them.
pub const SCOPE_CAP: usize = 20;

/// The most sets of numbers tried for one cell in one search (without, then with, the
/// mine count).
pub const SET_BUDGET: usize = 20_000;

/// On the way to a contradiction, a cell is proved by at most this many numbers (more
/// than a person takes in at once, it is not a step towards it).
const MAX_STEP_NUMBERS: usize = 4;

/// What a certain cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Is {
    /// No mine in any layout.
    Safe,
    /// A mine in every layout.
    Mine,
}

impl Is {
    fn opposite(self) -> Is {
        match self {
            Is::Safe => Is::Mine,
            Is::Mine => Is::Safe,
        }
    }

    /// `"safe"` or `"mine"`.
    pub fn name(self) -> &'static str {
        match self {
            Is::Safe => "safe",
            Is::Mine => "mine",
        }
    }
}

/// What a step takes as given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Premise {
    /// Revealed numbers, as cell indices (row-major), ascending.
    pub numbers: Vec<usize>,
    /// Cells proved by earlier steps (chaining only), ascending by cell.
    pub facts: Vec<(usize, Is)>,
    /// Whether the total number of mines is used.
    pub mine_count: bool,
}

/// One certain cell and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MineStep {
    /// The cell (row-major index).
    pub cell: usize,
    /// Safe or mine.
    pub is: Is,
    /// The numbers (and facts, and maybe the mine count) that prove it.
    pub premise: Premise,
    /// No premise of the same kind (with or without the mine count, given the same
    /// facts) with fewer numbers proves the cell, among the sets whose pieces of scope fit
    /// [`SCOPE_CAP`]. False for a set made minimal by dropping numbers one at a time (still
    /// minimal: no proper subset proves it), and for the whole-frontier fallback.
    pub smallest: bool,
    /// The fallback: no set within the bounds ([`SCOPE_CAP`], [`SET_BUDGET`]) was found;
    /// the premise is every number (and the mine count, when the position has one) and
    /// the step rests on the exact analysis, not on the checker.
    pub whole_frontier: bool,
}

/// The explanation of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MineExplanation {
    /// One step per certain covered cell (flags are not steps), simplest first.
    pub steps: Vec<MineStep>,
    /// No layout agrees with the position: the steps then lead to [`Self::contradiction`].
    pub impossible: bool,
    /// For an impossible position, the numbers (with the facts the steps proved, and maybe
    /// the mine count) that no layout satisfies: the last step. `None` when no premise
    /// within the bounds was found (the exact analysis alone shows it).
    pub contradiction: Option<Premise>,
    /// Whether steps may use earlier steps' cells as facts.
    pub chained: bool,
    /// Sets of numbers checked (the work done).
    pub checks: u64,
}

impl MineExplanation {
    /// Steps that fell back to the whole frontier.
    pub fn whole_frontier(&self) -> usize {
        self.steps.iter().filter(|s| s.whole_frontier).count()
    }
}

/// How to explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExplainOptions {
    /// Let steps use the cells proved by earlier steps as facts.
    pub chain: bool,
}

/// The deadline passed (or the process asked every search to stop) before the
/// explanation was complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// What the checker says of a premise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// No layout allowed by the premise gives the cell the other value.
    Proves,
    /// Some layout allowed by the premise gives the cell the other value.
    DoesNotProve,
    /// A piece of the scope has more than [`SCOPE_CAP`] covered cells: not enumerated.
    TooLarge,
}

/// Whether `premise` alone proves that `cell` is `is`, by enumerating the layouts of the
/// numbers' scope (each connected piece on its own). The numbers' constraints count the
/// board's flags and the premise's mine facts as found mines; covered cells the premise
/// states safe drop out. With the mine count, the mines left after flags, mine facts and
/// the scope's layout must fit in the covered cells outside the scope that are not facts.
/// Independent of the exact analysis.
pub fn proves(board: &Board, premise: &Premise, cell: usize, is: Is) -> Check {
    let facts: Map<usize, Is> = premise.facts.iter().copied().collect();
    check(board, &premise.numbers, &|c| facts.get(&c).copied(), None, premise.mine_count, cell, is)
}

/// Whether `premise` alone admits no layout at all (`Proves`: it contradicts itself), by
/// the same enumeration as [`proves`]. Independent of the exact analysis.
pub fn contradicts(board: &Board, premise: &Premise) -> Check {
    let facts: Map<usize, Is> = premise.facts.iter().copied().collect();
    contradiction_check(board, &premise.numbers, &|c| facts.get(&c).copied(), premise.mine_count)
}

fn contradiction_check(
    board: &Board,
    numbers: &[usize],
    fact: &dyn Fn(usize) -> Option<Is>,
    mine_count: bool,
) -> Check {
    let unknown = |j: usize| board.cells[j] == Cell::Covered && fact(j).is_none();
    let cons = match demands(board, numbers, fact) {
        Ok(cons) => cons,
        Err(check) => return check,
    };
    let pieces = split(&cons);
    if pieces.iter().any(|p| p.vars.len() > SCOPE_CAP) {
        return Check::TooLarge;
    }
    let mut sums = vec![true];
    for p in &pieces {
        let t = totals(p, None, !mine_count);
        if t == 0 {
            return Check::Proves;
        }
        if mine_count {
            let mut next = vec![false; sums.len() + p.vars.len()];
            for (a, _) in sums.iter().enumerate().filter(|(_, &s)| s) {
                for b in (0..=p.vars.len()).filter(|b| t >> b & 1 == 1) {
                    next[a + b] = true;
                }
            }
            sums = next;
        }
    }
    if !mine_count {
        return Check::DoesNotProve;
    }
    let Some(mines) = board.mines else { return Check::DoesNotProve };
    let covered_unknown = (0..board.cells.len()).filter(|&j| unknown(j)).count();
    let known_mines = board.flags() + (0..board.cells.len()).filter(|&j| fact(j) == Some(Is::Mine)).count();
    let Some(left) = mines.checked_sub(known_mines) else { return Check::Proves };
    let scope_cells: usize = pieces.iter().map(|p| p.vars.len()).sum();
    let outside = covered_unknown - scope_cells;
    if sums.iter().enumerate().any(|(s, &ok)| ok && s <= left && left - s <= outside) {
        Check::DoesNotProve
    } else {
        Check::Proves
    }
}

/// A connected piece of a scope: its cells, and each number's demand over them (local indices).
#[derive(Debug)]
struct Piece {
    vars: Vec<usize>,
    cons: Vec<(usize, Vec<usize>)>,
}

/// The check; `board_totals` (the covered cells that are not facts, and the flags and
/// mine facts) when the caller knows them, else counted here.
fn check(
    board: &Board,
    numbers: &[usize],
    fact: &dyn Fn(usize) -> Option<Is>,
    board_totals: Option<(usize, usize)>,
    mine_count: bool,
    cell: usize,
    is: Is,
) -> Check {
    if let Some(f) = fact(cell) {
        return if f == is { Check::Proves } else { Check::DoesNotProve };
    }
    if board.cells.get(cell) != Some(&Cell::Covered) {
        return Check::DoesNotProve;
    }
    let unknown = |j: usize| board.cells[j] == Cell::Covered && fact(j).is_none();
    let cons = match demands(board, numbers, fact) {
        Ok(cons) => cons,
        Err(check) => return check,
    };
    let pieces = split(&cons);
    if pieces.iter().any(|p| p.vars.len() > SCOPE_CAP) {
        return Check::TooLarge;
    }
    let other = is.opposite();
    let mut in_scope = false;
    if !mine_count {
        // Proved when some piece has no layout (with the cell given the other value, in
        // its piece); a cell outside the scope is free.
        for p in &pieces {
            let fixed = p.vars.binary_search(&cell).ok().map(|v| (v, other == Is::Mine));
            if totals(p, fixed, true) == 0 {
                return Check::Proves;
            }
        }
        return Check::DoesNotProve;
    }
    let Some(mines) = board.mines else { return Check::DoesNotProve };
    // The totals of mines the scope can hold (each piece's totals, summed).
    let mut sums = vec![true];
    for p in &pieces {
        let fixed = p.vars.binary_search(&cell).ok().map(|v| (v, other == Is::Mine));
        in_scope |= fixed.is_some();
        let t = totals(p, fixed, false);
        if t == 0 {
            return Check::Proves;
        }
        let mut next = vec![false; sums.len() + p.vars.len()];
        for (a, _) in sums.iter().enumerate().filter(|(_, &s)| s) {
            for b in (0..=p.vars.len()).filter(|b| t >> b & 1 == 1) {
                next[a + b] = true;
            }
        }
        sums = next;
    }
    let scope_cells: usize = pieces.iter().map(|p| p.vars.len()).sum();
    let (covered_unknown, known_mines) = board_totals.unwrap_or_else(|| {
        let unknown = (0..board.cells.len()).filter(|&j| unknown(j)).count();
        (unknown, board.flags() + (0..board.cells.len()).filter(|&j| fact(j) == Some(Is::Mine)).count())
    });
    let Some(mut left) = mines.checked_sub(known_mines) else { return Check::Proves };
    let mut outside = covered_unknown - scope_cells;
    if !in_scope {
        // The cell itself is outside the scope, with the other value.
        outside -= 1;
        if other == Is::Mine {
            let Some(l) = left.checked_sub(1) else { return Check::Proves };
            left = l;
        }
    }
    let fits = sums.iter().enumerate().any(|(s, &ok)| ok && s <= left && left - s <= outside);
    if fits {
        Check::DoesNotProve
    } else {
        Check::Proves
    }
}

/// Each number's demand: how many mines its unknown covered neighbours (ascending) hold,
/// counting flags and mine facts as found. `Err(Proves)` when a number's demand cannot be
/// met (more mines around than it says, or fewer cells than mines left: the premise
/// contradicts itself, so it proves anything), `Err(DoesNotProve)` when a cell named is no
/// number.
fn demands(
    board: &Board,
    numbers: &[usize],
    fact: &dyn Fn(usize) -> Option<Is>,
) -> Result<Vec<(usize, Vec<usize>)>, Check> {
    let mut cons: Vec<(usize, Vec<usize>)> = Vec::with_capacity(numbers.len());
    for &n in numbers {
        let Some(&Cell::Open(v)) = board.cells.get(n) else { return Err(Check::DoesNotProve) };
        let mut found = 0usize;
        let mut scope = Vec::new();
        for j in board.neighbours(n) {
            match board.cells[j] {
                Cell::Flag => found += 1,
                Cell::Covered => match fact(j) {
                    Some(Is::Mine) => found += 1,
                    Some(Is::Safe) => {}
                    None => scope.push(j),
                },
                Cell::Open(_) => {}
            }
        }
        let Some(need) = usize::from(v).checked_sub(found) else { return Err(Check::Proves) };
        if need > scope.len() {
            return Err(Check::Proves);
        }
        if !scope.is_empty() {
            scope.sort_unstable();
            cons.push((need, scope));
        }
    }
    Ok(cons)
}

/// Splits constraints into pieces linked by shared cells.
fn split(cons: &[(usize, Vec<usize>)]) -> Vec<Piece> {
    let mut parent: Vec<usize> = (0..cons.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut owner: Map<usize, usize> = Map::default();
    for (k, (_, scope)) in cons.iter().enumerate() {
        for &c in scope {
            if let Some(&o) = owner.get(&c) {
                let (a, b) = (find(&mut parent, o), find(&mut parent, k));
                parent[a.max(b)] = a.min(b);
            } else {
                owner.insert(c, k);
            }
        }
    }
    let mut piece_of_root: Map<usize, usize> = Map::default();
    let mut pieces: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for (k, (_, scope)) in cons.iter().enumerate() {
        let root = find(&mut parent, k);
        let p = *piece_of_root.entry(root).or_insert_with(|| {
            pieces.push((Vec::new(), Vec::new()));
            pieces.len() - 1
        });
        pieces[p].0.push(k);
        pieces[p].1.extend(scope.iter().copied());
    }
    pieces
        .into_iter()
        .map(|(ks, mut vars)| {
            vars.sort_unstable();
            vars.dedup();
            let cons = ks
                .iter()
                .map(|&k| (cons[k].0, cons[k].1.iter().map(|c| vars.binary_search(c).unwrap_or(0)).collect()))
                .collect();
            Piece { vars, cons }
        })
        .collect()
}

/// The totals of mines the layouts of a piece can hold, as a bit set (bit t: some layout
/// holds t mines), with one variable `fixed` if asked; `first` stops at the first layout.
fn totals(piece: &Piece, fixed: Option<(usize, bool)>, first: bool) -> u64 {
    let n = piece.vars.len();
    let mut of_var: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, (_, vs)) in piece.cons.iter().enumerate() {
        for &v in vs {
            of_var[v].push(k);
        }
    }
    let mut e = Enumeration {
        need: piece.cons.iter().map(|c| c.0).collect(),
        open: piece.cons.iter().map(|c| c.1.len()).collect(),
        mines: vec![0; piece.cons.len()],
        of_var,
        fixed,
        first,
        found: 0,
    };
    e.run(0, 0);
    e.found
}

struct Enumeration {
    need: Vec<usize>,
    open: Vec<usize>,
    mines: Vec<usize>,
    of_var: Vec<Vec<usize>>,
    fixed: Option<(usize, bool)>,
    first: bool,
    found: u64,
}

impl Enumeration {
    /// Assigns variables `v..`, `total` mines so far; returns true to stop.
    fn run(&mut self, v: usize, total: usize) -> bool {
        if v == self.of_var.len() {
            self.found |= 1 << total;
            return self.first;
        }
        for mine in [false, true] {
            if self.fixed.is_some_and(|(f, m)| f == v && m != mine) {
                continue;
            }
            let mut ok = true;
            for &k in &self.of_var[v] {
                self.open[k] -= 1;
                self.mines[k] += usize::from(mine);
                ok &= self.mines[k] <= self.need[k] && self.mines[k] + self.open[k] >= self.need[k];
            }
            let stop = ok && self.run(v + 1, total + usize::from(mine));
            for &k in &self.of_var[v] {
                self.open[k] += 1;
                self.mines[k] -= usize::from(mine);
            }
            if stop {
                return true;
            }
        }
        false
    }
}

/// Hash maps with a fixed, fast hasher (deterministic, and the checks hash a lot).
type Map<K, V> = HashMap<K, V, FixedState>;

/// A proving set (indices into a frame's numbers) and whether it is the smallest.
type Found = Option<(Vec<usize>, bool)>;

/// The numbers as they stand given some facts: the ones with covered cells left, and
/// which share cells.
struct Frame<'a> {
    board: &'a Board,
    facts: &'a Map<usize, Is>,
    /// Numbers (cell indices, ascending) with at least one unknown covered neighbour.
    numbers: Vec<usize>,
    /// Per number (index into `numbers`): its unknown covered neighbours, ascending.
    scope: Vec<Vec<usize>>,
    /// Per number: the numbers sharing a cell with it, ascending.
    adjacent: Vec<Vec<usize>>,
    /// Per covered cell: the numbers next to it.
    touching: Map<usize, Vec<usize>>,
    /// The covered cells that are not facts; the flags and mine facts.
    totals: (usize, usize),
    /// The proof with the mine count of a cell touching no number, by value.
    off_frontier: RefCell<Map<Is, Found>>,
}

impl<'a> Frame<'a> {
    fn new(board: &'a Board, facts: &'a Map<usize, Is>) -> Frame<'a> {
        let mut numbers = Vec::new();
        let mut scope = Vec::new();
        for (i, c) in board.cells.iter().enumerate() {
            if !matches!(c, Cell::Open(_)) {
                continue;
            }
            let s: Vec<usize> =
                board.neighbours(i).filter(|&j| board.cells[j] == Cell::Covered && !facts.contains_key(&j)).collect();
            if !s.is_empty() {
                let mut s = s;
                s.sort_unstable();
                numbers.push(i);
                scope.push(s);
            }
        }
        let mut touching: Map<usize, Vec<usize>> = Map::default();
        for (k, s) in scope.iter().enumerate() {
            for &c in s {
                touching.entry(c).or_default().push(k);
            }
        }
        let adjacent = scope
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let mut a: Vec<usize> =
                    s.iter().flat_map(|c| touching[c].iter().copied()).filter(|&o| o != k).collect();
                a.sort_unstable();
                a.dedup();
                a
            })
            .collect();
        let unknown =
            board.cells.iter().enumerate().filter(|&(j, c)| *c == Cell::Covered && !facts.contains_key(&j)).count();
        let known_mines = board.flags() + facts.values().filter(|&&v| v == Is::Mine).count();
        Frame {
            board,
            facts,
            numbers,
            scope,
            adjacent,
            touching,
            totals: (unknown, known_mines),
            off_frontier: RefCell::default(),
        }
    }

    fn scope_size(&self, set: &[usize]) -> usize {
        let mut cells: Vec<usize> = set.iter().flat_map(|&k| self.scope[k].iter().copied()).collect();
        cells.sort_unstable();
        cells.dedup();
        cells.len()
    }

    /// The check of a set (indices into `numbers`).
    fn check(&self, set: &[usize], mine_count: bool, cell: usize, is: Is, checks: &mut u64) -> Check {
        *checks += 1;
        let numbers: Vec<usize> = set.iter().map(|&k| self.numbers[k]).collect();
        check(self.board, &numbers, &|c| self.facts.get(&c).copied(), Some(self.totals), mine_count, cell, is)
    }

    /// The premise of a set: its numbers and the facts its check uses.
    fn premise(&self, set: &[usize], mine_count: bool) -> Premise {
        let mut numbers: Vec<usize> = set.iter().map(|&k| self.numbers[k]).collect();
        numbers.sort_unstable();
        let mut facts: Vec<(usize, Is)> = if mine_count {
            self.facts.iter().map(|(&c, &v)| (c, v)).collect()
        } else {
            numbers
                .iter()
                .flat_map(|&n| self.board.neighbours(n))
                .filter_map(|j| self.facts.get(&j).map(|&v| (j, v)))
                .collect()
        };
        facts.sort_unstable_by_key(|f| f.0);
        facts.dedup();
        Premise { numbers, facts, mine_count }
    }

    /// The sets connected to `cell` (sharing cells, one of them next to it), by size, the
    /// first that proves it; `None` with `exhausted` when no connected set does (within
    /// the scope cap), `None` without it when the budget ran out first.
    fn connected(
        &self,
        cell: usize,
        is: Is,
        checks: &mut u64,
        deadline: &Deadline,
    ) -> Result<(Option<Vec<usize>>, bool), Stopped> {
        self.connected_up_to(cell, is, usize::MAX, checks, deadline)
    }

    /// As [`Frame::connected`], with sets of at most `most` numbers.
    fn connected_up_to(
        &self,
        cell: usize,
        is: Is,
        most: usize,
        checks: &mut u64,
        deadline: &Deadline,
    ) -> Result<(Option<Vec<usize>>, bool), Stopped> {
        let Some(seeds) = self.touching.get(&cell) else { return Ok((None, true)) };
        let mut level: Vec<Vec<usize>> = seeds.iter().map(|&k| vec![k]).collect();
        let mut tried = 0usize;
        while !level.is_empty() && level[0].len() <= most {
            for set in &level {
                if deadline.expired() {
                    return Err(Stopped);
                }
                tried += 1;
                if tried > SET_BUDGET {
                    return Ok((None, false));
                }
                if self.check(set, false, cell, is, checks) == Check::Proves {
                    return Ok((Some(set.clone()), true));
                }
            }
            let (next, overflowed) = self.grown(&level);
            if overflowed {
                return Ok((None, false));
            }
            level = next;
        }
        Ok((None, true))
    }

    /// The connected sets one number larger than those of `level` (each within
    /// [`SCOPE_CAP`]), sorted; `true` when growing stopped past [`SET_BUDGET`] sets (the
    /// sets then are those grown so far).
    fn grown(&self, level: &[Vec<usize>]) -> (Vec<Vec<usize>>, bool) {
        let mut next: HashSet<Vec<usize>, FixedState> = HashSet::default();
        let mut overflowed = false;
        for set in level {
            for &k in set {
                for &a in &self.adjacent[k] {
                    if set.binary_search(&a).is_ok() {
                        continue;
                    }
                    let mut s = set.clone();
                    let at = s.binary_search(&a).unwrap_or_else(|e| e);
                    s.insert(at, a);
                    if self.scope_size(&s) <= SCOPE_CAP {
                        next.insert(s);
                    }
                }
            }
            if next.len() > SET_BUDGET {
                overflowed = true;
                break;
            }
        }
        let mut next: Vec<Vec<usize>> = next.into_iter().collect();
        next.sort_unstable();
        (next, overflowed)
    }

    /// Whether the numbers of `set` (indices into `numbers`), with the facts and maybe the
    /// mine count, admit no layout.
    fn contradicts(&self, set: &[usize], mine_count: bool, checks: &mut u64) -> bool {
        *checks += 1;
        let numbers: Vec<usize> = set.iter().map(|&k| self.numbers[k]).collect();
        contradiction_check(self.board, &numbers, &|c| self.facts.get(&c).copied(), mine_count) == Check::Proves
    }

    /// Drops numbers from a proving set one at a time (farthest from the cell first)
    /// while the rest still proves it: a minimal set.
    fn shrink(
        &self,
        mut set: Vec<usize>,
        mine_count: bool,
        cell: usize,
        is: Is,
        checks: &mut u64,
        deadline: &Deadline,
    ) -> Result<Vec<usize>, Stopped> {
        let mut order = set.clone();
        order.sort_by_key(|&k| (std::cmp::Reverse(self.distance(k, cell)), std::cmp::Reverse(k)));
        for k in order {
            if deadline.expired() {
                return Err(Stopped);
            }
            let without: Vec<usize> = set.iter().copied().filter(|&o| o != k).collect();
            if self.check(&without, mine_count, cell, is, checks) == Check::Proves {
                set = without;
            }
        }
        Ok(set)
    }

    /// The numbers within growing distance of the cell (through shared cells), as long as
    /// their scope stays within the cap.
    fn ball(&self, cell: usize) -> Vec<usize> {
        let Some(seeds) = self.touching.get(&cell) else { return Vec::new() };
        self.reach(seeds.clone(), SCOPE_CAP)
    }

    /// The numbers reached from `start` through shared cells, ring by ring, while the
    /// scope of what is reached stays within `cap` cells (ascending).
    fn reach(&self, mut start: Vec<usize>, cap: usize) -> Vec<usize> {
        start.sort_unstable();
        start.dedup();
        let mut ball = start;
        loop {
            let mut next = ball.clone();
            for &k in &ball {
                next.extend(self.adjacent[k].iter().copied());
            }
            next.sort_unstable();
            next.dedup();
            if next.len() == ball.len() || (cap < usize::MAX && self.scope_size(&next) > cap) {
                return ball;
            }
            ball = next;
        }
    }

    /// A proof without the mine count: the smallest connected set, else (budget spent) a
    /// minimal set from the ball around the cell. `Ok(None)` when there is none in bounds.
    fn without_count(&self, cell: usize, is: Is, checks: &mut u64, deadline: &Deadline) -> Result<Found, Stopped> {
        // The numbers connected to the cell: when their scope can be enumerated and they
        // do not prove it, no set of numbers does (without the count).
        let Some(seeds) = self.touching.get(&cell) else { return Ok(None) };
        let component = self.reach(seeds.clone(), usize::MAX);
        if self.scope_size(&component) <= SCOPE_CAP && self.check(&component, false, cell, is, checks) != Check::Proves
        {
            return Ok(None);
        }
        let (found, exhausted) = self.connected(cell, is, checks, deadline)?;
        if let Some(set) = found {
            return Ok(Some((set, true)));
        }
        if exhausted {
            return Ok(None);
        }
        let ball = self.ball(cell);
        if !ball.is_empty() && self.check(&ball, false, cell, is, checks) == Check::Proves {
            return Ok(Some((self.shrink(ball, false, cell, is, checks, deadline)?, false)));
        }
        Ok(None)
    }

    /// A proof with the mine count. A cell touching no number is outside every scope, so
    /// its proof is the same for every such cell: found once per frame.
    fn with_count(&self, cell: usize, is: Is, checks: &mut u64, deadline: &Deadline) -> Result<Found, Stopped> {
        if self.board.mines.is_none() {
            return Ok(None);
        }
        let off = !self.touching.contains_key(&cell);
        if off {
            if let Some(found) = self.off_frontier.borrow().get(&is) {
                return Ok(found.clone());
            }
        }
        let found = self.with_count_search(cell, is, checks, deadline)?;
        if off {
            self.off_frontier.borrow_mut().insert(is, found.clone());
        }
        Ok(found)
    }

    /// The count with every set of numbers, size by size, while the sets of the next size
    /// fit in [`SET_BUDGET`]; then with all the numbers (or as many as keep every piece
    /// within [`SCOPE_CAP`], nearest first), made minimal.
    fn with_count_search(&self, cell: usize, is: Is, checks: &mut u64, deadline: &Deadline) -> Result<Found, Stopped> {
        let n = self.numbers.len();
        let mut tried = 0usize;
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        // Every set of up to `exhaustive` numbers has been tried.
        let mut exhaustive = 0;
        loop {
            for set in &sets {
                if deadline.expired() {
                    return Err(Stopped);
                }
                if self.check(set, true, cell, is, checks) == Check::Proves {
                    return Ok(Some((set.clone(), true)));
                }
            }
            tried += sets.len();
            if exhaustive == n || tried.saturating_add(binomial(n, exhaustive + 1)) > SET_BUDGET {
                break;
            }
            sets = sets
                .iter()
                .flat_map(|s| (s.last().map_or(0, |l| l + 1)..n).map(move |k| [&s[..], &[k]].concat()))
                .collect();
            exhaustive += 1;
        }
        let all: Vec<usize> = (0..n).collect();
        if self.check(&all, true, cell, is, checks) == Check::Proves {
            return Ok(Some((self.shrink(all, true, cell, is, checks, deadline)?, false)));
        }
        // Nearest first, each number kept if its piece stays within the cap.
        let mut order = all.clone();
        order.sort_by_key(|&k| (self.distance(k, cell), k));
        let mut piece_of: Map<usize, usize> = Map::default();
        let mut pieces: Vec<Vec<usize>> = Vec::new();
        let mut keep = Vec::new();
        for k in order {
            let mut ids: Vec<usize> = self.scope[k].iter().filter_map(|c| piece_of.get(c).copied()).collect();
            ids.sort_unstable();
            ids.dedup();
            let mut cells: Vec<usize> =
                ids.iter().flat_map(|&p| pieces[p].iter().copied()).chain(self.scope[k].iter().copied()).collect();
            cells.sort_unstable();
            cells.dedup();
            if cells.len() > SCOPE_CAP {
                continue;
            }
            for &p in &ids {
                pieces[p].clear();
            }
            for &c in &cells {
                piece_of.insert(c, pieces.len());
            }
            pieces.push(cells);
            keep.push(k);
        }
        keep.sort_unstable();
        if keep.len() < n && self.check(&keep, true, cell, is, checks) == Check::Proves {
            return Ok(Some((self.shrink(keep, true, cell, is, checks, deadline)?, false)));
        }
        Ok(None)
    }

    /// The smallest set of numbers, connected through shared cells, that no layout
    /// satisfies (without the mine count), size by size within [`SET_BUDGET`]. `None`:
    /// none in bounds.
    fn contradiction(&self, checks: &mut u64, deadline: &Deadline) -> Result<Option<Premise>, Stopped> {
        // A number whose neighbours are all known still counts: it may be the one wrong.
        let all_numbers: Vec<usize> =
            (0..self.board.cells.len()).filter(|&i| matches!(self.board.cells[i], Cell::Open(_))).collect();
        for &n in &all_numbers {
            *checks += 1;
            if contradiction_check(self.board, &[n], &|c| self.facts.get(&c).copied(), false) == Check::Proves {
                let mut facts: Vec<(usize, Is)> =
                    self.board.neighbours(n).filter_map(|j| self.facts.get(&j).map(|&v| (j, v))).collect();
                facts.sort_unstable_by_key(|f| f.0);
                return Ok(Some(Premise { numbers: vec![n], facts, mine_count: false }));
            }
        }
        let mut level: Vec<Vec<usize>> = (0..self.numbers.len()).map(|k| vec![k]).collect();
        let mut tried = 0usize;
        while !level.is_empty() && tried <= SET_BUDGET {
            for set in &level {
                if deadline.expired() {
                    return Err(Stopped);
                }
                tried += 1;
                if self.contradicts(set, false, checks) {
                    return Ok(Some(self.premise(set, false)));
                }
            }
            // Past the budget, the sets grown so far are still tried.
            level = self.grown(&level).0;
        }
        Ok(None)
    }

    /// With the mine count: all the numbers, if they and the count contradict each other,
    /// made minimal by dropping numbers one at a time. `None` otherwise.
    fn contradiction_with_count(&self, checks: &mut u64, deadline: &Deadline) -> Result<Option<Premise>, Stopped> {
        if self.board.mines.is_some() {
            let mut set: Vec<usize> = (0..self.numbers.len()).collect();
            if self.contradicts(&set, true, checks) {
                for k in (0..set.len()).rev() {
                    if deadline.expired() {
                        return Err(Stopped);
                    }
                    let mut fewer = set.clone();
                    fewer.remove(k);
                    if self.contradicts(&fewer, true, checks) {
                        set = fewer;
                    }
                }
                return Ok(Some(self.premise(&set, true)));
            }
        }
        Ok(None)
    }

    /// How far a number is from a cell (king moves).
    fn distance(&self, k: usize, cell: usize) -> usize {
        let (n, w) = (self.numbers[k], self.board.width);
        (n / w).abs_diff(cell / w).max((n % w).abs_diff(cell % w))
    }
}

/// C(n, k), saturating.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut c: u128 = 1;
    for i in 0..k as u128 {
        c = c * (n as u128 - i) / (i + 1);
        if c > usize::MAX as u128 {
            return usize::MAX;
        }
    }
    c as usize
}

/// Explains every certain cell of a position (see the module documentation).
/// `Err(Stopped)` when `deadline` passes first (the exact analysis included).
pub fn explain(board: &Board, options: ExplainOptions, deadline: &Deadline) -> Result<MineExplanation, Stopped> {
    let a = analyse(board, deadline);
    match a.verdict {
        Verdict::TimedOut => return Err(Stopped),
        Verdict::Impossible => return impossible(board, deadline),
        Verdict::Exact => {}
    }
    let mut targets: Vec<(usize, Is)> =
        a.safe.iter().map(|&c| (c, Is::Safe)).chain(a.mines.iter().map(|&c| (c, Is::Mine))).collect();
    targets.sort_unstable_by_key(|t| t.0);
    let mut checks = 0u64;
    let steps = if options.chain {
        chained(board, targets, &mut checks, deadline)?
    } else {
        let facts = Map::default();
        let frame = Frame::new(board, &facts);
        let mut steps = Vec::with_capacity(targets.len());
        for (cell, is) in targets {
            steps.push(one_step(&frame, cell, is, &mut checks, deadline)?);
        }
        steps
    };
    let mut steps = steps;
    if !options.chain {
        steps.sort_by_key(|s| (s.whole_frontier, s.premise.numbers.len() + usize::from(s.premise.mine_count), s.cell));
    }
    Ok(MineExplanation { steps, impossible: false, contradiction: None, chained: options.chain, checks })
}

/// An impossible position, in steps: rounds of the cells that sets of numbers smaller than
/// the smallest contradicting set prove (as facts for what follows, as when chaining), then
/// the contradiction. A person reads off what a few numbers force until two of them
/// disagree. Without a contradicting set in bounds, no step: the exact analysis alone
/// shows it.
fn impossible(board: &Board, deadline: &Deadline) -> Result<MineExplanation, Stopped> {
    let mut facts: Map<usize, Is> = Map::default();
    let mut steps = Vec::new();
    let mut checks = 0u64;
    loop {
        let frame = Frame::new(board, &facts);
        let mut contradiction = frame.contradiction(&mut checks, deadline)?;
        let size = contradiction.as_ref().map_or(usize::MAX, |p| p.numbers.len());
        // Cells that fewer numbers prove than the contradiction needs (at most a few: a
        // step a person takes), found a size at a time.
        let most = size.saturating_sub(1).min(MAX_STEP_NUMBERS);
        let mut round: Vec<MineStep> = Vec::new();
        if size > 2 {
            for cell in frame.touching.keys().copied().collect::<std::collections::BTreeSet<usize>>() {
                for is in [Is::Safe, Is::Mine] {
                    let (found, _) = frame.connected_up_to(cell, is, most, &mut checks, deadline)?;
                    if let Some(set) = found {
                        round.push(MineStep {
                            cell,
                            is,
                            premise: frame.premise(&set, false),
                            smallest: true,
                            whole_frontier: false,
                        });
                    }
                }
            }
        }
        // A cell "proved" both safe and a mine is the contradiction itself.
        round.sort_by_key(|s| (s.premise.numbers.len(), s.cell));
        let mut seen = std::collections::BTreeSet::new();
        round.retain(|s| seen.insert(s.cell));
        if let Some(best) = round.first().map(|s| s.premise.numbers.len()) {
            round.retain(|s| s.premise.numbers.len() == best);
            for s in &round {
                facts.insert(s.cell, s.is);
            }
            steps.extend(round);
            continue;
        }
        // No few numbers contradict each other, and nothing more follows from few: the
        // mine count, with the numbers it needs.
        if contradiction.is_none() {
            contradiction = frame.contradiction_with_count(&mut checks, deadline)?;
        }
        // Only the steps the contradiction rests on, through their facts.
        let mut needed: std::collections::BTreeSet<usize> =
            contradiction.iter().flat_map(|p| p.facts.iter().map(|f| f.0)).collect();
        let mut kept = Vec::new();
        for step in steps.into_iter().rev() {
            if needed.contains(&step.cell) {
                needed.extend(step.premise.facts.iter().map(|f| f.0));
                kept.push(step);
            }
        }
        kept.reverse();
        return Ok(MineExplanation { steps: kept, impossible: true, contradiction, chained: true, checks });
    }
}

/// The proof of one cell given a frame: without the count, else with it, else the fallback.
fn one_step(
    frame: &Frame<'_>,
    cell: usize,
    is: Is,
    checks: &mut u64,
    deadline: &Deadline,
) -> Result<MineStep, Stopped> {
    if let Some((set, smallest)) = frame.without_count(cell, is, checks, deadline)? {
        return Ok(MineStep { cell, is, premise: frame.premise(&set, false), smallest, whole_frontier: false });
    }
    if let Some((set, smallest)) = frame.with_count(cell, is, checks, deadline)? {
        return Ok(MineStep { cell, is, premise: frame.premise(&set, true), smallest, whole_frontier: false });
    }
    Ok(fallback(frame, cell, is))
}

fn fallback(frame: &Frame<'_>, cell: usize, is: Is) -> MineStep {
    let all: Vec<usize> = (0..frame.numbers.len()).collect();
    MineStep {
        cell,
        is,
        premise: frame.premise(&all, frame.board.mines.is_some()),
        smallest: false,
        whole_frontier: true,
    }
}

/// Rounds: each round, given the facts so far, the cells with the fewest numbers in their
/// proof (without the mine count if any cell has such a proof), by row and column.
fn chained(
    board: &Board,
    mut targets: Vec<(usize, Is)>,
    checks: &mut u64,
    deadline: &Deadline,
) -> Result<Vec<MineStep>, Stopped> {
    let mut facts: Map<usize, Is> = Map::default();
    let mut steps = Vec::new();
    while !targets.is_empty() {
        let frame = Frame::new(board, &facts);
        // Without the count: each cell's smallest proof; keep the cheapest.
        let mut round: Vec<MineStep> = Vec::new();
        for &(cell, is) in &targets {
            if let Some((set, smallest)) = frame.without_count(cell, is, checks, deadline)? {
                round.push(MineStep { cell, is, premise: frame.premise(&set, false), smallest, whole_frontier: false });
            }
        }
        if round.is_empty() {
            for &(cell, is) in &targets {
                if let Some((set, smallest)) = frame.with_count(cell, is, checks, deadline)? {
                    round.push(MineStep {
                        cell,
                        is,
                        premise: frame.premise(&set, true),
                        smallest,
                        whole_frontier: false,
                    });
                }
            }
        }
        if round.is_empty() {
            steps.extend(targets.iter().map(|&(cell, is)| fallback(&frame, cell, is)));
            break;
        }
        let best = round.iter().map(|s| s.premise.numbers.len()).min().unwrap_or(0);
        round.retain(|s| s.premise.numbers.len() == best);
        for s in &round {
            facts.insert(s.cell, s.is);
        }
        targets.retain(|t| !facts.contains_key(&t.0));
        steps.extend(round);
    }
    Ok(steps)
}

/// `(row,column)`, from 1.
/// The number revealed in cell `n` (0 where none is).
fn number(board: &Board, n: usize) -> u8 {
    match board.cells[n] {
        Cell::Open(v) => v,
        _ => 0,
    }
}

/// A revealed number as a premise names it: `the 3 at (2,4)`.
fn number_name(board: &Board, n: usize) -> String {
    format!("the {} at {}", number(board, n), at(board, n))
}

fn at(board: &Board, i: usize) -> String {
    format!("({},{})", i / board.width + 1, i % board.width + 1)
}

fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One line of text per step: `(3,4) is safe: the 1 at (2,3) and the 2 at (2,4)`
/// (positions are (row, column) from 1).
pub fn step_text(board: &Board, step: &MineStep) -> String {
    let what = match step.is {
        Is::Safe => "safe",
        Is::Mine => "a mine",
    };
    let mut out = format!("{} is {what}: ", at(board, step.cell));
    if step.whole_frontier {
        let mut s = format!("needs the whole frontier (all {} numbers", step.premise.numbers.len());
        if step.premise.mine_count {
            s.push_str(" and the mine count");
        }
        s.push(')');
        out.push_str(&s);
        return out;
    }
    let mut parts: Vec<String> = Vec::new();
    if step.premise.mine_count {
        parts.push(match board.mines {
            Some(m) => format!("the mine count ({m})"),
            None => "the mine count".into(),
        });
    }
    parts.extend(step.premise.numbers.iter().map(|&n| number_name(board, n)));
    out.push_str(&listed(&parts));
    if !step.premise.facts.is_empty() {
        let facts = &step.premise.facts;
        if facts.len() <= 6 {
            let named: Vec<String> = facts
                .iter()
                .map(|&(c, v)| {
                    format!(
                        "{} {}",
                        at(board, c),
                        match v {
                            Is::Safe => "safe",
                            Is::Mine => "a mine",
                        }
                    )
                })
                .collect();
            let _ = write!(out, ", given {}", listed(&named));
        } else {
            let _ = write!(out, ", given the {} cells proved before", facts.len());
        }
    }
    if !step.smallest {
        out.push_str(" (minimal, maybe not smallest)");
    }
    out
}

/// The last line of an impossible position: `no layout: the 1 at (1,2) and the 3 at (2,2)
/// cannot all hold, given (1,3) safe`.
pub fn contradiction_text(board: &Board, premise: &Premise) -> String {
    let mut parts: Vec<String> = premise.numbers.iter().map(|&n| number_name(board, n)).collect();
    if premise.mine_count {
        parts.push(match board.mines {
            Some(m) => format!("the mine count ({m})"),
            None => "the mine count".into(),
        });
    }
    let verb = if parts.len() == 1 { "cannot hold" } else { "cannot all hold" };
    let mut out = format!("no layout: {} {verb}", listed(&parts));
    if !premise.facts.is_empty() {
        let named: Vec<String> = premise
            .facts
            .iter()
            .map(|&(c, v)| format!("{} {}", at(board, c), if v == Is::Safe { "safe" } else { "a mine" }))
            .collect();
        let _ = write!(out, ", given {}", listed(&named));
    }
    out
}

/// The text of an explanation: a heading, one line per step, and how to read positions.
pub fn explanation_text(board: &Board, e: &MineExplanation) -> String {
    let mut out = super::view::describe(board);
    out.push('\n');
    if e.impossible {
        out.push_str("unsatisfiable: no layout of mines agrees with the position\n");
        let Some(premise) = &e.contradiction else {
            out.push_str("(the exact analysis shows it; no few numbers do)\n");
            return out;
        };
        if !e.steps.is_empty() {
            out.push_str("each line names numbers that prove it on their own, with cells proved on earlier lines\n");
        }
        for s in &e.steps {
            out.push_str(&step_text(board, s));
            out.push('\n');
        }
        out.push_str(&contradiction_text(board, premise));
        out.push_str("\npositions are (row, column) from 1\n");
        return out;
    }
    if e.steps.is_empty() {
        out.push_str("no covered cell is certain\n");
        return out;
    }
    let safe = e.steps.iter().filter(|s| s.is == Is::Safe).count();
    let mines = e.steps.len() - safe;
    let _ = writeln!(
        out,
        "certain: {safe} safe, {mines} {}; each line names numbers that prove it on their own{}",
        if mines == 1 { "mine" } else { "mines" },
        if e.chained { ", with cells proved on earlier lines" } else { "" }
    );
    for s in &e.steps {
        out.push_str(&step_text(board, s));
        out.push('\n');
    }
    out.push_str("positions are (row, column) from 1\n");
    out
}
