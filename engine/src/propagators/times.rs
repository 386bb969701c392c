//! `z = x · y` with bounds reasoning (interval multiplication and division).
//!
//! `z` lies within the extreme products of the bounds of `x` and `y`. `x` lies within
//! `z / y` when the interval of `y` excludes 0 (else nothing is known of `x` from `z`:
//! `0 · anything = 0`), and symmetrically for `y`. The post function checks that every
//! product fits in i64.
//!
//! For learning, a change is explained by the bounds it was computed from (the propagator
//! reads no holes): a bound of `z` by those of `x` and `y`, a bound of `x` by those of `y`
//! and `z`. Where the signs are known (`x, y ≥ 0` for `z`; `z ≥ 0` and the divisor `≥ 1`
//! for the others) only the corner the bound came from is cited: `z ≥ a·b` by `x ≥ a` and
//! `y ≥ b`, `x ≤ ⌊c / b⌋` by `z ≤ c` and `y ≥ b`, and so on.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::arith::{ceil_div, floor_div};
use crate::propagators::linear::side;

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

/// `x ≥ min(x)` as it was then.
fn lower(cx: &ExplainContext<'_>, x: VarId) -> Literal {
    side(cx, (1, x), true)
}

/// `x ≤ max(x)` as it was then.
fn upper(cx: &ExplainContext<'_>, x: VarId) -> Literal {
    side(cx, (1, x), false)
}

/// Appends both bounds of `x` as they were then.
fn bounds(cx: &ExplainContext<'_>, x: VarId, out: &mut Vec<Literal>) {
    out.extend([lower(cx, x), upper(cx, x)]);
}

impl Times {
    /// Every bound of every variable then: all the propagator reads, so a reason for
    /// anything it deduces (used where a variable plays two roles, `x · x = z`).
    fn all_bounds(&self, cx: &ExplainContext<'_>) -> Vec<Literal> {
        let mut out = Vec::new();
        for (i, v) in [self.x, self.y, self.z].into_iter().enumerate() {
            if ![self.x, self.y, self.z][..i].contains(&v) {
                bounds(cx, v, &mut out);
            }
        }
        out
    }
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

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (x, y, z) = (self.x, self.y, self.z);
        if x == y || x == z || y == z {
            return Some(self.all_bounds(cx));
        }
        let target = lit.var();
        let mut out = Vec::new();
        if target == z {
            // The product's bounds come from the factors' alone.
            let signs_known = cx.min(x) >= 0 && cx.min(y) >= 0;
            match lit {
                Literal::Gt(..) if signs_known => out.extend([lower(cx, x), lower(cx, y)]),
                Literal::Le(..) if signs_known => {
                    out.extend([upper(cx, x), upper(cx, y), Literal::Gt(x, -1), Literal::Gt(y, -1)]);
                }
                _ => {
                    bounds(cx, x, &mut out);
                    bounds(cx, y, &mut out);
                }
            }
            return Some(out);
        }
        // A factor's bounds come from the product and the other factor, the divisor.
        let divisor = if target == x { y } else { x };
        let signs_known = cx.min(z) >= 0 && cx.min(divisor) >= 1;
        match lit {
            Literal::Gt(..) if signs_known => out.extend([lower(cx, z), upper(cx, divisor), Literal::Gt(divisor, 0)]),
            Literal::Le(..) if signs_known => out.extend([upper(cx, z), lower(cx, divisor)]),
            _ => {
                bounds(cx, divisor, &mut out);
                bounds(cx, z, &mut out);
            }
        }
        Some(out)
    }

    /// The bounds read; and where both factors are fixed, the hole of `z` at their product
    /// when there is one (the assignment failed on it, not on a bound).
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut reason = self.all_bounds(cx);
        let (x, y, z) = (self.x, self.y, self.z);
        if cx.min(x) == cx.max(x) && cx.min(y) == cx.max(y) {
            let product = cx.min(x).checked_mul(cx.min(y))?;
            reason.extend(cx.why_not(z, product));
        }
        Some(reason)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        value(self.x) as i128 * value(self.y) as i128 == value(self.z) as i128
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y, self.z]
    }
}
