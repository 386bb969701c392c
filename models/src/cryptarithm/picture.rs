//! The picture of a cryptarithm solution: the sum set out in columns as on paper, the left
//! side's terms above the rule and the right side's below it, each letter's cell showing its
//! digit (blue: found) with the letter in its corner; the carries in small figures above
//! the columns; and a key of letters → digits below.
//!
//! The carries are the column model's: column j sums `Σ coef·digit + constant digit + carry
//! in` over every term (the right side's negated), which is `base · carry out`. For
//! `SEND + MORE = MONEY` that is the school carry; with subtraction or coefficients a carry
//! may exceed 1 or be negative, and is shown as it is. Zero carries are left blank, as on
//! paper.

use super::equation::Atom;
use super::Cryptarithm;
use crate::picture::{colour, Anchor, Canvas, CELL, MARGIN};
use crate::problem::Record;

/// The height of a row of digits.
const ROW: f64 = 44.0;
/// The height of the carries' row.
const CARRY_ROW: f64 = 22.0;
/// The width left of the columns for the signs and coefficients.
const SIGN_WIDTH: f64 = 70.0;
/// The side of a key cell.
const KEY: f64 = 28.0;

/// The digits of `value` (its magnitude), least significant first.
fn digits_of(value: i128, base: i128) -> Vec<i128> {
    let mut value = value.abs();
    let mut digits = Vec::new();
    while value > 0 {
        digits.push(value % base);
        value /= base;
    }
    digits
}

fn digit_char(digit: i128, base: u32) -> String {
    u32::try_from(digit).ok().and_then(|d| char::from_digit(d, base)).map_or_else(|| "?".to_string(), String::from)
}

/// One cell of a term's row: its letter (none for a digit of a constant) and its digit.
type Cell = (Option<char>, i128);

pub(super) fn draw(crypt: &Cryptarithm, letters: &[char], record: &Record) -> Canvas {
    let base = i128::from(crypt.base);
    let value_of = |c: char| letters.iter().position(|&l| l == c).map_or(0, |i| i128::from(record[i]));
    // Each term as (sign and coefficient label, its cells: (letter, digit) least significant first).
    let rows: Vec<(String, Vec<Cell>)> = crypt
        .terms
        .iter()
        .enumerate()
        .map(|(i, term)| {
            let on_right = i >= crypt.lhs_len;
            // The right side's terms were negated when flattened; show them as written.
            let coef = if on_right { -term.coef } else { term.coef };
            let first_of_side = i == 0 || i == crypt.lhs_len;
            let sign = match (first_of_side, coef < 0) {
                (_, true) => "−",
                (true, false) => "",
                (false, false) => "+",
            };
            match &term.atom {
                Atom::One => {
                    (sign.to_string(), digits_of(i128::from(coef), base).into_iter().map(|d| (None, d)).collect())
                }
                Atom::Word(word) => {
                    let magnitude = coef.unsigned_abs();
                    let label = if magnitude == 1 { sign.to_string() } else { format!("{sign} {magnitude}×") };
                    (label, word.iter().rev().map(|&c| (Some(c), value_of(c))).collect())
                }
            }
        })
        .collect();
    let columns = rows.iter().map(|(_, cells)| cells.len()).max().unwrap_or(0).max(1);
    // The carry into column j + 1: what column j sums, over the base.
    let mut carries = vec![0i128; columns + 1];
    for j in 0..columns {
        let mut sum = carries[j];
        for (term, (_, cells)) in crypt.terms.iter().zip(&rows) {
            let Some(&(_, digit)) = cells.get(j) else { continue };
            sum += match term.atom {
                Atom::One => digit * term.coef.signum() as i128,
                Atom::Word(_) => digit * i128::from(term.coef),
            };
        }
        carries[j + 1] = sum.div_euclid(base);
    }

    let width = SIGN_WIDTH + columns as f64 * CELL + 2.0 * MARGIN;
    let key_columns = letters.len().max(1);
    let key_width = key_columns as f64 * KEY;
    let width = width.max(key_width + 2.0 * MARGIN);
    let sums_height = CARRY_ROW + rows.len() as f64 * ROW + 8.0;
    let height = MARGIN + sums_height + 16.0 + 2.0 * KEY + MARGIN;
    let mut canvas = Canvas::new(width, height);
    canvas.set_title(&format!("cryptarithm {}", letters.iter().collect::<String>()));
    let right = width - MARGIN;
    let x_of = |j: usize| right - (j + 1) as f64 * CELL;

    for (j, &carry) in carries.iter().enumerate().take(columns).skip(1) {
        if carry != 0 {
            let text = if carry < 0 { format!("−{}", -carry) } else { carry.to_string() };
            canvas.text(
                "carry",
                x_of(j) + CELL / 2.0,
                MARGIN + CARRY_ROW / 2.0,
                13.0,
                Anchor::Middle,
                colour::WARNING,
                &text,
            );
        }
    }
    let mut y = MARGIN + CARRY_ROW;
    for (i, (label, cells)) in rows.iter().enumerate() {
        if i == crypt.lhs_len {
            canvas.line("rule", (x_of(columns - 1) - SIGN_WIDTH / 2.0, y + 4.0), (right, y + 4.0), colour::INK, 2.0);
            y += 8.0;
        }
        canvas.text("sign", x_of(cells.len().max(1) - 1) - 8.0, y + ROW / 2.0, 20.0, Anchor::End, colour::INK, label);
        for (j, &(letter, digit)) in cells.iter().enumerate() {
            let x = x_of(j);
            let (class, fill) =
                if letter.is_some() { ("digit found", colour::FOUND) } else { ("digit given", colour::INK) };
            canvas.rect("cell", x + 2.0, y + 2.0, CELL - 4.0, ROW - 4.0, colour::BACKGROUND, Some((colour::GRID, 0.5)));
            canvas.text(
                class,
                x + CELL / 2.0 + 3.0,
                y + ROW / 2.0 + 3.0,
                22.0,
                Anchor::Middle,
                fill,
                &digit_char(digit, crypt.base),
            );
            if let Some(letter) = letter {
                canvas.text("letter", x + 9.0, y + 11.0, 11.0, Anchor::Middle, colour::INK, &letter.to_string());
            }
        }
        y += ROW;
    }
    if rows.len() == crypt.lhs_len {
        y += 8.0;
    }
    // The key: each letter above its digit.
    let y = y + 16.0;
    let left = (width - key_width) / 2.0;
    for (k, &letter) in letters.iter().enumerate() {
        let x = left + k as f64 * KEY;
        canvas.rect("key", x, y, KEY, 2.0 * KEY, colour::GIVEN_CELL, Some((colour::GRID, 0.5)));
        canvas.text("key-letter", x + KEY / 2.0, y + KEY / 2.0, 14.0, Anchor::Middle, colour::INK, &letter.to_string());
        let digit = digit_char(i128::from(record[k]), crypt.base);
        canvas.text("key-digit", x + KEY / 2.0, y + 1.5 * KEY, 16.0, Anchor::Middle, colour::FOUND, &digit);
    }
    canvas
}
