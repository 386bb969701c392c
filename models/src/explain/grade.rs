//! The grade `cpsolve explain` prints: the engine's difficulty score on a scale people
//! know.
//!
//! The engine scores an explanation from its steps alone
//! ([`cpsolve_engine::explain::Difficulty`]): its costliest step (a direct step by how many
//! constraints it cites, a case split by how many values were left open, once the simple
//! patterns removed what they can, that no one-level case split refutes) plus a little for
//! each case split. The score means nothing by
//! itself; the grade maps it, increasing, onto Sukaku Explainer's scale for Sudoku (1.0 to
//! 11.9: singles up to 2.3, locked candidates and subsets to about 4, chains from about 6.5,
//! nested chains beyond 9). The map is piecewise linear through the points below, fitted on
//! the tuning set of `bench/grade/` (each point: the median score of a slice of Sudokus
//! ordered by score, and their mean published rating; `notes/grade.md` tells how, and how
//! well it ranks puzzles it was not fitted on). Every explained model gets a grade on the
//! same scale: for a model that is not a Sudoku it reads "about as hard as a Sudoku of this
//! grade, by the same measure".

/// (score, grade) points, both increasing. Below the first point the grade is 1.0; beyond
/// the last it is 11.9.
const POINTS: [(f64, f64); 15] = [
    (0.0, 1.0),
    (0.667, 1.2),
    (0.883, 2.3),
    (0.935, 3.0),
    // A score below 1 has no split: it stays at 3.0 (rounded), where the splits start.
    (1.0, 3.04),
    (1.231, 4.3),
    (1.366, 5.0),
    (4.749, 5.5),
    (5.102, 5.7),
    (5.278, 6.4),
    (5.509, 7.0),
    (5.761, 7.7),
    (6.002, 8.3),
    (6.372, 8.8),
    (8.5, 11.9),
];

/// The grade of a difficulty score, rounded to one decimal as it is printed.
pub fn grade(score: f64) -> f64 {
    let (first, last) = (POINTS[0], POINTS[POINTS.len() - 1]);
    let exact = if score <= first.0 {
        first.1
    } else if score >= last.0 {
        last.1
    } else {
        let k = POINTS.iter().position(|&(s, _)| s > score).expect("score below the last point");
        let ((s0, g0), (s1, g1)) = (POINTS[k - 1], POINTS[k]);
        g0 + (g1 - g0) * (score - s0) / (s1 - s0)
    };
    (exact * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_points_increase_and_the_grade_follows_the_score() {
        assert!(POINTS.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(grade(0.0), 1.0);
        assert_eq!(grade(-1.0), 1.0);
        assert_eq!(grade(100.0), 11.9);
        let mut last = 0.0;
        for k in 0..=900 {
            let g = grade(k as f64 / 100.0);
            assert!(g >= last && (1.0..=11.9).contains(&g));
            last = g;
        }
        // A naked single (three constraints) is an easy Sudoku; a split anywhere (it costs
        // at least 1) is past the singles' band (up to 2.3).
        assert!(grade(2.0 / 3.0) < 2.0);
        assert!(grade(1.0) >= 3.0);
        // However many constraints a direct step cites (its cost stays below 1), a
        // split-free explanation grades no more than 3.0.
        assert!(grade(0.999) <= 3.0);
    }
}
