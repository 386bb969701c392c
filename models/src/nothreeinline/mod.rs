//! `nothreeinline n = N`: 2N points on an N×N grid, no three on one line of any slope
//! (Dudeney's puzzle; OEIS A000755 counts the solutions, A000769 the classes).
//!
//! One 0/1 variable per cell. Every row and every column holds exactly two points (2N
//! points on N rows of at most two each leave no other way), and every slanted line
//! through three or more grid points holds at most two. All those lines (about n⁴/24) go
//! into one `line_counts` propagator, which keeps a count per line and touches only the
//! lines of the cells just fixed.
//!
//! `option symmetry =`
//! - `distinct`: one solution per class under the 8 symmetries of the square (A000769),
//!   the one with the smallest sorted point list, by a filter on the solutions. (Cuts that
//!   the representative satisfies, "a point on the border forces one early in row 0",
//!   saved 24% of the nodes at n = 10 but cost 10% more time: not kept.)
//! - `rotational`: only the solutions that the 180° rotation maps onto themselves, so
//!   counts are counts of those symmetric solutions. Each cell and its image share one
//!   variable: half the decisions, and a solution found is a solution of the puzzle. This
//!   is what reaches large N (no solution at all for N = 5).
//! - `rotational4`: invariant under the 90° rotation (a quarter of the variables; even N
//!   only, as the points come in fours), the fastest way to one solution for even N.
//! - `diagonal`: invariant under both diagonal reflections (a quarter of the variables),
//!   which covers some odd N (13, 15, 23, 25, 29) that `rotational` finds too slowly.
//! - `none`: all placements only.
//!
//! Without the option, counting and listing cover all placements, and `solve first`
//! searches the symmetric classes and all placements in turns (see [`portfolio`]).

mod lines;
mod picture;
mod portfolio;
mod symmetry;
mod view;

use std::collections::{BTreeMap, HashSet};

use cpsolve_dsl::ast::{File, Item, PuzzleKind, SolveMode};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::constraints::line_counts;
use cpsolve_engine::propagators::CountedLine;
use cpsolve_engine::{Branching, SearchConfig, Solver, StopToken, ValOrder, VarId, VarOrder};

use crate::options::{word_option, UnknownOption};
use crate::params::Params;
use crate::problem::{Kind, Problem};
use lines::Point;
use view::NoThreeView;

/// Grids up to this size: the model has about N⁴/24 line constraints (707 000 at 64).
const MAX_N: i64 = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Symmetry {
    None,
    /// One solution per class under rotations and reflections.
    Distinct,
    /// Only solutions invariant under the 180° rotation.
    Rotational,
    /// Only solutions invariant under the 90° rotation.
    Rotational4,
    /// Only solutions invariant under both diagonal reflections.
    Diagonal,
    /// Odd N only, no option word (the portfolio's): Flammenkamp's class "rct4", the
    /// solutions invariant under the 90° rotation except on the two long diagonals, whose
    /// points are only invariant under the 180° rotation. For odd N, 2N points are not a
    /// multiple of four, so no solution has the full 90° symmetry; this class comes
    /// nearest, and searching it is about as fast as the 90° class at N + 1.
    NearRotational4,
}

impl Symmetry {
    /// The symmetries (numbered as in [`symmetry::image`]) that the model's solutions are
    /// invariant under.
    fn group(self) -> &'static [usize] {
        match self {
            Symmetry::Rotational => &[0, 2],
            Symmetry::Rotational4 => &[0, 1, 2, 3],
            Symmetry::Diagonal => &[0, 2, 6, 7],
            Symmetry::NearRotational4 => &[0, 2],
            Symmetry::None | Symmetry::Distinct => &[0],
        }
    }

    /// The symmetries that map `p` onto the other cells of its orbit: the group, except
    /// that the near-90° class has the 180° rotation alone on the long diagonals.
    fn group_at(self, n: usize, (r, c): Point) -> &'static [usize] {
        match self {
            Symmetry::NearRotational4 if r != c && r + c != n - 1 => Symmetry::Rotational4.group(),
            _ => self.group(),
        }
    }
}

#[derive(Debug)]
struct NoThreeInLine {
    n: usize,
    symmetry: Symmetry,
    mode: SolveMode,
    /// The file has a `symmetry` option: no portfolio of symmetric models then.
    chosen: bool,
    /// For one solution, decide the cells of a row from the middle outwards instead of
    /// left to right (a second search order for the portfolio).
    columns_middle_out: bool,
    /// In the near-90° class, let the pair on the long diagonals lie on either of them
    /// (only to check that the main one alone loses nothing; see [`build_with_cells`]).
    pair_on_either_diagonal: bool,
    /// The run's request to stop, for every solver built for the puzzle.
    stop: StopToken,
}

/// Compiles a file whose model is a `nothreeinline` statement.
pub(crate) fn compile(file: &File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let mut puzzle = read(file).map_err(|e| vec![e])?;
    puzzle.stop = stop.clone();
    // Only a limit stops the building; the caller reports the limit, not this.
    build(&puzzle).ok_or_else(crate::compile::stopped_while_compiling)
}

fn read(file: &File) -> Result<NoThreeInLine, Diagnostic> {
    let mut puzzle = NoThreeInLine {
        n: 0,
        symmetry: Symmetry::None,
        mode: SolveMode::First,
        chosen: false,
        columns_middle_out: false,
        pair_on_either_diagonal: false,
        stop: StopToken::new(),
    };
    for item in &file.items {
        match &item.node {
            Item::Puzzle { kind, params, rows } if kind.node == PuzzleKind::NoThreeInLine && puzzle.n == 0 => {
                if let Some(row) = rows.first() {
                    return Err(
                        Diagnostic::new("`nothreeinline` takes no grid", row.span.clone()).with_label("unexpected row")
                    );
                }
                puzzle.n = Params::new(params, item.span.clone(), &["n"])?.int("n", 1, MAX_N, None)? as usize;
            }
            Item::Solve(mode) => puzzle.mode = mode.node,
            Item::Option { name, values } => match name.node.as_str() {
                "symmetry" => {
                    puzzle.chosen = true;
                    puzzle.symmetry =
                        match word_option(name, values, &["none", "distinct", "rotational", "rotational4", "diagonal"])?
                        {
                            "diagonal" => Symmetry::Diagonal,
                            "distinct" => Symmetry::Distinct,
                            "rotational" => Symmetry::Rotational,
                            "rotational4" => Symmetry::Rotational4,
                            _ => Symmetry::None,
                        }
                }
                _ => return Err(UnknownOption { name, known: &["symmetry"] }.into()),
            },
            _ => {
                return Err(Diagnostic::new(
                    "a nothreeinline file holds one `nothreeinline` statement",
                    item.span.clone(),
                )
                .with_label("not allowed here")
                .with_note("besides the statement, only `solve` and `option` lines may appear"))
            }
        }
    }
    Ok(puzzle)
}

/// `Σ coef·var` over `cells`, one term per variable (cells of one orbit share a variable,
/// so a line through both cells of a pair counts that variable twice), sorted so that
/// the same constraint always has the same terms.
fn terms(cells: impl IntoIterator<Item = Point>, var_of: &impl Fn(Point) -> VarId) -> Vec<(i64, VarId)> {
    let mut coefs: BTreeMap<VarId, i64> = BTreeMap::new();
    for p in cells {
        *coefs.entry(var_of(p)).or_insert(0) += 1;
    }
    coefs.into_iter().map(|(x, a)| (a, x)).collect()
}

/// The model, or `None` when a limit was raised while building it (large n posts about
/// n⁴/24 lines: seconds of work).
fn build(puzzle: &NoThreeInLine) -> Option<Problem> {
    build_with_cells(puzzle).map(|(problem, _)| problem)
}

/// The model and its variable of each cell, row by row.
fn build_with_cells(puzzle: &NoThreeInLine) -> Option<(Problem, Vec<VarId>)> {
    let n = puzzle.n;
    let mut solver = Solver::with_stop_token(puzzle.stop.clone());
    let mut orbit_var: BTreeMap<Point, VarId> = BTreeMap::new();
    let mut cells = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let rep = symmetry::orbit_representative(n, (r, c), puzzle.symmetry.group_at(n, (r, c)));
            let x = match orbit_var.get(&rep) {
                Some(&x) => x,
                // Only a limit can refuse 0..1 (a stop was requested).
                None => *orbit_var.entry(rep).or_insert(solver.new_var(0, 1).ok()?),
            };
            cells.push(x);
        }
    }
    let var_of = |(r, c): Point| cells[r * n + c];
    let mut unsat_reason = None;
    if puzzle.symmetry.group().len() > 1 && n % 2 == 1 {
        // The centre is its own image: with a point there, every other point and its
        // image would be collinear with it.
        solver.assign(var_of((n / 2, n / 2)), 0);
        if puzzle.symmetry == Symmetry::Rotational4 {
            unsat_reason =
                Some(format!("under the 90° rotation points come in fours, and 2n = {} is not a multiple of 4", 2 * n));
            solver.fail();
        }
    }
    // Rotated rows, columns and lines give the same constraint over the orbit variables:
    // post each once.
    let mut posted: HashSet<Vec<(i64, VarId)>> = HashSet::new();
    let mut counted: Vec<CountedLine> = Vec::new();
    let mut add = |line: Vec<(i64, VarId)>, exact: bool| {
        if posted.insert(line.clone()) {
            let vars = line.iter().flat_map(|&(a, x)| std::iter::repeat_n(x, a as usize)).collect();
            counted.push(CountedLine { vars, cap: 2, exact });
        }
    };
    for i in 0..n {
        add(terms((0..n).map(|c| (i, c)), &var_of), true);
        add(terms((0..n).map(|r| (r, i)), &var_of), true);
    }
    for line in lines::slanted_lines(n) {
        if puzzle.stop.requested().is_some() {
            return None;
        }
        add(terms(line, &var_of), false);
    }
    if n % 2 == 1 && puzzle.symmetry == Symmetry::NearRotational4 {
        // Off the long diagonals the points come in fours, and 2n is 2 more than a
        // multiple of 4; on the diagonals they come in pairs, at most one per diagonal:
        // exactly one pair lies on the diagonals. Without this line the search finds
        // that out only deep down, once per subtree.
        let mut pairs: Vec<VarId> = (0..n)
            .flat_map(|r| [var_of((r, r)), var_of((r, n - 1 - r))])
            .filter(|&x| x != var_of((n / 2, n / 2)))
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        counted.push(CountedLine { vars: pairs, cap: 1, exact: true });
        // The mirror image in the middle column maps the class onto itself (it turns the
        // 90° rotation into the 270° one) and swaps the two diagonals: every solution
        // whose pair lies on the anti-diagonal is the mirror image of one whose pair lies
        // on the main diagonal, so the search looks only for those (half the tree; n = 27
        // took 30% fewer nodes in the portfolio).
        if !puzzle.pair_on_either_diagonal {
            for r in 0..n / 2 {
                solver.assign(var_of((r, n - 1 - r)), 0);
            }
        }
    }
    line_counts(&mut solver, &counted);
    let search = SearchConfig {
        branching: branching(n, puzzle.mode, puzzle.columns_middle_out, &cells),
        ..SearchConfig::default()
    };
    let view = NoThreeView { n, cells: cells.clone(), distinct: puzzle.symmetry == Symmetry::Distinct };
    let problem = Problem {
        kind: Kind::NoThreeInLine,
        solver,
        search,
        mode: puzzle.mode,
        unsat_reason,
        view: Box::new(view),
        vocabulary: Default::default(),
        first_portfolio: (!puzzle.chosen)
            .then(|| Box::new(portfolio::SymmetricFirst { n, stop: puzzle.stop.clone() }) as _),
    };
    Some((problem, cells))
}

/// The order of the decisions, measured (bench/nothreeinline.sh): rows from the middle
/// outwards (3.6 times fewer nodes than top to bottom when counting n = 9), and in each
/// row the cells left to right for one solution, each decision first leaving the cell
/// empty (the best of the orders tried on the symmetric models), from the middle outwards
/// for counting (16% fewer nodes at n = 9; and for one solution in the portfolio's second
/// near-90° member, see [`portfolio`]). Cells sharing an orbit variable are decided
/// once. A static order keeps the search free of history, so that
/// counting can run on several threads.
fn branching(n: usize, mode: SolveMode, columns_middle_out: bool, cells: &[VarId]) -> Vec<Branching> {
    let rows = middle_out(n);
    let columns = match mode {
        SolveMode::First if columns_middle_out => middle_out(n),
        SolveMode::First => (0..n).collect(),
        SolveMode::All | SolveMode::Count => middle_out(n),
    };
    let mut seen = HashSet::new();
    let vars =
        rows.iter().flat_map(|&r| columns.iter().map(move |&c| cells[r * n + c])).filter(|&x| seen.insert(x)).collect();
    vec![Branching { vars, var_order: VarOrder::Input, val_order: ValOrder::Min }]
}

/// A seeded order for a restarting member (see [`portfolio`]): rows from the middle
/// outwards as in [`branching`], the cells of each row in a shuffled order, each first left
/// empty. The same seed gives the same order on every machine.
fn seeded_branching(n: usize, cells: &[VarId], seed: u64) -> Vec<Branching> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut seen = HashSet::new();
    let mut vars = Vec::with_capacity(cells.len());
    for r in middle_out(n) {
        let mut columns: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut columns);
        vars.extend(columns.into_iter().map(|c| cells[r * n + c]).filter(|&x| seen.insert(x)));
    }
    vec![Branching { vars, var_order: VarOrder::Input, val_order: ValOrder::Min }]
}

/// 0..n from the middle outwards: m, m−1, m+1, m−2, …
fn middle_out(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (2 * i).abs_diff(n - 1));
    order
}
