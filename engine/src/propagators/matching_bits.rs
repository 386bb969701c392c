//! Domain-consistent all-different on bit sets, for the common case of at most 64 unfixed
//! variables whose (shifted) values all lie in one window of 64: a sudoku row, a zebra
//! attribute, a permutation of digits.
//!
//! The reasoning is Régin's (see [`super::matching`]): find a matching that gives every
//! variable its own value, then keep an unmatched value `v` of `x` only when the variable
//! `y` matched to `v` can reach `x` by alternating paths (`x` and `v` lie on one cycle) or can
//! reach a variable that could take a free value (an even path to a free value). With every
//! domain a word, each step is a handful of word operations instead of a graph walk: a
//! domain is read with one call ([`Context::window`]), an augmenting path tries all the
//! unvisited values of a variable at once, and reachability is a transitive closure of at
//! most 64 words.

use crate::domain::Val;
use crate::ids::VarId;
use crate::outcome::Conflict;
use crate::propagator::Context;

const NONE: u8 = u8::MAX;

/// Propagates the variables `active` (indices into `vars`, none fixed, at most 64 of them),
/// whose shifted values lie in `lo..=lo + 63`. `cached` holds, per original index, the
/// shifted value matched at the previous call: kept when still possible, it usually leaves
/// one or two paths to augment.
pub(crate) fn propagate(
    cx: &mut Context<'_>,
    vars: &[VarId],
    offsets: &[i64],
    active: &[usize],
    lo: Val,
    cached: &mut [Option<Val>],
) -> Result<(), Conflict> {
    let n = active.len();
    debug_assert!(n <= 64);
    let mut domain = [0u64; 64];
    // mate[a]: the value bit matched to variable a; owner[k]: the variable matched to value k.
    let mut mate = [NONE; 64];
    let mut owner = [NONE; 64];
    for (a, &i) in active.iter().enumerate() {
        domain[a] = cx.window(vars[i], lo - offsets[i]);
        if let Some(v) = cached[i] {
            let k = v - lo;
            if (0..64).contains(&k) && domain[a] >> k & 1 != 0 && owner[k as usize] == NONE {
                mate[a] = k as u8;
                owner[k as usize] = a as u8;
            }
        }
    }
    for root in 0..n {
        if mate[root] == NONE && !augment(root, &domain, &mut mate, &mut owner) {
            return Err(Conflict);
        }
    }
    for (a, &i) in active.iter().enumerate() {
        cached[i] = Some(lo + mate[a] as Val);
    }
    prune(cx, vars, offsets, active, lo, &domain[..n], &mate, &owner)
}

/// Depth-first search for an alternating path from the unmatched variable `root` to a free
/// value; flips it when found. Each value is visited at most once per search.
fn augment(root: usize, domain: &[u64; 64], mate: &mut [u8; 64], owner: &mut [u8; 64]) -> bool {
    let mut visited = 0u64;
    // stack[d] = (variable, its values not tried yet); reached_by[d] = the value that led
    // from stack[d] to stack[d + 1]. A path visits each variable at most once: depth ≤ 64.
    let mut stack = [(0u8, 0u64); 64];
    let mut reached_by = [0u8; 64];
    stack[0] = (root as u8, domain[root]);
    let mut depth = 1;
    while depth > 0 {
        let top = &mut stack[depth - 1];
        let untried = top.1 & !visited;
        if untried == 0 {
            depth -= 1;
            continue;
        }
        let k = untried.trailing_zeros() as u8;
        top.1 = untried & (untried - 1);
        visited |= 1 << k;
        reached_by[depth - 1] = k;
        let next = owner[k as usize];
        if next == NONE {
            for d in 0..depth {
                let (var, value) = (stack[d].0, reached_by[d]);
                mate[var as usize] = value;
                owner[value as usize] = var;
            }
            return true;
        }
        stack[depth] = (next, domain[next as usize]);
        depth += 1;
    }
    false
}

/// Removes every value of every variable that no maximum matching uses.
#[allow(
    clippy::too_many_arguments,
    reason = "the variables to prune beside the matching's state, which lives in the caller's locals"
)]
fn prune(
    cx: &mut Context<'_>,
    vars: &[VarId],
    offsets: &[i64],
    active: &[usize],
    lo: Val,
    domain: &[u64],
    mate: &[u8; 64],
    owner: &[u8; 64],
) -> Result<(), Conflict> {
    let n = domain.len();
    let matched = mate[..n].iter().fold(0u64, |bits, &k| bits | 1 << k);
    let any_value = domain.iter().fold(0u64, |bits, &d| bits | d);
    let free = any_value & !matched;
    // reach[a]: the variables a reaches by alternating paths (a → a value of its own, other
    // than its match → that value's owner), then closed transitively (Warshall).
    let mut reach = [0u64; 64];
    let mut can_take_free = 0u64;
    for a in 0..n {
        reach[a] = 1 << a;
        let mut others = domain[a] & matched;
        while others != 0 {
            let k = others.trailing_zeros() as usize;
            others &= others - 1;
            reach[a] |= 1 << owner[k];
        }
        if domain[a] & free != 0 {
            can_take_free |= 1 << a;
        }
    }
    for k in 0..n {
        let (bit, through) = (1u64 << k, reach[k]);
        for row in reach.iter_mut().take(n) {
            if *row & bit != 0 {
                *row |= through;
            }
        }
    }
    for a in 0..n {
        let i = active[a];
        let mut candidates = domain[a] & matched & !(1 << mate[a]);
        while candidates != 0 {
            let k = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let b = owner[k as usize] as usize;
            if reach[b] & (1 << a) == 0 && reach[b] & can_take_free == 0 {
                let _ = cx.remove(vars[i], lo + k as Val - offsets[i])?;
            }
        }
    }
    Ok(())
}
