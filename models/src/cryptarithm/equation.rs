//! Reading a cryptarithm statement: both sides flattened into signed terms.
//!
//! `MARI + FEMME + 12*ENFANT = FAMILLE` becomes `+1·MARI +1·FEMME +12·ENFANT −1·FAMILLE = 0`.
//! Any sum or difference of words, `k*WORD` (or the seed notation `k.WORD`) and integer
//! constants is accepted, on either side.

use cpsolve_dsl::ast::{BinaryOp, Expr, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;

/// What a term multiplies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Atom {
    /// A word: its letters, most significant first.
    Word(Vec<char>),
    /// An integer constant (the coefficient carries its value).
    One,
}

/// `coef · atom`, with the sign of its side already applied (left +, right −).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Term {
    pub(crate) coef: i64,
    pub(crate) atom: Atom,
    pub(crate) span: Span,
}

/// Flattens `lhs = rhs` into terms whose sum must be zero; also returns how many of
/// them come from the left side.
pub(crate) fn flatten(lhs: &Spanned<Expr>, rhs: &Spanned<Expr>) -> Result<(Vec<Term>, usize), Diagnostic> {
    let mut terms = Vec::new();
    collect(lhs, 1, &mut terms)?;
    let lhs_len = terms.len();
    collect(rhs, -1, &mut terms)?;
    Ok((terms, lhs_len))
}

fn shape_error(span: &Span) -> Diagnostic {
    Diagnostic::new("this is not a term of a cryptarithm", span.clone())
        .with_label("expected a word, `k*WORD` or an integer")
        .with_note("a cryptarithm side is a sum or difference of words, `k*WORD` terms and integer constants")
}

fn overflow(span: &Span) -> Diagnostic {
    Diagnostic::new("coefficient too large", span.clone()).with_label("this overflows 64-bit arithmetic")
}

fn collect(expr: &Spanned<Expr>, factor: i64, terms: &mut Vec<Term>) -> Result<(), Diagnostic> {
    match &expr.node {
        Expr::Binary { op: BinaryOp::Add, lhs, rhs } => {
            collect(lhs, factor, terms)?;
            collect(rhs, factor, terms)
        }
        Expr::Binary { op: BinaryOp::Sub, lhs, rhs } => {
            collect(lhs, factor, terms)?;
            collect(rhs, factor.checked_neg().ok_or_else(|| overflow(&expr.span))?, terms)
        }
        Expr::Unary { op: UnaryOp::Neg, operand } => {
            collect(operand, factor.checked_neg().ok_or_else(|| overflow(&expr.span))?, terms)
        }
        Expr::Binary { op: BinaryOp::Mul, lhs, rhs } => {
            let (k, other) = match (&lhs.node, &rhs.node) {
                (Expr::Int(k), _) => (*k, rhs),
                (_, Expr::Int(k)) => (*k, lhs),
                _ => return Err(shape_error(&expr.span)),
            };
            collect(other, factor.checked_mul(k).ok_or_else(|| overflow(&expr.span))?, terms)
        }
        Expr::Int(v) => {
            let coef = factor.checked_mul(*v).ok_or_else(|| overflow(&expr.span))?;
            terms.push(Term { coef, atom: Atom::One, span: expr.span.clone() });
            Ok(())
        }
        Expr::Name(word) => {
            if let Some(bad) = word.chars().find(|c| !c.is_alphabetic()) {
                return Err(Diagnostic::new(
                    format!("`{bad}` cannot be a letter of a cryptarithm word"),
                    expr.span.clone(),
                )
                .with_label("words are made of letters only"));
            }
            terms.push(Term { coef: factor, atom: Atom::Word(word.chars().collect()), span: expr.span.clone() });
            Ok(())
        }
        _ => Err(shape_error(&expr.span)),
    }
}
