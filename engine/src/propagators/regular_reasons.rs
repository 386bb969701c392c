//! Explanations of [`super::Regular`]: the values missing from the other positions that
//! cut every path of the layered graph through a removed value.
//!
//! The propagator removes value `v` at position `k` when no accepted word of the domains
//! spells `v` there: every edge `q --v--> q'` of layer `k` starts at a state the start does
//! not reach (`q ∉ Fₖ`) or ends at one that reaches no accepting state (`q' ∉ Bₖ₊₁`). Each
//! of those facts is a cut of the graph by missing values, found on the domains as they
//! were just before (an [`ExplainContext`]):
//! - *forward*, the states `Nₖ` that must be unreachable: a state of `Nⱼ` is entered from
//!   layer `j − 1` only by edges whose value is missing at position `j − 1` (cited as
//!   `xⱼ₋₁ ≠ w`) or that leave a state itself unreachable (it joins `Nⱼ₋₁`); the start is
//!   reachable, so every edge out of it is cut by a missing value;
//! - *backward*, the states `Mₖ₊₁` that must reach no accepting state, mirrored: an edge out
//!   of a state of `Mⱼ` is cut by a missing value at position `j` or enters `Mⱼ₊₁`; `Mₙ`
//!   holds no accepting state.
//!
//! Edges that enter a dead state are explained backward, the others forward (preferring
//! the backward cut took the nonogram non_med_4 from over 25 s to 2.3 s, where preferring
//! the forward one was slower than the naive explanation). The
//! missing values cited lie between the removed position and the nearest layers where
//! the unreachable sets die out, so a nonogram cell is explained by the cells of its row
//! that fixed the blocks around it, not by the whole row. A conflict (no path at all) is
//! the backward cut from the start. Cost `O(n·Q·S)` for `n` positions, `Q` states and `S`
//! symbols, as one propagation.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;

/// A transition to no state: the automaton rejects the word.
pub(crate) const DEAD: u32 = u32::MAX;

/// The automaton of a [`super::Regular`], states from 0, symbols `s` for the values `s + 1`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dfa<'a> {
    pub(crate) vars: &'a [VarId],
    pub(crate) states: usize,
    pub(crate) symbols: usize,
    /// `next[q * symbols + s]`, or [`DEAD`].
    pub(crate) next: &'a [u32],
    pub(crate) start: u32,
    pub(crate) accepting: &'a [bool],
}

/// The domains then as symbol flags per position, and the pure reachability of each layer
/// (`forward[j][q]`: the start reaches `q` in `j` steps; `backward[j][q]`: `q` reaches an
/// accepting state in `n − j` steps).
struct Graph {
    present: Vec<Vec<bool>>,
    forward: Vec<Vec<bool>>,
    backward: Vec<Vec<bool>>,
}

impl Dfa<'_> {
    fn step(&self, q: usize, s: usize) -> Option<usize> {
        let to = self.next[q * self.symbols + s];
        (to != DEAD).then_some(to as usize)
    }

    fn graph(&self, cx: &ExplainContext<'_>) -> Graph {
        let n = self.vars.len();
        let present: Vec<Vec<bool>> =
            self.vars.iter().map(|&x| (0..self.symbols).map(|s| cx.contains(x, s as Val + 1)).collect()).collect();
        let mut forward = vec![vec![false; self.states]; n + 1];
        forward[0][self.start as usize] = true;
        for j in 0..n {
            let (done, rest) = forward.split_at_mut(j + 1);
            for q in (0..self.states).filter(|&q| done[j][q]) {
                for s in (0..self.symbols).filter(|&s| present[j][s]) {
                    if let Some(to) = self.step(q, s) {
                        rest[0][to] = true;
                    }
                }
            }
        }
        let mut backward = vec![vec![false; self.states]; n + 1];
        backward[n].copy_from_slice(self.accepting);
        for j in (0..n).rev() {
            for q in 0..self.states {
                backward[j][q] =
                    (0..self.symbols).any(|s| present[j][s] && self.step(q, s).is_some_and(|to| backward[j + 1][to]));
            }
        }
        Graph { present, forward, backward }
    }

    /// Why position `k` lost `targets` (symbols): `None` if some path of the domains then
    /// still used one (the caller falls back to the naive explanation).
    fn cut_at(&self, graph: &Graph, k: usize, targets: &[usize]) -> Option<Vec<Literal>> {
        let mut unreachable = vec![false; self.states];
        let mut dead_end = vec![false; self.states];
        for &s in targets {
            for (q, cut_before) in unreachable.iter_mut().enumerate() {
                let Some(to) = self.step(q, s) else { continue };
                if !graph.backward[k + 1][to] {
                    dead_end[to] = true;
                } else if !graph.forward[k][q] {
                    *cut_before = true;
                } else {
                    return None;
                }
            }
        }
        let mut cited = Vec::new();
        self.cut_forward(graph, k, unreachable, &mut cited)?;
        self.cut_backward(graph, k + 1, dead_end, &mut cited)?;
        Some(cited)
    }

    /// Cites the missing values that keep the states `unreachable` of layer `j` from the
    /// start.
    fn cut_forward(&self, graph: &Graph, j: usize, mut unreachable: Vec<bool>, out: &mut Vec<Literal>) -> Option<()> {
        for j in (1..=j).rev() {
            if !unreachable.contains(&true) {
                return Some(());
            }
            let mut before = vec![false; self.states];
            let mut missing = vec![false; self.symbols];
            for (p, earlier) in before.iter_mut().enumerate() {
                for (s, gone) in missing.iter_mut().enumerate() {
                    if self.step(p, s).is_some_and(|q| unreachable[q]) {
                        if graph.forward[j - 1][p] {
                            *gone = true;
                        } else {
                            *earlier = true;
                        }
                    }
                }
            }
            self.cite_missing(graph, j - 1, &missing, out)?;
            unreachable = before;
        }
        // Layer 0: only the start is reachable, and it was handled as reachable.
        (!unreachable[self.start as usize]).then_some(())
    }

    /// Cites the missing values that keep the states `dead_end` of layer `j` from every
    /// accepting state of the last layer.
    fn cut_backward(&self, graph: &Graph, j: usize, mut dead_end: Vec<bool>, out: &mut Vec<Literal>) -> Option<()> {
        let n = self.vars.len();
        for j in j..n {
            if !dead_end.contains(&true) {
                return Some(());
            }
            let mut after = vec![false; self.states];
            let mut missing = vec![false; self.symbols];
            for q in (0..self.states).filter(|&q| dead_end[q]) {
                for (s, gone) in missing.iter_mut().enumerate() {
                    if let Some(to) = self.step(q, s) {
                        if graph.backward[j + 1][to] {
                            *gone = true;
                        } else {
                            after[to] = true;
                        }
                    }
                }
            }
            self.cite_missing(graph, j, &missing, out)?;
            dead_end = after;
        }
        (0..self.states).all(|q| !(dead_end[q] && self.accepting[q])).then_some(())
    }

    /// `x ≠ s + 1` at position `j` for each symbol flagged, each of which must have been
    /// missing then.
    fn cite_missing(&self, graph: &Graph, j: usize, missing: &[bool], out: &mut Vec<Literal>) -> Option<()> {
        for s in (0..self.symbols).filter(|&s| missing[s]) {
            if graph.present[j][s] {
                return None;
            }
            out.push(Literal::Ne(self.vars[j], s as Val + 1));
        }
        Some(())
    }

    /// Why `lit` (a value or bound of one position's variable) holds: at some position of
    /// its variable, the values it excludes that were still there are on no path, and the
    /// others were gone already.
    pub(crate) fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let x = lit.var();
        let last = self.symbols as Val;
        let excluded: Vec<Val> = match lit {
            Literal::Ne(_, v) => vec![v],
            Literal::Gt(_, m) => (1..=m.min(last)).collect(),
            Literal::Le(_, m) => (m.max(0) + 1..=last).collect(),
            Literal::Eq(..) => return None,
        };
        // Values that are no symbols were never in the domain (the post function bounds it).
        let excluded: Vec<Val> = excluded.into_iter().filter(|&v| (1..=last).contains(&v)).collect();
        let graph = self.graph(cx);
        let (gone, targets): (Vec<Val>, Vec<Val>) = excluded.iter().partition(|&&v| !cx.contains(x, v));
        let targets: Vec<usize> = targets.iter().map(|&v| (v - 1) as usize).collect();
        let mut reason =
            (0..self.vars.len()).filter(|&k| self.vars[k] == x).find_map(|k| self.cut_at(&graph, k, &targets))?;
        reason.extend(gone.iter().map(|&v| Literal::Ne(x, v)));
        reason.sort_unstable();
        reason.dedup();
        Some(reason)
    }

    /// Why no word is accepted: the backward cut from the start.
    pub(crate) fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let graph = self.graph(cx);
        let mut dead_end = vec![false; self.states];
        dead_end[self.start as usize] = true;
        let mut reason = Vec::new();
        self.cut_backward(&graph, 0, dead_end, &mut reason)?;
        reason.sort_unstable();
        reason.dedup();
        Some(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::{Dfa, DEAD};
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;

    /// Five cells of values 1 (white), 2 (black) or 3 (white too), no two blacks in a
    /// row: state 1 after a black, 0 otherwise, both accepting.
    const NEXT: [u32; 6] = [0, 1, 0, 0, DEAD, 0];

    #[test]
    fn a_cell_after_a_black_one_is_explained_by_that_cell_alone() {
        let vars: Vec<_> = (0..5).map(var).collect();
        let dfa = Dfa { vars: &vars, states: 2, symbols: 3, next: &NEXT, start: 0, accepting: &[true, true] };
        // Cell 2 is black; cell 3 had lost white 1 already.
        let past = Past::new(&[(1, 3); 5], &[Literal::Gt(var(2), 1), Literal::Le(var(2), 2), Literal::Gt(var(3), 0)]);
        let reason = dfa.explain(Literal::Ne(var(3), 2), &past.cx()).expect("no path uses it");
        assert_eq!(reason, vec![Literal::Ne(var(2), 1), Literal::Ne(var(2), 3)]);
        // As a bound, with 1 gone before: that absence is cited too.
        let past = Past::new(&[(1, 3); 5], &[Literal::Gt(var(2), 1), Literal::Le(var(2), 2), Literal::Gt(var(3), 1)]);
        let reason = dfa.explain(Literal::Gt(var(3), 2), &past.cx()).expect("no path uses it");
        assert_eq!(reason, vec![Literal::Ne(var(2), 1), Literal::Ne(var(2), 3), Literal::Ne(var(3), 1)]);
        // Cell 1 may stay black: a path uses it... only if cell 2 is not; cell 2 is black.
        assert!(dfa.explain(Literal::Ne(var(0), 2), &past.cx()).is_none(), "a path still spells black first");
    }
}
