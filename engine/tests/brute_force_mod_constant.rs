//! `z = x mod k` for a constant `k` (`constraints::mod_by_constant`) checked against brute
//! force on domains wide enough to need a bitset of several blocks (65 to 3 000 values,
//! with holes): a fixed `z` leaves `x` exactly the values with that remainder (the
//! progression listed directly and kept in one operation), a variable `z` leaves both sides
//! domain consistent, and search, with and without learning, finds exactly the solutions.
//! Branching on `z` first makes the graph rule cut `x` in bulk below the root, so the
//! undoing of those removals on backtrack is checked too.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::mod_by_constant;
use cpsolve_engine::{Branching, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Model {
    /// `x` starts as `lo..lo + span`, then loses `holes` (posted before the constraint).
    lo: Val,
    span: Val,
    holes: Vec<Val>,
    k: Val,
    /// `z` as an interval; a single value is the fixed case.
    z: (Val, Val),
    learning: bool,
}

impl Model {
    fn xs(&self) -> Vec<Val> {
        (self.lo..self.lo + self.span).filter(|v| !self.holes.contains(v)).collect()
    }

    /// Every solution `(x, z)`, sorted; Rust's `%` truncates as MiniZinc's `mod` does.
    fn brute_force(&self) -> Vec<(Val, Val)> {
        self.xs().into_iter().map(|v| (v, v % self.k)).filter(|&(_, w)| (self.z.0..=self.z.1).contains(&w)).collect()
    }

    fn build(&self) -> (Solver, VarId, VarId) {
        let mut s = Solver::new();
        let x = s.new_var(self.lo, self.lo + self.span - 1).expect("small");
        for &v in &self.holes {
            s.remove(x, v);
        }
        let z = s.new_var(self.z.0, self.z.1).expect("small");
        mod_by_constant(&mut s, x, self.k, z).expect("small");
        (s, x, z)
    }
}

fn model() -> impl Strategy<Value = Model> {
    let k = prop_oneof![
        2 => 1i64..=12,
        2 => -12i64..=-1,
        2 => 13i64..=150,
        1 => -150i64..=-13,
    ];
    (-1500i64..1500, 65i64..=3000, k, any::<bool>())
        .prop_flat_map(|(lo, span, k, learning)| {
            let holes = proptest::collection::vec(lo..lo + span, 0..40);
            let m = k.abs();
            // Fixed remainders reach one past the possible ones (no solution); intervals
            // straddle zero or not.
            let fixed = (-m..=m).prop_map(|r| (r, r));
            let interval = (-m..=m, 0..=m).prop_map(|(a, w)| (a, a + w));
            (Just(lo), Just(span), holes, Just(k), prop_oneof![fixed, interval], Just(learning))
        })
        .prop_map(|(lo, span, holes, k, z, learning)| Model { lo, span, holes, k, z, learning })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn mod_by_constant_is_domain_consistent_and_exact(m in model()) {
        let expected = m.brute_force();
        let (mut s, x, z) = m.build();
        if !s.propagate() {
            prop_assert!(expected.is_empty(), "failed with {} solutions", expected.len());
            return Ok(());
        }
        let mut x_supported: Vec<Val> = expected.iter().map(|&(v, _)| v).collect();
        x_supported.dedup();
        let mut z_supported: Vec<Val> = expected.iter().map(|&(_, w)| w).collect();
        z_supported.sort_unstable();
        z_supported.dedup();
        prop_assert_eq!(s.values(x).collect::<Vec<_>>(), x_supported, "x keeps exactly its supported values");
        prop_assert_eq!(s.values(z).collect::<Vec<_>>(), z_supported, "z keeps exactly its supported values");

        let config = SearchConfig {
            branching: vec![Branching { vars: vec![z, x], var_order: VarOrder::Input, val_order: ValOrder::Min }],
            check_solutions: true,
            learning: m.learning,
            ..SearchConfig::default()
        };
        let mut found = Vec::new();
        let outcome = s.search(&config, |sol| {
            found.push((sol.value(x), sol.value(z)));
            ControlFlow::Continue(())
        });
        prop_assert!(outcome.stopped.is_none());
        found.sort_unstable();
        prop_assert_eq!(found, expected);
    }
}
