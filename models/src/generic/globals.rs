//! Recognising a global constraint written in pieces.
//!
//! The textbook queens model states three all-different constraints over the same
//! variables: `q[i]`, `q[i] + i` and `q[i] − i`. Together they are exactly the engine's
//! queens constraint, which prunes the same values in one pass and can count solutions
//! with a bitboard instead of a search. All-different constraints are therefore collected
//! while compiling and posted at the end, with every such triple replaced by one queens
//! constraint.

use cpsolve_engine::constraints;
use cpsolve_engine::{Consistency, Solver, VarId};

/// An all-different over `vars[i] + offsets[i]`.
pub(crate) type AllDifferent = (Vec<VarId>, Vec<i64>);

/// Offsets of the form `c + step·i` (`step` ∈ {−1, 0, 1}).
fn steps_by(offsets: &[i64], step: i64) -> bool {
    offsets.iter().enumerate().all(|(i, &o)| o - offsets[0] == step * i as i64)
}

/// Posts the collected all-different constraints, as queens constraints where three of them
/// form one.
pub(crate) fn post_all_different(solver: &mut Solver, mut pending: Vec<AllDifferent>) {
    let mut used = vec![false; pending.len()];
    for a in 0..pending.len() {
        if used[a] || pending[a].0.len() < 2 || !steps_by(&pending[a].1, 0) {
            continue;
        }
        let same_vars = |b: usize| !used[b] && b != a && pending[b].0 == pending[a].0;
        let up = (0..pending.len()).find(|&b| same_vars(b) && steps_by(&pending[b].1, 1));
        let down = (0..pending.len()).find(|&b| same_vars(b) && steps_by(&pending[b].1, -1));
        if let (Some(up), Some(down)) = (up, down) {
            used[a] = true;
            used[up] = true;
            used[down] = true;
            constraints::queens(solver, &pending[a].0);
        }
    }
    for (i, (vars, offsets)) in pending.drain(..).enumerate() {
        if !used[i] {
            constraints::all_different(solver, &vars, &offsets, Consistency::Bounds);
        }
    }
}
