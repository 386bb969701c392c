//! `b ⇔ x = y` (`reified_equal`) checked against brute force on small random domains with
//! holes, `b` open or fixed, values removed or fixed after posting:
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - domain consistency once `b` is true: `x` and `y` keep the same set of values, each
//!   with a solution (a value of both is `x = y = v`);
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order.

use cpsolve_engine::constraints::reified_equal;
use cpsolve_engine::{Solver, Val, VarId};
use proptest::prelude::*;

mod common;

#[derive(Debug, Clone)]
struct Model {
    /// The domains of `b`, `x`, `y`.
    domains: [Vec<Val>; 3],
    /// `(variable, value, fix)`: after posting, fix the variable to the value or remove it.
    late: Vec<(usize, Val, bool)>,
    /// `x` and `y` are one variable.
    aliased: bool,
    var_order: usize,
    val_order: usize,
}

impl Model {
    fn final_domains(&self) -> [Vec<Val>; 3] {
        let mut d = self.domains.clone();
        for &(i, v, fix) in &self.late {
            let i = if self.aliased && i == 2 { 1 } else { i };
            d[i].retain(|&w| (w == v) == fix);
        }
        if self.aliased {
            d[2] = d[1].clone();
        }
        d
    }

    fn brute_force(&self) -> Vec<Vec<Val>> {
        let d = self.final_domains();
        let mut found = Vec::new();
        for &b in &d[0] {
            for &x in &d[1] {
                for &y in &d[2] {
                    if (0..=1).contains(&b) && (!self.aliased || x == y) && (x == y) == (b == 1) {
                        found.push(vec![b, x, y]);
                    }
                }
            }
        }
        found
    }

    fn build(&self) -> Option<(Solver, Vec<VarId>)> {
        let mut s = Solver::new();
        let b = s.new_var_in(&self.domains[0]).ok()?;
        let x = s.new_var_in(&self.domains[1]).ok()?;
        let y = if self.aliased { x } else { s.new_var_in(&self.domains[2]).ok()? };
        reified_equal(&mut s, b, x, y);
        let vars = vec![b, x, y];
        for &(i, v, fix) in &self.late {
            if fix {
                s.assign(vars[i], v);
            } else {
                s.remove(vars[i], v);
            }
        }
        Some((s, vars))
    }
}

fn domain(lo: Val, hi: Val) -> impl Strategy<Value = Vec<Val>> {
    proptest::collection::btree_set(lo..=hi, 1..=(hi - lo + 1) as usize).prop_map(|s| s.into_iter().collect())
}

fn model() -> impl Strategy<Value = Model> {
    (
        domain(-1, 2),
        domain(-3, 3),
        domain(-3, 3),
        proptest::collection::vec((0usize..3, -3i64..=3, any::<bool>()), 0..3),
        proptest::bool::weighted(0.1),
        0..common::VAR_ORDERS.len(),
        0..common::VAL_ORDERS.len(),
    )
        .prop_map(|(b, x, y, late, aliased, var_order, val_order)| Model {
            domains: [b, x, y],
            late,
            aliased,
            var_order,
            val_order,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn reified_equal_agrees_with_brute_force(m in model()) {
        let expected = m.brute_force();
        let Some((mut s, vars)) = m.build() else { return Ok(()) };
        if !s.propagate() {
            prop_assert!(expected.is_empty(), "propagation failed, {} solutions exist", expected.len());
            return Ok(());
        }
        for sol in &expected {
            for (k, &v) in sol.iter().enumerate() {
                prop_assert!(s.contains(vars[k], v), "a solution's value {v} of variable {k} was pruned");
            }
        }
        if s.is_fixed(vars[0]) && s.min(vars[0]) == 1 {
            let (x, y): (Vec<Val>, Vec<Val>) = (s.values(vars[1]).collect(), s.values(vars[2]).collect());
            prop_assert_eq!(&x, &y, "b true: x and y keep the same values");
            for v in x {
                prop_assert!(expected.contains(&vec![1, v, v]), "b true: {v} is kept without a solution");
            }
        }
        let mut expected = expected;
        expected.sort();
        let found = common::all_solutions(&mut s, &vars, m.var_order, m.val_order);
        prop_assert_eq!(found, Some(expected));
    }
}
