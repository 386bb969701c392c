//! The answer as text (the moves, and the grid as it shrinks) and as JSON (docs/json.md).

use std::fmt::Write;

use cpsolve_models::run::RunOptions;
use serde_json::{json, Value};

use super::grid::Game;
use super::rules::{play_add, play_match, Move, Rules};
use super::search::ADD_COST;

/// What to show: the verdict in words and the line, if any.
#[derive(Debug)]
pub(crate) enum Shown<'a> {
    /// The optimal win.
    Optimal(&'a [Move]),
    /// Proven: no win within the adds allowed.
    NoWin,
    /// The time limit struck: the best win found so far (not proven optimal), and what was
    /// proven (no win costs less than `budget`).
    Stopped { best: Option<&'a [Move]>, budget: u64 },
}

fn plural(n: usize, one: &str, many: &str) -> String {
    cpsolve_models::report::counted(n as u64, one, many)
}

fn counts(moves: &[Move]) -> (usize, usize) {
    let adds = moves.iter().filter(|m| **m == Move::Add).count();
    (adds, moves.len() - adds)
}

fn summary(moves: &[Move]) -> String {
    let (adds, matches) = counts(moves);
    format!(
        "{} ({}, {})",
        plural(moves.len(), "move", "moves"),
        plural(matches, "match", "matches"),
        plural(adds, "add", "adds")
    )
}

/// What a budget of the search says in words.
fn proven(game: &Game, budget: u64) -> String {
    match game.rules {
        Rules::App => {
            let (adds, matches) = ((budget / ADD_COST) as usize, budget % ADD_COST);
            format!(
                "no win with fewer than {}; none with {adds} and fewer than {}",
                plural(adds, "add", "adds"),
                plural(matches as usize, "match", "matches")
            )
        }
        Rules::Classic => format!("no win with fewer than {}", plural(budget as usize, "match", "matches")),
    }
}

fn grid_text(cells: &[u8], cols: usize, out: &mut String) {
    if cells.is_empty() {
        out.push_str("    (empty)\n");
    }
    for row in cells.chunks(cols) {
        let row: Vec<String> = row.iter().map(|&d| if d == 0 { ".".into() } else { d.to_string() }).collect();
        let _ = writeln!(out, "    {}", row.join(" "));
    }
}

/// The text answer.
pub(crate) fn text(game: &Game, shown: &Shown<'_>, options: &RunOptions) -> String {
    let mut out = String::new();
    let rules = match game.rules {
        Rules::App => "app rules",
        Rules::Classic => "paper rules",
    };
    let allowed = match game.adds {
        Some(a) => plural(a as usize, "add", "adds"),
        None => "adds unlimited".into(),
    };
    let (line, heading) = match shown {
        Shown::Optimal(moves) => {
            let what = match game.rules {
                Rules::App => "fewest adds, then fewest moves",
                Rules::Classic => "fewest matches",
            };
            (Some(*moves), format!("won in {}: {what} (proven)", summary(moves)))
        }
        Shown::NoWin => (None, format!("no win with at most {allowed} (proven)")),
        Shown::Stopped { best, budget } => {
            let found = match best {
                Some(moves) => format!("best win found: {} (not proven optimal)", summary(moves)),
                None => "no win found".into(),
            };
            (
                *best,
                format!(
                    "stopped by the {} limit: {found}; proven: {}",
                    crate::limit::stop_name(options),
                    proven(game, *budget)
                ),
            )
        }
    };
    let _ = writeln!(out, "{heading}");
    let _ = writeln!(out, "{} digits, {} columns, {rules}, {allowed}", game.remaining(), game.cols);
    let mut cells = game.cells.clone();
    grid_text(&cells, game.cols, &mut out);
    let Some(moves) = line else { return out };
    let pos = |i: u32| format!("({},{})", i as usize / game.cols + 1, i as usize % game.cols + 1);
    for (k, m) in moves.iter().enumerate() {
        match *m {
            Move::Match(i, j) => {
                let (a, b) = (cells[i as usize], cells[j as usize]);
                let _ = writeln!(out, "{:>3}. {a} at {} with {b} at {}", k + 1, pos(i), pos(j));
                play_match(&mut cells, game.cols, game.rules, i as usize, j as usize);
            }
            Move::Add => {
                let n = cells.iter().filter(|&&d| d != 0).count();
                let _ = writeln!(out, "{:>3}. add: {} copied", k + 1, plural(n, "digit", "digits"));
                play_add(&mut cells);
            }
        }
        grid_text(&cells, game.cols, &mut out);
    }
    out.push_str("positions are (row, column) from 1 in the grid before the move\n");
    out
}

/// The JSON answer (docs/json.md), without `"file"` and `"stats"`.
pub(crate) fn json(game: &Game, status: &str, shown: &Shown<'_>) -> Value {
    let line = match shown {
        Shown::Optimal(moves) => Some(*moves),
        Shown::NoWin => None,
        Shown::Stopped { best, .. } => *best,
    };
    let cols = game.cols as u32;
    let moves: Vec<Value> = line
        .unwrap_or_default()
        .iter()
        .map(|m| match *m {
            Move::Match(i, j) => json!({"match": [[i / cols, i % cols], [j / cols, j % cols]]}),
            Move::Add => json!({"add": true}),
        })
        .collect();
    let (adds, matches) = counts(line.unwrap_or_default());
    let mut object = json!({
        "kind": "numbermatch",
        "status": status,
        "won": line.is_some(),
        "adds_used": adds,
        "matches": matches,
        "moves": moves,
        "rules": match game.rules { Rules::App => "app", Rules::Classic => "classic" },
    });
    if let Shown::Stopped { budget, .. } = shown {
        object["proven"] = match game.rules {
            Rules::App => json!({"min_adds": budget / ADD_COST, "min_matches_with_min_adds": budget % ADD_COST}),
            Rules::Classic => json!({"min_matches": budget}),
        };
    }
    object
}
