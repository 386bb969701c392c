//! Building blocks of precise explanations (see [`crate::Propagator::explain`]): the few
//! literals that say "`x` has none of these values", "`x` has only these values", "`x` and
//! `y` share no value", read on the domains as they were just before the change explained.
//!
//! Each builder checks its claim on those domains and answers `false` when it did not hold
//! then: the caller falls back to another explanation or to the naive one. So a builder
//! never cites a literal that was false, and a propagator that tries several reasons in
//! turn (a variable may play two roles in one constraint) stays sound.
//!
//! Bounds are cited as weakly as the claim allows: "`x` has none of {1, 2, 7}" with `x` in
//! 4..=6 is `x > 2 ∧ x ≤ 6`, not `x > 3 ∧ x ≤ 6`; a weaker literal held earlier or as
//! often, so the nogood built from it is more general.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;

/// The widest stretch of values a builder walks one by one; beyond it the builder gives up
/// (the naive explanation is used), as the walk would cost more than it saves.
const MAX_WALK: Val = 1 << 16;

/// `lit`'s condition moved onto another variable: `x > c` becomes `y > c`.
pub(crate) fn mirror(lit: Literal, y: VarId) -> Literal {
    match lit {
        Literal::Eq(_, v) => Literal::Eq(y, v),
        Literal::Ne(_, v) => Literal::Ne(y, v),
        Literal::Le(_, v) => Literal::Le(y, v),
        Literal::Gt(_, v) => Literal::Gt(y, v),
    }
}

/// Appends literals saying that `x` takes none of `values` (sorted, without repeats), if
/// that held: the largest value below the minimum and the smallest above the maximum give
/// one bound each, the values in between one `≠` each.
pub(crate) fn exclude(cx: &ExplainContext<'_>, x: VarId, values: &[Val], out: &mut Vec<Literal>) -> bool {
    let (lo, hi) = (cx.min(x), cx.max(x));
    let first = values.partition_point(|&v| v < lo);
    let end = values.partition_point(|&v| v <= hi);
    if end - first > MAX_WALK as usize {
        return false;
    }
    let start = out.len();
    for &v in &values[first..end] {
        if cx.contains(x, v) {
            out.truncate(start);
            return false;
        }
        out.push(Literal::Ne(x, v));
    }
    if first > 0 {
        out.push(Literal::Gt(x, values[first - 1]));
    }
    if let Some(&v) = values.get(end) {
        out.push(Literal::Le(x, v - 1));
    }
    true
}

/// Appends literals saying that every value of `x` lies in `set` (sorted, without repeats),
/// if that held: bounds at the nearest non-members beyond the domain's bounds, a `≠` for
/// each non-member in between.
pub(crate) fn within(cx: &ExplainContext<'_>, x: VarId, set: &[Val], out: &mut Vec<Literal>) -> bool {
    let (lo, hi) = (cx.min(x), cx.max(x));
    if hi - lo > MAX_WALK {
        return false;
    }
    let member = |v: Val| set.binary_search(&v).is_ok();
    let start = out.len();
    for v in lo..=hi {
        if !member(v) {
            if cx.contains(x, v) {
                out.truncate(start);
                return false;
            }
            out.push(Literal::Ne(x, v));
        }
    }
    // The runs of members next to the bounds: the bound literal can stop at their far end.
    let mut below = lo - 1;
    let mut i = set.partition_point(|&v| v < lo);
    while i > 0 && set[i - 1] == below {
        i -= 1;
        below -= 1;
    }
    out.push(Literal::Gt(x, below));
    let mut above = hi + 1;
    let mut i = set.partition_point(|&v| v <= hi);
    while i < set.len() && set[i] == above {
        i += 1;
        above += 1;
    }
    out.push(Literal::Le(x, above - 1));
    true
}

/// Appends literals saying that `x` and `y` share no value, if that held: with bounds
/// apart, one bound of each at the same threshold; else the larger minimum and the smaller
/// maximum, and for each value in between, the side that lacks it.
pub(crate) fn disjoint(cx: &ExplainContext<'_>, x: VarId, y: VarId, out: &mut Vec<Literal>) -> bool {
    let ((x_lo, x_hi), (y_lo, y_hi)) = ((cx.min(x), cx.max(x)), (cx.min(y), cx.max(y)));
    if x_hi < y_lo {
        out.extend([Literal::Le(x, x_hi), Literal::Gt(y, x_hi)]);
        return true;
    }
    if y_hi < x_lo {
        out.extend([Literal::Le(y, y_hi), Literal::Gt(x, y_hi)]);
        return true;
    }
    let (lo, hi) = (x_lo.max(y_lo), x_hi.min(y_hi));
    if hi - lo > MAX_WALK {
        return false;
    }
    let start = out.len();
    for v in lo..=hi {
        if !cx.contains(x, v) {
            out.push(Literal::Ne(x, v));
        } else if !cx.contains(y, v) {
            out.push(Literal::Ne(y, v));
        } else {
            out.truncate(start);
            return false;
        }
    }
    // Below `lo` one of them has no value: the one whose minimum it is.
    out.push(if x_lo == lo { Literal::Gt(x, lo - 1) } else { Literal::Gt(y, lo - 1) });
    out.push(if x_hi == hi { Literal::Le(x, hi) } else { Literal::Le(y, hi) });
    true
}

/// Appends `lit` if it held.
pub(crate) fn cite(cx: &ExplainContext<'_>, lit: Literal, out: &mut Vec<Literal>) -> bool {
    let held = cx.holds(lit);
    if held {
        out.push(lit);
    }
    held
}
