//! The rules of docs/language.md, `numbermatch`: which pairs match, what a match and an add do to the grid.
//!
//! A grid is its cells in reading order, `cols` to a row, the last row possibly short;
//! 0 is a cleared cell. Two digits match when they are equal or sum to 10, and are
//! neighbours: the next digit in reading order (through cleared cells and across row
//! ends), or the first digit met going down a column, or (app rules) down a diagonal
//! (diagonals stop at the edges: no wrapping). Looking forward only (reading order, down,
//! down-left, down-right) finds every pair once from its first cell.

/// Which game: the app's (diagonals, rows removed, optional adds) or the paper one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    App,
    /// No diagonals, no row removal; an add is forced exactly when no match is left.
    Classic,
}

/// A move, in the cells of the grid as it stands before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Clear the digits at these two indices (first < second).
    Match(u32, u32),
    Add,
}

/// Whether two digits may be matched.
pub fn compatible(a: u8, b: u8) -> bool {
    a == b || a + b == 10
}

/// The first digit from `i` in steps of `step`, the column moving by `dc` at each step
/// (`None` past the grid's end or edge).
fn first_digit(cells: &[u8], mut i: usize, step: usize, cols: usize, dc: isize) -> Option<usize> {
    let mut c = (i % cols) as isize;
    loop {
        c += dc;
        if c < 0 || c >= cols as isize {
            return None;
        }
        i += step;
        if i >= cells.len() {
            return None;
        }
        if cells[i] != 0 {
            return Some(i);
        }
    }
}

/// Every matching pair `(i, j)`, `i < j`, sorted (the greedy player's "index order").
pub fn matches(cells: &[u8], cols: usize, rules: Rules, out: &mut Vec<(u32, u32)>) {
    out.clear();
    let mut next = None;
    // Walking backwards keeps the next digit in reading order at hand; each cell's
    // partners are pushed in decreasing order, so the list, reversed at the end, is
    // sorted without a sort (this runs at every position the search expands).
    for i in (0..cells.len()).rev() {
        if cells[i] == 0 {
            continue;
        }
        let mut found = [u32::MAX; 4];
        let mut len = 0;
        let mut push = |j: Option<usize>| {
            if let Some(j) = j {
                if compatible(cells[i], cells[j]) && !found[..len].contains(&(j as u32)) {
                    found[len] = j as u32;
                    len += 1;
                }
            }
        };
        push(next);
        push(first_digit(cells, i, cols, cols, 0));
        if rules == Rules::App {
            push(first_digit(cells, i, cols + 1, cols, 1));
            if cols > 1 {
                push(first_digit(cells, i, cols - 1, cols, -1));
            }
        }
        let found = &mut found[..len];
        found.sort_unstable_by(|a, b| b.cmp(a));
        out.extend(found.iter().map(|&j| (i as u32, j)));
        next = Some(i);
    }
    out.reverse();
}

/// Removes the rows that are all cleared (app rules), the short last row included.
pub fn remove_empty_rows(cells: &mut Vec<u8>, cols: usize) {
    let mut r = cells.len().div_ceil(cols);
    while r > 0 {
        r -= 1;
        let row = r * cols..((r + 1) * cols).min(cells.len());
        if cells[row.clone()].iter().all(|&d| d == 0) {
            cells.drain(row);
        }
    }
}

/// Clears `i` and `j`; under app rules, their rows disappear if that empties them.
pub fn play_match(cells: &mut Vec<u8>, cols: usize, rules: Rules, i: usize, j: usize) {
    cells[i] = 0;
    cells[j] = 0;
    if rules == Rules::App {
        // The later row first, so that the earlier one's indices stay valid.
        for r in [j / cols, i / cols] {
            let row = r * cols..((r + 1) * cols).min(cells.len());
            if row.start < cells.len() && cells[row.clone()].iter().all(|&d| d == 0) {
                cells.drain(row);
            }
            if i / cols == j / cols {
                break;
            }
        }
    }
}

/// Copies every remaining digit, in reading order, after the last cell.
pub fn play_add(cells: &mut Vec<u8>) {
    let len = cells.len();
    // In place, without a buffer of the digits: the search adds at millions of positions.
    for i in 0..len {
        if cells[i] != 0 {
            cells.push(cells[i]);
        }
    }
}

/// A 128-bit fingerprint of a position for the transposition table: two independent
/// 64-bit hashes of the packed cells (4 bits each), so that a false hit (which could
/// prune a winning line) needs a 128-bit collision.
///
/// Under the paper rules a row that is all cleared (a whole row, not the short last one)
/// changes nothing ahead — reading order and columns go through it and the next add
/// starts at the same column — so the key leaves such rows out, and positions that differ
/// only by them meet in the table.
pub fn key(cells: &[u8], cols: usize, rules: Rules, adds_left: u32) -> u128 {
    let mut a: u64 = 0x9E37_79B9_7F4A_7C15 ^ u64::from(adds_left);
    let mut b: u64 = 0xC2B2_AE3D_27D4_EB4F ^ (u64::from(adds_left) << 32);
    let mut word: u64 = 0;
    let mut n = 0u32;
    let mut feed = |word: u64| {
        a = (a ^ word).wrapping_mul(0x0100_0000_01B3).rotate_left(29).wrapping_add(0x632B_E59B_D9B4_E019);
        b = (b.rotate_left(17) ^ word).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    };
    let full_rows = cells.len() / cols;
    for (r, row) in cells.chunks(cols).enumerate() {
        if rules == Rules::Classic && r < full_rows && row.iter().all(|&d| d == 0) {
            continue;
        }
        for &d in row {
            word = word << 4 | u64::from(d);
            n += 1;
            if n % 16 == 0 {
                feed(word);
                word = 0;
            }
        }
    }
    feed(word ^ u64::from(n) << 48);
    (u128::from(mix(a)) << 64) | u128::from(mix(b ^ a.rotate_left(7)))
}

/// The SplitMix64 finaliser: spreads every input bit over the output.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(cells: &[u8], cols: usize, rules: Rules) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        matches(cells, cols, rules, &mut out);
        out
    }

    #[test]
    fn neighbours_follow_the_rules() {
        // 1 . 9
        // 5 . 5
        // 9 . .
        let cells = [1, 0, 9, 5, 0, 5, 9];
        // 1-9 in reading order through the cleared cell; 9 (0,2) and 5 (1,0) do not match;
        // 5-5 in a row; 1 (0,0) and 9 (2,0) down through the 5? no: 5 is in between.
        assert_eq!(pairs(&cells, 3, Rules::Classic), vec![(0, 2), (3, 5)]);
        // Diagonal: 1 (0,0) to nothing at (1,1), (2,2) is past the end; 9 (0,2) down-left
        // through (1,1) to 9 (2,0).
        assert_eq!(pairs(&cells, 3, Rules::App), vec![(0, 2), (2, 6), (3, 5)]);
    }

    #[test]
    fn diagonals_do_not_wrap() {
        // 1 2
        // 5 5
        // 8: 2 (0,1) down-right would wrap to 8 at (2,0) without the edge check.
        assert_eq!(pairs(&[1, 2, 5, 5, 8], 2, Rules::App), vec![(2, 3)]);
    }

    #[test]
    fn emptied_rows_disappear_under_app_rules_only() {
        let mut cells = vec![1, 1, 2, 3, 4];
        play_match(&mut cells, 2, Rules::App, 0, 1);
        assert_eq!(cells, vec![2, 3, 4]);
        let mut cells = vec![1, 1, 2, 3, 4];
        play_match(&mut cells, 2, Rules::Classic, 0, 1);
        assert_eq!(cells, vec![0, 0, 2, 3, 4]);
        play_add(&mut cells);
        assert_eq!(cells, vec![0, 0, 2, 3, 4, 2, 3, 4]);
    }

    #[test]
    fn cleared_rows_do_not_change_the_paper_key() {
        assert_eq!(key(&[0, 0, 2, 3, 4], 2, Rules::Classic, 0), key(&[2, 3, 4], 2, Rules::Classic, 0));
        assert_ne!(key(&[0, 0, 2, 3, 4], 2, Rules::App, 0), key(&[2, 3, 4], 2, Rules::App, 0));
        assert_ne!(key(&[2, 3, 4], 2, Rules::App, 1), key(&[2, 3, 4], 2, Rules::App, 0));
        assert_ne!(key(&[2, 3, 4, 0], 2, Rules::App, 0), key(&[2, 3, 4], 2, Rules::App, 0));
    }
}
