//! Choosing the front end for a parsed file: a puzzle statement selects its model, and
//! anything else is a generic model.

use cpsolve_dsl::ast::{File, Item, PuzzleKind};
use cpsolve_dsl::Diagnostic;

use crate::problem::Problem;

/// Compiles a parsed file into a problem ready to search.
pub fn compile(file: &File) -> Result<Problem, Vec<Diagnostic>> {
    for item in &file.items {
        let name = match &item.node {
            Item::Cryptarithm { .. } => return crate::cryptarithm::compile(file),
            Item::Puzzle { kind, .. } => match kind.node {
                PuzzleKind::Queens => return crate::queens::compile(file),
                PuzzleKind::NoThreeInLine => "nothreeinline",
                PuzzleKind::Minesweeper => "minesweeper",
                PuzzleKind::NumberMatch => "numbermatch",
            },
            Item::Compte { .. } => "compte",
            _ => continue,
        };
        return Err(vec![Diagnostic::new(format!("`{name}` puzzles are not supported yet"), item.span.clone())
            .with_label("this puzzle kind has no solver in this version")]);
    }
    Err(vec![Diagnostic::new("generic models are not supported yet", 0..0)])
}
