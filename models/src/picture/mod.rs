//! Pictures of answers (`--format svg`): a small layer over the `svg` crate that every kind
//! with a board draws with, so that all pictures share one look and one structure.
//!
//! A picture is drawn on a [`Canvas`] in user units (one board cell is [`CELL`] units wide);
//! its size becomes the SVG `viewBox`, so a viewer scales it freely. Each shape carries two
//! kinds of attributes:
//!
//! - presentation attributes (`fill`, `stroke`, `font-size`, ...) that draw it, so that any
//!   renderer shows the same picture without a style sheet;
//! - a `class` that says what the shape stands for (`cell`, `given`, `found`, `queen`, ...),
//!   which is what tests count and what a user's CSS may restyle.
//!
//! The output is deterministic: the `svg` crate writes attributes in name order, and every
//! coordinate comes from integers and fixed sizes.

use svg::node::element::{Circle, Element, Line, Rectangle, Text as TextElement};
use svg::{Document, Node};

/// The side of one board cell, in user units.
pub const CELL: f64 = 40.0;
/// The margin around a board, in user units.
pub const MARGIN: f64 = 20.0;
/// The font of every text.
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
/// The height of a caption's band.
const CAPTION_HEIGHT: f64 = 30.0;

/// Colours shared by the pictures: ink for what the puzzle states, blue for what the
/// solver found, so "given" and "found" are told apart at a glance.
pub mod colour {
    pub const BACKGROUND: &str = "#ffffff";
    pub const INK: &str = "#000000";
    pub const GRID: &str = "#888888";
    pub const FOUND: &str = "#1f5fbf";
    pub const LIGHT_SQUARE: &str = "#f4f4f4";
    pub const DARK_SQUARE: &str = "#d4d4d4";
    pub const GIVEN_CELL: &str = "#e8e8e8";
    pub const MUTED: &str = "#666666";
    pub const WARNING: &str = "#c03030";
}

/// A text's horizontal anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// A picture being drawn: its size and its shapes, in drawing order.
#[derive(Debug)]
pub struct Canvas {
    width: f64,
    height: f64,
    title: Option<String>,
    shapes: Vec<Box<dyn Node>>,
}

impl Canvas {
    /// An empty picture of the given size (user units).
    pub fn new(width: f64, height: f64) -> Canvas {
        Canvas { width, height, title: None, shapes: Vec::new() }
    }

    pub fn width(&self) -> f64 {
        self.width
    }

    pub fn height(&self) -> f64 {
        self.height
    }

    /// The `<title>` of the picture (what a viewer shows as its name; read by screen readers).
    pub fn set_title(&mut self, title: &str) {
        self.title = Some(title.to_string());
    }

    /// Any element of the `svg` crate, for shapes the helpers below do not cover.
    pub fn add(&mut self, node: impl Node) {
        self.shapes.push(Box::new(node));
    }

    /// A filled rectangle with an outline (`stroke` `None`: no outline).
    #[allow(clippy::too_many_arguments, reason = "a rectangle is its place, size and paint")]
    pub fn rect(&mut self, class: &str, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<(&str, f64)>) {
        let mut rect = Rectangle::new()
            .set("class", class)
            .set("x", x)
            .set("y", y)
            .set("width", w)
            .set("height", h)
            .set("fill", fill);
        if let Some((colour, width)) = stroke {
            rect = rect.set("stroke", colour).set("stroke-width", width);
        }
        self.add(rect);
    }

    /// A straight line.
    pub fn line(&mut self, class: &str, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64) {
        self.add(
            Line::new()
                .set("class", class)
                .set("x1", from.0)
                .set("y1", from.1)
                .set("x2", to.0)
                .set("y2", to.1)
                .set("stroke", stroke)
                .set("stroke-width", width)
                .set("stroke-linecap", "round"),
        );
    }

    /// A filled disc.
    pub fn circle(&mut self, class: &str, centre: (f64, f64), radius: f64, fill: &str) {
        self.add(
            Circle::new()
                .set("class", class)
                .set("cx", centre.0)
                .set("cy", centre.1)
                .set("r", radius)
                .set("fill", fill),
        );
    }

    /// A line of text whose baseline sits so that the text is vertically centred on `y`.
    #[allow(clippy::too_many_arguments, reason = "a text is its place, size, anchor, paint and words")]
    pub fn text(&mut self, class: &str, x: f64, y: f64, size: f64, anchor: Anchor, fill: &str, content: &str) {
        // A third of the font size below the centre: the middle of a digit's height, without
        // `dominant-baseline`, which not every renderer follows.
        let baseline = y + (size * 0.35).round();
        // As a plain element: the `svg` crate writes a `text` element's own content on lines of
        // its own, which would put spaces around every digit.
        self.add(Element::from(
            TextElement::new(content)
                .set("class", class)
                .set("x", x)
                .set("y", baseline)
                .set("font-family", FONT)
                .set("font-size", size)
                .set("text-anchor", anchor.name())
                .set("fill", fill),
        ));
    }

    /// Adds a caption (e.g. "92 solutions; the first is shown") in a band below the picture.
    /// A caption wider than the picture widens it (the board stays where it is), so that
    /// no renderer clips the caption at the picture's edge.
    pub fn caption(&mut self, caption: &str) {
        let y = self.height + CAPTION_HEIGHT / 2.0;
        self.height += CAPTION_HEIGHT;
        self.width = self.width.max(caption_width(caption) + 2.0 * MARGIN);
        let x = self.width / 2.0;
        self.text("caption", x, y - 4.0, 16.0, Anchor::Middle, colour::INK, caption);
    }

    /// The SVG document, as text ending in a newline.
    pub fn finish(self) -> String {
        let mut document = Document::new()
            .set("viewBox", (0.0, 0.0, self.width, self.height))
            .set("width", self.width)
            .set("height", self.height);
        if let Some(title) = &self.title {
            document = document.add(svg::node::element::Title::new(title.clone()));
        }
        document = document.add(
            Rectangle::new()
                .set("class", "background")
                .set("x", 0)
                .set("y", 0)
                .set("width", self.width)
                .set("height", self.height)
                .set("fill", colour::BACKGROUND),
        );
        for shape in self.shapes {
            document.append(shape);
        }
        format!("{document}\n")
    }
}

/// An upper estimate of a caption's width: a sans-serif character at 16 px is at most about
/// 0.62 em wide on average (digits and lower-case letters are 0.55 to 0.6).
fn caption_width(caption: &str) -> f64 {
    caption.chars().count() as f64 * 16.0 * 0.62
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caption_wider_than_the_board_widens_the_picture() {
        let caption = "stopped: time limit of 2 s reached; 791631 solutions found so far, the first is shown";
        let mut canvas = Canvas::new(60.0, 60.0);
        canvas.caption(caption);
        assert!(canvas.width() >= caption_width(caption) + 2.0 * MARGIN, "{}", canvas.width());
        let mut wide = Canvas::new(600.0, 60.0);
        wide.caption("2 solutions");
        assert_eq!(wide.width(), 600.0, "a short caption leaves the width alone");
    }

    #[test]
    fn a_picture_is_an_svg_document_with_its_view_box_and_escaped_text() {
        let mut canvas = Canvas::new(200.0, 50.0);
        canvas.set_title("A < B");
        canvas.rect("cell", 0.0, 0.0, 40.0, 40.0, colour::GIVEN_CELL, Some((colour::GRID, 1.0)));
        canvas.text("value", 20.0, 20.0, 20.0, Anchor::Middle, colour::INK, "a&b");
        canvas.caption("2 solutions");
        let svg = canvas.finish();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains(r#"viewBox="0 0 200 80""#), "{svg}");
        assert!(svg.contains("a&amp;b") && svg.contains("A &lt; B"), "{svg}");
        assert!(svg.ends_with("</svg>\n"), "{svg}");
    }
}
