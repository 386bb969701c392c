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

use super::circuit::{is_circuit, Paths};
use crate::domain::Val;
use crate::ids::VarId;
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

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let values: Vec<Val> = self.succ.iter().map(|&x| value(x)).collect();
        is_circuit(&values, self.offset, true)
    }

    fn vars(&self) -> Vec<VarId> {
        self.succ.clone()
    }
}
