//! MiniZinc habits: when a statement that does not parse is MiniZinc's way of writing
//! something, a note says how `.puz` writes it.
//!
//! `.puz` already accepts much of MiniZinc as is (`constraint`, a trailing `;`,
//! `solve satisfy`, `solve minimize`, `/\`, `\/`, the generator call `sum(i in 1..n)(…)`,
//! typed declarations, data lines, `output`, `solve :: int_search(…) satisfy`). What it does
//! not accept are parameter types with a domain (`var 1..3: x`), types it has no values of
//! (`float: r = 3`), and a `solve ::` without its goal; each is recognised here from the
//! tokens of the statement where parsing failed, and the note is built from the statement's
//! own text where it can be (`float: r = 3` → `let r = 3`).
//!
//! Only the note is added: the error's message and place stay the parser's. A statement that
//! merely looks odd gets no note; each rule asks for the shape it recognises (the leading
//! word and a `:` at the top level, mostly), so that a `.puz` typo is not taken for MiniZinc.
//! `include "globals.mzn"` parses; `include.rs` gives its note.

use crate::tokens::Token;

type Triple<'src> = (usize, Token<'src>, usize);

/// The note for the statement of `tokens` that holds the byte offset `at` (the error's
/// start, local to `source`), if that statement is a MiniZinc habit.
pub(crate) fn hint(source: &str, tokens: &[Triple<'_>], at: usize) -> Option<String> {
    let statement = Statement { source, tokens: statement_at(tokens, at) };
    let first = statement.tokens.first()?.1;
    match first {
        Token::Ident("array") => statement.array(),
        Token::Var => statement.variable(),
        Token::Ident("int" | "bool" | "float" | "par") | Token::Set => statement.constant(),
        Token::Predicate | Token::Function | Token::Test => statement.typed_parameters(),
        Token::Solve => statement.annotated_solve(),
        _ => None,
    }
}

/// The tokens of the statement holding `at`, without its `Newline`.
fn statement_at<'a, 'src>(tokens: &'a [Triple<'src>], at: usize) -> &'a [Triple<'src>] {
    let index = tokens.partition_point(|&(start, _, _)| start < at);
    let start = tokens[..index].iter().rposition(|t| t.1 == Token::Newline).map_or(0, |i| i + 1);
    let end = tokens[index..].iter().position(|t| t.1 == Token::Newline).map_or(tokens.len(), |i| index + i);
    &tokens[start..end.max(start)]
}

struct Statement<'a, 'src> {
    source: &'src str,
    tokens: &'a [Triple<'src>],
}

impl Statement<'_, '_> {
    /// The source text from token `from` to token `to` (both included), blanks collapsed.
    fn text(&self, from: usize, to: usize) -> Option<String> {
        let (start, end) = (self.tokens.get(from)?.0, self.tokens.get(to)?.2);
        let text = self.source.get(start..end)?;
        Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// The indices of the tokens outside every bracket, with their tokens.
    fn top_level(&self) -> impl Iterator<Item = (usize, Token<'_>)> + '_ {
        let mut depth = 0usize;
        self.tokens.iter().enumerate().filter_map(move |(i, &(_, token, _))| {
            let outside = depth == 0;
            match token {
                Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
            (outside && !matches!(token, Token::RParen | Token::RBracket | Token::RBrace)).then_some((i, token))
        })
    }

    /// The first top-level `token` at or after index `from`.
    fn find(&self, token: Token<'_>, from: usize) -> Option<usize> {
        self.top_level().find(|&(i, t)| i >= from && t == token).map(|(i, _)| i)
    }

    /// The name right after index `i`.
    fn name_after(&self, i: usize) -> Option<&str> {
        match self.tokens.get(i + 1)?.1 {
            Token::Ident(name) => Some(name),
            _ => None,
        }
    }

    /// `var 1..9: x` → `var x in 1..9`; `var bool: b` → `var b in bool`.
    fn variable(&self) -> Option<String> {
        let colon = self.find(Token::Colon, 1)?;
        let general = "`.puz` declares a variable as `var x in 1..9` (name first, then `in` and the domain)";
        let (Some(domain), Some(name)) = (self.text(1, colon - 1), self.name_after(colon)) else {
            return Some(general.into());
        };
        Some(format!("`.puz` declares a variable as `var {name} in {}`", bounded(&domain)))
    }

    /// `array[1..n] of var 1..9: x` → `var x[1..n] in 1..9`;
    /// `array[1..n] of int: w = […]` → `let w = […]`.
    fn array(&self) -> Option<String> {
        let of = self.find(Token::Of, 1)?;
        let colon = self.find(Token::Colon, of)?;
        let name = self.name_after(colon);
        let is_var = self.tokens.get(of + 1).is_some_and(|t| t.1 == Token::Var);
        if is_var {
            let dims = (self.tokens.get(1)?.1 == Token::LBracket && of >= 3).then(|| self.text(2, of - 2)).flatten();
            return Some(match (name, dims, self.text(of + 2, colon - 1)) {
                (Some(name), Some(dims), Some(domain)) => {
                    format!("`.puz` declares an array of variables as `var {name}[{dims}] in {}`", bounded(&domain))
                }
                _ => "`.puz` declares an array of variables as `var x[1..n] in 1..9`".into(),
            });
        }
        let value = self.value_after(colon);
        Some(format!(
            "`.puz` writes a constant array as `let {} = {}` (indexed from 1)",
            name.unwrap_or("w"),
            value.as_deref().unwrap_or("[...]")
        ))
    }

    /// The text after the first top-level `=` after index `from`, when it is short enough
    /// to quote.
    fn value_after(&self, from: usize) -> Option<String> {
        let eq = self.find(Token::Eq, from)?;
        self.text(eq + 1, self.tokens.len().checked_sub(1)?).filter(|v| v.chars().count() <= 40)
    }

    /// `int: n = 3` → `let n = 3`; `set of int: S = {1, 3}` → `let S = {1, 3}`.
    fn constant(&self) -> Option<String> {
        let colon = self.find(Token::Colon, 1)?;
        let name = self.name_after(colon)?;
        // Without `=`, `int: n;` parses (a data line gives its value): what failed is not that.
        self.find(Token::Eq, colon)?;
        let value = self.value_after(colon);
        Some(format!("`.puz` writes a constant as `let {name} = {}`", value.as_deref().unwrap_or("...")))
    }

    /// A predicate or function whose typed parameters did not parse: a type with a domain
    /// (`var 1..3: x`) or one `.puz` does not read. The note gives the untyped form.
    fn typed_parameters(&self) -> Option<String> {
        let open = self.find(Token::LParen, 1)?;
        let kind = match self.tokens[0].1 {
            Token::Function => "function",
            Token::Test => "test",
            _ => "predicate",
        };
        if !self.tokens.iter().any(|t| t.1 == Token::Colon) {
            return None;
        }
        let name = match self.tokens[open - 1].1 {
            Token::Ident(name) => name,
            _ => "p",
        };
        // Each parameter's name is the last name before the `,` or `)` that ends it.
        let mut params = Vec::new();
        let mut depth = 0usize;
        let mut last_name = None;
        for &(_, token, _) in &self.tokens[open + 1..] {
            match token {
                Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
                Token::RParen if depth == 0 => {
                    params.extend(last_name.take());
                    break;
                }
                Token::RParen | Token::RBracket | Token::RBrace => depth = depth.saturating_sub(1),
                Token::Comma if depth == 0 => params.extend(last_name.take()),
                Token::Ident(name) if depth == 0 => last_name = Some(name),
                _ => {}
            }
        }
        Some(format!(
            "a parameter's type is a name (`int`, `var int`, `array[int] of var int`, `set of int`), \
             not a domain such as `var 1..3`; or leave the types out: `{kind} {name}({}) = ...`",
            params.join(", ")
        ))
    }

    /// A `solve` with annotations that did not parse: `solve :: int_search(…);` without its
    /// goal, or `solve: …` with one colon. The note gives the whole form, and `.puz`'s own
    /// `search` statement.
    fn annotated_solve(&self) -> Option<String> {
        if !matches!(self.tokens.get(1)?.1, Token::Colon | Token::ColonColon) {
            return None;
        }
        let start = if self.tokens.get(2).is_some_and(|t| t.1 == Token::Colon) { 3 } else { 2 };
        let goal = self
            .top_level()
            .find(|&(i, t)| i >= start && matches!(t, Token::Ident("satisfy") | Token::Minimize | Token::Maximize));
        let end = goal.map_or(self.tokens.len(), |(i, _)| i);
        let annotation = self.text(start, end.checked_sub(1)?).unwrap_or_else(|| "int_search(...)".into());
        let goal_text = match goal {
            Some((i, Token::Minimize | Token::Maximize)) => self.text(i, self.tokens.len() - 1),
            _ => None,
        };
        let then = match (goal, &goal_text) {
            (Some(_), Some(text)) => format!("`{text}`"),
            (Some(_), None) => "the goal".into(),
            (None, _) => "the goal (`solve first`, `minimize E`)".into(),
        };
        let whole = format!("`solve :: {annotation} {}`", goal_text.as_deref().unwrap_or("satisfy"));
        Some(format!(
            "the form is {whole}; or, as `.puz` writes it, the search as a statement of its own: `search {annotation}`, then {then}"
        ))
    }
}

/// A domain as `.puz` takes it: MiniZinc's unbounded `int` needs bounds.
fn bounded(domain: &str) -> &str {
    if domain == "int" {
        "LO..HI"
    } else {
        domain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_of(source: &str, at: &str) -> Option<String> {
        let lexed = crate::lexer::lex(source);
        hint(source, &lexed.tokens, source.find(at).expect("the error's text is in the source"))
    }

    #[test]
    fn the_statement_is_the_one_holding_the_error() {
        let source = "let n = 3\narray[1..n] of var 1..9: x;\nx[1] > 2";
        assert!(hint_of(source, "of").is_some());
        assert_eq!(hint_of(source, "x[1]"), None);
        assert_eq!(hint_of(source, "let"), None);
    }

    #[test]
    fn a_plain_typo_gets_no_hint() {
        assert_eq!(hint_of("var x 1..9", "1"), None);
        assert_eq!(hint_of("predicate p(a, b) = a <", "<"), None);
        assert_eq!(hint_of("solve firts", "firts"), None);
    }
}
