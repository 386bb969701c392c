//! N-queens with a branching written by the user instead of one of the engine's orders.
//!
//! The engine's search takes its decisions from [`cpsolve_engine::Branching`] groups (an
//! order on variables, an order on values) and has no hook for a rule of one's own. A
//! dynamic rule therefore drives the search from outside, with the same pieces the engine
//! uses to split a search between workers: a node of the tree is the model plus the
//! decisions on the path to it, each a [`Literal`]. At every node the program builds the
//! model, [`Solver::apply`]s the path, propagates, asks its own branching for a decision
//! `x = v`, and explores `x = v` then `x ≠ v`. The two sides cover the node exactly, so the
//! count is exact. Rebuilding the model per node is cheap for a model this small; for a
//! large one, drive only the top of the tree this way and hand each subtree to
//! [`Solver::search`].
//!
//! The branching here: the column with the fewest rows left, ties to the column nearest
//! the middle of the board; in it, the row nearest the middle first.
//!
//! Run it with `cargo run --release -p cpsolve-engine --example queens_custom_branching [n]`.

use cpsolve_engine::constraints::all_different_shifted;
use cpsolve_engine::{Literal, ModelError, Solver, Val, VarId};

/// The n-queens model: `q[c]` is the row of the queen of column `c`; rows, rising and
/// falling diagonals are all different.
fn build(n: usize) -> Result<(Solver, Vec<VarId>), ModelError> {
    let mut solver = Solver::new();
    let mut q = Vec::with_capacity(n);
    for _ in 0..n {
        q.push(solver.new_var(0, n as Val - 1)?);
    }
    all_different_shifted(&mut solver, &q);
    Ok((solver, q))
}

/// The user-written branching: the next decision `x = v` at this node, or `None` when
/// every queen is placed.
fn choose(solver: &Solver, q: &[VarId]) -> Option<(VarId, Val)> {
    let middle = (q.len() as Val - 1) / 2;
    let column = q
        .iter()
        .enumerate()
        .filter(|&(_, &x)| !solver.is_fixed(x))
        .min_by_key(|&(c, &x)| (solver.size(x), (c as Val - middle).abs()))
        .map(|(_, &x)| x)?;
    let row = solver.values(column).min_by_key(|&r| (r - middle).abs()).expect("an unfixed domain has values");
    Some((column, row))
}

/// What a search found: its solutions' count, the first solution, and the nodes visited.
#[derive(Debug, Default)]
struct Report {
    solutions: u64,
    first: Option<Vec<Val>>,
    nodes: u64,
}

/// Explores the subtree below `path` depth first, the left side (`x = v`) first.
fn explore(n: usize, path: &mut Vec<Literal>, report: &mut Report) -> Result<(), ModelError> {
    report.nodes += 1;
    let (mut solver, q) = build(n)?;
    if !solver.apply(path) || !solver.propagate() {
        return Ok(());
    }
    let Some((x, v)) = choose(&solver, &q) else {
        // Every queen placed and every constraint at its fixpoint: a solution.
        report.solutions += 1;
        if report.first.is_none() {
            report.first = Some(q.iter().map(|&x| solver.min(x)).collect());
        }
        return Ok(());
    };
    for side in [Literal::Eq(x, v), Literal::Ne(x, v)] {
        path.push(side);
        explore(n, path, report)?;
        path.pop();
    }
    Ok(())
}

fn solve(n: usize) -> Result<Report, ModelError> {
    let mut report = Report::default();
    explore(n, &mut Vec::new(), &mut report)?;
    Ok(report)
}

fn main() -> Result<(), ModelError> {
    let n = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| ModelError::InvalidArgument(format!("not a board size: {arg}")))?,
        None => 8,
    };
    let report = solve(n)?;
    if let Some(first) = &report.first {
        let rows: Vec<String> = first.iter().map(|r| (r + 1).to_string()).collect();
        println!("first solution (rows of columns 1..{n}): {}", rows.join(" "));
    }
    println!("{} solutions for n = {n}, {} nodes", report.solutions, report.nodes);
    if n == 8 {
        assert_eq!(report.solutions, 92, "the 8-queens puzzle has 92 solutions");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A placement is a solution when no two queens share a row or a diagonal.
    fn is_solution(rows: &[Val]) -> bool {
        (0..rows.len())
            .all(|i| (i + 1..rows.len()).all(|j| rows[i] != rows[j] && (rows[i] - rows[j]).abs() != (j - i) as Val))
    }

    #[test]
    fn the_custom_branching_counts_the_known_numbers_of_solutions() {
        // OEIS A000170.
        for (n, expected) in [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (8, 92)] {
            let report = solve(n).expect("a valid model");
            assert_eq!(report.solutions, expected, "n = {n}");
            assert_eq!(report.first.is_some(), expected > 0, "n = {n}");
            assert!(report.first.as_deref().is_none_or(is_solution), "n = {n}");
        }
    }

    #[test]
    fn the_custom_branching_starts_in_the_middle() {
        let (solver, q) = build(8).expect("a valid model");
        // All domains equal: the middle column (index 3 of 0..8), its middle row.
        assert_eq!(choose(&solver, &q), Some((q[3], 3)));
    }
}
