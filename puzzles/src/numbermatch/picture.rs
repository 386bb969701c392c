//! The picture of a Number Match answer (`--format svg`): the winning line as a strip of
//! frames, one per move.
//!
//! Frame k shows the grid as it stands before move k, the two digits the move matches
//! ringed in red and joined by a line, under the caption of the text answer's move line
//! (`3. 2 at (1,2) with 2 at (2,3)`, or `add: …`); the last frame shows the grid after
//! the last move (empty for a win). Cleared cells are grey; the grid keeps the shape the
//! text shows (rows vanish, adds append). Without a line (no win, or none found before a
//! limit), the picture is the start grid alone. Above the frames: the text answer's first
//! two lines (the verdict and the game).

use cpsolve_models::run::RunOptions;
use svg::node::element::{Circle, Group, Line, Rectangle, Title};

use super::grid::Game;
use super::rules::{play_add, play_match, Move};
use super::view::{self, Shown};
use crate::picture::{centred, finish, left, page, px, text_width};

const CELL: i64 = 22;
const MARGIN: i64 = 16;
const LINE: i64 = 20;
/// Space between frames, across and down.
const GAP: i64 = 18;
/// Height of a frame's caption.
const CAPTION: i64 = 20;
/// The page is at most about this wide: frames wrap onto new rows.
const PAGE_WIDTH: i64 = 960;

/// One frame: a grid, the cells picked by the move played from it, and its caption.
struct Frame {
    cells: Vec<u8>,
    picked: Option<(usize, usize)>,
    caption: String,
}

/// The frames of a line of moves from the start grid, captioned with the text answer's
/// move lines (`captions`, one per move).
fn frames(game: &Game, moves: &[Move], captions: &[String]) -> Vec<Frame> {
    let mut cells = game.cells.clone();
    let mut out = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let caption = captions.get(k).cloned().unwrap_or_default();
        match *m {
            Move::Match(i, j) => {
                out.push(Frame { cells: cells.clone(), picked: Some((i as usize, j as usize)), caption });
                play_match(&mut cells, game.cols, game.rules, i as usize, j as usize);
            }
            Move::Add => {
                out.push(Frame { cells: cells.clone(), picked: None, caption });
                play_add(&mut cells);
            }
        }
    }
    let last = if moves.is_empty() {
        "the start".to_string()
    } else if cells.iter().all(|&d| d == 0) {
        "won: the grid is empty".to_string()
    } else {
        "after the last move".to_string()
    };
    out.push(Frame { cells, picked: None, caption: last });
    out
}

fn frame_group(f: &Frame, cols: usize, x0: i64, y0: i64) -> Group {
    let mut g = Group::new().set("class", "frame").add(left(x0 as f64, (y0 + 14) as f64, 12, f.caption.clone()));
    let gy = y0 + CAPTION;
    let centre = |i: usize| {
        let (r, c) = ((i / cols) as i64, (i % cols) as i64);
        ((x0 + c * CELL + CELL / 2) as f64, (gy + r * CELL + CELL / 2) as f64)
    };
    if f.cells.is_empty() {
        g = g.add(left(x0 as f64, (gy + 15) as f64, 12, "(empty)"));
    }
    for (i, &d) in f.cells.iter().enumerate() {
        let (cx, cy) = centre(i);
        let half = (CELL / 2) as f64;
        let fill = if d == 0 { "#d8d8d8" } else { "#ffffff" };
        g = g.add(
            Rectangle::new()
                .set("class", "cell")
                .set("x", px(cx - half))
                .set("y", px(cy - half))
                .set("width", CELL)
                .set("height", CELL)
                .set("fill", fill)
                .set("stroke", "#999999"),
        );
        if d != 0 {
            g = g.add(centred(cx, cy + 5.0, 14, d.to_string()).set("class", "digit"));
        }
    }
    if let Some((i, j)) = f.picked {
        let ((x1, y1), (x2, y2)) = (centre(i), centre(j));
        g = g.add(
            Line::new()
                .set("class", "link")
                .set("x1", px(x1))
                .set("y1", px(y1))
                .set("x2", px(x2))
                .set("y2", px(y2))
                .set("stroke", "#d00000")
                .set("stroke-opacity", "0.6")
                .set("stroke-width", 3),
        );
        for (x, y) in [(x1, y1), (x2, y2)] {
            g = g.add(
                Circle::new()
                    .set("class", "pick")
                    .set("cx", px(x))
                    .set("cy", px(y))
                    .set("r", 9)
                    .set("fill", "none")
                    .set("stroke", "#d00000")
                    .set("stroke-width", 2.5),
            );
        }
    }
    g
}

/// The picture of the answer for `game`.
pub(crate) fn svg(game: &Game, shown: &Shown<'_>, options: &RunOptions) -> String {
    let text = view::text(game, shown, options);
    let heading: Vec<&str> = text.lines().take(2).collect();
    // The move lines of the text answer (`  3. 2 at (1,2) with 2 at (2,3)`).
    let captions: Vec<String> = text
        .lines()
        .map(str::trim_start)
        .filter(|l| l.split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
        .map(str::to_string)
        .collect();
    let line = match shown {
        Shown::Optimal(moves) => Some(*moves),
        Shown::NoWin => None,
        Shown::Stopped { best, .. } => *best,
    };
    let all = frames(game, line.unwrap_or_default(), &captions);
    let cols = game.cols.max(1);
    let rows = all.iter().map(|f| f.cells.len().div_ceil(cols)).max().unwrap_or(0).max(1) as i64;
    let widest_caption = all.iter().map(|f| text_width(&f.caption, 12)).max().unwrap_or(0);
    let frame_w = (cols as i64 * CELL).max(widest_caption);
    let frame_h = CAPTION + rows * CELL;
    let per_row = ((PAGE_WIDTH + GAP) / (frame_w + GAP)).clamp(1, all.len().max(1) as i64);
    let frame_rows = (all.len() as i64 + per_row - 1) / per_row;
    let heading_w = heading.iter().map(|l| text_width(l, 13)).max().unwrap_or(0);
    let width = 2 * MARGIN + (per_row * (frame_w + GAP) - GAP).max(heading_w);
    let top = MARGIN + 2 * LINE + 8;
    let height = top + frame_rows * (frame_h + GAP) - GAP + MARGIN;
    let mut doc = page(width, height).add(Title::new(heading.join("; ")));
    for (k, l) in heading.iter().enumerate() {
        let t = left(MARGIN as f64, (MARGIN + 14 + k as i64 * LINE) as f64, 13, *l);
        doc = doc.add(if k == 0 { t.set("font-weight", "bold") } else { t });
    }
    for (k, f) in all.iter().enumerate() {
        let (r, c) = (k as i64 / per_row, k as i64 % per_row);
        doc = doc.add(frame_group(f, cols, MARGIN + c * (frame_w + GAP), top + r * (frame_h + GAP)));
    }
    finish(doc)
}
