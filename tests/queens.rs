//! Queens: counts against OEIS, distinct counts, partial starts, threads, split and merge.

mod common;

use common::cpsolve;
use serde_json::Value;

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

/// Every valid placement of n queens, by brute force over permutations (rows 1-based).
fn brute_force(n: usize) -> Vec<Vec<i64>> {
    fn extend(n: usize, prefix: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        let c = prefix.len() as i64;
        for r in 1..=n as i64 {
            if prefix.iter().enumerate().all(|(d, &q)| q != r && (q - r).abs() != c - d as i64) {
                prefix.push(r);
                extend(n, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

#[test]
fn counts_for_n_1_to_13_equal_oeis_a000170() {
    let a000170 = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    let models: Vec<String> = (1..=13).map(|n| format!("queens n = {n}")).collect();
    let mut args = vec!["--count", "--format", "json"];
    for m in &models {
        args.extend(["-e", m.as_str()]);
    }
    let run = cpsolve(&args, None);
    let counts: Vec<u64> = json_lines(&run.stdout).iter().map(|o| o["count"].as_u64().expect("a count")).collect();
    assert_eq!(counts, a000170);
}

#[test]
fn distinct_counts_for_n_1_to_11_equal_oeis_a002562() {
    let a002562 = [1u64, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341];
    let models: Vec<String> = (1..=11).map(|n| format!("queens n = {n}\noption symmetry = distinct")).collect();
    let mut args = vec!["--count", "--format", "json"];
    for m in &models {
        args.extend(["-e", m.as_str()]);
    }
    let counts: Vec<u64> =
        json_lines(&cpsolve(&args, None).stdout).iter().map(|o| o["count"].as_u64().unwrap()).collect();
    assert_eq!(counts, a002562);
}

#[test]
fn listed_solutions_are_exactly_the_brute_force_ones_in_order() {
    for n in [4usize, 6, 8] {
        let run = cpsolve(&["--all", "--format", "json", "-e", &format!("queens n = {n}")], None);
        let listed: Vec<Vec<i64>> = serde_json::from_value(json_lines(&run.stdout)[0]["solutions"].clone()).unwrap();
        // Columns in order, rows from the smallest: lexicographic order.
        assert_eq!(listed, brute_force(n), "n = {n}");
    }
}

#[test]
fn a_partial_start_gives_only_its_completions() {
    let run = cpsolve(&["--all", "--format", "json", "-e", "queens n = 8\noption fix = 5, 2"], None);
    let listed: Vec<Vec<i64>> = serde_json::from_value(json_lines(&run.stdout)[0]["solutions"].clone()).unwrap();
    let expected: Vec<Vec<i64>> = brute_force(8).into_iter().filter(|q| q.starts_with(&[5, 2])).collect();
    assert!(!expected.is_empty());
    assert_eq!(listed, expected);
    let first = cpsolve(&["--format", "json", "corpus/queens/queens-8-from-5-2.puz"], None);
    let q: Vec<i64> = serde_json::from_value(json_lines(&first.stdout)[0]["solutions"][0].clone()).unwrap();
    assert!(expected.contains(&q), "{q:?}");
    let none = cpsolve(&["-e", "queens n = 8\noption fix = 1, 2"], None);
    assert_eq!((none.code, none.stdout.as_str()), (1, "no solution\n"));
}

#[test]
fn distinct_solutions_are_one_per_symmetry_class() {
    let run = cpsolve(&["--all", "--format", "json", "-e", "queens n = 8\noption symmetry = distinct"], None);
    let listed: Vec<Vec<i64>> = serde_json::from_value(json_lines(&run.stdout)[0]["solutions"].clone()).unwrap();
    assert_eq!(listed.len(), 12);
    // The 12 classes cover the 92 solutions: each solution is the image of exactly one.
    let n = 8;
    let images = |p: &Vec<i64>| -> Vec<Vec<i64>> {
        let p: Vec<i64> = p.iter().map(|r| r - 1).collect();
        let mut out = Vec::new();
        for t in 0..8 {
            let mut q = vec![0i64; n];
            for (c, &r) in p.iter().enumerate() {
                let (c, r) = (c as i64, r);
                let m = n as i64 - 1;
                let (x, y) = match t {
                    0 => (c, r),
                    1 => (r, m - c),
                    2 => (m - c, m - r),
                    3 => (m - r, c),
                    4 => (m - c, r),
                    5 => (c, m - r),
                    6 => (r, c),
                    _ => (m - r, m - c),
                };
                q[x as usize] = y + 1;
            }
            out.push(q);
        }
        out
    };
    let mut covered: Vec<Vec<i64>> = listed.iter().flat_map(images).collect();
    covered.sort();
    covered.dedup();
    assert_eq!(covered, brute_force(8));
}

#[test]
fn answers_do_not_depend_on_the_thread_count() {
    let models = [
        "queens n = 10",
        "queens n = 9\noption symmetry = distinct",
        "cryptarithm MOI+TOI+LUI+ELLE=NOUS",
        "let n = 7\nvar q[1..n] in 1..n\nalldifferent(q)\nalldifferent([q[i] + i | i in 1..n])\n",
    ];
    for model in models {
        for mode in ["--count", "--all"] {
            let outputs: Vec<String> = ["1", "2", "3"]
                .iter()
                .map(|t| cpsolve(&[mode, "--threads", t, "--format", "json", "-e", model], None).stdout)
                .collect();
            assert_eq!(outputs[0], outputs[1], "{model} {mode}");
            assert_eq!(outputs[0], outputs[2], "{model} {mode}");
        }
    }
}

#[test]
fn split_then_solve_each_part_then_merge_gives_the_unsplit_answer() {
    let dir = std::env::temp_dir().join(format!("cpsolve-split-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = dir.join("queens-9.puz");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&model, "queens n = 9\nsolve all\n").unwrap();
    let split = cpsolve(
        &["split", model.to_str().unwrap(), "--parts", "7", "--out", dir.join("parts").to_str().unwrap()],
        None,
    );
    assert_eq!(split.code, 0, "{}", split.stderr);
    let parts: Vec<&str> = split.stdout.lines().collect();
    assert_eq!(parts.len(), 7);
    let mut results = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let run = cpsolve(&["--format", "json", part], None);
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        let path = dir.join(format!("part-{i}.json"));
        std::fs::write(&path, &run.stdout).unwrap();
        results.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(results.iter().map(String::as_str));
    let merged = cpsolve(&args, None);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let merged = &json_lines(&merged.stdout)[0];
    let whole = cpsolve(&["--format", "json", model.to_str().unwrap()], None);
    let whole = &json_lines(&whole.stdout)[0];
    assert_eq!(merged["count"], 352);
    assert_eq!(merged["solutions"], whole["solutions"], "the parts list the solutions in the unsplit order");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_first_solution_for_many_queens_is_valid() {
    let run = cpsolve(&["--format", "json", "-e", "queens n = 300"], None);
    assert_eq!(run.code, 0);
    let q: Vec<i64> = serde_json::from_value(json_lines(&run.stdout)[0]["solutions"][0].clone()).unwrap();
    assert_eq!(q.len(), 300);
    let distinct = |v: Vec<i64>| {
        let mut s = v.clone();
        s.sort_unstable();
        s.dedup();
        s.len() == v.len()
    };
    assert!(distinct(q.clone()));
    assert!(distinct(q.iter().enumerate().map(|(c, r)| r + c as i64).collect()));
    assert!(distinct(q.iter().enumerate().map(|(c, r)| r - c as i64).collect()));
}

#[test]
fn bad_queens_input_is_located() {
    for (model, fragment) in [
        ("queens n = 0", "`n` must be from 1"),
        ("queens n = 8\noption fix = 9", "row must be from 1 to 8"),
        ("queens n = 8\noption symmetry = mirror", "must be one of"),
        ("queens m = 8", "unknown parameter `m`"),
        ("queens n = 8\noption colour = red", "unknown option"),
    ] {
        let run = cpsolve(&["-e", model], None);
        assert_eq!(run.code, 2, "{model}");
        assert!(run.stderr.contains(fragment), "{model}: {}", run.stderr);
        assert!(run.stderr.contains("<expr>:"), "{model}: {}", run.stderr);
    }
}

#[test]
fn the_parts_of_a_queens_count_are_shares_of_the_count_by_symmetries() {
    // The parts of a count that one constraint makes alone are shares of its own tasks (the
    // count by the square's symmetries), not slices of the search tree above it: those would
    // count 12 queens' parts without the symmetries, as other numbers. They add up.
    let counts: Vec<u64> = (1..=5)
        .map(|i| {
            let model = format!("queens n = 12\nsolve count\noption part = {i}, 5\n");
            let run = cpsolve(&["--format", "json", "-e", &model], None);
            assert_eq!(run.code, 0, "{}", run.stderr);
            json_lines(&run.stdout)[0]["count"].as_u64().expect("a count")
        })
        .collect();
    assert_eq!(counts, [2000, 5536, 5264, 1324, 76]);
    assert_eq!(counts.iter().sum::<u64>(), 14200);
}
