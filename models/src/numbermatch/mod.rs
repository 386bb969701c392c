//! Number Match (SPEC §1.2): a winning sequence with the fewest adds, then the fewest moves.

use cpsolve_dsl::ast::{File, Item};
use cpsolve_dsl::Diagnostic;

use crate::outcome::Outcome;
use crate::run::RunOptions;

fn not_yet(file: &File) -> Vec<Diagnostic> {
    let span = file.items.iter().find(|i| matches!(i.node, Item::Puzzle { .. })).map_or(0..0, |i| i.span.clone());
    vec![Diagnostic::new("`numbermatch` puzzles are not supported yet", span)
        .with_label("this puzzle kind has no solver in this version")]
}

/// Solves a `numbermatch` grid.
pub fn solve(file: &File, _options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    Err(not_yet(file))
}

/// Checks a `numbermatch` grid without solving it.
pub fn check(file: &File) -> Result<String, Vec<Diagnostic>> {
    Err(not_yet(file))
}
