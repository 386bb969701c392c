//! `cpsolve explain`: snapshots of explanations of corpus files, and the properties the
//! issue asks for, checked on the binary's JSON: SEND + MORE = MONEY reads like the hand
//! solution, every conclusion agrees with the solution, and the ending tells unique, several
//! and no solutions apart.

mod common;

use serde_json::Value;

fn explain(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["explain", "--format", "json"];
    all.extend(args);
    let run = common::cpsolve(&all, None);
    let json = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run.code, json)
}

#[test]
fn send_more_money_reads_like_the_hand_solution() {
    let (code, json) = explain(&["-e", "cryptarithm SEND+MORE=MONEY"]);
    assert_eq!(code, 0);
    assert_eq!(json["ending"], "solved");
    let steps = json["steps"].as_array().expect("steps");
    assert!(steps.len() <= 15, "{} steps", steps.len());
    assert!(steps.iter().all(|s| s["reasoning"] == "direct"), "no case split");
    // Every constraint is a column or the all-different, and the first step is column 5's M = 1.
    for step in steps {
        for c in step["constraints"].as_array().expect("constraints") {
            let name = c["name"].as_str().expect("a name");
            assert!(name.starts_with("column ") || name.starts_with("all different"), "{name}");
        }
    }
    assert_eq!(steps[0]["conclusion"], serde_json::json!({ "var": "M", "values": [1] }));
    assert!(steps[0]["constraints"][0]["name"].as_str().unwrap().starts_with("column 5"));
    // The solutions are those solving prints.
    let solved = common::cpsolve(&["--format", "json", "-e", "cryptarithm SEND+MORE=MONEY"], None);
    let solved: Value = serde_json::from_str(&solved.stdout).expect("json");
    assert_eq!(json["solutions"], solved["solutions"]);
}

#[test]
fn every_conclusion_holds_in_the_solution() {
    for file in [
        "corpus/model/sudoku.puz",
        "corpus/model/send-more-money-carries.puz",
        "corpus/model/zebra.puz",
        "corpus/model/futoshiki.puz",
        "corpus/cryptarithm/send-more-money.puz",
        "corpus/cryptarithm/martin-gardner-admirez.puz",
    ] {
        let (code, json) = explain(&[file]);
        assert_eq!(code, 0, "{file}");
        assert_eq!(json["ending"], "solved", "{file}");
        let steps = json["steps"].as_array().expect("steps");
        assert!(!steps.is_empty(), "{file}");
        let solution = &json["solutions"][0];
        let flat = flatten(solution);
        for step in steps {
            let conclusion = &step["conclusion"];
            let var = conclusion["var"].as_str().expect("a narrowing");
            let Some(v) = flat.iter().find(|(name, _)| name == var).map(|(_, v)| *v) else { continue };
            let values: Vec<i64> =
                conclusion["values"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert!(values.contains(&v), "{file}: step {} says {var} ∈ {values:?}, the solution has {v}", step["step"]);
        }
    }
}

/// `{"x": [[1, 2], [3, 4]], "S": 9}` as `x[1,1] = 1, ..., S = 9` (1-based, as the names are).
fn flatten(solution: &Value) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for (name, v) in solution.as_object().expect("an object") {
        match v {
            Value::Number(n) => out.push((name.clone(), n.as_i64().unwrap())),
            Value::Array(rows) => {
                for (i, row) in rows.iter().enumerate() {
                    match row {
                        Value::Array(cells) => {
                            for (j, c) in cells.iter().enumerate() {
                                out.push((format!("{name}[{},{}]", i + 1, j + 1), c.as_i64().unwrap()));
                            }
                        }
                        c => out.push((format!("{name}[{}]", i + 1), c.as_i64().unwrap())),
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn several_solutions_end_in_a_free_choice_and_none_in_a_contradiction() {
    let (code, json) = explain(&["-e", "var x in 1..3\nvar y in 1..3\nx < y"]);
    assert_eq!(code, 0);
    assert_eq!(json["ending"], "free choice");
    // A variable in no constraint is a free choice too (this panicked once).
    let (code, json) = explain(&["-e", "var x in 1..3\nvar y in 1..2\nx < 2"]);
    assert_eq!(code, 0);
    assert_eq!(json["ending"], "free choice");
    let (code, json) = explain(&["-e", "var x in 1..3\nvar y in 1..3\nx + y == 7"]);
    assert_eq!(code, 1);
    assert_eq!(json["ending"], "no solution");
    let last = json["steps"].as_array().unwrap().last().expect("a step").clone();
    assert_eq!(last["conclusion"]["contradiction"], true);
    let (code, json) = explain(&["-e", "cryptarithm ABCDEFGHIJK + A = B"]);
    assert_eq!(code, 1);
    assert_eq!(json["ending"], "no solution");
    assert!(json["reason"].as_str().unwrap().contains("distinct letters"));
}

#[test]
fn a_minesweeper_cell_is_proved_by_the_fewest_numbers() {
    let (code, json) = explain(&["corpus/minesweeper/beginner.puz"]);
    assert_eq!(code, 0);
    let steps = json["steps"].as_array().expect("steps");
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|s| s["smallest"] == true));
}

#[test]
fn what_cannot_be_explained_is_refused_with_a_reason() {
    let run = common::cpsolve(&["explain", "corpus/model/knapsack.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("objective"), "{}", run.stderr);
    let run = common::cpsolve(&["explain", "-e", "compte 100 75 50 25 6 3 -> 952"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("Compte est Bon"), "{}", run.stderr);
    let run = common::cpsolve(&["explain", "-e", "var x in 1..3\nx + = 2"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("<expr>:2:"), "{}", run.stderr);
    // The refusals name what the model lacks, and the variable by its name.
    let run = common::cpsolve(&["explain", "-e", "var x in 1..3"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("this model states no constraint"), "{}", run.stderr);
    assert!(!run.stderr.contains("model model"), "{}", run.stderr);
    let run = common::cpsolve(&["explain", "-e", "var size in 1..10000\nsize > 5"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("`size` has more than 4096 values"), "{}", run.stderr);
    // A FlatZinc model is refused as such, not read as a `.puz` one.
    let run = common::cpsolve(&["explain", "corpus/flatzinc/queens-4.fzn"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot explain a MiniZinc or FlatZinc model"), "{}", run.stderr);
}

#[test]
fn explanations_of_corpus_files() {
    for (name, args) in [
        ("send-more-money", vec!["-e", "cryptarithm SEND+MORE=MONEY"]),
        ("sudoku", vec!["corpus/model/sudoku.puz"]),
        ("queens-partial", vec!["-e", "queens n = 8\noption fix = 1, 5"]),
        ("zebra", vec!["corpus/model/zebra.puz"]),
        ("minesweeper-beginner", vec!["corpus/minesweeper/beginner.puz"]),
        ("minesweeper-beginner-chained", vec!["--chain", "corpus/minesweeper/beginner.puz"]),
        ("free-choice", vec!["-e", "var x in 1..3\nvar y in 1..3\nx < y"]),
    ] {
        let mut all = vec!["explain"];
        all.extend(&args);
        let run = common::cpsolve(&all, None);
        insta::assert_snapshot!(
            name,
            format!(
                "args: {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
                args.join(" "),
                run.code,
                run.stdout,
                run.stderr
            )
        );
    }
}

/// Unsatisfiable puzzles of each kind end in "no solution" reached by small verified steps:
/// no search, no case split, no step citing more than six constraints.
#[test]
fn unsatisfiable_puzzles_are_told_in_small_steps() {
    for args in [
        vec!["unsat/sudoku-extra-given.puz"],
        vec!["unsat/sudoku-hard-extra-given.puz"],
        vec!["unsat/counting.puz"],
        // Counting over a permutation: 16 different numbers in 1..16 sum to 136.
        vec!["unsat/permutation-sums.puz"],
        vec!["unsat/pigeonhole.puz"],
        vec!["-e", "cryptarithm SEND+MORE=MONEYS"],
        vec!["-e", "cryptarithm AB+BA=CCC"],
        vec!["-e", "cryptarithm GDDD+CDJ=JGGCD"],
        // Minesweeper in the same shape: its numbers are the constraints.
        vec!["unsat/minesweeper-impossible.puz"],
    ] {
        let (code, json) = explain(&args);
        assert_eq!(code, 1, "{args:?}");
        assert_eq!(json["ending"], "no solution", "{args:?}: {json}");
        let steps = json["steps"].as_array().expect("steps");
        assert!(!steps.is_empty(), "{args:?}: no step");
        for step in steps {
            // A step that needs more constraints is told as a chain of small steps from an
            // assumption to a contradiction.
            match step.get("chain").and_then(Value::as_array) {
                None => {
                    assert!(["direct", "sum"].contains(&step["reasoning"].as_str().unwrap()), "{args:?}: {step}");
                    assert!(step["constraints"].as_array().unwrap().len() <= 6, "{args:?}: {step}");
                }
                Some(chain) => {
                    assert!(["direct", "case split"].contains(&step["reasoning"].as_str().unwrap()), "{step}");
                    for link in chain {
                        assert!(["direct", "sum"].contains(&link["reasoning"].as_str().unwrap()), "{link}");
                        assert!(link["constraints"].as_array().unwrap().len() <= 6, "{args:?}: {link}");
                        assert!(link.get("chain").is_none(), "no chain within a chain: {link}");
                    }
                    assert_eq!(chain.last().unwrap()["conclusion"]["contradiction"], true, "{step}");
                }
            }
        }
        assert_eq!(steps.last().unwrap()["conclusion"]["contradiction"], true);
    }
    // The hard one needs a case split whose contradiction, in one step, cites 13 constraints:
    // told as a chain, numbered under the split.
    let (_, json) = explain(&["unsat/sudoku-hard-extra-given.puz"]);
    let chained = json["steps"].as_array().unwrap().iter().filter(|s| s.get("chain").is_some()).count();
    assert!(chained >= 1, "{json}");
    let run = common::cpsolve(&["explain", "unsat/sudoku-hard-extra-given.puz"], None);
    assert!(run.stdout.contains(", then:)\n"), "{}", run.stdout);
    assert!(run.stdout.contains(".1. "), "{}", run.stdout);
    // The Sudoku's contradiction says which cell clashes with what.
    let run = common::cpsolve(&["explain", "unsat/sudoku-extra-given.puz"], None);
    assert!(run.stdout.contains("no solution: x[3,1] = 2, yet these allow it only"), "{}", run.stdout);
    // The counting argument names its factors and what the sum comes to.
    let run = common::cpsolve(&["explain", "unsat/counting.puz"], None);
    assert!(
        run.stdout.contains("they add up to 0 = 3") || run.stdout.contains("they add up to 0 = -3"),
        "{}",
        run.stdout
    );
    // The permutation argument names the sum the all-different fixes.
    let run = common::cpsolve(&["explain", "unsat/permutation-sums.puz"], None);
    assert!(run.stdout.contains("(16 different values in 1..16: each once, so they sum to 136)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("they add up to 0 = -4") || run.stdout.contains("they add up to 0 = 4"),
        "{}",
        run.stdout
    );
    let (_, json) = explain(&["unsat/permutation-sums.puz"]);
    let cited = json["steps"][0]["constraints"].as_array().unwrap();
    let permutation: Vec<&Value> = cited.iter().filter_map(|c| c.get("permutation")).collect();
    assert_eq!(permutation, [&serde_json::json!({"values": (1..=16).collect::<Vec<i64>>(), "sum": 136})]);
    // Minesweeper: cells proved first, then the numbers that contradict.
    let run = common::cpsolve(&["explain", "unsat/minesweeper-impossible.puz"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no layout: the 1 at (1,3) and the 2 at (2,3) cannot all hold"), "{}", run.stdout);
}

/// Enum models are told in the model's words: cells of an enum-indexed array by the enum's
/// names (`pos[ann]`, not `pos[1]`), values of an enum-valued variable by name.
#[test]
fn enum_models_are_told_with_their_names() {
    let model = "enum Person = {ann, bob, cat}\nenum Colour = {red, green, blue}\n\
                 var pos[Person] in 1..3\nvar shirt[Person] in Colour\n\
                 alldifferent(pos)\nalldifferent(shirt)\n\
                 pos[ann] < pos[bob]\npos[bob] < pos[cat]\nshirt[ann] != red\nshirt[bob] == blue";
    let run = common::cpsolve(&["explain", "-e", model], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("given: shirt[bob] = blue\n"), "{}", run.stdout);
    assert!(run.stdout.contains("shirt[ann] = green"), "{}", run.stdout);
    assert!(run.stdout.contains("pos[bob] = 2\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("pos[2]"), "{}", run.stdout);
    let (_, json) = explain(&["-e", model]);
    let conclusions: Vec<&Value> = json["steps"].as_array().unwrap().iter().map(|s| &s["conclusion"]).collect();
    assert!(conclusions.contains(&&serde_json::json!({"var": "shirt[ann]", "values": ["green"]})), "{json}");
    assert!(conclusions.contains(&&serde_json::json!({"var": "pos[ann]", "values": [1]})), "{json}");
    // A narrowing lists an enum's values by name.
    let run = common::cpsolve(&["explain", "language/enum_domain.puz"], None);
    assert!(run.stdout.contains("c[1] ∈ {red, green, blue}"), "{}", run.stdout);
}
