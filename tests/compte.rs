//! Le Compte est Bon: every printed solution re-checked by an independent evaluator,
//! reachable values and shortest lengths against a brute-force enumerator written here,
//! distinct-solution counts against a brute-force normal form written here, the classic
//! 819, limits, threads, errors, and the published figures of `cpsolve table compte`.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use common::cpsolve;
use serde_json::Value;

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

fn solve_json(args: &[&str], model: &str) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.extend(["-e", model]);
    let run = cpsolve(&all, None);
    let object = json_lines(&run.stdout).into_iter().next().unwrap_or_else(|| panic!("no JSON for {model}: {run:?}"));
    (run.code, object)
}

/// Re-plays the steps of one solution: each step `a op b = c` must use two values still
/// available (tiles or earlier results, each once), be exact arithmetic on positive
/// integers, and the last result must be `expected`. Returns the number of steps.
fn check_solution(tiles: &[u64], steps: &[Value], expected: u64) -> usize {
    let mut pool: Vec<u64> = tiles.to_vec();
    let take = |pool: &mut Vec<u64>, v: u64, step: &str| {
        let i =
            pool.iter().position(|&p| p == v).unwrap_or_else(|| panic!("`{step}`: {v} is not available in {pool:?}"));
        pool.swap_remove(i);
    };
    let texts: Vec<&str> = steps.iter().map(|s| s.as_str().expect("a step is a string")).collect();
    if let [only] = texts.as_slice() {
        if let Ok(v) = only.parse::<u64>() {
            assert!(tiles.contains(&v) && v == expected, "lone tile {v}");
            return 0;
        }
    }
    let mut last = None;
    for step in &texts {
        let words: Vec<&str> = step.split_whitespace().collect();
        assert_eq!(words.len(), 5, "`{step}` is `a op b = c`");
        assert_eq!(words[3], "=", "`{step}`");
        let a: u64 = words[0].parse().expect("an operand");
        let b: u64 = words[2].parse().expect("an operand");
        let c: u64 = words[4].parse().expect("a result");
        let value = match words[1] {
            "+" => a.checked_add(b),
            "-" => a.checked_sub(b),
            "×" | "*" | "x" => a.checked_mul(b),
            "÷" | "/" => (b != 0 && a % b == 0).then(|| a / b),
            op => panic!("`{step}`: unknown operation {op}"),
        };
        assert_eq!(value, Some(c), "`{step}` is wrong");
        assert!(c > 0, "`{step}`: results are positive");
        take(&mut pool, a, step);
        take(&mut pool, b, step);
        pool.push(c);
        last = Some(c);
    }
    assert_eq!(last, Some(expected), "the last step gives the answer: {texts:?}");
    texts.len()
}

/// Brute force: for every multiset of values reachable by steps from the tiles, every
/// value seen, with the fewest steps that made it. Independent of the solver: plain
/// recursion over "pick two, combine, put back", memoised on the sorted state.
fn brute_reach(tiles: &[u64]) -> BTreeMap<u64, usize> {
    fn go(state: &mut [u64], steps: usize, seen: &mut HashSet<Vec<u64>>, best: &mut BTreeMap<u64, usize>) {
        let mut key = state.to_vec();
        key.sort_unstable();
        key.push(steps as u64);
        if !seen.insert(key) {
            return;
        }
        for &v in state.iter() {
            let e = best.entry(v).or_insert(usize::MAX);
            // A value present in the state cost at most `steps` (it may be an old one).
            *e = (*e).min(steps);
        }
        let n = state.len();
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (a, b) = (state[i], state[j]);
                let mut results = vec![a + b];
                if a > b {
                    results.push(a - b);
                }
                results.push(a * b);
                if a % b == 0 {
                    results.push(a / b);
                }
                let mut rest: Vec<u64> =
                    state.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, &v)| v).collect();
                for r in results {
                    rest.push(r);
                    go(&mut rest, steps + 1, seen, best);
                    rest.pop();
                }
            }
        }
    }
    // Values present but made earlier keep their own (smaller) count, because every state
    // is visited with every step count that reaches it.
    let mut best = BTreeMap::new();
    go(&mut tiles.to_vec(), 0, &mut HashSet::new(), &mut best);
    best
}

/// A small deterministic generator (xorshift), so the draws are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `k` tiles drawn from the game's bag of 24.
    fn draw(&mut self, k: usize) -> Vec<u64> {
        let mut bag: Vec<u64> = (1..=10).chain(1..=10).chain([25, 50, 75, 100]).collect();
        (0..k).map(|_| bag.swap_remove((self.next() % bag.len() as u64) as usize)).collect()
    }
}

fn model(tiles: &[u64], target: u64) -> String {
    let t: Vec<String> = tiles.iter().map(u64::to_string).collect();
    format!("compte {} -> {target}", t.join(" "))
}

#[test]
fn the_classic_819_is_solved_and_every_solution_checks() {
    let tiles = [100, 2, 1, 10, 4, 3];
    let run = cpsolve(&["--format", "json", "corpus/compte/compte-819.puz"], None);
    assert_eq!(run.code, 0, "{run:?}");
    let o = &json_lines(&run.stdout)[0];
    assert_eq!((o["kind"].as_str(), o["status"].as_str()), (Some("compte"), Some("solved")));
    assert_eq!((o["target"].as_u64(), o["exact"].as_bool(), o["best"].as_u64()), (Some(819), Some(true), Some(819)));
    let solutions = o["solutions"].as_array().expect("solutions");
    assert_eq!(o["count"].as_u64(), Some(solutions.len() as u64));
    assert!(solutions.len() > 1);
    let lengths: Vec<usize> =
        solutions.iter().map(|s| check_solution(&tiles, s.as_array().expect("a list of steps"), 819)).collect();
    // Fewest steps first, and the shortest is the brute force's.
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
    assert_eq!(lengths[0], brute_reach(&tiles)[&819]);
    // The text form is the same solutions, one step per line.
    let text = cpsolve(&["--all", "corpus/compte/compte-819.puz"], None);
    assert_eq!(text.code, 0);
    assert!(text.stdout.contains(" = 819\n"), "{}", text.stdout);
    assert!(text.stdout.ends_with(&format!("\n{} solutions\n", solutions.len())), "{}", text.stdout);
    assert!(text.stderr.is_empty());
}

#[test]
fn reachable_values_equal_the_brute_force_on_random_draws() {
    let mut rng = Rng(0x5eed_c0de);
    for round in 0..30 {
        let k = 4 + round % 3;
        let tiles = rng.draw(k);
        let brute = brute_reach(&tiles);
        let hi = 1500;
        let t: Vec<String> = tiles.iter().map(u64::to_string).collect();
        let run = cpsolve(
            &["table", "compte", "--tiles", &t.join(" "), "--targets", &format!("1..{hi}"), "--format", "json"],
            None,
        );
        assert_eq!(run.code, 0, "{run:?}");
        let o = &json_lines(&run.stdout)[0];
        let unreachable: BTreeSet<u64> =
            o["unreachable"].as_array().expect("a list").iter().map(|v| v.as_u64().expect("a target")).collect();
        let expected: BTreeSet<u64> = (1..=hi).filter(|v| !brute.contains_key(v)).collect();
        assert_eq!(unreachable, expected, "tiles {tiles:?}");
        // A few targets solved outright: exact iff reachable, the shortest length, and
        // otherwise the closest values on both sides.
        for _ in 0..3 {
            let target = 1 + rng.next() % 999;
            let (code, o) = solve_json(&[], &model(&tiles, target));
            assert_eq!(code, 0, "{o}");
            let best = o["best"].as_u64().expect("best");
            let steps = o["solutions"][0].as_array().expect("one solution");
            let n = check_solution(&tiles, steps, best);
            assert_eq!(o["exact"].as_bool(), Some(brute.contains_key(&target)));
            assert_eq!(n, brute[&best], "shortest for {best} from {tiles:?}");
            let distance = best.abs_diff(target);
            let below = target.checked_sub(distance).filter(|v| brute.contains_key(v));
            let above = Some(target + distance).filter(|v| brute.contains_key(v));
            assert!(below.is_some() || above.is_some());
            assert!((1..distance)
                .all(|d| !brute.contains_key(&(target + d)) && !brute.contains_key(&target.saturating_sub(d))));
            let other = o.get("best_other").and_then(Value::as_u64);
            if distance > 0 && below.is_some() && above.is_some() {
                assert_eq!((Some(best), other), (below, above), "tie for {target} from {tiles:?}");
            } else {
                assert_eq!(other, None);
            }
        }
    }
}

/// The spec's normal form, written again for the test: a tree whose sums and products
/// are flattened chains with sorted operands, rendered as a string.
#[derive(Debug, Clone)]
enum Tree {
    Leaf(u64),
    Node(char, Box<Tree>, Box<Tree>),
}

fn canonical(t: &Tree) -> String {
    // Collects the (sign, term) pairs of the chain of `+`/`-` (or `×`/`÷`) rooted at `t`.
    fn chain(t: &Tree, additive: bool, positive: bool, out: &mut Vec<(bool, String)>) {
        match t {
            Tree::Node(op, a, b) if additive == matches!(op, '+' | '-') => {
                let flips = matches!(op, '-' | '/');
                chain(a, additive, positive, out);
                chain(b, additive, if flips { !positive } else { positive }, out);
            }
            _ => out.push((positive, canonical(t))),
        }
    }
    match t {
        Tree::Leaf(v) => v.to_string(),
        Tree::Node(op, _, _) => {
            let additive = matches!(op, '+' | '-');
            let mut terms = Vec::new();
            chain(t, additive, true, &mut terms);
            terms.sort();
            let (pos, neg): (Vec<_>, Vec<_>) = terms.into_iter().partition(|(p, _)| *p);
            let join = |v: Vec<(bool, String)>| v.into_iter().map(|(_, s)| s).collect::<Vec<_>>().join(",");
            format!("{}[{}|{}]", if additive { 'S' } else { 'P' }, join(pos), join(neg))
        }
    }
}

/// The steps of a tree as a sorted list of `a op b = c` (operands of `+` and `×` larger
/// first): what a player sees, whichever equal value each step took.
fn step_signature(t: &Tree) -> String {
    fn go(t: &Tree, out: &mut Vec<String>) -> u64 {
        match t {
            Tree::Leaf(v) => *v,
            Tree::Node(op, a, b) => {
                let (x, y) = (go(a, out), go(b, out));
                let (x, y) = if matches!(op, '+' | '*') && y > x { (y, x) } else { (x, y) };
                let c = match op {
                    '+' => x + y,
                    '-' => x - y,
                    '*' => x * y,
                    _ => x / y,
                };
                out.push(format!("{x} {op} {y} = {c}"));
                c
            }
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out.sort();
    out.join("; ")
}

/// Every expression tree with value `target`, by brute force over "pick two, combine";
/// steps by 1 (`× 1`, `÷ 1`) are not solutions of their own.
fn brute_solutions(tiles: &[u64], target: u64) -> Vec<Tree> {
    fn go(state: &mut [(u64, Tree)], target: u64, out: &mut Vec<Tree>) {
        for (v, t) in state.iter() {
            if *v == target {
                out.push(t.clone());
            }
        }
        let n = state.len();
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let ((a, ta), (b, tb)) = (state[i].clone(), state[j].clone());
                let mut results = Vec::new();
                if i < j {
                    results.push((a + b, '+'));
                    if a > 1 && b > 1 {
                        results.push((a * b, '*'));
                    }
                }
                if a > b {
                    results.push((a - b, '-'));
                }
                if b > 1 && a % b == 0 {
                    results.push((a / b, '/'));
                }
                let rest: Vec<(u64, Tree)> =
                    state.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, x)| x.clone()).collect();
                for (r, op) in results {
                    let mut next = rest.clone();
                    next.push((r, Tree::Node(op, Box::new(ta.clone()), Box::new(tb.clone()))));
                    go(&mut next, target, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    go(&mut tiles.iter().map(|&t| (t, Tree::Leaf(t))).collect::<Vec<_>>(), target, &mut out);
    out
}

/// The classes of the brute-force trees: two trees are one solution when their normal
/// forms are equal, or when their steps read the same (an intermediate result equal to a
/// tile is interchangeable with it), and so on transitively. Returns each normal form's
/// class (a representative string).
fn brute_classes(tiles: &[u64], target: u64) -> BTreeMap<String, String> {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(parent: &mut BTreeMap<String, String>, k: &str) -> String {
        let p = parent.entry(k.to_string()).or_insert_with(|| k.to_string()).clone();
        if p == k {
            return p;
        }
        let root = find(parent, &p);
        parent.insert(k.to_string(), root.clone());
        root
    }
    let trees = brute_solutions(tiles, target);
    for t in &trees {
        let (a, b) = (format!("N:{}", canonical(t)), format!("S:{}", step_signature(t)));
        let (ra, rb) = (find(&mut parent, &a), find(&mut parent, &b));
        if ra != rb {
            parent.insert(ra, rb);
        }
    }
    let keys: Vec<String> = trees.iter().map(canonical).collect();
    keys.into_iter().map(|k| (k.clone(), find(&mut parent, &format!("N:{k}")))).collect()
}

/// Parses printed steps back into a tree (operands matched to earlier results by value,
/// latest first) and returns its canonical string.
fn canonical_of_steps(tiles: &[u64], steps: &[Value]) -> String {
    let mut pool: Vec<(u64, Tree)> = tiles.iter().map(|&t| (t, Tree::Leaf(t))).collect();
    let mut last = None;
    for step in steps {
        let step = step.as_str().expect("a step");
        let words: Vec<&str> = step.split_whitespace().collect();
        if words.len() == 1 {
            return words[0].to_string();
        }
        let take = |pool: &mut Vec<(u64, Tree)>, v: u64| {
            let i = pool.iter().rposition(|(p, _)| *p == v).expect("an available operand");
            pool.remove(i).1
        };
        let (a, b, c): (u64, u64, u64) =
            (words[0].parse().expect("a"), words[2].parse().expect("b"), words[4].parse().expect("c"));
        let op = match words[1] {
            "×" | "*" => '*',
            "÷" | "/" => '/',
            other => other.chars().next().expect("an operation"),
        };
        let ta = take(&mut pool, a);
        let tb = take(&mut pool, b);
        let t = Tree::Node(op, Box::new(ta), Box::new(tb));
        pool.push((c, t.clone()));
        last = Some(t);
    }
    canonical(&last.expect("at least one step"))
}

#[test]
fn distinct_solutions_are_those_of_a_brute_force_normal_form() {
    let mut rng = Rng(0xc0ffee);
    let mut cases: Vec<(Vec<u64>, u64)> =
        vec![(vec![1, 2, 3, 4], 10), (vec![2, 2, 3, 3], 12), (vec![100, 25, 4, 2], 50)];
    for _ in 0..12 {
        let k = 4 + (rng.next() % 2) as usize;
        let tiles = rng.draw(k);
        let target = 1 + rng.next() % 120;
        cases.push((tiles, target));
    }
    for (tiles, target) in cases {
        let classes = brute_classes(&tiles, target);
        let expected: BTreeSet<&String> = classes.values().collect();
        let (code, o) = solve_json(&["--all"], &model(&tiles, target));
        assert_eq!(code, 0);
        if !expected.is_empty() {
            let listed: Vec<&String> = o["solutions"]
                .as_array()
                .expect("solutions")
                .iter()
                .map(|s| {
                    check_solution(&tiles, s.as_array().expect("steps"), target);
                    let nf = canonical_of_steps(&tiles, s.as_array().expect("steps"));
                    classes.get(&nf).unwrap_or_else(|| panic!("{nf} is not a brute-force solution"))
                })
                .collect();
            let distinct: BTreeSet<&String> = listed.iter().copied().collect();
            assert_eq!(distinct.len(), listed.len(), "a solution listed twice for {tiles:?} -> {target}");
            assert_eq!(distinct, expected, "{tiles:?} -> {target}");
            let (_, counted) = solve_json(&["--count"], &model(&tiles, target));
            assert_eq!(counted["count"].as_u64(), Some(expected.len() as u64));
            assert!(counted.get("solutions").is_none());
        } else {
            assert_eq!(o["exact"].as_bool(), Some(false));
        }
    }
}

#[test]
fn seven_to_ten_tiles_work() {
    for (tiles, target) in [
        (vec![100, 75, 50, 25, 6, 3, 9], 952),
        (vec![1, 2, 3, 4, 5, 6, 7, 8], 997),
        (vec![7, 7, 8, 8, 9, 9, 10, 10, 2], 1013),
        (vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2027),
    ] {
        let (code, o) = solve_json(&[], &model(&tiles, target));
        assert_eq!(code, 0, "{o}");
        assert_eq!(o["exact"].as_bool(), Some(true), "{tiles:?} -> {target}");
        check_solution(&tiles, o["solutions"][0].as_array().expect("a solution"), target);
    }
}

#[test]
fn threads_limits_and_closest_values() {
    let game = "compte 100 75 50 25 6 3 -> 952";
    let one = cpsolve(&["--all", "--format", "json", "-e", game], None);
    let two = cpsolve(&["--all", "--format", "json", "--threads", "2", "-e", game], None);
    assert_eq!(one.code, 0);
    assert_eq!(one.stdout, two.stdout);
    let big = "compte 1 2 3 4 5 6 -> 60";
    let all = json_lines(&cpsolve(&["--all", "--format", "json", "-e", big], None).stdout).remove(0);
    let n = all["count"].as_u64().expect("a count");
    assert!(n > 3);
    let (code, limited) = solve_json(&["--limit", "3"], big);
    assert_eq!((code, limited["status"].as_str(), limited["count"].as_u64()), (3, Some("limit"), Some(3)));
    assert_eq!(limited["solutions"].as_array().map(Vec::len), Some(3));
    // Nothing reaches 1000 from these: 720 = 1×2×3×4×5×6 is the most; the closest is below.
    let (code, far) = solve_json(&[], "compte 1 2 3 4 5 6 -> 1000");
    assert_eq!((code, far["exact"].as_bool()), (0, Some(false)));
    assert_eq!(
        far["best"].as_u64(),
        Some(brute_reach(&[1, 2, 3, 4, 5, 6]).keys().copied().filter(|&v| v < 1000).max().expect("some"))
    );
    // 3 and 5 from {2, 2}: 4 is one away from both.
    let (_, tie) = solve_json(&[], "compte 2 2 -> 5");
    assert_eq!((tie["best"].as_u64(), tie.get("best_other").and_then(Value::as_u64)), (Some(4), None));
    let (_, tie) = solve_json(&[], "compte 2 4 -> 7");
    assert_eq!((tie["best"].as_u64(), tie["best_other"].as_u64()), (Some(6), Some(8)));
    let text = cpsolve(&["-e", "compte 2 4 -> 7"], None);
    assert!(text.stdout.starts_with("no exact solution: closest 6 and 8"), "{}", text.stdout);
}

#[test]
fn bad_games_are_rejected_with_a_located_message() {
    for bad in ["compte 0 5 -> 10", "compte 3 5 -> 0", "compte 3 5 -> 8\noption fix = 1"] {
        let run = cpsolve(&["-e", bad], None);
        assert_eq!(run.code, 2, "{bad}: {run:?}");
        assert!(run.stderr.contains("<expr>:"), "{}", run.stderr);
    }
}

/// The published figures (about 1.5 s in release; a few seconds in the test profile).
#[test]
fn the_table_reproduces_the_published_figures() {
    let run = cpsolve(&["table", "compte", "--format", "json", "--threads", "2"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let o = &json_lines(&run.stdout)[0];
    assert_eq!(o["selections"].as_u64(), Some(13_243));
    assert_eq!(o["pairs"].as_u64(), Some(11_905_457));
    assert_eq!(o["solvable"].as_u64(), Some(10_858_746));
    let by_large: Vec<u64> =
        o["by_large"].as_array().expect("by_large").iter().map(|r| r["solvable"].as_u64().expect("a count")).collect();
    assert_eq!(by_large, [1_963_726, 4_966_076, 3_192_103, 693_131, 43_710]);
    assert_eq!(o["hardest"][0]["target"].as_u64(), Some(947));
    assert_eq!(o["hardest"][0]["selections"].as_u64(), Some(9_017));
    assert_eq!(o["reach_every_target"].as_array().map(Vec::len), Some(1_226));
    assert_eq!(o["reach_no_target"], serde_json::json!([[1, 1, 2, 2, 3, 3]]));
    let text = cpsolve(&["table", "compte"], None);
    assert!(text.stdout.contains("10858746 of 11905457 (91.21%)"), "{}", text.stdout);
}

#[test]
fn a_table_stopped_by_a_limit_says_stopped_and_never_prints_a_partial_table() {
    let tiles = "1 2 3 4 5 6 7 8 9 10 25";
    // The memory limit strikes while the eleven tiles' values are combined: the run says
    // so, or (on a machine where it does not strike) prints the whole answer.
    let run = cpsolve(&["table", "compte", "--memory", "100", "--tiles", tiles], None);
    match run.code {
        3 => assert_eq!(run.stdout, "stopped: memory limit of 100 MB reached\n"),
        0 => assert!(run.stdout.starts_with(&format!("tiles {tiles}: 899 of 899 targets")), "{}", run.stdout),
        code => panic!("exit {code}: {}{}", run.stdout, run.stderr),
    }
    // A deadline already past stops it before anything is counted.
    for args in [&["--tiles", tiles][..], &[]] {
        let mut all = vec!["table", "compte", "--timeout", "0"];
        all.extend_from_slice(args);
        let run = cpsolve(&all, None);
        assert_eq!((run.code, run.stdout.as_str()), (3, "stopped: time limit of 0 s reached\n"), "{}", run.stderr);
        all.extend(["--format", "json"]);
        let run = cpsolve(&all, None);
        assert_eq!(run.code, 3);
        let object: Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
        assert_eq!((object["status"].as_str(), object["stopped"].as_str()), (Some("limit"), Some("time")));
    }
}
