//! Lexicographic order checked against brute force on small random instances, and its
//! pruning on hand-picked cases.
//!
//! For each random instance (`x` and `y` of 0 to 4 variables, often of different lengths,
//! 0/1 or small integer domains, strict or not, values removed or fixed after posting,
//! sometimes a variable of `x` also in `y`, sometimes a random linear constraint beside
//! it):
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - generalised arc consistency, when no variable occurs twice and nothing else is
//!   posted: every value left belongs to a solution;
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order.
//!
//! The definition here is Rust's order on slices, which is MiniZinc's (`fzn_lex_less_int`
//! and `fzn_lex_lesseq_int`, 2.6.4): the first position where the vectors differ decides,
//! and when one is a prefix of the other, the shorter is the smaller.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{lex_less, lex_lesseq, linear};
use cpsolve_engine::{Rel, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

mod common;

/// A change made after posting.
#[derive(Debug, Clone, Copy)]
enum Late {
    Remove(usize, Val),
    Fix(usize, Val),
}

#[derive(Debug, Clone)]
struct Model {
    strict: bool,
    /// One domain per variable.
    domains: Vec<Vec<Val>>,
    /// The variables of `x` and `y`, as indices into `domains`.
    x: Vec<usize>,
    y: Vec<usize>,
    late: Vec<Late>,
    /// `Σ coefs·vars ≤ rhs`, when present.
    side: Option<(Vec<i64>, i64)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    fn holds(&self, values: &[Val]) -> bool {
        let x: Vec<Val> = self.x.iter().map(|&k| values[k]).collect();
        let y: Vec<Val> = self.y.iter().map(|&k| values[k]).collect();
        let ordered = if self.strict { x < y } else { x <= y };
        ordered
            && self
                .side
                .as_ref()
                .is_none_or(|(coefs, rhs)| coefs.iter().zip(values).map(|(&a, &v)| a * v).sum::<i64>() <= *rhs)
    }

    /// Whether a variable occurs twice in `x` and `y`.
    fn aliased(&self) -> bool {
        let mut all: Vec<usize> = self.x.iter().chain(&self.y).copied().collect();
        all.sort_unstable();
        all.dedup();
        all.len() < self.x.len() + self.y.len()
    }

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
        let x: Vec<VarId> = self.x.iter().map(|&k| vars[k]).collect();
        let y: Vec<VarId> = self.y.iter().map(|&k| vars[k]).collect();
        if self.strict {
            lex_less(&mut solver, &x, &y);
        } else {
            lex_lesseq(&mut solver, &x, &y);
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
    if !m.aliased() && m.side.is_none() {
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

/// A non-empty random subset of `values`.
fn domain_strategy(values: Vec<Val>) -> impl Strategy<Value = Vec<Val>> {
    let full = (1u32 << values.len()) - 1;
    (1..=full).prop_map(move |mask| (0..values.len()).filter(|k| mask >> k & 1 == 1).map(|k| values[k]).collect())
}

fn model_strategy() -> impl Strategy<Value = Model> {
    let lengths = (0usize..=4, prop_oneof![3 => Just(0i64), 1 => Just(-1), 1 => Just(1), 1 => Just(2)])
        .prop_map(|(nx, d)| (nx, (nx as i64 + d).clamp(0, 4) as usize));
    let values = prop_oneof![Just(vec![0, 1]), Just(vec![-1, 0, 1, 2])];
    (lengths, values, any::<bool>(), proptest::option::weighted(0.2, (0usize..4, 0usize..4))).prop_flat_map(
        |((nx, ny), values, strict, alias)| {
            let count = nx + ny;
            let (low, high) = (values[0], values[values.len() - 1]);
            let late = prop_oneof![
                3 => (0..count.max(1), low..=high).prop_map(|(i, v)| Late::Remove(i, v)),
                1 => (0..count.max(1), low..=high).prop_map(|(i, v)| Late::Fix(i, v)),
            ];
            let side = proptest::option::weighted(
                0.2,
                (proptest::collection::vec(-2i64..=2, count), -3i64..6).prop_map(|(c, r)| (c, r)),
            );
            (
                proptest::collection::vec(domain_strategy(values), count),
                proptest::collection::vec(late, if count == 0 { 0..1 } else { 0..3 }),
                side,
                0..3usize,
                0..4usize,
            )
                .prop_map(move |(domains, late, side, var_order, val_order)| {
                    let x: Vec<usize> = (0..nx).collect();
                    let mut y: Vec<usize> = (nx..count).collect();
                    // y[j] is x[i] itself (its own variable then constrains nothing).
                    if let Some((i, j)) = alias.filter(|&(i, j)| i < nx && j < ny) {
                        y[j] = x[i];
                    }
                    Model { strict, domains, x, y, late, side, var_order, val_order }
                })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn lex_is_sound_arc_consistent_and_exact(m in model_strategy()) {
        check(&m)?;
    }
}

fn values(solver: &Solver, x: VarId) -> Vec<Val> {
    solver.values(x).collect()
}

fn count(solver: &mut Solver) -> u128 {
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    solver.search(&config, |_| ControlFlow::Continue(())).solutions
}

#[test]
fn a_suffix_surely_out_of_order_makes_the_first_free_position_strict() {
    // [x0, 2] ≤lex [y0, 1]: equal at 0, the suffix 2 > 1 would break the order.
    let mut s = Solver::new();
    let (x0, y0) = (s.new_var(0, 2).unwrap(), s.new_var(0, 2).unwrap());
    let (two, one) = (s.new_var(2, 2).unwrap(), s.new_var(1, 1).unwrap());
    lex_lesseq(&mut s, &[x0, two], &[y0, one]);
    assert!(s.propagate());
    assert_eq!((values(&s, x0), values(&s, y0)), (vec![0, 1], vec![1, 2]));
    // The same with a suffix that can still be in order: only x0 ≤ y0, nothing to remove.
    let mut s = Solver::new();
    let (x0, y0) = (s.new_var(0, 2).unwrap(), s.new_var(0, 2).unwrap());
    let (x1, y1) = (s.new_var(1, 2).unwrap(), s.new_var(1, 1).unwrap());
    lex_lesseq(&mut s, &[x0, x1], &[y0, y1]);
    assert!(s.propagate());
    assert_eq!((values(&s, x0), values(&s, y0)), (vec![0, 1, 2], vec![0, 1, 2]));
    // Raising x1 above y1 makes the suffix out of order.
    s.remove(x1, 1);
    assert!(s.propagate());
    assert_eq!((values(&s, x0), values(&s, y0)), (vec![0, 1], vec![1, 2]));
}

#[test]
fn the_first_free_position_moves_past_fixed_equal_ones() {
    // [1, x1, 0] <lex [1, y1, 0]: position 0 is equal, so x1 ≤ y1, and x1 < y1 since the
    // rest is equal and the order strict.
    let mut s = Solver::new();
    let one = s.new_var(1, 1).unwrap();
    let zero = s.new_var(0, 0).unwrap();
    let (x1, y1) = (s.new_var(0, 3).unwrap(), s.new_var(0, 3).unwrap());
    lex_less(&mut s, &[one, x1, zero], &[one, y1, zero]);
    assert!(s.propagate());
    assert_eq!((values(&s, x1), values(&s, y1)), (vec![0, 1, 2], vec![1, 2, 3]));
    // Literal y1 = x1 = 2 leaves nothing: the vectors would be equal.
    s.assign(y1, 2);
    s.assign(x1, 2);
    assert!(!s.propagate());
}

#[test]
fn the_suffix_is_read_past_positions_where_min_x_equals_max_y() {
    // [x0, a, b] ≤lex [y0, c, d] with min a = max c = 1 and min b = 2 > max d = 1: the suffix
    // is out of order even at its most favourable, so x0 < y0.
    let mut s = Solver::new();
    let (x0, y0) = (s.new_var(0, 1).unwrap(), s.new_var(0, 1).unwrap());
    let (a, c) = (s.new_var(1, 2).unwrap(), s.new_var(0, 1).unwrap());
    let (b, d) = (s.new_var(2, 3).unwrap(), s.new_var(0, 1).unwrap());
    lex_lesseq(&mut s, &[x0, a, b], &[y0, c, d]);
    assert!(s.propagate());
    assert_eq!((values(&s, x0), values(&s, y0)), (vec![0], vec![1]));
}

#[test]
fn lengths_decide_an_equal_prefix() {
    // lex_less([a], [b, c]): a shorter x may equal y's prefix, so only a ≤ b.
    let mut s = Solver::new();
    let v: Vec<VarId> = (0..3).map(|_| s.new_var(0, 2).unwrap()).collect();
    lex_less(&mut s, &v[..1], &v[1..]);
    s.assign(v[1], 1);
    assert!(s.propagate());
    assert_eq!(values(&s, v[0]), vec![0, 1]);
    // lex_lesseq([a, b], [c]): a longer x must be smaller on the prefix, so a < c.
    let mut s = Solver::new();
    let v: Vec<VarId> = (0..3).map(|_| s.new_var(0, 2).unwrap()).collect();
    lex_lesseq(&mut s, &v[..2], &v[2..]);
    s.assign(v[2], 1);
    assert!(s.propagate());
    assert_eq!(values(&s, v[0]), vec![0]);
    // Empty vectors: [] < [] fails, [] ≤ [] holds, [] < [a] holds, [a] ≤ [] fails.
    let mut s = Solver::new();
    lex_less(&mut s, &[], &[]);
    assert!(!s.propagate());
    let mut s = Solver::new();
    let a = s.new_var(0, 1).unwrap();
    lex_lesseq(&mut s, &[], &[]);
    lex_less(&mut s, &[], &[a]);
    assert!(s.propagate());
    lex_lesseq(&mut s, &[a], &[]);
    assert!(!s.propagate());
}

#[test]
fn counts_ordered_pairs_of_boolean_vectors() {
    // Of the 4^n pairs of 0/1 vectors of length n, 2^n are equal and half the rest ordered.
    for n in 1..=5u32 {
        for strict in [true, false] {
            let mut s = Solver::new();
            let x: Vec<VarId> = (0..n).map(|_| s.new_var(0, 1).unwrap()).collect();
            let y: Vec<VarId> = (0..n).map(|_| s.new_var(0, 1).unwrap()).collect();
            if strict {
                lex_less(&mut s, &x, &y);
            } else {
                lex_lesseq(&mut s, &x, &y);
            }
            let (all, equal) = (4u128.pow(n), 2u128.pow(n));
            let expected = (all - equal) / 2 + if strict { 0 } else { equal };
            assert_eq!(count(&mut s), expected, "n = {n}, strict: {strict}");
        }
    }
}
