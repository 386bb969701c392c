//! The picture of a no-three-in-line placement: the n×n grid of points, a disc on each
//! chosen point, and the *full lines*: every slanted line through three or more grid points
//! that already holds two chosen points, so no third may join it. Each full line is drawn
//! faintly across the grid, and along each one exactly two discs can be seen: that is the
//! rule, made visible line by line. Rows and columns are not drawn: each holds exactly two
//! points by construction.
//!
//! Lines through all pairs would be drawn too (190 pairs at n = 10, 1,770 at n = 30) and
//! turn the board grey; the full lines are fewer, and still cover the board beyond n = 12,
//! so larger grids show the points only.

use super::lines::{slanted_lines, Point};
use crate::picture::{colour, Canvas, CELL, MARGIN};

/// Above this side the full lines are not drawn (too many to read).
const MAX_LINES_SIDE: usize = 12;
/// The largest grid side, in user units.
const MAX_SIDE: f64 = 800.0;

pub(super) fn draw(n: usize, points: &[Point]) -> Canvas {
    let cell = CELL.min(MAX_SIDE / n.max(1) as f64);
    let side = cell * n as f64;
    let mut canvas = Canvas::new(side + 2.0 * MARGIN, side + 2.0 * MARGIN);
    canvas.set_title(&format!("no three in line, n = {n}"));
    let centre = |(row, column): Point| (MARGIN + (column as f64 + 0.5) * cell, MARGIN + (row as f64 + 0.5) * cell);
    canvas.rect("board", MARGIN, MARGIN, side, side, colour::BACKGROUND, Some((colour::INK, 1.0)));
    for i in 1..n {
        let at = MARGIN + i as f64 * cell;
        canvas.line("grid", (at, MARGIN), (at, MARGIN + side), colour::GRID, 0.5);
        canvas.line("grid", (MARGIN, at), (MARGIN + side, at), colour::GRID, 0.5);
    }
    if n <= MAX_LINES_SIDE {
        for line in slanted_lines(n) {
            let held = line.iter().filter(|p| points.binary_search(p).is_ok()).count();
            if held == 2 {
                let (first, last) = (line[0], line[line.len() - 1]);
                canvas.line("full-line", centre(first), centre(last), colour::WARNING, 1.0);
            }
        }
    }
    for &point in points {
        canvas.circle("point", centre(point), cell * 0.3, colour::FOUND);
    }
    canvas
}
