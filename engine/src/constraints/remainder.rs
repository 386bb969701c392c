//! `z = x mod k` for a constant `k`, truncating as MiniZinc does: the remainder takes the
//! sign of `x` (`-7 mod 3 = -1`, `7 mod -3 = 1`), so only `|k|` matters.
//!
//! With `z` fixed to `r` (`x mod 97 = 0`, the common case: a start time on a grid), the
//! values of `x` left are an arithmetic progression: `r, r + |k|, r + 2|k|, …` above zero
//! for `r > 0`, its mirror below zero for `r < 0`, every multiple of `|k|` for `r = 0`. They
//! are listed directly (one value in `|k|`) and the domain keeps them in one operation
//! ([`Solver::keep_only`]), with nothing left to propagate: testing each value of `x`
//! instead would call the function once per value, and start times on a grid span
//! hundreds of thousands of values.
//!
//! With `z` a variable, the constraint is [`function`](super::function)'s graph.

use super::{function, MAX_FUNCTION_DOMAIN};
use crate::domain::Val;
use crate::ids::VarId;
use crate::solver::{ModelError, Solver};

/// Posts `z = x mod k` (truncating; `k = 0` has no solution).
pub fn mod_by_constant(solver: &mut Solver, x: VarId, k: Val, z: VarId) -> Result<(), ModelError> {
    if k == 0 {
        solver.fail();
        return Ok(());
    }
    if x == z || !solver.is_fixed(z) {
        return function(solver, x, z, move |v| v.checked_rem(k), "mod");
    }
    if solver.size(x) > MAX_FUNCTION_DOMAIN {
        // As `function` would: the progression could be as long as the domain.
        return Err(ModelError::Overflow(format!(
            "`mod` of a variable with {} values; at most {MAX_FUNCTION_DOMAIN} are supported",
            solver.size(x)
        )));
    }
    let kept = with_remainder(solver.min(x), solver.max(x), k, solver.min(z));
    solver.keep_only(x, &kept);
    Ok(())
}

/// The values of `lo..=hi` whose truncated remainder by `k ≠ 0` is `r`, increasing.
pub(crate) fn with_remainder(lo: Val, hi: Val, k: Val, r: Val) -> Vec<Val> {
    let (lo, hi, r) = (lo as i128, hi as i128, r as i128);
    let m = (k as i128).abs();
    if r.abs() >= m {
        return Vec::new();
    }
    // A positive remainder comes from a positive value, a negative one from a negative value.
    let (from, to) = match r.signum() {
        1 => (lo.max(1), hi),
        -1 => (lo, hi.min(-1)),
        _ => (lo, hi),
    };
    if from > to {
        return Vec::new();
    }
    let first = from + (r - from).rem_euclid(m);
    (first..=to).step_by(m as usize).map(|v| v as Val).collect()
}

#[cfg(test)]
mod tests {
    use super::with_remainder;

    /// The list against the definition (Rust's `%` truncates as MiniZinc does).
    #[test]
    fn with_remainder_is_the_definition() {
        for k in [-7, -3, -1, 1, 2, 3, 5] {
            for r in -8..=8 {
                for (lo, hi) in [(-20, 20), (0, 13), (-13, -1), (3, 3), (5, 4)] {
                    let expected: Vec<i64> = (lo..=hi).filter(|v| v % k == r).collect();
                    assert_eq!(with_remainder(lo, hi, k, r), expected, "k={k} r={r} {lo}..{hi}");
                }
            }
        }
    }
}
