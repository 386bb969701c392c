//! The propagators behind non-linear expressions (reified linear relations, element,
//! min/max, products, functions by their graph, tables) checked against brute force on
//! small random models: no solution is ever pruned, search finds exactly the solutions,
//! and the domain-consistent ones (table, function) leave no unsupported value.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{element, extremum, function, reified_linear, table, times};
use cpsolve_engine::{Branching, Rel, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};
use proptest::prelude::*;

/// A constraint over some of the model's variables (`on` lists them by position).
#[derive(Debug, Clone)]
enum Constraint {
    /// `x[on[0]] ⇔ Σ coefs·x[on[1..]] ⋈ rhs`
    Reified {
        coefs: Vec<i64>,
        rel: Rel,
        rhs: i64,
    },
    /// `x[on[1]] = x[on[2..]][x[on[0]]]`
    Element,
    /// `x[on[0]] = max/min(x[on[1..]])`
    Extremum {
        is_max: bool,
    },
    /// `x[on[2]] = x[on[0]] · x[on[1]]`
    Times,
    /// `x[on[1]] = f(x[on[0]])`
    Function {
        f: Fun,
    },
    Table {
        tuples: Vec<Vec<Val>>,
    },
}

#[derive(Debug, Clone, Copy)]
enum Fun {
    Abs,
    Div2,
    Mod3,
    Square,
}

impl Fun {
    fn apply(self, v: Val) -> Option<Val> {
        Some(match self {
            Fun::Abs => v.abs(),
            Fun::Div2 => v / 2,
            Fun::Mod3 => v % 3,
            Fun::Square => v * v,
        })
    }
}

#[derive(Debug, Clone)]
struct Posted {
    c: Constraint,
    on: Vec<usize>,
}

impl Posted {
    fn holds(&self, all: &[Val]) -> bool {
        let v: Vec<Val> = self.on.iter().map(|&i| all[i]).collect();
        match &self.c {
            Constraint::Reified { coefs, rel, rhs } => {
                let sum: i128 = coefs.iter().zip(&v[1..]).map(|(&a, &x)| a as i128 * x as i128).sum();
                (v[0] == 0 || v[0] == 1) && (v[0] == 1) == rel.holds(sum, *rhs as i128)
            }
            Constraint::Element => {
                let array = &v[2..];
                usize::try_from(v[0]).ok().and_then(|p| array.get(p)).is_some_and(|&a| a == v[1])
            }
            Constraint::Extremum { is_max } => {
                let rest = v[1..].iter().copied();
                Some(v[0]) == if *is_max { rest.max() } else { rest.min() }
            }
            Constraint::Times => v[0] * v[1] == v[2],
            Constraint::Function { f } => f.apply(v[0]) == Some(v[1]),
            Constraint::Table { tuples } => tuples.contains(&v),
        }
    }

    fn post(&self, solver: &mut Solver, vars: &[VarId]) {
        let x: Vec<VarId> = self.on.iter().map(|&i| vars[i]).collect();
        match &self.c {
            Constraint::Reified { coefs, rel, rhs } => {
                let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(x[1..].iter().copied()).collect();
                reified_linear(solver, x[0], &terms, *rel, *rhs).expect("small");
            }
            Constraint::Element => element(solver, x[0], &x[2..], x[1]),
            Constraint::Extremum { is_max } => extremum(solver, x[0], &x[1..], *is_max),
            Constraint::Times => times(solver, x[0], x[1], x[2]).expect("small"),
            Constraint::Function { f } => {
                let f = *f;
                function(solver, x[0], x[1], move |v| f.apply(v), "f").expect("small");
            }
            Constraint::Table { tuples } => table(solver, &x, tuples),
        }
    }

    fn domain_consistent(&self) -> bool {
        matches!(self.c, Constraint::Table { .. } | Constraint::Function { .. })
    }
}

fn rel_strategy() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Eq), Just(Rel::Ne), Just(Rel::Le), Just(Rel::Lt), Just(Rel::Ge), Just(Rel::Gt)]
}

fn domain_strategy() -> BoxedStrategy<Vec<Val>> {
    proptest::collection::btree_set(-4i64..5, 1..6).prop_map(|s| s.into_iter().collect()).boxed()
}

/// A constraint over `n` variables (positions chosen among `vars` variables).
fn constraint_strategy(vars: usize) -> BoxedStrategy<Posted> {
    let on = move |k: usize| proptest::sample::subsequence((0..vars).collect::<Vec<_>>(), k).prop_shuffle();
    let reified = (2..=vars.min(4))
        .prop_flat_map(move |k| (on(k), proptest::collection::vec(-3i64..=3, k - 1), rel_strategy(), -6i64..6))
        .prop_map(|(on, coefs, rel, rhs)| Posted { c: Constraint::Reified { coefs, rel, rhs }, on });
    let element = (3..=vars).prop_flat_map(on).prop_map(|on| Posted { c: Constraint::Element, on });
    let extremum = (2..=vars, any::<bool>())
        .prop_flat_map(move |(k, is_max)| (on(k), Just(is_max)))
        .prop_map(|(on, is_max)| Posted { c: Constraint::Extremum { is_max }, on });
    let times = on(3).prop_map(|on| Posted { c: Constraint::Times, on });
    let fun = prop_oneof![Just(Fun::Abs), Just(Fun::Div2), Just(Fun::Mod3), Just(Fun::Square)];
    let function = (on(2), fun).prop_map(|(on, f)| Posted { c: Constraint::Function { f }, on });
    let table = (1..=vars.min(3))
        .prop_flat_map(move |k| (on(k), proptest::collection::vec(proptest::collection::vec(-4i64..5, k), 0..8)))
        .prop_map(|(on, tuples)| Posted { c: Constraint::Table { tuples }, on });
    prop_oneof![reified, element, extremum, times, function, table].boxed()
}

fn model_strategy(max_constraints: usize) -> impl Strategy<Value = (Vec<Posted>, Vec<Vec<Val>>, usize, usize)> {
    (3usize..6).prop_flat_map(move |n| {
        (
            proptest::collection::vec(constraint_strategy(n), 1..=max_constraints),
            proptest::collection::vec(domain_strategy(), n),
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

fn check(cs: &[Posted], domains: &[Vec<Val>], var_order: usize, val_order: usize) -> Result<(), TestCaseError> {
    let mut expected = brute_force(cs, domains);
    let mut solver = Solver::new();
    let vars: Vec<VarId> = domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
    for c in cs {
        c.post(&mut solver, &vars);
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
    if let [c] = cs {
        if let Constraint::Element = c.c {
            // The element rule at its fixpoint: every index left names a cell that can still
            // equal the result, and a fixed index makes the cell and the result one domain.
            let (index, result, cells) = (vars[c.on[0]], vars[c.on[1]], &c.on[2..]);
            for p in solver.values(index).collect::<Vec<_>>() {
                let cell = vars[cells[p as usize]];
                prop_assert!(
                    solver.values(cell).any(|v| solver.contains(result, v)),
                    "index {p} stays but its cell shares no value with the result"
                );
            }
            if let Some(p) = solver.is_fixed(index).then(|| solver.min(index)) {
                let cell = vars[cells[p as usize]];
                let (a, b): (Vec<Val>, Vec<Val>) = (solver.values(cell).collect(), solver.values(result).collect());
                prop_assert_eq!(a, b, "the index is fixed: cell and result keep the same values");
            }
        }
        if c.domain_consistent() {
            let alone = brute_force(std::slice::from_ref(c), domains);
            for &i in &c.on {
                for v in solver.values(vars[i]) {
                    prop_assert!(alone.iter().any(|s| s[i] == v), "value {v} of x{i} has no support");
                }
            }
        }
    }
    let var_order = [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg][var_order];
    let val_order = [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split][val_order];
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
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn one_constraint_is_sound_exact_and_supported((cs, domains, var_order, val_order) in model_strategy(1)) {
        check(&cs, &domains, var_order, val_order)?;
    }

    #[test]
    fn conjunctions_search_exactly((cs, domains, var_order, val_order) in model_strategy(4)) {
        check(&cs, &domains, var_order, val_order)?;
    }
}
