//! The meaning of the language's newer forms, checked by counting solutions against a
//! brute force written here in plain Rust: relational semantics of partial expressions,
//! `if`, `let`, predicates, membership, enums, sets.

mod common;

fn count(source: &str) -> u128 {
    common::count_solutions(source, |_| false)
}

/// Every assignment of `n` variables over `lo..=hi`.
fn assignments(n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for _ in 0..n {
        all = all.into_iter().flat_map(|a: Vec<i64>| (lo..=hi).map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    all
}

#[test]
fn an_index_out_of_range_makes_its_condition_false() {
    // MiniZinc's relational semantics: for i in 6..10, `a[i] == 3` is false, not an error,
    // and the index is not restricted for the whole model.
    let head = "var i in 1..10\nvar a[1..5] in 0..3\n";
    let brute = |holds: &dyn Fn(i64, &[i64]) -> bool| {
        let mut n = 0;
        for i in 1..=10 {
            for a in assignments(5, 0, 3) {
                n += u128::from(holds(i, &a));
            }
        }
        n
    };
    let at = |a: &[i64], i: i64| (1..=5).contains(&i).then(|| a[i as usize - 1]);
    assert_eq!(count(&format!("{head}i <= 5 -> a[i] == 3\n")), brute(&|i, a| i > 5 || at(a, i) == Some(3)));
    assert_eq!(count(&format!("{head}count([a[i]], 3) == 1 or i > 5\n")), brute(&|i, a| i > 5 || at(a, i) == Some(3)));
    assert_eq!(count(&format!("{head}not (a[i] == 3)\n")), brute(&|i, a| at(a, i) != Some(3)));
    assert_eq!(count(&format!("{head}a[i] == 3\n")), brute(&|i, a| at(a, i) == Some(3)));
    assert_eq!(
        count(&format!("{head}(a[i] >= 2) == (i < 3)\n")),
        brute(&|i, a| at(a, i).is_some_and(|v| v >= 2) == (i < 3))
    );
}

#[test]
fn constant_indices_out_of_range_inside_conditions() {
    // x[i + 1] past the end, in a condition over variables and in a `where`.
    let model = "var x[1..3] in 0..2\nforall i in 1..3: x[i] > 0 -> x[i + 1] > 0\n";
    let brute = assignments(3, 0, 2)
        .iter()
        .filter(|x| (0..3).all(|i| x[i] == 0 || x.get(i + 1).is_some_and(|&v| v > 0)))
        .count() as u128;
    assert_eq!(count(model), brute);
    let where_model = "let a = [1, 5, 2]\nvar x[1..3] in 0..1\nforall i in 1..3 where a[i + 1] > 1: x[i] == 1\n";
    let brute = assignments(3, 0, 1).iter().filter(|x| x[0] == 1 && x[1] == 1).count() as u128;
    assert_eq!(count(where_model), brute);
}

#[test]
fn a_constant_array_read_at_a_constant_index_of_another_is_a_constant() {
    // region_size[puzzle[r, c]] in a `where` (it was refused as depending on a variable).
    let model = "let puzzle = [[1, 2], [2, 2]]\nlet size = [1, 3]\nvar x[1..2, 1..2] in 0..3\n\
                 forall r, c in 1..2 where size[puzzle[r, c]] == 3: x[r, c] == 1\n";
    assert_eq!(count(model), 4);
}
