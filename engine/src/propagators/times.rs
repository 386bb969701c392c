//! `z = x · y` with bounds reasoning (interval multiplication and division).
//!
//! `z` lies within the extreme products of the bounds of `x` and `y`. `x` lies within
//! `z / y` when the interval of `y` excludes 0 (else nothing is known of `x` from `z`:
//! `0 · anything = 0`), and symmetrically for `y`. The post function checks that every
//! product fits in i64.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context, Events, PostContext, PropResult, PropStatus, Propagator};
use crate::propagators::arith::{ceil_div, floor_div};

/// `z = x · y` by bounds reasoning; posted by [`crate::constraints::times`].
#[derive(Debug, Clone)]
pub struct Times {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) z: VarId,
}

/// Narrows `x` to `[z / y]` when `y`'s interval does not hold 0.
fn divide(cx: &mut Context<'_>, x: VarId, y: VarId, z: VarId) -> Result<bool, Conflict> {
    let (ylo, yhi) = (cx.min(y), cx.max(y));
    if ylo <= 0 && yhi >= 0 {
        return Ok(false);
    }
    let (zlo, zhi) = (cx.min(z), cx.max(z));
    // The extreme quotients are among the four corner divisions (y has one sign).
    let corners = [(zlo, ylo), (zlo, yhi), (zhi, ylo), (zhi, yhi)];
    let lo = corners.iter().map(|&(a, b)| ceil_div(a, b)).min().unwrap_or(Val::MIN);
    let hi = corners.iter().map(|&(a, b)| floor_div(a, b)).max().unwrap_or(Val::MAX);
    Ok(cx.set_min(x, lo)? | cx.set_max(x, hi)?)
}

impl Propagator for Times {
    fn name(&self) -> &'static str {
        "x * y = z"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for v in [self.x, self.y, self.z] {
            cx.subscribe(v, Events::BOUNDS);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        loop {
            let products = [cx.min(x) * cx.min(y), cx.min(x) * cx.max(y), cx.max(x) * cx.min(y), cx.max(x) * cx.max(y)];
            let lo = products.iter().copied().min().unwrap_or(0);
            let hi = products.iter().copied().max().unwrap_or(0);
            let mut changed = cx.set_min(z, lo)? | cx.set_max(z, hi)?;
            changed |= divide(cx, x, y, z)?;
            changed |= divide(cx, y, x, z)?;
            if cx.is_fixed(x) && cx.is_fixed(y) {
                let _ = cx.assign(z, cx.min(x) * cx.min(y))?;
                return Ok(PropStatus::Entailed);
            }
            if !changed {
                return Ok(PropStatus::Active);
            }
        }
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        value(self.x) as i128 * value(self.y) as i128 == value(self.z) as i128
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y, self.z]
    }
}
