//! Puzzles answered by their own solver instead of one engine search: the kind of a file,
//! and solving or checking it.

use cpsolve_dsl::ast::{File, Item, PuzzleKind};
use cpsolve_dsl::Diagnostic;

use crate::outcome::Outcome;
use cpsolve_models::run::RunOptions;

/// A puzzle with its own solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direct {
    Compte,
    Minesweeper,
    NumberMatch,
}

/// Which own-solver puzzle the file states, if any (otherwise it is compiled for the engine).
pub fn direct_kind(file: &File) -> Option<Direct> {
    file.items.iter().find_map(|item| match &item.node {
        Item::Compte { .. } => Some(Direct::Compte),
        Item::Puzzle { kind, .. } => match kind.node {
            PuzzleKind::Minesweeper => Some(Direct::Minesweeper),
            PuzzleKind::NumberMatch => Some(Direct::NumberMatch),
            PuzzleKind::Queens | PuzzleKind::NoThreeInLine => None,
        },
        _ => None,
    })
}

/// Solves the puzzle of the file with its own solver.
pub fn solve(kind: Direct, file: &File, options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    match kind {
        Direct::Compte => crate::compte::solve(file, options),
        Direct::Minesweeper => crate::minesweeper::solve(file, options),
        Direct::NumberMatch => crate::numbermatch::solve(file, options),
    }
}

/// Checks the puzzle without solving it (`cpsolve check`): a one-line description.
pub fn check(kind: Direct, file: &File) -> Result<String, Vec<Diagnostic>> {
    match kind {
        Direct::Compte => crate::compte::check(file).map(|tiles| format!("compte, {tiles} tiles")),
        Direct::Minesweeper => crate::minesweeper::check(file),
        Direct::NumberMatch => crate::numbermatch::check(file),
    }
}
