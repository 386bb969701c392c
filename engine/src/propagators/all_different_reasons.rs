//! Explanations of all-different with offsets (`xᵢ + oᵢ` pairwise distinct), whatever part
//! of it deduced the literal: value elimination, Hall intervals on bounds, or the matching.
//!
//! All three come down to a *Hall interval*: an interval `I = [a, b]` of shifted values and
//! at least `|I|` other variables whose shifted bounds lie within it. Being distinct, they
//! take every value of `I`, so no other variable can take one. A fixed variable is the
//! interval of its one value. The reason is those variables' bounds, cited as `[a, b]`
//! (weaker than their actual bounds, so the nogood is more general), and for a bound of
//! the variable explained, the side of it that the interval does not cover. More than `|I|`
//! variables within `I` is a conflict.
//!
//! The interval is searched for when asked, on the domains just before the change: a
//! sweep per candidate lower end over the variables sorted by upper end, O(n² log n). A
//! removal by the matching that no interval explains (its Hall set's values are not
//! contiguous) is explained by the Hall set itself ([`super::matching_reasons`]).

use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;

/// Beyond this many variables the search for an interval is not tried (naive reasons).
const MAX_VARS: usize = 200;

/// Where a Hall interval must lie to explain a literal.
struct Target {
    /// The variable explained (its index), left out of the Hall set.
    skip: Option<usize>,
    /// The interval must start at or below this and end at or above `end_from`.
    start_by: i64,
    end_from: i64,
}

/// The variables' shifted bounds just before the change.
fn bounds(cx: &ExplainContext<'_>, vars: &[VarId], offsets: &[i64]) -> Vec<(i64, i64)> {
    vars.iter().zip(offsets).map(|(&x, &o)| (cx.min(x) + o, cx.max(x) + o)).collect()
}

/// An interval `[a, b]` with `a ≤ start_by`, `b ≥ end_from` holding at least `b − a + 1`
/// (with `overfull`, more) of the variables other than `skip`; the narrowest end first.
fn find(b: &[(i64, i64)], target: &Target, overfull: bool) -> Option<(i64, i64)> {
    let mut starts: Vec<i64> = b.iter().map(|&(lo, _)| lo).filter(|&lo| lo <= target.start_by).collect();
    starts.sort_unstable_by(|p, q| q.cmp(p));
    starts.dedup();
    let mut inside: Vec<i64> = Vec::with_capacity(b.len());
    for a in starts {
        inside.clear();
        inside.extend(
            b.iter().enumerate().filter(|&(j, &(lo, _))| Some(j) != target.skip && lo >= a).map(|(_, &(_, hi))| hi),
        );
        inside.sort_unstable();
        for (k, &hi) in inside.iter().enumerate() {
            // `k + 1` variables end at or below `hi` (ties: the last of them counts all).
            if hi < target.end_from || inside.get(k + 1) == Some(&hi) {
                continue;
            }
            let count = k as i64 + 1;
            let size = hi - a + 1;
            if count > size || (!overfull && count == size) {
                return Some((a, hi));
            }
        }
    }
    None
}

/// The bounds of the variables (but `skip`) within `[a, b]`, cited as `[a, b]`.
fn cite_within(
    vars: &[VarId],
    offsets: &[i64],
    b: &[(i64, i64)],
    skip: Option<usize>,
    (lo, hi): (i64, i64),
) -> Vec<Literal> {
    let mut out = Vec::new();
    for (j, (&x, &o)) in vars.iter().zip(offsets).enumerate() {
        if Some(j) != skip && b[j].0 >= lo && b[j].1 <= hi {
            out.push(Literal::Gt(x, lo - 1 - o));
            out.push(Literal::Le(x, hi - o));
        }
    }
    out
}

/// Why `lit` holds, for `lit` on the variable of index `i` (tried for each index that
/// names its variable by the caller).
pub(crate) fn explain_at(
    cx: &ExplainContext<'_>,
    vars: &[VarId],
    offsets: &[i64],
    i: usize,
    lit: Literal,
) -> Option<Vec<Literal>> {
    if vars.len() > MAX_VARS {
        return None;
    }
    let b = bounds(cx, vars, offsets);
    let (o, (lo_i, hi_i)) = (offsets[i], b[i]);
    let skip = Some(i);
    // The shifted values the interval must cover, and a literal for the rest of the side.
    let (target, side) = match lit {
        Literal::Ne(_, v) => (Target { skip, start_by: v + o, end_from: v + o }, None),
        Literal::Gt(_, c) => (Target { skip, start_by: lo_i, end_from: c + o }, Some(true)),
        Literal::Le(_, c) => (Target { skip, start_by: c + 1 + o, end_from: hi_i }, Some(false)),
        Literal::Eq(..) => return None,
    };
    let Some(interval) = find(&b, &target, false) else {
        return super::matching_reasons::explain_by_hall_sets(cx, vars, offsets, i, lit);
    };
    let mut out = cite_within(vars, offsets, &b, skip, interval);
    match side {
        // x ≥ a: with x ∉ [a, b], x > b ≥ c.
        Some(true) => out.push(Literal::Gt(vars[i], interval.0 - 1 - o)),
        Some(false) => out.push(Literal::Le(vars[i], interval.1 - o)),
        None => {}
    }
    Some(out)
}

/// Why `lit` holds: the first index of its variable whose interval explains it.
pub(crate) fn explain(cx: &ExplainContext<'_>, vars: &[VarId], offsets: &[i64], lit: Literal) -> Option<Vec<Literal>> {
    (0..vars.len()).filter(|&i| vars[i] == lit.var()).find_map(|i| explain_at(cx, vars, offsets, i, lit))
}

/// More variables within an interval than it has values.
pub(crate) fn explain_conflict(cx: &ExplainContext<'_>, vars: &[VarId], offsets: &[i64]) -> Option<Vec<Literal>> {
    if vars.len() > MAX_VARS {
        return None;
    }
    let b = bounds(cx, vars, offsets);
    let target = Target { skip: None, start_by: i64::MAX, end_from: i64::MIN };
    let interval = find(&b, &target, true)?;
    Some(cite_within(vars, offsets, &b, None, interval))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::explain::testing::{var, Past};

    /// Four variables 0..=3 over 0..=9, no offsets.
    fn vars() -> Vec<VarId> {
        (0..4).map(var).collect()
    }

    #[test]
    fn a_fixed_variable_alone_explains_its_value_gone_elsewhere() {
        let past = Past::new(&[(0, 9); 4], &[Literal::Le(var(3), 5), Literal::Eq(var(1), 4), Literal::Ne(var(2), 7)]);
        let reason = explain(&past.cx(), &vars(), &[0; 4], Literal::Ne(var(0), 4));
        assert_eq!(reason, Some(vec![Literal::Gt(var(1), 3), Literal::Le(var(1), 4)]));
    }

    #[test]
    fn a_bound_moves_past_a_hall_interval_cited_as_the_interval() {
        // x1 in 2..=3 and x2 in 3..=3: {2, 3} is theirs, so x0 ≥ 2 rises past 3.
        let lits = [
            Literal::Gt(var(1), 1),
            Literal::Le(var(1), 3),
            Literal::Eq(var(2), 3),
            Literal::Gt(var(0), 1),
            Literal::Ne(var(3), 8),
        ];
        let past = Past::new(&[(0, 9); 4], &lits);
        let reason = explain(&past.cx(), &vars(), &[0; 4], Literal::Gt(var(0), 3));
        let expected = vec![
            Literal::Gt(var(1), 1),
            Literal::Le(var(1), 3),
            Literal::Gt(var(2), 1),
            Literal::Le(var(2), 3),
            Literal::Gt(var(0), 1),
        ];
        assert_eq!(reason, Some(expected));
    }

    #[test]
    fn a_conflict_is_an_interval_with_too_many_variables() {
        let lits = [Literal::Eq(var(0), 5), Literal::Le(var(3), 2), Literal::Eq(var(2), 5)];
        let past = Past::new(&[(0, 9); 4], &lits);
        let reason = explain_conflict(&past.cx(), &vars(), &[0; 4]);
        let expected =
            vec![Literal::Gt(var(0), 4), Literal::Le(var(0), 5), Literal::Gt(var(2), 4), Literal::Le(var(2), 5)];
        assert_eq!(reason, Some(expected));
    }
}
