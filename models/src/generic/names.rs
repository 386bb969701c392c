//! What a person calls a constraint of a generic model, for `cpsolve explain`.
//!
//! A model does not name its constraints; its `forall` loops do it implicitly:
//! `alldifferent(x[i, ..])` under `forall i in 1..9` is "row i". The name is read from
//! the constraint's *scope*, not from its text: cells of one 2-d array that share a row
//! index are a row, those sharing a column index a column, and a full rectangle of cells
//! that tiles the array is a box, numbered in reading order. Anything else is named by
//! its source line, with the `forall` values it was posted under.

use std::collections::HashMap;

use cpsolve_engine::VarId;

use super::env::Env;

/// The 2-d arrays of a model, each with the place of every cell: built once for all the
/// constraints named, so that naming stays linear (a search along the cells per constraint
/// is quadratic: three sums over a 65,541 × 3 array would take seconds to name).
pub(crate) struct Grids {
    /// Per 2-d array (its index in the environment), the offset of each of its cells.
    grids: Vec<(usize, HashMap<VarId, usize>)>,
}

impl Grids {
    pub(crate) fn new(env: &Env) -> Grids {
        let grids = (0..env.arrays.len())
            .filter(|&a| env.arrays[a].shape.dims.len() == 2)
            .map(|a| {
                // A variable in two cells is named by its first, as a search along them would.
                let mut offsets = HashMap::new();
                for (k, &x) in env.arrays[a].cells.iter().enumerate() {
                    offsets.entry(x).or_insert(k);
                }
                (a, offsets)
            })
            .collect();
        Grids { grids }
    }
}

/// The name of a constraint over `scope`, when its cells form a row, a column or a box of
/// one 2-d array; `None` otherwise.
pub(crate) fn region_name(env: &Env, grids: &Grids, scope: &[VarId]) -> Option<String> {
    if scope.len() < 2 {
        return None;
    }
    let (grid, cells) = grids.grids.iter().find_map(|(a, offsets)| {
        let array = &env.arrays[*a];
        let cells: Option<Vec<(i64, i64)>> = scope
            .iter()
            .map(|x| {
                let indices = array.shape.indices(*offsets.get(x)?);
                Some((indices[0], indices[1]))
            })
            .collect();
        cells.map(|cells| (*a, cells))
    })?;
    let array = &env.arrays[grid];
    let of = if grids.grids.len() > 1 { format!(" of {}", array.name) } else { String::new() };
    let rows = distinct(cells.iter().map(|c| c.0));
    let cols = distinct(cells.iter().map(|c| c.1));
    if rows.len() == 1 {
        return Some(format!("row {}{of}", rows[0]));
    }
    if cols.len() == 1 {
        return Some(format!("column {}{of}", cols[0]));
    }
    let (h, w) = (rows.len() as i64, cols.len() as i64);
    let contiguous = |v: &[i64]| v[v.len() - 1] - v[0] + 1 == v.len() as i64;
    let ((row_lo, _), (col_lo, _)) = (array.shape.dims[0], array.shape.dims[1]);
    let (height, width) = (array.shape.extent(0) as i64, array.shape.extent(1) as i64);
    let rectangle = distinct_pairs(&cells) == (h * w) as usize && contiguous(&rows) && contiguous(&cols);
    if rectangle && h == height && w == width {
        return Some(format!("all of {}", array.name));
    }
    if rectangle && height % h == 0 && width % w == 0 && (rows[0] - row_lo) % h == 0 && (cols[0] - col_lo) % w == 0 {
        let number = (rows[0] - row_lo) / h * (width / w) + (cols[0] - col_lo) / w + 1;
        return Some(format!("box {number}{of}"));
    }
    let diagonal = |key: &dyn Fn(&(i64, i64)) -> i64| distinct(cells.iter().map(key)).len() == 1;
    if cells.len() == rows.len() && diagonal(&|c| c.0 - c.1) {
        return Some(format!("the diagonal from ({},{}){of}", rows[0], cols[0]));
    }
    if cells.len() == rows.len() && diagonal(&|c| c.0 + c.1) {
        return Some(format!("the anti-diagonal from ({},{}){of}", rows[0], cols[cols.len() - 1]));
    }
    None
}

fn distinct(values: impl Iterator<Item = i64>) -> Vec<i64> {
    let mut v: Vec<i64> = values.collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn distinct_pairs(cells: &[(i64, i64)]) -> usize {
    let mut v = cells.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}
