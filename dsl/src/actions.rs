//! Helpers for the grammar's actions, and the last step from parsed lines to a `File`.
//!
//! lalrpop files may only hold `use` lines besides the rules, so the few actions that are
//! more than a constructor live here. The grammar parses a file as a list of [`Line`]s;
//! [`assemble`] then gives each `minesweeper`/`numbermatch` statement the grid rows that
//! follow it. That cannot be a grammar rule: the rows may come after `option` lines
//! (`numbermatch cols = 9`, `option rules = classic`, then the grid), and those lines are
//! statements of their own.

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{BinaryOp, Expr, File, GridRow, Ident, Item, PuzzleKind, SolveMode, Spanned, UnaryOp};
use crate::diagnostic::Diagnostic;
use crate::tokens::Token;

/// A parse error the parser recovered from (the grammar's `errors` parameter).
pub(crate) type Recovered<'src> = ErrorRecovery<usize, Token<'src>, Diagnostic>;

/// One line of the file as the grammar sees it.
#[derive(Debug)]
pub(crate) enum Line {
    Item(Spanned<Item>),
    /// Grid rows that stand on their own, after a puzzle statement.
    Rows(Vec<GridRow>),
    /// A line with a syntax error (already recorded).
    Error,
}

pub(crate) fn binary(op: BinaryOp, lhs: Spanned<Expr>, rhs: Spanned<Expr>) -> Spanned<Expr> {
    let span = lhs.span.start..rhs.span.end;
    Spanned::new(Expr::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

/// A prefix operator starting at `start`.
pub(crate) fn unary(op: UnaryOp, start: usize, operand: Spanned<Expr>) -> Spanned<Expr> {
    let span = start..operand.span.end;
    Spanned::new(Expr::Unary { op, operand: Box::new(operand) }, span)
}

pub(crate) fn range(lo: Spanned<Expr>, hi: Spanned<Expr>) -> Spanned<Expr> {
    let span = lo.span.start..hi.span.end;
    Spanned::new(Expr::Range { lo: Box::new(lo), hi: Box::new(hi) }, span)
}

/// `first`, `all` and `count` are not keywords (`count(...)` is a function), so the mode
/// of `solve` is read as a name and checked here.
pub(crate) fn solve_mode(word: Ident, errors: &mut Vec<Recovered<'_>>) -> Spanned<SolveMode> {
    let mode = match word.node.as_str() {
        "first" => SolveMode::First,
        "all" => SolveMode::All,
        "count" => SolveMode::Count,
        other => {
            let error = Diagnostic::new(format!("unknown solve mode `{other}`"), word.span.clone())
                .with_label("expected `first`, `all` or `count`");
            errors.push(ErrorRecovery { error: ParseError::User { error }, dropped_tokens: Vec::new() });
            SolveMode::First
        }
    };
    Spanned::new(mode, word.span)
}

/// Builds the file, attaching stand-alone grid rows to the grid puzzle above them.
/// `had_errors` silences the complaint about rows whose puzzle line did not parse.
pub(crate) fn assemble(lines: Vec<Line>, had_errors: bool, errors: &mut Vec<Diagnostic>) -> File {
    let mut items: Vec<Spanned<Item>> = Vec::with_capacity(lines.len());
    let mut grid_puzzle = None;
    for line in lines {
        match line {
            Line::Item(item) => {
                if let Item::Puzzle { kind, .. } = &item.node {
                    if matches!(kind.node, PuzzleKind::Minesweeper | PuzzleKind::NumberMatch) {
                        grid_puzzle = Some(items.len());
                    }
                }
                items.push(item);
            }
            Line::Rows(new_rows) => {
                let target = grid_puzzle.and_then(|index| items.get_mut(index));
                match target {
                    Some(Spanned { node: Item::Puzzle { rows, .. }, span }) if rows.is_empty() => {
                        if let Some(last) = new_rows.last() {
                            span.end = span.end.max(last.span.end);
                        }
                        *rows = new_rows;
                    }
                    Some(_) => {
                        if let Some(first) = new_rows.first() {
                            errors.push(
                                Diagnostic::new("unexpected grid row", first.span.clone())
                                    .with_label("the grid of this puzzle ended above")
                                    .with_note("a grid ends at the first blank or comment-only line"),
                            );
                        }
                    }
                    None if had_errors => {}
                    None => {
                        if let Some(first) = new_rows.first() {
                            errors.push(
                                Diagnostic::new("unexpected grid row", first.span.clone())
                                    .with_label("no `minesweeper` or `numbermatch` statement above"),
                            );
                        }
                    }
                }
            }
            Line::Error => {}
        }
    }
    File { items }
}
