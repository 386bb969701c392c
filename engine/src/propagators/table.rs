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
//! removal cost one literal. A conflict names one lost value per tuple.

use crate::domain::Val;
use std::collections::HashSet;

use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::propagator::{Conflict, Context, Events, PostContext, PropResult, PropStatus, Propagator};
use crate::search::Fixing;

/// The variables take the values of one of the allowed tuples; posted by [`crate::constraints::table`].
#[derive(Debug, Clone)]
pub struct Table {
    pub(crate) vars: Vec<VarId>,
    /// Row-major, `vars.len()` values per tuple.
    pub(crate) tuples: Vec<Val>,
    order: Vec<u32>,
    live: Option<TrailedInt>,
}

impl Table {
    pub(crate) fn new(vars: Vec<VarId>, tuples: Vec<Val>) -> Table {
        let count = if vars.is_empty() { 0 } else { tuples.len() / vars.len() };
        Table { vars, tuples, order: (0..count as u32).collect(), live: None }
    }

    fn tuple(&self, t: u32) -> &[Val] {
        let k = self.vars.len();
        &self.tuples[t as usize * k..(t as usize + 1) * k]
    }

    /// One lost value per tuple that would allow the opposite of `lit` (with `None`, per
    /// tuple), taken from a variable other than `lit`'s: `y ≠ t[y]` for a `y` that had
    /// lost `t[y]` then. `None` when some such tuple had lost nothing (not what this
    /// propagator deduced).
    fn killers(&self, lit: Option<Fixing>, cx: &ExplainContext<'_>) -> Option<Vec<Fixing>> {
        let x = lit.map(Fixing::var);
        let mut out = Vec::new();
        let mut named = HashSet::new();
        for t in 0..self.order.len() as u32 {
            let tuple = self.tuple(t);
            let columns = || self.vars.iter().zip(tuple);
            // A tuple gives a variable named twice one value (the post function keeps only
            // those), so one column of `x` satisfying `lit` means the tuple does.
            if let Some(lit) = lit {
                if columns().any(|(&y, &v)| Some(y) == x && lit.holds_for(v)) {
                    continue;
                }
            }
            let mut lost =
                columns().filter(|&(&y, &v)| Some(y) != x && !cx.contains(y, v)).map(|(&y, &v)| Fixing::Ne(y, v));
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
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let Some(live_id) = self.live else { return Err(Conflict) };
        let mut live = cx.int(live_id) as usize;
        let mut i = 0;
        while i < live {
            let t = self.order[i];
            if self.tuple(t).iter().zip(&self.vars).all(|(&v, &x)| cx.contains(x, v)) {
                i += 1;
            } else {
                live -= 1;
                self.order.swap(i, live);
            }
        }
        cx.set_int(live_id, live as i64);
        if live == 0 {
            return Err(Conflict);
        }
        for (column, &x) in self.vars.iter().enumerate() {
            if cx.is_fixed(x) {
                continue;
            }
            let mut supported: Vec<Val> = self.order[..live].iter().map(|&t| self.tuple(t)[column]).collect();
            supported.sort_unstable();
            supported.dedup();
            let _ = cx.retain(x, |_, v| supported.binary_search(&v).is_ok())?;
        }
        Ok(if live == 1 { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let assignment: Vec<Val> = self.vars.iter().map(|&x| value(x)).collect();
        (0..self.order.len() as u32).any(|t| self.tuple(t) == assignment.as_slice())
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn explain(&self, lit: Fixing, cx: &ExplainContext<'_>) -> Option<Vec<Fixing>> {
        self.killers(Some(lit), cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Fixing>> {
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
        let lost = [Fixing::Ne(var(2), 1), Fixing::Ne(var(1), 0), Fixing::Ne(var(1), 1), Fixing::Ne(var(2), 2)];
        let past = Past::new(&RANGES, &lost);
        let reason = table().explain(Fixing::Ne(var(0), 0), &past.cx());
        // (0, 0, 0) by x1 ≠ 0; (0, 1, 1) and (0, 1, 2) both by x1 ≠ 1, named once.
        assert_eq!(reason, Some(vec![Fixing::Ne(var(1), 0), Fixing::Ne(var(1), 1)]));
    }

    #[test]
    fn a_conflict_names_one_lost_value_per_tuple() {
        let past = Past::new(&RANGES, &[Fixing::Le(var(0), 0), Fixing::Eq(var(1), 2)]);
        let reason = table().explain_conflict(&past.cx());
        let expected = vec![Fixing::Ne(var(1), 0), Fixing::Ne(var(1), 1), Fixing::Ne(var(0), 1), Fixing::Ne(var(0), 2)];
        assert_eq!(reason, Some(expected));
    }
}
