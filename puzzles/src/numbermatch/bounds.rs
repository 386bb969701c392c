//! Admissible lower bounds on the cost still to pay from a position.
//!
//! A match clears two digits of the same class — {1, 9}, {2, 8}, {3, 7}, {4, 6}, {5} —
//! because matching digits are equal or sum to 10. So a class with an odd count keeps a
//! digit until an add doubles every count. Hence, with `n` digits left and `o` classes of
//! odd count (`n` and `o` have the same parity):
//! - `o = 0`: at least `n / 2` matches;
//! - `o > 0` and no add left: no win at all (the parity argument);
//! - `o > 0`: at least one add, and at least `(n + o) / 2` matches: `x` matches before the
//!   add leave at least `o` digits (one per odd class), so at least `n - 2x` digits are
//!   copied, and `x + 2 (n - 2x) / 2 = n - x >= (n + o) / 2`.

/// No win is possible.
pub(crate) const INF: u64 = u64::MAX / 4;

/// The class of a digit: digits of one class are the ones that can match each other.
pub(crate) fn class(d: u8) -> usize {
    usize::from(d.min(10 - d))
}

/// Digits left and classes of odd count.
pub(crate) fn census(cells: &[u8]) -> (u64, u64) {
    let mut counts = [0u32; 6];
    let mut n = 0;
    for &d in cells {
        if d != 0 {
            counts[class(d)] += 1;
            n += 1;
        }
    }
    (n, counts.iter().filter(|&&c| c % 2 == 1).count() as u64)
}

/// A lower bound on the cost to win from a position of `n` digits with `odd` classes of
/// odd count (see [`census`]), where an add costs `add_cost` and a match 1, with
/// `adds_left` adds still allowed (`None`: unlimited).
///
/// The search keeps the census up to date as it moves (a match takes two digits of one
/// class, so `odd` stays; an add doubles every count, so `odd` becomes 0) rather than
/// counting the grid again at every position.
pub(crate) fn bound_of(n: u64, odd: u64, adds_left: Option<u32>, add_cost: u64) -> u64 {
    if odd == 0 {
        n / 2
    } else if adds_left == Some(0) {
        INF
    } else {
        add_cost + (n + odd) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower_bound(cells: &[u8], adds_left: Option<u32>, add_cost: u64) -> u64 {
        let (n, odd) = census(cells);
        bound_of(n, odd, adds_left, add_cost)
    }

    #[test]
    fn parity_of_classes() {
        assert_eq!(lower_bound(&[1, 9, 0, 5, 5], Some(0), 100), 2);
        assert_eq!(lower_bound(&[1, 8], Some(0), 100), INF);
        // 1 and 8 left: one add, then 1 8 1 8 takes two matches at best.
        assert_eq!(lower_bound(&[1, 8], Some(1), 100), 102);
        assert_eq!(lower_bound(&[1, 8, 3], None, 0), 3);
    }
}
