//! The guess, when nothing is certain and the end-game search does not apply. The cells
//! of isolated components left for later (`bot.rs`) are no candidates.
//!
//! First an unavoidable 50/50 (two cells no future number can tell apart) is taken at
//! once, then a cell that is safe or else half of a forming 50/50 (`fifty.rs`).
//! Otherwise the candidates are the cells whose safety is within 10% of the best
//! (off the frontier, where all cells are alike, only the few most likely to show a
//! zero), each weighed by an exact look-ahead: for each number it may show, the position
//! with that number is analysed (`P(safe, shows v)` is the ratio of its layouts to the
//! current ones). The score is the two-move safety (surviving this guess and the next
//! move, the best two next moves blended 4:1) plus a small weight for progress (the number
//! proves safe a cell that will tell something), raised by the candidate's 50/50
//! influence (the layouts where it will have to be risked at one half anyway). A dead
//! candidate (it can show only one number) comes last, and a cell that is safe whenever
//! the choice is safe, but safer, replaces it.

use num_bigint::BigUint;
use num_traits::Zero;

use super::analysis::{analyse, ratio, Analysis, Verdict};
use super::fifty::{self, Influence};
use super::grid::{Board, Cell};

/// Candidates are the cells whose safety is at least this fraction of the best one's.
/// Measured on 6,000 expert games each (paired, same games), against the old window of
/// mine probabilities within 15% of the lowest: +0.6 to +0.8 points; 0.95 lost 0.45
/// points to 0.9, and 0.8 or 0.7 (with 40 or 60 candidates) about 0.2, within noise.
const NEAR_BEST_SAFETY: f64 = 0.9;
/// At most this many candidates are weighed (each costs up to 9 analyses; the safest
/// first, and the weighing stops once no candidate left can beat the best score).
const MAX_CANDIDATES: usize = 20;
/// Off-frontier cells are interchangeable for safety: only this many are weighed, the
/// ones with fewest covered neighbours (corners, then edges: most likely to show a 0).
/// Preferring cells two steps from a number instead lost 0.4 points on 6,000 games.
const MAX_OUTSIDE: usize = 3;
/// Weight of the best next move against the second best in a position's next-move safety.
const BEST_OF_TWO: f64 = 0.8;
/// Weight of progress against safety in a candidate's score (0 and 0.3 both lost about
/// 0.35 points to 0.1 on 6,000 expert games).
const PROGRESS_WEIGHT: f64 = 0.1;

/// The cell to reveal: a forced 50/50 if there is one, else a cell that is a forming
/// 50/50 or safe, else the best candidate.
/// Cells in `later` are not candidates: they are better guessed after the rest (one may
/// still be played as a safer cell that the choice implies: safe whenever it is).
pub(super) fn choose(board: &Board, a: &Analysis, later: &[usize]) -> Option<usize> {
    let mut influence = Influence::new(board, a);
    forced_coin_flip(board, a)
        .or_else(|| influence.coin_flip_or_safe())
        .or_else(|| best_candidate(board, a, later, &mut influence))
}

/// A cell of an unavoidable 50/50: two covered cells holding exactly one mine in every
/// layout, whose other neighbours (flags aside) are the same cells, so no number ever
/// revealed can tell them apart. One of them must be guessed some day; guessing now
/// loses nothing, and the number shown (or the game's end) comes sooner.
fn forced_coin_flip(board: &Board, a: &Analysis) -> Option<usize> {
    let half = |i: usize| a.mine_weight[i].as_ref().is_some_and(|w| w * 2u32 == a.total);
    let others = |i: usize, j: usize| {
        let mut n: Vec<usize> = board.neighbours(i).filter(|&k| k != j && board.cells[k] != Cell::Flag).collect();
        n.sort_unstable();
        n
    };
    for i in (0..board.cells.len()).filter(|&i| board.cells[i] == Cell::Covered && half(i)) {
        let twins = board
            .neighbours(i)
            .filter(|&j| j > i && board.cells[j] == Cell::Covered && half(j))
            .filter(|&j| others(i, j) == others(j, i));
        for j in twins {
            // Never both mines; then, each a mine in half the layouts, never both safe.
            let mut both = board.clone();
            both.cells[i] = Cell::Flag;
            both.cells[j] = Cell::Flag;
            let b = analyse(&both, &crate::Deadline::never());
            if b.verdict == Verdict::Impossible || (b.verdict == Verdict::Exact && b.total.is_zero()) {
                return Some(i);
            }
        }
    }
    None
}

/// What a candidate promises.
#[derive(Debug, Clone)]
struct Promise {
    /// Surviving this guess and the next move (the best two next moves blended 4:1).
    survive: f64,
    /// Being safe and proving safe a cell that will tell something (a new mine, or a safe
    /// cell with no uncertain neighbour, is no progress).
    progress: f64,
    /// When safe, it can show only one number: it teaches nothing but its own safety.
    dead: bool,
    /// Cells safe whenever this one is (ascending).
    implied_safe: Vec<usize>,
}

/// What revealing `cell` promises, over the numbers it may show: two-move safety (each
/// number's position scored by [`next_move_safety`]), progress, and the cells its safety
/// implies.
fn look_ahead(board: &Board, a: &Analysis, cell: usize) -> Promise {
    let mut trial = board.clone();
    let (mut survive, mut progress, mut values) = (0.0, 0.0, 0);
    let mut implied_safe: Option<Vec<usize>> = None;
    let room = board.neighbours(cell).filter(|&j| matches!(board.cells[j], Cell::Covered | Cell::Flag)).count();
    for v in 0..=room.min(8) {
        trial.cells[cell] = Cell::Open(v as u8);
        let b = analyse(&trial, &crate::Deadline::never());
        if b.verdict != Verdict::Exact || b.total.is_zero() {
            continue;
        }
        values += 1;
        implied_safe = Some(match implied_safe {
            None => b.safe.clone(),
            Some(s) => s.into_iter().filter(|c| b.safe.binary_search(c).is_ok()).collect(),
        });
        let p = ratio(&b.total, &a.total);
        // A new mine alone moves nothing: flagging it changes no probability, so the next
        // reveal is still a guess. Nor does a safe cell with no uncertain neighbour: the
        // number it will show is known, it teaches nothing. Only none, one, or two and more
        // such cells matter to the score.
        let teaches = |s: usize| board.neighbours(s).any(|j| b.uncertain_weight(j).is_some());
        let teaching = b.safe.iter().filter(|&&s| teaches(s)).take(2).count();
        if teaching > 0 {
            progress += p;
        }
        survive += p * next_move_safety(&b, teaching);
    }
    Promise { survive, progress, dead: values == 1, implied_safe: implied_safe.unwrap_or_default() }
}

/// The safety of the next move in a position with `teaching` safe cells worth revealing
/// (counted up to 2): the best two next moves blended 4:1 (a safe one counts 1), so that a
/// position whose best move is much better than the second is worth a little less
/// (DavidNHill's blend). A single move left (possible only without a total number of
/// mines) counts alone; a position with no uncertain cell left is won.
fn next_move_safety(b: &Analysis, teaching: usize) -> f64 {
    if teaching >= 2 {
        return 1.0;
    }
    // The two lowest risks among the uncertain cells, found on the exact mine weights and
    // converted to floats once.
    let mut low: [Option<&BigUint>; 2] = [None, None];
    for w in (0..b.mine_weight.len()).filter_map(|i| b.uncertain_weight(i)) {
        if low[0].is_none_or(|l| w < l) {
            low = [Some(w), low[0]];
        } else if low[1].is_none_or(|l| w < l) {
            low[1] = Some(w);
        }
    }
    let uncertain = low.into_iter().flatten().map(|w| 1.0 - ratio(w, &b.total));
    let mut best = std::iter::repeat_n(1.0, teaching).chain(uncertain);
    match (best.next(), best.next()) {
        (None, _) => 1.0,
        (Some(first), None) => first,
        (Some(first), Some(second)) => BEST_OF_TWO * first + (1.0 - BEST_OF_TWO) * second,
    }
}

/// (mine probability, cell): lowest probability first, then lowest cell (deterministic).
fn safest_first(x: &(f64, usize), y: &(f64, usize)) -> std::cmp::Ordering {
    x.0.total_cmp(&y.0).then(x.1.cmp(&y.1))
}

fn covered_neighbours(board: &Board, i: usize) -> usize {
    board.neighbours(i).filter(|&j| board.cells[j] == Cell::Covered).count()
}

/// The candidates, safest first.
fn candidates(board: &Board, a: &Analysis, later: &[usize]) -> Vec<(f64, usize)> {
    let mut cells: Vec<(f64, usize)> = (0..board.cells.len())
        .filter(|&i| board.cells[i] == Cell::Covered && !later.contains(&i))
        .filter_map(|i| a.probability(i).map(|p| (p, i)))
        .collect();
    cells.sort_by(safest_first);
    let Some(&(best, _)) = cells.first() else { return cells };
    let limit = 1.0 - (1.0 - best) * NEAR_BEST_SAFETY;
    // A cell is off-frontier when no revealed number touches it.
    let outside = |i: usize| board.neighbours(i).all(|j| !matches!(board.cells[j], Cell::Open(_)));
    let (mut out, inside): (Vec<_>, Vec<_>) =
        cells.into_iter().filter(|(p, _)| *p <= limit).partition(|&(_, i)| outside(i));
    out.sort_by_key(|&(_, i)| (covered_neighbours(board, i), i));
    out.truncate(MAX_OUTSIDE);
    let mut near: Vec<(f64, usize)> = inside.into_iter().chain(out).collect();
    near.sort_by(safest_first);
    near.truncate(MAX_CANDIDATES);
    near
}

/// The candidate with the best mix of safety and progress (live before dead), or a
/// safer cell it implies.
fn best_candidate(board: &Board, a: &Analysis, later: &[usize], influence: &mut Influence) -> Option<usize> {
    let near = candidates(board, a, later);
    if near.len() <= 1 {
        return near.first().map(|&(_, i)| i);
    }
    // (dead, score, cell, cells implied safe). A score is at most f × (1 + w) × safety
    // for a 50/50 factor f: a candidate is skipped when that cannot beat a live best, and
    // the weighing (safest first) stops when the largest factor cannot either.
    let mut chosen: Option<(bool, f64, usize, Vec<usize>)> = None;
    for &(p, i) in &near {
        let beaten =
            |f: f64| matches!(chosen, Some((false, score, ..)) if (1.0 - p) * f * (1.0 + PROGRESS_WEIGHT) <= score);
        if beaten(fifty::MAX_FACTOR) {
            break;
        }
        let factor = influence.factor(i);
        if beaten(factor) {
            continue;
        }
        let promise = look_ahead(board, a, i);
        let score = factor * (promise.survive + PROGRESS_WEIGHT * promise.progress);
        let better = match &chosen {
            None => true,
            Some((dead, best, ..)) => (*dead && !promise.dead) || (*dead == promise.dead && score > *best),
        };
        if better {
            chosen = Some((promise.dead, score, i, promise.implied_safe));
        }
    }
    let (_, _, cell, implied) = chosen?;
    // A cell safe whenever the choice is, and safer: revealing it first risks less and
    // keeps the choice open.
    let p = a.probability(cell)?;
    let safer = implied
        .iter()
        .filter(|&&j| j != cell)
        .filter_map(|&j| a.probability(j).map(|q| (q, j)))
        .filter(|&(q, _)| q < p - 1e-9)
        .min_by(safest_first);
    Some(safer.map_or(cell, |(_, j)| j))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-row board: `c` covered, `f` flagged.
    fn row(cells: &str, mines: usize) -> Board {
        let cells: Vec<Cell> = cells.chars().map(|c| if c == 'f' { Cell::Flag } else { Cell::Covered }).collect();
        Board { width: cells.len(), height: 1, cells, mines: Some(mines) }
    }

    fn survive(board: &Board, cell: usize) -> f64 {
        look_ahead(board, &analyse(board, &crate::Deadline::never()), cell).survive
    }

    #[test]
    fn a_reveal_that_leaves_only_mines_wins() {
        // Safe in half the layouts, and then the other cell is the last mine.
        assert!((survive(&row("cc", 1), 0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_number_that_proves_only_a_mine_leaves_a_guess() {
        // Ten layouts, six with cell 0 safe. Showing 1 (3 of 10): cell 1 is a mine and one
        // of cells 2, 3, 4 another, a guess at 1/3 whichever is taken. Showing 0 (3 of 10):
        // cell 1 is safe and will tell about cell 2; the second best move is then a guess at
        // 2/3 (two mines among cells 2, 3, 4), blended in at 1/5.
        let board = row("ccccc", 2);
        let promise = look_ahead(&board, &analyse(&board, &crate::Deadline::never()), 0);
        let expected = 0.3 * (2.0 / 3.0) + 0.3 * (0.8 * 1.0 + 0.2 * (1.0 / 3.0));
        assert!((promise.survive - expected).abs() < 1e-12, "{}", promise.survive);
        assert!((promise.progress - 0.3).abs() < 1e-12, "{}", promise.progress);
    }

    #[test]
    fn a_safe_cell_that_teaches_nothing_is_no_free_move() {
        // One mine among cells 0, 1, 3, 4. Showing 0 (2 of 4): cell 1 is safe but borders only
        // the flag, and cells 3, 4 stay a coin flip. Showing 1 (1 of 4): the game is won.
        let board = row("ccfcc", 2);
        let promise = look_ahead(&board, &analyse(&board, &crate::Deadline::never()), 0);
        assert!((promise.survive - 0.5).abs() < 1e-12, "{}", promise.survive);
        assert_eq!(promise.progress, 0.0);
    }
}
