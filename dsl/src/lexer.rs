//! Turns the source into the `(start, token, end)` triples that the generated parser reads.
//!
//! `logos` (see `tokens.rs`) recognises the tokens of one line. This file adds what depends
//! on the layout of the file, which a context-free grammar cannot see:
//!
//! - **Statement ends.** A line break becomes a `Newline` token only where a statement can
//!   end: outside `(`, `[`, `{` and after a token that can end a statement (not after an
//!   operator, `,`, `=`, `:`, `in`, `where`, `->`...). Blank and comment-only lines produce
//!   nothing, so the parser never sees two `Newline`s in a row nor one at the start. The
//!   `Newline` is emitted lazily, just before the next token, because grid rows that follow
//!   a row must not be separated from it, and because a line that starts with an infix
//!   operator (`+`, `*`, `==`, `and`...; not `-`, which may start a statement) continues
//!   the previous one.
//! - **Grids.** Rows of cells are not expressions (`..1F`, `5 3 . .`), so they are taken
//!   raw, one `GridRow` token per line:
//!   - after a `given NAME =` line, every following line made of `.` and integers, up to
//!     the first line that is not one (a blank or comment-only line ends the grid too);
//!   - once a `minesweeper` or `numbermatch` statement has been seen, any line that starts a
//!     statement and looks like a row (it starts with `.`, `?`, `*` or a digit, or holds only
//!     cell characters). Rows that follow an `option` line are attached to the puzzle by
//!     `actions::assemble`. The model checks the cells themselves.
//! - **`let … in`.** `in` is also membership (`x in 1..5`), so `let y = x in S` could end
//!   its definition at either `in`. The first `in` at the bracket depth of an open `let`
//!   (one not yet closed by its own `in`) is that `let`'s: it becomes `LetIn`, and a
//!   membership inside a definition is written in parentheses (`let b = (x in S) in …`).
//!   A `let` statement without `in` (`let n = 8`) is a declaration.
//! - **`;`** at the end of a statement (outside brackets) is a statement end, as in
//!   MiniZinc; inside the braces of `let { … }` it separates the definitions.
//! - **A generator call across lines.** `forall(i in 1..n)` at the end of a line, with its
//!   `(body)` on the next, is one call (MiniZinc's layout): a line that starts with `(` right
//!   after a closed top-level `(…)` holding a generator's `in` and following a name
//!   continues it. Any other line starting with `(` starts a statement of its own.
//! - **`test`** starts MiniZinc's `test NAME(…) = …` item where it stands first in a
//!   statement before `NAME (`; anywhere else it is a name.
//! - **`output`** at the start of a statement is MiniZinc's output item: it is read and left
//!   out (cpsolve prints its own answer), without tokens, since MiniZinc's strings
//!   (`"\(x)\n"`, `show`, `++` chains) need no meaning here. It ends at a `;` outside brackets
//!   and strings, or at the end of a line whose brackets are closed when the next line does
//!   not go on with `++` or `;`.
//! - **Option names** may contain `-` (`leading-zeros`); right after `option` the name is
//!   read as one identifier, so `-` elsewhere stays the minus operator.
//!
//! Lexical errors are collected as diagnostics and replaced by an `Error` token, so the
//! parser can recover at the end of the statement and report later errors too. A statement
//! whose tree could be too deep to walk recursively (see [`MAX_NESTING`]) becomes a single
//! `Error` token as well.

use logos::Logos;

use crate::diagnostic::{Diagnostic, MAX_RENDERED};
use crate::tokens::{LexError, Token};

/// The most operators and brackets one statement may hold. They bound the depth of its
/// tree, and every later pass (even `Drop`) walks the tree recursively: 10 000 levels do
/// not fit the 8 MiB of a main thread, so the binary runs on a larger stack (`src/main.rs`).
pub const MAX_NESTING: usize = 10_000;

/// What the parser consumes: a token and its byte range.
pub(crate) type Triple<'src> = (usize, Token<'src>, usize);

/// The token stream of a whole file, plus the lexical errors met on the way.
#[derive(Debug)]
pub(crate) struct Lexed<'src> {
    pub(crate) tokens: Vec<Triple<'src>>,
    pub(crate) errors: Vec<Diagnostic>,
    /// Where lexing stopped after [`MAX_RENDERED`] errors, if it did: the rest of the file
    /// is not read (a file of junk holds an error per byte; the first ones tell enough).
    pub(crate) stopped_at: Option<usize>,
}

pub(crate) fn lex(source: &str) -> Lexed<'_> {
    let mut lexer = Lexer::default();
    let mut start = 0;
    for raw in source.split('\n') {
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        lexer.line(start, text);
        if lexer.stopped_at.is_some() {
            break;
        }
        start += raw.len() + 1;
    }
    lexer.finish()
}

#[derive(Debug, Default)]
struct Lexer<'src> {
    tokens: Vec<Triple<'src>>,
    errors: Vec<Diagnostic>,
    /// Nesting of `(`, `[`, `{`: line breaks inside brackets are not statement ends.
    depth: usize,
    /// Index in `tokens` of the first token of the current statement.
    statement_start: usize,
    /// How many tokens of the current statement may deepen its tree.
    nesting: usize,
    /// Where the last statement ended, if its `Newline` is not emitted yet.
    pending_newline: Option<usize>,
    /// Whether the previous line was a grid row (a following row continues its grid).
    previous_was_row: bool,
    /// Set after a `given NAME =` line, while its rows are being read.
    given: Option<GivenBlock>,
    /// Whether a `minesweeper` or `numbermatch` statement has been seen.
    puzzle_grids: bool,
    /// One entry per open `(`: whether it follows a name (a call) and whether an `in` was
    /// met directly inside it (a generator).
    parens: Vec<(bool, bool)>,
    /// Whether the last token closed a top-level call's generators: `forall(i in 1..n)`.
    after_generators: bool,
    /// The bracket depths of the `let`s of this statement still waiting for their `in`.
    open_lets: Vec<usize>,
    /// Where lexing stopped, once there were enough errors.
    stopped_at: Option<usize>,
    /// The `output` item being read, if one is.
    output: Option<OutputItem>,
}

/// How far an `output` item has been read.
#[derive(Debug, Default, Clone, Copy)]
struct OutputItem {
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Whether a bracket or a string has been met: `output` alone on its line has its body
    /// on the next.
    body: bool,
    /// Whether the last line read ended it, unless the next line starts with `++`.
    may_have_ended: bool,
}

impl OutputItem {
    /// Reads one line (or the rest of one) of the item: the offset just after the `;`
    /// that ends it, or `None` if the item goes on.
    fn read(&mut self, text: &str) -> Option<usize> {
        let mut code_end = text.len();
        for (at, byte) in text.bytes().enumerate() {
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => (self.in_string, self.body) = (true, true),
                b'#' | b'%' => {
                    code_end = at;
                    break;
                }
                b'(' | b'[' | b'{' => (self.depth, self.body) = (self.depth + 1, true),
                b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                b';' if self.depth == 0 => return Some(at + 1),
                _ => {}
            }
        }
        let code = text[..code_end].trim_end();
        // A blank or comment-only line changes nothing.
        if !code.is_empty() {
            self.may_have_ended = self.body && self.depth == 0 && !self.in_string && !code.ends_with("++");
        }
        None
    }
}

/// Where the line's comment starts (its length if it has none): the first `#` or `%` (MiniZinc's
/// comment sign) outside a string literal. Strings hold no line break and no escape.
fn comment_start(text: &str) -> usize {
    let mut in_string = false;
    for (at, byte) in text.bytes().enumerate() {
        match byte {
            b'"' => in_string = !in_string,
            b'#' | b'%' if !in_string => return at,
            _ => {}
        }
    }
    text.len()
}

#[derive(Debug, Clone, Copy)]
struct GivenBlock {
    /// End of the `given NAME =` line.
    header_end: usize,
    rows: usize,
}

impl<'src> Lexer<'src> {
    /// Lexes one line; `start` is its offset in the file, `text` has no line break.
    fn line(&mut self, start: usize, text: &'src str) {
        if let Some(mut item) = self.output.take() {
            let code = text[..comment_start(text)].trim();
            if code.is_empty() || !item.may_have_ended || code.starts_with("++") || code.starts_with(';') {
                match item.read(text) {
                    None => self.output = Some(item),
                    Some(rest) if !text[rest..][..comment_start(&text[rest..])].trim().is_empty() => {
                        self.lex_code(start + rest, &text[rest..]);
                    }
                    Some(_) => {}
                }
                return;
            }
        }
        let content = &text[..comment_start(text)];
        let row_start = start + content.len() - content.trim_start().len();
        let row = content.trim();
        let is_row = match self.given {
            Some(_) => is_given_row(row),
            None => self.puzzle_grids && self.at_statement_start() && is_puzzle_row(row),
        };
        if is_row {
            self.push_row(row_start, row, start + text.len());
            return;
        }
        self.close_given();
        self.previous_was_row = false;
        if !row.is_empty() {
            self.lex_code(start, text);
        }
    }

    fn push_row(&mut self, start: usize, text: &'src str, line_end: usize) {
        if self.previous_was_row {
            self.pending_newline = None;
        } else {
            self.flush_newline();
        }
        self.tokens.push((start, Token::GridRow(text), start + text.len()));
        self.pending_newline = Some(line_end);
        self.previous_was_row = true;
        if let Some(given) = &mut self.given {
            given.rows += 1;
        }
    }

    /// Ends a `given` block. Without any row, its header still needs an end, so that the
    /// parser reports the missing rows at the end of the `given` line.
    fn close_given(&mut self) {
        if let Some(given) = self.given.take() {
            if given.rows == 0 {
                self.push_newline(given.header_end);
            }
        }
    }

    fn lex_code(&mut self, start: usize, text: &'src str) {
        let mut lexer = Token::lexer(text);
        let mut first_on_line = true;
        while let Some(result) = lexer.next() {
            let span = lexer.span();
            let mut token = match result {
                Ok(token) => token,
                // One error more than are shown: enough to say that there are more.
                Err(_) if self.errors.len() >= MAX_RENDERED => {
                    self.stopped_at = Some(start + span.start);
                    break;
                }
                Err(error) => {
                    self.errors.push(lex_error(error, text, span.clone(), start));
                    Token::Error
                }
            };
            if token == Token::Semicolon && self.depth == 0 {
                // A MiniZinc-style statement end: the line break's job, done here. Where no
                // statement is open (`;;`), it ends nothing.
                if self.tokens.last().is_some_and(|&(_, last, _)| last != Token::Newline) {
                    self.pending_newline = Some(start + span.start);
                }
                continue;
            }
            if std::mem::take(&mut first_on_line)
                && (token.continues_previous_line()
                    || (token == Token::LParen && self.after_generators)
                    || self.goal_of_annotated_solve(token))
            {
                self.pending_newline = None;
            }
            self.note_generators(token);
            self.flush_newline();
            if token == Token::Output && self.at_statement_start() {
                let mut item = OutputItem::default();
                match item.read(lexer.remainder()) {
                    Some(rest) => lexer.bump(rest),
                    None => {
                        self.output = Some(item);
                        return;
                    }
                }
                continue;
            }
            if token == Token::Ident("test") && self.tokens.len() == self.statement_start && starts_a_call(&lexer) {
                token = Token::Test;
            }
            match token {
                Token::Let => self.open_lets.push(self.depth),
                Token::In if self.open_lets.last() == Some(&self.depth) => {
                    self.open_lets.pop();
                    token = Token::LetIn;
                }
                _ => {}
            }
            match token {
                Token::LParen | Token::LBracket | Token::LBrace => self.depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace => {
                    self.depth = self.depth.saturating_sub(1);
                    // A `let` inside brackets that closed without its `in` is a syntax
                    // error the parser reports; it must not claim a later `in`.
                    while self.open_lets.last().is_some_and(|&d| d > self.depth) {
                        self.open_lets.pop();
                    }
                }
                Token::Minesweeper | Token::NumberMatch if self.tokens.len() == self.statement_start => {
                    self.puzzle_grids = true;
                }
                _ => {}
            }
            self.nesting += usize::from(token.deepens());
            let (token_start, token_end) = widen_to_chars(text, span.start, span.end);
            self.tokens.push((start + token_start, token, start + token_end));
            if token == Token::Option {
                let rest = lexer.remainder();
                if let Some((offset, len)) = option_name(rest) {
                    let name_start = start + span.end + offset;
                    self.tokens.push((name_start, Token::Ident(&rest[offset..offset + len]), name_start + len));
                    lexer.bump(offset + len);
                }
            }
        }
        // After a statement's tokens, not after a line that held only an `output` item.
        let statement_open = self.tokens.last().is_some_and(|&(_, token, _)| token != Token::Newline);
        if self.depth == 0
            && statement_open
            && self.tokens.last().is_some_and(|(_, token, _)| token.can_end_statement())
        {
            self.pending_newline = Some(start + text.len());
        }
        if let [(_, Token::Given, _), (_, Token::Ident(_), _), (_, Token::Eq, _)] = self.tokens[self.statement_start..]
        {
            self.given = Some(GivenBlock { header_end: start + text.len(), rows: 0 });
        }
    }

    /// Keeps [`Lexer::after_generators`] up to date with `token`, the next one read.
    fn note_generators(&mut self, token: Token<'src>) {
        let after_name = matches!(self.tokens.last(), Some((_, Token::Ident(_) | Token::Forall, _)));
        let mut closed_generators = false;
        match token {
            Token::LParen => self.parens.push((after_name, false)),
            Token::In | Token::LetIn => {
                // Directly inside the last `(` when no `[` or `{` is open within it.
                let direct = self.parens.len() == self.depth;
                if let (Some(top), true) = (self.parens.last_mut(), direct) {
                    top.1 = true;
                }
            }
            Token::RParen => {
                if let Some((call, generators)) = self.parens.pop() {
                    closed_generators = call && generators && self.depth == 1;
                }
            }
            _ => {}
        }
        self.after_generators = closed_generators;
    }

    /// Whether `token`, first on its line, is the goal of a `solve ::` statement that has
    /// none yet: MiniZinc's tutorial puts `minimize cost;` under `solve :: int_search(…)`.
    fn goal_of_annotated_solve(&self, token: Token<'src>) -> bool {
        let is_goal = |t: Token<'src>| matches!(t, Token::Minimize | Token::Maximize | Token::Ident("satisfy"));
        let statement = &self.tokens[self.statement_start..];
        is_goal(token)
            && matches!(statement, [(_, Token::Solve, _), (_, Token::ColonColon, _), ..])
            && !statement.iter().any(|&(_, t, _)| is_goal(t))
    }

    fn at_statement_start(&self) -> bool {
        self.depth == 0 && self.tokens.last().is_none_or(|(_, token, _)| token.can_end_statement())
    }

    fn flush_newline(&mut self) {
        if let Some(at) = self.pending_newline.take() {
            self.push_newline(at);
        }
    }

    fn push_newline(&mut self, at: usize) {
        self.end_statement();
        self.open_lets.clear();
        self.parens.clear();
        self.after_generators = false;
        self.tokens.push((at, Token::Newline, at));
        self.statement_start = self.tokens.len();
    }

    /// Replaces a statement nested beyond [`MAX_NESTING`] by one `Error` token.
    fn end_statement(&mut self) {
        if self.nesting > MAX_NESTING {
            let first = self.tokens.get(self.statement_start).copied();
            if let (Some((start, _, first_end)), Some(&(_, _, end))) = (first, self.tokens.last()) {
                self.tokens.truncate(self.statement_start);
                self.tokens.push((start, Token::Error, end));
                self.errors.push(
                    Diagnostic::new("statement nested too deeply", start..first_end)
                        .with_label(format!("this statement holds more than {MAX_NESTING} operators and brackets"))
                        .with_note("split it, or use `sum` over a list"),
                );
            }
        }
        self.nesting = 0;
    }

    fn finish(mut self) -> Lexed<'src> {
        self.close_given();
        self.flush_newline();
        self.end_statement();
        Lexed { tokens: self.tokens, errors: self.errors, stopped_at: self.stopped_at }
    }
}

/// Whether the tokens after the current one are `NAME (`: after a leading `test`, the
/// item `test NAME(…) = …` (a `test` that names a constant or variable is followed by
/// something else).
fn starts_a_call<'src>(lexer: &logos::Lexer<'src, Token<'src>>) -> bool {
    let mut ahead = lexer.clone();
    matches!((ahead.next(), ahead.next()), (Some(Ok(Token::Ident(_))), Some(Ok(Token::LParen))))
}

/// A row of a `given` grid: blank-separated words, each `.` or an integer.
fn is_given_row(text: &str) -> bool {
    !text.is_empty()
        && text.split_whitespace().all(|word| {
            let digits = word.strip_prefix('-').unwrap_or(word);
            word == "." || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// A row of a `minesweeper` or `numbermatch` grid. A line starting like a row is taken as
/// one even if a later cell is wrong, so that the model can point at that cell.
fn is_puzzle_row(text: &str) -> bool {
    let is_cell = |c: char| matches!(c, '.' | '?' | '*' | 'F') || c.is_ascii_digit();
    match text.chars().next() {
        Some(first) if first != 'F' && is_cell(first) => true,
        Some(_) => text.chars().all(|c| c.is_whitespace() || is_cell(c)),
        None => false,
    }
}

/// The name after `option`: blanks, then `word(-word)*`. Returns its offset and length.
fn option_name(rest: &str) -> Option<(usize, usize)> {
    let offset = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let name = &rest[offset..];
    let word_len = |s: &str| {
        let mut chars = s.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_alphabetic() || c == '_' => {}
            _ => return 0,
        }
        chars.find(|(_, c)| !(c.is_alphanumeric() || *c == '_')).map_or(s.len(), |(i, _)| i)
    };
    let mut len = word_len(name);
    if len == 0 {
        return None;
    }
    while let Some(after_dash) = name[len..].strip_prefix('-') {
        match word_len(after_dash) {
            0 => break,
            next => len += 1 + next,
        }
    }
    Some((offset, len))
}

/// `logos` may stop an error in the middle of a multi-byte character; spans must not.
fn widen_to_chars(text: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

fn lex_error(error: LexError, text: &str, span: std::ops::Range<usize>, line_start: usize) -> Diagnostic {
    let (start, end) = widen_to_chars(text, span.start, span.end);
    let slice = &text[start..end];
    let at = line_start + start..line_start + end;
    match error {
        LexError::UnexpectedChar => {
            let shown: String = slice.chars().flat_map(char::escape_debug).collect();
            let what = if slice.chars().count() == 1 { "character" } else { "text" };
            Diagnostic::new(format!("unexpected {what} `{shown}`"), at).with_label("not part of the language")
        }
        LexError::IntegerTooLarge => Diagnostic::new(format!("integer `{slice}` is too large"), at)
            .with_label("does not fit in 64 bits")
            .with_note(format!("integers lie between {} and {}", i64::MIN, i64::MAX)),
        LexError::NumberWithLetters => {
            let based = ["0x", "0X", "0b", "0B", "0o", "0O"].iter().any(|prefix| slice.starts_with(prefix));
            let note = if based {
                "integers are written in decimal"
            } else {
                "write `*` between a coefficient and a name, as in `12*WORD`"
            };
            Diagnostic::new(format!("invalid number `{slice}`"), at)
                .with_label("a number cannot be directly followed by a letter")
                .with_note(note)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Token<'_>> {
        let lexed = lex(source);
        assert!(lexed.errors.is_empty(), "{:?}", lexed.errors);
        lexed.tokens.into_iter().map(|(_, token, _)| token).collect()
    }

    fn statements(source: &str) -> usize {
        kinds(source).iter().filter(|token| **token == Token::Newline).count()
    }

    #[test]
    fn a_generator_call_continues_on_the_next_line() {
        assert_eq!(statements("forall(i in 1..3)\n  (x[i] > 0)"), 1);
        assert_eq!(statements("constraint sum(i, j in 1..3 where i < j)\n(x[i] * j) > 0"), 1);
        // Only after generators: a call without them, or a bare parenthesis, ends the line.
        assert_eq!(statements("alldifferent(x)\n(x[1] + x[2]) == 3"), 2);
        assert_eq!(statements("p(x in S)\n(y) == 1"), 1);
        assert_eq!(statements("(x in S)\n(y) == 1"), 2);
        assert_eq!(statements("f([i | i in 1..3])\n(y) == 1"), 2);
    }

    #[test]
    fn the_goal_may_follow_solve_on_the_next_line() {
        assert_eq!(statements("solve\n  maximize x + y"), 1);
        assert_eq!(statements("solve maximize\n  x + y"), 1);
        assert_eq!(statements("minimize\nx"), 1);
        assert_eq!(statements("solve\nsatisfy;\nx > 1"), 2);
        assert_eq!(statements("solve :: int_search(x, first_fail, indomain_min)\n  minimize x + y;"), 1);
        assert_eq!(statements("solve :: int_search(x, first_fail, indomain_min)\nsatisfy"), 1);
        // A goal already given: the next line is a statement of its own.
        assert_eq!(statements("solve :: int_search(x, first_fail, indomain_min) satisfy\nminimize x"), 2);
    }

    #[test]
    fn keywords_names_and_numbers() {
        use Token::*;
        assert_eq!(kinds("let n = 8"), [Let, Ident("n"), Eq, Int(8), Newline]);
        assert_eq!(kinds("var Été in 0..9"), [Var, Ident("Été"), In, Int(0), DotDot, Int(9), Newline]);
        assert_eq!(kinds("letter"), [Ident("letter"), Newline]);
    }

    #[test]
    fn operators_take_the_longest_match() {
        use Token::*;
        assert_eq!(
            kinds("a<->b -> c <= d ++ e /\\ f \\/ g != h == i"),
            [
                Ident("a"),
                Iff,
                Ident("b"),
                Arrow,
                Ident("c"),
                Le,
                Ident("d"),
                Concat,
                Ident("e"),
                And,
                Ident("f"),
                Or,
                Ident("g"),
                Ne,
                Ident("h"),
                EqEq,
                Ident("i"),
                Newline
            ]
        );
        assert_eq!(kinds("12.ENFANT"), [Int(12), Dot, Ident("ENFANT"), Newline]);
        assert_eq!(kinds("x div 2 mod 3"), [Ident("x"), Div, Int(2), Mod, Int(3), Newline]);
    }

    #[test]
    fn comments_and_blank_lines_produce_nothing() {
        use Token::*;
        assert_eq!(kinds("# only a comment\n\n  \nx # trailing\n\n# end"), [Ident("x"), Newline]);
        assert_eq!(kinds(""), []);
        assert_eq!(
            kinds("x\noutput [\"a\"]\n  ++ [\"\\\"; %\" ++ show(x)]\ny"),
            [Ident("x"), Newline, Ident("y"), Newline]
        );
        assert_eq!(kinds("output\n  [\"}\"]; z; output [] % c\n\nw"), [Ident("z"), Newline, Ident("w"), Newline]);
        assert_eq!(
            kinds("output [\"a\"];\nvar x in 1..3; output [\"x\"];"),
            [Var, Ident("x"), In, Int(1), DotDot, Int(3), Newline]
        );
        assert_eq!(
            kinds("var x in 1..3;\noutput [\"a\"]\n  ++ [\"b\"]\n\n;\nx > 1;;"),
            [Var, Ident("x"), In, Int(1), DotDot, Int(3), Newline, Ident("x"), Gt, Int(1), Newline]
        );
        assert_eq!(
            kinds("predicate\n  p(x) = x > 1;"),
            [Predicate, Ident("p"), LParen, Ident("x"), RParen, Eq, Ident("x"), Gt, Int(1), Newline]
        );
        assert_eq!(kinds("let output = 3"), [Let, Output, Eq, Int(3), Newline]);
        assert_eq!(kinds("% MiniZinc's comment\nx % trailing\n  % indented"), [Ident("x"), Newline]);
        assert_eq!(kinds("s = \"50% # not a comment\" % one"), [Ident("s"), Eq, Str("50% # not a comment"), Newline]);
    }

    #[test]
    fn line_breaks_end_statements_only_where_they_can() {
        use Token::*;
        assert_eq!(kinds("a +\n b\nc"), [Ident("a"), Plus, Ident("b"), Newline, Ident("c"), Newline]);
        assert_eq!(kinds("a\n + b\nc"), [Ident("a"), Plus, Ident("b"), Newline, Ident("c"), Newline]);
        assert_eq!(kinds("a\n - b"), [Ident("a"), Newline, Minus, Ident("b"), Newline]);
        assert_eq!(
            kinds("f(a,\n\n  b)\r\nc\r\n"),
            [Ident("f"), LParen, Ident("a"), Comma, Ident("b"), RParen, Newline, Ident("c"), Newline]
        );
    }

    #[test]
    fn newline_spans_sit_at_the_end_of_the_line() {
        let lexed = lex("x\r\ny");
        assert_eq!(lexed.tokens[1], (1, Token::Newline, 1));
        assert_eq!(lexed.tokens[3], (4, Token::Newline, 4));
    }

    #[test]
    fn option_names_keep_their_dashes() {
        use Token::*;
        assert_eq!(kinds("option leading-zeros = false"), [Option, Ident("leading-zeros"), Eq, False, Newline]);
        assert_eq!(kinds("option base=10"), [Option, Ident("base"), Eq, Int(10), Newline]);
        assert_eq!(kinds("x-y"), [Ident("x"), Minus, Ident("y"), Newline]);
    }

    #[test]
    fn given_rows_are_raw_and_end_at_a_non_row_line() {
        let source = "given x =\n  5 3 . # first\n -1 . 2\nsolve all\n";
        let lexed = lex(source);
        let rows: Vec<_> = lexed
            .tokens
            .iter()
            .filter_map(|&(s, t, e)| match t {
                Token::GridRow(text) => Some((text, &source[s..e])),
                _ => None,
            })
            .collect();
        assert_eq!(rows, [("5 3 .", "5 3 ."), ("-1 . 2", "-1 . 2")]);
        use Token::*;
        assert_eq!(
            kinds(source),
            [Given, Ident("x"), Eq, GridRow("5 3 ."), GridRow("-1 . 2"), Newline, Solve, Ident("all"), Newline]
        );
    }

    #[test]
    fn given_without_rows_still_ends_its_line() {
        use Token::*;
        assert_eq!(kinds("given x =\n\nsolve all"), [Given, Ident("x"), Eq, Newline, Solve, Ident("all"), Newline]);
    }

    #[test]
    fn puzzle_rows_follow_the_statement_and_later_options() {
        use Token::*;
        assert_eq!(
            kinds("minesweeper\n..1F\nF . ?\nsolve all"),
            [Minesweeper, Newline, GridRow("..1F"), GridRow("F . ?"), Newline, Solve, Ident("all"), Newline]
        );
        assert_eq!(
            kinds("numbermatch cols = 9\noption rules = classic\n1 2 3\n4 5"),
            [
                NumberMatch,
                Ident("cols"),
                Eq,
                Int(9),
                Newline,
                Option,
                Ident("rules"),
                Eq,
                Ident("classic"),
                Newline,
                GridRow("1 2 3"),
                GridRow("4 5"),
                Newline
            ]
        );
    }

    #[test]
    fn digits_are_not_rows_outside_grid_puzzles() {
        use Token::*;
        assert_eq!(kinds("2 * x == 4"), [Int(2), Star, Ident("x"), EqEq, Int(4), Newline]);
    }

    #[test]
    fn statements_nested_too_deeply_become_one_error() {
        let source = format!("x == {}1\nsolve all", "-".repeat(MAX_NESTING + 1));
        let lexed = lex(&source);
        assert_eq!(lexed.errors.len(), 1);
        assert_eq!(lexed.errors[0].span, 0..1);
        let kinds: Vec<_> = lexed.tokens.iter().map(|(_, token, _)| *token).collect();
        assert_eq!(kinds, [Token::Error, Token::Newline, Token::Solve, Token::Ident("all"), Token::Newline]);
        assert_eq!(lexed.tokens[0].2, source.find('\n').unwrap_or_default());
        let just_fits = format!("x == {}1", "-".repeat(MAX_NESTING - 1));
        assert!(lex(&just_fits).errors.is_empty());
    }

    #[test]
    fn errors_are_located_and_replaced_by_an_error_token() {
        let lexed = lex("x @ y\nqueens n = 0x\nlet big = 99999999999999999999\n# é ü\n€");
        let messages: Vec<_> = lexed.errors.iter().map(|d| (d.message.as_str(), d.span.clone())).collect();
        assert_eq!(
            messages,
            [
                ("unexpected character `@`", 2..3),
                ("invalid number `0x`", 17..19),
                ("integer `99999999999999999999` is too large", 30..50),
                ("unexpected character `€`", 59..62),
            ]
        );
        assert_eq!(lexed.tokens.iter().filter(|(_, t, _)| *t == Token::Error).count(), 4);
    }
}
