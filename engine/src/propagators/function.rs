//! `z = f(x)` for any function `f` given as its graph over the domain of `x`: `abs`,
//! `div` and `mod` by a constant, a square. Domain consistent: `x` keeps the values whose
//! image is still possible, `z` the images of the values `x` keeps.
//!
//! A deduction is explained by the pairs `(v, f(v))` of the graph it rules out: each is
//! out because `v` had left `x` or `f(v)` had left `z`, and the reason cites, pair by
//! pair, the literal that says so (a bound of the variable where the value lies beyond
//! it, which covers many pairs at once; else the hole).

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// `z = f(x)` given by its graph over the domain of `x`, domain consistent; posted by [`crate::constraints::function`].
#[derive(Debug, Clone)]
pub struct Function {
    pub(crate) x: VarId,
    pub(crate) z: VarId,
    /// `(v, f(v))` for every value `v` of `x` at post time, sorted by `v`.
    pub(crate) graph: Vec<(Val, Val)>,
    pub(crate) name: &'static str,
}

impl Function {
    fn image(&self, v: Val) -> Option<Val> {
        self.graph.binary_search_by_key(&v, |&(a, _)| a).ok().map(|i| self.graph[i].1)
    }

    /// Why every pair of the graph that `ruled_out` names is impossible.
    fn why_pairs_out(&self, cx: &ExplainContext<'_>, ruled_out: impl Fn(Val, Val) -> bool) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for &(v, w) in &self.graph {
            if ruled_out(v, w) {
                reason.push(cx.why_not(self.x, v).or_else(|| cx.why_not(self.z, w))?);
            }
        }
        reason.sort_unstable();
        reason.dedup();
        Some(reason)
    }
}

impl Propagator for Function {
    fn name(&self) -> &'static str {
        self.name
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, Events::DOMAIN);
        cx.subscribe(self.z, Events::DOMAIN);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (x, z) = (self.x, self.z);
        let _ = cx.retain(x, |cx, v| self.image(v).is_some_and(|w| cx.contains(z, w)))?;
        let mut images: Vec<Val> = cx.values(x).filter_map(|v| self.image(v)).collect();
        images.sort_unstable();
        images.dedup();
        let (Some(&lo), Some(&hi)) = (images.first(), images.last()) else {
            return Err(crate::outcome::Conflict);
        };
        let _ = cx.set_min(z, lo)?;
        let _ = cx.set_max(z, hi)?;
        let _ = cx.retain(z, |_, w| images.binary_search(&w).is_ok())?;
        // With z fixed, every value x keeps maps to it (`x mod k = 0` and the like): done.
        Ok(if cx.is_fixed(x) || cx.is_fixed(z) { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        if lit.var() == self.x {
            self.why_pairs_out(cx, |v, _| !lit.holds_for(v))
        } else {
            self.why_pairs_out(cx, |_, w| !lit.holds_for(w))
        }
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.why_pairs_out(cx, |_, _| true)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.image(value(self.x)) == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}
