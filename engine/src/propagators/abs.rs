//! `z = |x|` by bounds reasoning, for domains too wide to tabulate.
//!
//! `z` lies in `[m, M]` where `M = max(|min x|, |max x|)` and `m` is 0 when `x` can be 0
//! (its bounds straddle 0), else the smaller of the bounds' magnitudes; `x` lies in
//! `[-max z, max z]` and outside `(-min z, min z)`. The hole is cut at the bounds of `x`
//! (a bound inside it moves to its edge), and value by value when it is small, so the
//! propagator is bounds consistent on both variables.
//!
//! Every deduction has a reason of one or two bounds: `z ≥ m` because `x ≥ m` or
//! `x ≤ −m`; `z ≤ M` because `−M ≤ x ≤ M`; `x ≤ M` (`M ≥ 0`) because `z ≤ M`; `x ≥ m`
//! (`m > 0`) because `z ≥ m` and `x > −m`; a hole `x ≠ u` because `z > |u|`. A conflict
//! is one of them meeting the opposite bound.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
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

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let reason = if lit.var() == self.z { self.explain_z(lit, cx)? } else { self.explain_x(lit)? };
        reason.iter().all(|&r| cx.holds(r)).then_some(reason)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (x, z) = (self.x, self.z);
        // Each deduction the propagator makes, against the opposite bound it emptied.
        let (zlo, zhi) = (cx.min(z), cx.max(z));
        let candidates = [
            // |x| ≥ min x > max z, or |x| ≥ −max x > max z.
            vec![Literal::Gt(x, zhi), Literal::Le(z, zhi)],
            vec![Literal::Le(x, -zhi - 1), Literal::Le(z, zhi)],
            // −min z < x < min z while |x| ≥ min z.
            vec![Literal::Gt(z, zlo - 1), Literal::Gt(x, -zlo), Literal::Le(x, zlo - 1)],
            // z below 0.
            vec![Literal::Le(z, -1)],
        ];
        candidates.into_iter().find(|c| c.iter().all(|&r| cx.holds(r)))
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        value(self.x).checked_abs() == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.z]
    }
}

impl Abs {
    /// Why `z` gained the bound `lit`, from the bounds of `x` (`None`: not from them).
    fn explain_z(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let x = self.x;
        match lit {
            // z ≥ m > 0: x lies on one side of the hole (−m, m).
            Literal::Gt(_, v) if v >= 0 => {
                let m = v + 1;
                if cx.min(x) >= m {
                    Some(vec![Literal::Gt(x, m - 1)])
                } else {
                    Some(vec![Literal::Le(x, -m)])
                }
            }
            // z ≤ M: −M ≤ x ≤ M.
            Literal::Le(_, bound) if bound >= 0 => Some(vec![Literal::Le(x, bound), Literal::Gt(x, -bound - 1)]),
            _ => None,
        }
    }

    /// Why `x` lost values: from the bounds of `z`, and for a bound moved past the hole
    /// around 0, from the other bound of `x`.
    fn explain_x(&self, lit: Literal) -> Option<Vec<Literal>> {
        let z = self.z;
        let x = self.x;
        match lit {
            // x ≥ m with m ≤ 0: z ≤ −m.
            Literal::Gt(_, v) if v < 0 => Some(vec![Literal::Le(z, -(v + 1))]),
            // x ≥ m > 0: z ≥ m and x > −m.
            Literal::Gt(_, v) => Some(vec![Literal::Gt(z, v), Literal::Gt(x, -(v + 1))]),
            // x ≤ M with M ≥ 0: z ≤ M.
            Literal::Le(_, bound) if bound >= 0 => Some(vec![Literal::Le(z, bound)]),
            // x ≤ −m < 0: z ≥ m and x < m.
            Literal::Le(_, bound) => Some(vec![Literal::Gt(z, -bound - 1), Literal::Le(x, -bound - 1)]),
            // A hole x ≠ u: z > |u|.
            Literal::Ne(_, u) => Some(vec![Literal::Gt(z, u.checked_abs()?)]),
            Literal::Eq(..) => None,
        }
    }
}
