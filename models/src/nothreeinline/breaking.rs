//! Symmetry-breaking cuts for `symmetry = distinct`: necessary conditions for a solution to
//! be the representative of its class, so the search skips most other members and the
//! filter ([`super::view`]) still has the last word. The count stays exact because the
//! representative always satisfies every cut.
//!
//! The representative is the solution whose sorted point list is smallest, so its first
//! point `(0, c₀)` (row 0 always holds two points) comes no later than the first point of
//! any image. The first row of an image is the image of row 0, of row n−1, of column 0 or
//! of column n−1; each gives cuts of the form "a point at `p` forces a point of row 0 in
//! columns `0..=k`", that is `x[p] ≤ Σ_{c≤k} x[0][c]`.

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{Rel, Solver, VarId};

use super::lines::Point;

/// Posts the cuts on the cell variables `cell(r, c)`.
pub(super) fn post(solver: &mut Solver, n: usize, cell: &impl Fn(Point) -> VarId) {
    if n < 2 {
        return;
    }
    let m = n - 1;
    // Mirror left-right keeps row 0 and reverses it: c₀ ≤ m − c₁, i.e. c₀ + c₁ ≤ m.
    let row0: Vec<(i64, VarId)> = (0..n).map(|c| (c as i64, cell((0, c)))).collect();
    linear(solver, &row0, Rel::Le, m as i64).expect("small coefficients");
    for a in 0..n {
        // The point `p` that becomes the first point of an image, and the column bound k.
        let cuts = [
            ((m, a), a),     // mirror top-bottom: row m becomes row 0
            ((m, a), m - a), // rotation by 180°: row m, reversed
            ((a, 0), a),     // transpose: column 0 becomes row 0
            ((a, 0), m - a), // rotation by 90°: column 0, reversed
            ((a, m), a),     // rotation by 270°: column m
            ((a, m), m - a), // anti-transpose: column m, reversed
        ];
        for (p, k) in cuts {
            let mut terms: Vec<(i64, VarId)> = (0..=k).map(|c| (-1, cell((0, c)))).collect();
            terms.push((1, cell(p)));
            linear(solver, &terms, Rel::Le, 0).expect("small coefficients");
        }
    }
}
