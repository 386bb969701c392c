//! The bitboard move generation (`bitboard.rs`) finds exactly the matches of the scans of
//! `rules.rs`, in the same order: the search tries matches in that order, so the same
//! list is what keeps the optimal line it returns the same.
//!
//! Two kinds of seeded random positions, under both rules:
//! - boards drawn cell by cell: widths 1 to 64, 1 to 80 cells (past 64 the generator
//!   falls back on the scans), many or few cleared cells, all nine digits or only a few
//!   (more matches, and more of them through long runs of cleared cells);
//! - positions met while playing random games: random matches and adds from a full grid,
//!   so rows vanish (app rules) and the layout shifts under the cells that stay.

use cpsolve_puzzles::numbermatch::bitboard::{Rays, MAX_CELLS};
use cpsolve_puzzles::numbermatch::rules::{matches, play_add, play_match, remove_empty_rows, Rules};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

const WIDTHS: [usize; 14] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 16, 31, 64];

/// Random cells: about one in `hole` cleared (0: none), digits from `digits`.
fn board(rng: &mut Rng, n: usize, hole: u64, digits: &[u8]) -> Vec<u8> {
    (0..n)
        .map(|_| if hole > 0 && rng.below(hole) == 0 { 0 } else { digits[rng.below(digits.len() as u64) as usize] })
        .collect()
}

/// Compares the two generators on `cells`; returns the number of pairs.
fn assert_same_matches(rays: &Rays, cells: &[u8], cols: usize, rules: Rules) -> usize {
    let (mut scanned, mut from_bits) = (Vec::new(), Vec::new());
    matches(cells, cols, rules, &mut scanned);
    rays.matches(cells, rules, &mut from_bits);
    assert_eq!(from_bits, scanned, "{rules:?}, {cols} columns: {cells:?}");
    scanned.len()
}

/// What the pairs compared were: enough of them, and of every kind the generator finds.
#[derive(Default)]
struct Seen {
    pairs: usize,
    /// Neighbours in reading order across a row end.
    across_rows: usize,
    /// Pairs of a board of at most 64 cells (the bitboard's own).
    on_a_word: usize,
}

impl Seen {
    fn count(&mut self, rays: &Rays, cells: &[u8], cols: usize, rules: Rules) {
        let n = assert_same_matches(rays, cells, cols, rules);
        self.pairs += n;
        if cells.len() <= MAX_CELLS {
            self.on_a_word += n;
        }
        let mut pairs = Vec::new();
        matches(cells, cols, rules, &mut pairs);
        self.across_rows += pairs
            .iter()
            .filter(|&&(i, j)| {
                let (i, j) = (i as usize, j as usize);
                i / cols != j / cols && j - i != cols && cells[i + 1..j].iter().all(|&d| d == 0)
            })
            .count();
    }
}

#[test]
fn random_boards_give_the_same_matches_in_the_same_order() {
    let mut rng = Rng(20);
    let mut seen = Seen::default();
    let alphabets: [&[u8]; 4] = [&[1, 2, 3, 4, 5, 6, 7, 8, 9], &[1, 9, 5], &[2, 3], &[4, 6, 6, 1]];
    for round in 0..30_000 {
        let cols = WIDTHS[round % WIDTHS.len()];
        let n = 1 + rng.below(80) as usize;
        let hole = [0, 2, 3, 5, 9][round % 5];
        let digits = alphabets[(round / 5) % alphabets.len()];
        let mut cells = board(&mut rng, n, hole, digits);
        let rays = Rays::new(cols);
        seen.count(&rays, &cells, cols, Rules::Classic);
        seen.count(&rays, &cells, cols, Rules::App);
        remove_empty_rows(&mut cells, cols);
        seen.count(&rays, &cells, cols, Rules::App);
    }
    assert!(seen.on_a_word > 100_000 && seen.across_rows > 5_000, "{} {}", seen.on_a_word, seen.across_rows);
}

#[test]
fn positions_of_random_games_give_the_same_matches_in_the_same_order() {
    let mut rng = Rng(35);
    let mut seen = Seen::default();
    let mut positions = 0;
    for round in 0..1_500 {
        let cols = [9, 9, 3, 4, 5, 7, 2, 8][round % 8];
        let rules = if round % 4 == 3 { Rules::Classic } else { Rules::App };
        let n = 10 + rng.below(40) as usize;
        let mut cells = board(&mut rng, n, 0, &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let rays = Rays::new(cols);
        let mut adds = 2;
        let mut pairs = Vec::new();
        while cells.iter().any(|&d| d != 0) && cells.len() <= 2 * MAX_CELLS {
            seen.count(&rays, &cells, cols, rules);
            positions += 1;
            matches(&cells, cols, rules, &mut pairs);
            if pairs.is_empty() || (adds > 0 && rng.below(12) == 0) {
                if adds == 0 {
                    break;
                }
                adds -= 1;
                play_add(&mut cells);
            } else {
                let (i, j) = pairs[rng.below(pairs.len() as u64) as usize];
                play_match(&mut cells, cols, rules, i as usize, j as usize);
            }
        }
    }
    assert!(positions > 15_000 && seen.on_a_word > 100_000, "{positions} {}", seen.on_a_word);
}
