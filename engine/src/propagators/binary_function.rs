//! `z = f(x, y)` for any integer function `f` given as a closure (division, remainder,
//! power): domain consistency by enumerating the pairs (generalised arc consistency by
//! support search, as AC-3 does for one constraint), when there are few.
//!
//! A value of `x` stays if some value of `y` gives, through `f`, a value in the domain of
//! `z`; the same for `y`; a value of `z` stays if some pair gives it. Pairs where `f` is
//! undefined (`None`: division by zero, overflow) support nothing. With three distinct
//! variables one pass over the pairs finds every support, so a single call reaches the
//! fixpoint.
//!
//! Enumerating costs `|D(x)|·|D(y)|` evaluations of `f`, so it is done only up to
//! [`MAX_PAIRS`]. Above, nothing is known of `f` (no monotonicity, no inverse) that could
//! prune soundly, so the propagator waits: forward checking. The count falls below the
//! limit as the search narrows `x` and `y`: once one of them is fixed, the pairs are as
//! many as the other's values, so the other is filtered as soon as that is cheap, and
//! once both are, the single pair fixes `z` (or fails). Every full assignment is thus
//! checked exactly.
//!
//! Repeated variables (`z = f(x, x)`, `x = f(x, y)`) make the pairs a relaxation: a
//! support may use two values for one variable, and pruning one role of a variable can
//! remove the support of another. Pruning stays sound; the propagator then does not claim
//! to reach its fixpoint in one call, and once every variable is fixed it evaluates the
//! one pair left rather than trust the supports. The post function turns `f(x, x)` into a
//! one-variable function.
//!
//! With distinct variables, a value goes exactly when the two others' domains give it no
//! support, so those domains explain it (the value's own variable is not cited).

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::{by_other_domains, ExplainContext};
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// The most pairs enumerated per propagation.
pub(crate) const MAX_PAIRS: u64 = 1 << 16;

/// `z = f(x, y)` for a closure `f`, by support search over the pairs while there are few; posted by [`crate::constraints::binary_function`].
pub struct BinaryFunction {
    x: VarId,
    y: VarId,
    z: VarId,
    f: Box<dyn Fn(Val, Val) -> Option<Val> + Send>,
    name: &'static str,
    /// No variable plays two roles: one pass over the pairs reaches the fixpoint.
    distinct: bool,
}

impl std::fmt::Debug for BinaryFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BinaryFunction({}: {:?}, {:?} -> {:?})", self.name, self.x, self.y, self.z)
    }
}

/// The values of `x`, `y` and `z` that take part in some pair, each sorted.
struct Supported {
    xs: Vec<Val>,
    ys: Vec<Val>,
    zs: Vec<Val>,
}

impl BinaryFunction {
    pub(crate) fn new(
        x: VarId,
        y: VarId,
        z: VarId,
        f: Box<dyn Fn(Val, Val) -> Option<Val> + Send>,
        name: &'static str,
    ) -> BinaryFunction {
        let distinct = x != y && y != z && x != z;
        BinaryFunction { x, y, z, f, name, distinct }
    }

    fn supported(&self, cx: &Context<'_>) -> Supported {
        let y_values: Vec<Val> = cx.values(self.y).collect();
        let mut y_ok = vec![false; y_values.len()];
        let (mut xs, mut zs) = (Vec::new(), Vec::new());
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
        let ys = y_values.iter().zip(&y_ok).filter(|&(_, &ok)| ok).map(|(&v, _)| v).collect();
        zs.sort_unstable();
        zs.dedup();
        Supported { xs, ys, zs }
    }
}

/// Keeps in `var` exactly the sorted `values`.
fn keep(cx: &mut Context<'_>, var: VarId, values: &[Val]) -> Result<(), Conflict> {
    let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
        return Err(Conflict);
    };
    // Bounds first: the walk below then only visits what is left between them.
    let _ = cx.set_min(var, lo)?;
    let _ = cx.set_max(var, hi)?;
    if cx.size(var) > values.len() as u64 {
        let _ = cx.retain(var, |_, v| values.binary_search(&v).is_ok())?;
    }
    Ok(())
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
        if cx.size(x).saturating_mul(cx.size(y)) > MAX_PAIRS {
            return Ok(PropStatus::Active);
        }
        let Supported { xs, ys, zs } = self.supported(cx);
        keep(cx, x, &xs)?;
        keep(cx, y, &ys)?;
        keep(cx, z, &zs)?;
        if !(cx.is_fixed(x) && cx.is_fixed(y) && cx.is_fixed(z)) {
            return Ok(PropStatus::Active);
        }
        // With distinct variables the supports already say so; with repeated ones only
        // the pair itself does.
        if (self.f)(cx.min(x), cx.min(y)) == Some(cx.min(z)) {
            Ok(PropStatus::Entailed)
        } else {
            Err(Conflict)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        (self.f)(value(self.x), value(self.y)) == Some(value(self.z))
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y, self.z]
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        if !self.distinct {
            return None;
        }
        by_other_domains(cx, &[self.x, self.y, self.z], lit)
    }

    /// No pair of the domains gives a value of `z`: the three domains, which is exact
    /// (nothing less rules the pairs out).
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for v in [self.x, self.y, self.z] {
            cx.domain_of(v, &mut reason);
        }
        reason.sort_unstable();
        reason.dedup();
        Some(reason)
    }

    fn idempotent(&self) -> bool {
        self.distinct
    }
}
