//! Move generation on a bitboard: the matches of a grid of at most 64 cells, from 64-bit
//! words instead of cell-by-cell scans.
//!
//! A grid of up to 64 cells is one word per question: bit `i` of `occupied` says whether
//! cell `i` holds a digit, and `by_digit[d]` which cells hold `d`. The first digit met
//! from cell `i` in one direction is then the lowest set bit of `occupied` masked by that
//! direction's *ray* from `i`, the cells the direction passes through:
//! - reading order: every cell after `i`. Rows are stored one after the other, so this
//!   crosses row ends by itself; the grid's end is the end of `occupied`;
//! - down a column: `i + cols`, `i + 2 cols`, ...;
//! - down-right and down-left (app rules): `i + k (cols ± 1)` while the column stays on
//!   the grid (a diagonal stops at the edge, it never wraps).
//!
//! All directions look forward (to higher indices), so the nearest digit is always the
//! *lowest* set bit, and each pair is found once, from its first cell. The rays depend
//! only on `cols`, and are computed once per search ([`Rays::new`]); the words are built
//! once per position, by one pass over its cells.
//!
//! A digit's partners among those (at most four) are the ones that match it: a mask of
//! the cells holding the same digit or its complement to 10. Cells are taken in
//! increasing order and each one's partners come out of its partner mask in increasing
//! order, so the list is sorted (index order) as it is built: the same list, in the same
//! order, as [`rules::matches`], which grids of more than 64 cells still use.

use super::rules::{self, Rules};

/// The most cells a grid may have to be read from one word.
pub const MAX_CELLS: usize = 64;

/// The rays of every cell of a grid `cols` wide (up to [`MAX_CELLS`] cells).
#[derive(Debug, Clone)]
pub struct Rays {
    cols: usize,
    down: [u64; MAX_CELLS],
    down_right: [u64; MAX_CELLS],
    down_left: [u64; MAX_CELLS],
}

/// The cells reached from `i` in steps of `step`, the column moving by `dc` at each step,
/// until the grid's edge or the last cell a word holds.
fn ray(i: usize, cols: usize, step: usize, dc: isize) -> u64 {
    let mut mask = 0;
    let (mut j, mut c) = (i, (i % cols) as isize);
    loop {
        c += dc;
        j += step;
        if c < 0 || c >= cols as isize || j >= MAX_CELLS {
            return mask;
        }
        mask |= 1 << j;
    }
}

impl Rays {
    pub fn new(cols: usize) -> Self {
        assert!(cols > 0);
        let mut rays = Rays { cols, down: [0; MAX_CELLS], down_right: [0; MAX_CELLS], down_left: [0; MAX_CELLS] };
        for i in 0..MAX_CELLS {
            rays.down[i] = ray(i, cols, cols, 0);
            rays.down_right[i] = ray(i, cols, cols + 1, 1);
            // One column: no down-left diagonal (and `cols - 1` would be a step of 0).
            rays.down_left[i] = if cols > 1 { ray(i, cols, cols - 1, -1) } else { 0 };
        }
        rays
    }

    /// Every matching pair `(i, j)`, `i < j`, sorted: the same list as [`rules::matches`].
    pub fn matches(&self, cells: &[u8], rules: Rules, out: &mut Vec<(u32, u32)>) {
        if cells.len() > MAX_CELLS {
            rules::matches(cells, self.cols, rules, out);
            return;
        }
        out.clear();
        let mut by_digit = [0u64; 10];
        for (i, &d) in cells.iter().enumerate() {
            by_digit[usize::from(d)] |= 1 << i;
        }
        let occupied = by_digit[1..].iter().fold(0, |all, &m| all | m);
        let diagonals = rules == Rules::App;
        let mut left = occupied;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            // Every cell after `i` in reading order (none after the 64th).
            let after = !((1u64 << i) | ((1u64 << i) - 1));
            let mut near = lowest(occupied & after) | lowest(occupied & self.down[i]);
            if diagonals {
                near |= lowest(occupied & self.down_right[i]) | lowest(occupied & self.down_left[i]);
            }
            let d = usize::from(cells[i]);
            let mut partners = near & (by_digit[d] | by_digit[10 - d]);
            while partners != 0 {
                out.push((i as u32, partners.trailing_zeros()));
                partners &= partners - 1;
            }
        }
    }
}

/// The lowest set bit of `m` alone (0 if none).
fn lowest(m: u64) -> u64 {
    m & m.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_edges_and_at_the_last_cell() {
        let rays = Rays::new(3);
        // 0 1 2
        // 3 4 5
        // 6 7 8 ...
        assert_eq!(rays.down[1] & 0x1FF, 1 << 4 | 1 << 7);
        assert_eq!(rays.down_right[0] & 0x1FF, 1 << 4 | 1 << 8);
        assert_eq!(rays.down_right[2], 0);
        assert_eq!(rays.down_left[2] & 0x1FF, 1 << 4 | 1 << 6);
        assert_eq!(rays.down_left[3], 0);
        assert_eq!(rays.down[63], 0);
        assert_eq!(Rays::new(1).down_left[5], 0);
        assert_eq!(Rays::new(64).down[0], 0);
    }
}
