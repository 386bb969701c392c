//! `xᵢ`, `xᵢ + i` and `xᵢ − i` each pairwise different: three all-different constraints
//! over the same variables with the offsets `0`, `+i` and `−i`, as one global (the
//! n-queens problem is its best-known use: column `i` holds its queen's row, and the
//! offsets are the two diagonals).
//!
//! It prunes exactly like the three all-different constraints with offsets (value
//! elimination: a fixed variable removes its value and both shifted values from every
//! other variable), in one pass instead of three. What makes it worth a propagator of its
//! own is counting: when it is the only constraint left, [`Propagator::count_solutions`]
//! counts the completions of the current domains with a bitboard depth-first search — the
//! three value sets as 64-bit masks shifted one variable at a time (Jeff Somers' counter) —
//! instead of walking the engine's search tree node by node; on a full n×n board it counts
//! by the 8 symmetries of the square. The counter is in [`super::queens_count`].

use super::all_different_reasons;
use super::fixed_front::FixedFront;
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, Interrupted, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator, Share};

/// `xᵢ`, `xᵢ + i` and `xᵢ − i` each pairwise distinct, with a bitboard count and a dedicated first-solution search; posted by [`crate::constraints::all_different_shifted`].
#[derive(Debug, Clone)]
pub struct AllDifferentShifted {
    /// Column `i` of the board; its value is the row.
    vars: Vec<VarId>,
    /// The fixed columns whose queen already pruned the others.
    fixed: FixedFront,
}

impl AllDifferentShifted {
    pub(crate) fn new(vars: Vec<VarId>) -> AllDifferentShifted {
        let fixed = FixedFront::new(vars.len());
        AllDifferentShifted { vars, fixed }
    }

    /// The offsets of its three all-differents: none, `+i`, `−i`.
    fn offsets(&self) -> [Vec<i64>; 3] {
        let n = self.vars.len() as i64;
        [vec![0; n as usize], (0..n).collect(), (0..n).map(|i| -i).collect()]
    }
}

impl Propagator for AllDifferentShifted {
    fn name(&self) -> &'static str {
        "queens"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::ASSIGNED);
        }
        self.fixed.post(cx);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let vars = &self.vars;
        let done = self.fixed.handle_new(cx, vars, |cx, k, rest| {
            let v = cx.min(vars[k]);
            for &j in rest {
                let d = j as i64 - k as i64;
                let x = vars[j as usize];
                let _ = cx.remove(x, v)?;
                let _ = cx.remove(x, v + d)?;
                let _ = cx.remove(x, v - d)?;
            }
            Ok(())
        })?;
        Ok(if done == vars.len() { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let q: Vec<i64> = self.vars.iter().map(|&x| value(x)).collect();
        (0..q.len()).all(|a| (a + 1..q.len()).all(|b| q[a] != q[b] && (q[a] - q[b]).abs() != (b - a) as i64))
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    /// The one of the three all-differents whose fixed variable removed the value.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.offsets().iter().find_map(|offsets| all_different_reasons::explain(cx, &self.vars, offsets, lit))
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.offsets().iter().find_map(|offsets| all_different_reasons::explain_conflict(cx, &self.vars, offsets))
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn can_count_solutions(&self, cx: &Context<'_>) -> bool {
        let low = self.vars.iter().map(|&x| cx.min(x)).min();
        let high = self.vars.iter().map(|&x| cx.max(x)).max();
        matches!((low, high), (Some(l), Some(h)) if h - l < 64)
    }

    fn find_solution(
        &self,
        cx: &Context<'_>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Result<Option<Vec<Val>>, Interrupted>> {
        Some(self.place(cx, stop))
    }

    fn count_solutions(&self, cx: &Context<'_>, stop: &(dyn Fn() -> bool + Sync)) -> Option<Result<u128, Interrupted>> {
        self.count_solutions_share(cx, stop, Share::WHOLE)
    }

    fn count_solutions_share(
        &self,
        cx: &Context<'_>,
        stop: &(dyn Fn() -> bool + Sync),
        share: Share,
    ) -> Option<Result<u128, Interrupted>> {
        let low = self.vars.iter().map(|&x| cx.min(x)).min()?;
        let high = self.vars.iter().map(|&x| cx.max(x)).max()?;
        if high - low >= 64 {
            return None;
        }
        let allowed: Vec<u64> =
            self.vars.iter().map(|&x| cx.values(x).fold(0u64, |mask, v| mask | 1 << (v - low))).collect();
        let rows = (high - low + 1) as u32;
        Some(super::queens_count::count_all(&allowed, rows, stop, share))
    }
}

/// A depth-first search for one placement, smallest domain first and rows from the middle
/// outwards — the heuristic of the engine's search, without its per-node cost: no domain is
/// pruned, each column only keeps the number of its rows still free, updated in O(n) per
/// queen placed or lifted. Memory stays O(n), so thousands of queens fit.
struct Placer<'a, 'c> {
    cx: &'a Context<'c>,
    vars: &'a [VarId],
    low: Val,
    rows: usize,
    /// Every column's domain is the whole window, so only attacks matter.
    full: bool,
    row_used: Vec<bool>,
    /// Diagonals `row + column` and `row − column + (n − 1)`.
    down_used: Vec<bool>,
    up_used: Vec<bool>,
    placed: Vec<Option<usize>>,
    free: Vec<usize>,
    /// Unplaced columns first (`live` of them), so that updates skip placed ones.
    order: Vec<usize>,
    position: Vec<usize>,
    live: usize,
}

impl Placer<'_, '_> {
    fn allowed(&self, column: usize, row: usize) -> bool {
        self.full || self.cx.contains(self.vars[column], self.low + row as Val)
    }

    fn is_free(&self, column: usize, row: usize) -> bool {
        let n = self.vars.len();
        !self.row_used[row] && !self.down_used[row + column] && !self.up_used[row + n - 1 - column]
    }

    /// Marks or unmarks a queen at (column, row), keeping the free counts of the other
    /// unplaced columns exact: a cell changes state only if no other queen attacks it.
    fn set(&mut self, column: usize, row: usize, on: bool) {
        if !on {
            self.mark(column, row, false);
        }
        for i in 0..self.live {
            let k = self.order[i];
            if k == column {
                continue;
            }
            let d = k as i64 - column as i64;
            for attacked in [row as i64, row as i64 + d, row as i64 - d] {
                if attacked < 0 || attacked >= self.rows as i64 {
                    continue;
                }
                let a = attacked as usize;
                if self.is_free(k, a) && self.allowed(k, a) {
                    if on {
                        self.free[k] -= 1;
                    } else {
                        self.free[k] += 1;
                    }
                }
            }
        }
        if on {
            self.mark(column, row, true);
        }
    }

    fn mark(&mut self, column: usize, row: usize, on: bool) {
        // Placing moves the column just past the live ones; lifting (always the newest
        // placement) moves it back.
        let p = self.position[column];
        let boundary = if on { self.live - 1 } else { self.live };
        let other = self.order[boundary];
        self.order.swap(p, boundary);
        self.position[other] = p;
        self.position[column] = boundary;
        if on {
            self.live -= 1;
        } else {
            self.live += 1;
        }
        let n = self.vars.len();
        self.row_used[row] = on;
        self.down_used[row + column] = on;
        self.up_used[row + n - 1 - column] = on;
        self.placed[column] = on.then_some(row);
    }

    /// The unplaced column with the fewest free rows (the first on ties), or `None` when
    /// all are placed.
    fn next_column(&self) -> Option<usize> {
        // Ties go to the smallest column, as in the engine's search.
        self.order[..self.live].iter().copied().min_by_key(|&k| (self.free[k], k))
    }

    /// The free rows of `column` after the `skip` first ones, from the middle outwards.
    fn nth_row(&self, column: usize, skip: usize) -> Option<(usize, usize)> {
        let mid = (self.rows - 1) / 2;
        let mut seen = 0;
        for step in 0..2 * self.rows {
            let row = if step % 2 == 0 { mid as i64 - (step / 2) as i64 } else { mid as i64 + step.div_ceil(2) as i64 };
            if row < 0 || row >= self.rows as i64 {
                continue;
            }
            let row = row as usize;
            if self.is_free(column, row) && self.allowed(column, row) {
                if seen == skip {
                    return Some((row, step));
                }
                seen += 1;
            }
        }
        None
    }

    fn solve(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Result<bool, Interrupted> {
        // Each frame: a placed column and how many of its rows were tried before this one.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut nodes: u64 = 0;
        let mut resume: Option<(usize, usize)> = None;
        loop {
            nodes += 1;
            if nodes % 1024 == 0 && stop() {
                return Err(Interrupted);
            }
            let (column, skip) = match resume.take() {
                Some(frame) => frame,
                None => match self.next_column() {
                    None => return Ok(true),
                    Some(k) if self.free[k] == 0 => {
                        // Dead end: lift the last queen and try its next row.
                        match self.backtrack(&mut stack) {
                            Some(frame) => {
                                resume = Some(frame);
                                continue;
                            }
                            None => return Ok(false),
                        }
                    }
                    Some(k) => (k, 0),
                },
            };
            match self.nth_row(column, skip) {
                Some((row, _)) => {
                    self.set(column, row, true);
                    stack.push((column, skip));
                }
                None => match self.backtrack(&mut stack) {
                    Some(frame) => resume = Some(frame),
                    None => return Ok(false),
                },
            }
        }
    }

    /// Lifts the newest queen; returns its column with the next row to try.
    fn backtrack(&mut self, stack: &mut Vec<(usize, usize)>) -> Option<(usize, usize)> {
        let (column, skip) = stack.pop()?;
        let row = self.placed[column].expect("a placed column");
        self.set(column, row, false);
        Some((column, skip + 1))
    }
}

impl AllDifferentShifted {
    /// One placement completing the current domains, by [`Placer`].
    pub(crate) fn place(
        &self,
        cx: &Context<'_>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Vec<Val>>, Interrupted> {
        let n = self.vars.len();
        let low = self.vars.iter().map(|&x| cx.min(x)).min().unwrap_or(0);
        let high = self.vars.iter().map(|&x| cx.max(x)).max().unwrap_or(0);
        let rows = (high - low + 1) as usize;
        let full = self.vars.iter().all(|&x| cx.min(x) == low && cx.max(x) == high && cx.size(x) == rows as u64);
        let mut placer = Placer {
            cx,
            vars: &self.vars,
            low,
            rows,
            full,
            row_used: vec![false; rows],
            down_used: vec![false; rows + n],
            up_used: vec![false; rows + n],
            placed: vec![None; n],
            free: self.vars.iter().map(|&x| cx.size(x) as usize).collect(),
            order: (0..n).collect(),
            position: (0..n).collect(),
            live: n,
        };
        // Variables already fixed are placed first, exactly as a search would have them.
        for (column, &x) in self.vars.iter().enumerate() {
            if cx.is_fixed(x) {
                let row = (cx.min(x) - low) as usize;
                if !placer.is_free(column, row) {
                    return Ok(None);
                }
                placer.set(column, row, true);
            }
        }
        if !placer.solve(stop)? {
            return Ok(None);
        }
        Ok(Some(placer.placed.iter().map(|r| low + r.expect("every column placed") as Val).collect()))
    }
}
