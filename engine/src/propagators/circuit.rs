//! Circuit: the successors `succ[i]` form one Hamiltonian circuit through all n nodes
//! (MiniZinc's `circuit`; node `i` is the value `i + offset`).
//!
//! The post function restricts each successor to the nodes and removes the self-loop,
//! and posts all-different: the successors then form a permutation. A permutation is a
//! circuit exactly when it has one cycle, and that is what all-different cannot see: with
//! four nodes, 0→1→0 is part of the permutation 0→1→0, 2→3→2. This propagator forbids
//! such subtours by *path reasoning* (Caseau and Laburthe, "Solving small TSPs with
//! constraints", ICLP 1997; Gecode's circuit and Pesant et al.'s TSP with time windows do
//! the same):
//! - the fixed arcs form disjoint chains; a chain from `s` to `e` over fewer than n nodes
//!   must not be closed into a cycle, so `s` leaves the domain of `succ[e]`;
//! - fixed arcs that already close a cycle of fewer than n nodes are a conflict (the
//!   removal above can be skipped on a huge interval domain, and several arcs may be
//!   fixed between two calls, so the rule alone does not exclude it).
//!
//! Then a reachability check, as in Gecode's circuit: the graph of the current domains
//! (an arc `i → j` while `j + offset ∈ dom(succ[i])`) must be strongly connected, since
//! a circuit through every node connects any node to any other. Path reasoning only looks
//! at fixed arcs; this sees a node that lost all its ways in or out, or a group of nodes
//! that can no longer be left, long before their arcs are fixed. Measured on random
//! sparse graphs with a hidden tour (100 nodes, about 3 arcs each, first solution), it cut
//! the search from 1.3 million nodes to 19 thousand (8.3 s to 0.24 s); on small dense
//! graphs, where it never prunes, it doubles the time of counting every circuit.
//!
//! The chains are recomputed from scratch at every call, in O(n), and the reachability
//! check costs O(n + Σ|dom|): both scratch, nothing to trail. (An incremental version
//! would keep each chain's ends in trailed integers and join two chains per fixed arc in
//! O(1); the scan is cheap next to the all-different that runs beside it.)

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// No fixed successor.
const NONE: usize = usize::MAX;

/// A chain or a cycle of fixed arcs: its first node, its last node, its number of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Path {
    pub(crate) start: usize,
    /// For a chain, the node whose successor is not fixed; for a cycle, the node before
    /// `start`.
    pub(crate) end: usize,
    pub(crate) len: usize,
}

/// The fixed arcs of a successor array, walked into chains and cycles. Rebuilt from the
/// domains at each call; between calls its content means nothing, so it needs no trail.
#[derive(Debug, Clone, Default)]
pub(crate) struct Paths {
    /// Each node's fixed successor, `NONE` when not fixed or fixed to the node itself.
    next: Vec<usize>,
    /// Whether another node's successor is fixed to this one.
    has_pred: Vec<bool>,
    seen: Vec<bool>,
    /// The chains of at least one arc (a lone node is no chain).
    pub(crate) chains: Vec<Path>,
    pub(crate) cycles: Vec<Path>,
    /// How many nodes are fixed to themselves.
    pub(crate) self_loops: usize,
}

impl Paths {
    /// Reads the fixed successors (each domain within the `n` nodes) and walks them.
    /// Fails when two arcs enter one node, or an arc enters a node fixed to itself: no
    /// permutation does that.
    pub(crate) fn compute(&mut self, cx: &Context<'_>, succ: &[VarId], offset: Val) -> Result<(), Conflict> {
        let n = succ.len();
        self.next.clear();
        self.next.resize(n, NONE);
        self.has_pred.clear();
        self.has_pred.resize(n, false);
        self.seen.clear();
        self.seen.resize(n, false);
        self.chains.clear();
        self.cycles.clear();
        self.self_loops = 0;
        for (i, &x) in succ.iter().enumerate() {
            if !cx.is_fixed(x) {
                continue;
            }
            let j = (cx.min(x) - offset) as usize;
            if j == i {
                self.self_loops += 1;
                continue;
            }
            if self.has_pred[j] {
                return Err(Conflict);
            }
            self.has_pred[j] = true;
            self.next[i] = j;
        }
        // A node fixed to itself is out, so nothing may lead into it.
        for (i, &x) in succ.iter().enumerate() {
            if self.has_pred[i] && self.next[i] == NONE && cx.is_fixed(x) {
                return Err(Conflict);
            }
        }
        // With at most one arc into each node, a walk from a node without predecessor is a
        // simple path: the chains.
        for s in 0..n {
            if self.has_pred[s] || self.next[s] == NONE {
                continue;
            }
            let (mut e, mut len) = (s, 1);
            self.seen[s] = true;
            while self.next[e] != NONE {
                e = self.next[e];
                self.seen[e] = true;
                len += 1;
            }
            self.chains.push(Path { start: s, end: e, len });
        }
        // An arc left unseen is on no chain: following predecessors from it never ends, so
        // it lies on a cycle.
        for s in 0..n {
            if self.seen[s] || self.next[s] == NONE {
                continue;
            }
            let (mut e, mut len) = (s, 1);
            self.seen[s] = true;
            while self.next[e] != s {
                e = self.next[e];
                self.seen[e] = true;
                len += 1;
            }
            self.cycles.push(Path { start: s, end: e, len });
        }
        Ok(())
    }

    /// Whether another node's successor is fixed to node `i` (as of the last `compute`).
    pub(crate) fn has_pred(&self, i: usize) -> bool {
        self.has_pred[i]
    }

    /// The nodes of a chain or cycle found by the last `compute`, in order.
    pub(crate) fn nodes(&self, path: Path) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(path.start), |&i| Some(self.next[i])).take(path.len)
    }
}

/// Scratch of the strong connectivity test: a graph in compressed rows, reversed.
#[derive(Debug, Clone, Default)]
struct Reach {
    /// Predecessors of node `j`: `preds[first[j]..first[j + 1]]`.
    first: Vec<usize>,
    preds: Vec<usize>,
    /// Where the next predecessor of each node goes while `preds` is filled.
    fill: Vec<usize>,
    seen: Vec<bool>,
    stack: Vec<usize>,
}

impl Reach {
    /// Whether every node reaches node 0 and is reached from it in the graph of the
    /// current domains (two depth-first searches, forward and backward).
    fn strongly_connected(&mut self, cx: &Context<'_>, succ: &[VarId], offset: Val) -> bool {
        let n = succ.len();
        if n <= 64 {
            return strongly_connected_words(cx, succ, offset);
        }
        let node = |v: Val| (v - offset) as usize;
        // Forward, on the domains themselves.
        self.seen.clear();
        self.seen.resize(n, false);
        self.seen[0] = true;
        self.stack.clear();
        self.stack.push(0);
        let mut reached = 1;
        while let Some(i) = self.stack.pop() {
            for v in cx.values(succ[i]) {
                let j = node(v);
                if !self.seen[j] {
                    self.seen[j] = true;
                    reached += 1;
                    self.stack.push(j);
                }
            }
        }
        if reached < n {
            return false;
        }
        // Backward, on the reversed graph built by counting sort.
        self.first.clear();
        self.first.resize(n + 1, 0);
        for &x in succ {
            for v in cx.values(x) {
                self.first[node(v) + 1] += 1;
            }
        }
        for j in 0..n {
            self.first[j + 1] += self.first[j];
        }
        self.preds.clear();
        self.preds.resize(self.first[n], 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.first[..n]);
        for (i, &x) in succ.iter().enumerate() {
            for v in cx.values(x) {
                let j = node(v);
                self.preds[self.fill[j]] = i;
                self.fill[j] += 1;
            }
        }
        self.seen.clear();
        self.seen.resize(n, false);
        self.seen[0] = true;
        self.stack.push(0);
        let mut reached = 1;
        while let Some(j) = self.stack.pop() {
            for &i in &self.preds[self.first[j]..self.first[j + 1]] {
                if !self.seen[i] {
                    self.seen[i] = true;
                    reached += 1;
                    self.stack.push(i);
                }
            }
        }
        reached == n
    }
}

/// The same test as [`Reach::strongly_connected`] for at most 64 nodes, on bit sets: node
/// `i`'s successors are one word (bit `j`: `j + offset ∈ dom(succ[i])`), a search step is one
/// AND, and the reversed graph is that matrix transposed. About a tenth of the instructions
/// of the lists on a 21-node routing model, where it runs at every wake-up.
fn strongly_connected_words(cx: &Context<'_>, succ: &[VarId], offset: Val) -> bool {
    let n = succ.len();
    let all = if n == 64 { !0u64 } else { (1u64 << n) - 1 };
    let mut out = [0u64; 64];
    let mut into = [0u64; 64];
    for (i, &x) in succ.iter().enumerate() {
        let mut arcs = cx.window(x, offset) & all;
        out[i] = arcs;
        while arcs != 0 {
            let j = arcs.trailing_zeros() as usize;
            arcs &= arcs - 1;
            into[j] |= 1 << i;
        }
    }
    reaches_all(&out, all) && reaches_all(&into, all)
}

/// Whether every node of `all` is reached from node 0 along the arcs `arcs[i]` (bit `j`:
/// an arc `i → j`).
fn reaches_all(arcs: &[u64; 64], all: u64) -> bool {
    let (mut reached, mut frontier) = (1u64, 1u64);
    while frontier != 0 {
        let i = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = arcs[i] & !reached;
        reached |= new;
        frontier |= new;
    }
    reached == all
}

/// No subtour among successors already made a permutation without self-loops by the
/// post function (domains within the nodes, all-different beside it).
#[derive(Debug, Clone)]
pub struct Circuit {
    succ: Vec<VarId>,
    offset: Val,
    paths: Paths,
    reach: Reach,
    /// Which rule the last call failed by, if it failed by one (the reason is read from the
    /// domains only when analysis asks: without learning, nothing is built).
    failure: Option<Failure>,
}

impl Circuit {
    /// At least two nodes, every domain within `offset..offset + n`.
    pub(crate) fn new(succ: Vec<VarId>, offset: Val) -> Circuit {
        debug_assert!(succ.len() >= 2);
        Circuit { succ, offset, paths: Paths::default(), reach: Reach::default(), failure: None }
    }

    /// `succ[i] = j`, nodes counted from 0.
    fn arc(&self, i: usize, j: usize) -> Literal {
        Literal::Eq(self.succ[i], j as Val + self.offset)
    }

    /// Fixed arcs that no circuit allows together (`fixed(i)`: node `i`'s fixed
    /// successor): a node fixed to itself, two arcs into one node, one into a node fixed to
    /// itself, or else a cycle of fewer than n nodes.
    fn clashing_arcs(&self, fixed: impl Fn(usize) -> Option<usize>) -> Vec<Literal> {
        let n = self.succ.len();
        let mut pred = vec![None; n];
        for i in 0..n {
            match fixed(i) {
                Some(j) if j == i => return vec![self.arc(i, i)],
                Some(j) => match pred[j] {
                    Some(p) => return vec![self.arc(p, j), self.arc(i, j)],
                    None => pred[j] = Some(i),
                },
                None => {}
            }
        }
        for (j, p) in pred.iter().enumerate() {
            if let Some(p) = *p {
                if fixed(j) == Some(j) {
                    return vec![self.arc(p, j), self.arc(j, j)];
                }
            }
        }
        // One arc into each node at most: a walk from any node is a chain or a cycle.
        for s in 0..n {
            let mut cycle = Vec::new();
            let mut at = s;
            while let Some(j) = fixed(at).filter(|_| cycle.len() < n) {
                cycle.push(self.arc(at, j));
                at = j;
                if at == s {
                    return cycle;
                }
            }
        }
        debug_assert!(false, "circuit: no clash among the fixed arcs");
        Vec::new()
    }

    /// Why the graph of the domains (`has_arc(i, j)`: `j` is left for `succ[i]`) is not
    /// strongly connected: the nodes `R` that node 0 reaches (or, failing the other way,
    /// that reach it) have lost every arc out of `R` (into `R`), and a circuit through all
    /// the nodes needs one. The missing arcs are the reason (those never in a domain hold
    /// from the start, and analysis drops them).
    fn cut(&self, has_arc: impl Fn(usize, usize) -> bool) -> Vec<Literal> {
        let n = self.succ.len();
        for forward in [true, false] {
            let mut inside = vec![false; n];
            inside[0] = true;
            let mut stack = vec![0];
            while let Some(a) = stack.pop() {
                let new: Vec<usize> =
                    (0..n).filter(|&b| !inside[b] && if forward { has_arc(a, b) } else { has_arc(b, a) }).collect();
                for b in new {
                    inside[b] = true;
                    stack.push(b);
                }
            }
            if inside.iter().all(|&r| r) {
                continue;
            }
            let mut reason = Vec::new();
            for a in (0..n).filter(|&a| inside[a]) {
                for b in (0..n).filter(|&b| !inside[b]) {
                    let (i, j) = if forward { (a, b) } else { (b, a) };
                    reason.push(Literal::Ne(self.succ[i], j as Val + self.offset));
                }
            }
            return reason;
        }
        debug_assert!(false, "circuit: the graph is strongly connected");
        Vec::new()
    }
}

/// The rules by which circuit fails, each with its own reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// Fixed arcs that clash, or close a short cycle.
    FixedArcs,
    /// The graph of the domains is not strongly connected.
    Cut,
}

impl Propagator for Circuit {
    fn name(&self) -> &'static str {
        "circuit"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        // Any removal can break strong connectivity, not only a fixing.
        for &x in &self.succ {
            cx.subscribe(x, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let n = self.succ.len();
        // A failure of a removal below is explained naively, not by an older conflict.
        self.failure = None;
        if self.paths.compute(cx, &self.succ, self.offset).is_err() || self.paths.self_loops > 0 {
            // Only a domain too wide to hold holes can still contain its self-loop.
            self.failure = Some(Failure::FixedArcs);
            return Err(Conflict);
        }
        if let Some(&cycle) = self.paths.cycles.first() {
            // One cycle through all n nodes fixes every successor: the circuit is complete.
            if cycle.len == n {
                return Ok(PropStatus::Entailed);
            }
            self.failure = Some(Failure::FixedArcs);
            return Err(Conflict);
        }
        for chain in &self.paths.chains {
            let (end, start) = (self.succ[chain.end], chain.start as Val + self.offset);
            if chain.len < n {
                let _ = cx.remove(end, start)?;
            } else {
                // The chain holds every node: only its closing arc is left.
                let _ = cx.assign(end, start)?;
            }
        }
        if !self.reach.strongly_connected(cx, &self.succ, self.offset) {
            self.failure = Some(Failure::Cut);
            return Err(Conflict);
        }
        Ok(PropStatus::Active)
    }

    /// A chain `s → … → e` of fixed arcs removed `s` from `succ[e]` (or, holding every node,
    /// fixed `succ[e] = s`): its arcs, walked again from `s` as they were then.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (Literal::Ne(x, v) | Literal::Eq(x, v)) = lit else { return None };
        let n = self.succ.len();
        let e = self.succ.iter().position(|&y| y == x)?;
        let mut at = usize::try_from(v - self.offset).ok().filter(|&s| s < n)?;
        let mut reason = Vec::new();
        while at != e {
            let y = self.succ[at];
            let (lo, hi) = (cx.min(y), cx.max(y));
            if lo != hi || reason.len() >= n {
                return None;
            }
            reason.push(Literal::Eq(y, lo));
            at = usize::try_from(lo - self.offset).ok().filter(|&j| j < n)?;
        }
        Some(reason)
    }

    /// By the rule it failed by: clashing arcs or a short cycle, or a cut of the graph.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let value = |x: VarId| (cx.min(x) - self.offset) as usize;
        let reason = match self.failure? {
            Failure::FixedArcs => self.clashing_arcs(|i| {
                let x = self.succ[i];
                (cx.min(x) == cx.max(x)).then(|| value(x))
            }),
            Failure::Cut => self.cut(|i, j| cx.contains(self.succ[i], j as Val + self.offset)),
        };
        (!reason.is_empty()).then_some(reason)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let values: Vec<Val> = self.succ.iter().map(|&x| value(x)).collect();
        is_circuit(&values, self.offset, false)
    }

    fn vars(&self) -> Vec<VarId> {
        self.succ.clone()
    }
}

/// The ground truth of circuit and subcircuit: whether the successors `values` (nodes
/// counted from `offset`) form one cycle through every node, or with `sub`, one cycle
/// through the nodes that are not their own successor, or none.
pub(crate) fn is_circuit(values: &[Val], offset: Val, sub: bool) -> bool {
    let n = values.len();
    let mut next = Vec::with_capacity(n);
    let mut taken = vec![false; n];
    for &v in values {
        let Some(j) = v.checked_sub(offset).and_then(|j| usize::try_from(j).ok()).filter(|&j| j < n) else {
            return false;
        };
        if std::mem::replace(&mut taken[j], true) {
            return false;
        }
        next.push(j);
    }
    // A permutation: it is a (sub)circuit when the nodes it moves form a single cycle.
    let moved = (0..n).filter(|&i| next[i] != i).count();
    if !sub && moved < n {
        return false;
    }
    let Some(start) = (0..n).find(|&i| next[i] != i) else {
        return true;
    };
    let mut len = 1;
    let mut at = next[start];
    while at != start {
        at = next[at];
        len += 1;
    }
    len == moved
}
