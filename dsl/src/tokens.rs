//! The tokens of the `.puz` language, recognised by a `logos` state machine.
//!
//! This file is the single list of what a token can be. It knows nothing about lines:
//! `lexer.rs` feeds it one source line at a time and adds the tokens that depend on the
//! layout of the file (`Newline`, `GridRow`), which is why those two variants have no
//! pattern here. `Error` stands in for text that is not a token, so the parser can skip
//! the rest of that statement and carry on (the lexer reports the actual error).

use logos::Logos;

/// Why a piece of text is not a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum LexError {
    /// A character that starts no token (`@`, `!` alone, `$`...).
    #[default]
    UnexpectedChar,
    /// An integer literal that does not fit in an `i64`.
    IntegerTooLarge,
    /// Digits glued to letters, such as `0x` or `12ENFANT`.
    NumberWithLetters,
}

#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\f\u{FEFF}]+", skip r"[#%][^\n]*", error = LexError)]
pub(crate) enum Token<'src> {
    #[token("let")]
    Let,
    #[token("var")]
    Var,
    #[token("in")]
    In,
    #[token("forall")]
    Forall,
    #[token("where")]
    Where,
    #[token("given")]
    Given,
    #[token("solve")]
    Solve,
    #[token("minimize")]
    Minimize,
    #[token("maximize")]
    Maximize,
    #[token("option")]
    Option,
    /// MiniZinc's `output` item: the lexer reads it and leaves it out (cpsolve prints its
    /// own answer); anywhere else the word is reserved, as in MiniZinc.
    #[token("output")]
    Output,
    #[token("cryptarithm")]
    Cryptarithm,
    #[token("queens")]
    Queens,
    #[token("nothreeinline")]
    NoThreeInLine,
    #[token("minesweeper")]
    Minesweeper,
    #[token("numbermatch")]
    NumberMatch,
    #[token("compte")]
    Compte,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("elseif")]
    Elseif,
    #[token("else")]
    Else,
    #[token("endif")]
    Endif,
    #[token("predicate")]
    Predicate,
    #[token("function")]
    Function,
    #[token("enum")]
    Enum,
    #[token("include")]
    Include,
    #[token("search")]
    Search,
    #[token("constraint")]
    Constraint,
    #[token("set")]
    Set,
    #[token("of")]
    Of,
    #[token("xor")]
    Xor,
    #[token("union")]
    Union,
    #[token("intersect")]
    Intersect,
    #[token("diff")]
    Diff,
    #[token("symdiff")]
    Symdiff,
    #[token("subset")]
    Subset,
    #[token("superset")]
    Superset,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("not")]
    Not,
    #[token("and")]
    #[token("/\\")]
    And,
    #[token("or")]
    #[token("\\/")]
    Or,
    #[token("div")]
    #[token("/")]
    Div,
    #[token("mod")]
    Mod,

    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("++")]
    Concat,
    #[token("==")]
    EqEq,
    #[token("=")]
    Eq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("->")]
    Arrow,
    #[token("<->")]
    Iff,
    #[token("..")]
    DotDot,
    #[token(".")]
    Dot,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    /// MiniZinc's annotation mark: `alldifferent(x) :: domain`.
    #[token("::")]
    ColonColon,
    #[token("|")]
    Pipe,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(";")]
    Semicolon,
    // A file name: no escapes, no line break.
    #[regex(r#""[^"\n]*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'src str),

    #[regex("[0-9]+", |lex| lex.slice().parse::<i64>().map_err(|_| LexError::IntegerTooLarge))]
    Int(i64),
    // Letters of any script, so that a cryptarithm may use accented words.
    #[regex(r"[\p{L}_][\p{L}\p{N}_]*")]
    Ident(&'src str),
    // Without this pattern `0x` would lex as `0` then `x`, and the error would point at a
    // name the user never meant to write.
    #[regex(r"[0-9]+[\p{L}_][\p{L}\p{N}_]*", number_with_letters)]
    NumberWithLetters,

    /// The `in` that ends the definitions of a `let` expression (see `lexer.rs`: the lexer
    /// tells it from the `in` of membership, which the grammar could not).
    LetIn,
    /// MiniZinc's `test`, which starts a `test NAME(…) = …` item (see `lexer.rs`: elsewhere
    /// `test` is a name).
    Test,
    /// The end of a statement (see `lexer.rs` for when a line break is one).
    Newline,
    /// One raw line of a grid.
    GridRow(&'src str),
    /// Text that is not a token; already reported by the lexer.
    Error,
}

fn number_with_letters<'src>(_: &mut logos::Lexer<'src, Token<'src>>) -> Result<(), LexError> {
    Err(LexError::NumberWithLetters)
}

impl Token<'_> {
    /// Whether a statement can end right after this token. A line that ends with any other
    /// token (an operator, `,`, `=`, `in`...) continues on the next line.
    pub(crate) fn can_end_statement(self) -> bool {
        // `endif` closes an expression, but a line that starts with it continues the last.
        self == Token::Endif
            || !(self.is_operator()
                || matches!(
                    self,
                    Token::In
                        | Token::LetIn
                        | Token::Where
                        | Token::Comma
                        | Token::Colon
                        | Token::ColonColon
                        | Token::Pipe
                        | Token::If
                        | Token::Then
                        | Token::Elseif
                        | Token::Else
                        | Token::Let
                        | Token::Constraint
                        // MiniZinc's layout may put the name of a predicate, a function or
                        // an enum on the line after the word.
                        | Token::Predicate
                        | Token::Function
                        | Token::Enum
                        | Token::Of
                        // `solve` on a line of its own and `maximize x` on the next: MiniZinc's
                        // tutorial lays goals out so, and neither word ends a statement.
                        | Token::Solve
                        | Token::Minimize
                        | Token::Maximize
                ))
    }

    /// An infix operator that cannot start a statement: a line that starts with one
    /// continues the previous line (`  + 153*water <= 400`). `-` and `not` can start one.
    pub(crate) fn continues_previous_line(self) -> bool {
        matches!(
            self,
            Token::And
                | Token::Or
                | Token::Div
                | Token::Mod
                | Token::Plus
                | Token::Star
                | Token::Concat
                | Token::EqEq
                | Token::Eq
                | Token::Ne
                | Token::Lt
                | Token::Le
                | Token::Gt
                | Token::Ge
                | Token::Arrow
                | Token::Iff
                | Token::Xor
                | Token::Union
                | Token::Intersect
                | Token::Diff
                | Token::Symdiff
                | Token::Subset
                | Token::Superset
                | Token::In
                | Token::LetIn
                | Token::Then
                | Token::Elseif
                | Token::Else
                | Token::Endif
        )
    }

    /// Whether this token can add a level to the syntax tree. Their count bounds the depth
    /// of a statement's tree, which `lexer.rs` limits.
    pub(crate) fn deepens(self) -> bool {
        self.is_operator()
            || matches!(self, Token::LParen | Token::LBracket | Token::LBrace | Token::Forall | Token::If | Token::Let)
    }

    /// A prefix or infix operator (`.` is the coefficient of `12.WORD`).
    fn is_operator(self) -> bool {
        self.continues_previous_line() || matches!(self, Token::Not | Token::Minus | Token::DotDot | Token::Dot)
    }
}
