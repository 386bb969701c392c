//! Showing a solution of a generic model.
//!
//! Text: the scalars on one line (`S=9 E=5 N=6`), then each array: a 1-d array as a list
//! (`q = [1, 5, 8]`), a 2-d array as its name and a grid with right-aligned columns, which
//! reads like the puzzle (and can be pasted back as a `given` block). Arrays of more
//! dimensions print one grid per index of their leading dimensions.
//! JSON: one object, keys in declaration order, cells named `q[3]` and `x[2,5]` (SPEC §3).

use std::collections::HashSet;

use cpsolve_engine::{Val, VarId};
use serde_json::{Map, Value};

use super::env::{Decl, Env};
use super::picture::Board;
use super::shape::Shape;
use crate::picture::Canvas;
use crate::problem::{Record, SolutionView};

/// One declaration, located in the record.
#[derive(Debug, Clone)]
enum Shown {
    Scalar { name: String, at: usize },
    Array { name: String, shape: Shape, start: usize, len: usize },
}

#[derive(Debug)]
pub(crate) struct ModelView {
    vars: Vec<VarId>,
    shown: Vec<Shown>,
    /// What `--format svg` draws, when the model has a board.
    board: Option<Board>,
}

impl ModelView {
    /// The user's declarations, in the order of the file.
    pub(crate) fn new(env: &Env, given: &HashSet<VarId>, regions: &[Vec<VarId>]) -> ModelView {
        let mut vars = Vec::new();
        let mut shown = Vec::new();
        for decl in &env.decls {
            match *decl {
                Decl::Scalar(x) => {
                    let name = env.scalar_name(x).unwrap_or("?").to_owned();
                    shown.push(Shown::Scalar { name, at: vars.len() });
                    vars.push(x);
                }
                Decl::Array(id) => {
                    let array = &env.arrays[id];
                    shown.push(Shown::Array {
                        name: array.name.clone(),
                        shape: array.shape.clone(),
                        start: vars.len(),
                        len: array.cells.len(),
                    });
                    vars.extend(&array.cells);
                }
            }
        }
        let start_of = |id: usize| {
            shown.iter().find_map(|s| match s {
                Shown::Array { name, start, .. } if *name == env.arrays[id].name => Some(*start),
                _ => None,
            })
        };
        let board = Board::find(env, &start_of, given, regions);
        ModelView { vars, shown, board }
    }
}

impl SolutionView for ModelView {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn text(&self, record: &Record) -> String {
        let mut out = String::new();
        let scalars: Vec<String> = self
            .shown
            .iter()
            .filter_map(|s| match s {
                Shown::Scalar { name, at } => Some(format!("{name}={}", record[*at])),
                Shown::Array { .. } => None,
            })
            .collect();
        if !scalars.is_empty() {
            out.push_str(&scalars.join(" "));
            out.push('\n');
        }
        for s in &self.shown {
            if let Shown::Array { name, shape, start, len } = s {
                let values = &record[*start..*start + *len];
                if shape.dims.len() == 1 {
                    let items: Vec<String> = values.iter().map(Val::to_string).collect();
                    out.push_str(&format!("{name} = [{}]\n", items.join(", ")));
                } else {
                    write_grids(&mut out, name, shape, values);
                }
            }
        }
        if out.is_empty() {
            out.push_str("(no variables)\n");
        }
        out
    }

    fn draws(&self) -> bool {
        self.board.is_some()
    }

    fn picture(&self, record: &Record) -> Option<Canvas> {
        self.board.as_ref().map(|board| board.draw(record))
    }

    fn json(&self, record: &Record) -> Value {
        let mut object = Map::new();
        for s in &self.shown {
            match s {
                Shown::Scalar { name, at } => {
                    object.insert(name.clone(), record[*at].into());
                }
                Shown::Array { name, shape, start, len } => {
                    for k in 0..*len {
                        object.insert(shape.cell_name(name, k), record[start + k].into());
                    }
                }
            }
        }
        Value::Object(object)
    }
}

/// A 2-d array as `x =` and its rows; more dimensions as one such grid per leading index
/// tuple, headed `x[1,*,*] =`.
fn write_grids(out: &mut String, name: &str, shape: &Shape, values: &[Val]) {
    if values.is_empty() {
        // Empty index ranges may be huge; there is nothing to lay out.
        out.push_str(&format!("{name} =\n"));
        return;
    }
    let d = shape.dims.len();
    let width = shape.extent(d - 1) as usize;
    let height = shape.extent(d - 2) as usize;
    let cells = values.iter().map(Val::to_string).collect::<Vec<_>>();
    let grid = width * height;
    let grids = values.len() / grid;
    for g in 0..grids {
        if d == 2 {
            out.push_str(&format!("{name} =\n"));
        } else {
            let leading = shape.indices(g * grid);
            let mut index: Vec<String> = leading[..d - 2].iter().map(i64::to_string).collect();
            index.extend(["*".to_owned(), "*".to_owned()]);
            out.push_str(&format!("{name}[{}] =\n", index.join(",")));
        }
        let block = &cells[g * grid..(g + 1) * grid];
        let column_widths: Vec<usize> =
            (0..width).map(|c| block.iter().skip(c).step_by(width).map(String::len).max().unwrap_or(0)).collect();
        for row in block.chunks(width) {
            let padded: Vec<String> = row.iter().zip(&column_widths).map(|(v, &w)| format!("{v:>w$}")).collect();
            out.push_str(&format!("  {}\n", padded.join(" ")));
        }
    }
}
