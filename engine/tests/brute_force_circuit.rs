//! Circuit and subcircuit checked against brute force on small random graphs, and their
//! pruning rules on hand-picked cases.
//!
//! For each random instance (n = 1..6 nodes, random sub-domains of the successors that
//! often stray outside the nodes, values removed or fixed after posting so that the
//! propagators and not only the post functions must act, sometimes a random linear
//! constraint beside it):
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - the rules hold at the fixpoint: no chain of fixed arcs that must not close still can
//!   (circuit: any chain of fewer than n nodes; subcircuit: one that leaves out a node
//!   that must be in), and the circuit's graph of domains is strongly connected;
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order.
//!
//! The definitions here walk the successors, written apart from the engine's own ground
//! truth, after MiniZinc's `fzn_circuit.mzn` and `fzn_subcircuit.mzn` (2.6.4): no node of
//! a circuit is its own successor (so one node has no circuit), and a subcircuit may be
//! empty but never holds a single node.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{circuit, linear, subcircuit};
use cpsolve_engine::{Rel, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

mod common;

/// Node of a successor value, if it is one of the `n` nodes.
fn node(v: Val, offset: Val, n: usize) -> Option<usize> {
    usize::try_from(v - offset).ok().filter(|&j| j < n)
}

/// Starting from node 0, the walk along the successors meets every node once and comes
/// back, and no node is its own successor.
fn is_circuit(values: &[Val], offset: Val) -> bool {
    let n = values.len();
    let mut visited = vec![false; n];
    let mut at = 0;
    for _ in 0..n {
        if visited[at] {
            return false;
        }
        visited[at] = true;
        match node(values[at], offset, n) {
            Some(next) if next != at => at = next,
            _ => return false,
        }
    }
    at == 0
}

/// Every node is in (its successor is another node) or out (its own successor); the walk
/// from the first node in meets every node in once, and only them, and comes back.
fn is_subcircuit(values: &[Val], offset: Val) -> bool {
    let n = values.len();
    let Some(succ) = values.iter().map(|&v| node(v, offset, n)).collect::<Option<Vec<usize>>>() else {
        return false;
    };
    let inside: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
    let Some(&first) = inside.first() else {
        return true;
    };
    let mut visited = vec![false; n];
    let mut at = first;
    for _ in 0..inside.len() {
        if visited[at] || succ[at] == at {
            return false;
        }
        visited[at] = true;
        at = succ[at];
    }
    at == first
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Circuit,
    Subcircuit,
}

/// A change made after posting.
#[derive(Debug, Clone, Copy)]
enum Late {
    Remove(usize, Val),
    Fix(usize, Val),
}

#[derive(Debug, Clone)]
struct Model {
    kind: Kind,
    offset: Val,
    domains: Vec<Vec<Val>>,
    late: Vec<Late>,
    /// `Σ coefs·succ ≤ rhs`, when present.
    side: Option<(Vec<i64>, i64)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    fn holds(&self, values: &[Val]) -> bool {
        let graph = match self.kind {
            Kind::Circuit => is_circuit(values, self.offset),
            Kind::Subcircuit => is_subcircuit(values, self.offset),
        };
        graph
            && self
                .side
                .as_ref()
                .is_none_or(|(coefs, rhs)| coefs.iter().zip(values).map(|(&a, &v)| a * v).sum::<i64>() <= *rhs)
    }

    /// The domains once the late changes are made.
    fn final_domains(&self) -> Vec<Vec<Val>> {
        let mut domains = self.domains.clone();
        for &late in &self.late {
            match late {
                Late::Remove(i, v) => domains[i].retain(|&w| w != v),
                Late::Fix(i, v) => domains[i].retain(|&w| w == v),
            }
        }
        domains
    }

    fn brute_force(&self) -> Vec<Vec<Val>> {
        fn walk(m: &Model, domains: &[Vec<Val>], current: &mut Vec<Val>, found: &mut Vec<Vec<Val>>) {
            if current.len() == domains.len() {
                if m.holds(current) {
                    found.push(current.clone());
                }
                return;
            }
            for &v in &domains[current.len()] {
                current.push(v);
                walk(m, domains, current, found);
                current.pop();
            }
        }
        let mut found = Vec::new();
        walk(self, &self.final_domains(), &mut Vec::new(), &mut found);
        found
    }

    fn build(&self) -> (Solver, Vec<VarId>) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = self.domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
        match self.kind {
            Kind::Circuit => circuit(&mut solver, &vars, self.offset),
            Kind::Subcircuit => subcircuit(&mut solver, &vars, self.offset),
        }
        if let Some((coefs, rhs)) = &self.side {
            let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(vars.iter().copied()).collect();
            linear(&mut solver, &terms, Rel::Le, *rhs).expect("small sums");
        }
        for &late in &self.late {
            match late {
                Late::Remove(i, v) => solver.remove(vars[i], v),
                Late::Fix(i, v) => solver.assign(vars[i], v),
            }
        }
        (solver, vars)
    }
}

/// The chains of fixed arcs (first node, last node, number of nodes) and the number of
/// nodes on cycles of fixed arcs, read from the domains. Self-loops are no arcs.
fn fixed_paths(solver: &Solver, vars: &[VarId], offset: Val) -> (Vec<(usize, usize, usize)>, usize) {
    let n = vars.len();
    let next: Vec<Option<usize>> = (0..n)
        .map(|i| {
            let x = vars[i];
            if solver.is_fixed(x) {
                node(solver.min(x), offset, n).filter(|&j| j != i)
            } else {
                None
            }
        })
        .collect();
    let has_pred: Vec<bool> = (0..n).map(|j| next.contains(&Some(j))).collect();
    let mut on_chain = vec![false; n];
    let mut chains = Vec::new();
    for s in (0..n).filter(|&s| !has_pred[s] && next[s].is_some()) {
        let (mut e, mut len) = (s, 1);
        on_chain[s] = true;
        while let Some(j) = next[e] {
            e = j;
            on_chain[e] = true;
            len += 1;
        }
        chains.push((s, e, len));
    }
    let on_cycles = (0..n).filter(|&i| next[i].is_some() && !on_chain[i]).count();
    (chains, on_cycles)
}

/// Whether every node reaches every other in the graph of the domains.
fn strongly_connected(solver: &Solver, vars: &[VarId], offset: Val) -> bool {
    let n = vars.len();
    let reach = |from: usize| {
        let mut seen = vec![false; n];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(i) = stack.pop() {
            for j in solver.values(vars[i]).filter_map(|v| node(v, offset, n)) {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    (0..n).all(|i| reach(i).iter().all(|&s| s))
}

/// The pruning each rule promises, at the fixpoint of a propagation that succeeded.
fn check_rules(m: &Model, solver: &Solver, vars: &[VarId]) -> Result<(), TestCaseError> {
    let n = vars.len();
    let (chains, on_cycles) = fixed_paths(solver, vars, m.offset);
    match m.kind {
        Kind::Circuit => {
            prop_assert!(on_cycles == 0 || on_cycles == n, "a subtour of fixed arcs survived");
            for &(s, e, len) in &chains {
                if len < n {
                    prop_assert!(
                        !solver.contains(vars[e], s as Val + m.offset),
                        "chain {s}..{e} of {len} < {n} nodes can still close"
                    );
                }
            }
            prop_assert!(strongly_connected(solver, vars, m.offset), "the graph of domains is not strongly connected");
        }
        Kind::Subcircuit => {
            let has_pred = |j: usize| {
                (0..n).any(|i| i != j && solver.is_fixed(vars[i]) && solver.min(vars[i]) == j as Val + m.offset)
            };
            let must_in: Vec<usize> =
                (0..n).filter(|&i| has_pred(i) || !solver.contains(vars[i], i as Val + m.offset)).collect();
            for &(s, e, len) in &chains {
                if must_in.len() > len {
                    prop_assert!(
                        !solver.contains(vars[e], s as Val + m.offset),
                        "chain {s}..{e} can still close without the nodes that must be in ({must_in:?})"
                    );
                }
            }
            if on_cycles > 0 {
                prop_assert!(
                    vars.iter().all(|&x| solver.is_fixed(x)),
                    "a cycle of fixed arcs is closed but some node is not fixed out"
                );
            }
        }
    }
    Ok(())
}

fn check(m: &Model) -> Result<(), TestCaseError> {
    let mut expected = m.brute_force();
    let (mut solver, vars) = m.build();
    if !solver.propagate() {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
        return Ok(());
    }
    for (i, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(solver.contains(x, s[i]), "value {} of succ[{i}] was pruned but is in solution {s:?}", s[i]);
        }
    }
    check_rules(m, &solver, &vars)?;
    let found = common::all_solutions(&mut solver, &vars, m.var_order, m.val_order);
    prop_assert!(found.is_some(), "the search stopped early");
    expected.sort();
    prop_assert_eq!(found.unwrap_or_default(), expected);
    Ok(())
}

/// A random subset of the `n + 2` values from `offset - 1` to `offset + n` (one value on
/// each side of the nodes), as a mask, sparse, middling or dense.
fn domain_strategy(n: usize, offset: Val) -> impl Strategy<Value = Vec<Val>> {
    let full = (1u32 << (n + 2)) - 1;
    (0..=full, 0..=full, prop_oneof![1 => Just(0usize), 2 => Just(1), 3 => Just(2)]).prop_map(move |(a, b, density)| {
        // An empty mask falls back on another one, and at last on node 0 alone.
        let mask = [[a & b, a, a | b][density], a, b, 2].into_iter().find(|&m| m != 0).unwrap_or(2);
        (0..n + 2).filter(|k| mask >> k & 1 == 1).map(|k| offset - 1 + k as Val).collect()
    })
}

fn model_strategy(kind: Kind) -> impl Strategy<Value = Model> {
    (1usize..=6, prop_oneof![Just(-3i64), Just(0), Just(1), Just(7)]).prop_flat_map(move |(n, offset)| {
        let late = prop_oneof![
            4 => (0..n, offset - 1..=offset + n as Val).prop_map(|(i, v)| Late::Remove(i, v)),
            1 => (0..n, offset..offset + n as Val).prop_map(|(i, v)| Late::Fix(i, v)),
        ];
        let side = proptest::option::weighted(
            0.25,
            (proptest::collection::vec(-2i64..=2, n), -5i64..30).prop_map(|(c, r)| (c, r)),
        );
        (
            proptest::collection::vec(domain_strategy(n, offset), n),
            proptest::collection::vec(late, 0..3),
            side,
            0..3usize,
            0..4usize,
        )
            .prop_map(move |(domains, late, side, var_order, val_order)| Model {
                kind,
                offset,
                domains,
                late,
                side,
                var_order,
                val_order,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn circuit_is_sound_pruned_and_exact(m in model_strategy(Kind::Circuit)) {
        check(&m)?;
    }

    #[test]
    fn subcircuit_is_sound_pruned_and_exact(m in model_strategy(Kind::Subcircuit)) {
        check(&m)?;
    }
}

fn values(solver: &Solver, x: VarId) -> Vec<Val> {
    solver.values(x).collect()
}

/// `n` successors over the 1-based nodes 1..=n, as MiniZinc passes them.
fn successors(solver: &mut Solver, n: i64) -> Vec<VarId> {
    (0..n).map(|_| solver.new_var(1, n).unwrap()).collect()
}

/// Solutions counted by search, every one checked.
fn count(solver: &mut Solver) -> u128 {
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    solver.search(&config, |_| ControlFlow::Continue(())).solutions
}

#[test]
fn circuit_forbids_closing_a_chain_shorter_than_the_circuit() {
    let mut s = Solver::new();
    let x = successors(&mut s, 5);
    circuit(&mut s, &x, 1);
    assert!(s.propagate());
    // Nodes 1 → 2 → 3. All-different alone would keep 3 → 1 (with 4 → 5 → 4).
    s.assign(x[0], 2);
    s.assign(x[1], 3);
    assert!(s.propagate());
    assert_eq!(values(&s, x[2]), vec![4, 5], "node 3 must not close the chain 1 → 2 → 3");
    assert_eq!(values(&s, x[1]), vec![3]);
    // 1 → 2 → 3 → 4: node 4 may neither close it nor stay, so it goes on to 5, which closes.
    s.assign(x[2], 4);
    assert!(s.propagate());
    assert_eq!((values(&s, x[3]), values(&s, x[4])), (vec![5], vec![1]));
}

#[test]
fn circuit_fails_on_a_closed_subtour_and_counts_hamiltonian_circuits() {
    let mut s = Solver::new();
    let x = successors(&mut s, 4);
    circuit(&mut s, &x, 1);
    s.assign(x[0], 2);
    s.assign(x[1], 1);
    assert!(!s.propagate(), "1 → 2 → 1 is a subtour of 2 < 4 nodes");
    // The complete directed graph on n nodes has (n - 1)! Hamiltonian circuits.
    for (n, expected) in [(1, 0), (2, 1), (3, 2), (4, 6), (5, 24), (6, 120), (7, 720)] {
        let mut s = Solver::new();
        let x = successors(&mut s, n);
        circuit(&mut s, &x, 1);
        assert_eq!(count(&mut s), expected, "n = {n}");
    }
    let mut s = Solver::new();
    circuit(&mut s, &[], 1);
    assert_eq!(count(&mut s), 1, "no nodes: the empty circuit");
}

#[test]
fn circuit_fails_when_the_graph_of_domains_is_not_strongly_connected() {
    // Nodes 4, 5, 6 only lead to each other: a permutation still exists (all-different
    // accepts), but no circuit comes back from them to 1, 2, 3.
    let mut s = Solver::new();
    let x = successors(&mut s, 6);
    circuit(&mut s, &x, 1);
    for &v in &x[3..] {
        for node in 1..=3 {
            s.remove(v, node);
        }
    }
    assert!(!s.propagate(), "nodes 1, 2, 3 cannot be reached from 4, 5, 6");
}

/// The two ways a graph of domains stops being strongly connected, and one that is, on both
/// sides of 64 nodes (where the propagator switches from lists to bit sets).
#[test]
fn strong_connectivity_is_tested_alike_on_bit_sets_and_lists() {
    for n in [6i64, 63, 64, 65, 70] {
        let half = n / 2;
        // The upper half only leads to itself: reached from node 1, but never back to it.
        let mut s = Solver::new();
        let x = successors(&mut s, n);
        circuit(&mut s, &x, 1);
        for &v in &x[half as usize..] {
            for node in 1..=half {
                s.remove(v, node);
            }
        }
        assert!(!s.propagate(), "n = {n}: the upper half cannot lead back");
        // The lower half only leads to itself: the upper half is never reached.
        let mut s = Solver::new();
        let x = successors(&mut s, n);
        circuit(&mut s, &x, 1);
        for &v in &x[..half as usize] {
            for node in half + 1..=n {
                s.remove(v, node);
            }
        }
        assert!(!s.propagate(), "n = {n}: the upper half cannot be reached");
        // A ring with chords to the node after next: strongly connected, nothing to prune
        // but the arcs a chain may not close.
        let mut s = Solver::new();
        let x = successors(&mut s, n);
        circuit(&mut s, &x, 1);
        for (i, &v) in x.iter().enumerate() {
            let (next, after) = ((i as i64 + 1) % n + 1, (i as i64 + 2) % n + 1);
            for node in 1..=n {
                if node != next && node != after {
                    s.remove(v, node);
                }
            }
        }
        assert!(s.propagate(), "n = {n}: a ring with chords has a circuit");
        // Cut the ring's arc into node 1 and the chord that skips over it: nothing enters 1.
        s.remove(x[(n - 1) as usize], 1);
        s.remove(x[(n - 2) as usize], 1);
        assert!(!s.propagate(), "n = {n}: no arc is left into node 1");
    }
}

#[test]
fn subcircuit_closes_a_chain_only_over_every_node_that_must_be_in() {
    // 1 → 2, and nothing else known: closing 2 → 1 is the circuit {1, 2}.
    let mut s = Solver::new();
    let x = successors(&mut s, 4);
    subcircuit(&mut s, &x, 1);
    s.assign(x[0], 2);
    assert!(s.propagate());
    assert!(s.contains(x[1], 1));
    // Node 4 must be in as well: 2 → 1 would leave it out.
    s.remove(x[3], 4);
    assert!(s.propagate());
    assert_eq!(values(&s, x[1]), vec![3, 4], "node 2 must not close 1 → 2 while node 4 is out of it");
}

#[test]
fn subcircuit_closed_cycle_leaves_every_other_node_out() {
    let mut s = Solver::new();
    let x = successors(&mut s, 5);
    subcircuit(&mut s, &x, 1);
    s.assign(x[1], 4);
    s.assign(x[3], 2);
    assert!(s.propagate());
    let all: Vec<Vec<Val>> = x.iter().map(|&v| values(&s, v)).collect();
    assert_eq!(all, vec![vec![1], vec![4], vec![3], vec![2], vec![5]], "2 → 4 → 2 is the circuit");
    // The same cycle with node 5 required in: no solution.
    let mut s = Solver::new();
    let x = successors(&mut s, 5);
    subcircuit(&mut s, &x, 1);
    s.remove(x[4], 5);
    s.assign(x[1], 4);
    s.assign(x[3], 2);
    assert!(!s.propagate());
}

#[test]
fn subcircuit_counts_match_the_number_of_single_cycle_partial_permutations() {
    // An empty subcircuit, plus for each subset of k >= 2 nodes its (k - 1)! cycles:
    // 1 + Σ C(n, k) (k - 1)!, OEIS A002807 shifted by the empty one.
    for (n, expected) in [(0, 1), (1, 1), (2, 2), (3, 6), (4, 21), (5, 85), (6, 410)] {
        let mut s = Solver::new();
        let x = successors(&mut s, n);
        subcircuit(&mut s, &x, 1);
        assert_eq!(count(&mut s), expected, "n = {n}");
    }
}

#[test]
fn successors_too_wide_to_lose_their_self_loop_still_give_exact_circuits() {
    // Domains wider than any bitset keep inner values that removal cannot take out: the
    // self-loop of a middle node stays, and only the propagators' checks exclude it.
    for (sub, n, expected) in [(false, 3, 2), (false, 4, 6), (true, 3, 6), (true, 4, 21)] {
        let mut s = Solver::new();
        let x: Vec<VarId> = (0..n).map(|_| s.new_var(-(1 << 40), 1 << 40).unwrap()).collect();
        if sub {
            subcircuit(&mut s, &x, 0);
        } else {
            circuit(&mut s, &x, 0);
        }
        assert_eq!(count(&mut s), expected, "subcircuit: {sub}, n = {n}");
    }
}
