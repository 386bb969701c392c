//! The global constraints of the `.puz` language counted against brute force: each model
//! below is small enough to enumerate every assignment of its variables in Rust, and the
//! number of solutions cpsolve counts must equal the number of assignments that satisfy
//! the constraint's definition (written here from MiniZinc's, independently of how the
//! compiler posts it).

mod common;

/// Every assignment of `n` variables over `lo..=hi`.
fn assignments(n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        all = all.into_iter().flat_map(|p| (lo..=hi).map(move |v| [p.clone(), vec![v]].concat())).collect();
    }
    all
}

fn count(model: &str) -> u64 {
    let run = common::cpsolve(&["--count", "-"], Some(model));
    assert_eq!(run.code, 0, "{model}\n{}", run.stderr);
    let line = run.stdout.lines().find(|l| l.contains("solution")).unwrap_or_else(|| panic!("{}", run.stdout));
    line.split_whitespace().next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("{line}"))
}

fn brute(n: usize, lo: i64, hi: i64, holds: impl Fn(&[i64]) -> bool) -> u64 {
    assignments(n, lo, hi).iter().filter(|a| holds(a)).count() as u64
}

/// A constraint's meaning over the values of `x` and `n`, written apart from the solver.
type Rule = Box<dyn Fn(&[i64]) -> bool>;

#[test]
fn chains_and_counts() {
    let model = |c: &str| format!("var x[1..4] in 0..3\nvar n in 0..4\n{c}\nsolve count\n");
    // `n` is free unless the constraint uses it: count over x and n together.
    let cases: Vec<(&str, Rule)> = vec![
        ("increasing(x)", Box::new(|a: &[i64]| a[..4].windows(2).all(|p| p[0] <= p[1]))),
        ("decreasing(x)", Box::new(|a: &[i64]| a[..4].windows(2).all(|p| p[0] >= p[1]))),
        ("all_equal(x)", Box::new(|a: &[i64]| a[..4].windows(2).all(|p| p[0] == p[1]))),
        (
            "among(n, x, {1, 3})",
            Box::new(|a: &[i64]| a[..4].iter().filter(|&&v| v == 1 || v == 3).count() as i64 == a[4]),
        ),
        ("among(n, x, 2..3)", Box::new(|a: &[i64]| a[..4].iter().filter(|&&v| v >= 2).count() as i64 == a[4])),
        (
            "nvalue(n, x)",
            Box::new(|a: &[i64]| {
                let mut v = a[..4].to_vec();
                v.sort_unstable();
                v.dedup();
                v.len() as i64 == a[4]
            }),
        ),
    ];
    for (constraint, holds) in cases {
        let expected = brute(5, 0, 3, |a| a[4] <= 4 && holds(a)) + brute(4, 0, 3, |a| holds(&[a, &[4]].concat()));
        // The second term adds the assignments with n = 4 (outside 0..3 of the enumeration).
        assert_eq!(count(&model(constraint)), expected, "{constraint}");
    }
}

/// Whether `next` (1-based successors) is one cycle through all nodes, or with `sub`, one
/// cycle through the nodes that are not their own successor (or none).
fn is_circuit(next: &[i64], sub: bool) -> bool {
    let n = next.len();
    let inside: Vec<usize> = (0..n).filter(|&i| next[i] != i as i64 + 1).collect();
    if !sub && inside.len() != n {
        return false;
    }
    let Some(&start) = inside.first() else { return sub };
    let (mut at, mut steps) = (start, 0);
    loop {
        at = next[at] as usize - 1;
        steps += 1;
        if at == start || steps > n {
            break;
        }
    }
    at == start && steps == inside.len()
}

#[test]
fn circuits() {
    for (constraint, sub) in [("circuit(x)", false), ("subcircuit(x)", true)] {
        let model = format!("var x[1..5] in 1..5\n{constraint}\nsolve count\n");
        assert_eq!(count(&model), brute(5, 1, 5, |a| is_circuit(a, sub)), "{constraint}");
    }
}

#[test]
fn scheduling_and_packing() {
    // Three tasks of durations 2, 1, 3 and resources 2, 1, 1 under capacity 2.
    let (d, r) = ([2, 1, 3], [2, 1, 1]);
    let cumulative =
        |s: &[i64]| (0..8).all(|t| (0..3).filter(|&i| s[i] <= t && t < s[i] + d[i]).map(|i| r[i]).sum::<i64>() <= 2);
    let model = "var s[1..3] in 0..4\ncumulative(s, [2, 1, 3], [2, 1, 1], 2)\nsolve count\n";
    assert_eq!(count(model), brute(3, 0, 4, cumulative));
    let disjunctive = |s: &[i64]| (0..3).all(|i| (i + 1..3).all(|j| s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]));
    let model = "var s[1..3] in 0..4\ndisjunctive(s, [2, 1, 3])\nsolve count\n";
    assert_eq!(count(model), brute(3, 0, 4, disjunctive));
    // Rectangles 2×1, 1×2, 2×2 with corners in 0..2 × 0..2.
    let (w, h) = ([2, 1, 2], [1, 2, 2]);
    let diffn = |a: &[i64]| {
        let (x, y) = (&a[..3], &a[3..]);
        (0..3).all(|i| {
            (i + 1..3).all(|j| x[i] + w[i] <= x[j] || x[j] + w[j] <= x[i] || y[i] + h[i] <= y[j] || y[j] + h[j] <= y[i])
        })
    };
    let model = "var x[1..3] in 0..2\nvar y[1..3] in 0..2\ndiffn(x, y, [2, 1, 2], [1, 2, 2])\nsolve count\n";
    assert_eq!(count(model), brute(6, 0, 2, diffn));
}

#[test]
fn regular_automata() {
    // No two filled cells in a row (symbols 1 = blank, 2 = filled), ending anywhere; and the
    // same automaton given as a named table, accepting only words that end blank.
    let model = "var x[1..6] in 1..2\nregular(x, 2, 2, [[1, 2], [1, 0]], 1, {1, 2})\nsolve count\n";
    let no_pair = |a: &[i64]| a.windows(2).all(|p| !(p[0] == 2 && p[1] == 2));
    assert_eq!(count(model), brute(6, 1, 2, no_pair));
    let model = "let d = [[1, 2], [1, 0]]\nvar x[1..6] in 1..2\nregular(x, 2, 2, d, 1, {1})\nsolve count\n";
    assert_eq!(count(model), brute(6, 1, 2, |a| no_pair(a) && a[5] == 1));
    // Values outside 1..S are not symbols: x in 0..3 counts the same words.
    let model = "var x[1..6] in 0..3\nregular(x, 2, 2, [[1, 2], [1, 0]], 1, {1, 2})\nsolve count\n";
    assert_eq!(count(model), brute(6, 1, 2, no_pair));
}

#[test]
fn inverse_lex_and_cardinality() {
    // f and g inverse permutations (g indexed from 0 here), f before g lexicographically.
    let model =
        "var f[1..4] in 0..3\nvar g[0..3] in 1..4\ninverse(f, g)\nlex_less(f, [g[j] - 1 | j in 0..3])\nsolve count\n";
    let expected = brute(4, 0, 3, |f| {
        let mut seen = [false; 4];
        f.iter().all(|&v| !std::mem::replace(&mut seen[v as usize], true)) && {
            // g[j] = i + 1 where f[i] = j; compare f with g - 1 = the inverse of f.
            let mut inv = [0i64; 4];
            for (i, &v) in f.iter().enumerate() {
                inv[v as usize] = i as i64;
            }
            f < &inv[..]
        }
    });
    assert_eq!(count(model), expected);
    // Lexicographic orders over vectors of different lengths (MiniZinc: a proper prefix is
    // smaller), and the reversed forms.
    for (constraint, holds) in [
        (
            "lex_lesseq([x[1], x[2], x[3]], [x[4], x[5]])",
            Box::new(|a: &[i64]| a[..3] <= a[3..]) as Box<dyn Fn(&[i64]) -> bool>,
        ),
        ("lex_less([x[1], x[2]], [x[3], x[4], x[5]])", Box::new(|a: &[i64]| a[..2] < a[2..])),
        ("lex_greater([x[1], x[2]], [x[3], x[4]])", Box::new(|a: &[i64]| a[..2] > a[2..4])),
        ("lex_greatereq([x[1], x[2]], [x[3], x[4]])", Box::new(|a: &[i64]| a[..2] >= a[2..4])),
    ] {
        let model = format!("var x[1..5] in 0..2\n{constraint}\nsolve count\n");
        assert_eq!(count(&model), brute(5, 0, 2, holds), "{constraint}");
    }
    // Counts of the values 1 and 3 among five variables over 0..3.
    let occurrences = |a: &[i64], v: i64| a[..5].iter().filter(|&&x| x == v).count() as i64;
    let model = "var x[1..5] in 0..3\nvar c[1..2] in 0..5\nglobal_cardinality(x, [1, 3], c)\nsolve count\n";
    // The counts follow from x: one solution per assignment of x.
    assert_eq!(count(model), assignments(5, 0, 3).len() as u64);
    let model = "var x[1..5] in 0..3\nglobal_cardinality(x, [1, 3], [2, 1])\nsolve count\n";
    assert_eq!(count(model), brute(5, 0, 3, |a| occurrences(a, 1) == 2 && occurrences(a, 3) == 1));
    let model = "var x[1..5] in 0..3\nvar c[1..2] in 0..5\nglobal_cardinality_closed(x, [1, 3], c)\nsolve count\n";
    assert_eq!(count(model), brute(5, 0, 3, |a| a.iter().all(|&v| v == 1 || v == 3)));
    let model = "var x[1..5] in 0..3\nglobal_cardinality_low_up(x, [1, 3], [1, 0], [2, 1])\nsolve count\n";
    assert_eq!(count(model), brute(5, 0, 3, |a| (1..=2).contains(&occurrences(a, 1)) && occurrences(a, 3) <= 1));
}

#[test]
fn value_precede_and_bin_packing() {
    let model = "var x[1..5] in 1..3\nvalue_precede(1, 2, x)\nsolve count\n";
    let precedes = |a: &[i64]| match a.iter().position(|&v| v == 2) {
        None => true,
        Some(t) => a[..t].contains(&1),
    };
    assert_eq!(count(model), brute(5, 1, 3, precedes));
    // Four items of weights 2, 3, 1, 2 in bins 0..2; loads read off the assignment, and a
    // bin of load at most 3.
    let model = "var bin[1..4] in 0..2\nvar load[0..2] in 0..8\nbin_packing_load(load, bin, [2, 3, 1, 2])\nload[0] <= 3\nsolve count\n";
    let weights = [2, 3, 1, 2];
    let light_first = |a: &[i64]| (0..4).filter(|&i| a[i] == 0).map(|i| weights[i]).sum::<i64>() <= 3;
    assert_eq!(count(model), brute(4, 0, 2, light_first));
}
