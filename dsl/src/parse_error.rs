//! Turns lalrpop's parse errors into [`Diagnostic`]s a user can read.
//!
//! lalrpop names the expected terminals as written in the grammar (`"\"->\""`, `"\"int\""`).
//! They become `` `->` `` and `an integer`; long lists are shortened by naming a whole
//! group ("an expression", "an operator") when every member of it would be listed. The
//! error's statement is then shown to `minizinc_hints.rs`, which adds a note when it is
//! MiniZinc's way of writing something `.puz` writes otherwise.

use lalrpop_util::ParseError;

use crate::diagnostic::Diagnostic;
use crate::minizinc_hints;
use crate::tokens::Token;

/// Tokens that may start an expression: listed together as "an expression".
const EXPRESSION_START: &[&str] = &["int", "name", "(", "[", "{", "-", "not", "true", "false", "if", "let", "forall"];

/// Binary operators: listed together as "an operator" when most of them are expected.
const OPERATORS: &[&str] = &[
    "+",
    "-",
    "*",
    "/",
    "mod",
    "++",
    "..",
    "==",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "and",
    "or",
    "->",
    "<->",
    "in",
    "xor",
    "union",
    "diff",
    "symdiff",
    "subset",
    "superset",
    "intersect",
];

/// The file a parse error is in: its text, where that text starts in the model (the
/// parser's positions are shifted by `base`), and its tokens at their local positions.
pub(crate) struct Local<'a, 'src> {
    pub(crate) source: &'src str,
    pub(crate) base: usize,
    pub(crate) tokens: &'a [(usize, Token<'src>, usize)],
}

/// The diagnostic for one parse error, or `None` when the error is about an `Error` token,
/// whose cause the lexer has already reported. A statement written the MiniZinc way gets a
/// note saying how `.puz` writes it (`minizinc_hints.rs`).
pub(crate) fn to_diagnostic(
    error: ParseError<usize, Token<'_>, Diagnostic>,
    local: &Local<'_, '_>,
) -> Option<Diagnostic> {
    let at = match &error {
        ParseError::User { error } => error.span.start,
        ParseError::InvalidToken { location } | ParseError::UnrecognizedEof { location, .. } => *location,
        ParseError::UnrecognizedToken { token: (start, ..), .. } | ParseError::ExtraToken { token: (start, ..) } => {
            *start
        }
    };
    let diagnostic = match error {
        ParseError::User { error } => error,
        ParseError::InvalidToken { location } => Diagnostic::new("invalid token", location..location),
        ParseError::UnrecognizedEof { location, expected } => {
            Diagnostic::new("unexpected end of file", location..location)
                .with_label("the file ends here")
                .with_note(expected_note(&expected))
        }
        ParseError::UnrecognizedToken { token: (_, Token::Error, _), .. } => return None,
        ParseError::UnrecognizedToken { token: (start, token, end), expected } => {
            let diagnostic = unexpected(token, start..end, local).with_note(expected_note(&expected));
            let text = local.source.get(start.saturating_sub(local.base)..end.saturating_sub(local.base));
            match reserved_word(text.unwrap_or_default()) {
                // A MiniZinc model may name a constant `option` or `search`: say why not.
                Some(word) if expected.iter().any(|e| e == "\"name\"") => diagnostic.with_note(format!(
                    "`{word}` is a reserved word of `.puz` (the language reference lists them): choose another name"
                )),
                _ => diagnostic,
            }
        }
        ParseError::ExtraToken { token: (_, Token::Error, _) } => return None,
        ParseError::ExtraToken { token: (start, token, end) } => {
            unexpected(token, start..end, local).with_note("expected the end of the file")
        }
    };
    let at = at.saturating_sub(local.base);
    Some(match minizinc_hints::hint(local.source, local.tokens, at) {
        Some(hint) => diagnostic.with_note(hint),
        None => diagnostic,
    })
}

fn unexpected(token: Token<'_>, span: std::ops::Range<usize>, local: &Local<'_, '_>) -> Diagnostic {
    match token {
        Token::Newline => Diagnostic::new("unexpected end of line", span).with_label("the statement ends here"),
        Token::GridRow(_) => Diagnostic::new("unexpected grid row", span),
        _ => {
            let text = local.source.get(span.start.saturating_sub(local.base)..span.end.saturating_sub(local.base));
            Diagnostic::new(format!("unexpected `{}`", text.unwrap_or_default()), span)
        }
    }
}

/// The text of a token that is a word of the language (a name would have been a name).
fn reserved_word(text: &str) -> Option<&str> {
    (!text.is_empty() && text.chars().all(|c| c.is_ascii_alphabetic())).then_some(text)
}

/// "expected one of `->`, an integer".
fn expected_note(expected: &[String]) -> String {
    let names: Vec<&str> = expected.iter().map(|name| name.trim_matches('"')).collect();
    let has = |name: &str| names.contains(&name);
    let statement_start = has("let");
    let expression = has("int") && has("name") && has("(");
    let operators = OPERATORS.iter().filter(|op| has(op)).count() >= 8;

    let mut symbols = Vec::new();
    let mut words = Vec::new();
    for &name in &names {
        match name {
            _ if expression && EXPRESSION_START.contains(&name) => {}
            _ if operators && OPERATORS.contains(&name) => {}
            "row" if statement_start => {}
            "int" => words.push("an integer".to_owned()),
            "name" => words.push("a name".to_owned()),
            "newline" => words.push("end of line".to_owned()),
            "row" => words.push("a grid row".to_owned()),
            "error" => {}
            _ => symbols.push(format!("`{name}`")),
        }
    }
    if operators {
        symbols.push("an operator".to_owned());
    }
    if expression {
        symbols.push("an expression".to_owned());
    }
    symbols.extend(words);
    match symbols.as_slice() {
        [] => "nothing more was expected here".to_owned(),
        [one] => format!("expected {one}"),
        many => format!("expected one of {}", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| format!("\"{name}\"")).collect()
    }

    #[test]
    fn terminal_names_become_readable() {
        assert_eq!(expected_note(&quoted(&["->", "int"])), "expected one of `->`, an integer");
        assert_eq!(expected_note(&quoted(&["row"])), "expected a grid row");
        assert_eq!(expected_note(&quoted(&["newline"])), "expected end of line");
    }

    #[test]
    fn groups_shorten_long_lists() {
        let mut names = EXPRESSION_START.to_vec();
        names.push(")");
        assert_eq!(expected_note(&quoted(&names)), "expected one of `)`, an expression");
        let mut names = OPERATORS.to_vec();
        names.push("newline");
        assert_eq!(expected_note(&quoted(&names)), "expected one of an operator, end of line");
    }
}
