//! `z = |x|` and `z = x div k` on domains too wide to tabulate (more than
//! `SMALL_FUNCTION_DOMAIN` values, so `abs` posts the `Abs` propagator and
//! `div_by_constant` posts `Monotone`, through an auxiliary `-x` when `k < 0`), checked
//! against brute force on random models: no value of a solution is pruned at the root,
//! search finds exactly the solutions, and a single constraint over intervals leaves
//! bounds that each take part in a solution (bounds consistency).
//!
//! The domains hold thousands of values (up to 2^60 in magnitude in the last test), so
//! every model restricts some variable to a small window, or fixes it, and the brute force
//! enumerates `x` alone (the other variables are functions of it). The definitions are
//! written here in `i128`, apart from the engine's closures.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{abs, div_by_constant, linear, SMALL_FUNCTION_DOMAIN};
use cpsolve_engine::{Branching, Rel, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder, VAL_LIMIT};
use proptest::prelude::*;
use proptest::sample::Index;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fun {
    Abs,
    /// Truncating division by a constant (never 0).
    Div(i64),
}

impl Fun {
    /// The definition: `|v|`, or the quotient of the magnitudes with the sign of `v · k`.
    fn apply(self, v: i128) -> i128 {
        match self {
            Fun::Abs => {
                if v < 0 {
                    -v
                } else {
                    v
                }
            }
            Fun::Div(k) => {
                let q = (v.unsigned_abs() / (k as i128).unsigned_abs()) as i128;
                if (v < 0) != (k < 0) {
                    -q
                } else {
                    q
                }
            }
        }
    }

    /// A superset of the `v` with `f(v) = q`: `±q`, or the `v` within `|k| - 1` of `q · k`
    /// (the remainder of a truncating division is smaller than the divisor).
    fn preimage_superset(self, q: i128) -> Vec<i128> {
        match self {
            Fun::Abs => vec![q, -q],
            Fun::Div(k) => {
                let centre = q * k as i128;
                let k = (k as i128).abs();
                (centre - k + 1..=centre + k - 1).collect()
            }
        }
    }

    fn post(self, solver: &mut Solver, x: VarId, z: VarId) {
        match self {
            Fun::Abs => abs(solver, x, z),
            Fun::Div(k) => div_by_constant(solver, x, k, z),
        }
        .expect("within range");
    }
}

/// `Abs` and divisors: ±1, small, larger (weighted toward the small ones).
fn fun_strategy(max_k: i64) -> BoxedStrategy<Fun> {
    prop_oneof![
        4 => Just(Fun::Abs),
        1 => Just(Fun::Div(1)),
        1 => Just(Fun::Div(-1)),
        3 => (2i64..=12).prop_map(Fun::Div),
        3 => (-12i64..=-2).prop_map(Fun::Div),
        1 => (13i64..=max_k).prop_map(Fun::Div),
        1 => (-max_k..=-13i64).prop_map(Fun::Div),
    ]
    .boxed()
}

fn rel_strategy() -> impl Strategy<Value = Rel> {
    prop_oneof![Just(Rel::Eq), Just(Rel::Ne), Just(Rel::Le), Just(Rel::Lt), Just(Rel::Ge), Just(Rel::Gt)]
}

fn rel_holds(rel: Rel, a: i128, b: i128) -> bool {
    match rel {
        Rel::Eq => a == b,
        Rel::Ne => a != b,
        Rel::Le => a <= b,
        Rel::Lt => a < b,
        Rel::Ge => a >= b,
        Rel::Gt => a > b,
    }
}

const VAR_ORDERS: [VarOrder; 3] = [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg];

/// Searches all solutions (every one checked against every constraint), branching on
/// `branch` first, and returns them sorted, as the values of `vars`.
fn search_all(
    solver: &mut Solver,
    vars: &[VarId],
    branch: &[VarId],
    var_order: VarOrder,
    val_order: ValOrder,
) -> Vec<Vec<i128>> {
    let config = SearchConfig {
        branching: vec![Branching { vars: branch.to_vec(), var_order, val_order }],
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut found: Vec<Vec<i128>> = Vec::new();
    let outcome = solver.search(&config, |s| {
        found.push(vars.iter().map(|&x| s.value(x) as i128).collect());
        ControlFlow::Continue(())
    });
    assert!(outcome.stopped.is_none());
    found.sort();
    found
}

// ---------------------------------------------------------------------------------------
// Models with |x| in the thousands: x enumerated value by value.

/// `a·var[on[0]] + b·var[on[1]] ⋈ rhs`, posted before or after the functions.
#[derive(Debug, Clone)]
struct Side {
    coefs: [i64; 2],
    on: [usize; 2],
    rel: Rel,
    rhs: i64,
    first: bool,
}

#[derive(Debug, Clone)]
struct Model {
    /// The interval of each variable when created: `x` (variable 0), then one per
    /// definition.
    domains: Vec<(Val, Val)>,
    /// Variable `i + 1` is `f(var[from])`, `from <= i`: posted in this order.
    defs: Vec<(Fun, usize)>,
    /// Also posted: `var[i] = f(var[i])`, one variable on both sides.
    alias: Option<(Fun, usize)>,
    side: Option<Side>,
    /// Values removed from `x` once everything is posted (so that the domain stays wide
    /// when posting, and the propagators, not the post functions, must react).
    removed: Vec<Val>,
    /// Bounds set once everything is posted: `var[i] ∈ [lo, hi]`.
    windows: Vec<(usize, Val, Val)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    /// One function over intervals, nothing else: bounds consistency is expected.
    fn single(&self) -> bool {
        self.defs.len() == 1 && self.alias.is_none() && self.side.is_none() && self.removed.is_empty()
    }

    fn contains(&self, i: usize, v: i128) -> bool {
        let (lo, hi) = self.domains[i];
        (lo as i128..=hi as i128).contains(&v)
            && self.windows.iter().all(|&(j, lo, hi)| j != i || (lo as i128..=hi as i128).contains(&v))
            && (i != 0 || !self.removed.iter().any(|&r| r as i128 == v))
    }

    /// The values of every variable when `x = a`.
    fn values_at(&self, a: i128) -> Vec<i128> {
        let mut vals = vec![a];
        for &(f, from) in &self.defs {
            vals.push(f.apply(vals[from]));
        }
        vals
    }

    fn brute_force(&self) -> Vec<Vec<i128>> {
        let (lo, hi) = self.domains[0];
        let mut found = Vec::new();
        for a in lo as i128..=hi as i128 {
            let vals = self.values_at(a);
            let ok = (0..vals.len()).all(|i| self.contains(i, vals[i]))
                && self.alias.is_none_or(|(f, i)| f.apply(vals[i]) == vals[i])
                && self.side.as_ref().is_none_or(|s| {
                    let sum = s.coefs[0] as i128 * vals[s.on[0]] + s.coefs[1] as i128 * vals[s.on[1]];
                    rel_holds(s.rel, sum, s.rhs as i128)
                });
            if ok {
                found.push(vals);
            }
        }
        found
    }
}

/// How a defined variable's domain is drawn, around its value `c` at the anchor.
#[derive(Debug, Clone)]
struct DomainRaw {
    kind: u8,
    width: i64,
    at: Index,
    spread: (i64, i64),
    delta: i64,
    window: Option<(i64, i64, i64)>,
}

fn domain_raw_strategy() -> impl Strategy<Value = DomainRaw> {
    (
        0u8..10,
        4097i64..12000,
        any::<Index>(),
        (0i64..4, 0i64..4),
        prop_oneof![4 => Just(0i64), 1 => -2i64..=2],
        proptest::option::weighted(0.6, (0i64..4, 0i64..4, prop_oneof![4 => Just(0i64), 1 => -3i64..=3])),
    )
        .prop_map(|(kind, width, at, spread, delta, window)| DomainRaw { kind, width, at, spread, delta, window })
}

#[derive(Debug, Clone)]
struct SideRaw {
    coefs: [i64; 2],
    on: [Index; 2],
    rel: Rel,
    delta: i64,
    first: bool,
}

fn side_raw_strategy() -> impl Strategy<Value = SideRaw> {
    let coef = prop_oneof![Just(-2i64), Just(-1), Just(1), Just(2)];
    ([coef.clone(), coef], any::<[Index; 2]>(), rel_strategy(), -3i64..=3, any::<bool>())
        .prop_map(|(coefs, on, rel, delta, first)| SideRaw { coefs, on, rel, delta, first })
}

/// `x`: an interval of 4097 to 12,000 values, mostly across 0, else on one side of it.
fn x_strategy() -> impl Strategy<Value = (Val, Val)> {
    (4097i64..=12000, 0u8..10, any::<Index>()).prop_map(|(w, mode, i)| match mode {
        0 | 1 => {
            let lo = i.index(300) as Val;
            (lo, lo + w - 1)
        }
        2 | 3 => {
            let hi = -(i.index(300) as Val);
            (hi - w + 1, hi)
        }
        _ => {
            let lo = -(i.index(w as usize - 1) as Val) - 1;
            (lo, lo + w - 1)
        }
    })
}

/// The value of `x` around which the other domains are drawn: anywhere, near 0, or near
/// a bound.
fn anchor(x: (Val, Val), mode: u8, at: Index, d: i64) -> Val {
    let (lo, hi) = x;
    match mode {
        0 => d.clamp(lo, hi),
        1 => (lo + d.abs()).min(hi),
        2 => (hi - d.abs()).max(lo),
        _ => lo + at.index((hi - lo + 1) as usize) as Val,
    }
}

/// `simple`: one function and no extras (removed values, side constraint, aliasing).
fn model_strategy(simple: bool) -> impl Strategy<Value = Model> {
    (
        x_strategy(),
        (0u8..6, any::<Index>(), -20i64..=20),
        (if simple { 1usize..=1 } else { 1usize..=2 }, [fun_strategy(200), fun_strategy(200)], any::<bool>()),
        [domain_raw_strategy(), domain_raw_strategy()],
        proptest::option::weighted(0.15, (fun_strategy(200), any::<Index>())),
        proptest::option::weighted(0.4, side_raw_strategy()),
        (
            proptest::collection::vec((any::<bool>(), -30i64..=30), if simple { 0..1 } else { 0..6 }),
            proptest::collection::vec(any::<Index>(), if simple { 0..1 } else { 0..3 }),
        ),
        (0usize..3, 0usize..4),
    )
        .prop_map(move |(x, (mode, at, d), (n_defs, funs, chain), raws, alias, side, (near, anywhere), orders)| {
            let a = anchor(x, mode, at, d);
            let defs: Vec<(Fun, usize)> = (0..n_defs).map(|i| (funs[i], if i == 1 && chain { 1 } else { 0 })).collect();
            let mut m = Model {
                domains: vec![x],
                defs,
                alias: None,
                side: None,
                removed: Vec::new(),
                windows: Vec::new(),
                var_order: orders.0,
                val_order: orders.1,
            };
            let vals: Vec<Val> = m.values_at(a as i128).into_iter().map(|v| v as Val).collect();
            let n = vals.len();
            for i in 1..n {
                let (c, raw) = (vals[i], &raws[i - 1]);
                let mut window = raw.window;
                let domain = match raw.kind {
                    // Wide (more than SMALL_FUNCTION_DOMAIN values), around c.
                    0..=3 => {
                        let lo = c - raw.at.index(raw.width as usize) as Val;
                        (lo, lo + raw.width - 1)
                    }
                    4 | 5 => (c - raw.spread.0 + raw.delta, c + raw.spread.1 + raw.delta),
                    // Fixed at post.
                    6 | 7 => (c + raw.delta, c + raw.delta),
                    // Wide, anywhere.
                    _ => {
                        let lo = raw.at.index(24000) as Val - 12000;
                        (lo, lo + raw.width - 1)
                    }
                };
                // The last variable is always narrow, so that few solutions remain.
                if i == n - 1 && domain.1 - domain.0 > 8 && window.is_none() {
                    window = Some((raw.spread.0, raw.spread.1, raw.delta));
                }
                m.domains.push(domain);
                if let Some((below, above, shift)) = window {
                    m.windows.push((i, c + shift - below, c + shift + above));
                }
            }
            m.alias = alias.filter(|_| !simple).map(|(f, i)| (f, i.index(n)));
            m.side = side.filter(|_| !simple).map(|s| {
                let on = s.on.map(|i| i.index(n));
                let rhs = s.coefs[0] * vals[on[0]] + s.coefs[1] * vals[on[1]] + s.delta;
                Side { coefs: s.coefs, on, rel: s.rel, rhs, first: s.first }
            });
            for (negate, d) in near {
                m.removed.push(if negate { -a } else { a } + d);
            }
            for i in anywhere {
                m.removed.push(x.0 + i.index((x.1 - x.0 + 1) as usize) as Val);
            }
            m
        })
}

fn check(m: &Model) -> Result<(), TestCaseError> {
    let expected = m.brute_force();
    let mut solver = Solver::new();
    let vars: Vec<VarId> = m.domains.iter().map(|&(lo, hi)| solver.new_var(lo, hi).expect("in range")).collect();
    let post_side = |solver: &mut Solver, s: &Side| {
        let terms = [(s.coefs[0], vars[s.on[0]]), (s.coefs[1], vars[s.on[1]])];
        linear(solver, &terms, s.rel, s.rhs).expect("small");
    };
    if let Some(s) = m.side.as_ref().filter(|s| s.first) {
        post_side(&mut solver, s);
    }
    for (i, &(f, from)) in m.defs.iter().enumerate() {
        // x is wide when posted (unless a side constraint posted first fixed it): the
        // bounds propagators, not a table.
        let side_first = m.side.as_ref().is_some_and(|s| s.first);
        prop_assert!(from != 0 || side_first || solver.size(vars[0]) > SMALL_FUNCTION_DOMAIN);
        f.post(&mut solver, vars[from], vars[i + 1]);
    }
    if let Some((f, i)) = m.alias {
        f.post(&mut solver, vars[i], vars[i]);
    }
    if let Some(s) = m.side.as_ref().filter(|s| !s.first) {
        post_side(&mut solver, s);
    }
    for &v in &m.removed {
        solver.remove(vars[0], v);
    }
    for &(i, lo, hi) in &m.windows {
        solver.set_min(vars[i], lo);
        solver.set_max(vars[i], hi);
    }
    if !solver.propagate() {
        prop_assert!(
            expected.is_empty(),
            "propagation failed but {} solutions exist, e.g. {:?}",
            expected.len(),
            expected[0]
        );
        return Ok(());
    }
    for (i, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(
                solver.contains(x, s[i] as Val),
                "value {} of var{i} was pruned but is in solution {s:?}",
                s[i]
            );
        }
    }
    if m.single() {
        prop_assert!(!expected.is_empty(), "no solution, yet propagation left {:?}", domains(&solver, &vars));
        for (i, &x) in vars.iter().enumerate() {
            for bound in [solver.min(x), solver.max(x)] {
                prop_assert!(
                    expected.iter().any(|s| s[i] == bound as i128),
                    "bound {bound} of var{i} is in no solution; domains {:?}",
                    domains(&solver, &vars)
                );
            }
        }
    }
    let val_order = [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split][m.val_order];
    let found = search_all(&mut solver, &vars, &vars, VAR_ORDERS[m.var_order], val_order);
    prop_assert_eq!(found, expected);
    Ok(())
}

/// The bounds and size of each domain, for messages.
fn domains(solver: &Solver, vars: &[VarId]) -> Vec<(Val, Val, u64)> {
    vars.iter().map(|&x| (solver.min(x), solver.max(x), solver.size(x))).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    /// One of `z = |x|`, `z = x div k` over intervals: sound, exact, bounds consistent.
    #[test]
    fn one_wide_function_is_sound_exact_and_bounds_consistent(model in model_strategy(true)) {
        check(&model)?;
    }

    /// Up to two functions (chained or side by side), with values removed from `x`, a
    /// variable on both sides, a linear side constraint: sound and exact.
    #[test]
    fn conjunctions_with_wide_functions_search_exactly(model in model_strategy(false)) {
        check(&model)?;
    }
}

// ---------------------------------------------------------------------------------------
// Domains up to 2^60 in magnitude: x enumerated over the preimages of z's few values.

#[derive(Debug, Clone)]
struct HugeModel {
    x: (Val, Val),
    f: Fun,
    /// `z = f(x)`: its interval when posted, and the window it is narrowed to afterwards.
    z: (Val, Val),
    window: Option<(Val, Val)>,
    /// `w = g(x)`, wide.
    sibling: Option<(Fun, (Val, Val))>,
    var_order: usize,
    val_order: usize,
}

impl HugeModel {
    fn brute_force(&self) -> Vec<Vec<i128>> {
        let (zlo, zhi) = self.window.unwrap_or(self.z);
        let (zlo, zhi) = (zlo.max(self.z.0) as i128, zhi.min(self.z.1) as i128);
        let inside = |v: i128, (lo, hi): (Val, Val)| (lo as i128..=hi as i128).contains(&v);
        let mut candidates: Vec<i128> = (zlo..=zhi).flat_map(|q| self.f.preimage_superset(q)).collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut found = Vec::new();
        for a in candidates {
            let z = self.f.apply(a);
            if !inside(a, self.x) || !(zlo..=zhi).contains(&z) {
                continue;
            }
            let mut vals = vec![a, z];
            if let Some((g, w)) = self.sibling {
                if !inside(g.apply(a), w) {
                    continue;
                }
                vals.push(g.apply(a));
            }
            found.push(vals);
        }
        found
    }
}

/// A magnitude in `[2^e, 2^(e+1))` for `e` in 13..=59: at most `2^60 - 1`.
fn magnitude() -> impl Strategy<Value = Val> {
    (13u32..=59, any::<u64>()).prop_map(|(e, r)| (1i64 << e) + (r % (1u64 << e)) as i64)
}

fn clamp(v: i128) -> Val {
    v.clamp(-VAL_LIMIT as i128, VAL_LIMIT as i128) as Val
}

fn huge_model_strategy() -> impl Strategy<Value = HugeModel> {
    (
        (0u8..4, magnitude(), magnitude()),
        (0u8..5, any::<u64>(), -20i64..=20),
        fun_strategy(300),
        (0u8..3, magnitude(), magnitude(), (0i64..4, 0i64..4), prop_oneof![4 => Just(0i64), 1 => -2i64..=2]),
        proptest::option::weighted(
            0.4,
            (
                prop_oneof![3 => fun_strategy(300), 1 => (1i64 << 20..1i64 << 40).prop_map(Fun::Div),
                    1 => (-(1i64 << 40)..-(1i64 << 20)).prop_map(Fun::Div)],
                magnitude(),
                magnitude(),
            ),
        ),
        (0usize..3, 0usize..3),
    )
        .prop_map(
            |((x_mode, m1, m2), (a_mode, r, d), f, (z_kind, zm1, zm2, (below, above), delta), sibling, orders)| {
                let (m1, m2) = (m1.min(m2).min(VAL_LIMIT - 5000), m1.max(m2));
                let x = match x_mode {
                    0 => (m1, m2.max(m1 + 5000)),
                    1 => (-m2.max(m1 + 5000), -m1),
                    2 => (-m1, m2),
                    _ => (-m2, m1),
                };
                let span = (x.1 as i128 - x.0 as i128 + 1) as u128;
                let a = match a_mode {
                    0 => d.clamp(x.0, x.1),
                    1 => (x.0 + d.abs()).min(x.1),
                    2 => (x.1 - d.abs()).max(x.0),
                    _ => (x.0 as i128 + (r as u128 % span) as i128) as Val,
                };
                let c = f.apply(a as i128);
                let (z, window) = match z_kind {
                    0 => {
                        let v = clamp(c + delta as i128);
                        ((v, v), None)
                    }
                    _ => (
                        (clamp(c - zm1 as i128), clamp(c + zm2 as i128)),
                        Some((clamp(c + (delta - below) as i128), clamp(c + (delta + above) as i128))),
                    ),
                };
                let sibling = sibling.map(|(g, w1, w2)| {
                    let c = g.apply(a as i128);
                    (g, (clamp(c - w1 as i128), clamp(c + w2 as i128)))
                });
                HugeModel { x, f, z, window, sibling, var_order: orders.0, val_order: orders.1 }
            },
        )
}

fn check_huge(m: &HugeModel) -> Result<(), TestCaseError> {
    let expected = m.brute_force();
    let mut solver = Solver::new();
    let x = solver.new_var(m.x.0, m.x.1).expect("in range");
    let z = solver.new_var(m.z.0, m.z.1).expect("in range");
    let mut vars = vec![x, z];
    prop_assert!(solver.size(x) > SMALL_FUNCTION_DOMAIN);
    m.f.post(&mut solver, x, z);
    if let Some((g, (lo, hi))) = m.sibling {
        let w = solver.new_var(lo, hi).expect("in range");
        g.post(&mut solver, x, w);
        vars.push(w);
    }
    if let Some((lo, hi)) = m.window {
        solver.set_min(z, lo);
        solver.set_max(z, hi);
    }
    if !solver.propagate() {
        prop_assert!(
            expected.is_empty(),
            "propagation failed but {} solutions exist, e.g. {:?}",
            expected.len(),
            expected[0]
        );
        return Ok(());
    }
    for (i, &v) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(
                solver.contains(v, s[i] as Val),
                "value {} of var{i} was pruned but is in solution {s:?}",
                s[i]
            );
        }
    }
    if m.sibling.is_none() {
        prop_assert!(!expected.is_empty(), "no solution, yet propagation left {:?}", domains(&solver, &vars));
        for (i, &v) in vars.iter().enumerate() {
            for bound in [solver.min(v), solver.max(v)] {
                prop_assert!(
                    expected.iter().any(|s| s[i] == bound as i128),
                    "bound {bound} of var{i} is in no solution; domains {:?}",
                    domains(&solver, &vars)
                );
            }
        }
    }
    // No middle-out: a value removed from the middle of a domain wider than a bitset
    // allows is not recorded. And no branching on `w`: when `|x| = z` leaves a hole too
    // wide to cut, `w = |x|` keeps its lower bound 0 (bounds reasoning sees x = 0 as
    // possible), and trying its values from the smallest would walk the hole value by
    // value. Literal `x` fixes `w`.
    let val_order = [ValOrder::Min, ValOrder::Max, ValOrder::Split][m.val_order];
    let found = search_all(&mut solver, &vars, &vars[..2], VAR_ORDERS[m.var_order], val_order);
    prop_assert_eq!(found, expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Bounds up to ±2^60: the binary searches of `Monotone` and the hole of `Abs` on
    /// domains with no bitset.
    #[test]
    fn huge_domains_are_sound_exact_and_bounds_consistent(model in huge_model_strategy()) {
        check_huge(&model)?;
    }
}

/// The hole of `|x| ≥ 5000` is too wide to cut value by value: the bounds of `x` leave it
/// as the search splits, and only the solutions are found.
#[test]
fn a_wide_hole_is_left_by_the_bounds() {
    let mut solver = Solver::new();
    let x = solver.new_var(-6000, 6000).unwrap();
    let z = solver.new_var(5000, 5002).unwrap();
    abs(&mut solver, x, z).unwrap();
    assert!(solver.propagate());
    assert_eq!((solver.min(x), solver.max(x)), (-5002, 5002));
    let expected: Vec<Vec<i128>> =
        (-5002i128..=5002).filter(|v| (5000..=5002).contains(&v.abs())).map(|v| vec![v, v.abs()]).collect();
    for val_order in [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split] {
        let mut solver = Solver::new();
        let x = solver.new_var(-6000, 6000).unwrap();
        let z = solver.new_var(5000, 5002).unwrap();
        abs(&mut solver, x, z).unwrap();
        assert_eq!(search_all(&mut solver, &[x, z], &[x, z], VarOrder::Input, val_order), expected, "{val_order:?}");
    }
}
