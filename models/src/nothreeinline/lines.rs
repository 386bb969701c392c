//! The lines of an n×n grid that pass through at least three grid points: the ones the
//! puzzle caps at two points. Rows and columns are left out, since the model already holds
//! each of them to exactly two points.
//!
//! A line is a direction `(dr, dc)` in lowest terms and a first point. Taking `dr > 0`
//! (or `dr = 0, dc = 1`) fixes the orientation, and the first point is the one whose
//! predecessor lies off the grid, so every line comes out exactly once.

/// A grid point `(row, column)`, 0-based.
pub(crate) type Point = (usize, usize);

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The slanted lines (neither rows nor columns) holding at least 3 points of the n×n grid,
/// each as its points in order.
pub(crate) fn slanted_lines(n: usize) -> Vec<Vec<Point>> {
    let mut lines = Vec::new();
    // Three points need two steps inside the grid: 2·|d| ≤ n − 1 on both axes.
    let reach = n.saturating_sub(1) / 2;
    for dr in 1..=reach {
        for dc in 1..=reach {
            if gcd(dr, dc) != 1 {
                continue;
            }
            for sign in [1isize, -1] {
                collect(n, dr, dc as isize * sign, &mut lines);
            }
        }
    }
    lines
}

/// Appends the lines of direction `(dr, dc)` with at least 3 points.
fn collect(n: usize, dr: usize, dc: isize, lines: &mut Vec<Vec<Point>>) {
    let inside = |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n;
    for r in 0..n as isize {
        for c in 0..n as isize {
            if inside(r - dr as isize, c - dc) {
                continue;
            }
            let mut line = Vec::new();
            let (mut pr, mut pc) = (r, c);
            while inside(pr, pc) {
                line.push((pr as usize, pc as usize));
                pr += dr as isize;
                pc += dc;
            }
            if line.len() >= 3 {
                lines.push(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// True when three points lie on one line (the cross product of their differences is 0).
    fn collinear(a: Point, b: Point, c: Point) -> bool {
        let d = |p: Point, q: Point| (q.0 as i64 - p.0 as i64, q.1 as i64 - p.1 as i64);
        let (u, v) = (d(a, b), d(a, c));
        u.0 * v.1 == u.1 * v.0
    }

    /// Every maximal set of collinear grid points of size ≥ 3 that is neither a row nor a
    /// column, found from all pairs of points: the definition, with no cleverness.
    fn brute_force(n: usize) -> BTreeSet<Vec<Point>> {
        let points: Vec<Point> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
        let mut lines = BTreeSet::new();
        for (i, &a) in points.iter().enumerate() {
            for &b in &points[i + 1..] {
                if a.0 == b.0 || a.1 == b.1 {
                    continue;
                }
                let line: Vec<Point> = points.iter().copied().filter(|&p| collinear(a, b, p)).collect();
                if line.len() >= 3 {
                    lines.insert(line);
                }
            }
        }
        lines
    }

    #[test]
    fn each_line_once_and_no_line_missing() {
        for n in 0..=9 {
            let mut found: Vec<Vec<Point>> = slanted_lines(n);
            for line in &mut found {
                line.sort_unstable();
            }
            let unique: BTreeSet<Vec<Point>> = found.iter().cloned().collect();
            assert_eq!(unique.len(), found.len(), "a line listed twice for n = {n}");
            assert_eq!(unique, brute_force(n), "n = {n}");
        }
    }
}
