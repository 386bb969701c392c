//! The one propagator left below a node, found without a pass over every variable.
//!
//! The search asks at every node whether a single propagator is alive and watches every
//! unfixed variable (its dedicated algorithm may then count or find the solutions below).
//! Once a single one is alive, answering by a pass over all propagators and all variables
//! costs `O(n)` per node for the rest of the branch: a model whose other constraints all die
//! early (a chain of `!=` decided every other variable, one sum over all variables) went
//! quadratic there. Two trailed cursors make it amortised `O(1)`, as for input order:
//! - the first propagator that may be alive: the ones before it are dead at this node (a
//!   propagator dies only along a branch; backtracking restores the cursor with it; nogoods
//!   posted at a restart come after every other);
//! - for the propagator found, the first variable that may be unfixed and not watched by it:
//!   the ones before are fixed or watched by it. A fixed variable stays fixed below, and a
//!   propagator's watches never go away (the nogood database adds some as it learns), so
//!   the cursor holds below the node where it moved;
//!   it is kept together with the propagator it was moved for, and starts again at 0 for
//!   another.

use crate::ids::{PropId, TrailedInt, VarId};
use crate::store::Store;

/// The trailed cursors of one search (see the module doc).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SoleCursors {
    pub(crate) first_alive: TrailedInt,
    pub(crate) covered_for: TrailedInt,
    pub(crate) covered_from: TrailedInt,
}

/// The index of the only alive propagator, if it watches every unfixed variable.
/// `cursors` is `None` outside a search: then by a pass over everything.
pub(crate) fn sole_propagator(store: &mut Store, cursors: Option<SoleCursors>) -> Option<usize> {
    if store.alive_count != 1 {
        return None;
    }
    let n = store.domains.len();
    let Some(c) = cursors else {
        let p = store.alive.iter().position(|&a| a)?;
        return (first_uncovered(store, PropId(p as u32), 0) == n).then_some(p);
    };
    let start = store.int(c.first_alive) as usize;
    let p = start + store.alive[start..].iter().position(|&a| a)?;
    if p != start {
        store.set_int(c.first_alive, p as i64);
    }
    let same = store.int(c.covered_for) == p as i64;
    let from = if same { store.int(c.covered_from) as usize } else { 0 };
    let to = first_uncovered(store, PropId(p as u32), from);
    if !same {
        store.set_int(c.covered_for, p as i64);
    }
    // The pair moves together: a cursor left by another propagator is not this one's.
    if to as i64 != store.int(c.covered_from) {
        store.set_int(c.covered_from, to as i64);
    }
    (to == n).then_some(p)
}

/// The first variable from `from` on that is unfixed and not watched by `prop` (`n` if none).
fn first_uncovered(store: &Store, prop: PropId, from: usize) -> usize {
    let n = store.domains.len();
    (from..n)
        .find(|&x| !store.domains[x].is_fixed() && !store.watchers(VarId(x as u32)).any(|q| q == prop))
        .unwrap_or(n)
}
