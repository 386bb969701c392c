//! Global cardinality: `counts[k]` is the number of variables of `x` equal to `cover[k]`
//! (MiniZinc's `global_cardinality`); *closed*, every variable of `x` takes a value of
//! `cover`. The bounded form (`global_cardinality_low_up`) is this one with counts
//! restricted to `lo[k]..up[k]` by the post function.
//!
//! The post function leaves `cover` sorted without repeats (the counts of a repeated
//! value are equal). For each value `cover[k]`, let `fixedₖ` be the number of variables
//! fixed to it and `possibleₖ` the number that can still take it. The rules for one value:
//! - `fixedₖ ≤ counts[k] ≤ possibleₖ` (bounds of the counts);
//! - when `fixedₖ = max counts[k]`, the value is *saturated*: it leaves every variable not
//!   fixed to it;
//! - when `possibleₖ = min counts[k]`, every variable that can take the value must:
//!   they are all fixed to it.
//!
//! And rules on the sum, which is the number of variables that take a value of the cover,
//! between `L`, those whose domain lies within the cover, and `U`, those whose domain
//! meets it (`L = U = n` for the closed form):
//! - `counts[k] ≤ U − Σₗ≠ₖ min counts[l]` and `counts[k] ≥ L − Σₗ≠ₖ max counts[l]`;
//! - when `Σ min counts = U`, every variable that can take a value of the cover must (its
//!   other values go); when `Σ max counts = L`, only the `L` variables within the cover
//!   may (the others lose the cover's values).
//!
//! The closed form also takes out of `x` every value outside the cover: the post function
//! does, once, for domains small enough to list. A domain too wide to list keeps some,
//! but the closed sum counts every variable all the same, and one fixed outside fails.
//!
//! This is weaker than generalised arc consistency, which Régin reaches with a flow
//! ("Generalized arc consistency for global cardinality constraint", AAAI 1996; Quimper
//! et al. give bounds consistency on the counts, CP 2003): each rule looks at one value,
//! or at the sum, alone. With `x₁, x₂ ∈ {1, 2}`, `x₃ ∈ {1, 2, 3, 9}`, the cover
//! `{1, 2, 3}` and each count at most 1, the flow sees that `x₁` and `x₂` take 1 and 2
//! between them, so `x₃ ∈ {3, 9}`; here no value is saturated, no sum is reached, and
//! `x₃` keeps all four values.
//!
//! Every rule is explained by the facts it counted ([`super::global_cardinality_reasons`]).
//!
//! A call counts from scratch, in O(Σ min(|dom(xᵢ)|, |cover|)) when the cover is a range
//! of consecutive values (a factor log |cover| more otherwise), and applies every rule once
//! with the counts it read; the engine runs it again while it prunes.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Domains up to this many values are listed to take out the values outside the cover.
const MAX_LISTED: u64 = 1 << 12;

/// The number of variables taking each value of a cover, by counting rules; posted by [`crate::constraints::global_cardinality`] and [`crate::constraints::global_cardinality_low_up`].
#[derive(Debug, Clone)]
pub struct GlobalCardinality {
    pub(super) x: Vec<VarId>,
    /// Sorted, without repeats.
    pub(super) cover: Vec<Val>,
    /// Whether the cover is a range of consecutive values.
    consecutive: bool,
    pub(super) counts: Vec<VarId>,
    pub(super) closed: bool,
    /// Per value of the cover, the variables fixed to it and those that can take it.
    /// Scratch, meaningless between calls.
    fixed: Vec<i64>,
    possible: Vec<i64>,
}

/// How one variable's domain meets the cover.
#[derive(Debug, Clone, Copy)]
struct Meet {
    /// How many values of the domain are in the cover.
    hits: u64,
    size: u64,
}

impl Meet {
    fn within(self) -> bool {
        self.hits == self.size
    }

    fn touches(self) -> bool {
        self.hits > 0
    }
}

impl GlobalCardinality {
    /// `cover` sorted without repeats, one count per value.
    pub(crate) fn new(x: Vec<VarId>, cover: Vec<Val>, counts: Vec<VarId>, closed: bool) -> GlobalCardinality {
        debug_assert!(cover.windows(2).all(|w| w[0] < w[1]) && cover.len() == counts.len());
        let m = cover.len();
        let consecutive = cover.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
        GlobalCardinality { x, cover, consecutive, counts, closed, fixed: vec![0; m], possible: vec![0; m] }
    }

    /// The position of `v` in the cover: by subtraction when the cover is a range of
    /// consecutive values (the common `cover = lo..hi`), by binary search otherwise.
    pub(super) fn index_of(&self, v: Val) -> Option<usize> {
        if self.consecutive {
            usize::try_from(v.checked_sub(*self.cover.first()?)?).ok().filter(|&k| k < self.cover.len())
        } else {
            self.cover.binary_search(&v).ok()
        }
    }

    fn in_cover(&self, v: Val) -> bool {
        self.index_of(v).is_some()
    }

    /// Counts `fixed` and `possible`, and how each variable meets the cover. Fails on a
    /// closed variable fixed outside the cover (the post function leaves such values in a
    /// domain too wide to list).
    fn count(&mut self, cx: &Context<'_>) -> Result<Vec<Meet>, Conflict> {
        self.fixed.fill(0);
        self.possible.fill(0);
        let mut meets = Vec::with_capacity(self.x.len());
        for &x in &self.x {
            let size = cx.size(x);
            let mut hits = 0;
            // Whichever is smaller: the domain, or the cover.
            if size <= self.cover.len() as u64 {
                for v in cx.values(x) {
                    if let Some(k) = self.index_of(v) {
                        self.possible[k] += 1;
                        hits += 1;
                    }
                }
            } else {
                for (k, &v) in self.cover.iter().enumerate() {
                    if cx.contains(x, v) {
                        self.possible[k] += 1;
                        hits += 1;
                    }
                }
            }
            if size == 1 {
                match self.index_of(cx.min(x)) {
                    Some(k) => self.fixed[k] += 1,
                    None if self.closed => return Err(Conflict),
                    None => {}
                }
            }
            meets.push(Meet { hits, size });
        }
        Ok(meets)
    }

    /// Leaves `x` only the cover's values: its bounds move to the first and last it
    /// holds, and the values between go unless the domain is too large to list (then some
    /// stay: weaker, never wrong, as the counts see `x` fixed outside the cover).
    fn keep_cover(&self, cx: &mut Context<'_>, x: VarId) -> Result<(), Conflict> {
        let first = self.cover.iter().find(|&&v| cx.contains(x, v)).ok_or(Conflict)?;
        let last = self.cover.iter().rev().find(|&&v| cx.contains(x, v)).ok_or(Conflict)?;
        let _ = cx.set_min(x, *first)?;
        let _ = cx.set_max(x, *last)?;
        if cx.size(x) <= MAX_LISTED {
            let _ = cx.retain(x, |_, v| self.in_cover(v))?;
        }
        Ok(())
    }

    /// Takes the cover's values out of `x`, walking whichever is smaller.
    fn remove_cover(&self, cx: &mut Context<'_>, x: VarId) -> Result<(), Conflict> {
        if cx.size(x) <= self.cover.len() as u64 {
            let _ = cx.retain(x, |_, v| !self.in_cover(v))?;
        } else {
            for &v in &self.cover {
                let _ = cx.remove(x, v)?;
            }
        }
        Ok(())
    }
}

impl Propagator for GlobalCardinality {
    fn name(&self) -> &'static str {
        "global_cardinality"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.x {
            cx.subscribe(x, Events::DOMAIN);
        }
        for &c in &self.counts {
            cx.subscribe(c, Events::BOUNDS);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let all_fixed = self.x.iter().all(|&x| cx.is_fixed(x));
        let meets = self.count(cx)?;
        let n = self.x.len() as i64;
        // Closed, every variable takes a value of the cover, even one whose domain was too
        // wide for the post function to take the others out.
        let (low, high) = if self.closed {
            (n, n)
        } else {
            let within = meets.iter().filter(|m| m.within()).count() as i64;
            (within, meets.iter().filter(|m| m.touches()).count() as i64)
        };
        // Bounds of each count: by its value, then by the sum.
        for (k, &c) in self.counts.iter().enumerate() {
            let _ = cx.set_min(c, self.fixed[k])?;
            let _ = cx.set_max(c, self.possible[k])?;
        }
        let min_sum: i64 = self.counts.iter().map(|&c| cx.min(c)).sum();
        let max_sum: i64 = self.counts.iter().map(|&c| cx.max(c)).sum();
        for &c in &self.counts {
            let (lo, hi) = (cx.min(c), cx.max(c));
            let _ = cx.set_max(c, high - (min_sum - lo))?;
            let _ = cx.set_min(c, low - (max_sum - hi))?;
        }
        // The variables, by each value.
        for (k, &c) in self.counts.iter().enumerate() {
            let (v, free) = (self.cover[k], self.possible[k] - self.fixed[k]);
            if free == 0 {
                continue;
            }
            if self.fixed[k] == cx.max(c) {
                for &x in &self.x {
                    if !cx.is_fixed(x) {
                        let _ = cx.remove(x, v)?;
                    }
                }
            } else if self.possible[k] == cx.min(c) {
                for &x in &self.x {
                    if cx.contains(x, v) {
                        let _ = cx.assign(x, v)?;
                    }
                }
            }
        }
        // The variables, by the sum, as read before the rule above narrowed the counts (a
        // narrowing that makes the sums meet `low` or `high` wakes this propagator again).
        if !self.closed {
            if min_sum >= high {
                for (&x, m) in self.x.iter().zip(&meets) {
                    if m.touches() && !m.within() {
                        self.keep_cover(cx, x)?;
                    }
                }
            } else if max_sum <= low {
                for (&x, m) in self.x.iter().zip(&meets) {
                    if !m.within() {
                        self.remove_cover(cx, x)?;
                    }
                }
            }
        }
        // Every variable was fixed before counting: the counts were set to exact values.
        if all_fixed {
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Active)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.reason(lit, cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.conflict_reason(cx)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let values: Vec<Val> = self.x.iter().map(|&x| value(x)).collect();
        (!self.closed || values.iter().all(|&v| self.in_cover(v)))
            && self
                .cover
                .iter()
                .zip(&self.counts)
                .all(|(&v, &c)| values.iter().filter(|&&w| w == v).count() as Val == value(c))
    }

    fn vars(&self) -> Vec<VarId> {
        self.x.iter().chain(&self.counts).copied().collect()
    }
}
