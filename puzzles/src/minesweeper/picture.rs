//! The picture of an analysed position (`--format svg`): the facts of the text answer
//! drawn as a board.
//!
//! Revealed cells show their number in the usual colours; a covered cell is filled by its
//! chance of holding a mine on a yellow-to-dark-red colour scale and also carries the
//! percentage of the text answer, so nothing depends on telling colours apart. Certain
//! cells get a shape as well: a green check mark for a certain safe cell, a black mine
//! for a certain mine; a flag is a red pennant. The legend under the board explains the
//! scale and the shapes and counts the certain cells. The two lines above the board are
//! those of the text answer (the position, then the number of layouts or the verdict).

use cpsolve_models::run::RunOptions;
use svg::node::element::{Circle, Definitions, Group, Line, LinearGradient, Path, Polygon, Rectangle, Stop, Title};
use svg::Document;

use super::analysis::{Analysis, Verdict};
use super::grid::{Board, Cell};
use super::view;
use crate::picture::{centred, finish, left, page, px, text_width};

/// The side of a cell, in pixels.
const CELL: i64 = 28;
const MARGIN: i64 = 16;
/// The height of a heading line.
const LINE: i64 = 20;
/// The legend's height under the board.
const LEGEND: i64 = 96;
/// The width the legend needs.
const LEGEND_WIDTH: i64 = 420;

/// The colour scale of a mine's chance, from 0 to 1: light yellow through orange to dark
/// red (ColorBrewer's YlOrRd), which stays readable in grey and for red-green colour
/// blindness because its lightness falls steadily.
const SCALE: [(f64, [u8; 3]); 5] = [
    (0.0, [255, 255, 204]),
    (0.25, [254, 217, 118]),
    (0.5, [253, 141, 60]),
    (0.75, [227, 26, 28]),
    (1.0, [128, 0, 38]),
];

/// The colour of chance `p` on the scale, as `#rrggbb`.
fn colour(p: f64) -> String {
    let p = p.clamp(0.0, 1.0);
    let k = SCALE.iter().position(|&(at, _)| p <= at).unwrap_or(SCALE.len() - 1).max(1);
    let ((a, ca), (b, cb)) = (SCALE[k - 1], SCALE[k]);
    let t = (p - a) / (b - a);
    let mix = |i: usize| (f64::from(ca[i]) + (f64::from(cb[i]) - f64::from(ca[i])) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// Whether text on chance `p`'s colour should be white (the dark end of the scale).
fn dark(p: f64) -> bool {
    p > 0.6
}

/// The colour of a revealed number, as most Minesweeper games draw it.
fn number_colour(n: u8) -> &'static str {
    match n {
        1 => "#0000ff",
        2 => "#007b00",
        3 => "#ff0000",
        4 => "#00007b",
        5 => "#7b0000",
        6 => "#007b7b",
        7 => "#000000",
        _ => "#7b7b7b",
    }
}

const COVERED: &str = "#bdbdbd";
const OPEN: &str = "#eeeeee";

fn square(x: i64, y: i64, fill: &str) -> Rectangle {
    Rectangle::new()
        .set("class", "cell")
        .set("x", x)
        .set("y", y)
        .set("width", CELL)
        .set("height", CELL)
        .set("fill", fill)
        .set("stroke", "#808080")
        .set("stroke-width", 1)
}

/// A mine centred at (`cx`, `cy`) with radius `r`: a black ball with eight spikes.
fn mine(cx: f64, cy: f64, r: f64) -> Group {
    let mut g = Group::new().set("class", "mine");
    for (dx, dy) in [(1.0, 0.0), (0.0, 1.0), (0.7, 0.7), (0.7, -0.7)] {
        let s = r * 1.45;
        g = g.add(
            Line::new()
                .set("x1", px(cx - dx * s))
                .set("y1", px(cy - dy * s))
                .set("x2", px(cx + dx * s))
                .set("y2", px(cy + dy * s))
                .set("stroke", "#000000")
                .set("stroke-width", 2),
        );
    }
    g.add(
        Circle::new()
            .set("cx", px(cx))
            .set("cy", px(cy))
            .set("r", px(r))
            .set("fill", "#000000")
            .set("stroke", "#ffffff"),
    )
    .add(
        Circle::new()
            .set("cx", px(cx - r * 0.35))
            .set("cy", px(cy - r * 0.35))
            .set("r", px(r * 0.25))
            .set("fill", "#ffffff"),
    )
}

/// A green check mark in the square of side `s` at (`x`, `y`).
fn check(x: f64, y: f64, s: f64) -> Path {
    let d = format!(
        "M {} {} L {} {} L {} {}",
        px(x + s * 0.22),
        px(y + s * 0.52),
        px(x + s * 0.42),
        px(y + s * 0.72),
        px(x + s * 0.78),
        px(y + s * 0.28)
    );
    Path::new()
        .set("class", "safe")
        .set("d", d)
        .set("fill", "none")
        .set("stroke", "#1a7a1a")
        .set("stroke-width", px(s * 0.13))
        .set("stroke-linecap", "round")
        .set("stroke-linejoin", "round")
}

/// A red pennant on a black pole in the square of side `s` at (`x`, `y`).
fn flag(x: f64, y: f64, s: f64) -> Group {
    let pole = Line::new()
        .set("x1", px(x + s * 0.6))
        .set("y1", px(y + s * 0.2))
        .set("x2", px(x + s * 0.6))
        .set("y2", px(y + s * 0.8))
        .set("stroke", "#000000")
        .set("stroke-width", 2);
    let base = Line::new()
        .set("x1", px(x + s * 0.35))
        .set("y1", px(y + s * 0.8))
        .set("x2", px(x + s * 0.8))
        .set("y2", px(y + s * 0.8))
        .set("stroke", "#000000")
        .set("stroke-width", 2);
    let points = format!(
        "{},{} {},{} {},{}",
        px(x + s * 0.6),
        px(y + s * 0.2),
        px(x + s * 0.25),
        px(y + s * 0.36),
        px(x + s * 0.6),
        px(y + s * 0.52)
    );
    Group::new()
        .set("class", "flag")
        .add(pole)
        .add(base)
        .add(Polygon::new().set("points", points).set("fill", "#e00000"))
}

/// The board: one square per cell, with its number, shape or percentage.
fn board_group(board: &Board, a: &Analysis, x0: i64, y0: i64) -> Group {
    let mut g = Group::new().set("id", "board");
    let solved = a.verdict != Verdict::Impossible;
    for i in 0..board.cells.len() {
        let (x, y) = (x0 + (i % board.width) as i64 * CELL, y0 + (i / board.width) as i64 * CELL);
        let (fx, fy, s) = (x as f64, y as f64, CELL as f64);
        let (cx, baseline) = (fx + s / 2.0, fy + s / 2.0 + 5.0);
        match board.cells[i] {
            Cell::Open(n) => {
                g = g.add(square(x, y, OPEN));
                if n > 0 {
                    g = g.add(
                        centred(cx, baseline + 1.0, 16, n.to_string())
                            .set("font-weight", "bold")
                            .set("fill", number_colour(n)),
                    );
                }
            }
            Cell::Flag => g = g.add(square(x, y, COVERED)).add(flag(fx, fy, s)),
            Cell::Covered if !solved => g = g.add(square(x, y, COVERED)),
            Cell::Covered if a.mines.binary_search(&i).is_ok() => {
                g = g.add(square(x, y, &colour(1.0))).add(mine(cx, fy + s / 2.0, s * 0.24));
            }
            Cell::Covered if a.safe.binary_search(&i).is_ok() => {
                g = g.add(square(x, y, &colour(0.0))).add(check(fx, fy, s));
            }
            Cell::Covered => match a.probability(i) {
                Some(p) => {
                    let label = view::cell_text(board, a, i);
                    let ink = if dark(p) { "#ffffff" } else { "#000000" };
                    g = g.add(square(x, y, &colour(p))).add(centred(cx, baseline - 1.0, 10, label).set("fill", ink));
                }
                None => g = g.add(square(x, y, COVERED)).add(centred(cx, baseline, 14, "?")),
            },
        }
    }
    g
}

/// The legend: the colour scale with its ticks, then the three shapes and what they mean.
fn legend(a: &Analysis, x0: i64, y0: i64) -> Group {
    let (bar_w, bar_h) = (240, 14);
    let mut stops = LinearGradient::new().set("id", "chance").set("x1", 0).set("x2", 1).set("y1", 0).set("y2", 0);
    for &(at, _) in &SCALE {
        stops = stops.add(Stop::new().set("offset", px(at)).set("stop-color", colour(at)));
    }
    let bar_x = x0 + 110;
    let mut g = Group::new()
        .set("id", "legend")
        .add(Definitions::new().add(stops))
        .add(left(x0 as f64, (y0 + 12) as f64, 12, "chance of a mine"))
        .add(
            Rectangle::new()
                .set("x", bar_x)
                .set("y", y0)
                .set("width", bar_w)
                .set("height", bar_h)
                .set("fill", "url(#chance)")
                .set("stroke", "#808080"),
        );
    for k in 0..=4 {
        let x = (bar_x + bar_w * k / 4) as f64;
        g = g
            .add(
                Line::new()
                    .set("x1", px(x))
                    .set("y1", y0 + bar_h)
                    .set("x2", px(x))
                    .set("y2", y0 + bar_h + 4)
                    .set("stroke", "#000000"),
            )
            .add(centred(x, (y0 + bar_h + 16) as f64, 11, format!("{}%", k * 25)));
    }
    let key_y = y0 + 44;
    let s = 20.0;
    let (ky, text_y) = (key_y as f64, (key_y + 15) as f64);
    let key = |x: i64, fill: &str| {
        Rectangle::new()
            .set("x", x)
            .set("y", key_y)
            .set("width", 20)
            .set("height", 20)
            .set("fill", fill.to_string())
            .set("stroke", "#808080")
    };
    let safe_x = x0;
    let mine_x = x0 + 150;
    let flag_x = x0 + 300;
    g = g
        .add(key(safe_x, &colour(0.0)))
        .add(check(safe_x as f64, ky, s).set("class", "key"))
        .add(left((safe_x + 26) as f64, text_y, 12, format!("certain safe: {}", a.safe.len())))
        .add(key(mine_x, &colour(1.0)))
        .add(mine((mine_x + 10) as f64, ky + 10.0, s * 0.24).set("class", "key"))
        .add(left((mine_x + 26) as f64, text_y, 12, format!("certain mine: {}", a.mines.len())))
        .add(key(flag_x, COVERED))
        .add(flag(flag_x as f64, ky, s).set("class", "key"))
        .add(left((flag_x + 26) as f64, text_y, 12, "flag"));
    g.add(left(x0 as f64, (key_y + 42) as f64, 12, "other covered cells: chance of a mine, as in the text answer"))
}

/// The picture of `board` as analysed in `a`.
pub(crate) fn svg(board: &Board, a: &Analysis, options: &RunOptions) -> String {
    let text = view::text(board, a, options);
    let heading: Vec<&str> = text.lines().take(2).collect();
    let grid_w = board.width as i64 * CELL;
    let grid_h = board.height as i64 * CELL;
    let widest = heading.iter().map(|l| text_width(l, 13)).max().unwrap_or(0);
    let width = 2 * MARGIN + grid_w.max(LEGEND_WIDTH).max(widest);
    let grid_y = MARGIN + 2 * LINE + 8;
    let height = grid_y + grid_h + 16 + LEGEND + MARGIN;
    let mut doc: Document = page(width, height).add(Title::new(heading.join("; ")));
    for (k, line) in heading.iter().enumerate() {
        let y = (MARGIN + 14 + k as i64 * LINE) as f64;
        let t = left(MARGIN as f64, y, 13, *line);
        doc = doc.add(if k == 0 { t.set("font-weight", "bold") } else { t });
    }
    doc = doc.add(board_group(board, a, MARGIN, grid_y)).add(legend(a, MARGIN, grid_y + grid_h + 16));
    finish(doc)
}

#[cfg(test)]
mod tests {
    use super::colour;

    #[test]
    fn the_scale_runs_from_its_first_colour_to_its_last() {
        assert_eq!(colour(0.0), "#ffffcc");
        assert_eq!(colour(0.5), "#fd8d3c");
        assert_eq!(colour(1.0), "#800026");
        assert_eq!(colour(0.125), "#ffeca1");
    }
}
