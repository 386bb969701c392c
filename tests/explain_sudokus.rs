//! The twenty Sudokus of `bench/explain/sudoku/` explained (issue 19): each is solved with one
//! solution, the one an independent brute force finds, whose first row is the one its header
//! gives; every step's facts and conclusion hold in that solution; the easy ones (`# level:
//! easy`) need no case split; the grade puts the easy ones at 3.0 or below, the hardest at
//! 9.0 or above. Timing is the bench's (`bench/explain.sh`), not this test's.

mod common;

use std::path::{Path, PathBuf};

use common::cpsolve;
use serde_json::Value;

type Grid = [[u8; 9]; 9];

/// One puzzle file: its name, level, givens (0 = empty) and the header's solution row 1.
struct Puzzle {
    name: String,
    level: String,
    givens: Grid,
    row1: Vec<u8>,
}

fn header(source: &str, key: &str) -> String {
    source.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("no `{key}` line")).trim().to_string()
}

fn read(path: &Path) -> Puzzle {
    let source = std::fs::read_to_string(path).expect("puzzle file");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("given x =")).expect("a `given x =` grid");
    let mut givens = [[0u8; 9]; 9];
    for (r, line) in lines[at + 1..at + 10].iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells.len(), 9, "{}: row {}", path.display(), r + 1);
        for (c, cell) in cells.iter().enumerate() {
            givens[r][c] = if *cell == "." { 0 } else { cell.parse().expect("a digit") };
        }
    }
    let row1 = header(&source, "# solution row 1:").split_whitespace().map(|d| d.parse().expect("a digit")).collect();
    Puzzle {
        name: path.file_name().expect("a file").to_string_lossy().into_owned(),
        level: header(&source, "# level:"),
        givens,
        row1,
    }
}

fn puzzles() -> Vec<(PathBuf, Puzzle)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/explain/sudoku");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("bench/explain/sudoku")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "puz"))
        .collect();
    paths.sort();
    paths.into_iter().map(|p| (p.clone(), read(&p))).collect()
}

/// Every completion of `g`, up to two, by plain backtracking on the emptiest cell.
fn brute_force(g: &mut Grid, found: &mut Vec<Grid>) {
    if found.len() >= 2 {
        return;
    }
    let mut best: Option<(usize, usize, Vec<u8>)> = None;
    for r in 0..9 {
        for c in 0..9 {
            if g[r][c] != 0 {
                continue;
            }
            let options: Vec<u8> = (1..=9)
                .filter(|&v| {
                    (0..9).all(|k| g[r][k] != v && g[k][c] != v)
                        && (0..9).all(|k| g[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] != v)
                })
                .collect();
            if best.as_ref().is_none_or(|b| options.len() < b.2.len()) {
                best = Some((r, c, options));
            }
        }
    }
    let Some((r, c, options)) = best else {
        found.push(*g);
        return;
    };
    for v in options {
        g[r][c] = v;
        brute_force(g, found);
        g[r][c] = 0;
    }
}

fn is_solution(s: &Grid, givens: &Grid) -> bool {
    let perm = |cells: [(usize, usize); 9]| {
        let mut seen = [false; 10];
        cells.iter().all(|&(r, c)| (1..=9).contains(&s[r][c]) && !std::mem::replace(&mut seen[s[r][c] as usize], true))
    };
    (0..9).all(|i| {
        perm(std::array::from_fn(|k| (i, k)))
            && perm(std::array::from_fn(|k| (k, i)))
            && perm(std::array::from_fn(|k| (i / 3 * 3 + k / 3, i % 3 * 3 + k % 3)))
    }) && (0..81).all(|k| givens[k / 9][k % 9] == 0 || givens[k / 9][k % 9] == s[k / 9][k % 9])
}

/// The value of `x[r,c]` (1-based, as the JSON names it) in `s`.
fn value_of(var: &str, s: &Grid) -> u8 {
    let inner = var.strip_prefix("x[").and_then(|v| v.strip_suffix(']')).unwrap_or_else(|| panic!("{var}"));
    let (r, c) = inner.split_once(',').unwrap_or_else(|| panic!("{var}"));
    let (r, c): (usize, usize) = (r.trim().parse().expect("row"), c.trim().parse().expect("column"));
    s[r - 1][c - 1]
}

fn values(domain: &Value) -> Vec<u8> {
    domain["values"].as_array().expect("values").iter().map(|v| v.as_u64().expect("int") as u8).collect()
}

/// Runs `cpsolve explain --format json` on one puzzle and checks everything above.
fn check(p: &Puzzle) {
    let rel = format!("../bench/explain/sudoku/{}", p.name);
    let count = cpsolve(&["--count", "--format", "json", &rel], None);
    let count: Value = serde_json::from_str(&count.stdout).expect("count JSON");
    assert_eq!(count["count"], 1, "{}: exactly one solution", p.name);

    let run = cpsolve(&["explain", "--format", "json", &rel], None);
    assert_eq!(run.code, 0, "{}: {run:?}", p.name);
    let o: Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(o["ending"], "solved", "{}", p.name);
    let sols = o["solutions"].as_array().expect("solutions");
    assert_eq!(sols.len(), 1, "{}", p.name);
    let mut s = [[0u8; 9]; 9];
    for (r, row) in s.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let key = format!("x[{},{}]", r + 1, c + 1);
            *cell = sols[0][&key].as_u64().unwrap_or_else(|| panic!("{}: no {key}", p.name)) as u8;
        }
    }
    assert!(is_solution(&s, &p.givens), "{}: not a Sudoku solution of its givens: {s:?}", p.name);
    assert_eq!(s[0].to_vec(), p.row1, "{}: row 1 differs from the header's", p.name);
    let mut found = Vec::new();
    brute_force(&mut p.givens.clone(), &mut found);
    assert_eq!(found, vec![s], "{}: brute force finds one solution, the same", p.name);

    let steps = o["steps"].as_array().expect("steps");
    assert!(!steps.is_empty(), "{}", p.name);
    // The grade is on Sukaku Explainer's scale: singles stay below the first case split's
    // grade, the five hardest published puzzles are rated 10 and more there.
    let grade = o["grade"].as_f64().unwrap_or_else(|| panic!("{}: no grade", p.name));
    assert!((1.0..=11.9).contains(&grade), "{}: grade {grade}", p.name);
    match p.level.as_str() {
        "easy" => assert!(grade <= 3.0, "{}: an easy Sudoku graded {grade}", p.name),
        "hardest" => assert!(grade >= 9.0, "{}: one of the hardest graded {grade}", p.name),
        _ => assert!(grade < 9.0, "{}: graded {grade} beside the hardest", p.name),
    }
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["step"], i + 1, "{}: steps numbered in order", p.name);
        let what = format!("{} step {}", p.name, i + 1);
        let reasoning = step["reasoning"].as_str().expect("reasoning");
        assert!(matches!(reasoning, "direct" | "case split" | "search"), "{what}: {reasoning}");
        assert!(!step["constraints"].as_array().expect("constraints").is_empty(), "{what}");
        for fact in step["facts"].as_array().expect("facts") {
            let var = fact["var"].as_str().expect("var");
            assert!(values(fact).contains(&value_of(var, &s)), "{what}: fact {fact} excludes the solution");
        }
        let conclusion = &step["conclusion"];
        let var = conclusion["var"].as_str().expect("var");
        let want = value_of(var, &s);
        assert!(values(conclusion).contains(&want), "{what}: {conclusion} excludes {var} = {want}");
        if reasoning == "case split" {
            let assumed = step["assume"]["value"].as_u64().expect("assumed value") as u8;
            assert_eq!(step["assume"]["var"], var, "{what}: the case split is on the concluded variable");
            assert!(!values(conclusion).contains(&assumed), "{what}: the assumed value is ruled out");
        }
        if p.level == "easy" {
            assert_eq!(reasoning, "direct", "{what}: an easy Sudoku needs no case split");
        }
    }
}

fn check_level(level: &str) {
    let all = puzzles();
    let chosen: Vec<_> = all.iter().filter(|(_, p)| p.level == level).collect();
    assert_eq!(chosen.len(), 5, "five {level} Sudokus");
    for (_, p) in chosen {
        check(p);
    }
}

#[test]
fn twenty_sudokus_five_per_level() {
    let all = puzzles();
    assert_eq!(all.len(), 20);
    for (_, p) in &all {
        assert!(["easy", "medium", "hard", "hardest"].contains(&p.level.as_str()), "{}: {}", p.name, p.level);
    }
}

#[test]
fn easy_sudokus_explained_without_case_split() {
    check_level("easy");
}

#[test]
fn medium_sudokus_explained() {
    check_level("medium");
}

#[test]
fn hard_sudokus_explained() {
    check_level("hard");
}

#[test]
fn hardest_sudokus_explained() {
    check_level("hardest");
}
