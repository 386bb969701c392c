//! Minesweeper (SPEC §1.2): the exact mine probability of every covered cell.

use cpsolve_dsl::ast::{File, Item};
use cpsolve_dsl::Diagnostic;

use crate::outcome::Outcome;
use crate::run::RunOptions;

fn not_yet(file: &File) -> Vec<Diagnostic> {
    let span = file.items.iter().find(|i| matches!(i.node, Item::Puzzle { .. })).map_or(0..0, |i| i.span.clone());
    vec![Diagnostic::new("`minesweeper` puzzles are not supported yet", span)
        .with_label("this puzzle kind has no solver in this version")]
}

/// Analyses a `minesweeper` position.
pub fn solve(file: &File, _options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    Err(not_yet(file))
}

/// Checks a `minesweeper` position without analysing it.
pub fn check(file: &File) -> Result<String, Vec<Diagnostic>> {
    Err(not_yet(file))
}

/// Analyses a JSMinesweeper position file (`.mine`), given its text; diagnostics point into it.
pub fn solve_mine_file(_text: &str, _options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    Err(vec![Diagnostic::new("JSMinesweeper `.mine` files are not supported yet", 0..0)])
}

/// Checks a JSMinesweeper position file without analysing it.
pub fn check_mine_file(_text: &str) -> Result<String, Vec<Diagnostic>> {
    Err(vec![Diagnostic::new("JSMinesweeper `.mine` files are not supported yet", 0..0)])
}
