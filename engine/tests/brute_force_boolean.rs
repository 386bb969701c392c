//! The propagators of Boolean structure (clauses, parity and its elimination over systems,
//! half-reified linear relations, reified membership) checked against brute force on small random models: no solution
//! is ever pruned, search finds exactly the solutions, the domain-consistent ones leave no
//! unsupported value, and a half-reified relation that the bounds refute sets its control
//! to 0.
//!
//! Variables are picked with repeats (a clause may hold `x` and `¬x`, a parity `x` twice,
//! a control may appear in its own sum), and domains are often wider than 0..1, so the post
//! functions' simplifications and restrictions are exercised as much as the propagators.
//! Conjunctions with every variable and value order exercise the watches across deep
//! backtracking.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{clause, half_reified_linear, parity, parity_elimination, reified_in};
use cpsolve_engine::{Branching, Rel, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};
use proptest::prelude::*;

/// A constraint over the model's variables, named by position.
#[derive(Debug, Clone)]
enum Constraint {
    /// Some `x[pos]` is 1 or some `x[neg]` is 0.
    Clause { pos: Vec<usize>, neg: Vec<usize> },
    /// The number of entries of `xs` (repeats count) whose variable is 1 is odd / even.
    Parity { xs: Vec<usize>, odd: bool },
    /// Parity equations eliminated together, and each posted alone as well unless
    /// `alone` (the elimination then enforces them by itself).
    Parities { equations: Vec<(Vec<usize>, bool)>, alone: bool },
    /// `x[b] = 1 → Σ a·x[i] ⋈ rhs`
    HalfLinear { b: usize, terms: Vec<(i64, usize)>, rel: Rel, rhs: i64 },
    /// `x[b] ⇔ x[x] ∈ set`, or `→` when `half`.
    In { b: usize, x: usize, set: Vec<Val>, half: bool },
}

fn is_bool(v: Val) -> bool {
    v == 0 || v == 1
}

impl Constraint {
    fn holds(&self, v: &[Val]) -> bool {
        match self {
            Constraint::Clause { pos, neg } => {
                pos.iter().chain(neg).all(|&i| is_bool(v[i]))
                    && (pos.iter().any(|&i| v[i] == 1) || neg.iter().any(|&i| v[i] == 0))
            }
            Constraint::Parity { xs, odd } => {
                xs.iter().all(|&i| is_bool(v[i])) && (xs.iter().filter(|&&i| v[i] == 1).count() % 2 == 1) == *odd
            }
            Constraint::Parities { equations, .. } => {
                equations.iter().all(|(xs, odd)| Constraint::Parity { xs: xs.clone(), odd: *odd }.holds(v))
            }
            Constraint::HalfLinear { b, terms, rel, rhs } => {
                let sum: i128 = terms.iter().map(|&(a, i)| a as i128 * v[i] as i128).sum();
                is_bool(v[*b]) && (v[*b] == 0 || rel.holds(sum, *rhs as i128))
            }
            Constraint::In { b, x, set, half } => {
                let member = set.contains(&v[*x]);
                is_bool(v[*b]) && if *half { v[*b] == 0 || member } else { (v[*b] == 1) == member }
            }
        }
    }

    fn post(&self, solver: &mut Solver, vars: &[VarId]) {
        let pick = |is: &[usize]| is.iter().map(|&i| vars[i]).collect::<Vec<_>>();
        match self {
            Constraint::Clause { pos, neg } => clause(solver, &pick(pos), &pick(neg)),
            Constraint::Parity { xs, odd } => parity(solver, &pick(xs), *odd),
            Constraint::Parities { equations, alone } => {
                let equations: Vec<(Vec<VarId>, bool)> = equations.iter().map(|(xs, odd)| (pick(xs), *odd)).collect();
                for (xs, odd) in equations.iter().filter(|_| !alone) {
                    parity(solver, xs, *odd);
                }
                assert!(parity_elimination(solver, &equations), "a small system is eliminated");
            }
            Constraint::HalfLinear { b, terms, rel, rhs } => {
                let terms: Vec<(i64, VarId)> = terms.iter().map(|&(a, i)| (a, vars[i])).collect();
                half_reified_linear(solver, vars[*b], &terms, *rel, *rhs).expect("small");
            }
            Constraint::In { b, x, set, half } => reified_in(solver, vars[*b], vars[*x], set, *half),
        }
    }

    /// The positions it constrains.
    fn on(&self) -> Vec<usize> {
        match self {
            Constraint::Clause { pos, neg } => pos.iter().chain(neg).copied().collect(),
            Constraint::Parity { xs, .. } => xs.clone(),
            Constraint::Parities { equations, .. } => equations.iter().flat_map(|e| e.0.clone()).collect(),
            Constraint::HalfLinear { b, terms, .. } => std::iter::once(*b).chain(terms.iter().map(|t| t.1)).collect(),
            Constraint::In { b, x, .. } => vec![*b, *x],
        }
    }

    /// Whether its propagator promises that every value left has a support.
    fn domain_consistent(&self) -> bool {
        match self {
            // The equations one by one are not, together: their elimination is.
            Constraint::Clause { .. } | Constraint::Parity { .. } | Constraint::Parities { .. } => true,
            // With b = x, membership of x and the value of b are one variable: the rules
            // reason on them apart.
            Constraint::In { b, x, .. } => b != x,
            Constraint::HalfLinear { .. } => false,
        }
    }
}

/// `b → Σ ⋈ rhs` must have set `b` to 0 when the current domains refute the relation:
/// on their bounds (each term alone), or, for `=`, on the domain of the one variable left.
fn refuted(terms: &[(i64, usize)], rel: Rel, rhs: i64, solver: &Solver, vars: &[VarId]) -> bool {
    let (mut lo, mut hi) = (0i128, 0i128);
    for &(a, i) in terms {
        let (p, q) = (a as i128 * solver.min(vars[i]) as i128, a as i128 * solver.max(vars[i]) as i128);
        lo += p.min(q);
        hi += p.max(q);
    }
    let rhs128 = rhs as i128;
    let mut free: Vec<usize> = terms.iter().map(|t| t.1).filter(|&i| !solver.is_fixed(vars[i])).collect();
    free.sort_unstable();
    free.dedup();
    match rel {
        Rel::Le => lo > rhs128,
        Rel::Lt => lo >= rhs128,
        Rel::Ge => hi < rhs128,
        Rel::Gt => hi <= rhs128,
        Rel::Ne => lo == hi && lo == rhs128,
        Rel::Eq => {
            let one_left = |f: usize| {
                !solver.values(vars[f]).any(|v| {
                    let sum: i128 = terms
                        .iter()
                        .map(|&(a, i)| a as i128 * if i == f { v } else { solver.min(vars[i]) } as i128)
                        .sum();
                    sum == rhs128
                })
            };
            rhs128 < lo || rhs128 > hi || (free.len() == 1 && one_left(free[0]))
        }
    }
}

fn rel_strategy() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Eq), Just(Rel::Ne), Just(Rel::Le), Just(Rel::Lt), Just(Rel::Ge), Just(Rel::Gt)]
}

/// Mostly 0/1 domains (sometimes fixed), sometimes wider ones that posting must narrow.
fn domain_strategy() -> BoxedStrategy<Vec<Val>> {
    prop_oneof![
        3 => proptest::collection::btree_set(0i64..2, 1..=2),
        2 => proptest::collection::btree_set(-2i64..4, 1..5),
    ]
    .prop_map(|s| s.into_iter().collect())
    .boxed()
}

fn constraint_strategy(n: usize) -> BoxedStrategy<Constraint> {
    let at = move || 0..n;
    let clause = (proptest::collection::vec(at(), 0..4), proptest::collection::vec(at(), 0..3))
        .prop_map(|(pos, neg)| Constraint::Clause { pos, neg });
    let parity =
        (proptest::collection::vec(at(), 0..6), any::<bool>()).prop_map(|(xs, odd)| Constraint::Parity { xs, odd });
    let half_linear = (at(), proptest::collection::vec((-3i64..=3, at()), 1..4), rel_strategy(), -6i64..6)
        .prop_map(|(b, terms, rel, rhs)| Constraint::HalfLinear { b, terms, rel, rhs });
    let member = (at(), at(), proptest::collection::vec(-3i64..5, 0..6), any::<bool>())
        .prop_map(|(b, x, set, half)| Constraint::In { b, x, set, half });
    let parities =
        (proptest::collection::vec((proptest::collection::vec(at(), 0..6), any::<bool>()), 2..5), any::<bool>())
            .prop_map(|(equations, alone)| Constraint::Parities { equations, alone });
    prop_oneof![clause, parity, parities, half_linear, member].boxed()
}

/// A model: constraints, domains, values removed once they are posted (so that the
/// propagators, not only the post functions, must prune), a variable order and a value
/// order.
type Model = (Vec<Constraint>, Vec<Vec<Val>>, Vec<(usize, Val)>, usize, usize);

fn model_strategy(max_constraints: usize) -> impl Strategy<Value = Model> {
    (2usize..7).prop_flat_map(move |n| {
        (
            proptest::collection::vec(constraint_strategy(n), 1..=max_constraints),
            proptest::collection::vec(domain_strategy(), n),
            proptest::collection::vec((0..n, -2i64..4), 0..4),
            0usize..3,
            0usize..4,
        )
    })
}

fn brute_force(cs: &[Constraint], domains: &[Vec<Val>]) -> Vec<Vec<Val>> {
    fn walk(cs: &[Constraint], domains: &[Vec<Val>], current: &mut Vec<Val>, found: &mut Vec<Vec<Val>>) {
        if current.len() == domains.len() {
            if cs.iter().all(|c| c.holds(current)) {
                found.push(current.clone());
            }
            return;
        }
        for &v in &domains[current.len()] {
            current.push(v);
            walk(cs, domains, current, found);
            current.pop();
        }
    }
    let mut found = Vec::new();
    walk(cs, domains, &mut Vec::new(), &mut found);
    found
}

fn check((cs, domains, late, var_order, val_order): &Model) -> Result<(), TestCaseError> {
    let restricted: Vec<Vec<Val>> = domains
        .iter()
        .enumerate()
        .map(|(i, d)| d.iter().copied().filter(|&v| !late.contains(&(i, v))).collect())
        .collect();
    let mut expected = brute_force(cs, &restricted);
    let mut solver = Solver::new();
    let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
    for c in cs {
        c.post(&mut solver, &vars);
    }
    for &(i, v) in late {
        solver.remove(vars[i], v);
    }
    if !solver.propagate() {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
        return Ok(());
    }
    for (i, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(solver.contains(x, s[i]), "value {} of x{i} was pruned but is in solution {s:?}", s[i]);
        }
    }
    if let [c] = cs.as_slice() {
        if c.domain_consistent() {
            for i in c.on() {
                for v in solver.values(vars[i]) {
                    prop_assert!(expected.iter().any(|s| s[i] == v), "value {v} of x{i} has no support");
                }
            }
        }
        if let Constraint::HalfLinear { b, terms, rel, rhs } = c {
            if refuted(terms, *rel, *rhs, &solver, &vars) {
                prop_assert!(!solver.contains(vars[*b], 1), "the relation is refuted but b may still be 1");
            }
        }
    }
    let var_order = [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg][*var_order];
    let val_order = [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split][*val_order];
    let config = SearchConfig {
        branching: vec![Branching { vars: vars.clone(), var_order, val_order }],
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut found: Vec<Vec<Val>> = Vec::new();
    let outcome = solver.search(&config, |s| {
        found.push(vars.iter().map(|&x| s.value(x)).collect());
        ControlFlow::Continue(())
    });
    prop_assert!(outcome.stopped.is_none());
    found.sort();
    expected.sort();
    prop_assert_eq!(found, expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn one_constraint_is_sound_exact_and_supported(model in model_strategy(1)) {
        check(&model)?;
    }

    #[test]
    fn conjunctions_search_exactly(model in model_strategy(6)) {
        check(&model)?;
    }
}
