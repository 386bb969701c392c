//! Text and JSON answers (docs/json.md) for an analysed position.

use cpsolve_models::report::counted;
use cpsolve_models::run::RunOptions;
use serde_json::{json, Value};

use super::analysis::{Analysis, Verdict};
use super::grid::{Board, Cell};

/// One line naming the position (`cpsolve check`, and the first line of the answer).
pub(super) fn describe(board: &Board) -> String {
    let mines = match board.mines {
        Some(m) => counted(m as u64, "mine", "mines"),
        None => "no mine total".to_string(),
    };
    format!("minesweeper {}x{}, {mines}", board.width, board.height)
}

/// Groups the digits of a decimal string by three (`237,093,780`).
fn grouped(digits: &str) -> String {
    let head = match digits.len() % 3 {
        0 => 3.min(digits.len()),
        h => h,
    };
    let (first, rest) = digits.split_at(head);
    let mut out = first.to_string();
    for chunk in rest.as_bytes().chunks(3) {
        out.push(',');
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
    }
    out
}

/// What one cell shows in the text grid: its number, `F` for a flag, `*` a certain mine,
/// `-` a certain safe cell, else the percentage of a mine (`1%` to `99%`: a cell that is not
/// certain never shows 0 or 100), or `?` when the count timed out.
pub(super) fn cell_text(board: &Board, a: &Analysis, i: usize) -> String {
    match board.cells[i] {
        Cell::Open(n) => n.to_string(),
        Cell::Flag => "F".to_string(),
        Cell::Covered if a.mines.binary_search(&i).is_ok() => "*".to_string(),
        Cell::Covered if a.safe.binary_search(&i).is_ok() => "-".to_string(),
        Cell::Covered => match a.probability(i) {
            Some(p) => format!("{:.0}%", (p * 100.0).round().clamp(1.0, 99.0)),
            None => "?".to_string(),
        },
    }
}

pub(super) fn text(board: &Board, a: &Analysis, options: &RunOptions) -> String {
    let mut out = describe(board);
    out.push('\n');
    match a.verdict {
        Verdict::Impossible => {
            out.push_str("unsatisfiable: no layout of mines agrees with the position\n");
            return out;
        }
        Verdict::Exact => {
            out.push_str(&format!("layouts: {}\n", grouped(&a.total.to_string())));
        }
        Verdict::TimedOut => {
            out.push_str(&format!(
                "stopped: the exact count did not finish within the {} limit; shown: the cells proven by local deduction\n",
                crate::limit::stop_name(options)
            ));
        }
    }
    for r in 0..board.height {
        let row: Vec<String> =
            (0..board.width).map(|c| format!("{:>4}", cell_text(board, a, r * board.width + c))).collect();
        out.push_str(row.join("").trim_end());
        out.push('\n');
    }
    out.push_str(&format!(
        "certain: {} safe (-), {} (*); other covered cells: chance of a mine\n",
        a.safe.len(),
        counted(a.mines.len() as u64, "mine", "mines")
    ));
    out
}

pub(super) fn json(board: &Board, a: &Analysis) -> Value {
    let status = match a.verdict {
        Verdict::Exact => "solved",
        Verdict::Impossible => "unsatisfiable",
        Verdict::TimedOut => "limit",
    };
    let at = |i: &usize| json!([i / board.width, i % board.width]);
    if a.verdict == Verdict::Impossible {
        return json!({"kind": "minesweeper", "status": status, "configurations": "0", "probabilities": null,
            "safe": [], "mines": []});
    }
    let probabilities: Vec<Value> = (0..board.height)
        .map(|r| {
            (0..board.width)
                .map(|c| {
                    let i = r * board.width + c;
                    match board.cells[i] {
                        Cell::Open(_) => Value::Null,
                        Cell::Flag => json!(1.0),
                        Cell::Covered if a.mines.binary_search(&i).is_ok() => json!(1.0),
                        Cell::Covered if a.safe.binary_search(&i).is_ok() => json!(0.0),
                        Cell::Covered => a.probability(i).map_or(Value::Null, |p| json!(p)),
                    }
                })
                .collect()
        })
        .collect();
    let configurations = match a.verdict {
        Verdict::Exact => Value::String(a.total.to_string()),
        _ => Value::Null,
    };
    json!({
        "kind": "minesweeper",
        "status": status,
        "configurations": configurations,
        "probabilities": probabilities,
        "safe": a.safe.iter().map(at).collect::<Vec<_>>(),
        "mines": a.mines.iter().map(at).collect::<Vec<_>>(),
    })
}
