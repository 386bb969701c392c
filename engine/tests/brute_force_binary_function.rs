//! `z = f(x, y)` for closures (truncating division and remainder, power, a partial
//! function) checked against brute force on small random models: no solution is ever
//! pruned, search finds exactly the solutions, and with `x`, `y`, `z` distinct no
//! unsupported value is left (domain consistency). Positions are picked with repeats, so
//! `f(x, x)` and `x = f(x, y)` are exercised too. Domains too large for pair enumeration
//! are checked on a fixed model.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::binary_function;
use cpsolve_engine::{Branching, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy)]
enum Fun {
    /// Rounds toward zero; undefined for a zero divisor.
    Div,
    /// Has the sign of the dividend; undefined for a zero divisor.
    Mod,
    /// Undefined for a negative exponent unless the base is 1 or -1.
    Pow,
    /// `x · y`, defined only when `x + y` is even.
    EvenProduct,
}

impl Fun {
    /// The closure handed to the engine, with checked arithmetic.
    fn closure(self) -> fn(Val, Val) -> Option<Val> {
        match self {
            Fun::Div => |x, y| x.checked_div(y),
            Fun::Mod => |x, y| x.checked_rem(y),
            Fun::Pow => |x, y| match (x, y) {
                (1, _) => Some(1),
                (-1, _) => Some(if y % 2 == 0 { 1 } else { -1 }),
                (_, y) if y < 0 => None,
                (x, y) => x.checked_pow(u32::try_from(y).ok()?),
            },
            Fun::EvenProduct => |x, y| ((x + y) % 2 == 0).then(|| x * y),
        }
    }

    /// The definition, written apart from the closure: is `z = f(x, y)`?
    fn holds(self, x: Val, y: Val, z: Val) -> bool {
        match self {
            Fun::Div => {
                y != 0 && {
                    // The integer of largest magnitude not beyond the real quotient.
                    let q = (x.abs() / y.abs()) * if (x < 0) == (y < 0) { 1 } else { -1 };
                    z == q
                }
            }
            Fun::Mod => y != 0 && z == x - y * (x / y) && (z == 0 || (z < 0) == (x < 0)),
            Fun::Pow => {
                if y < 0 {
                    (x == 1 && z == 1) || (x == -1 && z == if y % 2 == 0 { 1 } else { -1 })
                } else {
                    z == (0..y).fold(1i64, |p, _| p * x)
                }
            }
            Fun::EvenProduct => (x + y).rem_euclid(2) == 0 && z == x * y,
        }
    }
}

/// `x[on[2]] = f(x[on[0]], x[on[1]])`
#[derive(Debug, Clone)]
struct Posted {
    f: Fun,
    on: [usize; 3],
}

impl Posted {
    fn holds(&self, v: &[Val]) -> bool {
        self.f.holds(v[self.on[0]], v[self.on[1]], v[self.on[2]])
    }

    fn post(&self, solver: &mut Solver, vars: &[VarId]) {
        let [x, y, z] = self.on.map(|i| vars[i]);
        binary_function(solver, x, y, z, self.f.closure(), "f").expect("small");
    }

    fn distinct(&self) -> bool {
        let [a, b, c] = self.on;
        a != b && b != c && a != c
    }
}

fn posted_strategy(n: usize) -> impl Strategy<Value = Posted> {
    let f = prop_oneof![Just(Fun::Div), Just(Fun::Mod), Just(Fun::Pow), Just(Fun::EvenProduct)];
    (f, [0..n, 0..n, 0..n]).prop_map(|(f, on)| Posted { f, on })
}

fn domain_strategy() -> BoxedStrategy<Vec<Val>> {
    proptest::collection::btree_set(-4i64..6, 1..7).prop_map(|s| s.into_iter().collect()).boxed()
}

/// A model: constraints, domains, values removed once they are posted (so that the
/// propagators, not only the post functions, must prune), a variable order and a value
/// order.
type Model = (Vec<Posted>, Vec<Vec<Val>>, Vec<(usize, Val)>, usize, usize);

fn model_strategy(max_constraints: usize) -> impl Strategy<Value = Model> {
    (3usize..6).prop_flat_map(move |n| {
        (
            proptest::collection::vec(posted_strategy(n), 1..=max_constraints),
            proptest::collection::vec(domain_strategy(), n),
            proptest::collection::vec((0..n, -4i64..6), 0..4),
            0usize..3,
            0usize..4,
        )
    })
}

fn brute_force(cs: &[Posted], domains: &[Vec<Val>]) -> Vec<Vec<Val>> {
    fn walk(cs: &[Posted], domains: &[Vec<Val>], current: &mut Vec<Val>, found: &mut Vec<Vec<Val>>) {
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
        if c.distinct() {
            for i in c.on {
                for v in solver.values(vars[i]) {
                    prop_assert!(expected.iter().any(|s| s[i] == v), "value {v} of x{i} has no support");
                }
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
    fn one_function_is_sound_exact_and_supported(model in model_strategy(1)) {
        check(&model)?;
    }

    #[test]
    fn conjunctions_search_exactly(model in model_strategy(3)) {
        check(&model)?;
    }
}

/// Above the pair limit the propagator waits, and the search still finds exactly the
/// solutions: `z = x mod y` with 601 values for `x` and `y` (361,201 pairs).
#[test]
fn large_domains_wait_then_search_exactly() {
    let mut solver = Solver::new();
    let x = solver.new_var(-300, 300).unwrap();
    let y = solver.new_var(-300, 300).unwrap();
    let z = solver.new_var_in(&[7, 13, 500]).unwrap();
    binary_function(&mut solver, x, y, z, Fun::Mod.closure(), "mod").unwrap();
    assert!(solver.propagate());
    assert_eq!((solver.size(x), solver.size(y), solver.size(z)), (601, 601, 3), "nothing is pruned above the limit");
    let mut expected: Vec<(Val, Val, Val)> = Vec::new();
    for vx in -300..=300 {
        for vy in -300..=300 {
            for vz in [7, 13, 500] {
                if Fun::Mod.holds(vx, vy, vz) {
                    expected.push((vx, vy, vz));
                }
            }
        }
    }
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    let mut found = Vec::new();
    let outcome = solver.search(&config, |s| {
        found.push((s.value(x), s.value(y), s.value(z)));
        ControlFlow::Continue(())
    });
    assert!(outcome.stopped.is_none());
    found.sort_unstable();
    assert_eq!(found, expected);
}
