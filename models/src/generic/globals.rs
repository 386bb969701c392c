//! Recognising a global constraint written in pieces.
//!
//! The textbook queens model states three all-different constraints over the same
//! variables: `q[i]`, `q[i] + i` and `q[i] − i`. Together they are exactly the engine's
//! queens constraint, which prunes the same values in one pass and can count solutions
//! with a bitboard instead of a search. All-different constraints are therefore collected
//! while compiling and posted at the end, with every such triple replaced by one queens
//! constraint.

use std::collections::HashMap;

use cpsolve_engine::constraints;
use cpsolve_engine::{Consistency, Solver, VarId};

/// An all-different over `vars[i] + offsets[i]`, the statement that asked for it, and the
/// strength its annotation asks for (`alldifferent(x) :: domain`).
pub(crate) type AllDifferent = (Vec<VarId>, Vec<i64>, Origin, Option<Consistency>);

/// Where a constraint comes from: its statement, and the `forall` values it was posted
/// under (for `cpsolve explain`).
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    pub(crate) span: cpsolve_dsl::ast::Span,
    pub(crate) bindings: Vec<(String, i64)>,
}

/// The propagators one constraint posted, with its origin, and the variables it makes all
/// different when it is a plain all-different over them (a house, for `cpsolve explain`).
pub(crate) type Posted = (Vec<cpsolve_engine::PropId>, Origin, Option<Vec<VarId>>);

/// Offsets of the form `c + step·i` (`step` ∈ {−1, 0, 1}).
fn steps_by(offsets: &[i64], step: i64) -> bool {
    offsets.iter().enumerate().all(|(i, &o)| o - offsets[0] == step * i as i64)
}

/// Posts the collected all-different constraints, as queens constraints where three of them
/// form one.
/// Returns what each posted constraint posted.
pub(crate) fn post_all_different(
    solver: &mut Solver,
    pending: Vec<AllDifferent>,
    chosen: Option<Consistency>,
) -> Vec<Posted> {
    let mut posted = Vec::new();
    let mut used = vec![false; pending.len()];
    for a in 0..pending.len() {
        // An annotated all-different is posted as asked, not merged.
        if used[a] || pending[a].0.len() < 2 || !steps_by(&pending[a].1, 0) || pending[a].3.is_some() {
            continue;
        }
        let same_vars = |b: usize| !used[b] && b != a && pending[b].0 == pending[a].0 && pending[b].3.is_none();
        let up = (0..pending.len()).find(|&b| same_vars(b) && steps_by(&pending[b].1, 1));
        let down = (0..pending.len()).find(|&b| same_vars(b) && steps_by(&pending[b].1, -1));
        if let (Some(up), Some(down)) = (up, down) {
            used[a] = true;
            used[up] = true;
            used[down] = true;
            let first = solver.num_propagators();
            constraints::all_different_shifted(solver, &pending[a].0);
            posted.push((solver.propagators_since(first), pending[a].2.clone(), None));
        }
    }
    let remaining: Vec<AllDifferent> =
        pending.into_iter().zip(used).filter(|(_, used)| !used).map(|(all_different, _)| all_different).collect();
    // How many all-different constraints each variable is in (once per constraint).
    let mut uses: HashMap<VarId, usize> = HashMap::new();
    for (vars, _, _, _) in &remaining {
        let mut distinct = vars.clone();
        distinct.sort_unstable();
        distinct.dedup();
        for x in distinct {
            *uses.entry(x).or_insert(0) += 1;
        }
    }
    for (vars, offsets, origin, annotated) in remaining {
        let overlaps = vars.iter().any(|x| uses.get(x).is_some_and(|&n| n > 1));
        // The constraint's own annotation, then `option alldifferent`, then the default.
        let consistency =
            annotated.or(chosen).unwrap_or_else(|| default_consistency(solver, &vars, &offsets, overlaps));
        let first = solver.num_propagators();
        constraints::all_different(solver, &vars, &offsets, consistency);
        let plain = steps_by(&offsets, 0) && offsets.first().is_none_or(|&o| o == 0);
        posted.push((solver.propagators_since(first), origin, plain.then_some(vars)));
    }
    posted
}

/// The most values an all-different may range over to get domain consistency by default.
const DOMAIN_CONSISTENCY_VALUES: u64 = 64;

/// Domain consistency (matching) where all-different constraints overlap over small
/// domains, as the rows, columns and boxes of a Sudoku or a Latin square do: there a
/// value ruled out by one constraint's Hall set feeds the others, and the matching's
/// pruning cuts the search by an order of magnitude (sudoku-hardest: 102 nodes against
/// 998 with bounds, and 3.3× faster). Elsewhere bounds consistency: on a single
/// permutation (magic square) or wide domains (Golomb rulers) the matching costs more per
/// node than it saves (bench/README.md, "Generic models").
fn default_consistency(solver: &Solver, vars: &[VarId], offsets: &[i64], overlaps: bool) -> Consistency {
    let lo = vars.iter().zip(offsets).map(|(&x, &o)| solver.min(x).saturating_add(o)).min().unwrap_or(0);
    let hi = vars.iter().zip(offsets).map(|(&x, &o)| solver.max(x).saturating_add(o)).max().unwrap_or(0);
    let values = hi.saturating_sub(lo).unsigned_abs().saturating_add(1);
    if overlaps && values <= DOMAIN_CONSISTENCY_VALUES {
        Consistency::Domain
    } else {
        Consistency::Bounds
    }
}
