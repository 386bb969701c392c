//! `queens n = N`: N queens on an N×N board, none attacking another.
//!
//! One variable per column (its queen's row, 1-based), and three all-different constraints
//! with offsets: rows `q[c]`, diagonals `q[c] + c` and anti-diagonals `q[c] − c`. Options:
//! `fix = r1, r2, …` places the queens of the first columns (a partial start, as on the
//! TI-58 of the seed program); `symmetry = distinct` keeps one placement per class under
//! the 8 symmetries of the square (OEIS A002562).

mod picture;
mod symmetry;
mod view;

use cpsolve_dsl::ast::{File, Item, OptionValue, PuzzleKind, SolveMode, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::constraints::{all_different, all_different_shifted};
use cpsolve_engine::{Branching, Consistency, SearchConfig, Solver, StopToken, ValOrder, VarId, VarOrder};

use crate::explain::{NamedConstraint, Vocabulary};

use crate::options::{word_option, UnknownOption};
use crate::params::Params;
use crate::problem::{Kind, Problem};
use view::QueensView;

/// Boards up to this size; beyond, the n² bits of domains stop fitting in memory.
const MAX_N: i64 = 100_000;

#[derive(Debug)]
struct Queens {
    n: usize,
    /// Rows (1-based) of the queens of the first columns.
    fix: Vec<i64>,
    distinct: bool,
    mode: SolveMode,
}

/// Compiles a file whose model is a `queens` statement.
pub(crate) fn compile(file: &File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let queens = read(file).map_err(|e| vec![e])?;
    build(&queens, stop).ok_or_else(crate::compile::stopped_while_compiling)
}

fn read(file: &File) -> Result<Queens, Diagnostic> {
    let mut queens = Queens { n: 0, fix: Vec::new(), distinct: false, mode: SolveMode::First };
    let mut fix_values: Option<&[Spanned<OptionValue>]> = None;
    for item in &file.items {
        match &item.node {
            Item::Puzzle { kind, params, .. } if kind.node == PuzzleKind::Queens && queens.n == 0 => {
                queens.n = Params::new(params, item.span.clone(), &["n"])?.int("n", 1, MAX_N, None)? as usize;
            }
            Item::Solve(mode) => queens.mode = mode.node,
            Item::Option { name, values } => match name.node.as_str() {
                "fix" => fix_values = Some(values),
                "symmetry" => queens.distinct = word_option(name, values, &["distinct", "none"])? == "distinct",
                _ => return Err(UnknownOption { name, known: &["fix", "symmetry"] }.into()),
            },
            _ => {
                return Err(Diagnostic::new("a queens file holds one `queens` statement", item.span.clone())
                    .with_label("not allowed here")
                    .with_note("besides the statement, only `solve` and `option` lines may appear"))
            }
        }
    }
    for value in fix_values.unwrap_or_default() {
        match value.node {
            OptionValue::Int(r) if (1..=queens.n as i64).contains(&r) => queens.fix.push(r),
            _ => {
                return Err(Diagnostic::new(
                    format!("a fixed queen's row must be from 1 to {}", queens.n),
                    value.span.clone(),
                )
                .with_label("not a row of this board"))
            }
        }
    }
    if queens.fix.len() > queens.n {
        return Err(Diagnostic::new(
            format!("more fixed queens than the {} columns", queens.n),
            file.items[0].span.clone(),
        ));
    }
    Ok(queens)
}

/// Compiles a `queens` file for `cpsolve explain`: the rows and the two directions of
/// diagonals as three constraints a person can name, instead of the one global that
/// searches fastest.
pub(crate) fn compile_to_explain(file: &File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let queens = read(file).map_err(|e| vec![e])?;
    let mut problem = build(&queens, stop).ok_or_else(crate::compile::stopped_while_compiling)?;
    let n = queens.n;
    let mut solver = Solver::with_stop_token(stop.clone());
    let vars: Vec<VarId> = (0..n)
        .map(|_| solver.new_var(1, n as i64).ok())
        .collect::<Option<_>>()
        .ok_or_else(crate::compile::stopped_while_compiling)?;
    for (&x, &r) in vars.iter().zip(&queens.fix) {
        solver.assign(x, r);
    }
    let mut constraints = Vec::new();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|c| -c).collect();
    for (offsets, name, says) in [
        (vec![0; n], "the rows", "no two queens share a row"),
        (up, "the ↘ diagonals", "no two queens share a diagonal going down to the right"),
        (down, "the ↗ diagonals", "no two queens share a diagonal going up to the right"),
    ] {
        let first = solver.num_propagators();
        all_different(&mut solver, &vars, &offsets, Consistency::Domain);
        constraints.push(NamedConstraint {
            props: solver.propagators_since(first),
            name: name.to_string(),
            says: Some(says.to_string()),
            span: None,
            bindings: Vec::new(),
            all_different: None,
        });
    }
    let shown = vars.iter().enumerate().map(|(c, &x)| (x, format!("q[{}]", c + 1))).collect();
    problem.solver = solver;
    problem.vocabulary = Vocabulary { constraints, shown, ..Vocabulary::default() };
    Ok(problem)
}

/// The model, or `None` when a limit struck while it was built (only a limit can refuse
/// the range 1..n).
fn build(queens: &Queens, stop: &StopToken) -> Option<Problem> {
    let n = queens.n;
    let mut solver = Solver::with_stop_token(stop.clone());
    let vars: Vec<VarId> = (0..n).map(|_| solver.new_var(1, n as i64).ok()).collect::<Option<_>>()?;
    // One global constraint for the three all-different (rows, both diagonals): the same
    // pruning, and it can count completions with a bitboard.
    all_different_shifted(&mut solver, &vars);
    for (&x, &r) in vars.iter().zip(&queens.fix) {
        solver.assign(x, r);
    }
    // Columns in order, rows from the smallest, as a bitboard counter goes: solutions are
    // listed in lexicographic order. One solution is found by the queens constraint itself
    // (smallest domain first, rows from the middle outwards), which scales to thousands of
    // queens where a search through the engine would not.
    let (var_order, val_order) = (VarOrder::Input, ValOrder::Min);
    let search = SearchConfig {
        branching: vec![Branching { vars: vars.clone(), var_order, val_order }],
        ..SearchConfig::default()
    };
    let fixed = queens.fix.iter().map(|&r| r as usize - 1).collect();
    let view = QueensView { vars, distinct: queens.distinct, fixed };
    Some(Problem {
        kind: Kind::Queens,
        solver,
        search,
        mode: queens.mode,
        unsat_reason: None,
        view: Box::new(view),
        vocabulary: Default::default(),
        first_portfolio: None,
    })
}
