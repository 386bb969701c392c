//! `z = |x|` by bounds reasoning, for domains too wide to tabulate.
//!
//! `z` lies in `[m, M]` where `M = max(|min x|, |max x|)` and `m` is 0 when `x` can be 0
//! (its bounds straddle 0), else the smaller of the bounds' magnitudes; `x` lies in
//! `[-max z, max z]` and outside `(-min z, min z)`. The hole is cut at the bounds of `x`
//! (a bound inside it moves to its edge), and value by value when it is small, so the
//! propagator is bounds consistent on both variables.

use crate::domain::Val;
use crate::ids::VarId;
use crate::outcome::{Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Holes inside the domain of `x` at most this wide are removed value by value.
const MAX_HOLE: Val = 4096;

/// `z = |x|` by bounds reasoning, for domains too wide to tabulate; posted by [`crate::constraints::abs`].
#[derive(Debug, Clone)]
pub struct Abs {
    pub(crate) x: VarId,
    pub(crate) z: VarId,
}

impl Propagator for Abs {
    fn name(&self) -> &'static str {
        "abs"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, Events::BOUNDS);
        cx.subscribe(self.z, Events::BOUNDS);
        let _ = cx.set_min(self.z, 0)?;
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (x, z) = (self.x, self.z);
        loop {
            let mut changed = false;
            let (lo, hi) = (cx.min(x), cx.max(x));
            let (zmin, zmax) = if lo >= 0 {
                (lo, hi)
            } else if hi <= 0 {
                (-hi, -lo)
            } else {
                (0, hi.max(-lo))
            };
            changed |= cx.set_min(z, zmin)?;
            changed |= cx.set_max(z, zmax)?;
            let (zlo, zhi) = (cx.min(z), cx.max(z));
            changed |= cx.set_min(x, -zhi)?;
            changed |= cx.set_max(x, zhi)?;
            if zlo > 0 {
                // x ∉ (-zlo, zlo): move a bound out of the hole, or cut a small hole.
                if cx.min(x) > -zlo {
                    changed |= cx.set_min(x, zlo)?;
                }
                if cx.max(x) < zlo {
                    changed |= cx.set_max(x, -zlo)?;
                }
                if zlo <= MAX_HOLE && cx.min(x) < 0 && cx.max(x) > 0 {
                    for v in -zlo + 1..zlo {
                        changed |= cx.remove(x, v)?;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Ok(if cx.is_fixed(x) { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        value(self.x).checked_abs() == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}
