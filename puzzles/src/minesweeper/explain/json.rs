//! A Minesweeper explanation as JSON, in the shape every kind of model uses
//! (`models/src/explain/tell.rs`): `steps`, each with `step`, `reasoning`, `technique`,
//! `constraints`, `facts` and `conclusion`, then `ending`.
//!
//! A covered cell is a variable whose values are named `safe` and `mine`, called by its
//! position from 1 as the text calls it (`"(3,4)"`), with its position from 0 beside it
//! (`"cell": [2, 3]`, as the analysis's `safe` and `mines` lists give it). A revealed number
//! is a constraint (`"the 2 at (2,3)"`, with `at` and `value`); so is the mine count
//! (`mines`). An impossible position ends in a step whose conclusion is
//! `{"contradiction": true}` and in `"ending": "no solution"`, as a model without a
//! solution does; one whose contradiction no few numbers show ends in
//! `"no solution by search"` (the exact analysis shows it). A consistent position ends
//! `"solved"` when every covered cell is certain, else in a `"free choice"` of the first
//! covered cell that is not.

use serde_json::{json, Value};

use super::{at, number, number_name, MineExplanation, MineStep, Premise};
use crate::minesweeper::grid::{Board, Cell};

/// The JSON of an explanation: `{"kind", "status", "chained", "steps", "ending"}` (the
/// caller adds the file).
pub fn explanation_json(board: &Board, e: &MineExplanation) -> Value {
    let mut steps: Vec<Value> = e.steps.iter().map(|s| step_json(board, s)).collect();
    let ending = if e.impossible {
        match &e.contradiction {
            Some(premise) => {
                steps.push(contradiction_json(board, premise, steps.len() + 1));
                json!({"ending": "no solution"})
            }
            None => json!({"ending": "no solution by search"}),
        }
    } else {
        let certain: std::collections::HashSet<usize> = e.steps.iter().map(|s| s.cell).collect();
        let open = (0..board.cells.len()).find(|&i| board.cells[i] == Cell::Covered && !certain.contains(&i));
        match open {
            None => json!({"ending": "solved"}),
            Some(i) => json!({"ending": "free choice", "var": at(board, i)}),
        }
    };
    for (k, step) in steps.iter_mut().enumerate() {
        step["step"] = json!(k + 1);
    }
    let mut object = json!({
        "kind": "minesweeper",
        "status": if e.impossible { "unsatisfiable" } else { "solved" },
        "chained": e.chained,
        "steps": steps,
    });
    if let (Value::Object(object), Value::Object(ending)) = (&mut object, ending) {
        object.extend(ending);
    }
    object
}

/// A cell as a fact or a conclusion: `{"var": "(r,c)", "values": ["safe"], "cell": [r, c]}`.
fn cell_json(board: &Board, cell: usize, is: super::Is) -> Value {
    json!({"var": at(board, cell), "values": [is.name()], "cell": [cell / board.width, cell % board.width]})
}

/// The premise's numbers and count as constraints, and its facts.
fn premise_json(board: &Board, premise: &Premise) -> (Vec<Value>, Vec<Value>) {
    let mut constraints: Vec<Value> = premise
        .numbers
        .iter()
        .map(|&n| {
            let value = number(board, n);
            json!({
                "name": number_name(board, n),
                "at": [n / board.width, n % board.width],
                "value": value,
            })
        })
        .collect();
    if premise.mine_count {
        constraints.push(match board.mines {
            Some(m) => json!({"name": format!("the mine count ({m})"), "mines": m}),
            None => json!({"name": "the mine count"}),
        });
    }
    let facts = premise.facts.iter().map(|&(c, is)| cell_json(board, c, is)).collect();
    (constraints, facts)
}

/// What a step that reads numbers (and maybe the count) is called.
fn technique(premise: &Premise) -> &'static str {
    match (premise.numbers.is_empty(), premise.mine_count) {
        (false, false) => "propagation of numbers",
        (false, true) => "propagation of numbers and the mine count",
        (true, _) => "propagation of the mine count",
    }
}

fn step_json(board: &Board, s: &MineStep) -> Value {
    let (constraints, facts) = premise_json(board, &s.premise);
    // The fallback rests on the exact analysis of everything: a search, not a deduction
    // from a few numbers.
    let (reasoning, technique) =
        if s.whole_frontier { ("search", "search") } else { ("direct", technique(&s.premise)) };
    json!({
        "step": 0,
        "reasoning": reasoning,
        "technique": technique,
        "constraints": constraints,
        "facts": facts,
        "conclusion": cell_json(board, s.cell, s.is),
        "smallest": s.smallest,
        "whole_frontier": s.whole_frontier,
    })
}

fn contradiction_json(board: &Board, premise: &Premise, number: usize) -> Value {
    let (constraints, facts) = premise_json(board, premise);
    json!({
        "step": number,
        "reasoning": "direct",
        "technique": technique(premise),
        "constraints": constraints,
        "facts": facts,
        "conclusion": {"contradiction": true},
    })
}
