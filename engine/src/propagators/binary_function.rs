//! `z = f(x, y)` for any integer function `f` given as a closure (division, remainder,
//! power): generalised arc consistency by enumerating the pairs, when there are few.
//!
//! A value of `x` stays if some value of `y` gives, through `f`, a value in the domain of
//! `z`; the same for `y`; a value of `z` stays if some pair gives it. Pairs where `f` is
//! undefined (`None`: division by zero, overflow) support nothing. Enumerating all pairs
//! costs `|D(x)|·|D(y)|` evaluations, so it is done only below [`MAX_PAIRS`]; above, the
//! propagator waits until `x` and `y` are fixed and then fixes `z` (forward checking), or
//! filters the last of `x`, `y` once the other and `z` are fixed. Both are sound; only the
//! first is domain consistent.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// The most pairs enumerated per propagation.
pub(crate) const MAX_PAIRS: u64 = 1 << 16;

pub struct BinaryFunction {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) z: VarId,
    pub(crate) f: Box<dyn Fn(Val, Val) -> Option<Val> + Send>,
    pub(crate) name: &'static str,
}

impl std::fmt::Debug for BinaryFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BinaryFunction({}: {:?}, {:?} -> {:?})", self.name, self.x, self.y, self.z)
    }
}

impl BinaryFunction {
    fn supported(&self, cx: &Context<'_>) -> (Vec<Val>, Vec<Val>, Vec<Val>) {
        let (mut xs, mut ys, mut zs) = (Vec::new(), Vec::new(), Vec::new());
        let mut y_ok: Vec<bool> = vec![false; cx.size(self.y) as usize];
        let y_values: Vec<Val> = cx.values(self.y).collect();
        for vx in cx.values(self.x) {
            let mut x_ok = false;
            for (j, &vy) in y_values.iter().enumerate() {
                if let Some(vz) = (self.f)(vx, vy).filter(|&vz| cx.contains(self.z, vz)) {
                    x_ok = true;
                    y_ok[j] = true;
                    zs.push(vz);
                }
            }
            if x_ok {
                xs.push(vx);
            }
        }
        ys.extend(y_values.iter().zip(&y_ok).filter(|(_, &ok)| ok).map(|(&v, _)| v));
        zs.sort_unstable();
        zs.dedup();
        (xs, ys, zs)
    }

    /// Keeps in `var` exactly the sorted `values`.
    fn keep(cx: &mut Context<'_>, var: VarId, values: &[Val]) -> Result<(), Conflict> {
        let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
            return Err(Conflict);
        };
        let _ = cx.set_min(var, lo)?;
        let _ = cx.set_max(var, hi)?;
        let _ = cx.retain(var, |_, v| values.binary_search(&v).is_ok())?;
        Ok(())
    }
}

impl Propagator for BinaryFunction {
    fn name(&self) -> &'static str {
        self.name
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for v in [self.x, self.y, self.z] {
            cx.subscribe(v, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        if cx.size(x).saturating_mul(cx.size(y)) <= MAX_PAIRS {
            let (xs, ys, zs) = self.supported(cx);
            BinaryFunction::keep(cx, x, &xs)?;
            BinaryFunction::keep(cx, y, &ys)?;
            BinaryFunction::keep(cx, z, &zs)?;
        } else if cx.is_fixed(x) && cx.is_fixed(y) {
            let vz = (self.f)(cx.min(x), cx.min(y)).ok_or(Conflict)?;
            let _ = cx.assign(z, vz)?;
        } else if cx.is_fixed(z) && (cx.is_fixed(x) || cx.is_fixed(y)) {
            let (vz, f) = (cx.min(z), &self.f);
            if cx.is_fixed(x) && cx.size(y) <= MAX_PAIRS {
                let vx = cx.min(x);
                let _ = cx.retain(y, |_, vy| f(vx, vy) == Some(vz))?;
            } else if cx.is_fixed(y) && cx.size(x) <= MAX_PAIRS {
                let vy = cx.min(y);
                let _ = cx.retain(x, |_, vx| f(vx, vy) == Some(vz))?;
            }
        }
        let all_fixed = cx.is_fixed(x) && cx.is_fixed(y) && cx.is_fixed(z);
        Ok(if all_fixed { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        (self.f)(value(self.x), value(self.y)) == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y, self.z]
    }

    fn priority(&self) -> crate::propagator::Priority {
        crate::propagator::Priority::Expensive
    }
}
