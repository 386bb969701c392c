//! `cpsolve serve`'s JSON API, over HTTP on a free loopback port: the answers are the
//! command line's, bad input is refused with located errors, and every request runs under
//! its own limits, so a hopeless one does not hold the others up.

mod common;
mod serving;

use serde_json::{json, Value};
use serving::{sudoku, Server};

/// The 9×9 grid of a solution object (`x[i,j]` keys).
fn grid(solution: &Value) -> Vec<Vec<i64>> {
    (1..=9).map(|i| (1..=9).map(|j| solution[format!("x[{i},{j}]")].as_i64().expect("a value")).collect()).collect()
}

/// Whether a grid is a Sudoku's solution: each row, column and box holds 1..9.
fn is_sudoku(grid: &[Vec<i64>]) -> bool {
    let full = |cells: Vec<i64>| {
        let mut cells = cells;
        cells.sort_unstable();
        cells == (1..=9).collect::<Vec<i64>>()
    };
    (0..9).all(|i| full(grid[i].clone()))
        && (0..9).all(|j| full((0..9).map(|i| grid[i][j]).collect()))
        && (0..9).all(|b| full((0..9).map(|k| grid[3 * (b / 3) + k / 3][3 * (b % 3) + k % 3]).collect()))
}

#[test]
fn solve_answers_the_command_lines_json() {
    let server = Server::start(&[]);
    let (status, answer) = server.post_json("/api/solve", "cryptarithm SEND+MORE=MONEY");
    assert_eq!(status, 200, "{answer}");
    let cli = common::cpsolve(&["--format", "json", "-"], Some("cryptarithm SEND+MORE=MONEY"));
    let cli: Value = serde_json::from_str(&cli.stdout).expect("the command line's JSON");
    assert_eq!(answer, cli);
    assert_eq!(answer["status"], "solved");
    // No solution is an answer too (the status says which).
    let (status, answer) = server.post_json("/api/solve", "var x in 1..3\nx > 5");
    assert_eq!((status, answer["status"].clone()), (200, json!("unsatisfiable")), "{answer}");
}

/// Why no solution, in the one shape for every kind: a Minesweeper position too ends in a
/// step concluding a contradiction and `"ending": "no solution"`, as the command line says.
#[test]
fn an_impossible_minesweeper_position_is_explained_in_the_shape_of_every_model() {
    let server = Server::start(&[]);
    let position =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/unsat/minesweeper-impossible.puz"))
            .expect("the position");
    let (status, answer) = server.post_json("/api/explain", position.as_str());
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["status"].clone(), answer["ending"].clone()), (json!("unsatisfiable"), json!("no solution")));
    let steps = answer["steps"].as_array().expect("steps");
    assert_eq!(steps.last().unwrap()["conclusion"], json!({"contradiction": true}), "{answer}");
    for step in steps {
        assert_eq!(step["reasoning"], "direct", "{step}");
        assert!(!step["constraints"].as_array().unwrap().is_empty(), "{step}");
    }
    let cli = common::cpsolve(&["explain", "--format", "json", "-"], Some(position.as_str()));
    let cli: Value = serde_json::from_str(&cli.stdout).expect("the command line's JSON");
    assert_eq!(answer, cli);
}

#[test]
fn explain_tells_a_sudoku_with_a_grade_and_the_cells_of_each_step() {
    let server = Server::start(&[]);
    let model = sudoku("07-euler-25.puz");
    let (status, answer) = server.post_json("/api/explain?timeout=30", model.as_str());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["ending"], "solved");
    let grade = answer["grade"].as_f64().expect("a grade");
    assert!((1.0..=11.9).contains(&grade), "{grade}");
    let solution = grid(&answer["solutions"][0]);
    assert!(is_sudoku(&solution), "{solution:?}");
    let steps = answer["steps"].as_array().expect("steps");
    assert!(steps.len() >= 10);
    for step in steps {
        let conclusion = &step["conclusion"];
        let var = conclusion["var"].as_str().expect("a cell");
        let value = answer["solutions"][0][var].as_i64().expect("the cell's value");
        let values: Vec<i64> = conclusion["values"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(values.contains(&value), "step {step} rules out the solution's value");
        // Each constraint lists its cells, and a step decides a cell of one of them.
        let cells: Vec<&str> = step["constraints"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["vars"].as_array().expect("vars").iter().map(|v| v.as_str().unwrap()))
            .collect();
        assert!(cells.contains(&var), "{step}");
        for c in step["constraints"].as_array().unwrap() {
            assert_eq!(c["vars"].as_array().unwrap().len(), 9, "a house has nine cells: {c}");
        }
    }
}

#[test]
fn a_bad_model_is_a_located_400() {
    let server = Server::start(&[]);
    let (status, answer) = server.post_json("/api/explain", "var x in 1..3\nx + = 2\n");
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["status"], "error");
    let error = &answer["errors"][0];
    assert_eq!((error["line"].as_u64(), error["column"].as_u64()), (Some(2), Some(5)), "{answer}");
    let (status, answer) = server.post_json("/api/solve", "var x in 1..3\nx + = 2\n");
    assert_eq!((status, answer["errors"][0]["line"].as_u64()), (400, Some(2)), "{answer}");
}

#[test]
fn a_body_that_is_not_utf8_is_a_400_at_its_first_bad_byte() {
    let server = Server::start(&[]);
    let mut body = b"var x in 1..3\nx > 1 \xff\n".to_vec();
    let (status, answer) = server.post_json("/api/solve", body.clone());
    assert_eq!(status, 400, "{answer}");
    let error = &answer["errors"][0];
    assert_eq!((error["line"].as_u64(), error["column"].as_u64()), (Some(2), Some(7)), "{answer}");
    assert!(error["message"].as_str().unwrap().contains("UTF-8"), "{answer}");
    body.truncate(body.len() - 3);
    assert_eq!(server.post_json("/api/solve", body).0, 200);
}

#[test]
fn a_body_over_the_limit_is_a_413() {
    let server = Server::start(&[]);
    let (status, answer) = server.post_json("/api/solve", vec![b' '; 64 << 20]);
    assert_eq!(status, 413, "{answer}");
    assert_eq!(answer["status"], "error");
    // The server still answers.
    assert_eq!(server.post_json("/api/solve", "queens n = 6").0, 200);
    // At the limit exactly, a body is read.
    let small = Server::start(&["--max-body", "20"]);
    assert_eq!(small.post_json("/api/solve", "queens n = 6        ").0, 200);
    assert_eq!(small.post_json("/api/solve", "queens n = 6         ").0, 413);
}

#[test]
fn a_posted_model_reads_no_file() {
    let server = Server::start(&[]);
    // A file that exists, by its full path: still refused.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/model/sudoku.puz");
    let model = format!("include \"{}\"\n", path.display());
    for api in ["/api/solve", "/api/explain"] {
        let (status, answer) = server.post_json(api, model.as_str());
        assert_eq!(status, 400, "{api}: {answer}");
        let error = &answer["errors"][0];
        assert!(error["message"].as_str().unwrap().contains("may not include files"), "{answer}");
        assert_eq!((error["line"].as_u64(), error["column"].as_u64()), (Some(1), Some(9)), "{answer}");
    }
}

#[test]
fn twenty_explains_beside_a_stopped_count_all_answer() {
    let server = Server::start(&["--max-timeout", "4", "--workers", "4"]);
    let model = sudoku("01-wikipedia.puz");
    std::thread::scope(|scope| {
        // A count no machine finishes in 4 s: it holds one worker until its limit strikes.
        let count = scope.spawn(|| server.post_json("/api/solve", "queens n = 40\nsolve count"));
        let explains: Vec<_> =
            (0..20).map(|_| scope.spawn(|| server.post_json("/api/explain?timeout=60", model.as_str()))).collect();
        for explain in explains {
            let (status, answer) = explain.join().expect("an answer");
            assert_eq!((status, answer["ending"].clone()), (200, json!("solved")), "{answer}");
            assert_eq!(answer["steps"].as_array().unwrap().len(), 51);
        }
        let (status, answer) = count.join().expect("an answer");
        assert_eq!(status, 200, "{answer}");
        assert_eq!((answer["status"].clone(), answer["stopped"].clone()), (json!("limit"), json!("time")), "{answer}");
    });
}

#[test]
fn a_request_runs_under_its_own_memory_limit() {
    let server = Server::start(&["--request-memory", "40"]);
    // Counting the solutions of a big free model builds a deep trail: past 40 MB.
    let (status, answer) = server.post_json("/api/solve", "var x[1..1000000] in 1..2\nsolve count");
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["status"].clone(), answer["stopped"].clone()), (json!("limit"), json!("memory")), "{answer}");
    // The next request has its memory whole.
    let (status, answer) = server.post_json("/api/explain", "cryptarithm SEND+MORE=MONEY");
    assert_eq!((status, answer["ending"].clone()), (200, json!("solved")), "{answer}");
}

#[test]
fn the_page_and_its_assets_are_served_and_nothing_else() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/page.js\">"), "{page}");
    assert_eq!(server.get("/page.js").0, 200);
    assert_eq!(server.get("/page.css").0, 200);
    assert_eq!(server.get("/etc/passwd").0, 404);
    assert_eq!(server.get("/api/solve").0, 405);
    assert_eq!(server.post("/api/solve?timeout=soon", "queens n = 4").0, 400);
    let (status, svg) = server.post("/api/picture", "queens n = 4");
    assert_eq!(status, 200);
    assert!(svg.contains("<svg"), "{svg}");
}
