//! MiniZinc's array coercions against brute force: a constant array of 1 to 3 dimensions
//! with index sets that start anywhere, made by `arrayNd(S1, …, list)` or by a typed
//! declaration whose index sets reshape a coerced value, read at variable indices; its
//! index sets folded by `index_set_KofN`, and its elements flattened by `array1d`. The
//! brute force reads the flat list in row-major order from the declared index sets.

mod common;

use cpsolve_engine::Val;
use proptest::prelude::*;

/// One dimension: its first index and its number of indices.
type Dim = (Val, Val);

fn range(lo: Val, extent: Val) -> String {
    format!("{lo}..{}", lo + extent - 1)
}

/// The model, and what it should count.
fn model(dims: &[Dim], values: &[Val], typed: bool, c: Val, k: usize) -> String {
    let n = dims.len();
    let list = values.iter().map(Val::to_string).collect::<Vec<_>>().join(", ");
    let sets: Vec<String> = dims.iter().map(|&(lo, e)| range(lo, e)).collect();
    let mut source = if typed {
        // The value is indexed from 1 in each dimension; the declaration moves it.
        let ones: Vec<String> = dims.iter().map(|&(_, e)| range(1, e)).collect();
        format!("array[{}] of int: t = array{n}d({}, [{list}]);\n", sets.join(", "), ones.join(", "))
    } else {
        format!("let t = array{n}d({}, [{list}])\n", sets.join(", "))
    };
    for (d, &(lo, e)) in dims.iter().enumerate() {
        source.push_str(&format!("var i{d} in {}..{}\n", lo - 1, lo + e));
    }
    source.push_str("var v in -3..3\n");
    let indices: Vec<String> = (0..n).map(|d| format!("i{d}")).collect();
    source.push_str(&format!("t[{}] == v + {c}\n", indices.join(", ")));
    let index_set = if n == 1 { "index_set".to_owned() } else { format!("index_set_{}of{n}", k + 1) };
    source.push_str(&format!("v >= min({index_set}(t)) - 1\n"));
    source.push_str("count(array1d(t), v) >= 1\n");
    source.push_str("solve count\n");
    source
}

/// The same count by enumeration: every index tuple (in range or not) and every `v`.
fn brute(dims: &[Dim], values: &[Val], c: Val, k: usize) -> u128 {
    let mut solutions = 0;
    let tuples: Vec<Vec<Val>> = dims.iter().fold(vec![Vec::new()], |acc, &(lo, e)| {
        acc.iter().flat_map(|t| (lo - 1..=lo + e).map(move |i| [t.clone(), vec![i]].concat())).collect()
    });
    for tuple in &tuples {
        // Row-major offset, or none when an index leaves its range (at the top level the
        // read restricts the index: no solution there).
        let mut offset = Some(0i64);
        for (&i, &(lo, e)) in tuple.iter().zip(dims) {
            offset = offset.filter(|_| (lo..lo + e).contains(&i)).map(|o| o * e + (i - lo));
        }
        let Some(offset) = offset else { continue };
        for v in -3..=3 {
            let cell = values[offset as usize];
            if cell == v + c && v >= dims[k].0 - 1 && values.contains(&v) {
                solutions += 1;
            }
        }
    }
    solutions
}

fn case() -> impl Strategy<Value = (Vec<Dim>, Vec<Val>)> {
    prop::collection::vec((-2i64..=1, 1i64..=3), 1..=3).prop_flat_map(|dims| {
        let cells = dims.iter().map(|&(_, e)| e as usize).product::<usize>();
        (Just(dims), prop::collection::vec(-3i64..=3, cells))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn coerced_arrays_read_in_row_major_order_from_their_index_sets(
        (dims, values) in case(),
        typed in any::<bool>(),
        c in -1i64..=1,
        k in 0usize..3,
    ) {
        let k = k % dims.len();
        let source = model(&dims, &values, typed, c, k);
        let counted = common::count_solutions(&source, |_| false);
        prop_assert_eq!(counted, brute(&dims, &values, c, k), "{}", source);
    }
}
