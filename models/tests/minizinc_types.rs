//! MiniZinc's types where `.puz` reads and leaves them out: typed parameters and result
//! types of predicates and functions, typed definitions inside `let { … }` (a domain other
//! than `int` posts that the value lies in it), and annotations on each conjunct of a
//! constraint (`alldifferent(x) :: domain /\ circuit(x)`); `enum_next(x)` and `enum_prev(x)`
//! without their enum. Counts against a brute force.

mod common;

fn count(source: &str) -> u128 {
    common::count_solutions(source, |_| false)
}

/// Every assignment of `n` variables over `lo..=hi` for which `holds` is true.
fn brute(n: u32, lo: i64, hi: i64, holds: impl Fn(&[i64]) -> bool) -> u128 {
    let width = (hi - lo + 1) as u64;
    let mut found = 0;
    for code in 0..width.pow(n) {
        let x: Vec<i64> = (0..n).map(|i| lo + (code / width.pow(i) % width) as i64).collect();
        found += u128::from(holds(&x));
    }
    found
}

#[test]
fn typed_parameters_and_results_mean_what_the_untyped_ones_do() {
    let typed = "function var int: gap(var int: a, var int: b) = abs(a - b);\n\
                 predicate apart(array[int] of var int: v, int: k) = forall(i in 1..length(v) - 1)(gap(v[i], v[i + 1]) >= k);\n\
                 array[1..4] of var 0..4: x;\n\
                 constraint apart(x, 2);\n";
    let untyped = "function gap(a, b) = abs(a - b)\n\
                   predicate apart(v, k) = forall(i in 1..length(v) - 1)(gap(v[i], v[i + 1]) >= k)\n\
                   var x[1..4] in 0..4\n\
                   apart(x, 2)\n";
    let expected = brute(4, 0, 4, |x| x.windows(2).all(|w| (w[0] - w[1]).abs() >= 2));
    assert_eq!(count(typed), expected);
    assert_eq!(count(untyped), expected);
}

#[test]
fn typed_let_definitions_name_values_and_keep_their_domains() {
    // Queens on 4×4 with the diagonals named as typed arrays of a `let`: two solutions.
    let queens = "array[1..4] of var 1..4: q;\n\
                  constraint alldifferent(q);\n\
                  constraint let { array[1..4] of var int: up = [q[i] + i | i in 1..4];\n\
                                   array[1..4] of var int: down = [q[i] - i | i in 1..4] }\n\
                             in alldifferent(up) /\\ alldifferent(down);\n";
    let diagonal_free =
        |q: &[i64]| (0..4).all(|i| (i + 1..4).all(|j| q[i] != q[j] && (q[i] - q[j]).abs() != (j - i) as i64));
    assert_eq!(count(queens), brute(4, 1, 4, diagonal_free));
    // A value declared in `0..3`, a scalar and an array: each must lie in it.
    let bounded = "array[1..3] of var 0..4: x;\n\
                   constraint let { var 0..3: s = x[1] + x[2], int: k = 1,\n\
                                    array[0..1] of var 1..3: d = [x[2] - x[3], x[3] - k] } in s >= d[0];\n";
    let expected = brute(3, 0, 4, |x| {
        let (s, d0, d1) = (x[0] + x[1], x[1] - x[2], x[2] - 1);
        (0..=3).contains(&s) && (1..=3).contains(&d0) && (1..=3).contains(&d1) && s >= d0
    });
    assert_eq!(count(bounded), expected);
    // A fresh variable of a `let` with a MiniZinc type: x = 0 and x = 1 leave it a value (the
    // count is of the model's own variables, as for `let { var t in 0..2 }`).
    let fresh = "var 0..2: x;\nconstraint let { var 0..2: t } in t > x;\n";
    assert_eq!(count(fresh), 2);
    assert_eq!(count(fresh), count("var x in 0..2\nlet { var t in 0..2 } in t > x\n"));
}

#[test]
fn each_conjunct_keeps_its_annotations() {
    let annotated = "array[1..4] of var 1..4: x;\n\
                     constraint alldifferent(x) :: domain /\\ x[1] < x[2] /\\ sum(x) == 10 :: bounds /\\ x[3] != 2;\n";
    let plain = annotated.replace(" :: domain", "").replace(" :: bounds", "");
    let expected = brute(4, 1, 4, |x| {
        (0..4).all(|i| (i + 1..4).all(|j| x[i] != x[j])) && x[0] < x[1] && x.iter().sum::<i64>() == 10 && x[2] != 2
    });
    assert_eq!(count(annotated), expected);
    assert_eq!(count(&plain), expected);
}

#[test]
fn enum_next_and_prev_find_their_enum() {
    // Neighbouring days differ; Tuesday is 1.
    let model = "enum Day = {Mon, Tue, Wed, Thu};\n\
                 array[Day] of var 0..2: work;\n\
                 constraint forall(d in Day where d != Mon)(work[d] != work[enum_prev(d)]);\n\
                 constraint work[enum_next(Mon)] == 1;\n";
    let expected = brute(4, 0, 2, |w| w.windows(2).all(|p| p[0] != p[1]) && w[1] == 1);
    assert_eq!(count(model), expected);
    // A variable declared over an enum gives its own, beside another enum; past the last
    // value, `enum_next` has none (relational semantics: the condition is false).
    let typed = "enum A = {a, b, c};\nenum B = {p, q};\nvar A: x;\nvar B: y;\n\
                 constraint enum_next(x) == c \\/ enum_prev(y) == p;\n";
    let expected = brute(2, 1, 3, |v| v[1] <= 2 && (v[0] + 1 == 3 || v[1] - 1 == 1));
    assert_eq!(count(typed), expected);
}

#[test]
fn enum_next_of_a_number_among_several_enums_is_located() {
    let source = "enum A = {a, b, c}\nenum B = {p, q}\nlet k = 1\nvar x in A\nx == enum_next(k)\n";
    let file = cpsolve_dsl::parse(source).expect("parses");
    let Err(errors) = cpsolve_models::generic::compile(&file) else { panic!("compiled") };
    assert!(errors[0].message.contains("needs its enum named here"), "{errors:?}");
    assert_eq!(&source[errors[0].span.clone()], "enum_next(k)");
}
