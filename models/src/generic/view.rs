//! Showing a solution of a generic model.
//!
//! Text: the scalars on one line (`S=9 E=5 N=6`), then each array: a 1-d array as a list
//! (`q = [1, 5, 8]`), a 2-d array as its name and a grid with right-aligned columns, which
//! reads like the puzzle (and can be pasted back as a `given` block). Arrays of more
//! dimensions print one grid per index of their leading dimensions.
//! JSON: one object, keys in declaration order, cells named `q[3]` and `x[2,5]` (docs/json.md).

use std::collections::HashSet;

use cpsolve_engine::{Val, VarId};
use serde_json::{Map, Value};

use super::env::{Decl, Env};
use super::picture::Board;
use super::shape::Shape;
use crate::picture::Canvas;
use crate::problem::{Record, SolutionView};

/// How the values of a variable are written: as numbers, or by the names of an enum.
type Names = Option<Vec<String>>;

fn show_value(v: Val, names: &Names) -> String {
    match names {
        Some(names) if v >= 1 && (v as usize) <= names.len() => names[v as usize - 1].clone(),
        _ => v.to_string(),
    }
}

fn json_value(v: Val, names: &Names) -> Value {
    match names {
        Some(names) if v >= 1 && (v as usize) <= names.len() => names[v as usize - 1].clone().into(),
        _ => v.into(),
    }
}

/// One declaration, located in the record.
#[derive(Debug, Clone)]
enum Shown {
    Scalar {
        name: String,
        at: usize,
        names: Names,
    },
    Array {
        name: String,
        shape: Shape,
        start: usize,
        len: usize,
        names: Names,
    },
    /// A set variable: `universe.len()` places (its 0/1 members).
    Set {
        name: String,
        universe: Vec<Val>,
        start: usize,
    },
    /// An array of set variables, each `universe.len()` places, with the name of each.
    Sets {
        name: String,
        cells: Vec<String>,
        one_d: bool,
        universe: Vec<Val>,
        start: usize,
    },
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
        let enum_names = |x: &VarId| env.var_enums.get(x).map(|&id| env.enums[id].values.clone());
        for decl in &env.decls {
            match decl {
                Decl::Scalar(x) => {
                    let name = env.scalar_name(*x).unwrap_or("?").to_owned();
                    shown.push(Shown::Scalar { name, at: vars.len(), names: enum_names(x) });
                    vars.push(*x);
                }
                Decl::Array(id) => {
                    let array = &env.arrays[*id];
                    shown.push(Shown::Array {
                        name: array.name.clone(),
                        shape: array.shape.clone(),
                        start: vars.len(),
                        len: array.cells.len(),
                        names: array.cells.first().and_then(enum_names),
                    });
                    vars.extend(&array.cells);
                }
                Decl::SetVar(id) => {
                    let set = &env.set_vars[*id];
                    shown.push(Shown::Set {
                        name: set.name.clone(),
                        universe: set.universe.clone(),
                        start: vars.len(),
                    });
                    vars.extend(&set.members);
                }
                Decl::SetArray { name, shape, sets } => {
                    let universe = sets.first().map(|&id| env.set_vars[id].universe.clone()).unwrap_or_default();
                    let cells = sets.iter().map(|&id| env.set_vars[id].name.clone()).collect();
                    let one_d = shape.dims.len() == 1;
                    shown.push(Shown::Sets { name: name.clone(), cells, one_d, universe, start: vars.len() });
                    for &id in sets {
                        vars.extend(&env.set_vars[id].members);
                    }
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

/// The members of the set whose 0/1 places start at `at`.
fn members(record: &Record, universe: &[Val], at: usize) -> Vec<Val> {
    universe.iter().enumerate().filter(|&(k, _)| record[at + k] == 1).map(|(_, &u)| u).collect()
}

fn show_set(values: &[Val]) -> String {
    let items: Vec<String> = values.iter().map(Val::to_string).collect();
    format!("{{{}}}", items.join(", "))
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
                Shown::Scalar { name, at, names } => Some(format!("{name}={}", show_value(record[*at], names))),
                Shown::Set { name, universe, start } => {
                    Some(format!("{name}={}", show_set(&members(record, universe, *start))))
                }
                _ => None,
            })
            .collect();
        if !scalars.is_empty() {
            out.push_str(&scalars.join(" "));
            out.push('\n');
        }
        for s in &self.shown {
            match s {
                Shown::Array { name, shape, start, len, names } => {
                    let values = &record[*start..*start + *len];
                    if shape.dims.len() == 1 {
                        let items: Vec<String> = values.iter().map(|&v| show_value(v, names)).collect();
                        out.push_str(&format!("{name} = [{}]\n", items.join(", ")));
                    } else {
                        let cells: Vec<String> = values.iter().map(|&v| show_value(v, names)).collect();
                        write_grids(&mut out, name, shape, &cells);
                    }
                }
                Shown::Sets { name, cells, one_d: true, universe, start } => {
                    let items: Vec<String> = (0..cells.len())
                        .map(|k| show_set(&members(record, universe, start + k * universe.len())))
                        .collect();
                    out.push_str(&format!("{name} = [{}]\n", items.join(", ")));
                }
                Shown::Sets { cells, one_d: false, universe, start, .. } => {
                    for (k, cell) in cells.iter().enumerate() {
                        let set = members(record, universe, start + k * universe.len());
                        out.push_str(&format!("{cell} = {}\n", show_set(&set)));
                    }
                }
                _ => {}
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
                Shown::Scalar { name, at, names } => {
                    object.insert(name.clone(), json_value(record[*at], names));
                }
                Shown::Array { name, shape, start, len, names } => {
                    for k in 0..*len {
                        object.insert(shape.cell_name(name, k), json_value(record[start + k], names));
                    }
                }
                Shown::Set { name, universe, start } => {
                    let set = members(record, universe, *start);
                    object.insert(name.clone(), set.into_iter().map(Value::from).collect::<Vec<_>>().into());
                }
                Shown::Sets { cells, universe, start, .. } => {
                    for (k, cell) in cells.iter().enumerate() {
                        let set = members(record, universe, start + k * universe.len());
                        object.insert(cell.clone(), set.into_iter().map(Value::from).collect::<Vec<_>>().into());
                    }
                }
            }
        }
        Value::Object(object)
    }
}

/// A 2-d array as `x =` and its rows; more dimensions as one such grid per leading index
/// tuple, headed `x[1,*,*] =`.
fn write_grids(out: &mut String, name: &str, shape: &Shape, cells: &[String]) {
    let values = cells;
    if values.is_empty() {
        // Empty index ranges may be huge; there is nothing to lay out.
        out.push_str(&format!("{name} =\n"));
        return;
    }
    let d = shape.dims.len();
    let width = shape.extent(d - 1) as usize;
    let height = shape.extent(d - 2) as usize;
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
