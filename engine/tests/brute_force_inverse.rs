//! Inverse checked against brute force on small random instances, and its pruning on
//! hand-picked cases.
//!
//! For each random instance (arrays of 0 to 5 variables, usually of equal lengths, index
//! offsets drawn apart for `f` and `g`, random sub-domains that often stray outside the
//! other array's positions, values removed or fixed after posting, sometimes `g` the same
//! array as `f` as in `inverse(f, f)`, sometimes a random linear constraint beside it, each
//! strength of all-different):
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - channelling at the fixpoint: `j` is in `f[i]` exactly when `i` is in `g[j]`, and a
//!   fixed side fixes its partner;
//! - domain consistency, with all-different at domain consistency and nothing else posted:
//!   every value left belongs to a solution;
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order.
//!
//! The definition here is MiniZinc's `fzn_inverse.mzn` (2.6.4), written over positions:
//! every `f[i]` is a position of `g` with `g[f[i]] = i`, and every `g[j]` a position of `f`
//! with `f[g[j]] = j`.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{inverse, linear};
use cpsolve_engine::{Consistency, Rel, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

mod common;

/// The position of value `v` in an array of `len` positions counted from `offset`.
fn position(v: Val, offset: Val, len: usize) -> Option<usize> {
    usize::try_from(v - offset).ok().filter(|&p| p < len)
}

/// MiniZinc's definition of `inverse(f, g)`, positions counted from the offsets.
fn is_inverse(f: &[Val], f_offset: Val, g: &[Val], g_offset: Val) -> bool {
    let points_back = |from: &[Val], from_offset: Val, to: &[Val], to_offset: Val| {
        from.iter()
            .enumerate()
            .all(|(i, &v)| position(v, to_offset, to.len()).is_some_and(|j| to[j] == i as Val + from_offset))
    };
    points_back(f, f_offset, g, g_offset) && points_back(g, g_offset, f, f_offset)
}

/// A change made after posting, to a variable of [`Model::vars`].
#[derive(Debug, Clone, Copy)]
enum Late {
    Remove(usize, Val),
    Fix(usize, Val),
}

#[derive(Debug, Clone)]
struct Model {
    f_offset: Val,
    g_offset: Val,
    f_domains: Vec<Vec<Val>>,
    /// Ignored when `aliased`.
    g_domains: Vec<Vec<Val>>,
    /// `g` is the array `f` itself.
    aliased: bool,
    late: Vec<Late>,
    /// `Σ coefs·vars ≤ rhs`, when present.
    side: Option<(Vec<i64>, i64)>,
    consistency: Consistency,
    var_order: usize,
    val_order: usize,
}

impl Model {
    /// The domains of the variables: `f`, then `g` unless it is `f`.
    fn domains(&self) -> Vec<Vec<Val>> {
        let mut domains = self.f_domains.clone();
        if !self.aliased {
            domains.extend(self.g_domains.iter().cloned());
        }
        domains
    }

    fn n(&self) -> usize {
        self.f_domains.len()
    }

    /// `f` and `g` from the values of the variables.
    fn split<'a>(&self, values: &'a [Val]) -> (&'a [Val], &'a [Val]) {
        let n = self.n();
        (&values[..n], if self.aliased { &values[..n] } else { &values[n..] })
    }

    fn holds(&self, values: &[Val]) -> bool {
        let (f, g) = self.split(values);
        is_inverse(f, self.f_offset, g, self.g_offset)
            && self
                .side
                .as_ref()
                .is_none_or(|(coefs, rhs)| coefs.iter().zip(values).map(|(&a, &v)| a * v).sum::<i64>() <= *rhs)
    }

    fn final_domains(&self) -> Vec<Vec<Val>> {
        let mut domains = self.domains();
        for &late in &self.late {
            match late {
                Late::Remove(i, v) => domains[i].retain(|&w| w != v),
                Late::Fix(i, v) => domains[i].retain(|&w| w == v),
            }
        }
        domains
    }

    /// Every solution. `f` is enumerated; `g` follows from it: `g[j] = i` needs `f[i] = j`,
    /// so `g[j]` can only be the one `i` with `f[i] = j`, and a position of `g` that no
    /// `f[i]` names has no value at all. Each candidate is then checked in full.
    fn brute_force(&self) -> Vec<Vec<Val>> {
        let domains = self.final_domains();
        let n = self.n();
        let m = if self.aliased { n } else { self.g_domains.len() };
        let mut found = Vec::new();
        let mut f = Vec::with_capacity(n);
        self.walk(&domains, m, &mut f, &mut found);
        found
    }

    fn walk(&self, domains: &[Vec<Val>], m: usize, f: &mut Vec<Val>, found: &mut Vec<Vec<Val>>) {
        let n = self.n();
        if f.len() < n {
            for &v in &domains[f.len()] {
                f.push(v);
                self.walk(domains, m, f, found);
                f.pop();
            }
            return;
        }
        let mut g: Vec<Option<Val>> = vec![None; m];
        for (i, &v) in f.iter().enumerate() {
            if let Some(j) = position(v, self.g_offset, m) {
                g[j] = Some(i as Val + self.f_offset);
            }
        }
        let Some(g) = g.into_iter().collect::<Option<Vec<Val>>>() else {
            return;
        };
        let mut values = f.clone();
        if !self.aliased {
            if g.iter().zip(&domains[n..]).any(|(v, d)| !d.contains(v)) {
                return;
            }
            values.extend(&g);
        }
        if self.holds(&values) {
            found.push(values);
        }
    }

    fn build(&self) -> (Solver, Vec<VarId>) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = self.domains().iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
        let n = self.n();
        let (f, g) = (&vars[..n], if self.aliased { &vars[..n] } else { &vars[n..] });
        inverse(&mut solver, f, self.f_offset, g, self.g_offset, self.consistency).expect("offsets in range");
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

/// The channelling at the fixpoint: `j ∈ f[i] ⇔ i ∈ g[j]`, every value a position of the
/// other array, and a fixed variable's partner fixed to it.
fn check_channelling(m: &Model, solver: &Solver, vars: &[VarId]) -> Result<(), TestCaseError> {
    let n = m.n();
    let (f, g) = (&vars[..n], if m.aliased { &vars[..n] } else { &vars[n..] });
    for (from, from_offset, to, to_offset) in [(f, m.f_offset, g, m.g_offset), (g, m.g_offset, f, m.f_offset)] {
        for (i, &x) in from.iter().enumerate() {
            let back = i as Val + from_offset;
            for v in solver.values(x) {
                let j = position(v, to_offset, to.len());
                prop_assert!(j.is_some(), "value {v} at position {i} names no position of the other array");
                let y = to[j.unwrap_or(0)];
                prop_assert!(solver.contains(y, back), "{v} kept at position {i}, whose partner lost {back}");
                if solver.is_fixed(x) {
                    prop_assert!(solver.is_fixed(y), "position {i} is fixed to {v}, its partner is not fixed");
                }
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
    for (k, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(
                solver.contains(x, s[k]),
                "value {} of variable {k} was pruned but is in solution {s:?}",
                s[k]
            );
        }
    }
    check_channelling(m, &solver, &vars)?;
    if m.consistency == Consistency::Domain && !m.aliased && m.side.is_none() {
        for (k, &x) in vars.iter().enumerate() {
            for v in solver.values(x) {
                prop_assert!(expected.iter().any(|s| s[k] == v), "value {v} of variable {k} is in no solution");
            }
        }
    }
    let found = common::all_solutions(&mut solver, &vars, m.var_order, m.val_order);
    prop_assert!(found.is_some(), "the search stopped early");
    expected.sort();
    prop_assert_eq!(found.unwrap_or_default(), expected);
    Ok(())
}

/// A random subset of the `len + 2` values from `offset - 1` to `offset + len` (the
/// positions of an array of `len`, and one value on each side), from sparse (a quarter of
/// the values) to dense (seven eighths), dense more often: permutations need many values.
fn domain_strategy(len: usize, offset: Val) -> impl Strategy<Value = Vec<Val>> {
    let full = (1u32 << (len + 2)) - 1;
    (0..=full, 0..=full, 0..=full, 0..8usize).prop_map(move |(a, b, c, density)| {
        let mask = [a & b, a, a | b, a | b, a | b | c, a | b | c, a | b | c, a | b | c][density];
        // An empty mask falls back on another one, and at last on the first position.
        let mask = [mask, a, b, 2].into_iter().find(|&m| m != 0).unwrap_or(2);
        (0..len + 2).filter(|k| mask >> k & 1 == 1).map(|k| offset - 1 + k as Val).collect()
    })
}

fn model_strategy() -> impl Strategy<Value = Model> {
    let offsets = prop_oneof![Just(-2i64), Just(0), Just(1), Just(3)];
    let lengths = (0usize..=5, prop_oneof![8 => Just(0i64), 1 => Just(-1), 1 => Just(1)])
        .prop_map(|(n, d)| (n, (n as i64 + d).max(0) as usize));
    (lengths, offsets.clone(), offsets, proptest::bool::weighted(0.2)).prop_flat_map(
        |((n, m), f_offset, g_offset, aliased)| {
            // An array that is its own inverse has one set of positions.
            let aliased = aliased && n == m;
            let g_offset = if aliased { f_offset } else { g_offset };
            let count = if aliased { n } else { n + m };
            let low = f_offset.min(g_offset) - 1;
            let high = f_offset.max(g_offset) + n.max(m) as Val;
            let late = prop_oneof![
                4 => (0..count.max(1), low..=high).prop_map(|(i, v)| Late::Remove(i, v)),
                1 => (0..count.max(1), low..=high).prop_map(|(i, v)| Late::Fix(i, v)),
            ];
            let side = proptest::option::weighted(
                0.2,
                (proptest::collection::vec(-2i64..=2, count), -5i64..20).prop_map(|(c, r)| (c, r)),
            );
            (
                proptest::collection::vec(domain_strategy(m, g_offset), n),
                proptest::collection::vec(domain_strategy(n, f_offset), m),
                proptest::collection::vec(late, if count == 0 { 0..1 } else { 0..3 }),
                side,
                prop_oneof![1 => Just(Consistency::Value), 1 => Just(Consistency::Bounds), 2 => Just(Consistency::Domain)],
                0..3usize,
                0..4usize,
            )
                .prop_map(
                    move |(f_domains, g_domains, late, side, consistency, var_order, val_order)| Model {
                        f_offset,
                        g_offset,
                        f_domains,
                        g_domains,
                        aliased,
                        late,
                        side,
                        consistency,
                        var_order,
                        val_order,
                    },
                )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn inverse_is_sound_channelled_domain_consistent_and_exact(m in model_strategy()) {
        check(&m)?;
    }
}

fn values(solver: &Solver, x: VarId) -> Vec<Val> {
    solver.values(x).collect()
}

/// `n` variables over `lo..=hi`.
fn array(solver: &mut Solver, n: usize, lo: Val, hi: Val) -> Vec<VarId> {
    (0..n).map(|_| solver.new_var(lo, hi).unwrap()).collect()
}

fn count(solver: &mut Solver) -> u128 {
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    solver.search(&config, |_| ControlFlow::Continue(())).solutions
}

#[test]
fn a_value_leaves_f_when_its_partner_cannot_point_back() {
    // f over positions 1..=3 of g, g over positions 0..=2 of f. Value elimination alone
    // (no all-different beyond it) so that only the channelling prunes.
    let mut s = Solver::new();
    let f = array(&mut s, 3, 1, 3);
    let g = array(&mut s, 3, 0, 2);
    inverse(&mut s, &f, 0, &g, 1, Consistency::Value).unwrap();
    assert!(s.propagate());
    // g[1] (the position of value 2) may no longer be 0: f[0] loses 2.
    s.remove(g[1], 0);
    assert!(s.propagate());
    assert_eq!(values(&s, f[0]), vec![1, 3]);
    // f[2] loses 1: g[0] (value 1) loses position 2.
    s.remove(f[2], 1);
    assert!(s.propagate());
    assert_eq!(values(&s, g[0]), vec![0, 1]);
}

#[test]
fn a_fixed_side_fixes_its_partner_and_eliminates_its_value() {
    let mut s = Solver::new();
    let f = array(&mut s, 3, 1, 3);
    let g = array(&mut s, 3, 1, 3);
    inverse(&mut s, &f, 1, &g, 1, Consistency::Value).unwrap();
    s.assign(f[0], 3);
    assert!(s.propagate());
    assert_eq!(values(&s, g[2]), vec![1], "f[0] = 3 (position 1 to position 3) fixes g[2] to 1");
    assert_eq!((values(&s, f[1]), values(&s, f[2])), (vec![1, 2], vec![1, 2]), "3 is taken");
    assert_eq!((values(&s, g[0]), values(&s, g[1])), (vec![2, 3], vec![2, 3]), "1 is taken");
}

#[test]
fn all_different_beside_it_sees_hall_sets() {
    // f[0], f[1] ∈ {1, 2} take both values, so f[2], f[3] ∈ {3, 4}; on the other side
    // g[3], g[4] ∈ {2, 3} (positions from 0, values from 1). No domain is fixed, and the
    // channelling is already consistent: only the Hall sets of all-different prune.
    let hall = |consistency: Consistency| {
        let mut s = Solver::new();
        let f = array(&mut s, 4, 1, 4);
        let g = array(&mut s, 4, 0, 3);
        s.set_max(f[0], 2);
        s.set_max(f[1], 2);
        inverse(&mut s, &f, 0, &g, 1, consistency).unwrap();
        assert!(s.propagate());
        (values(&s, f[2]), values(&s, g[0]))
    };
    assert_eq!(hall(Consistency::Value), (vec![1, 2, 3, 4], vec![0, 1, 2, 3]), "value elimination sees nothing");
    for consistency in [Consistency::Bounds, Consistency::Domain] {
        assert_eq!(hall(consistency), (vec![3, 4], vec![0, 1]), "{consistency:?}");
    }
}

#[test]
fn counts_permutations_involutions_and_refuses_unequal_lengths() {
    for (n, permutations) in [(0, 1), (1, 1), (2, 2), (3, 6), (4, 24), (5, 120)] {
        let mut s = Solver::new();
        let f = array(&mut s, n, -10, 10);
        let g = array(&mut s, n, -10, 10);
        inverse(&mut s, &f, -2, &g, 3, Consistency::Bounds).unwrap();
        assert_eq!(count(&mut s), permutations, "n = {n}");
    }
    // inverse(f, f): the involutions, OEIS A000085.
    for (n, involutions) in [(1, 1), (2, 2), (3, 4), (4, 10), (5, 26), (6, 76)] {
        let mut s = Solver::new();
        let f = array(&mut s, n, 1, n as Val);
        inverse(&mut s, &f, 1, &f, 1, Consistency::Domain).unwrap();
        assert_eq!(count(&mut s), involutions, "n = {n}");
    }
    let mut s = Solver::new();
    let f = array(&mut s, 2, 1, 3);
    let g = array(&mut s, 3, 1, 3);
    inverse(&mut s, &f, 1, &g, 1, Consistency::Domain).unwrap();
    assert!(!s.propagate(), "two positions cannot map onto three");
    let mut s = Solver::new();
    assert!(inverse(&mut s, &f[..0], Val::MAX, &g[..0], 0, Consistency::Value).is_err(), "offset out of range");
}
