//! The exact pruning each rule of the clause, parity, half-reified linear, reified
//! membership and binary function propagators promises, on hand-picked cases.
//!
//! The brute-force tests catch a rule that prunes too much (a lost solution); these
//! catch one that prunes too little or too late: each test states the domains expected
//! right after a given change, so weakening any rule makes one fail.

use cpsolve_engine::constraints::{binary_function, clause, half_reified_linear, parity, reified_in, reified_linear};
use cpsolve_engine::{Rel, Solver, Val, VarId};

fn values(solver: &Solver, x: VarId) -> Vec<Val> {
    solver.values(x).collect()
}

fn bools(solver: &mut Solver, n: usize) -> Vec<VarId> {
    (0..n).map(|_| solver.new_var(0, 1).unwrap()).collect()
}

#[test]
fn clause_waits_while_two_literals_are_open_then_fixes_the_last() {
    let mut s = Solver::new();
    let v = bools(&mut s, 4);
    // v0 ∨ v1 ∨ ¬v2 ∨ ¬v3
    clause(&mut s, &[v[0], v[1]], &[v[2], v[3]]);
    assert!(s.propagate());
    s.assign(v[0], 0);
    s.assign(v[2], 1);
    assert!(s.propagate());
    assert_eq!((values(&s, v[1]), values(&s, v[3])), (vec![0, 1], vec![0, 1]), "two literals open: nothing follows");
    s.assign(v[1], 0);
    assert!(s.propagate());
    assert_eq!(values(&s, v[3]), vec![0], "the last open literal ¬v3 must become true");
}

#[test]
fn clause_fails_when_every_literal_is_false_and_sleeps_once_one_is_true() {
    let mut s = Solver::new();
    let v = bools(&mut s, 3);
    clause(&mut s, &[v[0], v[1]], &[v[2]]);
    assert!(s.propagate());
    s.assign(v[2], 0);
    s.assign(v[0], 0);
    assert!(s.propagate());
    assert_eq!(values(&s, v[1]), vec![0, 1], "a true literal satisfies the clause: nothing forced");

    let mut s = Solver::new();
    let v = bools(&mut s, 2);
    clause(&mut s, &[v[0], v[1]], &[]);
    assert!(s.propagate());
    s.assign(v[0], 0);
    s.remove(v[1], 1);
    assert!(!s.propagate(), "all literals false");
}

#[test]
fn clause_simplifies_when_posted() {
    // Variables are narrowed to 0..1 even when the clause then disappears.
    let mut s = Solver::new();
    let x = s.new_var(-3, 5).unwrap();
    let y = s.new_var(-3, 5).unwrap();
    clause(&mut s, &[x, y], &[x]);
    assert_eq!((values(&s, x), values(&s, y)), (vec![0, 1], vec![0, 1]));
    assert_eq!(s.num_propagators(), 0, "x ∨ ¬x is a tautology");

    let mut s = Solver::new();
    let v = bools(&mut s, 3);
    s.assign(v[0], 1);
    clause(&mut s, &[v[0], v[1]], &[v[2]]);
    assert_eq!(s.num_propagators(), 0, "a true literal: nothing to post");

    let mut s = Solver::new();
    let v = bools(&mut s, 3);
    s.assign(v[0], 0);
    s.assign(v[1], 1);
    clause(&mut s, &[v[0], v[2], v[2]], &[v[1]]);
    assert_eq!(values(&s, v[2]), vec![1], "false literals drop out; the repeated v2 is a unit");
    assert!(!s.is_failed());

    let mut s = Solver::new();
    clause(&mut s, &[], &[]);
    assert!(s.is_failed(), "the empty clause");
}

#[test]
fn parity_fixes_the_last_variable_and_folds_repeats() {
    let mut s = Solver::new();
    let v = bools(&mut s, 4);
    parity(&mut s, &v, true);
    assert!(s.propagate());
    s.assign(v[0], 1);
    s.assign(v[3], 1);
    assert!(s.propagate());
    assert_eq!((values(&s, v[1]), values(&s, v[2])), (vec![0, 1], vec![0, 1]), "two open: nothing follows");
    s.assign(v[2], 0);
    assert!(s.propagate());
    assert_eq!(values(&s, v[1]), vec![1], "1 + 1 + 0 ones so far: the last must make it odd");

    // v0 ⊕ v0 ⊕ v1 = 0 ⟺ v1 = 0, and v0 is free (but 0/1).
    let mut s = Solver::new();
    let v0 = s.new_var(-2, 2).unwrap();
    let v1 = s.new_var(0, 1).unwrap();
    parity(&mut s, &[v0, v1, v0], false);
    assert_eq!((values(&s, v0), values(&s, v1)), (vec![0, 1], vec![0]));

    let mut s = Solver::new();
    parity(&mut s, &[], true);
    assert!(s.is_failed(), "no variable has an even count of ones");
}

#[test]
fn half_reified_le_refutes_b_on_bounds_and_propagates_bounds_when_b_is_true() {
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(0, 5).unwrap();
    let y = s.new_var(0, 5).unwrap();
    half_reified_linear(&mut s, b, &[(1, x), (1, y)], Rel::Le, 3).unwrap();
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0, 1]);
    s.set_min(x, 4);
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0], "x + y ≥ 4 > 3: b must be 0");
    assert_eq!(values(&s, y), vec![0, 1, 2, 3, 4, 5], "b = 0 asks nothing of the sum");

    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(0, 5).unwrap();
    let y = s.new_var(1, 5).unwrap();
    half_reified_linear(&mut s, b, &[(1, x), (1, y)], Rel::Le, 3).unwrap();
    assert!(s.propagate());
    s.assign(b, 1);
    assert!(s.propagate());
    assert_eq!((values(&s, x), values(&s, y)), (vec![0, 1, 2], vec![1, 2, 3]));
}

#[test]
fn half_reified_leaves_b_free_when_the_relation_must_hold() {
    let mut s = Solver::new();
    let (b, c) = (s.new_var(0, 1).unwrap(), s.new_var(0, 1).unwrap());
    let x = s.new_var(0, 5).unwrap();
    half_reified_linear(&mut s, b, &[(1, x)], Rel::Le, 20).unwrap();
    reified_linear(&mut s, c, &[(1, x)], Rel::Le, 20).unwrap();
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0, 1], "b → true: b may be anything");
    assert_eq!(values(&s, c), vec![1], "the full reification is unchanged: c ⇔ true");
}

#[test]
fn half_reified_eq_and_ne_use_the_last_variable_s_domain() {
    // b → x = 3 with 3 ∉ D(x): refuted by a hole, not by the bounds.
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var_in(&[1, 2, 4, 5]).unwrap();
    let y = s.new_var(0, 2).unwrap();
    half_reified_linear(&mut s, b, &[(1, x), (1, y)], Rel::Eq, 3).unwrap();
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0, 1]);
    s.assign(y, 0);
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0]);

    // b → x + y ≠ 5: with b = 1 and y = 2, x loses 3 (and only 3).
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(0, 5).unwrap();
    let y = s.new_var(0, 5).unwrap();
    half_reified_linear(&mut s, b, &[(1, x), (1, y)], Rel::Ne, 5).unwrap();
    assert!(s.propagate());
    s.assign(b, 1);
    s.assign(y, 2);
    assert!(s.propagate());
    assert_eq!(values(&s, x), vec![0, 1, 2, 4, 5]);

    // b → x + y ≠ 5 refuted once x + y = 5 is fixed.
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(0, 5).unwrap();
    let y = s.new_var(0, 5).unwrap();
    half_reified_linear(&mut s, b, &[(1, x), (1, y)], Rel::Ne, 5).unwrap();
    assert!(s.propagate());
    s.assign(x, 2);
    s.assign(y, 3);
    assert!(s.propagate());
    assert_eq!(values(&s, b), vec![0]);
}

#[test]
fn half_reified_decides_constant_relations_when_posted() {
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(2, 2).unwrap();
    half_reified_linear(&mut s, b, &[(3, x)], Rel::Gt, 6).unwrap();
    assert_eq!(values(&s, b), vec![0], "3·2 > 6 is false");
    assert_eq!(s.num_propagators(), 0);

    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    half_reified_linear(&mut s, b, &[], Rel::Ge, 0).unwrap();
    assert_eq!(values(&s, b), vec![0, 1], "0 ≥ 0 is true: b stays free");
}

#[test]
fn reified_in_prunes_each_way() {
    let set = [5, 2, 2, 9];
    // b = 1 keeps the members, b = 0 removes them (full only).
    for (b_value, half, expected) in
        [(1, false, vec![2, 5]), (0, false, vec![1, 3, 4, 6]), (1, true, vec![2, 5]), (0, true, vec![1, 2, 3, 4, 5, 6])]
    {
        let mut s = Solver::new();
        let b = s.new_var(0, 1).unwrap();
        let x = s.new_var(1, 6).unwrap();
        reified_in(&mut s, b, x, &set, half);
        assert!(s.propagate());
        assert_eq!(values(&s, x), vec![1, 2, 3, 4, 5, 6]);
        s.assign(b, b_value);
        assert!(s.propagate());
        assert_eq!(values(&s, x), expected, "b = {b_value}, half = {half}");
    }
    // D(x) ⊆ S: b = 1 (full only); D(x) ∩ S = ∅: b = 0 (both).
    for (domain, half, expected) in [
        (vec![2, 5], false, vec![1]),
        (vec![2, 5], true, vec![0, 1]),
        (vec![1, 3], false, vec![0]),
        (vec![1, 3], true, vec![0]),
        (vec![1, 2], false, vec![0, 1]),
    ] {
        let mut s = Solver::new();
        let b = s.new_var(0, 1).unwrap();
        let x = s.new_var(1, 6).unwrap();
        reified_in(&mut s, b, x, &set, half);
        assert!(s.propagate());
        for v in 1..=6 {
            if !domain.contains(&v) {
                s.remove(x, v);
            }
        }
        assert!(s.propagate());
        assert_eq!(values(&s, b), expected, "D(x) = {domain:?}, half = {half}");
    }
}

#[test]
fn reified_in_with_an_empty_set_is_false() {
    let mut s = Solver::new();
    let b = s.new_var(0, 1).unwrap();
    let x = s.new_var(1, 6).unwrap();
    reified_in(&mut s, b, x, &[], false);
    assert_eq!(values(&s, b), vec![0]);
}

#[test]
fn binary_function_keeps_exactly_the_supported_values() {
    let div = |x: Val, y: Val| x.checked_div(y);
    let mut s = Solver::new();
    let x = s.new_var(-3, 3).unwrap();
    let y = s.new_var(-2, 2).unwrap();
    let z = s.new_var(-3, 3).unwrap();
    binary_function(&mut s, x, y, z, div, "div").unwrap();
    assert!(s.propagate());
    assert_eq!(values(&s, y), vec![-2, -1, 1, 2], "division by zero supports nothing");
    s.assign(z, 3);
    assert!(s.propagate());
    // x div y = 3 with |x| ≤ 3: x = ±3, y = ±1 (same signs).
    assert_eq!((values(&s, x), values(&s, y)), (vec![-3, 3], vec![-1, 1]));
    s.assign(x, -3);
    assert!(s.propagate());
    assert_eq!(values(&s, y), vec![-1]);
}

#[test]
fn binary_function_decides_fixed_arguments_when_posted() {
    let rem = |x: Val, y: Val| x.checked_rem(y);
    let mut s = Solver::new();
    let x = s.new_var(7, 7).unwrap();
    let y = s.new_var(-3, -3).unwrap();
    let z = s.new_var(-5, 5).unwrap();
    binary_function(&mut s, x, y, z, rem, "mod").unwrap();
    assert!(s.propagate());
    assert_eq!(values(&s, z), vec![1], "7 mod -3 = 1 (the sign of the dividend)");

    let mut s = Solver::new();
    let x = s.new_var(7, 7).unwrap();
    let y = s.new_var(0, 0).unwrap();
    let z = s.new_var(-5, 5).unwrap();
    binary_function(&mut s, x, y, z, rem, "mod").unwrap();
    assert!(!s.propagate(), "7 mod 0 is undefined");
}

#[test]
fn binary_function_waits_above_the_pair_limit_then_filters() {
    let rem = |x: Val, y: Val| x.checked_rem(y);
    let mut s = Solver::new();
    let x = s.new_var(0, 999).unwrap();
    let y = s.new_var(0, 999).unwrap();
    let z = s.new_var(998, 998).unwrap();
    binary_function(&mut s, x, y, z, rem, "mod").unwrap();
    assert!(s.propagate());
    assert_eq!((s.size(x), s.size(y)), (1000, 1000), "10^6 pairs: forward checking only");
    s.set_min(y, 999);
    assert!(s.propagate());
    assert_eq!(values(&s, x), vec![998], "one y left: 1,000 pairs, filtered exactly");
}
