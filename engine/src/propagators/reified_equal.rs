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
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::reasons::{cite, disjoint, mirror};

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

    /// `b` false: `x` and `y` share no value; `b` true: both fixed to one value. A side
    /// narrowed with `b` true: the other side's same literal; a value removed with `b`
    /// false: the other side fixed to it. Each reason is tried only when its premises held
    /// then (`b` may also be `x` or `y`).
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (b, x, y) = (self.b, self.x, self.y);
        let mut out = Vec::new();
        let w = lit.var();
        if w == b {
            if !lit.holds_for(1) && disjoint(cx, x, y, &mut out) {
                return Some(out);
            }
            out.clear();
            if !lit.holds_for(0) && cx.min(x) == cx.max(x) && cite(cx, Literal::Eq(y, cx.min(x)), &mut out) {
                out.push(Literal::Eq(x, cx.min(x)));
                return Some(out);
            }
            out.clear();
        }
        for (side, other) in [(x, y), (y, x)] {
            if w != side {
                continue;
            }
            if cite(cx, Literal::Eq(b, 1), &mut out) && cite(cx, mirror(lit, other), &mut out) {
                return Some(out);
            }
            out.clear();
            if let Literal::Ne(_, v) = lit {
                if cite(cx, Literal::Eq(b, 0), &mut out) && cite(cx, Literal::Eq(other, v), &mut out) {
                    return Some(out);
                }
                out.clear();
            }
        }
        None
    }

    /// `b` true with `x` and `y` apart, or `b` false with both fixed to one value.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (b, x, y) = (self.b, self.x, self.y);
        let mut out = Vec::new();
        if cite(cx, Literal::Eq(b, 1), &mut out) && disjoint(cx, x, y, &mut out) {
            return Some(out);
        }
        out.clear();
        let v = cx.min(x);
        (cite(cx, Literal::Eq(b, 0), &mut out)
            && cite(cx, Literal::Eq(x, v), &mut out)
            && cite(cx, Literal::Eq(y, v), &mut out))
        .then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// `b ⇔ x = y`: `b` variable 0, `x` 1, `y` 2.
    const PROP: ReifiedEqual = ReifiedEqual { b: VarId(0), x: VarId(1), y: VarId(2) };
    const RANGES: [(Val, Val); 4] = [(0, 1), (0, 9), (0, 9), (0, 9)];

    #[test]
    fn b_is_false_for_the_bounds_that_keep_x_and_y_apart() {
        let past = Past::new(&RANGES, &[Literal::Ne(var(1), 1), Literal::Le(var(1), 2), Literal::Gt(var(2), 4)]);
        let reason = PROP.explain(Literal::Le(var(0), 0), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Le(var(1), 2), Literal::Gt(var(2), 2)]));
    }

    #[test]
    fn with_b_true_a_side_loses_what_the_other_lost() {
        let past = Past::new(&RANGES, &[Literal::Eq(var(0), 1), Literal::Ne(var(2), 3), Literal::Le(var(3), 4)]);
        let reason = PROP.explain(Literal::Ne(var(1), 3), &past.cx());
        assert_eq!(reason, Some(vec![Literal::Eq(var(0), 1), Literal::Ne(var(2), 3)]));
    }
}
