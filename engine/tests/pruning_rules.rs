//! The exact pruning each rule of the clause, parity, half-reified linear, reified
//! membership, binary function, absolute value and division by a constant propagators
//! promises, on hand-picked cases.
//!
//! The brute-force tests catch a rule that prunes too much (a lost solution); these
//! catch one that prunes too little or too late: each test states the domains expected
//! right after a given change, so weakening any rule makes one fail.

use cpsolve_engine::constraints::{
    abs, binary_function, clause, div_by_constant, half_reified_linear, parity, reified_in, reified_linear,
};
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

/// `(min, max)` of each variable.
fn bounds(solver: &Solver, xs: &[VarId]) -> Vec<(Val, Val)> {
    xs.iter().map(|&x| (solver.min(x), solver.max(x))).collect()
}

// `abs` and `div_by_constant` below take x with more than 4096 values: the bounds
// propagators (`Abs`, `Monotone`), not a table.

#[test]
fn abs_moves_a_bound_of_x_out_of_the_hole() {
    // |x| ≥ 4500: a hole of 8999 values, too wide to cut value by value.
    for (bound_in_hole, expected_x) in [(Ok(-4499), (4500, 6000)), (Err(4499), (-6000, -4500))] {
        let mut s = Solver::new();
        let x = s.new_var(-6000, 6000).unwrap();
        let z = s.new_var(0, 7000).unwrap();
        abs(&mut s, x, z).unwrap();
        assert!(s.propagate());
        s.set_min(z, 4500);
        assert!(s.propagate());
        assert_eq!(s.size(x), 12001, "both bounds of x outside (-4500, 4500): the wide hole stays");
        match bound_in_hole {
            Ok(lo) => s.set_min(x, lo),
            Err(hi) => s.set_max(x, hi),
        }
        assert!(s.propagate());
        assert_eq!(
            bounds(&s, &[x, z]),
            vec![expected_x, (4500, 6000)],
            "a bound of x inside the hole moves to its edge"
        );
    }

    // |x| ≥ 3: a small hole, cut value by value (up to |x| ≥ 4096).
    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(0, 7000).unwrap();
    abs(&mut s, x, z).unwrap();
    assert!(s.propagate());
    s.set_min(z, 3);
    assert!(s.propagate());
    assert_eq!(s.size(x), 10001 - 5);
    assert!((-2..=2).all(|v| !s.contains(x, v)) && s.contains(x, -3) && s.contains(x, 3));
    for (zlo, cut) in [(4096, true), (4097, false)] {
        let mut s = Solver::new();
        let x = s.new_var(-5000, 5000).unwrap();
        let z = s.new_var(zlo, 7000).unwrap();
        abs(&mut s, x, z).unwrap();
        assert!(s.propagate());
        assert_eq!(s.size(x), if cut { 10001 - 8191 } else { 10001 }, "|x| ≥ {zlo}");
    }
}

#[test]
fn abs_goes_by_its_graph_up_to_64_values_of_x_and_by_bounds_beyond() {
    // x in {-7, 3} and 62 or 63 more values from 100 up: z = |x| keeps exactly the images
    // while x has at most 64 values (domain consistent), and only bounds beyond, where
    // reading the graph at every call costs more than it prunes.
    for (top, graph) in [(161, true), (162, false)] {
        let mut s = Solver::new();
        let x = s.new_var(-7, top).unwrap();
        for v in (-6..=2).chain(4..=99) {
            s.remove(x, v);
        }
        assert!(s.propagate());
        assert_eq!(s.size(x), if graph { 64 } else { 65 });
        let z = s.new_var(0, 1000).unwrap();
        abs(&mut s, x, z).unwrap();
        assert!(s.propagate());
        if graph {
            let images: Vec<Val> = [3, 7].into_iter().chain(100..=top).collect();
            assert_eq!(values(&s, z), images, "x with 64 values: the images of x, no more");
        } else {
            assert_eq!(bounds(&s, &[z]), vec![(0, top)], "x with 65 values: bounds, x across 0");
            assert_eq!(s.size(z), (top + 1) as u64, "z keeps the values no x maps to");
        }
    }
}

#[test]
fn abs_bounds_z_from_the_bounds_of_x_and_x_from_max_z() {
    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(-100, 9000).unwrap();
    abs(&mut s, x, z).unwrap();
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[z]), vec![(0, 5000)], "x across 0: z in [0, max(-min x, max x)]");
    s.set_min(x, -3000);
    s.set_max(x, 2000);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[z]), vec![(0, 3000)]);
    s.set_min(x, 1000);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[z]), vec![(1000, 2000)], "x ≥ 0: z in [min x, max x]");

    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(0, 9000).unwrap();
    abs(&mut s, x, z).unwrap();
    assert!(s.propagate());
    s.set_min(x, -2000);
    s.set_max(x, -1000);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[z]), vec![(1000, 2000)], "x ≤ 0: z in [-max x, -min x]");

    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(0, 9000).unwrap();
    abs(&mut s, x, z).unwrap();
    assert!(s.propagate());
    s.set_max(z, 1500);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[x]), vec![(-1500, 1500)], "x in [-max z, max z]");
    s.assign(x, -1200);
    assert!(s.propagate());
    assert_eq!(values(&s, z), vec![1200]);
}

#[test]
fn abs_and_division_check_full_assignments() {
    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(-5000, 5000).unwrap();
    abs(&mut s, x, z).unwrap();
    s.assign(x, -7);
    s.assign(z, 6);
    assert_eq!(s.violated_constraint().map(|c| c.1), Some("abs"));
    let mut s = Solver::new();
    let x = s.new_var(-5000, 5000).unwrap();
    let z = s.new_var(-5000, 5000).unwrap();
    abs(&mut s, x, z).unwrap();
    s.assign(x, -7);
    s.assign(z, 7);
    assert_eq!(s.violated_constraint(), None);

    // -20 div 7 = -2 (toward zero), not -3.
    for (vz, ok) in [(-2, true), (-3, false)] {
        let mut s = Solver::new();
        let x = s.new_var(-5000, 5000).unwrap();
        let z = s.new_var(-5000, 5000).unwrap();
        div_by_constant(&mut s, x, 7, z).unwrap();
        s.assign(x, -20);
        s.assign(z, vz);
        assert_eq!(s.violated_constraint().is_none(), ok, "-20 div 7 = {vz}");
    }
}

#[test]
fn division_by_a_constant_bounds_x_by_binary_search_from_z() {
    for (k, window, expected_x) in [
        (7, (3, 5), (21, 41)),
        (7, (-5, -3), (-41, -21)),
        (7, (0, 0), (-6, 6)),
        (7, (-1, 2), (-13, 20)),
        (-7, (3, 5), (-41, -21)),
        (-7, (-5, -3), (21, 41)),
        (-7, (0, 0), (-6, 6)),
        (1, (3, 5), (3, 5)),
        (-1, (3, 5), (-5, -3)),
        (1000, (9, 10), (9000, 10000)),
    ] {
        let mut s = Solver::new();
        let x = s.new_var(-10000, 10000).unwrap();
        let z = s.new_var(-20000, 20000).unwrap();
        div_by_constant(&mut s, x, k, z).unwrap();
        assert!(s.propagate());
        let q = 10000 / k.abs();
        assert_eq!(bounds(&s, &[z]), vec![(-q, q)], "k = {k}: z from the bounds of x");
        s.set_min(z, window.0);
        s.set_max(z, window.1);
        assert!(s.propagate());
        assert_eq!(bounds(&s, &[x, z]), vec![expected_x, window], "k = {k}, z in {window:?}");
    }

    // The first value found is missing: the bound moves on to the next one present.
    let mut s = Solver::new();
    let x = s.new_var(-10000, 10000).unwrap();
    let z = s.new_var(-20000, 20000).unwrap();
    div_by_constant(&mut s, x, 7, z).unwrap();
    assert!(s.propagate());
    for v in [21, 22, 40, 41] {
        s.remove(x, v);
    }
    s.set_min(z, 3);
    s.set_max(z, 5);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[x]), vec![(23, 39)]);

    // z from the bounds of x, and z fixed when x is.
    let mut s = Solver::new();
    let x = s.new_var(-10000, 10000).unwrap();
    let z = s.new_var(-20000, 20000).unwrap();
    div_by_constant(&mut s, x, 7, z).unwrap();
    assert!(s.propagate());
    s.set_min(x, -100);
    s.set_max(x, -15);
    assert!(s.propagate());
    assert_eq!(bounds(&s, &[z]), vec![(-14, -2)]);
    s.assign(x, -20);
    assert!(s.propagate());
    assert_eq!(values(&s, z), vec![-2]);
}
