//! The 40 seed cryptarithms give exactly the solution counts that four independent peers
//! agreed on (GNU Prolog, SWI-Prolog, MiniZinc+Gecode, OR-Tools; `answers.tsv`), and every
//! solution printed satisfies its equation when checked by plain arithmetic here.

mod common;

use std::collections::HashMap;

use serde_json::Value;

/// `puzzle → (solution count, one solution)` from answers.tsv.
fn answers() -> HashMap<String, u64> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/cryptarithm/answers.tsv"))
        .expect("answers.tsv is readable");
    text.lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split('\t');
            let puzzle = fields.next().expect("puzzle column").to_string();
            let count = fields.next().expect("count column").parse().expect("a count");
            (puzzle, count)
        })
        .collect()
}

/// Evaluates `LHS=RHS` (terms `WORD`, `k.WORD`, `k*WORD`, integers, joined by `+`/`-`)
/// under `digits`, independently of cpsolve's parser and model.
fn holds(puzzle: &str, digits: &HashMap<char, i128>) -> bool {
    let side = |text: &str| -> i128 {
        let mut total = 0i128;
        let mut sign = 1i128;
        let mut term = String::new();
        let flush = |term: &mut String, sign: i128, total: &mut i128| {
            if term.is_empty() {
                return;
            }
            let (k, word) = match term.split_once(['.', '*']) {
                Some((k, w)) => (k.parse::<i128>().expect("coefficient"), w.to_string()),
                None => (1, term.clone()),
            };
            let value = if word.chars().all(|c| c.is_ascii_digit()) {
                word.parse::<i128>().expect("constant")
            } else {
                word.chars().fold(0i128, |acc, c| acc * 10 + digits[&c])
            };
            *total += sign * k * value;
            term.clear();
        };
        for c in text.chars() {
            match c {
                '+' | '-' => {
                    flush(&mut term, sign, &mut total);
                    sign = if c == '+' { 1 } else { -1 };
                }
                ' ' => {}
                _ => term.push(c),
            }
        }
        flush(&mut term, sign, &mut total);
        total
    };
    let (lhs, rhs) = puzzle.split_once('=').expect("an equation");
    side(lhs) == side(rhs)
}

#[test]
fn seed_cryptarithms_have_the_peers_counts_and_valid_solutions() {
    let answers = answers();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/cryptarithm");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "puz"))
        .map(|p| format!("corpus/cryptarithm/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    files.sort();
    assert_eq!(files.len(), 40);
    let mut args = vec!["--all", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let run = common::cpsolve(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut total = 0;
    for line in run.stdout.lines() {
        let object: Value = serde_json::from_str(line).expect("one JSON object per line");
        let file = object["file"].as_str().expect("file name");
        let source = std::fs::read_to_string(format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"))).expect("source");
        let puzzle = source.trim().trim_start_matches("cryptarithm").trim().replace(' ', "");
        let expected = answers[&puzzle];
        let count = object["count"].as_u64().expect("count");
        assert_eq!(count, expected, "{puzzle}");
        let solutions = object["solutions"].as_array().expect("solutions");
        assert_eq!(solutions.len() as u64, count);
        for solution in solutions {
            let digits: HashMap<char, i128> = solution
                .as_object()
                .expect("letter map")
                .iter()
                .map(|(k, v)| (k.chars().next().expect("a letter"), v.as_i64().expect("a digit") as i128))
                .collect();
            let mut values: Vec<i128> = digits.values().copied().collect();
            values.sort_unstable();
            values.dedup();
            assert_eq!(values.len(), digits.len(), "{puzzle}: letters must have distinct digits: {solution}");
            assert!(holds(&puzzle, &digits), "{puzzle}: {solution} does not satisfy the equation");
            for word in puzzle.split(['+', '-', '=']) {
                let word = word.split_once(['.', '*']).map_or(word, |(_, w)| w);
                if word.len() > 1 && word.chars().all(char::is_alphabetic) {
                    let lead = word.chars().next().expect("non-empty");
                    assert_ne!(digits[&lead], 0, "{puzzle}: leading {lead} of {word} is 0 in {solution}");
                }
            }
        }
        total += count;
    }
    assert_eq!(total, 204);
}
