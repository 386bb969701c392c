//! The picture of a `compte` answer (`--format svg`): each solution as an expression tree.
//!
//! A solution of the text answer is a list of steps (`100 × 4 = 400`); drawn, the same
//! steps form a binary tree ([`super::expr::Tree`], built by the code that prints the
//! steps, so the two cannot disagree): the tiles used are the leaves (dark squares, like
//! the game's tiles), each step is an inner node showing its operation in a dark disc and
//! its result, and the root is the value reached, framed in green when it is the target
//! and in orange when it is only the closest value. A tree has one node per tile used plus
//! one per operation. Over the trees: the tiles and the target, and the lines of the text
//! answer that are not steps (the closest values, the number of solutions, a limit).

use svg::node::element::{Circle, Group, Line, Rectangle, Title};

use super::expr::Tree;
use super::reach::Value;
use crate::picture::{centred, finish, left, page, px, text_width};

/// Trees drawn at most; the text answer lists every solution.
const MAX_TREES: usize = 12;
const MARGIN: i64 = 16;
/// The vertical distance between a node and its children.
const LEVEL: f64 = 62.0;
const NODE_H: f64 = 30.0;
const LINE: i64 = 20;

/// A node placed on the page, ready to draw.
struct Placed {
    x: f64,
    y: f64,
    label: String,
    op: Option<&'static str>,
    children: Vec<usize>,
}

/// Room in a step's box for its operation disc, left of the value.
const DISC_ROOM: f64 = 24.0;

/// The width of a node's box for `label` (bold digits run wider than plain text).
fn node_width(label: &str, step: bool) -> f64 {
    (text_width(label, 17) as f64 + 16.0).max(44.0) + if step { DISC_ROOM } else { 0.0 }
}

/// How an operation is drawn: the text answer's `-` as a true minus sign.
fn glyph(op: &str) -> &str {
    if op == "-" {
        "−"
    } else {
        op
    }
}

/// Places the nodes of `tree`: leaves left to right, one slot each, in the order of the
/// steps' operands; an inner node midway over its two children; depth downwards.
fn place(tree: &Tree, depth: usize, slot: f64, next_leaf: &mut usize, out: &mut Vec<Placed>) -> usize {
    let y = depth as f64 * LEVEL;
    let (x, op, children) = match tree {
        Tree::Tile(_) => {
            let x = *next_leaf as f64 * slot;
            *next_leaf += 1;
            (x, None, Vec::new())
        }
        Tree::Step { op, left, right, .. } => {
            let l = place(left, depth + 1, slot, next_leaf, out);
            let r = place(right, depth + 1, slot, next_leaf, out);
            ((out[l].x + out[r].x) / 2.0, Some(op.symbol()), vec![l, r])
        }
    };
    out.push(Placed { x, y, label: tree.value().to_string(), op, children });
    out.len() - 1
}

fn labels(tree: &Tree, out: &mut Vec<(String, bool)>) {
    out.push((tree.value().to_string(), matches!(tree, Tree::Step { .. })));
    if let Tree::Step { left, right, .. } = tree {
        labels(left, out);
        labels(right, out);
    }
}

/// One solution's tree at (`x0`, `y0`) (the top left of its box), with its size.
fn tree_group(tree: &Tree, exact: bool, x0: f64, y0: f64) -> (Group, f64, f64) {
    let mut all = Vec::new();
    labels(tree, &mut all);
    let slot = all.iter().map(|(l, step)| node_width(l, *step)).fold(0.0, f64::max) + 12.0;
    let mut nodes = Vec::new();
    let root = place(tree, 0, slot, &mut 0, &mut nodes);
    let width = nodes.iter().map(|n| n.x).fold(0.0, f64::max) + slot;
    let height = nodes.iter().map(|n| n.y).fold(0.0, f64::max) + NODE_H;
    // Node centres, shifted into the box.
    let at = |n: &Placed| (x0 + slot / 2.0 + n.x, y0 + NODE_H / 2.0 + n.y);
    let mut g = Group::new().set("class", "tree");
    for n in &nodes {
        for &c in &n.children {
            let ((x1, y1), (x2, y2)) = (at(n), at(&nodes[c]));
            g = g.add(
                Line::new()
                    .set("x1", px(x1))
                    .set("y1", px(y1))
                    .set("x2", px(x2))
                    .set("y2", px(y2))
                    .set("stroke", "#555555")
                    .set("stroke-width", 2),
            );
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        let (cx, cy) = at(n);
        let w = node_width(&n.label, n.op.is_some());
        let (class, fill, ink, mut stroke, mut stroke_width) = match n.op {
            None => ("tile", "#1f3f6e", "#ffffff", "#0d2340", 1),
            Some(_) => ("step", "#fff4d0", "#000000", "#b08000", 1),
        };
        if i == root {
            stroke = if exact { "#1a8a1a" } else { "#e07000" };
            stroke_width = 4;
        }
        g = g.add(
            Rectangle::new()
                .set("class", class)
                .set("x", px(cx - w / 2.0))
                .set("y", px(cy - NODE_H / 2.0))
                .set("width", px(w))
                .set("height", px(NODE_H))
                .set("rx", 5)
                .set("fill", fill)
                .set("stroke", stroke)
                .set("stroke-width", stroke_width),
        );
        let text_x = if n.op.is_some() { cx + DISC_ROOM / 2.0 } else { cx };
        g = g.add(centred(text_x, cy + 5.5, 15, n.label.clone()).set("fill", ink).set("font-weight", "bold"));
        if let Some(op) = n.op {
            let ox = cx - w / 2.0 + 15.0;
            g = g
                .add(
                    Circle::new()
                        .set("class", "op")
                        .set("cx", px(ox))
                        .set("cy", px(cy))
                        .set("r", 10)
                        .set("fill", "#5a3a00"),
                )
                .add(centred(ox, cy + 5.5, 16, glyph(op)).set("fill", "#ffffff").set("font-weight", "bold"));
        }
    }
    (g, width, height)
}

/// The picture of a `compte` answer: `tiles` and `target` as given, the value reached,
/// the solutions kept (their trees), and the text answer (for its non-step lines).
pub(crate) fn svg(tiles: &[Value], target: Value, best: Option<Value>, trees: &[Tree], text: &str) -> String {
    let tiles_line =
        format!("tiles {} → target {target}", tiles.iter().map(Value::to_string).collect::<Vec<_>>().join(" "));
    let mut heading = vec![tiles_line];
    // The lines of the text answer that are not steps: the closest values, the summary.
    heading.extend(text.lines().filter(|l| !l.is_empty() && !l.contains(" = ")).map(str::to_string));
    let exact = best == Some(target);
    let shown = trees.len().min(MAX_TREES);
    if trees.len() > shown {
        heading.push(format!("the first {shown} of {} solutions drawn", trees.len()));
    }
    let mut y = MARGIN + heading.len() as i64 * LINE + 10;
    let mut width = heading.iter().map(|l| text_width(l, 13)).max().unwrap_or(0);
    let mut panels = Vec::new();
    for (k, tree) in trees.iter().take(shown).enumerate() {
        let steps = count_steps(tree);
        let caption = if shown > 1 {
            format!("solution {}: {} ", k + 1, plural(steps, "step"))
        } else {
            format!("{} ", plural(steps, "step"))
        };
        let reached = match (exact, tree.value()) {
            (true, v) => format!("{v} = the target"),
            (false, v) => format!("{v}: closest to {target}, {} away", v.abs_diff(u128::from(target))),
        };
        let text = left(MARGIN as f64, (y + 14) as f64, 13, format!("{caption}— {reached}"));
        let (g, w, h) = tree_group(tree, exact, MARGIN as f64, (y + 26) as f64);
        panels.push(Group::new().set("class", "solution").add(text).add(g));
        width = width.max(w.ceil() as i64).max(text_width(&caption, 13) + 200);
        y += 26 + h.ceil() as i64 + 24;
    }
    let height = y + MARGIN;
    let mut doc = page(width + 2 * MARGIN, height).add(Title::new(heading.join("; ")));
    for (k, line) in heading.iter().enumerate() {
        let t = left(MARGIN as f64, (MARGIN + 14 + k as i64 * LINE) as f64, 13, line.clone());
        doc = doc.add(if k == 0 { t.set("font-weight", "bold") } else { t });
    }
    for p in panels {
        doc = doc.add(p);
    }
    finish(doc)
}

fn count_steps(tree: &Tree) -> usize {
    match tree {
        Tree::Tile(_) => 0,
        Tree::Step { left, right, .. } => 1 + count_steps(left) + count_steps(right),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
