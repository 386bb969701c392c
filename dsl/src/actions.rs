//! Helpers for the grammar's actions, and the last step from parsed lines to a `File`.
//!
//! lalrpop files may only hold `use` lines besides the rules, so the few actions that are
//! more than a constructor live here. The grammar parses a file as a list of [`Line`]s;
//! [`assemble`] then gives each `minesweeper`/`numbermatch` statement the grid rows that
//! follow it. That cannot be a grammar rule: the rows may come after `option` lines
//! (`numbermatch cols = 9`, `option rules = classic`, then the grid), and those lines are
//! statements of their own.

use std::cell::RefCell;

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{
    BinaryOp, Expr, File, Generator, GridRow, Ident, Item, LetDefinition, PuzzleKind, SolveMode, Spanned, UnaryOp,
    VarDecl,
};
use crate::diagnostic::{Diagnostic, MAX_RENDERED};
use crate::tokens::Token;

/// A parse error the parser recovered from.
pub(crate) type Recovered<'src> = ErrorRecovery<usize, Token<'src>, Diagnostic>;

/// The parse errors recovered from so far (the grammar's `errors` parameter). It is shared
/// with the token stream, which ends once there are more than [`MAX_RENDERED`]: a file of
/// junk would otherwise give one error per line, and gigabytes of them.
#[derive(Debug, Default)]
pub(crate) struct Recoveries<'src> {
    list: RefCell<Vec<Recovered<'src>>>,
}

impl<'src> Recoveries<'src> {
    pub(crate) fn push(&self, mut recovered: Recovered<'src>) {
        // The tokens skipped to recover are not used again: they need not be kept.
        recovered.dropped_tokens = Vec::new();
        self.list.borrow_mut().push(recovered);
    }

    pub(crate) fn len(&self) -> usize {
        self.list.borrow().len()
    }

    /// Whether the parser has met enough errors to stop reading: more than are shown.
    pub(crate) fn enough(&self) -> bool {
        self.len() > MAX_RENDERED
    }

    pub(crate) fn into_inner(self) -> Vec<Recovered<'src>> {
        self.list.into_inner()
    }
}

/// One line of the file as the grammar sees it.
#[derive(Debug)]
pub(crate) enum Line {
    Item(Spanned<Item>),
    /// Statements written as one: `solve :: ANNOTATION satisfy` is the annotations and the goal.
    Items(Vec<Spanned<Item>>),
    /// Grid rows that stand on their own, after a puzzle statement.
    Rows(Vec<GridRow>),
    /// A line with a syntax error (already recorded).
    Error,
}

pub(crate) fn binary(op: BinaryOp, lhs: Spanned<Expr>, rhs: Spanned<Expr>) -> Spanned<Expr> {
    let span = lhs.span.start..rhs.span.end;
    Spanned::new(Expr::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

/// A prefix operator starting at `start`.
pub(crate) fn unary(op: UnaryOp, start: usize, operand: Spanned<Expr>) -> Spanned<Expr> {
    let span = start..operand.span.end;
    Spanned::new(Expr::Unary { op, operand: Box::new(operand) }, span)
}

pub(crate) fn range(lo: Spanned<Expr>, hi: Spanned<Expr>) -> Spanned<Expr> {
    let span = lo.span.start..hi.span.end;
    Spanned::new(Expr::Range { lo: Box::new(lo), hi: Box::new(hi) }, span)
}

type ActionResult<'src, T> = Result<T, ParseError<usize, Token<'src>, Diagnostic>>;

/// MiniZinc's `var DOMAIN: NAME` (a `var` statement) or `var DOMAIN: NAME = EXPR` (a
/// defined variable; `int` bounds nothing).
pub(crate) fn typed_var(decl: VarDecl, domain: Spanned<Expr>, value: Option<Spanned<Expr>>) -> Item {
    match value {
        None => Item::Var { decls: vec![decl], domain },
        Some(value) => {
            let unbounded = matches!(&domain.node, Expr::Name(name) if name == "int");
            Item::Defined { name: decl.name, dims: decl.dims, domain: (!unbounded).then(|| Box::new(domain)), value }
        }
    }
}

/// A constraint with its annotations; without any, the constraint itself.
pub(crate) fn annotated(expr: Spanned<Expr>, annotations: Vec<Spanned<Expr>>) -> Spanned<Expr> {
    let Some(last) = annotations.last() else { return expr };
    let span = expr.span.start..last.span.end;
    Spanned::new(Expr::Annotated { expr: Box::new(expr), annotations }, span)
}

/// MiniZinc's `array[DIMS] of var DOMAIN: NAME`, with or without `= EXPR`.
pub(crate) fn typed_array<'src>(
    array: Ident,
    dims: Vec<Spanned<Expr>>,
    domain: Spanned<Expr>,
    name: Ident,
    value: Option<Spanned<Expr>>,
) -> ActionResult<'src, Item> {
    expect_type(&array, &["array"])?;
    Ok(typed_var(VarDecl { name, dims }, domain, value))
}

/// MiniZinc's `array[DIMS] of TYPE: NAME = EXPR`: a constant array, a `let` whose value
/// takes the index sets `DIMS`.
pub(crate) fn typed_array_let<'src>(
    array: Ident,
    dims: Vec<Spanned<Expr>>,
    name: Ident,
    value: Spanned<Expr>,
) -> ActionResult<'src, Item> {
    expect_type(&array, &["array"])?;
    Ok(Item::Let { name, dims, value })
}

/// MiniZinc's `int: n = 3`, `bool: b = …`, `array[1..3] of int: w = …`: a `let`.
pub(crate) fn typed_let<'src>(ty: Spanned<Expr>, name: Ident, value: Spanned<Expr>) -> ActionResult<'src, Item> {
    let word = match ty.node {
        Expr::Name(word) => Spanned::new(word, ty.span),
        _ => Spanned::new(String::new(), ty.span),
    };
    expect_type(&word, &["int", "bool"])?;
    Ok(Item::Let { name, dims: Vec::new(), value })
}

/// MiniZinc's `0..4: k = 2`: `let k = assert(VALUE in 0..4, "…", VALUE)`, so that a value
/// outside its declared range is an error at the value, as MiniZinc's is.
pub(crate) fn ranged_let(range: Spanned<Expr>, name: Ident, value: Spanned<Expr>) -> Item {
    let span = value.span.clone();
    let message = format!("`{}` lies outside its declared range", name.node);
    let condition = binary(BinaryOp::In, value.clone(), range);
    let function = Spanned::new("assert".to_owned(), span.clone());
    let args = vec![condition, Spanned::new(Expr::Str(message), span.clone()), value];
    Item::Let { name, dims: Vec::new(), value: Spanned::new(Expr::Call { function, args }, span) }
}

/// MiniZinc's `int: n;` or `bool: b;`: a constant whose value a data line gives.
pub(crate) fn typed_param<'src>(ty: Spanned<Expr>, name: Ident) -> ActionResult<'src, Item> {
    let word = match ty.node {
        Expr::Name(word) => Spanned::new(word, ty.span),
        _ => Spanned::new(String::new(), ty.span),
    };
    expect_type(&word, &["int", "bool"])?;
    Ok(Item::Param { name, dims: Vec::new() })
}

/// MiniZinc's `array[1..n] of int: d;`: a constant array whose value a data line gives.
pub(crate) fn typed_array_param<'src>(array: Ident, dims: Vec<Spanned<Expr>>, name: Ident) -> ActionResult<'src, Item> {
    expect_type(&array, &["array"])?;
    Ok(Item::Param { name, dims })
}

/// `int: k = 3` inside `let { … }`: a local name for the value.
pub(crate) fn typed_let_const<'src>(
    ty: Ident,
    name: Ident,
    value: Spanned<Expr>,
) -> ActionResult<'src, Vec<LetDefinition>> {
    match typed_let(Spanned::new(Expr::Name(ty.node), ty.span), name, value)? {
        Item::Let { name, value, .. } => Ok(vec![LetDefinition::Const { name, value }]),
        _ => unreachable!("typed_let gives a `let`"),
    }
}

/// `var 1..n: z` (a fresh variable) or `var int: s = x + y` (a name for the value) inside
/// `let { … }`. A value declared in a narrower domain than `int` must lie in it, as in
/// MiniZinc: that is a constraint of the `let`.
pub(crate) fn typed_let_var(decl: VarDecl, domain: Spanned<Expr>, value: Option<Spanned<Expr>>) -> Vec<LetDefinition> {
    let Some(value) = value else { return vec![LetDefinition::Var { decl, domain }] };
    let name = decl.name;
    let mut definitions = Vec::new();
    if !is_int(&domain) {
        let span = name.span.clone();
        let element = Spanned::new(Expr::Name(name.node.clone()), span.clone());
        definitions.push(LetDefinition::Constraint(binary(BinaryOp::In, element, domain)));
    }
    definitions.insert(0, LetDefinition::Const { name, value });
    definitions
}

/// `array[1..n] of var 1..n: z` (fresh variables) or `array[0..n-1] of var int: up = [...]`
/// (a name for the list, with the declared index sets) inside `let { … }`. The elements of
/// a value declared in a domain other than `int` must lie in it (one dimension only).
pub(crate) fn typed_let_array<'src>(
    array: Ident,
    decl: VarDecl,
    domain: Spanned<Expr>,
    value: Option<Spanned<Expr>>,
) -> ActionResult<'src, Vec<LetDefinition>> {
    expect_type(&array, &["array"])?;
    let Some(value) = value else { return Ok(vec![LetDefinition::Var { decl, domain }]) };
    let VarDecl { name, dims } = decl;
    let span = value.span.clone();
    let function = Spanned::new(format!("array{}d", dims.len()), span.clone());
    let dimensions = dims.len();
    let mut args = dims;
    args.push(value);
    let value = Spanned::new(Expr::Call { function, args }, span);
    let mut definitions = Vec::new();
    if !is_int(&domain) {
        if dimensions != 1 {
            return Err(ParseError::User {
                error: Diagnostic::new("a domain on an array of more than one dimension with a value", domain.span)
                    .with_label("not supported here")
                    .with_note("declare it `of var int` and constrain its elements"),
            });
        }
        // forall(i in index_set(NAME))(NAME[i] in DOMAIN)
        let at = name.span.clone();
        let index = Spanned::new("i".to_owned(), at.clone());
        let whole = Spanned::new(Expr::Name(name.node.clone()), at.clone());
        let source = Spanned::new(
            Expr::Call { function: Spanned::new("index_set".to_owned(), at.clone()), args: vec![whole] },
            at.clone(),
        );
        let element = Spanned::new(
            Expr::Index { array: name.clone(), indices: vec![Spanned::new(Expr::Name("i".into()), at.clone())] },
            at.clone(),
        );
        let inside = binary(BinaryOp::In, element, domain);
        let all = Expr::Comprehension {
            element: Box::new(inside),
            generators: vec![Generator { names: vec![index], source, filter: None }],
        };
        let call = Expr::Call {
            function: Spanned::new("forall".to_owned(), at.clone()),
            args: vec![Spanned::new(all, at.clone())],
        };
        definitions.push(LetDefinition::Constraint(Spanned::new(call, at)));
    }
    definitions.insert(0, LetDefinition::Const { name, value });
    Ok(definitions)
}

fn is_int(domain: &Spanned<Expr>) -> bool {
    matches!(&domain.node, Expr::Name(name) if name == "int")
}

fn expect_type<'src>(word: &Ident, types: &[&str]) -> ActionResult<'src, ()> {
    if types.contains(&word.node.as_str()) {
        return Ok(());
    }
    let names: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
    Err(ParseError::User {
        error: Diagnostic::new(format!("unknown type `{}`", word.node), word.span.clone())
            .with_label("not a type")
            .with_note(format!("a declaration's type here is {}", names.join(" or "))),
    })
}

/// A call: `f(a, b)`, or with a second pair of parentheses, MiniZinc's generator call
/// `f(i in 1..n where c)(body)`, which is `f([body | i in 1..n where c])`. Each argument of
/// the generator form is `NAME in SOURCE` (optionally `where …`), or a bare `NAME` that
/// shares the source of the next one (`i, j in 1..n`).
pub(crate) fn call<'src>(
    function: Ident,
    args: Vec<(Spanned<Expr>, Option<Spanned<Expr>>)>,
    body: Option<Spanned<Expr>>,
) -> Result<Expr, ParseError<usize, Token<'src>, Diagnostic>> {
    let user = |error: Diagnostic| ParseError::User { error };
    let Some(body) = body else {
        if let Some((_, Some(filter))) = args.iter().find(|(_, filter)| filter.is_some()) {
            return Err(user(
                Diagnostic::new("`where` belongs to a generator", filter.span.clone())
                    .with_note(format!("the generator form is `{}(i in 1..n where …)(…)`", function.node)),
            ));
        }
        return Ok(Expr::Call { function, args: args.into_iter().map(|(arg, _)| arg).collect() });
    };
    let mut generators = Vec::new();
    let mut names: Vec<Ident> = Vec::new();
    let start = args.first().map_or(function.span.end, |(arg, _)| arg.span.start);
    for (arg, filter) in args {
        match arg.node {
            Expr::Name(name) if filter.is_none() => names.push(Spanned::new(name, arg.span)),
            Expr::Binary { op: BinaryOp::In, lhs, rhs } if matches!(lhs.node, Expr::Name(_)) => {
                let Expr::Name(name) = lhs.node else { unreachable!("matched above") };
                names.push(Spanned::new(name, lhs.span));
                generators.push(Generator { names: std::mem::take(&mut names), source: *rhs, filter });
            }
            _ => {
                return Err(user(
                    Diagnostic::new("expected a generator such as `i in 1..n`", arg.span)
                        .with_note(format!("the generator form is `{}(i in 1..n)(…)`", function.node)),
                ))
            }
        }
    }
    if let Some(name) = names.first() {
        return Err(user(
            Diagnostic::new(format!("`{}` has no `in`", name.node), name.span.clone())
                .with_label("ranges over nothing")
                .with_note("write `i in 1..n`"),
        ));
    }
    if generators.is_empty() {
        return Err(user(
            Diagnostic::new("no generator before the body", function.span.clone())
                .with_note(format!("the generator form is `{}(i in 1..n)(…)`", function.node)),
        ));
    }
    let span = start..body.span.end;
    let comprehension = Spanned::new(Expr::Comprehension { element: Box::new(body), generators }, span);
    Ok(Expr::Call { function, args: vec![comprehension] })
}

/// `first`, `all` and `count` are not keywords (`count(...)` is a function), so the mode
/// of `solve` is read as a name and checked here.
pub(crate) fn solve_mode(word: Ident, errors: &Recoveries<'_>) -> Spanned<SolveMode> {
    let mode = match word.node.as_str() {
        // MiniZinc's `solve satisfy`: one solution.
        "first" | "satisfy" => SolveMode::First,
        "all" => SolveMode::All,
        "count" => SolveMode::Count,
        other => {
            let error = Diagnostic::new(format!("unknown solve mode `{other}`"), word.span.clone())
                .with_label("expected `first`, `all` or `count`");
            errors.push(ErrorRecovery { error: ParseError::User { error }, dropped_tokens: Vec::new() });
            SolveMode::First
        }
    };
    Spanned::new(mode, word.span)
}

/// Builds the file, attaching stand-alone grid rows to the grid puzzle above them.
/// `had_errors` silences the complaint about rows whose puzzle line did not parse.
pub(crate) fn assemble(lines: Vec<Line>, had_errors: bool, errors: &mut Vec<Diagnostic>) -> File {
    let mut items: Vec<Spanned<Item>> = Vec::with_capacity(lines.len());
    let mut grid_puzzle = None;
    for line in lines {
        match line {
            Line::Item(item) => {
                if let Item::Puzzle { kind, .. } = &item.node {
                    if matches!(kind.node, PuzzleKind::Minesweeper | PuzzleKind::NumberMatch) {
                        grid_puzzle = Some(items.len());
                    }
                }
                items.push(item);
            }
            Line::Items(new_items) => items.extend(new_items),
            Line::Rows(new_rows) => {
                let target = grid_puzzle.and_then(|index| items.get_mut(index));
                match target {
                    Some(Spanned { node: Item::Puzzle { rows, .. }, span }) if rows.is_empty() => {
                        if let Some(last) = new_rows.last() {
                            span.end = span.end.max(last.span.end);
                        }
                        *rows = new_rows;
                    }
                    Some(_) => {
                        if let Some(first) = new_rows.first() {
                            errors.push(
                                Diagnostic::new("unexpected grid row", first.span.clone())
                                    .with_label("the grid of this puzzle ended above")
                                    .with_note("a grid ends at the first blank or comment-only line"),
                            );
                        }
                    }
                    None if had_errors => {}
                    None => {
                        if let Some(first) = new_rows.first() {
                            errors.push(
                                Diagnostic::new("unexpected grid row", first.span.clone())
                                    .with_label("no `minesweeper` or `numbermatch` statement above"),
                            );
                        }
                    }
                }
            }
            Line::Error => {}
        }
    }
    File { items }
}
