//! The picture of a queens placement: a chessboard with a disc for each queen, row 1 at the
//! bottom as in the text output. Queens fixed by `option fix` are drawn in ink (given), the
//! others in blue (found), as givens and found values are told apart in every picture.

use crate::picture::{colour, Anchor, Canvas, CELL, MARGIN};
use crate::problem::Record;

/// Above this many columns the squares are not drawn one by one (n² shapes), only the board
/// and the queens.
const MAX_SQUARES: usize = 64;
/// The largest board side, in user units: big boards get smaller squares.
const MAX_SIDE: f64 = 800.0;

/// The board with the queens of `record` (row of each column, 1-based); the first `fixed`
/// columns are the given ones.
pub(super) fn draw(record: &Record, fixed: usize) -> Canvas {
    let n = record.len();
    let cell = CELL.min(MAX_SIDE / n.max(1) as f64);
    let side = cell * n as f64;
    let labels = n <= 26;
    let left = if labels { MARGIN + 12.0 } else { MARGIN };
    let bottom = if labels { MARGIN + 16.0 } else { MARGIN };
    let mut canvas = Canvas::new(left + side + MARGIN, MARGIN + side + bottom);
    canvas.set_title(&format!("{n} queens"));
    let x_of = |column: usize| left + column as f64 * cell;
    // Row 1 at the bottom.
    let y_of = |row: usize| MARGIN + (n - 1 - row) as f64 * cell;
    canvas.rect("board", left, MARGIN, side, side, colour::LIGHT_SQUARE, Some((colour::INK, 1.0)));
    if n <= MAX_SQUARES {
        for row in 0..n {
            for column in 0..n {
                // a1 is dark, as on a chessboard.
                if (row + column) % 2 == 0 {
                    canvas.rect("square", x_of(column), y_of(row), cell, cell, colour::DARK_SQUARE, None);
                }
            }
        }
    }
    if labels {
        for i in 0..n {
            let file = char::from(b'a' + i as u8).to_string();
            canvas.text(
                "label",
                x_of(i) + cell / 2.0,
                MARGIN + side + 10.0,
                11.0,
                Anchor::Middle,
                colour::MUTED,
                &file,
            );
            let rank = (i + 1).to_string();
            canvas.text("label", left - 8.0, y_of(i) + cell / 2.0, 11.0, Anchor::Middle, colour::MUTED, &rank);
        }
    }
    for (column, &row) in record.iter().enumerate() {
        let row = row as usize - 1;
        let (class, fill) = if column < fixed { ("queen given", colour::INK) } else { ("queen found", colour::FOUND) };
        let centre = (x_of(column) + cell / 2.0, y_of(row) + cell / 2.0);
        canvas.circle(class, centre, cell * 0.35, fill);
    }
    canvas
}
