//! Many capped counts over shared 0/1 variables in one propagator: "at most `cap` (or
//! exactly `cap`) of the variables of each line are 1", for a family of lines such as the
//! rows, columns and slanted lines of a grid (no-three-in-line has about n⁴/24 of them).
//!
//! Posted as one linear constraint per line, every variable would wake every linear
//! constraint it occurs in, and each would re-read its sum. Here one propagator keeps, per
//! line, two trailed counts — the weight of the ones and the weight of the still open
//! variables (kept for exact lines only: the at-most rule needs only the ones) — and
//! updates only the lines of the variables fixed since its last call.
//! It finds them without scanning everything: the variables not yet fixed are kept in
//! front of an array with a trailed length (a sparse set), so a call looks only at those,
//! and moves each newly fixed one behind the length. Backtracking restores the length,
//! and the variables in front are again exactly the ones open at that level (swaps only
//! reorder the front), so the array itself needs no trail.
//!
//! A variable may occur several times in a line (cells of one symmetry orbit share a
//! variable, and a line can pass through two of them): it then weighs that many. The
//! rules, for a line with `ones` fixed to 1 and `open` weight still open, each open
//! variable weighing `m`:
//! - `ones > cap`, or for an exact line `ones + open < cap`: conflict;
//! - `ones + m > cap`: that variable is 0 (for `m = 1`: the line is full);
//! - exact line, `ones + open − m < cap`: that variable is 1 (the line needs it).
//!
//! These are the bounds rules of the linear constraints it replaces, so it prunes as much.
//! An at-most line needs only its ones, so a variable fixed to 0 (most of them, on a
//! sparse grid) does not touch the at-most lines it is on.
//! A call repeats them until nothing changes, so it is idempotent.
//!
//! A variable emptied by a full line is explained by the line's ones; one filled by an
//! exact line that needs it, by the line's zeros (nothing else keeps the line short); a
//! conflict, by the ones of a line over its cap or the zeros of an exact line that cannot
//! reach it.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// One line of a [`LineCounts`]: its variables (a variable listed twice weighs two) and
/// how many ones it may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountedLine {
    /// The variables on the line; one listed twice counts twice.
    pub vars: Vec<VarId>,
    /// At most this many ones (exactly this many when `exact`).
    pub cap: i64,
    /// Exactly `cap` ones, not at most.
    pub exact: bool,
}

/// A line's terms and cap, as indices into the propagator's variables.
#[derive(Debug, Clone)]
struct Line {
    /// (variable index, weight), each variable once.
    terms: Vec<(u32, i64)>,
    cap: i64,
    exact: bool,
    /// The largest weight of a term: below it, no term can be forced.
    max_weight: i64,
    ones: TrailedInt,
    open: TrailedInt,
}

/// At most (or exactly) `cap` ones on each of many lines of 0/1 variables; posted by
/// [`crate::constraints::line_counts`].
#[derive(Debug, Clone)]
pub struct LineCounts {
    vars: Vec<VarId>,
    /// For each variable, the exact lines it is on and its weight there.
    occurs_exact: Vec<Vec<(u32, i64)>>,
    /// For each variable, the at-most lines it is on and its weight there: apart, so that
    /// a zero (most fixings, on a sparse grid) does not even walk past them.
    occurs_at_most: Vec<Vec<(u32, i64)>>,
    lines: Vec<Line>,
    /// Variable indices; the first `open_len` are the ones not fixed at the last call.
    order: Vec<u32>,
    open_len: Option<TrailedInt>,
    /// Lines touched in this call (scratch, empty between calls).
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
}

impl LineCounts {
    /// The lines over distinct variables `vars` (the post function ensures the variables
    /// are 0/1); lines given as indices into `vars`.
    pub(crate) fn new(vars: Vec<VarId>, lines: Vec<(Vec<u32>, i64, bool)>) -> LineCounts {
        let mut occurs_exact: Vec<Vec<(u32, i64)>> = vec![Vec::new(); vars.len()];
        let mut occurs_at_most: Vec<Vec<(u32, i64)>> = vec![Vec::new(); vars.len()];
        let lines: Vec<Line> = lines
            .into_iter()
            .enumerate()
            .map(|(l, (mut members, cap, exact))| {
                members.sort_unstable();
                let mut terms: Vec<(u32, i64)> = Vec::new();
                for k in members {
                    match terms.last_mut() {
                        Some((last, w)) if *last == k => *w += 1,
                        _ => terms.push((k, 1)),
                    }
                }
                let occurs = if exact { &mut occurs_exact } else { &mut occurs_at_most };
                for &(k, w) in &terms {
                    occurs[k as usize].push((l as u32, w));
                }
                let max_weight = terms.iter().map(|&(_, w)| w).max().unwrap_or(0);
                Line { terms, cap, exact, max_weight, ones: TrailedInt(0), open: TrailedInt(0) }
            })
            .collect();
        let n = vars.len();
        LineCounts {
            order: (0..n as u32).collect(),
            vars,
            occurs_exact,
            occurs_at_most,
            is_dirty: vec![false; lines.len()],
            lines,
            open_len: None,
            dirty: Vec::new(),
        }
    }

    /// Moves the variables fixed since the last call out of the open front of `order`,
    /// updating the counts of their lines and marking those lines dirty.
    fn take_fixed(&mut self, cx: &mut Context<'_>) {
        let open_len = self.open_len.expect("posted");
        let mut len = cx.int(open_len) as usize;
        let mut i = 0;
        while i < len {
            let k = self.order[i] as usize;
            let x = self.vars[k];
            if !cx.is_fixed(x) {
                i += 1;
                continue;
            }
            len -= 1;
            self.order.swap(i, len);
            let one = cx.min(x) == 1;
            // Only the exact rules read the open weight; an at-most line keeps its initial
            // one and needs only its ones, so a zero does not touch it.
            for &(l, w) in &self.occurs_exact[k] {
                let line = &self.lines[l as usize];
                cx.set_int(line.open, cx.int(line.open) - w);
                if one {
                    cx.set_int(line.ones, cx.int(line.ones) + w);
                }
                mark_dirty(&mut self.dirty, &mut self.is_dirty, l);
            }
            if one {
                for &(l, w) in &self.occurs_at_most[k] {
                    let line = &self.lines[l as usize];
                    let ones = cx.int(line.ones) + w;
                    cx.set_int(line.ones, ones);
                    // Below this, the at-most rule can neither fail nor force a term (the
                    // first point on a line, most of them): no need to look at the line.
                    if ones + line.max_weight > line.cap {
                        mark_dirty(&mut self.dirty, &mut self.is_dirty, l);
                    }
                }
            }
        }
        cx.set_int(open_len, len as i64);
    }

    /// Applies the rules to the dirty lines; true if a variable was fixed.
    fn prune_dirty(&mut self, cx: &mut Context<'_>) -> Result<bool, Conflict> {
        let mut changed = false;
        let mut result = Ok(());
        for &l in &self.dirty {
            self.is_dirty[l as usize] = false;
            if result.is_err() {
                continue;
            }
            let line = &self.lines[l as usize];
            let (ones, open) = (cx.int(line.ones), cx.int(line.open));
            if ones > line.cap || (line.exact && ones + open < line.cap) {
                result = Err(Conflict);
                continue;
            }
            let may_empty = ones + line.max_weight > line.cap;
            let may_fill = line.exact && ones + open - line.max_weight < line.cap;
            // (`open` is kept for exact lines only; for the others it stays the line's
            // total weight, which only costs a look at their terms.)
            if open == 0 || !(may_empty || may_fill) {
                continue;
            }
            for &(k, w) in &line.terms {
                let x = self.vars[k as usize];
                if cx.is_fixed(x) {
                    continue;
                }
                let forced = if ones + w > line.cap {
                    Some(0)
                } else if line.exact && ones + open - w < line.cap {
                    Some(1)
                } else {
                    None
                };
                if let Some(v) = forced {
                    match cx.assign(x, v) {
                        Ok(c) => changed |= c,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
            }
        }
        self.dirty.clear();
        result.map(|()| changed)
    }
}

/// Queues line `l` for [`LineCounts::prune_dirty`] once.
fn mark_dirty(dirty: &mut Vec<u32>, is_dirty: &mut [bool], l: u32) {
    if !is_dirty[l as usize] {
        is_dirty[l as usize] = true;
        dirty.push(l);
    }
}

impl LineCounts {
    /// The weights of the ones and of the zeros of a line in `cx`, but `skip`'s.
    fn line_state(&self, cx: &ExplainContext<'_>, line: &Line, skip: Option<u32>) -> (i64, i64) {
        let (mut ones, mut zeros) = (0, 0);
        for &(k, w) in line.terms.iter().filter(|&&(k, _)| Some(k) != skip) {
            let x = self.vars[k as usize];
            if cx.min(x) == 1 {
                ones += w;
            } else if cx.max(x) == 0 {
                zeros += w;
            }
        }
        (ones, zeros)
    }

    /// The variables of the line fixed to `value`, but `skip`, as literals.
    fn fixed_on(&self, cx: &ExplainContext<'_>, line: &Line, skip: Option<u32>, value: Val) -> Vec<Literal> {
        line.terms
            .iter()
            .filter(|&&(k, _)| Some(k) != skip)
            .map(|&(k, _)| self.vars[k as usize])
            .filter(|&x| cx.min(x) == value && cx.max(x) == value)
            .map(|x| if value == 1 { Literal::Gt(x, 0) } else { Literal::Le(x, 0) })
            .collect()
    }
}

impl Propagator for LineCounts {
    fn name(&self) -> &'static str {
        "line_counts"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::ASSIGNED);
        }
        for l in 0..self.lines.len() {
            let total: i64 = self.lines[l].terms.iter().map(|&(_, w)| w).sum();
            self.lines[l].ones = cx.new_int(0);
            self.lines[l].open = cx.new_int(total);
        }
        self.open_len = Some(cx.new_int(self.vars.len() as i64));
        // Every line is checked once, even one whose variables are all open.
        self.dirty = (0..self.lines.len() as u32).collect();
        self.is_dirty.fill(true);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        loop {
            self.take_fixed(cx);
            if self.dirty.is_empty() {
                break;
            }
            if !self.prune_dirty(cx)? {
                break;
            }
        }
        if cx.int(self.open_len.expect("posted")) == 0 {
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Active)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let k = self.vars.iter().position(|&x| x == lit.var())? as u32;
        let occurs = self.occurs_exact[k as usize].iter().chain(&self.occurs_at_most[k as usize]);
        for &(l, w) in occurs {
            let line = &self.lines[l as usize];
            let (ones, zeros) = self.line_state(cx, line, Some(k));
            let total: i64 = line.terms.iter().map(|&(_, w)| w).sum();
            match lit {
                Literal::Le(_, 0) if ones + w > line.cap => return Some(self.fixed_on(cx, line, Some(k), 1)),
                Literal::Gt(_, 0) if line.exact && total - zeros - w < line.cap => {
                    return Some(self.fixed_on(cx, line, Some(k), 0));
                }
                _ => {}
            }
        }
        None
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.lines.iter().find_map(|line| {
            let (ones, zeros) = self.line_state(cx, line, None);
            let total: i64 = line.terms.iter().map(|&(_, w)| w).sum();
            if ones > line.cap {
                Some(self.fixed_on(cx, line, None, 1))
            } else if line.exact && total - zeros < line.cap {
                Some(self.fixed_on(cx, line, None, 0))
            } else {
                None
            }
        })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.lines.iter().all(|line| {
            let sum: i64 = line.terms.iter().map(|&(k, w)| w * value(self.vars[k as usize])).sum();
            if line.exact {
                sum == line.cap
            } else {
                sum <= line.cap
            }
        })
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn idempotent(&self) -> bool {
        true
    }
}
