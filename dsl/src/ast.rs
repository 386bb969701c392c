//! The syntax tree of a `.puz` file.
//!
//! Every node carries the byte range it was parsed from (`Span`), so that any later stage
//! (name resolution, model compilation) can point at the offending text. Line and column
//! numbers are computed only when a diagnostic is rendered.
//!
//! The tree is deliberately close to the text: the parser does not evaluate, resolve names
//! or check types. A puzzle statement such as `cryptarithm` or `minesweeper` keeps its raw
//! parts (expressions, grid rows) and the model that owns it gives them meaning.

use std::ops::Range;

/// A byte range in the source text.
pub type Span = Range<usize>;

/// A node together with the source range it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// An identifier with its span.
pub type Ident = Spanned<String>;

/// A whole `.puz` file: its statements in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub items: Vec<Spanned<Item>>,
}

/// One statement (one line, or several when brackets or a grid continue it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `let n = 8`. `dims` are the index sets of MiniZinc's `array[0..2] of int: w = …`
    /// (empty for `let`): the value takes them.
    Let { name: Ident, dims: Vec<Spanned<Expr>>, value: Spanned<Expr> },
    /// MiniZinc's constant declared without its value (`int: n;`, `array[1..n] of int: d;`,
    /// `set of int: S;`): a data line `n = …` elsewhere in the model gives it (the model
    /// compiler binds the two).
    Param { name: Ident, dims: Vec<Spanned<Expr>> },
    /// `var S, E, N in 0..9`, `var q[1..n] in 1..n`, `var x[1..9, 1..9] in {1, 3}`
    Var { decls: Vec<VarDecl>, domain: Spanned<Expr> },
    /// A constraint: a relation, a call such as `alldifferent(...)`, a boolean combination.
    Constraint(Spanned<Expr>),
    /// `forall i in 1..9, j in 1..9 where i < j: <constraint>`
    Forall { generators: Vec<Generator>, body: Box<Spanned<Item>> },
    /// `given x =` followed by grid rows (`.` leaves a cell free).
    Given { name: Ident, rows: Vec<GridRow> },
    /// `solve first | all | count`
    Solve(Spanned<SolveMode>),
    /// `minimize <expr>` / `maximize <expr>`
    Optimize { sense: Spanned<Sense>, objective: Spanned<Expr> },
    /// `option name = v1, v2, ...` (the name may contain `-`, e.g. `leading-zeros`).
    Option { name: Ident, values: Vec<Spanned<OptionValue>> },
    /// `cryptarithm SEND + MORE = MONEY`. Both sides are ordinary expressions; `12.WORD`
    /// is parsed as `12 * WORD`.
    Cryptarithm { lhs: Spanned<Expr>, rhs: Spanned<Expr> },
    /// `queens n = 8`, `nothreeinline n = 10`, `minesweeper mines = 10`,
    /// `numbermatch cols = 9 adds = 5`: a puzzle keyword, `name = value` parameters,
    /// and (for grid puzzles) the rows that follow.
    Puzzle { kind: Spanned<PuzzleKind>, params: Vec<Param>, rows: Vec<GridRow> },
    /// `compte 100 2 1 10 4 3 -> 819`
    Compte { tiles: Vec<Spanned<i64>>, target: Spanned<i64> },
    /// `predicate ok(a, b) = a < b`, `function area(w, h) = w * h`: untyped parameters,
    /// one body; a call is compiled as the body with the parameters bound to the arguments.
    Function { kind: FunctionKind, name: Ident, params: Vec<Ident>, body: Spanned<Expr> },
    /// `enum Colour = {red, green, blue}`: the names stand for 1, 2, 3. MiniZinc's
    /// constructors too: `enum Job = J(1..5)`, `enum Task = _(1..n)`, `{a} ++ C(1..3)`.
    Enum { name: Ident, parts: Vec<EnumPart> },
    /// `include "lib.puz"`: the path as written (relative to the including file).
    Include(Spanned<String>),
    /// `search int_search(x, first_fail, indomain_min)`: MiniZinc's search annotations.
    Search(Spanned<Expr>),
    /// The annotations of MiniZinc's `solve :: int_search(…) :: … satisfy`, in order; the
    /// goal after them is the next statement (`Solve` or `Optimize`).
    SolveAnnotations(Vec<Spanned<Expr>>),
    /// `var z = x + y`: a variable defined by an expression, its domain the expression's
    /// bounds (MiniZinc's `var int: z = x + y`).
    /// With `domain` (`var 1..9: z = x + y`), the value must lie in it; `int` is no bound.
    /// `dims` are the index sets of `array[0..2] of var 1..9: r = […]` (empty for a scalar).
    Defined { name: Ident, dims: Vec<Spanned<Expr>>, domain: Option<Box<Spanned<Expr>>>, value: Spanned<Expr> },
}

/// One part of an enum's definition, joined by `++`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnumPart {
    /// `{a, b, c}`: one value per name.
    Names(Vec<Ident>),
    /// `C(1..n)`: one value `C(v)` per member `v` of the set; `_(1..n)` (the name `_`)
    /// makes anonymous values.
    Constructor { name: Ident, set: Spanned<Expr> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    Predicate,
    Function,
    /// MiniZinc's `test`: a predicate over constants only.
    Test,
}

/// One definition of a `let` expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LetDefinition {
    /// `NAME = EXPR`: a local name for a value (a constant, an expression over variables,
    /// a list, a set).
    Const { name: Ident, value: Spanned<Expr> },
    /// `var NAME in DOMAIN`: a fresh variable (one per evaluation of the `let`).
    Var { decl: VarDecl, domain: Spanned<Expr> },
    /// `constraint EXPR`: a constraint posted with the `let` (MiniZinc's form).
    Constraint(Spanned<Expr>),
}

/// One declared name of a `var` statement, with its index ranges (empty for a scalar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarDecl {
    pub name: Ident,
    /// One range expression per dimension: `q[1..n]` has one, `x[1..9, 1..9]` two.
    pub dims: Vec<Spanned<Expr>>,
}

/// `i in 1..n` (or `i, j in 1..n`, which is two generators over the same range).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generator {
    pub names: Vec<Ident>,
    pub source: Spanned<Expr>,
    /// An optional `where` filter that applies after this generator's names are bound.
    pub filter: Option<Spanned<Expr>>,
}

/// `name = value` parameter of a puzzle statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: Ident,
    pub value: Spanned<Expr>,
}

/// One raw row of a grid (a `given` block or a puzzle grid), without its line break and
/// without leading or trailing blanks. Each model reads the cells its own way: Minesweeper
/// and Number Match one character per cell (blanks optional), `given` blank-separated words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridRow {
    pub text: String,
    pub span: Span,
}

impl GridRow {
    /// The non-blank characters of the row, each with its span.
    pub fn chars(&self) -> impl Iterator<Item = (char, Span)> + '_ {
        let base = self.span.start;
        self.text
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .map(move |(i, c)| (c, base + i..base + i + c.len_utf8()))
    }

    /// The blank-separated words of the row, each with its span.
    pub fn words(&self) -> impl Iterator<Item = (&str, Span)> + '_ {
        let base = self.span.start;
        let text = self.text.as_str();
        text.split_whitespace().map(move |w| {
            // `split_whitespace` yields sub-slices of `text`, so the pointer difference is the offset.
            let start = w.as_ptr() as usize - text.as_ptr() as usize;
            (w, base + start..base + start + w.len())
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveMode {
    First,
    All,
    Count,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    Minimize,
    Maximize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleKind {
    Queens,
    NoThreeInLine,
    Minesweeper,
    NumberMatch,
}

/// A value of an `option` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    /// A bare word such as `distinct`, `rotational`, `classic`.
    Word(String),
}

/// An expression. Integer-valued and boolean-valued expressions share one type; the
/// model compiler checks which is which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Int(i64),
    Bool(bool),
    /// A name: a parameter, a variable, an array, or a generator variable.
    Name(String),
    /// `q[i]`, `x[i, j]`
    Index {
        array: Ident,
        indices: Vec<Spanned<Expr>>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Spanned<Expr>>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Spanned<Expr>>,
        rhs: Box<Spanned<Expr>>,
    },
    /// `sum(...)`, `alldifferent(...)`, `abs(x)`, `count(list, v)`, ...
    Call {
        function: Ident,
        args: Vec<Spanned<Expr>>,
    },
    /// `[a, b, c]`
    List(Vec<Spanned<Expr>>),
    /// `[expr | i in 1..n, j in 1..n where i < j]`
    Comprehension {
        element: Box<Spanned<Expr>>,
        generators: Vec<Generator>,
    },
    /// `lo..hi`
    Range {
        lo: Box<Spanned<Expr>>,
        hi: Box<Spanned<Expr>>,
    },
    /// `{1, 3, 5}`
    Set(Vec<Spanned<Expr>>),
    /// `if c1 then a elseif c2 then b else e endif` (`otherwise` may be left out where
    /// the branches are conditions: it is then `true`).
    If {
        branches: Vec<(Spanned<Expr>, Spanned<Expr>)>,
        otherwise: Option<Box<Spanned<Expr>>>,
    },
    /// `let y = x + 1 in y > 2`, `let { a = 3; var z in 1..5 } in …`
    Let {
        definitions: Vec<LetDefinition>,
        body: Box<Spanned<Expr>>,
    },
    /// `set of 1..n`: the domain of a set variable (only in a `var` declaration).
    SetOf(Box<Spanned<Expr>>),
    /// A string: only a call's argument, as the message of `assert(cond, "msg")`.
    Str(String),
    /// A constraint statement with MiniZinc's annotations, `alldifferent(x) :: domain`:
    /// only at the root of a constraint statement. The annotations are atoms as written.
    Annotated {
        expr: Box<Spanned<Expr>>,
        annotations: Vec<Spanned<Expr>>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    /// `++` list concatenation
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    /// `->`
    Implies,
    /// `<->`
    Iff,
    Xor,
    /// Membership: `x in 1..5`, `3 in s`.
    In,
    Subset,
    Superset,
    Union,
    Intersect,
    Diff,
    Symdiff,
}

impl BinaryOp {
    pub fn is_relation(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }

    /// An operator whose result is a truth value.
    pub fn is_condition(self) -> bool {
        self.is_relation()
            || matches!(
                self,
                BinaryOp::And
                    | BinaryOp::Or
                    | BinaryOp::Xor
                    | BinaryOp::Implies
                    | BinaryOp::Iff
                    | BinaryOp::In
                    | BinaryOp::Subset
                    | BinaryOp::Superset
            )
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "mod",
            BinaryOp::Concat => "++",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Implies => "->",
            BinaryOp::Iff => "<->",
            BinaryOp::Xor => "xor",
            BinaryOp::In => "in",
            BinaryOp::Subset => "subset",
            BinaryOp::Superset => "superset",
            BinaryOp::Union => "union",
            BinaryOp::Intersect => "intersect",
            BinaryOp::Diff => "diff",
            BinaryOp::Symdiff => "symdiff",
        }
    }
}
