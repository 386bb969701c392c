//! All-different with offsets: the values `xᵢ + oᵢ` are pairwise distinct.
//!
//! Offsets let one propagator state queens' diagonals (`q[i] + i`, `q[i] − i`) without
//! auxiliary variables. Three strengths:
//! - value elimination: once `xᵢ` is fixed, its value is removed from every other variable;
//! - bounds consistency on top: Hall intervals found in O(n log n) with the algorithm of
//!   López-Ortiz, Quimper, Tromp and van Beek, "A fast and simple algorithm for bounds
//!   consistency of the alldifferent constraint" (IJCAI 2003);
//! - domain consistency on top: Régin's matching algorithm (`matching.rs`).
//!
//! Fixed variables are handled through a [`FixedFront`], so
//! each assignment is eliminated once per branch, not once per wake-up.

use super::all_different_reasons;
use super::fixed_front::FixedFront;
use super::matching::Matching;
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// How hard all-different works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    /// Value elimination only.
    Value,
    /// Value elimination and Hall intervals on bounds.
    Bounds,
    /// Value elimination and every value without a matching removed.
    Domain,
}

/// All-different with offsets (`xᵢ + oᵢ` pairwise distinct) at a chosen [`Consistency`]; posted by [`crate::constraints::all_different`].
#[derive(Debug, Clone)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i64>,
    consistency: Consistency,
    /// The fixed variables whose value is already eliminated.
    fixed: FixedFront,
    hall: HallScratch,
    matching: Matching,
}

impl AllDifferent {
    pub(crate) fn new(vars: Vec<VarId>, offsets: Vec<i64>, consistency: Consistency) -> AllDifferent {
        let n = vars.len();
        AllDifferent {
            vars,
            offsets,
            consistency,
            fixed: FixedFront::new(n),
            hall: HallScratch::default(),
            matching: Matching::default(),
        }
    }

    /// Removes each newly fixed variable's value from every other variable.
    fn eliminate_fixed(&mut self, cx: &mut Context<'_>) -> Result<usize, Conflict> {
        let (vars, offsets) = (&self.vars, &self.offsets);
        self.fixed.handle_new(cx, vars, |cx, k, rest| {
            let taken = cx.min(vars[k]) + offsets[k];
            for &j in rest {
                let j = j as usize;
                let _ = cx.remove(vars[j], taken - offsets[j])?;
            }
            Ok(())
        })
    }
}

impl Propagator for AllDifferent {
    fn name(&self) -> &'static str {
        "alldifferent"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        let events = match self.consistency {
            Consistency::Value => Events::ASSIGNED,
            Consistency::Bounds => Events::BOUNDS,
            Consistency::Domain => Events::DOMAIN,
        };
        for &x in &self.vars {
            cx.subscribe(x, events);
        }
        self.fixed.post(cx);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let done = self.eliminate_fixed(cx)?;
        if done == self.vars.len() {
            return Ok(PropStatus::Entailed);
        }
        match self.consistency {
            Consistency::Value => {}
            Consistency::Bounds => self.hall.propagate(cx, &self.vars, &self.offsets)?,
            Consistency::Domain => self.matching.propagate(cx, &self.vars, &self.offsets)?,
        }
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let mut seen: Vec<i64> = self.vars.iter().zip(&self.offsets).map(|(&x, &o)| value(x) + o).collect();
        seen.sort_unstable();
        seen.windows(2).all(|w| w[0] != w[1])
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn distinct_terms(&self) -> Option<Vec<(VarId, i64)>> {
        Some(self.vars.iter().copied().zip(self.offsets.iter().copied()).collect())
    }

    /// A Hall interval, whichever part deduced it (see `all_different_reasons.rs`).
    fn explain(&self, lit: crate::literal::Literal, cx: &ExplainContext<'_>) -> Option<Vec<crate::literal::Literal>> {
        all_different_reasons::explain(cx, &self.vars, &self.offsets, lit)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<crate::literal::Literal>> {
        all_different_reasons::explain_conflict(cx, &self.vars, &self.offsets)
    }

    fn priority(&self) -> Priority {
        match self.consistency {
            // Value elimination is cheap and its removals feed every other propagator:
            // running it first saves them a wake-up.
            Consistency::Value => Priority::Unary,
            Consistency::Bounds | Consistency::Domain => Priority::Expensive,
        }
    }
}

/// Scratch space of the Hall-interval algorithm, kept between calls to avoid allocation.
/// Its content is meaningless between calls, so it needs no trailing.
#[derive(Debug, Clone, Default)]
struct HallScratch {
    /// Per variable: shifted bounds `[lo, hi]` (hi inclusive) and the ranks of `lo`, `hi+1`.
    lo: Vec<i64>,
    hi: Vec<i64>,
    new_lo: Vec<i64>,
    new_hi: Vec<i64>,
    minrank: Vec<usize>,
    maxrank: Vec<usize>,
    minsorted: Vec<usize>,
    maxsorted: Vec<usize>,
    bounds: Vec<i64>,
    t: Vec<usize>,
    d: Vec<i64>,
    h: Vec<usize>,
}

fn path_max(a: &[usize], mut x: usize) -> usize {
    while a[x] > x {
        x = a[x];
    }
    x
}

fn path_min(a: &[usize], mut x: usize) -> usize {
    while a[x] < x {
        x = a[x];
    }
    x
}

/// Points every node on the path from `start` to `end` (exclusive) at `to`.
fn path_set(a: &mut [usize], start: usize, end: usize, to: usize) {
    let mut k = start;
    while k != end {
        let next = a[k];
        a[k] = to;
        k = next;
    }
}

impl HallScratch {
    fn propagate(&mut self, cx: &mut Context<'_>, vars: &[VarId], offsets: &[i64]) -> Result<(), Conflict> {
        let n = vars.len();
        self.lo.clear();
        self.hi.clear();
        for (&x, &o) in vars.iter().zip(offsets) {
            self.lo.push(cx.min(x) + o);
            self.hi.push(cx.max(x) + o);
        }
        self.sort_and_rank(n);
        self.new_lo.clone_from(&self.lo);
        self.new_hi.clone_from(&self.hi);
        self.filter_lower()?;
        self.filter_upper()?;
        for i in 0..n {
            if self.new_lo[i] > self.lo[i] {
                let _ = cx.set_min(vars[i], self.new_lo[i] - offsets[i])?;
            }
            if self.new_hi[i] < self.hi[i] {
                let _ = cx.set_max(vars[i], self.new_hi[i] - offsets[i])?;
            }
        }
        Ok(())
    }

    fn sort_and_rank(&mut self, n: usize) {
        // The orders from the previous call are nearly right: insertion sort is cheap on them.
        if self.minsorted.len() != n {
            self.minsorted = (0..n).collect();
            self.maxsorted = (0..n).collect();
        }
        let lo = &self.lo;
        let hi = &self.hi;
        insertion_sort_by_key(&mut self.minsorted, |i| lo[i]);
        insertion_sort_by_key(&mut self.maxsorted, |i| hi[i]);
        self.minrank.resize(n, 0);
        self.maxrank.resize(n, 0);
        self.bounds.clear();
        let mut min = lo[self.minsorted[0]];
        let mut max = hi[self.maxsorted[0]] + 1;
        let mut last = min - 2;
        self.bounds.push(last);
        let (mut i, mut j) = (0, 0);
        loop {
            if i < n && min <= max {
                if min != last {
                    last = min;
                    self.bounds.push(last);
                }
                self.minrank[self.minsorted[i]] = self.bounds.len() - 1;
                i += 1;
                if i < n {
                    min = lo[self.minsorted[i]];
                }
            } else {
                if max != last {
                    last = max;
                    self.bounds.push(last);
                }
                self.maxrank[self.maxsorted[j]] = self.bounds.len() - 1;
                j += 1;
                if j == n {
                    break;
                }
                max = hi[self.maxsorted[j]] + 1;
            }
        }
        let top = *self.bounds.last().expect("at least the sentinel");
        self.bounds.push(top + 2);
    }

    /// Raises lower bounds (in `new_lo`) past Hall intervals.
    fn filter_lower(&mut self) -> Result<(), Conflict> {
        let nb = self.bounds.len() - 2;
        let bounds = &self.bounds;
        // Sized once and written by index: pushing checks the capacity at every element.
        self.t.resize(nb + 2, 0);
        self.h.resize(nb + 2, 0);
        self.d.resize(nb + 2, 0);
        let (t, h, d) = (&mut self.t[..nb + 2], &mut self.h[..nb + 2], &mut self.d[..nb + 2]);
        (t[0], h[0], d[0]) = (0, 0, 0);
        for i in 1..=nb + 1 {
            (t[i], h[i], d[i]) = (i - 1, i - 1, bounds[i] - bounds[i - 1]);
        }
        let new_lo = &mut self.new_lo;
        for &v in &self.maxsorted {
            let x = self.minrank[v];
            let y = self.maxrank[v];
            let mut z = path_max(t, x + 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z + 1;
                z = path_max(t, t[z]);
                t[z] = j;
            }
            path_set(t, x + 1, z, z);
            if d[z] < bounds[z] - bounds[y] {
                return Err(Conflict);
            }
            if h[x] > x {
                let w = path_max(h, h[x]);
                new_lo[v] = bounds[w];
                path_set(h, x, w, w);
            }
            if d[z] == bounds[z] - bounds[y] {
                let hy = h[y];
                path_set(h, hy, j - 1, y);
                h[y] = j - 1;
            }
        }
        Ok(())
    }

    /// Lowers upper bounds (in `new_hi`, inclusive) below Hall intervals.
    fn filter_upper(&mut self) -> Result<(), Conflict> {
        let nb = self.bounds.len() - 2;
        let bounds = &self.bounds;
        self.t.resize(nb + 2, 0);
        self.h.resize(nb + 2, 0);
        self.d.resize(nb + 2, 0);
        let (t, h, d) = (&mut self.t[..nb + 2], &mut self.h[..nb + 2], &mut self.d[..nb + 2]);
        for i in 0..=nb {
            (t[i], h[i], d[i]) = (i + 1, i + 1, bounds[i + 1] - bounds[i]);
        }
        (t[nb + 1], h[nb + 1], d[nb + 1]) = (0, 0, 0);
        let new_hi = &mut self.new_hi;
        for &v in self.minsorted.iter().rev() {
            let x = self.maxrank[v];
            let y = self.minrank[v];
            let mut z = path_min(t, x - 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z - 1;
                z = path_min(t, t[z]);
                t[z] = j;
            }
            path_set(t, x - 1, z, z);
            if d[z] < bounds[y] - bounds[z] {
                return Err(Conflict);
            }
            if h[x] < x {
                let w = path_min(h, h[x]);
                new_hi[v] = bounds[w] - 1;
                path_set(h, x, w, w);
            }
            if d[z] == bounds[y] - bounds[z] {
                let hy = h[y];
                path_set(h, hy, j + 1, y);
                h[y] = j + 1;
            }
        }
        Ok(())
    }
}

fn insertion_sort_by_key(items: &mut [usize], key: impl Fn(usize) -> i64) {
    for i in 1..items.len() {
        let item = items[i];
        let k = key(item);
        let mut j = i;
        while j > 0 && key(items[j - 1]) > k {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}
