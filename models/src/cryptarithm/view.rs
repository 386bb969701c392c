//! Showing a cryptarithm solution: the sum written out with each number under its word.
//!
//! ```text
//! SEND + MORE = MONEY
//! 9567 + 1085 = 10652
//! ```

use cpsolve_engine::VarId;
use serde_json::{Map, Value};

use super::equation::Atom;
use super::Cryptarithm;
use crate::picture::Canvas;
use crate::problem::{Record, SolutionView};

#[derive(Debug)]
pub(super) struct CryptView {
    crypt: Cryptarithm,
    letters: Vec<char>,
    vars: Vec<VarId>,
}

impl CryptView {
    pub(super) fn new(crypt: &Cryptarithm, letters: Vec<char>, vars: Vec<VarId>) -> CryptView {
        CryptView { crypt: crypt.clone(), letters, vars }
    }

    /// Enough bytes for one line of [`CryptView::line`] in most cases (a longer one only grows).
    fn line_capacity(&self) -> usize {
        self.crypt.terms.iter().map(|t| if let Atom::Word(w) = &t.atom { w.len() + 8 } else { 24 }).sum()
    }

    /// The equation as two aligned lines: `digits` false gives the words, true the numbers.
    fn line(&self, record: Option<&Record>) -> String {
        let mut out = String::with_capacity(self.line_capacity());
        for (i, term) in self.crypt.terms.iter().enumerate() {
            let on_right = i >= self.crypt.lhs_len;
            // Terms on the right side were negated when flattened; show them as written.
            let coef = if on_right { -term.coef } else { term.coef };
            let first_of_side = i == 0 || i == self.crypt.lhs_len;
            if i == self.crypt.lhs_len {
                out.push_str(" = ");
            }
            match (first_of_side, coef < 0) {
                (true, true) => out.push('-'),
                (true, false) => {}
                (false, true) => out.push_str(" - "),
                (false, false) => out.push_str(" + "),
            }
            let magnitude = coef.unsigned_abs();
            match &term.atom {
                Atom::One => out.push_str(&magnitude.to_string()),
                Atom::Word(word) => {
                    if magnitude != 1 {
                        out.push_str(&format!("{magnitude}*"));
                    }
                    for &c in word {
                        match record {
                            None => out.push(c),
                            Some(values) => {
                                let index = self.letters.iter().position(|&l| l == c).expect("known letter");
                                let digit = values[index] as u32;
                                out.push(char::from_digit(digit, self.crypt.base).unwrap_or('?'));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

impl SolutionView for CryptView {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn text(&self, record: &Record) -> String {
        use std::fmt::Write;
        // Both lines, then "A=1 " per letter (a digit above 9 in a large base takes two).
        let mut out = String::with_capacity(2 * self.line_capacity() + 5 * self.letters.len() + 3);
        out.push_str(&self.line(None));
        out.push('\n');
        out.push_str(&self.line(Some(record)));
        out.push('\n');
        for (i, (c, v)) in self.letters.iter().zip(record).enumerate() {
            let gap = if i == 0 { "" } else { " " };
            let _ = write!(out, "{gap}{c}={v}");
        }
        out.push('\n');
        out
    }

    fn draws(&self) -> bool {
        true
    }

    fn picture(&self, record: &Record) -> Option<Canvas> {
        Some(super::picture::draw(&self.crypt, &self.letters, record))
    }

    fn json(&self, record: &Record) -> Value {
        let mut map = Map::new();
        for (c, &v) in self.letters.iter().zip(record) {
            map.insert(c.to_string(), Value::from(v));
        }
        Value::Object(map)
    }
}
