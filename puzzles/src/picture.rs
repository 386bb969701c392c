//! What the three puzzles' pictures (`--format svg`) share: the page, text, and numbers
//! written the same way every time.
//!
//! A picture is an SVG document built with the `svg` crate and printed as a string. It must
//! come out byte for byte the same on every run and machine (the pictures are snapshot
//! tested), so coordinates are whole pixels or written by [`px`] with one fixed decimal,
//! colours are hex strings computed from integers, and nothing is taken from a hash map.
//! Every drawn thing that a reader (or a test) may want to count carries a `class`:
//! the tests parse the SVG and count cells, markers and tree nodes by class.

use svg::node::element::{Rectangle, Text};
use svg::Document;

/// The font of every picture: a generic family, so that any renderer finds one.
const FONT: &str = "DejaVu Sans, Verdana, sans-serif";

/// A coordinate with one decimal at most (`12`, `12.5`): never `12.000000001`.
pub(crate) fn px(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    if t % 10 == 0 {
        format!("{sign}{}", t / 10)
    } else {
        format!("{sign}{}.{}", t / 10, t % 10)
    }
}

/// An empty page of `width` × `height` pixels on a white background.
pub(crate) fn page(width: i64, height: i64) -> Document {
    Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", format!("0 0 {width} {height}"))
        .set("font-family", FONT)
        .add(Rectangle::new().set("width", width).set("height", height).set("fill", "#ffffff"))
}

/// Text centred on `x`, its baseline at `y`.
pub(crate) fn centred(x: f64, y: f64, size: u32, content: impl Into<String>) -> Text {
    Text::new(content).set("x", px(x)).set("y", px(y)).set("font-size", size).set("text-anchor", "middle")
}

/// Text starting at `x`, its baseline at `y`.
pub(crate) fn left(x: f64, y: f64, size: u32, content: impl Into<String>) -> Text {
    Text::new(content).set("x", px(x)).set("y", px(y)).set("font-size", size)
}

/// An approximate width of `text` at `size` pixels, to size pages to their captions
/// (a sans-serif digit or letter is about 0.6 em wide).
pub(crate) fn text_width(text: &str, size: u32) -> i64 {
    (text.chars().count() as f64 * f64::from(size) * 0.6).ceil() as i64
}

/// Printed SVG: the document with the XML declaration, ending with a newline.
pub(crate) fn finish(doc: Document) -> String {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{doc}\n")
}

#[cfg(test)]
mod tests {
    use super::px;

    #[test]
    fn coordinates_have_at_most_one_decimal() {
        assert_eq!(px(12.0), "12");
        assert_eq!(px(12.5), "12.5");
        assert_eq!(px(0.1 + 0.2), "0.3");
        assert_eq!(px(-3.25), "-3.3");
        assert_eq!(px(-0.5), "-0.5");
    }
}
