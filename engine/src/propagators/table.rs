//! `(x₁, …, xₖ) ∈ T` for an explicit list of tuples: simple tabular reduction (STR,
//! Ullmann 2007). The tuples still valid are kept at the front of a permutation whose
//! length is a trailed integer: a tuple that loses a value is swapped past the end, and
//! backtracking restores the length, which restores the set (swaps only move tuples
//! within the prefix that was valid at the earlier level). Each variable keeps exactly the
//! values some valid tuple gives it: domain consistency.
//!
//! Explanations (with learning): a value leaves a variable because every tuple that gives
//! it that value has lost one of its other values; the reason names one lost value per such
//! tuple, reusing a value already named where it can, so that tuples killed by the same
//! removal cost one literal. A conflict names one lost value per tuple. Only the tuples
//! that would allow the opposite are read: each column keeps the tuples sorted by its
//! value (built at the first explanation), and those tuples are one or two runs of it.

use crate::domain::Val;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// The variables take the values of one of the allowed tuples; posted by [`crate::constraints::table`].
#[derive(Debug, Clone)]
pub struct Table {
    pub(crate) vars: Vec<VarId>,
    /// Row-major, `vars.len()` values per tuple.
    pub(crate) tuples: Vec<Val>,
    order: Vec<u32>,
    live: Option<TrailedInt>,
    /// Per column, every tuple sorted by the column's value (then by index): built when
    /// learning first asks for an explanation, never without learning.
    by_column: OnceLock<Vec<Vec<u32>>>,
    /// Scratch of `propagate`: one bit per value of a column's domain span.
    marks: Vec<u64>,
    /// Per column, its domain's size when the last run ended (trailed, so a backtrack
    /// restores it with the valid tuples); -1 before the first run.
    sizes: Vec<TrailedInt>,
    /// Scratch of `propagate`: the columns whose domain shrank since.
    changed: Vec<usize>,
}

/// A column whose domain spans at most this many values (or four per live tuple) has its
/// supported values marked in a bitset; a wider one sorts them.
const MARKED_SPAN: u64 = 4096;

impl Table {
    pub(crate) fn new(vars: Vec<VarId>, tuples: Vec<Val>) -> Table {
        let count = if vars.is_empty() { 0 } else { tuples.len() / vars.len() };
        Table {
            vars,
            tuples,
            order: (0..count as u32).collect(),
            live: None,
            by_column: OnceLock::new(),
            marks: Vec::new(),
            sizes: Vec::new(),
            changed: Vec::new(),
        }
    }

    fn count(&self) -> usize {
        self.order.len()
    }

    fn by_column(&self) -> &[Vec<u32>] {
        self.by_column.get_or_init(|| {
            (0..self.vars.len())
                .map(|c| {
                    let mut sorted: Vec<u32> = (0..self.count() as u32).collect();
                    sorted.sort_by_key(|&t| self.tuple(t)[c]); // stable: by index among equals
                    sorted
                })
                .collect()
        })
    }

    /// The tuples that would allow the opposite of `lit` (those where its variable's column
    /// does not satisfy it), as runs of that column's sorted tuples; every tuple for `None`.
    fn opposed(&self, lit: Option<Literal>) -> [&[u32]; 2] {
        let Some(lit) = lit else { return [&self.order[..], &[]] };
        // A tuple gives a variable named twice one value (the post function keeps only
        // those), so its first column decides.
        let Some(column) = self.vars.iter().position(|&y| y == lit.var()) else {
            return [&self.order[..], &[]];
        };
        let sorted = &self.by_column()[column];
        let value = |t: &u32| self.tuple(*t)[column];
        let below = |v: Val| sorted.partition_point(|t| value(t) < v);
        let runs: [Range<usize>; 2] = match lit {
            Literal::Le(_, v) => [below(v + 1)..sorted.len(), 0..0],
            Literal::Gt(_, v) => [0..below(v + 1), 0..0],
            Literal::Ne(_, v) => [below(v)..below(v + 1), 0..0],
            Literal::Eq(_, v) => [0..below(v), below(v + 1)..sorted.len()],
        };
        runs.map(|r| &sorted[r])
    }

    fn tuple(&self, t: u32) -> &[Val] {
        let k = self.vars.len();
        &self.tuples[t as usize * k..(t as usize + 1) * k]
    }

    /// One lost value per tuple that would allow the opposite of `lit` (with `None`, per
    /// tuple), taken from a variable other than `lit`'s: `y ≠ t[y]` for a `y` that had
    /// lost `t[y]` then. `None` when some such tuple had lost nothing (not what this
    /// propagator deduced).
    fn killers(&self, lit: Option<Literal>, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let x = lit.map(Literal::var);
        let mut out = Vec::new();
        let mut named = HashSet::new();
        for &t in self.opposed(lit).into_iter().flatten() {
            let tuple = self.tuple(t);
            let columns = || self.vars.iter().zip(tuple);
            let mut lost =
                columns().filter(|&(&y, &v)| Some(y) != x && !cx.contains(y, v)).map(|(&y, &v)| Literal::Ne(y, v));
            let first = lost.next()?;
            if named.contains(&first) || lost.any(|f| named.contains(&f)) {
                continue;
            }
            named.insert(first);
            out.push(first);
        }
        Some(out)
    }
}

impl Propagator for Table {
    fn name(&self) -> &'static str {
        "table"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::DOMAIN);
        }
        self.live = Some(cx.new_int(self.order.len() as i64));
        self.sizes = self.vars.iter().map(|_| cx.new_int(-1)).collect();
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let Some(live_id) = self.live else { return Err(Conflict) };
        let mut live = cx.int(live_id) as usize;
        // Only the columns whose domain shrank since the last run on this branch can
        // invalidate a tuple (STR2's Sval, Lecoutre 2011).
        let k = self.vars.len();
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        changed.extend((0..k).filter(|&c| cx.int(self.sizes[c]) != cx.size(self.vars[c]) as i64));
        let mut i = 0;
        while i < live {
            let t = self.order[i] as usize;
            if changed.iter().all(|&c| cx.contains(self.vars[c], self.tuples[t * k + c])) {
                i += 1;
            } else {
                live -= 1;
                self.order.swap(i, live);
            }
        }
        self.changed = changed;
        cx.set_int(live_id, live as i64);
        if live == 0 {
            return Err(Conflict);
        }
        for (column, &x) in self.vars.iter().enumerate() {
            if cx.is_fixed(x) {
                continue;
            }
            let values = self.order[..live].iter().map(|&t| self.tuples[t as usize * k + column]);
            let (lo, hi) = cx.bounds(x);
            let span = hi.abs_diff(lo).saturating_add(1);
            if span <= MARKED_SPAN.max(4 * live as u64) {
                // One bit per value of the domain's span: no sort, no allocation once the
                // scratch is as large as the widest column.
                let marks = &mut self.marks;
                marks.clear();
                marks.resize(span.div_ceil(64) as usize, 0);
                // Once every value has a support, nothing leaves (STR2's Ssup).
                let mut unsupported = cx.size(x);
                for v in values {
                    let i = (v - lo) as usize;
                    let bit = 1 << (i % 64);
                    if marks[i / 64] & bit == 0 {
                        marks[i / 64] |= bit;
                        unsupported -= 1;
                        if unsupported == 0 {
                            break;
                        }
                    }
                }
                if unsupported == 0 {
                    continue;
                }
                let _ = cx.retain(x, |_, v| {
                    let i = (v - lo) as usize;
                    marks[i / 64] >> (i % 64) & 1 == 1
                })?;
            } else {
                let mut supported: Vec<Val> = values.collect();
                supported.sort_unstable();
                supported.dedup();
                let _ = cx.retain(x, |_, v| supported.binary_search(&v).is_ok())?;
            }
        }
        for (c, &x) in self.vars.iter().enumerate() {
            let size = cx.size(x) as i64;
            if cx.int(self.sizes[c]) != size {
                cx.set_int(self.sizes[c], size);
            }
        }
        Ok(if live == 1 { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let assignment: Vec<Val> = self.vars.iter().map(|&x| value(x)).collect();
        (0..self.count() as u32).any(|t| self.tuple(t) == assignment.as_slice())
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.killers(Some(lit), cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.killers(None, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// `(x0, x1, x2)` (variables 0, 1, 2) in five tuples.
    fn table() -> Table {
        let tuples = [[0, 0, 0], [0, 1, 1], [0, 1, 2], [1, 2, 2], [2, 2, 0]];
        Table::new(vec![var(0), var(1), var(2)], tuples.concat())
    }

    const RANGES: [(Val, Val); 3] = [(0, 2), (0, 2), (0, 2)];

    #[test]
    fn a_value_leaves_for_one_lost_value_per_tuple_shared_where_it_can() {
        let lost = [Literal::Ne(var(2), 1), Literal::Ne(var(1), 0), Literal::Ne(var(1), 1), Literal::Ne(var(2), 2)];
        let past = Past::new(&RANGES, &lost);
        let reason = table().explain(Literal::Ne(var(0), 0), &past.cx());
        // (0, 0, 0) by x1 ≠ 0; (0, 1, 1) and (0, 1, 2) both by x1 ≠ 1, named once.
        assert_eq!(reason, Some(vec![Literal::Ne(var(1), 0), Literal::Ne(var(1), 1)]));
    }

    #[test]
    fn a_conflict_names_one_lost_value_per_tuple() {
        let past = Past::new(&RANGES, &[Literal::Le(var(0), 0), Literal::Eq(var(1), 2)]);
        let reason = table().explain_conflict(&past.cx());
        let expected =
            vec![Literal::Ne(var(1), 0), Literal::Ne(var(1), 1), Literal::Ne(var(0), 1), Literal::Ne(var(0), 2)];
        assert_eq!(reason, Some(expected));
    }
}
