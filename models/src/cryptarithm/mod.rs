//! Cryptarithms: letters stand for distinct digits so that a sum of words holds.
//!
//! Two formulations compile the same statement:
//! - `columns` (the default): one linear equation per column with carry variables,
//!   `Σ coef·letter + constant digit + carry in = base · carry out`, so a choice in the
//!   units column constrains the tens at once;
//! - `equation`: the whole sum as one linear equation with coefficients `coef · base^pos`.
//!
//! `option model = equation` selects the second; `bench/` compares them. Both share the
//! all-different over letters and the non-zero leading letters.

mod equation;
mod model;
mod picture;
mod view;

use cpsolve_dsl::ast::{File, Item, OptionValue, SolveMode, Spanned};
use cpsolve_dsl::Diagnostic;

use crate::options::{bool_option, int_option, word_option, UnknownOption};
use crate::problem::Problem;
use equation::{Atom, Term};

/// Which formulation to compile to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Formulation {
    Columns,
    Equation,
}

/// A parsed cryptarithm with its options.
#[derive(Debug, Clone)]
pub(crate) struct Cryptarithm {
    /// All terms, left side first; their sum must be zero.
    terms: Vec<Term>,
    /// How many of `terms` come from the left side (for display).
    lhs_len: usize,
    base: u32,
    leading_zeros: bool,
    formulation: Formulation,
    mode: SolveMode,
}

impl Cryptarithm {
    /// The distinct letters, in order of first appearance.
    fn letters(&self) -> Vec<char> {
        let mut letters = Vec::new();
        for term in &self.terms {
            if let Atom::Word(word) = &term.atom {
                for &c in word {
                    if !letters.contains(&c) {
                        letters.push(c);
                    }
                }
            }
        }
        letters
    }
}

/// Compiles a file whose model is a `cryptarithm` statement.
pub(crate) fn compile(file: &File, stop: &cpsolve_engine::StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let crypt = read(file)?;
    model::build(&crypt, stop)
}

fn read(file: &File) -> Result<Cryptarithm, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut crypt = Cryptarithm {
        terms: Vec::new(),
        lhs_len: 0,
        base: 10,
        leading_zeros: false,
        formulation: Formulation::Columns,
        mode: SolveMode::First,
    };
    let mut seen_statement = false;
    for item in &file.items {
        match &item.node {
            Item::Cryptarithm { lhs, rhs } if !seen_statement => {
                seen_statement = true;
                match equation::flatten(lhs, rhs) {
                    Ok((terms, lhs_len)) => {
                        crypt.terms = terms;
                        crypt.lhs_len = lhs_len;
                    }
                    Err(e) => errors.push(e),
                }
            }
            Item::Solve(mode) => crypt.mode = mode.node,
            Item::Option { name, values } => {
                if let Err(e) = read_option(&mut crypt, name, values) {
                    errors.push(e);
                }
            }
            _ => errors.push(
                Diagnostic::new("a cryptarithm file holds one `cryptarithm` statement", item.span.clone())
                    .with_label("not allowed here")
                    .with_note("besides the statement, only `solve` and `option` lines may appear"),
            ),
        }
    }
    if errors.is_empty() {
        Ok(crypt)
    } else {
        Err(errors)
    }
}

fn read_option(
    crypt: &mut Cryptarithm,
    name: &Spanned<String>,
    values: &[Spanned<OptionValue>],
) -> Result<(), Diagnostic> {
    match name.node.as_str() {
        "base" => crypt.base = int_option(name, values, 2, 36)? as u32,
        "leading-zeros" => crypt.leading_zeros = bool_option(name, values)?,
        "model" => {
            crypt.formulation = match word_option(name, values, &["columns", "equation"])? {
                "equation" => Formulation::Equation,
                _ => Formulation::Columns,
            }
        }
        _ => return Err(UnknownOption { name, known: &["base", "leading-zeros", "model"] }.into()),
    }
    Ok(())
}
