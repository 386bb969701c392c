//! Choosing the front end for a parsed file: a puzzle statement selects its model, and
//! anything else is a generic model.

use cpsolve_dsl::ast::{File, Item, OptionValue, PuzzleKind, Spanned};
use cpsolve_dsl::Diagnostic;

use cpsolve_engine::StopToken;

use crate::problem::Problem;

/// Compiles a parsed file into a problem ready to search, with a stop token of its own
/// (nobody can stop the compilation or the problem's searches from outside). An
/// `option part` line (see [`part`]) is left to the runner.
pub fn compile(file: &File) -> Result<Problem, Vec<Diagnostic>> {
    compile_with_stop(file, &StopToken::new())
}

/// As [`compile`], for a run stopped by requests on `stop`: the compilation ends at the
/// next check after one (the caller reports the limit), and the problem's solver holds
/// `stop` for its searches.
pub fn compile_with_stop(file: &File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let without_part;
    let file = if file.items.iter().any(is_part) {
        without_part = File { items: file.items.iter().filter(|i| !is_part(i)).cloned().collect() };
        &without_part
    } else {
        file
    };
    for item in &file.items {
        let name = match &item.node {
            Item::Cryptarithm { .. } => {
                return repeated_options(file).and_then(|()| crate::cryptarithm::compile(file, stop))
            }
            Item::Puzzle { kind, .. } => match kind.node {
                PuzzleKind::Queens => return repeated_options(file).and_then(|()| crate::queens::compile(file, stop)),
                PuzzleKind::NoThreeInLine => {
                    return repeated_options(file).and_then(|()| crate::nothreeinline::compile(file, stop))
                }
                PuzzleKind::Minesweeper => "minesweeper",
                PuzzleKind::NumberMatch => "numbermatch",
            },
            Item::Compte { .. } => "compte",
            _ => continue,
        };
        return Err(vec![Diagnostic::new(format!("`{name}` puzzles are not supported yet"), item.span.clone())
            .with_label("this puzzle kind has no solver in this version")]);
    }
    crate::generic::compile_with_stop(file, stop)
}

/// Compiles a parsed file for `cpsolve explain`: as [`compile`], but a kind whose fastest
/// model hides the constraints a person names (queens: one global for rows and
/// diagonals) states them one by one. The problem explains; it is not for searching.
pub fn compile_to_explain(file: &File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    // An explanation tells the whole model, but its `option part` lines are checked as a
    // run checks them: two of them, or a part out of range, are an error here too.
    part(file)?;
    let queens =
        file.items.iter().any(|i| matches!(&i.node, Item::Puzzle { kind, .. } if kind.node == PuzzleKind::Queens));
    if queens {
        return crate::queens::compile_to_explain(file, stop);
    }
    compile_with_stop(file, stop)
}

/// What a model's builder returns when a limit strikes while it builds (a stop requested on
/// the run's [`StopToken`]):
/// the runner reports the limit, not this message.
pub(crate) fn stopped_while_compiling() -> Vec<Diagnostic> {
    vec![Diagnostic::new("stopped by a limit while compiling", 0..0)]
}

fn is_part(item: &Spanned<Item>) -> bool {
    matches!(&item.node, Item::Option { name, .. } if name.node == "part")
}

/// Where the model's `option part` statements are (the same model with another part
/// number is the same model: `cpsolve merge` compares models without them).
pub fn part_spans(file: &File) -> Vec<cpsolve_dsl::ast::Span> {
    file.items.iter().filter(|i| is_part(i)).map(|i| i.span.clone()).collect()
}

/// `option part = i, k`, written by `cpsolve split`: search only the i-th (1-based) of k
/// slices of the search tree. Returns `(i - 1, k)`.
pub fn part(file: &File) -> Result<Option<(u64, u64)>, Vec<Diagnostic>> {
    let mut parts = file.items.iter().filter(|i| is_part(i));
    let Some(item) = parts.next() else { return Ok(None) };
    // The compile leaves `option part` lines out, so the check of repeated options does
    // not see them: a second one is refused here (two parts would search one silently).
    if let Some(again) = parts.next() {
        return Err(vec![Diagnostic::new("`option part` is given twice", again.span.clone())
            .with_label("given again here")
            .with_note(format!("it was first given by `{}`: keep one of them", first_text(item)))]);
    }
    let Item::Option { values, .. } = &item.node else { return Ok(None) };
    match values.as_slice() {
        [i, k] => match (&i.node, &k.node) {
            (OptionValue::Int(i), OptionValue::Int(k)) if *k >= 1 && (1..=*k).contains(i) => {
                Ok(Some((*i as u64 - 1, *k as u64)))
            }
            _ => Err(vec![Diagnostic::new("`option part = i, k` needs 1 <= i <= k", item.span.clone())]),
        },
        _ => Err(vec![Diagnostic::new("`option part` takes two integers: `option part = i, k`", item.span.clone())]),
    }
}

/// An option given twice is an error at the second, naming the first: silently taking the
/// last would hide a typo or a pasted line that changes the answer.
pub(crate) fn repeated_options(file: &File) -> Result<(), Vec<Diagnostic>> {
    let mut seen: std::collections::HashMap<&str, &Spanned<Item>> = std::collections::HashMap::new();
    let mut errors = Vec::new();
    for item in &file.items {
        let Item::Option { name, .. } = &item.node else { continue };
        match seen.get(name.node.as_str()) {
            Some(first) => errors.push(
                Diagnostic::new(format!("`option {}` is given twice", name.node), item.span.clone())
                    .with_label("given again here")
                    .with_note(format!("it was first given by `{}`: keep one of them", first_text(first))),
            ),
            None => {
                seen.insert(name.node.as_str(), item);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// How an option line reads, for a note: `option NAME = …`.
fn first_text(item: &Spanned<Item>) -> String {
    match &item.node {
        Item::Option { name, .. } => format!("option {} = …", name.node),
        _ => String::from("an earlier line"),
    }
}
