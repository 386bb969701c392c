//! Showing a queens placement: the rows, and the board when it fits on a screen.

use cpsolve_engine::VarId;
use serde_json::Value;

use super::symmetry;
use crate::picture::Canvas;
use crate::problem::{Record, SolutionView};

/// Boards wider than this are shown as the list of rows only.
const MAX_BOARD: usize = 40;

#[derive(Debug)]
pub(super) struct QueensView {
    pub(super) vars: Vec<VarId>,
    /// Only placements that are the smallest of their symmetry class are solutions.
    pub(super) distinct: bool,
    /// The partial start (0-based rows of the first columns), which images must respect.
    pub(super) fixed: Vec<usize>,
}

impl QueensView {
    fn rows(record: &Record) -> Vec<usize> {
        record.iter().map(|&r| r as usize - 1).collect()
    }
}

impl SolutionView for QueensView {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn text(&self, record: &Record) -> String {
        let n = record.len();
        let list: Vec<String> = record.iter().map(i64::to_string).collect();
        let mut out = format!("q = [{}]\n", list.join(", "));
        if n <= MAX_BOARD {
            // Row n at the top, as on a chessboard.
            for row in (1..=n as i64).rev() {
                let line: Vec<&str> = record.iter().map(|&q| if q == row { "Q" } else { "." }).collect();
                out.push_str(&line.join(" "));
                out.push('\n');
            }
        }
        out
    }

    fn json(&self, record: &Record) -> Value {
        Value::from(record.clone())
    }

    fn filters(&self) -> bool {
        self.distinct
    }

    fn draws(&self) -> bool {
        true
    }

    fn picture(&self, record: &Record) -> Option<Canvas> {
        Some(super::picture::draw(record, self.fixed.len()))
    }

    fn accept(&self, record: &Record) -> bool {
        if !self.distinct {
            return true;
        }
        let fixed = &self.fixed;
        symmetry::is_representative(&Self::rows(record), |image| image.starts_with(fixed))
    }
}
