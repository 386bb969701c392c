//! The part of MiniZinc's language that output specifications (`.ozn`) and FlatZinc
//! solutions are written in: declarations, one output item, and expressions (literals,
//! arrays, sets, ranges, comprehensions, `if`, `let`, operators and calls).
//!
//! Anything else (functions, enums, tuples, string interpolation, floats, annotations) is
//! refused with [`Unsupported`]: the caller then leaves the printing to MiniZinc itself.

/// Why a text is outside the subset read here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsupported(pub String);

fn no<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Int(i64),
    Str(String),
    Ident(String),
    Sym(&'static str),
}

/// Longest first, so that `<=` is not read as `<` then `=`.
const SYMBOLS: &[&str] = &[
    "<->", "[|", "|]", "/\\", "\\/", "->", "<-", "==", "!=", "<=", ">=", "++", "..", "[", "]", "(", ")", "{", "}", ",",
    ";", ":", "=", "<", ">", "+", "-", "*", "|",
];

fn lex(text: &str) -> Result<Vec<Token>, Unsupported> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'%' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            // A float (`1.5`, `1e3`) is outside the subset; a range `1..3` is not a float.
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E' || bytes[i] == b'x' || bytes[i] == b'o')
                || (i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1] != b'.')
            {
                return no("a float or non-decimal number");
            }
            let n = text[start..i].parse().map_err(|_| Unsupported("an integer out of range".into()))?;
            tokens.push(Token::Int(n));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token::Ident(text[start..i].to_string()));
        } else if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                match bytes.get(i) {
                    None => return no("an unterminated string"),
                    Some(b'"') => break,
                    Some(b'\\') => {
                        let escaped = match bytes.get(i + 1) {
                            Some(b'n') => '\n',
                            Some(b't') => '\t',
                            Some(b'"') => '"',
                            Some(b'\\') => '\\',
                            _ => return no("a string escape other than \\n \\t \\\" \\\\"),
                        };
                        s.push(escaped);
                        i += 2;
                    }
                    Some(_) => {
                        let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            i += 1;
            tokens.push(Token::Str(s));
        } else if let Some(sym) = SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            tokens.push(Token::Sym(sym));
            i += sym.len();
        } else {
            return no(format!("the character `{}`", text[i..].chars().next().unwrap_or(' ')));
        }
    }
    Ok(tokens)
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    Int(i64),
    Bool(bool),
    Str(String),
    Name(String),
    /// `[a, b, c]`.
    Array(Vec<Expr>),
    /// `[| a, b | c, d |]`: rows.
    Array2d(Vec<Vec<Expr>>),
    /// `{a, b}`.
    Set(Vec<Expr>),
    /// `[e | generators]` (or `{e | ...}` when `set`).
    Comprehension {
        body: Box<Expr>,
        generators: Vec<Generator>,
        set: bool,
    },
    /// `[(i, j): e | generators]`: each value under the index it names.
    Keyed {
        keys: Vec<Expr>,
        body: Box<Expr>,
        generators: Vec<Generator>,
    },
    Index(Box<Expr>, Vec<Expr>),
    Call(String, Vec<Expr>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    If(Vec<(Expr, Expr)>, Box<Expr>),
    Let(Vec<Decl>, Box<Expr>),
}

/// `i, j in S where condition`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Generator {
    pub(crate) names: Vec<String>,
    pub(crate) source: Expr,
    pub(crate) condition: Option<Expr>,
}

/// `array [1..n, S] of int: x = e`: the index sets matter (an array literal is indexed from 1
/// until its declaration says otherwise); `int` as an index set keeps the value's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decl {
    pub(crate) name: String,
    pub(crate) index_sets: Option<Vec<Option<Expr>>>,
    pub(crate) value: Option<Expr>,
}

/// An output specification: its declarations and its output item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spec {
    pub(crate) decls: Vec<Decl>,
    pub(crate) output: Expr,
}

/// Reads an output specification.
pub(crate) fn spec(text: &str) -> Result<Spec, Unsupported> {
    let mut p = Parser { tokens: lex(text)?, at: 0 };
    let mut decls = Vec::new();
    let mut output = None;
    while p.peek().is_some() {
        if p.eat_ident("output") {
            if output.is_some() {
                return no("two output items");
            }
            output = Some(p.expr()?);
        } else {
            decls.push(p.decl()?);
        }
        if p.peek().is_some() {
            p.expect(";")?;
        }
    }
    match output {
        Some(output) => Ok(Spec { decls, output }),
        None => no("no output item"),
    }
}

/// Reads a FlatZinc solution's assignments, `name = value;` each.
pub(crate) fn assignments(text: &str) -> Result<Vec<(String, Expr)>, Unsupported> {
    let mut p = Parser { tokens: lex(text)?, at: 0 };
    let mut found = Vec::new();
    while p.peek().is_some() {
        let name = p.ident()?;
        p.expect("=")?;
        found.push((name, p.expr()?));
        p.expect(";")?;
    }
    Ok(found)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

const KEYWORDS: &[&str] =
    &["if", "then", "elseif", "else", "endif", "let", "in", "where", "not", "div", "mod", "of", "output"];

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn is_sym(&self, sym: &str) -> bool {
        matches!(self.peek(), Some(Token::Sym(s)) if *s == sym)
    }

    fn is_ident(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Ident(s)) if s == word)
    }

    fn eat(&mut self, sym: &str) -> bool {
        let found = self.is_sym(sym);
        self.at += found as usize;
        found
    }

    fn eat_ident(&mut self, word: &str) -> bool {
        let found = self.is_ident(word);
        self.at += found as usize;
        found
    }

    fn expect(&mut self, sym: &str) -> Result<(), Unsupported> {
        if self.eat(sym) {
            Ok(())
        } else {
            no(format!("`{sym}` expected, found {:?}", self.peek()))
        }
    }

    fn expect_ident(&mut self, word: &str) -> Result<(), Unsupported> {
        if self.eat_ident(word) {
            Ok(())
        } else {
            no(format!("`{word}` expected, found {:?}", self.peek()))
        }
    }

    fn ident(&mut self) -> Result<String, Unsupported> {
        match self.peek() {
            Some(Token::Ident(name)) if !KEYWORDS.contains(&name.as_str()) => {
                let name = name.clone();
                self.at += 1;
                Ok(name)
            }
            other => no(format!("a name expected, found {other:?}")),
        }
    }

    /// `TYPE: name [= value]`, where TYPE is a scalar of int, bool or string, a set of int,
    /// or an array of them.
    fn decl(&mut self) -> Result<Decl, Unsupported> {
        let index_sets = if self.eat_ident("array") {
            self.expect("[")?;
            let mut sets = Vec::new();
            loop {
                if self.is_ident("int") {
                    self.at += 1;
                    sets.push(None);
                } else {
                    sets.push(Some(self.expr()?));
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
            self.expect_ident("of")?;
            Some(sets)
        } else {
            None
        };
        if self.eat_ident("set") {
            self.expect_ident("of")?;
            self.expect_ident("int")?;
        } else if !(self.eat_ident("int") || self.eat_ident("bool") || self.eat_ident("string")) {
            return no(format!("a declaration of another type: {:?}", self.peek()));
        }
        self.expect(":")?;
        let name = self.ident()?;
        let value = if self.eat("=") { Some(self.expr()?) } else { None };
        Ok(Decl { name, index_sets, value })
    }

    fn expr(&mut self) -> Result<Expr, Unsupported> {
        self.binary(0)
    }

    /// Operators by MiniZinc's precedence, loosest first; `++` binds tightest, from the right.
    fn binary(&mut self, level: usize) -> Result<Expr, Unsupported> {
        const LEVELS: &[&[&str]] = &[
            &["<->"],
            &["->", "<-"],
            &["\\/"],
            &["/\\"],
            &["==", "=", "!=", "<", "<=", ">", ">="],
            &["in"],
            &[".."],
            &["+", "-"],
            &["*", "div", "mod"],
        ];
        if level == LEVELS.len() {
            return self.concatenation();
        }
        let mut left = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Some(Token::Sym(s)) => LEVELS[level].iter().find(|o| *o == s),
                Some(Token::Ident(s)) => LEVELS[level].iter().find(|o| *o == s),
                _ => None,
            };
            let Some(op) = op else { return Ok(left) };
            self.at += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn concatenation(&mut self) -> Result<Expr, Unsupported> {
        let left = self.unary()?;
        if self.eat("++") {
            let right = self.concatenation()?;
            return Ok(Expr::Binary("++", Box::new(left), Box::new(right)));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, Unsupported> {
        if self.eat("-") {
            return Ok(Expr::Unary("-", Box::new(self.unary()?)));
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat_ident("not") {
            return Ok(Expr::Unary("not", Box::new(self.unary()?)));
        }
        let mut e = self.primary()?;
        while self.eat("[") {
            let indices = self.list("]")?;
            e = Expr::Index(Box::new(e), indices);
        }
        Ok(e)
    }

    /// Expressions separated by commas, up to `close`.
    fn list(&mut self, close: &str) -> Result<Vec<Expr>, Unsupported> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.expr()?);
            if !self.eat(",") {
                self.expect(close)?;
                break;
            }
        }
        Ok(items)
    }

    fn primary(&mut self) -> Result<Expr, Unsupported> {
        let Some(token) = self.peek().cloned() else { return no("an expression expected at the end") };
        self.at += 1;
        match token {
            Token::Int(n) => Ok(Expr::Int(n)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::Sym("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Token::Sym("[") => self.array_or_comprehension("]", false),
            Token::Sym("{") => self.array_or_comprehension("}", true),
            Token::Sym("[|") => {
                let mut rows = vec![Vec::new()];
                while !self.eat("|]") {
                    if self.eat("|") {
                        rows.push(Vec::new());
                        continue;
                    }
                    let e = self.expr()?;
                    if let Some(row) = rows.last_mut() {
                        row.push(e);
                    }
                    self.eat(",");
                }
                rows.retain(|row| !row.is_empty());
                Ok(Expr::Array2d(rows))
            }
            Token::Ident(word) => match word.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                "if" => self.conditional(),
                "let" => {
                    self.expect("{")?;
                    let mut decls = Vec::new();
                    while !self.eat("}") {
                        decls.push(self.decl()?);
                        if !(self.eat(",") || self.eat(";")) {
                            self.expect("}")?;
                            break;
                        }
                    }
                    self.expect_ident("in")?;
                    Ok(Expr::Let(decls, Box::new(self.expr()?)))
                }
                _ if KEYWORDS.contains(&word.as_str()) => no(format!("`{word}` where an expression should be")),
                _ if self.eat("(") => Ok(Expr::Call(word, self.list(")")?)),
                _ => Ok(Expr::Name(word)),
            },
            other => no(format!("{other:?} where an expression should be")),
        }
    }

    fn conditional(&mut self) -> Result<Expr, Unsupported> {
        let mut branches = Vec::new();
        loop {
            let condition = self.expr()?;
            self.expect_ident("then")?;
            branches.push((condition, self.expr()?));
            if self.eat_ident("elseif") {
                continue;
            }
            self.expect_ident("else")?;
            let otherwise = self.expr()?;
            self.expect_ident("endif")?;
            return Ok(Expr::If(branches, Box::new(otherwise)));
        }
    }

    /// The generators of a comprehension: `i, j in S where condition, k in T`.
    fn generators(&mut self) -> Result<Vec<Generator>, Unsupported> {
        let mut generators = Vec::new();
        loop {
            let mut names = vec![self.ident()?];
            while self.eat(",") {
                names.push(self.ident()?);
            }
            self.expect_ident("in")?;
            let source = self.binary(6)?;
            let condition = if self.eat_ident("where") { Some(self.expr()?) } else { None };
            generators.push(Generator { names, source, condition });
            if !self.eat(",") {
                return Ok(generators);
            }
        }
    }

    /// The keys of an indexed comprehension, `(i, j):` or `i:`, if one starts here.
    fn keys(&mut self) -> Result<Option<Vec<Expr>>, Unsupported> {
        let start = self.at;
        let keys = if self.eat("(") { self.list(")").ok() } else { self.unary().ok().map(|key| vec![key]) };
        if let Some(keys) = keys {
            if self.eat(":") {
                return Ok(Some(keys));
            }
        }
        self.at = start;
        Ok(None)
    }

    fn array_or_comprehension(&mut self, close: &str, set: bool) -> Result<Expr, Unsupported> {
        if self.eat(close) {
            return Ok(if set { Expr::Set(Vec::new()) } else { Expr::Array(Vec::new()) });
        }
        let keys = if set { None } else { self.keys()? };
        let first = self.expr()?;
        if keys.is_some() || self.eat("|") {
            if keys.is_some() {
                self.expect("|")?;
            }
            let generators = self.generators()?;
            self.expect(close)?;
            let body = Box::new(first);
            return Ok(match keys {
                Some(keys) => Expr::Keyed { keys, body, generators },
                None => Expr::Comprehension { body, generators, set },
            });
        }
        let mut items = vec![first];
        if self.eat(",") {
            items.extend(self.list(close)?);
        } else {
            self.expect(close)?;
        }
        Ok(if set { Expr::Set(items) } else { Expr::Array(items) })
    }
}
