//! `b ⇔ x = y` for two integer variables, domain consistent once `b` is known.
//!
//! The bounds reasoning of a reified linear constraint (`x - y = 0`) makes `x = y` equal
//! only the bounds of the two variables once `b` is true; here their domains become the
//! same set, as Gecode does by default for a reified equality. MiniZinc writes
//! `int_eq_reif(x, y, b)` for any `x = y` in a condition (`if x = y then …`, an equality
//! inside a disjunction), and the holes matter to a search that picks the smallest domain.
//!
//! - `b` true: `x` keeps the values of `y` and `y` those of `x`;
//! - `b` false: a fixed side's value leaves the other side;
//! - `b` open: disjoint domains make it false, two equal fixed values true.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// `b ⇔ x = y`, domain consistent on `x` and `y` once `b` is fixed; posted by [`crate::constraints::reified_equal`].
#[derive(Debug, Clone)]
pub struct ReifiedEqual {
    pub(crate) b: VarId,
    pub(crate) x: VarId,
    pub(crate) y: VarId,
}

impl Propagator for ReifiedEqual {
    fn name(&self) -> &'static str {
        "reified equal"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.b, Events::ASSIGNED);
        cx.subscribe(self.x, Events::DOMAIN);
        cx.subscribe(self.y, Events::DOMAIN);
        let _ = cx.set_min(self.b, 0)?;
        let _ = cx.set_max(self.b, 1)?;
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (b, x, y) = (self.b, self.x, self.y);
        if !cx.is_fixed(b) {
            if !cx.overlaps(x, y) {
                let _ = cx.assign(b, 0)?;
                return Ok(PropStatus::Entailed);
            }
            if cx.is_fixed(x) && cx.is_fixed(y) {
                // They overlap, so they are equal.
                let _ = cx.assign(b, 1)?;
                return Ok(PropStatus::Entailed);
            }
            return Ok(PropStatus::Active);
        }
        if cx.min(b) == 1 {
            cx.intersect(x, y)?;
            return Ok(if cx.is_fixed(x) { PropStatus::Entailed } else { PropStatus::Active });
        }
        if cx.is_fixed(x) {
            let _ = cx.remove(y, cx.min(x))?;
            return Ok(PropStatus::Entailed);
        }
        if cx.is_fixed(y) {
            let _ = cx.remove(x, cx.min(y))?;
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Active)
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        (value(self.x) == value(self.y)) == (value(self.b) == 1)
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.b, self.x, self.y]
    }
}
