//! `Context::retain` removes every value a propagator rejects. On a domain of at most 64
//! values it removes them all at once (one trail record, one wake-up); on a wider one, value by
//! value. Either way the domain left must be exactly the values kept, its cached bounds must be
//! values of it, and a propagator waiting for bound changes must hear of a moved bound.

use cpsolve_engine::constraints::linear;
use cpsolve_engine::{Context, PostContext, Priority, PropResult, PropStatus, Propagator, Rel, Solver, VarId};
use proptest::prelude::*;

/// Keeps in `x` only the values of `allowed`.
#[derive(Debug)]
struct KeepOnly {
    x: VarId,
    allowed: Vec<i64>,
}

impl Propagator for KeepOnly {
    fn name(&self) -> &'static str {
        "keep only"
    }

    fn post(&mut self, _cx: &mut PostContext<'_>) -> PropResult {
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let allowed = &self.allowed;
        cx.retain(self.x, |_, v| allowed.binary_search(&v).is_ok())?;
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i64) -> bool {
        self.allowed.binary_search(&value(self.x)).is_ok()
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x]
    }

    // After `y = x` has run once: only the bound change that retain reports wakes it again.
    fn priority(&self) -> Priority {
        Priority::Last
    }
}

fn case() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    // Spans on both sides of 64 (one word or a bitset on the heap).
    prop_oneof![Just(10i64), Just(60), Just(64), Just(65), Just(200)].prop_flat_map(|span| {
        let set = move || {
            proptest::collection::btree_set(0..span, 1..(span as usize).min(80))
                .prop_map(|s| s.into_iter().collect::<Vec<_>>())
        };
        (set(), set())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn retain_leaves_exactly_the_kept_values((values, allowed) in case()) {
        let mut solver = Solver::new();
        let x = solver.new_var_in(&values).expect("non-empty");
        // `y = x` by bounds reasoning: y's bounds follow x's only if retain reports them.
        let y = solver.new_var(-1000, 1000).expect("non-empty");
        linear(&mut solver, &[(1, x), (-1, y)], Rel::Eq, 0).expect("small");
        let _ = solver.post(Box::new(KeepOnly { x, allowed: allowed.clone() }));
        let kept: Vec<i64> = values.iter().copied().filter(|v| allowed.binary_search(v).is_ok()).collect();
        let consistent = solver.propagate();
        prop_assert_eq!(consistent, !kept.is_empty());
        if kept.is_empty() {
            return Ok(());
        }
        prop_assert_eq!(solver.values(x).collect::<Vec<_>>(), kept.clone());
        prop_assert_eq!(solver.min(x), kept[0]);
        prop_assert_eq!(solver.max(x), kept[kept.len() - 1]);
        prop_assert_eq!(solver.size(x), kept.len() as u64);
        prop_assert_eq!((solver.min(y), solver.max(y)), (kept[0], kept[kept.len() - 1]));
    }
}
