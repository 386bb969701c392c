//! Partial-order reduction by sleep sets: commuting matches are searched in one order.
//!
//! Two matches `m1`, `m2` enabled in a position *commute* there when
//! 1. they share no cell, and
//! 2. (app rules) neither removes a row when played first: each leaves both its rows with
//!    a digit standing. (The paper game removes no row.)
//!
//! Then both orders are legal and end in the same grid, at the same cost:
//! - no index shifts (2), so `m2` names the same two cells after `m1`;
//! - `m2` is still a match after `m1`: its cells stand (1), and clearing cells never parts
//!   two neighbours (the cells between them are cleared already); it may only open new
//!   neighbours, which changes nothing for `m2`;
//! - a row that the two matches empty together is removed by whichever comes second, and
//!   the second one plays in a grid whose indices are the same in both orders.
//!
//! The search (`search.rs`) keeps a *sleep set* per position: matches whose lines were
//! searched already in another order. The protocol:
//! - **Put to sleep.** Searching the `p`-th match `m` of a position, the earlier matches
//!   `m'` (already searched) that commute with `m` fall asleep in `m`'s child: every line
//!   `m m' ...` was searched as `m' m ...`.
//! - **Skip.** A match asleep in a position is not played there.
//! - **Inherit.** A match asleep in a position stays asleep in the child of `m` only if it
//!   commutes with `m` there (conditions 1 and 2 both hold in this position, for both).
//!   Otherwise it wakes up: `m` may shift its indices or make the two orders differ.
//! - **Wake on add.** An add commutes with no match (it copies the digits standing), so
//!   the child of an add sleeps on nothing.
//!
//! Condition 1 is implied by the others as the search uses them: a match sharing a cell
//! with `m` is no longer a match once `m` is played, and without a row removal the indices
//! do not shift, so it cannot come back while it sleeps. It is checked anyway, because it
//! costs nothing and is the condition a reader expects.
//!
//! What a skipped line costs is known only to the iteration that searched it; how the
//! transposition table copes with that is told in `search.rs` (`Entry`).

use super::rules::Rules;

/// Whether each of `pairs` (the matches of `cells`) removes no row when played first:
/// `quiet[p]` for `pairs[p]`. `rows` and `row_of` are buffers.
pub(crate) fn quiet_pairs(
    cells: &[u8],
    cols: usize,
    rules: Rules,
    pairs: &[(u32, u32)],
    (rows, row_of): (&mut Vec<u32>, &mut Vec<u32>),
    quiet: &mut Vec<bool>,
) {
    quiet.clear();
    match rules {
        Rules::App => {
            // The digits of each row and the row of each cell, in one pass without a
            // division (two per pair, at every position, showed in the profile).
            rows.clear();
            row_of.clear();
            for row in cells.chunks(cols) {
                let r = rows.len() as u32;
                rows.push(row.iter().map(|&d| u32::from(d != 0)).sum());
                row_of.extend(std::iter::repeat_n(r, row.len()));
            }
            quiet.extend(pairs.iter().map(|&(i, j)| {
                let (ri, rj) = (row_of[i as usize] as usize, row_of[j as usize] as usize);
                if ri == rj {
                    rows[ri] > 2
                } else {
                    rows[ri] > 1 && rows[rj] > 1
                }
            }));
        }
        Rules::Classic => quiet.resize(pairs.len(), true),
    }
}

/// Whether two matches share no cell (condition 1).
fn disjoint((a, b): (u32, u32), (i, j): (u32, u32)) -> bool {
    a != i && a != j && b != i && b != j
}

/// The sleep set of the child of `pairs[p]`, sorted, into `out`: the earlier matches that
/// commute with it, and the matches asleep here (`asleep`, sorted) that commute with it.
/// `quiet` is [`quiet_pairs`] of `pairs`.
pub(crate) fn asleep_below(
    pairs: &[(u32, u32)],
    quiet: &[bool],
    p: usize,
    asleep: &[(u32, u32)],
    out: &mut Vec<(u32, u32)>,
) {
    out.clear();
    let m = pairs[p];
    if !quiet[p] {
        // `m` removes a row: the indices shift under every sleeping match.
        return;
    }
    // Both parts are sorted, the first below `m`, the second above: the asleep ones
    // below `m` are among the earlier matches already.
    out.extend(
        pairs[..p].iter().zip(quiet.iter()).filter(|&(&other, &q)| q && disjoint(other, m)).map(|(&other, _)| other),
    );
    for &other in asleep.iter().filter(|&&other| other > m) {
        if disjoint(other, m) && pairs.binary_search(&other).is_ok_and(|q| quiet[q]) {
            out.push(other);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The reduction must reach every position the plain search reaches: walks of the move
    //! graph with and without sleep sets are compared, position by position. The walk with
    //! sleep sets is memoised on (position, sleep set), which is exactly the tree walk;
    //! memoising on the position alone would be a different (and unsound) protocol.

    use std::collections::HashSet;

    use super::*;
    use crate::numbermatch::rules::{matches, play_add, play_match};

    type Seen = HashSet<(Vec<u8>, u32, Vec<(u32, u32)>)>;

    /// Every position reachable from `cells` with `adds` adds left, into `reached`; with
    /// `reduce`, by the protocol of this module.
    fn walk(cells: &[u8], cols: usize, rules: Rules, adds: u32, asleep: &[(u32, u32)], reduce: bool, seen: &mut Seen) {
        if !seen.insert((cells.to_vec(), adds, asleep.to_vec())) {
            return;
        }
        let mut pairs = Vec::new();
        matches(cells, cols, rules, &mut pairs);
        let (mut rows, mut row_of, mut quiet) = (Vec::new(), Vec::new(), Vec::new());
        quiet_pairs(cells, cols, rules, &pairs, (&mut rows, &mut row_of), &mut quiet);
        let mut below = Vec::new();
        for (p, &(i, j)) in pairs.iter().enumerate() {
            if asleep.binary_search(&(i, j)).is_ok() {
                continue;
            }
            if reduce {
                asleep_below(&pairs, &quiet, p, asleep, &mut below);
            }
            let mut child = cells.to_vec();
            play_match(&mut child, cols, rules, i as usize, j as usize);
            walk(&child, cols, rules, adds, &below, reduce, seen);
        }
        let may_add = rules == Rules::App || pairs.is_empty();
        if may_add && adds > 0 && cells.iter().any(|&d| d != 0) {
            let mut child = cells.to_vec();
            play_add(&mut child);
            walk(&child, cols, rules, adds - 1, &[], reduce, seen);
        }
    }

    fn positions(cells: &[u8], cols: usize, rules: Rules, adds: u32, reduce: bool) -> HashSet<(Vec<u8>, u32)> {
        let mut seen = Seen::new();
        walk(cells, cols, rules, adds, &[], reduce, &mut seen);
        seen.into_iter().map(|(cells, adds, _)| (cells, adds)).collect()
    }

    fn assert_same_positions(cells: &[u8], cols: usize, rules: Rules, adds: u32) {
        let mut start = cells.to_vec();
        if rules == Rules::App {
            crate::numbermatch::rules::remove_empty_rows(&mut start, cols);
        }
        let plain = positions(&start, cols, rules, adds, false);
        let reduced = positions(&start, cols, rules, adds, true);
        let missing: Vec<_> = plain.difference(&reduced).collect();
        assert!(missing.is_empty(), "{rules:?} cols {cols} adds {adds} {start:?}: the reduction misses {missing:?}");
    }

    /// Random cells: digits 1-9, about one in `hole` cleared (0: none).
    fn board(seed: &mut u64, n: usize, hole: u64) -> Vec<u8> {
        (0..n)
            .map(|_| {
                *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = *seed >> 33;
                if hole > 0 && x % hole == 0 {
                    0
                } else {
                    ((x >> 8) % 9) as u8 + 1
                }
            })
            .collect()
    }

    #[test]
    fn sleep_sets_reach_every_position_on_random_boards() {
        let mut seed = 11;
        for round in 0..3000 {
            let cols = [2, 3, 3, 4, 5, 9][round % 6];
            let rules = if round % 4 == 3 { Rules::Classic } else { Rules::App };
            let adds = if round % 3 == 0 { 1 } else { 0 };
            let n = if adds == 1 { 4 + round % 4 } else { 6 + round % 7 };
            let cells = board(&mut seed, n, [0, 4, 3][round % 3]);
            assert_same_positions(&cells, cols, rules, adds);
        }
    }

    /// A row removal breaks a diagonal: `5 . 5` down the diagonal through the cleared
    /// middle of row 2, whose `1 . 9` is cleared by a match that removes the row.
    /// Played first, that match parts the 5s; played second, it does not. So the two
    /// orders are not the same line, and only one of them exists.
    #[test]
    fn a_row_removal_that_parts_a_diagonal_does_not_commute() {
        assert_same_positions(&[5, 2, 3, 1, 0, 9, 4, 7, 5], 3, Rules::App, 0);
        // The row-removing match first in index order: 2-8 down column 3 through the
        // cleared cell, the 8 alone in its row; the 3s meet down the diagonal through
        // that row, which is cleared where they cross it.
        //   6 1 2
        //   3 4 .
        //   . . 8
        //   6 9 3
        assert_same_positions(&[6, 1, 2, 3, 4, 0, 0, 0, 8, 6, 9, 3], 3, Rules::App, 0);
    }
}
