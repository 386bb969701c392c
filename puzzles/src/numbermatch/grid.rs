//! Reading a `numbermatch` statement: parameters, options and the grid, with errors that
//! point at the offending cell.

use cpsolve_dsl::ast::{File, GridRow, Item, PuzzleKind, SolveMode};
use cpsolve_dsl::Diagnostic;

use super::rules::Rules;
use cpsolve_models::options::{word_option, UnknownOption};
use cpsolve_models::params::Params;

/// The widest grid accepted; the app has 9 columns.
const MAX_COLS: i64 = 64;
/// The most adds accepted (each add may double the grid).
const MAX_ADDS: i64 = 20;
/// The app's number of adds.
pub(crate) const DEFAULT_ADDS: u32 = 5;

/// A position: the rules, the layout, and the cells in reading order (0 = cleared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub rules: Rules,
    pub cols: usize,
    pub cells: Vec<u8>,
    /// Adds allowed (`None`: unlimited, the paper game's default).
    pub adds: Option<u32>,
}

impl Game {
    /// The digits still on the grid.
    pub fn remaining(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }
}

/// Reads the single `numbermatch` statement of `file`.
pub(crate) fn read(file: &File) -> Result<Game, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut statement: Option<(&[cpsolve_dsl::ast::Param], &[GridRow], cpsolve_dsl::ast::Span)> = None;
    let mut rules = Rules::App;
    for item in &file.items {
        match &item.node {
            Item::Puzzle { kind, params, rows } if kind.node == PuzzleKind::NumberMatch && statement.is_none() => {
                statement = Some((params, rows, item.span.clone()));
            }
            Item::Solve(mode) if mode.node != SolveMode::First => errors.push(
                Diagnostic::new("a `numbermatch` model has one answer", mode.span.clone())
                    .with_label("only `solve first` applies")
                    .with_note("the answer is one optimal winning sequence, or the proof that none exists"),
            ),
            Item::Solve(_) => {}
            Item::Option { name, values } => match name.node.as_str() {
                "rules" => match word_option(name, values, &["app", "classic"]) {
                    Ok("classic") => rules = Rules::Classic,
                    Ok(_) => rules = Rules::App,
                    Err(e) => errors.push(e),
                },
                _ => errors.push(UnknownOption { name, known: &["rules"] }.into()),
            },
            _ => errors.push(
                Diagnostic::new("a numbermatch file holds one `numbermatch` statement", item.span.clone())
                    .with_label("not allowed here")
                    .with_note("besides the statement and its grid, only `solve` and `option` lines may appear"),
            ),
        }
    }
    let Some((params, rows, span)) = statement else {
        if errors.is_empty() {
            errors.push(Diagnostic::new("no `numbermatch` statement", 0..0));
        }
        return Err(errors);
    };
    let mut cols = 9;
    let mut adds = match rules {
        Rules::App => Some(DEFAULT_ADDS),
        Rules::Classic => None,
    };
    match Params::new(params, span.clone(), &["cols", "adds"]) {
        Ok(p) => {
            match p.int("cols", 1, MAX_COLS, Some(9)) {
                Ok(c) => cols = c as usize,
                Err(e) => errors.push(e),
            }
            if params.iter().any(|p| p.name.node == "adds") {
                match p.int("adds", 0, MAX_ADDS, None) {
                    Ok(a) => adds = Some(a as u32),
                    Err(e) => errors.push(e),
                }
            }
        }
        Err(e) => errors.push(e),
    }
    if rows.is_empty() {
        errors.push(
            Diagnostic::new("a `numbermatch` statement needs its grid", span)
                .with_label("no grid rows follow")
                .with_note("write the rows below the statement: digits 1-9, `.` for a cleared cell"),
        );
    }
    let mut cells = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let chars: Vec<_> = row.chars().collect();
        for (k, (c, cspan)) in chars.iter().enumerate() {
            if k == cols {
                errors.push(
                    Diagnostic::new(
                        format!("row {} has {} cells: `cols` is {cols}", r + 1, chars.len()),
                        cspan.clone(),
                    )
                    .with_label("one cell too many"),
                );
                break;
            }
            match c {
                '1'..='9' => cells.push(*c as u8 - b'0'),
                '.' => cells.push(0),
                '0' => errors.push(
                    Diagnostic::new("0 is not a Number Match digit", cspan.clone())
                        .with_label("digits are 1 to 9")
                        .with_note("write `.` for a cleared cell"),
                ),
                _ => errors.push(
                    Diagnostic::new(format!("`{c}` is not a Number Match cell"), cspan.clone())
                        .with_label("expected a digit 1-9 or `.`"),
                ),
            }
        }
        if chars.len() < cols && r + 1 < rows.len() {
            let end = row.span.end;
            errors.push(
                Diagnostic::new(
                    format!("row {} has {} cells: only the last row may be short", r + 1, chars.len()),
                    end..end,
                )
                .with_label(format!("{} cells missing", cols - chars.len())),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut game = Game { rules, cols, cells, adds };
    // The app removes a row as soon as it is all cleared; a grid written with such rows
    // starts without them.
    if rules == Rules::App {
        super::rules::remove_empty_rows(&mut game.cells, cols);
    }
    Ok(game)
}
