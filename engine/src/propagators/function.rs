//! `z = f(x)` for any function `f` given as its graph over the domain of `x`: `abs`,
//! `div` and `mod` by a constant, a square. Domain consistent: `x` keeps the values whose
//! image is still possible, `z` the images of the values `x` keeps.

use crate::domain::Val;
use crate::ids::VarId;
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

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.image(value(self.x)) == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}
