//! Reading a FlatZinc model: the `.fzn` text (MiniZinc's usual output) or FlatZinc JSON.
//!
//! Parsing is `flatzinc-serde`'s (the MiniZinc project's crate). Its errors carry no
//! position, so on a syntax error each item is parsed alone to find the first one that does
//! not parse, and the error points at it.

use std::io::Cursor;

use cpsolve_dsl::Diagnostic;
use flatzinc_serde::{FlatZinc, FznParseError};

use crate::source::{ItemKind, SourceIndex};

/// A parsed model and the index of its items (empty for JSON).
#[derive(Debug)]
pub struct Parsed {
    pub fzn: FlatZinc,
    pub index: SourceIndex,
}

/// Parses FlatZinc JSON when the text starts with `{`, the `.fzn` syntax otherwise.
pub fn parse(text: &str) -> Result<Parsed, Diagnostic> {
    if text.trim_start().starts_with('{') {
        let fzn: FlatZinc = serde_json::from_str(text).map_err(|e| {
            let at = offset_of(text, e.line(), e.column());
            Diagnostic::new(format!("invalid FlatZinc JSON: {e}"), at..at + 1)
        })?;
        return Ok(Parsed { fzn, index: SourceIndex::default() });
    }
    let index = SourceIndex::scan(text);
    let desugared = desugar_assigned_vars(text, &index);
    match FlatZinc::from_fzn(Cursor::new(desugared.as_bytes())) {
        Ok(fzn) => {
            check_array_lengths(&fzn, &index)?;
            Ok(Parsed { fzn, index })
        }
        Err(err) => Err(locate(text, &index, err)),
    }
}

/// An array literal must have as many elements as its declared index set: the parser keeps
/// the elements only, and a model with `[1..2]` over three elements (or one) is not the
/// model MiniZinc wrote.
fn check_array_lengths(fzn: &FlatZinc, index: &SourceIndex) -> Result<(), Diagnostic> {
    for (name, (lo, hi), span) in index.array_index_sets() {
        let Some(array) = fzn.arrays.iter().find(|a| a.name == name) else { continue };
        let declared = (i128::from(hi) - i128::from(lo) + 1).max(0);
        let held = array.contents.len() as i128;
        if declared != held {
            return Err(Diagnostic::new(
                format!("the array `{name}` is declared with {} but holds {}", elements(declared), elements(held)),
                span,
            )
            .with_label(format!("index set {lo}..{hi}")));
        }
    }
    Ok(())
}

fn elements(n: i128) -> String {
    format!("{n} element{}", if n == 1 { "" } else { "s" })
}

/// MiniZinc writes a variable that presolving fixed or equated as `var 1..9: x = 4;` or
/// `var int: x = y;`, which `flatzinc-serde` does not read. Each such assignment is blanked
/// out (spaces, so that every byte offset stays that of the original text) and becomes an
/// `int_eq` or `bool_eq` constraint after the model's own, so the `k`-th constraint is still
/// the `k`-th constraint item of the text.
fn desugar_assigned_vars(text: &str, index: &SourceIndex) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut equalities = String::new();
    for item in index.items.iter().filter(|item| item.kind == ItemKind::Declaration) {
        let item_text = &text[item.span.clone()];
        let (Some(name), Some(eq)) = (&item.name, assignment_at(item_text)) else {
            continue;
        };
        if !item_text.starts_with("var") {
            continue;
        }
        let value = item_text[eq + 1..].trim();
        let builtin = if item_text["var".len()..].trim_start().starts_with("bool") { "bool_eq" } else { "int_eq" };
        equalities.push_str(&format!("constraint {builtin}({name}, {value});\n"));
        for b in &mut out[item.span.start + eq..item.span.end] {
            *b = b' ';
        }
    }
    let mut desugared = String::from_utf8(out).unwrap_or_else(|_| text.to_string());
    if !equalities.is_empty() {
        // Before the solve item: constraints must come before it.
        let at = index.solve_span().map_or(desugared.len(), |span| span.start);
        desugared.insert_str(at, &equalities);
    }
    desugared
}

/// The offset of a declaration's `=` (outside brackets, parentheses and strings), if any.
fn assignment_at(item: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut in_string = false;
    for (i, c) in item.char_indices() {
        match c {
            '"' => in_string = !in_string,
            _ if in_string => {}
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            '=' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}

fn locate(text: &str, index: &SourceIndex, err: FznParseError) -> Diagnostic {
    let whole = 0..text.len().min(1);
    match err {
        FznParseError::SyntaxError(message) => {
            // The first item that does not parse on its own (a solve item is added so
            // that the fragment is a model; unknown names are fine, only syntax counts).
            for item in &index.items {
                let fragment = match assignment_at(&text[item.span.clone()]) {
                    Some(eq) if item.kind == ItemKind::Declaration => &text[item.span.start..item.span.start + eq],
                    _ => &text[item.span.clone()],
                };
                let model = if item.kind == ItemKind::Solve {
                    format!("{fragment};")
                } else {
                    format!("{fragment};\nsolve satisfy;")
                };
                if let Err(FznParseError::SyntaxError(_)) = FlatZinc::<String>::from_fzn(Cursor::new(model.as_bytes()))
                {
                    let first_line = message.lines().next().unwrap_or("").to_string();
                    return Diagnostic::new("FlatZinc syntax error", item.span.clone())
                        .with_label("this item does not parse")
                        .with_note(first_line);
                }
            }
            Diagnostic::new(format!("FlatZinc syntax error: {message}"), whole)
        }
        FznParseError::LinkError(link) => {
            let name = match &link {
                flatzinc_serde::LinkError::UnknownReference(n)
                | flatzinc_serde::LinkError::NestedArray(n)
                | flatzinc_serde::LinkError::DuplicateDefinition(n) => Some(n.clone()),
                _ => None,
            };
            let span = name
                .and_then(|n| {
                    let found = index.items.iter().find(|item| contains_word(&text[item.span.clone()], &n))?;
                    Some(found.span.clone())
                })
                .unwrap_or(whole);
            Diagnostic::new(format!("FlatZinc model does not link: {link}"), span)
        }
        other => Diagnostic::new(format!("cannot read the FlatZinc model: {other}"), whole),
    }
}

fn contains_word(haystack: &str, word: &str) -> bool {
    haystack.match_indices(word).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}
