//! Stranded digits: digits that can never be matched before the next add, and the least
//! number of digits that must still stand when it comes.
//!
//! The parity bound of `bounds.rs` knows that a class of odd count keeps a digit until the
//! add. It is the same at every position before the add (a match keeps each parity), so
//! it prunes nothing there. But a digit can be stuck for another reason: every digit of
//! its class that could pair with it lies behind a digit that is itself stuck. Such a
//! digit is *stranded*.
//!
//! Two digits `i < j` of one class can become neighbours (before any add) only along
//! - reading order: every cell strictly between them cleared;
//! - their column (same column): every cell between them in the column cleared. A row
//!   that keeps a digit is never removed, so a digit there blocks for good;
//! - (app rules) a diagonal: column distance `dc ≥ 1` and, rows only ever being
//!   removed, a row distance now of at least `dc`. Blockers are not looked at here.
//!
//! A route is *blocked* when a stranded digit lies on it (for the diagonal: never). The
//! stranded set is a fixpoint: a digit none of whose class mates (not stranded) has an
//! open route to it is stranded. It starts empty, so it grows only from a class of
//! count 1.
//!
//! Why it is sound: take a line of matches, and the first match in it that clears a
//! stranded digit; of its two digits, let `i` be the one marked first, at some step. Its
//! partner `j` was not marked before that step (else it would have been marked first),
//! so the route between them was blocked then, by digits marked earlier — which still
//! stand when the match is played, since no stranded digit was cleared before it. So `i`
//! and `j` are not neighbours there: a contradiction.
//!
//! Then each class `c` keeps at least its stranded digits `s_c`, plus one when the rest
//! (`count_c - s_c`, cleared in pairs) is odd; the least digits standing at the add is
//! the sum over classes, at least the odd-class count of the parity bound. `bounds.rs`
//! turns it into a cost exactly as it does the parity.

use super::bounds::class;
use super::rules::Rules;

/// The least number of digits still standing when the next add comes (0 if the grid may
/// be cleared without one). Grids of more than 128 cells get the parity bound only.
pub(crate) fn least_left(cells: &[u8], cols: usize, rules: Rules) -> u64 {
    let mut members = [0u128; 6];
    let mut counts = [0u32; 6];
    if cells.len() > 128 {
        for &d in cells.iter().filter(|&&d| d != 0) {
            counts[class(d)] += 1;
        }
        return counts.iter().map(|&c| u64::from(c % 2)).sum();
    }
    for (i, &d) in cells.iter().enumerate() {
        if d != 0 {
            members[class(d)] |= 1 << i;
            counts[class(d)] += 1;
        }
    }
    let mut stranded = 0u128;
    // Nothing is stranded unless some class has a single digit (see the module doc).
    if counts.contains(&1) {
        loop {
            let before = stranded;
            for &mates in &members[1..] {
                let mut live = mates & !stranded;
                let mut rest = live;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let mut others = live & !(1 << i);
                    let mut open = false;
                    while others != 0 && !open {
                        let j = others.trailing_zeros() as usize;
                        others &= others - 1;
                        open = route_open(i.min(j), i.max(j), cols, rules, stranded);
                    }
                    if !open {
                        stranded |= 1 << i;
                        live &= !(1 << i);
                    }
                }
            }
            if stranded == before {
                break;
            }
        }
    }
    (1..6)
        .map(|c| {
            let s = (members[c] & stranded).count_ones();
            u64::from(s + (counts[c] - s) % 2)
        })
        .sum()
}

/// Whether `i < j` may still become neighbours, with `blocked` standing for good.
fn route_open(i: usize, j: usize, cols: usize, rules: Rules, blocked: u128) -> bool {
    let between = (blocked >> (i + 1)) & ((1u128 << (j - i - 1)) - 1);
    if between == 0 {
        return true;
    }
    let (ri, ci, rj, cj) = (i / cols, i % cols, j / cols, j % cols);
    if ci == cj {
        return (ri + 1..rj).all(|r| blocked & (1 << (r * cols + ci)) == 0);
    }
    rules == Rules::App && rj - ri >= ci.abs_diff(cj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbermatch::rules::{matches, play_match};
    use std::collections::HashSet;

    /// The fewest digits standing in any position reachable by matches alone.
    fn fewest_reachable(cells: &[u8], cols: usize, rules: Rules) -> u64 {
        let mut seen = HashSet::new();
        let mut stack = vec![cells.to_vec()];
        let mut fewest = u64::MAX;
        let mut pairs = Vec::new();
        while let Some(cells) = stack.pop() {
            if !seen.insert(cells.clone()) {
                continue;
            }
            fewest = fewest.min(cells.iter().filter(|&&d| d != 0).count() as u64);
            matches(&cells, cols, rules, &mut pairs);
            for &(i, j) in &pairs {
                let mut child = cells.clone();
                play_match(&mut child, cols, rules, i as usize, j as usize);
                stack.push(child);
            }
        }
        fewest
    }

    fn board(seed: &mut u64, n: usize, digits: u64) -> Vec<u8> {
        (0..n)
            .map(|_| {
                *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = *seed >> 33;
                // Few distinct digits make classes of count 1 and 2, where strands form.
                if x % 7 == 0 {
                    0
                } else {
                    [1, 2, 3, 5, 4, 8][((x >> 8) % digits) as usize]
                }
            })
            .collect()
    }

    /// The bound never exceeds what an exhaustive search reaches, and it is sharper than
    /// parity on a good share of the boards (a bound that never bites would pass the first
    /// check trivially).
    #[test]
    fn never_more_than_the_fewest_reachable() {
        let mut seed = 11;
        let mut sharper = 0;
        let mut boards = 0;
        for round in 0..4000 {
            let cols = 2 + round % 6;
            let rules = if round % 3 == 0 { Rules::Classic } else { Rules::App };
            let n = 6 + round % 9;
            let mut cells = board(&mut seed, n, 4 + (round as u64 / 7) % 3);
            if rules == Rules::App {
                crate::numbermatch::rules::remove_empty_rows(&mut cells, cols);
            }
            let bound = least_left(&cells, cols, rules);
            let fewest = fewest_reachable(&cells, cols, rules);
            assert!(bound <= fewest, "{cells:?} cols {cols} {rules:?}: bound {bound} > {fewest}");
            let parity = least_left_parity(&cells);
            sharper += usize::from(bound > parity);
            boards += 1;
        }
        assert!(sharper * 20 > boards, "sharper than parity on only {sharper} of {boards} boards");
    }

    fn least_left_parity(cells: &[u8]) -> u64 {
        let mut counts = [0u32; 6];
        for &d in cells.iter().filter(|&&d| d != 0) {
            counts[class(d)] += 1;
        }
        counts.iter().map(|&c| u64::from(c % 2)).sum()
    }

    #[test]
    fn a_lone_digit_strands_the_pair_it_parts() {
        // 2 5 2 in one row: the 5 stands until the add, so the 2s never meet.
        assert_eq!(least_left(&[2, 5, 2], 3, Rules::App), 3);
        // On two rows the 2s meet down the column once the 5 is gone: it never is, but
        // here the 2s are next to each other in the column.
        // 2 5
        // 2
        assert_eq!(least_left(&[2, 5, 2], 2, Rules::App), 1);
    }
}
