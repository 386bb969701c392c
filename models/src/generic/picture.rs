//! The picture of a generic model's solution: its board, when it has one.
//!
//! The board is the array the model's `given` grid fills (Sudoku, Hidato), or else its first
//! 2-d array of variables (Futoshiki, Kakuro, a magic square, a nonogram). Given cells show
//! their value in ink on grey; found ones in blue on white. An array of 0/1 cells (a
//! nonogram) is drawn as filled squares rather than digits.
//!
//! Box borders come from the model itself, not from the grid's size: the all-different
//! constraints whose cells form a rectangle of the board other than a whole row or column
//! are its regions (Sudoku's 3×3 boxes), and when such rectangles tile the whole board
//! their borders are drawn thick. A 4×4 magic square gets no 2×2 boxes; a Sudoku whose boxes
//! are 2×3 gets 2×3 boxes.

use std::collections::{HashMap, HashSet};

use cpsolve_engine::{Val, VarId};

use super::env::{DomainSpec, Env};
use crate::picture::{colour, Anchor, Canvas, CELL, MARGIN};
use crate::problem::Record;

/// Boards with more cells than this are not drawn (the text output lists them).
const MAX_CELLS: usize = 10_000;
/// The largest board side, in user units.
const MAX_SIDE: f64 = 800.0;

/// A rectangle of cells: first row, first column, rows, columns.
type Rect = (usize, usize, usize, usize);

/// The board of a model: which cells of the record it shows, in rows.
#[derive(Debug, Clone)]
pub(crate) struct Board {
    name: String,
    rows: usize,
    columns: usize,
    /// Where the board's cells start in the record (row-major).
    start: usize,
    given: Vec<bool>,
    boxes: Vec<Rect>,
    /// All cells 0/1: drawn filled or empty.
    binary: bool,
}

impl Board {
    /// The board of the model, if it has one. `start_of(id)` is where array `id` starts in
    /// the record; `given` are the cells fixed by `given` grids; `regions` the scopes of the
    /// all-different constraints.
    pub(crate) fn find(
        env: &Env,
        start_of: &dyn Fn(usize) -> Option<usize>,
        given: &HashSet<VarId>,
        regions: &[Vec<VarId>],
    ) -> Option<Board> {
        let searched = |id: usize| env.arrays[id].values.is_none() && start_of(id).is_some();
        let id = (0..env.arrays.len())
            .find(|&id| searched(id) && env.arrays[id].cells.iter().any(|x| given.contains(x)))
            .or_else(|| (0..env.arrays.len()).find(|&id| searched(id) && env.arrays[id].shape.dims.len() == 2))?;
        let array = &env.arrays[id];
        let cells = array.cells.len();
        if cells == 0 || cells > MAX_CELLS {
            return None;
        }
        let d = array.shape.dims.len();
        let columns = array.shape.extent(d - 1) as usize;
        let rows = cells / columns;
        let given: Vec<bool> = array.cells.iter().map(|x| given.contains(x)).collect();
        let position: HashMap<VarId, usize> = array.cells.iter().enumerate().map(|(k, &x)| (x, k)).collect();
        let boxes = boxes(rows, columns, &position, regions);
        let binary = match &array.domain {
            DomainSpec::Range(lo, hi) => *lo >= 0 && *hi <= 1,
            DomainSpec::Set(values) => values.iter().all(|&v| v == 0 || v == 1),
        };
        Some(Board { name: array.name.clone(), rows, columns, start: start_of(id)?, given, boxes, binary })
    }

    pub(crate) fn draw(&self, record: &Record) -> Canvas {
        let cell = CELL.min(MAX_SIDE / self.rows.max(self.columns) as f64);
        let (width, height) = (self.columns as f64 * cell, self.rows as f64 * cell);
        let mut canvas = Canvas::new(width + 2.0 * MARGIN, height + 2.0 * MARGIN);
        canvas.set_title(&self.name);
        let values = &record[self.start..self.start + self.rows * self.columns];
        let longest = values.iter().map(|v| v.to_string().chars().count()).max().unwrap_or(1);
        // Digits fill about half a cell; long numbers shrink to fit.
        let size = (cell * 0.55).min(cell * 1.5 / longest as f64).round();
        for (k, &value) in values.iter().enumerate() {
            let (x, y) = (MARGIN + (k % self.columns) as f64 * cell, MARGIN + (k / self.columns) as f64 * cell);
            let given = self.given[k];
            let (class, ink) = if given { ("given", colour::INK) } else { ("found", colour::FOUND) };
            let background = if given { colour::GIVEN_CELL } else { colour::BACKGROUND };
            canvas.rect("cell", x, y, cell, cell, background, Some((colour::GRID, 0.5)));
            if self.binary {
                if value == 1 {
                    let inset = cell * 0.08;
                    let side = cell - 2.0 * inset;
                    canvas.rect(&format!("filled {class}"), x + inset, y + inset, side, side, ink, None);
                }
            } else {
                canvas.text(
                    &format!("value {class}"),
                    x + cell / 2.0,
                    y + cell / 2.0,
                    size,
                    Anchor::Middle,
                    ink,
                    &show(value),
                );
            }
        }
        for &(row, column, rows, columns) in &self.boxes {
            let (x, y) = (MARGIN + column as f64 * cell, MARGIN + row as f64 * cell);
            canvas.add(
                svg::node::element::Rectangle::new()
                    .set("class", "box")
                    .set("x", x)
                    .set("y", y)
                    .set("width", columns as f64 * cell)
                    .set("height", rows as f64 * cell)
                    .set("fill", "none")
                    .set("stroke", colour::INK)
                    .set("stroke-width", 2.5),
            );
        }
        canvas.add(
            svg::node::element::Rectangle::new()
                .set("class", "border")
                .set("x", MARGIN)
                .set("y", MARGIN)
                .set("width", width)
                .set("height", height)
                .set("fill", "none")
                .set("stroke", colour::INK)
                .set("stroke-width", 2.5),
        );
        canvas
    }
}

fn show(value: Val) -> String {
    // A true minus sign reads better than a hyphen.
    if value < 0 {
        format!("−{}", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

/// The regions of the board: the all-different scopes that are rectangles of it, neither a
/// whole row nor a whole column, when they tile the board exactly; otherwise none.
fn boxes(rows: usize, columns: usize, position: &HashMap<VarId, usize>, regions: &[Vec<VarId>]) -> Vec<Rect> {
    let mut found: Vec<Rect> = Vec::new();
    for scope in regions {
        let Some(cells) = scope.iter().map(|x| position.get(x).copied()).collect::<Option<Vec<usize>>>() else {
            continue;
        };
        if cells.len() < 2 {
            continue;
        }
        let (rs, cs): (Vec<usize>, Vec<usize>) = cells.iter().map(|&k| (k / columns, k % columns)).unzip();
        let (r0, r1) = (*rs.iter().min().unwrap_or(&0), *rs.iter().max().unwrap_or(&0));
        let (c0, c1) = (*cs.iter().min().unwrap_or(&0), *cs.iter().max().unwrap_or(&0));
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let mut distinct = cells.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let is_rectangle = distinct.len() == h * w;
        let is_line = h == 1 || w == 1;
        if is_rectangle && !is_line && !found.contains(&(r0, c0, h, w)) {
            found.push((r0, c0, h, w));
        }
    }
    let mut covered = vec![0u32; rows * columns];
    for &(r0, c0, h, w) in &found {
        for r in r0..r0 + h {
            for c in c0..c0 + w {
                covered[r * columns + c] += 1;
            }
        }
    }
    if found.len() < 2 || covered.iter().any(|&n| n != 1) {
        return Vec::new();
    }
    found.sort_unstable();
    found
}
