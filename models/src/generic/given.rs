//! `given x =` blocks: a grid of values and `.` that fixes cells of an array, written the
//! way the puzzle is printed. A 1-d array takes one row; an array of more dimensions takes
//! one row per index of its leading dimensions (row-major), each row as long as its last
//! dimension. Each misfit is reported at the row or the cell where it is.

use cpsolve_dsl::ast::{GridRow, Ident};
use cpsolve_dsl::Diagnostic;

use super::env::Entity;
use super::errors::{unknown_name, Fault, Result};
use super::Compiler;

impl Compiler {
    pub(crate) fn given(&mut self, name: &Ident, rows: &[GridRow]) -> Result<()> {
        let id = match self.env.lookup(&name.node) {
            Some(Entity::Array(id)) if self.env.arrays[id].values.is_none() => id,
            Some(Entity::Array(_)) => {
                let message = format!("`{}` is a `let` array: its values are already known", name.node);
                return Err(Diagnostic::new(message, name.span.clone()).with_label("not an array of variables").into());
            }
            Some(Entity::Invalid) => return Err(Fault::Silent),
            Some(_) => {
                let message = format!("`given` fixes the cells of an array, and `{}` is not an array", name.node);
                return Err(Diagnostic::new(message, name.span.clone())
                    .with_note("fix a single variable with a constraint instead, e.g. `x == 3`")
                    .into());
            }
            None => return Err(unknown_name(&name.node, name.span.clone()).into()),
        };
        let array = self.env.arrays[id].clone();
        let shape = &array.shape;
        let last = shape.dims.len() - 1;
        // The array exists, so a non-empty one has few cells; an empty one may still have
        // huge leading ranges, hence the saturating product.
        let width = usize::try_from(shape.extent(last)).unwrap_or(usize::MAX);
        let height = (0..last).fold(1u128, |n, d| n.saturating_mul(shape.extent(d)));
        let height = usize::try_from(height).unwrap_or(usize::MAX);
        let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };

        if rows.len() > height {
            let message = format!("too many rows: `{}` has {}", array.name, plural(height, "row"));
            self.report(Diagnostic::new(message, rows[height].span.clone()).with_label("extra row").into());
        } else if rows.len() < height {
            let message =
                format!("too few rows: `{}` has {}, the grid gives {}", array.name, plural(height, "row"), rows.len());
            let span = rows.last().map_or(name.span.clone(), |row| row.span.clone());
            self.report(Diagnostic::new(message, span).with_label("the grid ends here").into());
        }
        for (r, row) in rows.iter().enumerate().take(height) {
            let words: Vec<_> = row.words().collect();
            if words.len() != width {
                let message =
                    format!("this row has {}, but `{}` has {} per row", plural(words.len(), "cell"), array.name, width);
                self.report(Diagnostic::new(message, row.span.clone()).with_label(format!("expected {width}")).into());
            }
            for (c, (word, span)) in words.into_iter().enumerate().take(width) {
                if word == "." {
                    continue;
                }
                let Ok(value) = word.parse::<i64>() else {
                    let message = format!("expected an integer or `.`, found `{word}`");
                    self.report(Diagnostic::new(message, span).with_label("not a cell value").into());
                    continue;
                };
                let offset = r * width + c;
                if !array.domain.contains(value) {
                    let cell = shape.cell_name(&array.name, offset);
                    let message = format!("{value} is outside the domain of `{cell}` ({})", array.domain.show());
                    self.report(Diagnostic::new(message, span).with_label("not a possible value").into());
                    continue;
                }
                self.solver.assign(array.cells[offset], value);
                self.given_cells.insert(array.cells[offset]);
            }
        }
        Ok(())
    }
}
