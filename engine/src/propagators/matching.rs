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

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context};

/// Scratch space and the cached matching; none of it needs trailing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Matching {
    /// The shifted values of all domains, sorted: value node `n + k` is `values[k]`.
    values: Vec<Val>,
    /// Per variable, its value nodes (indices into `values`).
    adjacent: Vec<Vec<usize>>,
    /// The value matched to each variable (a shifted value, kept across calls).
    var_value: Vec<Option<Val>>,
    /// Per value index: the matched variable.
    value_var: Vec<Option<usize>>,
    visited: Vec<u32>,
    stamp: u32,
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
        let n = vars.len();
        self.build_graph(cx, vars, offsets);
        self.match_all(n)?;
        self.components(n);
        for i in 0..n {
            let matched = self.var_value[i];
            for &k in &self.adjacent[i] {
                let v = self.values[k];
                if Some(v) != matched && self.component[i] != self.component[n + k] && !self.reaches_free[n + k] {
                    let _ = cx.remove(vars[i], v - offsets[i])?;
                }
            }
        }
        Ok(())
    }

    fn build_graph(&mut self, cx: &Context<'_>, vars: &[VarId], offsets: &[i64]) {
        let n = vars.len();
        self.values.clear();
        for (&x, &o) in vars.iter().zip(offsets) {
            self.values.extend(cx.values(x).map(|v| v + o));
        }
        self.values.sort_unstable();
        self.values.dedup();
        self.adjacent.resize(n, Vec::new());
        self.var_value.resize(n, None);
        self.value_var.clear();
        self.value_var.resize(self.values.len(), None);
        for i in 0..n {
            let (x, o) = (vars[i], offsets[i]);
            let values = &self.values;
            self.adjacent[i].clear();
            self.adjacent[i].extend(cx.values(x).map(|v| values.binary_search(&(v + o)).unwrap_or(0)));
            // Keep the cached match if it is still an edge and its value not yet taken.
            if let Some(v) = self.var_value[i] {
                match values.binary_search(&v) {
                    Ok(k) if cx.contains(x, v - o) && self.value_var[k].is_none() => self.value_var[k] = Some(i),
                    _ => self.var_value[i] = None,
                }
            }
        }
    }

    /// Completes the matching by augmenting paths from each unmatched variable.
    fn match_all(&mut self, n: usize) -> Result<(), Conflict> {
        self.visited.resize(self.values.len(), 0);
        for i in 0..n {
            if self.var_value[i].is_none() {
                self.stamp = self.stamp.wrapping_add(1);
                if self.stamp == 0 {
                    self.visited.iter_mut().for_each(|s| *s = 0);
                    self.stamp = 1;
                }
                if !self.augment(i) {
                    return Err(Conflict);
                }
            }
        }
        Ok(())
    }

    /// Depth-first search for an augmenting path from variable `root` (iterative: the
    /// depth can reach the number of variables).
    fn augment(&mut self, root: usize) -> bool {
        // Stack of (variable, next adjacency position); `via[d]` is the value index by
        // which the variable at depth d+1 was reached.
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        let mut via: Vec<usize> = Vec::new();
        while let Some(&mut (i, ref mut next)) = stack.last_mut() {
            if *next == self.adjacent[i].len() {
                stack.pop();
                via.pop();
                continue;
            }
            let k = self.adjacent[i][*next];
            *next += 1;
            if self.visited[k] == self.stamp {
                continue;
            }
            self.visited[k] = self.stamp;
            match self.value_var[k] {
                None => {
                    // Flip the path: each variable on the stack takes the value it reached.
                    via.push(k);
                    for (&(var, _), &value) in stack.iter().zip(&via) {
                        self.var_value[var] = Some(self.values[value]);
                        self.value_var[value] = Some(var);
                    }
                    return true;
                }
                Some(j) => {
                    via.push(k);
                    stack.push((j, 0));
                }
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
        for i in 0..n {
            self.start.push(self.succ.len());
            let matched = self.var_value[i];
            for &k in &self.adjacent[i] {
                if Some(self.values[k]) != matched {
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
