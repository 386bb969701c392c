//! The exact probabilities of a position: components counted on their own, combined by
//! convolution over their numbers of mines, and weighted by the ways the off-frontier
//! cells take the remaining mines, C(R, M − K).
//!
//! Without a total number of mines, components and off-frontier cells are independent:
//! the layouts are those of every covered cell (each off-frontier cell free, so its
//! probability is exactly 1/2), and their number is the product of the components'
//! counts times 2^R.

use crate::Deadline;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::count::{self, TimedOut};
use super::frontier::{self, Frontier};
use super::grid::{Board, Cell};

/// How an analysis ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Exact counts and probabilities.
    Exact,
    /// No layout is consistent with the position.
    Impossible,
    /// The deadline passed: only the cells proven by local deduction are known.
    TimedOut,
}

/// The answer for a position.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub verdict: Verdict,
    /// Consistent layouts (exact); zero unless the verdict is `Exact`.
    pub total: BigUint,
    /// Per cell: layouts in which the cell is a mine (covered cells and flags; `None` for
    /// revealed cells, and for every unknown covered cell when the count timed out).
    pub mine_weight: Vec<Option<BigUint>>,
    /// Covered cells that are certainly safe / certainly mines (flags excluded), ascending.
    pub safe: Vec<usize>,
    pub mines: Vec<usize>,
    /// States of the counting programme (the work done).
    pub states: u64,
    /// The frontier components counted (empty unless the verdict is `Exact`).
    pub components: Vec<ComponentWeights>,
}

/// A frontier component: its cells, and for each number of mines `k` it may hold, the
/// ways the rest of the board completes a layout where it holds `k` (its own count left
/// out). The bot weighs the component's layouts by these in its end-game search.
#[derive(Debug, Clone)]
pub struct ComponentWeights {
    pub cells: Vec<usize>,
    pub completions: Vec<BigUint>,
}

impl Analysis {
    /// The mine weight of cell `i` when it may or may not be a mine: the cells neither in
    /// `safe` nor in `mines` (nor flags, nor revealed), on the same test that builds them.
    pub fn uncertain_weight(&self, i: usize) -> Option<&BigUint> {
        self.mine_weight[i].as_ref().filter(|w| !w.is_zero() && **w != self.total)
    }

    /// The probability of a mine on cell `i`, as a float (exact ratio, rounded once).
    pub fn probability(&self, i: usize) -> Option<f64> {
        let w = self.mine_weight[i].as_ref()?;
        if self.total.is_zero() {
            return None;
        }
        Some(ratio(w, &self.total))
    }
}

/// `a / b` as the nearest-ish f64, for big integers of any size.
pub fn ratio(a: &BigUint, b: &BigUint) -> f64 {
    let shift = b.bits().saturating_sub(60);
    let (a, b) = (a >> shift, b >> shift);
    let to_f = |x: &BigUint| {
        x.to_u64_digits().iter().rev().fold(0.0f64, |acc, d| acc * 18_446_744_073_709_551_616.0 + *d as f64)
    };
    to_f(&a) / to_f(&b)
}

fn convolve(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if !y.is_zero() {
                out[i + j] += x * y;
            }
        }
    }
    out
}

/// C(n, 0..=n).
fn binomial_row(n: usize) -> Vec<BigUint> {
    let mut row = Vec::with_capacity(n + 1);
    let mut v = BigUint::one();
    for k in 0..=n {
        row.push(v.clone());
        v = v * (n - k) / (k + 1);
    }
    row
}

/// Analyses a position exactly, unless `deadline` passes first.
pub fn analyse(board: &Board, deadline: &Deadline) -> Analysis {
    let impossible = || Analysis {
        verdict: Verdict::Impossible,
        total: BigUint::zero(),
        mine_weight: vec![None; board.cells.len()],
        safe: Vec::new(),
        mines: Vec::new(),
        states: 0,
        components: Vec::new(),
    };
    // Local deduction first: what it proves holds in every layout, and the counting
    // problem shrinks (often a lot: most of a real frontier is decided locally).
    let Some(known) = frontier::local_deductions(board) else { return impossible() };
    let fr = frontier::build(board, &known);
    if fr.impossible {
        return impossible();
    }
    match exact(board, &known, &fr, deadline) {
        Ok(Some(a)) => a,
        Ok(None) => impossible(),
        Err(TimedOut) => partial(board, &known),
    }
}

/// What local deduction proves, when the exact count ran out of time.
fn partial(board: &Board, known: &[u8]) -> Analysis {
    Analysis {
        verdict: Verdict::TimedOut,
        total: BigUint::zero(),
        mine_weight: vec![None; board.cells.len()],
        safe: (0..known.len()).filter(|&i| known[i] == frontier::SAFE).collect(),
        mines: (0..known.len()).filter(|&i| known[i] == frontier::MINE).collect(),
        states: 0,
        components: Vec::new(),
    }
}

fn exact(board: &Board, known: &[u8], fr: &Frontier, deadline: &Deadline) -> Result<Option<Analysis>, TimedOut> {
    let mut counted = Vec::with_capacity(fr.components.len());
    let mut states = 0;
    for comp in &fr.components {
        let c = match count::count(comp, deadline) {
            Ok(c) => c,
            Err(TimedOut) => {
                deadline.abandon(counted);
                return Err(TimedOut);
            }
        };
        if c.by_mines.iter().all(Zero::is_zero) {
            return Ok(None);
        }
        states += c.states;
        counted.push(c);
    }
    let r = fr.outside.len();
    let n = counted.len();
    // ext[c][k]: ways the rest of the board completes a layout where component c holds k mines.
    let mut ext: Vec<Vec<BigUint>> = Vec::with_capacity(n);
    let total: BigUint;
    let outside_weight: BigUint;
    match fr.free_mines {
        Some(m) => {
            let choose_r = binomial_row(r);
            let choose_r1 = if r > 0 { binomial_row(r - 1) } else { Vec::new() };
            let pick = |row: &[BigUint], x: Option<usize>| x.and_then(|x| row.get(x)).cloned().unwrap_or_default();
            // prefix[c]: convolution of components 0..c; suffix[c]: of c..n.
            let mut prefix = vec![vec![BigUint::one()]];
            for c in &counted {
                let next = convolve(prefix.last().map_or(&[][..], |v| &v[..]), &c.by_mines);
                prefix.push(next);
            }
            let mut suffix = vec![vec![BigUint::one()]; n + 1];
            for i in (0..n).rev() {
                suffix[i] = convolve(&counted[i].by_mines, &suffix[i + 1]);
            }
            let all = &prefix[n];
            total = all.iter().enumerate().map(|(k, v)| v * pick(&choose_r, m.checked_sub(k))).sum();
            outside_weight = if r > 0 {
                all.iter().enumerate().map(|(k, v)| v * pick(&choose_r1, m.checked_sub(k + 1))).sum()
            } else {
                BigUint::zero()
            };
            for (i, c) in counted.iter().enumerate() {
                let others = convolve(&prefix[i], &suffix[i + 1]);
                let e = (0..c.by_mines.len())
                    .map(|k| others.iter().enumerate().map(|(o, v)| v * pick(&choose_r, m.checked_sub(k + o))).sum())
                    .collect();
                ext.push(e);
            }
        }
        None => {
            let totals: Vec<BigUint> = counted.iter().map(|c| c.by_mines.iter().sum()).collect();
            let free = BigUint::one() << r;
            total = totals.iter().product::<BigUint>() * &free;
            outside_weight = if r > 0 { &total >> 1usize } else { BigUint::zero() };
            for (i, c) in counted.iter().enumerate() {
                let others: BigUint =
                    totals.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, t)| t).product::<BigUint>() * &free;
                ext.push(vec![others; c.by_mines.len()]);
            }
        }
    }
    if total.is_zero() {
        return Ok(None);
    }
    let mut weight: Vec<Option<BigUint>> = board
        .cells
        .iter()
        .zip(known)
        .map(|(c, k)| match (c, *k) {
            (Cell::Flag, _) | (Cell::Covered, frontier::MINE) => Some(total.clone()),
            (Cell::Covered, frontier::SAFE) => Some(BigUint::zero()),
            _ => None,
        })
        .collect();
    for &cell in &fr.outside {
        weight[cell] = Some(outside_weight.clone());
    }
    for ((comp, c), e) in fr.components.iter().zip(&counted).zip(&ext) {
        let Ok(w) = c.box_weights(e, deadline) else {
            deadline.abandon(counted);
            return Err(TimedOut);
        };
        for (b, wb) in comp.boxes.iter().zip(w) {
            for &cell in &b.cells {
                weight[cell] = Some(wb.clone());
            }
        }
    }
    let mut safe = Vec::new();
    let mut mines = Vec::new();
    for (i, w) in weight.iter().enumerate() {
        if board.cells[i] != Cell::Covered {
            continue;
        }
        match w {
            Some(w) if w.is_zero() => safe.push(i),
            Some(w) if *w == total => mines.push(i),
            _ => {}
        }
    }
    let components = fr
        .components
        .iter()
        .zip(ext)
        .map(|(comp, completions)| {
            let mut cells: Vec<usize> = comp.boxes.iter().flat_map(|b| b.cells.iter().copied()).collect();
            cells.sort_unstable();
            ComponentWeights { cells, completions }
        })
        .collect();
    Ok(Some(Analysis { verdict: Verdict::Exact, total, mine_weight: weight, safe, mines, states, components }))
}
