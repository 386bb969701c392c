//! A domain's size is kept three ways: counted from one word (at most 64 values), counted
//! from a few words when asked (at most 256), or kept up to date at every change (wider).
//! Whatever the way, after any sequence of bound changes and removals it must equal the
//! number of values left.

use cpsolve_engine::Solver;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    SetMin(i64),
    SetMax(i64),
    Remove(i64),
}

fn op(lo: i64, hi: i64) -> impl Strategy<Value = Op> {
    prop_oneof![
        (lo..=hi).prop_map(Op::SetMin),
        (lo..=hi).prop_map(Op::SetMax),
        (lo..=hi).prop_map(Op::Remove),
        (lo..=hi).prop_map(Op::Remove),
    ]
}

fn case() -> impl Strategy<Value = (Vec<i64>, Vec<Op>)> {
    // Spans on both sides of 64 and of 256.
    prop_oneof![Just(60i64), Just(70), Just(250), Just(260), Just(600)].prop_flat_map(|span| {
        let values = proptest::collection::btree_set(-20..span - 20, 1..(span as usize).min(200))
            .prop_map(|s| s.into_iter().collect::<Vec<_>>());
        (values, proptest::collection::vec(op(-25, span - 15), 0..40))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_size_is_the_number_of_values_left((values, ops) in case()) {
        let mut solver = Solver::new();
        let x = solver.new_var_in(&values).expect("non-empty");
        prop_assert_eq!(solver.size(x), values.len() as u64);
        for op in ops {
            match op {
                Op::SetMin(v) => solver.set_min(x, v),
                Op::SetMax(v) => solver.set_max(x, v),
                Op::Remove(v) => solver.remove(x, v),
            }
            if solver.is_failed() {
                break;
            }
            prop_assert_eq!(solver.size(x), solver.values(x).count() as u64, "after {:?}", op);
        }
    }
}
