//! Propagation and search checked against brute force on small random models.
//!
//! For each random constraint over a few variables with small random domains:
//! - soundness: after propagation, every value that takes part in some solution (found by
//!   enumerating every assignment) is still in its domain, and a failed propagation means
//!   there is no solution;
//! - exactness: counting solutions by search gives the brute-force count;
//! - strength: on interval domains, the bounds left by linear `=`/`≤` and bounds
//!   all-different each belong to some solution of the interval relaxation (bounds
//!   consistency).

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::{Consistency, Rel, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Constraint {
    Linear {
        coefs: Vec<i64>,
        rel: Rel,
        rhs: i64,
    },
    /// `Σ coefs·x = rhs` with the domain-consistent propagator.
    LinearDomain {
        coefs: Vec<i64>,
        rhs: i64,
    },
    AllDifferent {
        offsets: Vec<i64>,
        consistency: Consistency,
    },
    /// Non-attacking queens: column i holds the row of its queen.
    Queens,
}

impl Constraint {
    fn holds(&self, values: &[Val]) -> bool {
        match self {
            Constraint::Linear { coefs, rel, rhs } => {
                let sum: i128 = coefs.iter().zip(values).map(|(&a, &v)| a as i128 * v as i128).sum();
                rel.holds(sum, *rhs as i128)
            }
            Constraint::LinearDomain { coefs, rhs } => {
                coefs.iter().zip(values).map(|(&a, &v)| a as i128 * v as i128).sum::<i128>() == *rhs as i128
            }
            Constraint::AllDifferent { offsets, .. } => {
                let shifted: Vec<i64> = values.iter().zip(offsets).map(|(v, o)| v + o).collect();
                (0..shifted.len()).all(|i| (i + 1..shifted.len()).all(|j| shifted[i] != shifted[j]))
            }
            Constraint::Queens => (0..values.len()).all(|i| {
                (i + 1..values.len())
                    .all(|j| values[i] != values[j] && (values[i] - values[j]).unsigned_abs() as usize != j - i)
            }),
        }
    }

    fn post(&self, solver: &mut Solver, vars: &[VarId]) {
        match self {
            Constraint::Linear { coefs, rel, rhs } => {
                let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(vars.iter().copied()).collect();
                linear(solver, &terms, *rel, *rhs).expect("small model cannot overflow");
            }
            Constraint::AllDifferent { offsets, consistency } => all_different(solver, vars, offsets, *consistency),
            Constraint::Queens => cpsolve_engine::constraints::all_different_shifted(solver, vars),
            Constraint::LinearDomain { coefs, rhs } => {
                let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(vars.iter().copied()).collect();
                cpsolve_engine::constraints::linear_eq_domain(solver, &terms, *rhs)
                    .expect("small model cannot overflow");
            }
        }
    }

    fn is_bounds_consistent_kind(&self) -> bool {
        match self {
            Constraint::Linear { rel, .. } => {
                matches!(rel, Rel::Eq | Rel::Le | Rel::Lt | Rel::Ge | Rel::Gt)
            }
            Constraint::AllDifferent { consistency, .. } => *consistency != Consistency::Value,
            Constraint::Queens | Constraint::LinearDomain { .. } => false,
        }
    }
}

/// Every assignment of `domains` that satisfies `c`.
fn solutions(c: &Constraint, domains: &[Vec<Val>]) -> Vec<Vec<Val>> {
    let mut found = Vec::new();
    let mut current = Vec::with_capacity(domains.len());
    fn walk(c: &Constraint, domains: &[Vec<Val>], current: &mut Vec<Val>, found: &mut Vec<Vec<Val>>) {
        if current.len() == domains.len() {
            if c.holds(current) {
                found.push(current.clone());
            }
            return;
        }
        for &v in &domains[current.len()] {
            current.push(v);
            walk(c, domains, current, found);
            current.pop();
        }
    }
    walk(c, domains, &mut current, &mut found);
    found
}

/// Bounds consistency as each propagator promises it: all-different's Hall intervals give
/// integer support (bounds(Z)); linear bounds reasoning gives real-valued support (bounds(R)):
/// the other variables may take any real value within their bounds.
fn has_bound_support(c: &Constraint, bounds: &[(Val, Val)], i: usize, value: Val) -> bool {
    match c {
        Constraint::Queens | Constraint::LinearDomain { .. } => true,
        Constraint::AllDifferent { .. } => {
            let mut domains: Vec<Vec<Val>> = bounds.iter().map(|&(lo, hi)| (lo..=hi).collect()).collect();
            domains[i] = vec![value];
            !solutions(c, &domains).is_empty()
        }
        Constraint::Linear { coefs, rel, rhs } => {
            let (mut lo, mut hi) = (0i128, 0i128);
            for (j, (&a, &(l, h))) in coefs.iter().zip(bounds).enumerate() {
                let (l, h) = if j == i { (value, value) } else { (l, h) };
                let (p, q) = (a as i128 * l as i128, a as i128 * h as i128);
                lo += p.min(q);
                hi += p.max(q);
            }
            let rhs = *rhs as i128;
            match rel {
                Rel::Eq => lo <= rhs && rhs <= hi,
                Rel::Le => lo <= rhs,
                Rel::Lt => lo < rhs,
                Rel::Ge => hi >= rhs,
                Rel::Gt => hi > rhs,
                Rel::Ne => true,
            }
        }
    }
}

/// A linear equality posted with the domain-consistent propagator. Coefficients up to 20
/// make the partial sums span more than 128 and more than 256 values now and then, where the
/// propagator moves from one 128-bit word to two, and from words to rows.
fn domain_linear(n: usize) -> impl Strategy<Value = Constraint> {
    let coef = prop_oneof![3 => -3i64..=3, 1 => 4i64..=20, 1 => -20i64..=-4];
    (proptest::collection::vec(coef, n), -40i64..40).prop_map(|(coefs, rhs)| Constraint::LinearDomain { coefs, rhs })
}

fn rel_strategy() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Eq), Just(Rel::Ne), Just(Rel::Le), Just(Rel::Lt), Just(Rel::Ge), Just(Rel::Gt)]
}

fn domain_strategy(interval: bool) -> BoxedStrategy<Vec<Val>> {
    if interval {
        (-4i64..4, 0i64..5).prop_map(|(lo, w)| (lo..=lo + w).collect()).boxed()
    } else {
        proptest::collection::btree_set(-4i64..5, 1..6).prop_map(|s| s.into_iter().collect()).boxed()
    }
}

fn model_strategy(interval: bool) -> impl Strategy<Value = (Constraint, Vec<Vec<Val>>)> {
    (1usize..5).prop_flat_map(move |n| {
        let domains = proptest::collection::vec(domain_strategy(interval), n);
        let linear = (proptest::collection::vec(-3i64..=3, n), rel_strategy(), -8i64..8)
            .prop_map(|(coefs, rel, rhs)| Constraint::Linear { coefs, rel, rhs });
        let alldiff = (
            proptest::collection::vec(-2i64..=2, n),
            prop_oneof![Just(Consistency::Value), Just(Consistency::Bounds), Just(Consistency::Domain)],
        )
            .prop_map(|(offsets, consistency)| Constraint::AllDifferent { offsets, consistency });
        (prop_oneof![linear, alldiff, domain_linear(n), Just(Constraint::Queens)], domains)
    })
}

fn build(c: &Constraint, domains: &[Vec<Val>]) -> (Solver, Vec<VarId>) {
    let mut solver = Solver::new();
    let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
    c.post(&mut solver, &vars);
    (solver, vars)
}

fn check(c: &Constraint, domains: &[Vec<Val>], interval: bool) -> Result<(), TestCaseError> {
    let expected = solutions(c, domains);
    let (mut solver, vars) = build(c, domains);
    let consistent = solver.propagate();
    if !consistent {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
    } else {
        for (i, &x) in vars.iter().enumerate() {
            for s in &expected {
                prop_assert!(solver.contains(x, s[i]), "value {} of x{i} was pruned but is in solution {s:?}", s[i]);
            }
        }
        let domain_consistent = matches!(
            c,
            Constraint::LinearDomain { .. } | Constraint::AllDifferent { consistency: Consistency::Domain, .. }
        );
        if domain_consistent {
            // Domain consistency: every value left takes part in some solution.
            for (i, &x) in vars.iter().enumerate() {
                for v in solver.values(x) {
                    prop_assert!(expected.iter().any(|s| s[i] == v), "value {v} of x{i} has no support");
                }
            }
        }
        if interval && c.is_bounds_consistent_kind() && !expected.is_empty() {
            // Interval relaxation of the propagated domains: every bound must have support.
            let bounds: Vec<(Val, Val)> = vars.iter().map(|&x| (solver.min(x), solver.max(x))).collect();
            for i in 0..vars.len() {
                for bound in [bounds[i].0, bounds[i].1] {
                    prop_assert!(
                        has_bound_support(c, &bounds, i, bound),
                        "bound {bound} of x{i} has no support in {bounds:?}: not bounds consistent"
                    );
                }
            }
        }
    }
    let mut found: Vec<Vec<Val>> = Vec::new();
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    let outcome = solver.search(&config, |s| {
        found.push(vars.iter().map(|&x| s.value(x)).collect());
        ControlFlow::Continue(())
    });
    prop_assert!(outcome.stopped.is_none());
    found.sort();
    let mut expected = expected;
    expected.sort();
    prop_assert_eq!(found, expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn propagation_is_sound_and_search_exact_on_sparse_domains((c, domains) in model_strategy(false)) {
        check(&c, &domains, false)?;
    }

    #[test]
    fn bounds_reasoning_is_bounds_consistent_on_intervals((c, domains) in model_strategy(true)) {
        check(&c, &domains, true)?;
    }
}

#[test]
fn overflowing_sums_are_rejected_not_wrapped() {
    let mut solver = Solver::new();
    let x = solver.new_var(0, 1 << 59).unwrap();
    let y = solver.new_var(0, 1 << 59).unwrap();
    let err = linear(&mut solver, &[(8, x), (8, y)], Rel::Eq, 0).unwrap_err();
    assert!(err.to_string().contains("overflow"), "{err}");
}

#[test]
fn huge_interval_domains_stay_exact() {
    // x ≠ 500_000_000_000 cannot be stored as a hole in a 10^12-wide range; solutions must
    // still never violate it.
    let mut solver = Solver::new();
    let x = solver.new_var(499_999_999_999, 500_000_000_001).unwrap();
    let y = solver.new_var(0, 1_000_000_000_000).unwrap();
    linear(&mut solver, &[(1, x), (-1, y)], Rel::Eq, 0).unwrap();
    linear(&mut solver, &[(1, y)], Rel::Ne, 500_000_000_000).unwrap();
    let mut values = Vec::new();
    let outcome = solver.search(&SearchConfig::default(), |s| {
        values.push(s.value(x));
        ControlFlow::Continue(())
    });
    assert!(outcome.stopped.is_none());
    assert_eq!(values, vec![499_999_999_999, 500_000_000_001]);
}

/// Several constraints over the same variables: exercises the queue, entailment and the
/// trail across deep backtracking, with every variable order and value order.
fn multi_model_strategy() -> impl Strategy<Value = (Vec<Constraint>, Vec<Vec<Val>>, usize, usize)> {
    (2usize..6).prop_flat_map(|n| {
        let linear = (proptest::collection::vec(-3i64..=3, n), rel_strategy(), -8i64..8)
            .prop_map(|(coefs, rel, rhs)| Constraint::Linear { coefs, rel, rhs });
        let alldiff = (
            proptest::collection::vec(-2i64..=2, n),
            prop_oneof![Just(Consistency::Value), Just(Consistency::Bounds), Just(Consistency::Domain)],
        )
            .prop_map(|(offsets, consistency)| Constraint::AllDifferent { offsets, consistency });
        (
            proptest::collection::vec(prop_oneof![linear, alldiff, domain_linear(n), Just(Constraint::Queens)], 1..4),
            proptest::collection::vec(domain_strategy(false), n),
            0usize..3,
            0usize..4,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn search_counts_equal_brute_force_on_conjunctions((cs, domains, var_order, val_order) in multi_model_strategy()) {
        use cpsolve_engine::{Branching, ValOrder, VarOrder};
        let mut expected = 0u128;
        let mut current = Vec::new();
        fn walk(cs: &[Constraint], domains: &[Vec<Val>], current: &mut Vec<Val>, count: &mut u128) {
            if current.len() == domains.len() {
                if cs.iter().all(|c| c.holds(current)) {
                    *count += 1;
                }
                return;
            }
            for &v in &domains[current.len()] {
                current.push(v);
                walk(cs, domains, current, count);
                current.pop();
            }
        }
        walk(&cs, &domains, &mut current, &mut expected);
        let mut solver = Solver::new();
        let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).unwrap()).collect();
        for c in &cs {
            c.post(&mut solver, &vars);
        }
        let config = SearchConfig {
            branching: vec![Branching {
                vars: vars.clone(),
                var_order: [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg][var_order],
                val_order: [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split][val_order],
            }],
            check_solutions: true,
            ..SearchConfig::default()
        };
        let outcome = solver.search(&config, |s| {
            assert!(cs.iter().all(|c| c.holds(&vars.iter().map(|&x| s.value(x)).collect::<Vec<_>>())));
            ControlFlow::Continue(())
        });
        prop_assert_eq!(outcome.solutions, expected);
        // Counting only (dedicated counting algorithms may take over subtrees) agrees.
        let counted = solver.search(&SearchConfig { count_only: true, ..config.clone() }, |_| ControlFlow::Continue(()));
        prop_assert_eq!(counted.solutions, expected);
        // The solver is back at its root state: a second search finds the same count.
        let mut sequential: Vec<Vec<Val>> = Vec::new();
        let again = solver.search(&config, |s| {
            sequential.push(vars.iter().map(|&x| s.value(x)).collect());
            ControlFlow::Continue(())
        });
        prop_assert_eq!(again.solutions, expected);
        // Splitting partitions the tree: solving the parts in fresh solvers, one after the
        // other, gives exactly the sequential solutions in the sequential order.
        for target in [1usize, 3, 8] {
            // Splitting a counting configuration must list the same parts.
            let counting = SearchConfig { count_only: target == 3, ..config.clone() };
            let parts = solver.split(&counting, target);
            let mut joined: Vec<Vec<Val>> = Vec::new();
            for part in &parts {
                let mut worker = Solver::new();
                let wvars: Vec<VarId> = domains.iter().map(|d| worker.new_var_in(d).unwrap()).collect();
                for c in &cs {
                    c.post(&mut worker, &wvars);
                }
                if worker.apply(part) {
                    let _ = worker.search(&config, |s| {
                        joined.push(wvars.iter().map(|&x| s.value(x)).collect());
                        ControlFlow::Continue(())
                    });
                }
            }
            if config.is_history_free() {
                prop_assert_eq!(&joined, &sequential, "split into {} parts for target {}", parts.len(), target);
            } else {
                // dom/wdeg learns from failures, so fresh solvers may order solutions
                // differently: the same solutions all the same.
                let (mut a, mut b) = (joined.clone(), sequential.clone());
                a.sort();
                b.sort();
                prop_assert_eq!(a, b);
            }
        }
    }
}

/// The queens constraint's bitboard counter against OEIS A000170, on full boards (where the
/// mirror halves the work) and after a first queen is placed (where it cannot).
#[test]
fn queens_counts_match_oeis_with_and_without_the_mirror() {
    let a000170: [u128; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for (i, &expected) in a000170.iter().enumerate() {
        let n = i as i64 + 1;
        let mut solver = Solver::new();
        let vars: Vec<VarId> = (0..n).map(|_| solver.new_var(1, n).unwrap()).collect();
        cpsolve_engine::constraints::all_different_shifted(&mut solver, &vars);
        let config = SearchConfig { count_only: true, ..SearchConfig::default() };
        assert_eq!(solver.search(&config, |_| ControlFlow::Continue(())).solutions, expected, "n = {n}");
        let by_search = solver.search(&SearchConfig::default(), |_| ControlFlow::Continue(()));
        assert_eq!(by_search.solutions, expected, "n = {n} by search");
        // Every first row in turn: the parts add up.
        let mut total = 0;
        for row in 1..=n {
            let mut part = Solver::new();
            let pvars: Vec<VarId> = (0..n).map(|_| part.new_var(1, n).unwrap()).collect();
            cpsolve_engine::constraints::all_different_shifted(&mut part, &pvars);
            part.assign(pvars[0], row);
            total += part.search(&config, |_| ControlFlow::Continue(())).solutions;
        }
        assert_eq!(total, expected, "n = {n} by first row");
    }
}

/// The count on full boards up to n = 14 (the counter by the 8 symmetries of the square
/// from n = 6 on), against OEIS A000170.
#[test]
fn queens_counts_on_full_boards_up_to_14_match_oeis() {
    let a000170: [u128; 14] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596];
    for (i, &expected) in a000170.iter().enumerate() {
        let n = i as i64 + 1;
        let mut solver = Solver::new();
        let vars: Vec<VarId> = (0..n).map(|_| solver.new_var(1, n).unwrap()).collect();
        cpsolve_engine::constraints::all_different_shifted(&mut solver, &vars);
        let config = SearchConfig { count_only: true, ..SearchConfig::default() };
        assert_eq!(solver.search(&config, |_| ControlFlow::Continue(())).solutions, expected, "n = {n}");
    }
}

/// Random domains (sometimes symmetric about the middle row, sometimes the full board,
/// sometimes with more rows than columns), for the queens counter.
fn queens_domains_strategy() -> impl Strategy<Value = Vec<Vec<Val>>> {
    (1usize..10, 0usize..3, 0u8..4).prop_flat_map(|(n, extra, kind)| {
        let width = (n + extra) as i64;
        let column = proptest::collection::btree_set(1..=width, 1..=width as usize);
        proptest::collection::vec(column, n).prop_map(move |sets| {
            sets.into_iter()
                .map(|set| match kind {
                    0 => (1..=width).collect(),
                    1 => {
                        let mut values: Vec<Val> = set.iter().flat_map(|&v| [v, width + 1 - v]).collect();
                        values.sort_unstable();
                        values.dedup();
                        values
                    }
                    _ => set.into_iter().collect(),
                })
                .collect()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// The queens counter (on the whole problem, as `count_only` hands it over at the root)
    /// against listing the solutions by search.
    #[test]
    fn queens_counter_equals_search_on_random_domains(domains in queens_domains_strategy()) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).unwrap()).collect();
        cpsolve_engine::constraints::all_different_shifted(&mut solver, &vars);
        let listed = solver.search(&SearchConfig { check_solutions: true, ..SearchConfig::default() }, |s| {
            let q: Vec<Val> = vars.iter().map(|&x| s.value(x)).collect();
            assert!(Constraint::Queens.holds(&q), "{q:?}");
            ControlFlow::Continue(())
        });
        let counted = solver.search(&SearchConfig { count_only: true, ..SearchConfig::default() }, |_| {
            ControlFlow::Continue(())
        });
        prop_assert_eq!(counted.solutions, listed.solutions);
    }
}

/// A count too long to finish stops at the time limit, on a full board (the count by
/// symmetries) and with a first queen placed (the plain counter).
#[test]
fn a_long_queens_count_stops_at_the_time_limit() {
    for fixed in [None, Some(2)] {
        let n = 24;
        let mut solver = Solver::new();
        let vars: Vec<VarId> = (0..n).map(|_| solver.new_var(1, n).unwrap()).collect();
        cpsolve_engine::constraints::all_different_shifted(&mut solver, &vars);
        if let Some(row) = fixed {
            solver.assign(vars[0], row);
        }
        let limits = cpsolve_engine::Limits { time: Some(std::time::Duration::from_millis(50)), ..Default::default() };
        let config = SearchConfig { count_only: true, limits, ..SearchConfig::default() };
        let start = std::time::Instant::now();
        let outcome = solver.search(&config, |_| ControlFlow::Continue(()));
        assert!(outcome.stopped.is_some(), "fixed = {fixed:?}");
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "fixed = {fixed:?}: {:?}", start.elapsed());
    }
}

/// Domain-consistent all-different over values spread wider than 64 (the matching then
/// takes its general path, strongly connected components, instead of the 64-bit one).
fn spread_alldifferent_strategy() -> impl Strategy<Value = (Constraint, Vec<Vec<Val>>)> {
    (2usize..7).prop_flat_map(|n| {
        let domains = proptest::collection::vec(
            proptest::collection::btree_set(-4i64..6, 1..6).prop_map(|s| s.into_iter().map(|v| v * 30).collect()),
            n,
        );
        let offsets = proptest::collection::vec(prop_oneof![Just(-30i64), Just(0), Just(30)], n);
        (offsets.prop_map(|offsets| Constraint::AllDifferent { offsets, consistency: Consistency::Domain }), domains)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn domain_alldifferent_over_wide_values_is_domain_consistent((c, domains) in spread_alldifferent_strategy()) {
        check(&c, &domains, false)?;
    }
}
