//! Domain consistency for all-different (Régin, "A filtering algorithm for constraints of
//! difference in CSPs", AAAI 1994): a value stays in a domain exactly when some
//! assignment of distinct values to all the variables uses it.
//!
//! The variables and the values they can take form a bipartite graph. A maximum matching
//! covering every variable exists iff the constraint can be satisfied. Orienting matched
//! edges value → variable and the others variable → value, an unmatched edge `x → v` lies
//! in some maximum matching iff `v` and `x` are in the same strongly connected component,
//! or `v` can reach a value left free by the matching (an even alternating path). Every
//! other edge is removed.
//!
//! The matching of the previous call is kept as the starting point (a cache, valid at any
//! search level: edges that have gone are simply unmatched first), so a call after a few
//! removals usually augments one or two paths only.
//!
//! At most 64 unfixed variables whose values fit one window of 64 (most puzzles) take the
//! bit-set path of [`super::matching_bits`] instead, with the same result.

use super::matching_bits;
use crate::domain::Val;
use crate::ids::VarId;
use crate::outcome::Conflict;
use crate::propagator::Context;

/// Shifted value spans up to this size are indexed directly (no sorting, no search).
const DENSE_SPAN: i64 = 4096;

/// Scratch space and the cached matching; none of it needs trailing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Matching {
    /// The variables not fixed yet (fixed ones were eliminated by value elimination, so
    /// their values are in no other domain): graph node `a` is variable `active[a]`.
    active: Vec<usize>,
    /// The shifted values of the active domains: value node `a_count + k` is `values[k]`.
    values: Vec<Val>,
    /// `values` is the whole range `values[0]..` (dense): index = value − values[0].
    dense: bool,
    /// Per active variable, its value nodes (indices into `values`), in compressed rows.
    adj_start: Vec<usize>,
    adj: Vec<usize>,
    /// The shifted value matched to each variable (by original index, kept across calls).
    var_value: Vec<Option<Val>>,
    /// Per active variable: its matched value index, if any.
    mate: Vec<Option<usize>>,
    /// Per value index: the matched active variable.
    value_var: Vec<Option<usize>>,
    visited: Vec<u32>,
    stamp: u32,
    /// Augmenting-path search state.
    path: Vec<(usize, usize)>,
    via: Vec<usize>,
    /// The oriented graph in compressed rows, its reverse, and the graph walks' state.
    start: Vec<usize>,
    succ: Vec<usize>,
    pred_start: Vec<usize>,
    pred: Vec<usize>,
    fill: Vec<usize>,
    work: Vec<usize>,
    call: Vec<(usize, usize)>,
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    component: Vec<usize>,
    reaches_free: Vec<bool>,
}

impl Matching {
    /// Prunes every value without support. `Err` when no matching covers the variables.
    pub(crate) fn propagate(&mut self, cx: &mut Context<'_>, vars: &[VarId], offsets: &[i64]) -> Result<(), Conflict> {
        self.active.clear();
        self.active.extend((0..vars.len()).filter(|&i| !cx.is_fixed(vars[i])));
        self.var_value.resize(vars.len(), None);
        let n = self.active.len();
        if n == 0 {
            return Ok(());
        }
        let (mut lo, mut hi) = (Val::MAX, Val::MIN);
        for &i in &self.active {
            lo = lo.min(cx.min(vars[i]) + offsets[i]);
            hi = hi.max(cx.max(vars[i]) + offsets[i]);
        }
        if n <= 64 && hi - lo < 64 {
            return matching_bits::propagate(cx, vars, offsets, &self.active, lo, &mut self.var_value);
        }
        self.build_graph(cx, vars, offsets, lo, hi);
        self.match_all(n)?;
        self.components(n);
        for a in 0..n {
            let i = self.active[a];
            for e in self.adj_start[a]..self.adj_start[a + 1] {
                let k = self.adj[e];
                if self.mate[a] != Some(k) && self.component[a] != self.component[n + k] && !self.reaches_free[n + k] {
                    let _ = cx.remove(vars[i], self.values[k] - offsets[i])?;
                }
            }
        }
        Ok(())
    }

    fn value_index(&self, v: Val) -> usize {
        if self.dense {
            (v - self.values[0]) as usize
        } else {
            self.values.binary_search(&v).unwrap_or(0)
        }
    }

    /// The bipartite graph of the `active` variables, whose shifted values lie in `lo..=hi`.
    fn build_graph(&mut self, cx: &Context<'_>, vars: &[VarId], offsets: &[i64], lo: Val, hi: Val) {
        self.values.clear();
        self.dense = hi >= lo && hi - lo < DENSE_SPAN;
        if self.dense {
            self.values.extend(lo..=hi);
        } else {
            for &i in &self.active {
                self.values.extend(cx.values(vars[i]).map(|v| v + offsets[i]));
            }
            self.values.sort_unstable();
            self.values.dedup();
        }
        self.value_var.clear();
        self.value_var.resize(self.values.len(), None);
        self.adj_start.clear();
        self.adj.clear();
        self.mate.clear();
        for a in 0..self.active.len() {
            let i = self.active[a];
            let (x, o) = (vars[i], offsets[i]);
            self.adj_start.push(self.adj.len());
            for v in cx.values(x) {
                let k = self.value_index(v + o);
                self.adj.push(k);
            }
            // Keep the cached match if it is still an edge and its value not yet taken.
            let mut mate = None;
            if let Some(v) = self.var_value[i] {
                if cx.contains(x, v - o) {
                    let k = self.value_index(v);
                    if self.value_var[k].is_none() {
                        self.value_var[k] = Some(a);
                        mate = Some(k);
                    }
                }
            }
            self.mate.push(mate);
        }
        self.adj_start.push(self.adj.len());
    }

    /// Completes the matching by augmenting paths from each unmatched variable.
    fn match_all(&mut self, n: usize) -> Result<(), Conflict> {
        self.visited.resize(self.values.len(), 0);
        for a in 0..n {
            if self.mate[a].is_none() {
                self.stamp = self.stamp.wrapping_add(1);
                if self.stamp == 0 {
                    self.visited.iter_mut().for_each(|s| *s = 0);
                    self.stamp = 1;
                }
                if !self.augment(a) {
                    return Err(Conflict);
                }
            }
        }
        for a in 0..n {
            self.var_value[self.active[a]] = self.mate[a].map(|k| self.values[k]);
        }
        Ok(())
    }

    /// Depth-first search for an augmenting path from variable node `root` (iterative:
    /// the depth can reach the number of variables).
    fn augment(&mut self, root: usize) -> bool {
        // `path` holds (variable, next edge); `via[d]` is the value by which the variable
        // at depth d+1 was reached.
        self.path.clear();
        self.via.clear();
        self.path.push((root, self.adj_start[root]));
        while let Some(&(a, edge)) = self.path.last() {
            if edge == self.adj_start[a + 1] {
                self.path.pop();
                self.via.pop();
                continue;
            }
            if let Some(top) = self.path.last_mut() {
                top.1 += 1;
            }
            let k = self.adj[edge];
            if self.visited[k] == self.stamp {
                continue;
            }
            self.visited[k] = self.stamp;
            self.via.push(k);
            match self.value_var[k] {
                None => {
                    // Flip the path: each variable on it takes the value it reached.
                    for (&(var, _), &value) in self.path.iter().zip(&self.via) {
                        self.mate[var] = Some(value);
                        self.value_var[value] = Some(var);
                    }
                    return true;
                }
                Some(b) => self.path.push((b, self.adj_start[b])),
            }
        }
        false
    }

    /// Strongly connected components of the oriented graph (Tarjan, iterative) over nodes
    /// `0..n` (variables) and `n..n+m` (values), and which nodes reach a free value; the
    /// results are left in `self.component` and `self.reaches_free`.
    fn components(&mut self, n: usize) {
        let m = self.values.len();
        let total = n + m;
        // Successors in compressed rows: variable i → its unmatched values; value k → its
        // matched variable.
        self.start.clear();
        self.succ.clear();
        for a in 0..n {
            self.start.push(self.succ.len());
            for e in self.adj_start[a]..self.adj_start[a + 1] {
                let k = self.adj[e];
                if self.mate[a] != Some(k) {
                    self.succ.push(n + k);
                }
            }
        }
        for k in 0..m {
            self.start.push(self.succ.len());
            self.succ.extend(self.value_var[k]);
        }
        self.start.push(self.succ.len());
        // Predecessors, to walk backwards from the free values.
        self.pred_start.clear();
        self.pred_start.resize(total + 1, 0);
        for &t in &self.succ {
            self.pred_start[t + 1] += 1;
        }
        for node in 0..total {
            self.pred_start[node + 1] += self.pred_start[node];
        }
        self.pred.clear();
        self.pred.resize(self.succ.len(), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.pred_start[..total]);
        for node in 0..total {
            for e in self.start[node]..self.start[node + 1] {
                let t = self.succ[e];
                self.pred[self.fill[t]] = node;
                self.fill[t] += 1;
            }
        }
        self.reaches_free.clear();
        self.reaches_free.resize(total, false);
        self.work.clear();
        for k in 0..m {
            if self.value_var[k].is_none() {
                self.reaches_free[n + k] = true;
                self.work.push(n + k);
            }
        }
        while let Some(node) = self.work.pop() {
            for e in self.pred_start[node]..self.pred_start[node + 1] {
                let p = self.pred[e];
                if !self.reaches_free[p] {
                    self.reaches_free[p] = true;
                    self.work.push(p);
                }
            }
        }
        self.tarjan(total);
    }

    fn tarjan(&mut self, total: usize) {
        const UNSEEN: usize = usize::MAX;
        self.index.clear();
        self.index.resize(total, UNSEEN);
        self.low.clear();
        self.low.resize(total, 0);
        self.on_stack.clear();
        self.on_stack.resize(total, false);
        self.component.clear();
        self.component.resize(total, UNSEEN);
        self.work.clear();
        let mut counter = 0usize;
        let mut components = 0usize;
        for root in 0..total {
            if self.index[root] != UNSEEN {
                continue;
            }
            self.call.clear();
            self.call.push((root, self.start[root]));
            self.index[root] = counter;
            self.low[root] = counter;
            counter += 1;
            self.work.push(root);
            self.on_stack[root] = true;
            while let Some(&(node, edge)) = self.call.last() {
                if edge < self.start[node + 1] {
                    if let Some(top) = self.call.last_mut() {
                        top.1 += 1;
                    }
                    let s = self.succ[edge];
                    if self.index[s] == UNSEEN {
                        self.index[s] = counter;
                        self.low[s] = counter;
                        counter += 1;
                        self.work.push(s);
                        self.on_stack[s] = true;
                        self.call.push((s, self.start[s]));
                    } else if self.on_stack[s] {
                        self.low[node] = self.low[node].min(self.index[s]);
                    }
                    continue;
                }
                self.call.pop();
                if let Some(&(parent, _)) = self.call.last() {
                    self.low[parent] = self.low[parent].min(self.low[node]);
                }
                if self.low[node] == self.index[node] {
                    while let Some(w) = self.work.pop() {
                        self.on_stack[w] = false;
                        self.component[w] = components;
                        if w == node {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
}
