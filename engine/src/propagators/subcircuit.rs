//! Subcircuit: the nodes that are not their own successor form one circuit, or there are
//! none (MiniZinc's `subcircuit`; node `i` is the value `i + offset`, and `succ[i] = i`
//! leaves node `i` out).
//!
//! As for [`super::Circuit`], the post function restricts the successors to the nodes and
//! posts all-different beside this propagator, so the successors form a permutation; its
//! fixed points are the nodes left out, and the other nodes must form a single cycle. (One
//! node alone cannot be in: its successor would be a node that is out, and so its own
//! successor too.) What is left is subtours, by the path reasoning of circuit adapted as
//! in Chuffed's and Gecode's subcircuit: a node *must be in* once its self-loop has left
//! its domain or another node's successor is fixed to it, and
//! - a chain of fixed arcs from `s` to `e` may be closed (`succ[e] = s`) only into the
//!   circuit itself, so only if no node outside the chain must be in: otherwise `s` leaves
//!   the domain of `succ[e]`;
//! - a cycle of fixed arcs is the circuit: every other node is left out (fixed to itself),
//!   which fails if one of them must be in; two cycles fail.
//!
//! Recomputed from scratch at every call, in O(n), nothing to trail (see circuit).
//!
//! Explanations name the fixed arcs a rule used and, where it needed one, a *witness*
//! that some node outside them must be in: its self-loop gone, or a fixed arc into it
//! from a node outside. A chain's start leaves its end's successor because of the chain's
//! arcs and a witness; a node is left out because of a fixed cycle's arcs; a conflict is
//! two fixed cycles, or one and a witness, or two fixed arcs into one node (or into a
//! node left out).

use super::circuit::{is_circuit, Paths};
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// No subtour among successors restricted to the nodes by the post function, with
/// all-different beside it.
#[derive(Debug, Clone)]
pub struct Subcircuit {
    succ: Vec<VarId>,
    offset: Val,
    paths: Paths,
    in_cycle: Vec<bool>,
}

impl Subcircuit {
    /// At least two nodes, every domain within `offset..offset + n`.
    pub(crate) fn new(succ: Vec<VarId>, offset: Val) -> Subcircuit {
        debug_assert!(succ.len() >= 2);
        Subcircuit { succ, offset, paths: Paths::default(), in_cycle: Vec::new() }
    }

    fn must_be_in(&self, cx: &Context<'_>, i: usize) -> bool {
        self.paths.has_pred(i) || !cx.contains(self.succ[i], i as Val + self.offset)
    }
}

/// The fixed arcs of the successors as they were at an explained moment.
struct FixedArcs {
    /// `next[i]`: the node `succ[i]` was fixed to, if it was.
    next: Vec<Option<usize>>,
    /// `pred[j]`: a node other than `j` whose successor was fixed to `j`.
    pred: Vec<Option<usize>>,
}

impl Subcircuit {
    fn fixed_arcs(&self, cx: &ExplainContext<'_>) -> FixedArcs {
        let n = self.succ.len();
        let mut arcs = FixedArcs { next: vec![None; n], pred: vec![None; n] };
        for (i, &x) in self.succ.iter().enumerate() {
            let v = cx.min(x);
            if v == cx.max(x) {
                let j = usize::try_from(v - self.offset).ok().filter(|&j| j < n);
                arcs.next[i] = j;
                if let Some(j) = j.filter(|&j| j != i) {
                    arcs.pred[j] = Some(i);
                }
            }
        }
        arcs
    }

    /// The literal fixing the arc out of `i`.
    fn arc(&self, arcs: &FixedArcs, i: usize) -> Option<Literal> {
        Some(Literal::Eq(self.succ[i], arcs.next[i]? as Val + self.offset))
    }

    /// Why some node outside `inside` must be in the circuit: its self-loop gone, or a
    /// fixed arc into it (from a node that is then in too).
    fn witness(&self, cx: &ExplainContext<'_>, arcs: &FixedArcs, inside: &[bool]) -> Option<Literal> {
        (0..self.succ.len()).filter(|&k| !inside[k]).find_map(|k| {
            let self_loop = k as Val + self.offset;
            if !cx.contains(self.succ[k], self_loop) {
                Some(Literal::Ne(self.succ[k], self_loop))
            } else {
                arcs.pred[k].and_then(|p| self.arc(arcs, p))
            }
        })
    }

    /// The cycles of fixed arcs (self-loops aside), each as its nodes.
    fn cycles(&self, arcs: &FixedArcs) -> Vec<Vec<usize>> {
        let n = self.succ.len();
        let mut seen = vec![false; n];
        // Chains first: whatever they reach is not on a cycle.
        for start in (0..n).filter(|&i| arcs.pred[i].is_none()) {
            let mut at = Some(start);
            while let Some(i) = at.filter(|&i| !seen[i]) {
                seen[i] = true;
                at = arcs.next[i].filter(|&j| j != i);
            }
        }
        let mut cycles = Vec::new();
        for start in 0..n {
            if seen[start] || arcs.next[start].is_none_or(|j| j == start) {
                continue;
            }
            let mut cycle = Vec::new();
            let mut at = start;
            while !seen[at] {
                seen[at] = true;
                cycle.push(at);
                match arcs.next[at] {
                    Some(j) => at = j,
                    None => break,
                }
            }
            cycles.push(cycle);
        }
        cycles
    }

    /// The arcs of `nodes` (a fixed cycle or chain), and a mask of them.
    fn arcs_of(&self, arcs: &FixedArcs, nodes: &[usize], reason: &mut Vec<Literal>) -> Option<Vec<bool>> {
        let mut inside = vec![false; self.succ.len()];
        for &i in nodes {
            inside[i] = true;
            reason.push(self.arc(arcs, i)?);
        }
        Some(inside)
    }
}

impl Propagator for Subcircuit {
    fn name(&self) -> &'static str {
        "subcircuit"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        // Losing a self-loop (not only a fixing) makes a node one that must be in.
        for &x in &self.succ {
            cx.subscribe(x, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let n = self.succ.len();
        self.paths.compute(cx, &self.succ, self.offset)?;
        let must_in = (0..n).filter(|&i| self.must_be_in(cx, i)).count();
        // Every node of a chain or a cycle has an arc in or out, so must be in: a path of
        // `len` nodes leaves out a node that must be in exactly when `must_in > len`.
        match self.paths.cycles.as_slice() {
            [] => {}
            [cycle] => {
                let cycle = *cycle;
                if must_in > cycle.len {
                    return Err(Conflict);
                }
                self.in_cycle.clear();
                self.in_cycle.resize(n, false);
                for i in self.paths.nodes(cycle) {
                    self.in_cycle[i] = true;
                }
                for i in (0..n).filter(|&i| !self.in_cycle[i]) {
                    let _ = cx.assign(self.succ[i], i as Val + self.offset)?;
                }
                return Ok(PropStatus::Entailed);
            }
            _ => return Err(Conflict),
        }
        for chain in &self.paths.chains {
            if must_in > chain.len {
                let _ = cx.remove(self.succ[chain.end], chain.start as Val + self.offset)?;
            }
        }
        Ok(PropStatus::Active)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let n = self.succ.len();
        let i = self.succ.iter().position(|&y| y == lit.var())?;
        let arcs = self.fixed_arcs(cx);
        let mut reason = Vec::new();
        if let Literal::Ne(_, v) = lit {
            // The chain s → … → i may not close: a node outside it must be in.
            let s = usize::try_from(v - self.offset).ok().filter(|&s| s < n && s != i)?;
            let mut chain = Vec::new();
            let mut at = s;
            while at != i {
                if chain.len() >= n {
                    return None;
                }
                chain.push(at);
                at = arcs.next[at]?;
            }
            let mut inside = self.arcs_of(&arcs, &chain, &mut reason)?;
            inside[i] = true;
            reason.push(self.witness(cx, &arcs, &inside)?);
            return Some(reason);
        }
        // Left out by a fixed cycle elsewhere: `i` is then its own successor.
        if !lit.holds_for(i as Val + self.offset) {
            return None;
        }
        let cycle = self.cycles(&arcs).into_iter().find(|c| !c.contains(&i))?;
        self.arcs_of(&arcs, &cycle, &mut reason)?;
        Some(reason)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let arcs = self.fixed_arcs(cx);
        // Two fixed arcs into one node, or one into a node left out.
        for (i, next) in arcs.next.iter().enumerate() {
            let Some(j) = next.filter(|&j| j != i) else { continue };
            let other = arcs.pred[j].filter(|&p| p != i).or((arcs.next[j] == Some(j)).then_some(j));
            if let Some(p) = other {
                return Some(vec![self.arc(&arcs, i)?, self.arc(&arcs, p)?]);
            }
        }
        let cycles = self.cycles(&arcs);
        let mut reason = Vec::new();
        let inside = self.arcs_of(&arcs, cycles.first()?, &mut reason)?;
        match cycles.get(1) {
            Some(second) => {
                self.arcs_of(&arcs, second, &mut reason)?;
            }
            None => reason.push(self.witness(cx, &arcs, &inside)?),
        }
        Some(reason)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let values: Vec<Val> = self.succ.iter().map(|&x| value(x)).collect();
        is_circuit(&values, self.offset, true)
    }

    fn vars(&self) -> Vec<VarId> {
        self.succ.clone()
    }
}
