//! `Context::intersect` and `Context::overlaps` compare two domains a word of 64 values at a
//! time (and `Context::remove_sorted` removes the differences at once), on domains of every
//! kind: one word, a wide bitset, with offsets that do not line up. Checked against brute
//! force on random domains: after `x = y` by `intersect`, both domains are exactly the
//! common values (with their bounds and sizes); the search finds exactly the pairs `(v, v)`
//! under a cut on `x` that moves during the search; and a propagator that fails only where
//! `overlaps` says the domains share nothing accepts exactly the equal pairs.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{
    Branching, Context, PostContext, PropResult, PropStatus, Propagator, Rel, SearchConfig, Solver, ValOrder, VarId,
    VarOrder,
};
use proptest::prelude::*;

/// `x = y`, by the common values of the domains.
#[derive(Debug)]
struct Same {
    x: VarId,
    y: VarId,
}

impl Propagator for Same {
    fn name(&self) -> &'static str {
        "same"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, cpsolve_engine::Events::DOMAIN);
        cx.subscribe(self.y, cpsolve_engine::Events::DOMAIN);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        cx.intersect(self.x, self.y)?;
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i64) -> bool {
        value(self.x) == value(self.y)
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y]
    }
}

/// Fails only when `x` and `y` share no value: with both fixed, `x = y`.
#[derive(Debug)]
struct Share {
    x: VarId,
    y: VarId,
}

impl Propagator for Share {
    fn name(&self) -> &'static str {
        "share"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, cpsolve_engine::Events::DOMAIN);
        cx.subscribe(self.y, cpsolve_engine::Events::DOMAIN);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        if cx.overlaps(self.x, self.y) {
            Ok(PropStatus::Active)
        } else {
            Err(cpsolve_engine::Conflict)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i64) -> bool {
        value(self.x) == value(self.y)
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y]
    }
}

/// A domain: `count` values drawn from `start..start + span`, spans on both sides of one
/// word and of several, starts that put the two domains' words out of line.
fn domain() -> impl Strategy<Value = Vec<i64>> {
    (prop_oneof![Just(10i64), Just(64), Just(65), Just(200), Just(700)], -130i64..130).prop_flat_map(|(span, start)| {
        prop_oneof![
            // Sparse.
            proptest::collection::btree_set(start..start + span, 1..24usize),
            // Dense: most of the range, a few holes.
            proptest::collection::btree_set(start..start + span, 0..8usize).prop_map(move |holes| {
                let all: std::collections::BTreeSet<i64> =
                    (start..start + span).filter(|v| !holes.contains(v)).collect();
                all
            }),
        ]
        .prop_map(|s| s.into_iter().collect::<Vec<_>>())
    })
}

fn solutions(solver: &mut Solver, x: VarId, y: VarId, first: VarId) -> Vec<(i64, i64)> {
    let config = SearchConfig {
        branching: vec![Branching {
            vars: if first == x { vec![x, y] } else { vec![y, x] },
            var_order: VarOrder::Input,
            val_order: ValOrder::Min,
        }],
        ..SearchConfig::default()
    };
    let mut found = Vec::new();
    let _ = solver.search(&config, |s| {
        found.push((s.value(x), s.value(y)));
        ControlFlow::Continue(())
    });
    found.sort_unstable();
    found
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn intersect_leaves_exactly_the_common_values(dx in domain(), dy in domain(), cut in 0usize..40) {
        let common: Vec<i64> = dx.iter().copied().filter(|v| dy.binary_search(v).is_ok()).collect();
        let mut solver = Solver::new();
        let x = solver.new_var_in(&dx).expect("non-empty");
        let y = solver.new_var_in(&dy).expect("non-empty");
        let _ = solver.post(Box::new(Same { x, y }));
        let consistent = solver.propagate();
        prop_assert_eq!(consistent, !common.is_empty());
        if common.is_empty() {
            return Ok(());
        }
        for v in [x, y] {
            prop_assert_eq!(solver.values(v).collect::<Vec<_>>(), common.clone());
            prop_assert_eq!((solver.min(v), solver.max(v)), (common[0], common[common.len() - 1]));
            prop_assert_eq!(solver.size(v), common.len() as u64);
        }

        // Search, y first, under `x ≥ c` posted fresh: every pair (v, v) with v ≥ c.
        let c = dx[cut % dx.len()];
        let mut solver = Solver::new();
        let x = solver.new_var_in(&dx).expect("non-empty");
        let y = solver.new_var_in(&dy).expect("non-empty");
        let _ = solver.post(Box::new(Same { x, y }));
        linear(&mut solver, &[(1, x)], Rel::Ge, c).expect("small");
        let expected: Vec<(i64, i64)> = common.iter().filter(|&&v| v >= c).map(|&v| (v, v)).collect();
        prop_assert_eq!(solutions(&mut solver, x, y, y), expected);
    }

    #[test]
    fn overlaps_tells_exactly_whether_a_value_is_shared(dx in domain(), dy in domain()) {
        let common: Vec<i64> = dx.iter().copied().filter(|v| dy.binary_search(v).is_ok()).collect();
        let mut solver = Solver::new();
        let x = solver.new_var_in(&dx).expect("non-empty");
        let y = solver.new_var_in(&dy).expect("non-empty");
        let _ = solver.post(Box::new(Share { x, y }));
        prop_assert_eq!(solver.propagate(), !common.is_empty());
        if common.is_empty() {
            return Ok(());
        }
        // Every fixed pair is checked: only the equal ones survive.
        let expected: Vec<(i64, i64)> = common.iter().map(|&v| (v, v)).collect();
        prop_assert_eq!(solutions(&mut solver, x, y, x), expected);
    }
}
