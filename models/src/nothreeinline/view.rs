//! Showing a no-three-in-line placement: the grid, and the points as `[row, col]` pairs.

use cpsolve_engine::VarId;
use serde_json::{json, Value};

use super::lines::Point;
use super::symmetry;
use crate::picture::Canvas;
use crate::problem::{Record, SolutionView};

#[derive(Debug)]
pub(super) struct NoThreeView {
    pub(super) n: usize,
    /// One variable per cell, row by row; with a rotational option the cells of an orbit
    /// share one.
    pub(super) cells: Vec<VarId>,
    /// Only placements that are the smallest of their symmetry class are solutions.
    pub(super) distinct: bool,
}

impl NoThreeView {
    /// The points, sorted (row-major order already is).
    fn points(&self, record: &Record) -> Vec<Point> {
        (0..self.n * self.n).filter(|&i| record[i] == 1).map(|i| (i / self.n, i % self.n)).collect()
    }
}

impl SolutionView for NoThreeView {
    fn vars(&self) -> &[VarId] {
        &self.cells
    }

    fn text(&self, record: &Record) -> String {
        let mut out = String::with_capacity(self.n * self.n * 2);
        for row in record.chunks(self.n) {
            let line: Vec<&str> = row.iter().map(|&v| if v == 1 { "X" } else { "." }).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }

    fn json(&self, record: &Record) -> Value {
        Value::from(self.points(record).into_iter().map(|(r, c)| json!([r, c])).collect::<Vec<_>>())
    }

    fn filters(&self) -> bool {
        self.distinct
    }

    fn draws(&self) -> bool {
        true
    }

    fn picture(&self, record: &Record) -> Option<Canvas> {
        Some(super::picture::draw(self.n, &self.points(record)))
    }

    fn accept(&self, record: &Record) -> bool {
        !self.distinct || symmetry::is_representative(self.n, &self.points(record))
    }
}
