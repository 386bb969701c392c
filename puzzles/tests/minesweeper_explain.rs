//! Minesweeper explanations (issue 19): on 100 positions of seeded games, the cells
//! explained are exactly the analysis's certain cells, and every step's set of numbers
//! proves its cell and is minimal (each number removed in turn, the rest no longer proves
//! it), by the library's checker and by a plain enumeration written here; the 1-2-1
//! pattern's expected explanation; and the minimality check rejecting a set that is not.

use cpsolve_engine::StopToken;
use cpsolve_puzzles::Deadline;
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use cpsolve_puzzles::minesweeper::analysis::{analyse, Verdict};
use cpsolve_puzzles::minesweeper::explain::{
    contradicts, explain, explanation_json, explanation_text, proves, step_text, Check, ExplainOptions, Is,
    MineExplanation, MineStep, Premise,
};
use cpsolve_puzzles::minesweeper::frontier::{local_deductions, MINE, SAFE};
use cpsolve_puzzles::minesweeper::game::{game_rng, FirstClick, Game, Level, Reveal};
use cpsolve_puzzles::minesweeper::grid::{Board, Cell};
use rand_core::Rng;

fn parse(rows: &[&str], mines: Option<usize>) -> Board {
    let cells: Vec<Cell> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            'x' => Cell::Covered,
            'F' => Cell::Flag,
            d => Cell::Open(d as u8 - b'0'),
        })
        .collect();
    Board { width: rows[0].len(), height: rows.len(), cells, mines }
}

/// The plain check, written apart from the library's: every layout of the premise's scope
/// (2^n, no pruning), each number's count over its neighbours (flags and mine facts
/// included), and with the mine count, whether the mines left fit outside the scope.
/// `None` when the scope has more than 16 cells.
fn naive_proves(board: &Board, premise: &Premise, cell: usize, is: Is) -> Option<bool> {
    let facts: HashMap<usize, Is> = premise.facts.iter().copied().collect();
    let unknown = |j: usize| board.cells[j] == Cell::Covered && !facts.contains_key(&j);
    let mut scope: Vec<usize> =
        premise.numbers.iter().flat_map(|&n| board.neighbours(n)).filter(|&j| unknown(j)).collect();
    scope.sort_unstable();
    scope.dedup();
    if scope.len() > 16 {
        return None;
    }
    let want_mine = is == Is::Mine;
    let outside: Vec<usize> =
        (0..board.cells.len()).filter(|&j| unknown(j) && scope.binary_search(&j).is_err()).collect();
    let known =
        board.cells.iter().filter(|&&c| c == Cell::Flag).count() + facts.values().filter(|&&v| v == Is::Mine).count();
    for mask in 0u32..1 << scope.len() {
        let mine = |j: usize| match board.cells[j] {
            Cell::Flag => true,
            Cell::Open(_) => false,
            Cell::Covered => match facts.get(&j) {
                Some(v) => *v == Is::Mine,
                None => scope.binary_search(&j).is_ok_and(|k| mask >> k & 1 == 1),
            },
        };
        let numbers_hold = premise.numbers.iter().all(|&n| {
            let Cell::Open(v) = board.cells[n] else { return false };
            board.neighbours(n).filter(|&j| mine(j)).count() == usize::from(v)
        });
        if !numbers_hold {
            continue;
        }
        // A layout that gives the cell the other value (the cell outside the scope takes
        // it freely, and with the count it must leave room for the rest).
        let in_scope = scope.binary_search(&cell).is_ok();
        if in_scope && mine(cell) == want_mine {
            continue;
        }
        if !premise.mine_count {
            return Some(false);
        }
        let total = board.mines.expect("a mine count");
        let here = mask.count_ones() as usize + known + usize::from(!in_scope && !want_mine);
        let room = outside.len() - usize::from(!in_scope);
        if here <= total && total - here <= room {
            return Some(false);
        }
    }
    Some(true)
}

/// Whether a step's premise proves its cell and is minimal: every number removed in turn,
/// and the mine count removed, the rest no longer proves it. Both checkers agree when the
/// plain one can run; `Ok(true)` when it could for the whole premise.
fn proving_and_minimal(board: &Board, step: &MineStep) -> Result<bool, String> {
    let judge = |p: &Premise| -> Result<bool, String> {
        let lib = match proves(board, p, step.cell, step.is) {
            Check::Proves => true,
            Check::DoesNotProve => false,
            Check::TooLarge => return Err(format!("too large to check: {p:?}")),
        };
        if let Some(plain) = naive_proves(board, p, step.cell, step.is) {
            if plain != lib {
                return Err(format!("the checkers disagree on {p:?}: library {lib}, plain {plain}"));
            }
        }
        Ok(lib)
    };
    if !judge(&step.premise)? {
        return Err(format!("does not prove it: {}", step_text(board, step)));
    }
    let plain = naive_proves(board, &step.premise, step.cell, step.is).is_some();
    for k in 0..step.premise.numbers.len() {
        let mut fewer = step.premise.clone();
        fewer.numbers.remove(k);
        if judge(&fewer)? {
            return Err(format!(
                "not minimal: without the number {:?}: {}",
                step.premise.numbers[k],
                step_text(board, step)
            ));
        }
    }
    if step.premise.mine_count {
        let without = Premise { mine_count: false, ..step.premise.clone() };
        if judge(&without)? {
            return Err(format!("not minimal: the mine count is not needed: {}", step_text(board, step)));
        }
    }
    Ok(plain)
}

/// Position `index`: a seeded game (beginner, intermediate, now and then expert), some
/// cells opened one at a time (certain ones first, a lucky guess when none), the mines
/// found flagged or not, and now and then no mine total.
fn position(index: u64) -> Board {
    let mut rng = game_rng(0x19_e3, index);
    let level = match index % 10 {
        0..=3 => Level::BEGINNER,
        4..=8 => Level::INTERMEDIATE,
        _ => Level::EXPERT,
    };
    let mut game = Game::new(level, FirstClick::Opening, &mut rng);
    game.reveal(FirstClick::Opening.cell(level));
    let flags = rng.next_u64() & 1 == 0;
    let moves = rng.next_u64() % (level.width as u64 * 2);
    let n = level.width * level.height;
    for _ in 0..moves {
        if game.won() {
            break;
        }
        let known = local_deductions(&game.view).expect("a real game is consistent");
        if flags {
            for (i, &k) in known.iter().enumerate() {
                if k == MINE {
                    game.flag(i);
                }
            }
        }
        let safe: Vec<usize> = (0..n).filter(|&i| known[i] == SAFE).collect();
        if !safe.is_empty() {
            let pick = safe[(rng.next_u64() % safe.len() as u64) as usize];
            game.reveal(pick);
            continue;
        }
        for _ in 0..1000 {
            let i = (rng.next_u64() % n as u64) as usize;
            if game.view.cells[i] == Cell::Covered && game.reveal(i) == Reveal::Safe {
                break;
            }
        }
    }
    let mut board = game.view.clone();
    if index % 10 == 7 {
        board.mines = None;
    }
    board
}

/// The steps' cells are the analysis's certain cells, each step proves its cell and is
/// minimal, chained facts are earlier steps', and the order is simplest first.
fn check_explanation(board: &Board, e: &MineExplanation, stats: &mut Stats) {
    let a = analyse(board, &Deadline::never());
    assert_eq!(a.verdict, Verdict::Exact);
    let mut expected: Vec<(usize, Is)> =
        a.safe.iter().map(|&c| (c, Is::Safe)).chain(a.mines.iter().map(|&c| (c, Is::Mine))).collect();
    expected.sort_unstable_by_key(|x| x.0);
    let mut got: Vec<(usize, Is)> = e.steps.iter().map(|s| (s.cell, s.is)).collect();
    got.sort_unstable_by_key(|x| x.0);
    assert_eq!(got, expected, "{board:?}");
    let mut proved: HashMap<usize, Is> = HashMap::new();
    for s in &e.steps {
        if e.chained {
            for f in &s.premise.facts {
                assert_eq!(proved.get(&f.0), Some(&f.1), "fact {f:?} not proved before: {}", step_text(board, s));
            }
        } else {
            assert!(s.premise.facts.is_empty());
        }
        proved.insert(s.cell, s.is);
        stats.steps += 1;
        if s.whole_frontier {
            stats.whole_frontier += 1;
            continue;
        }
        match proving_and_minimal(board, s) {
            Ok(plain) => stats.plain_checked += usize::from(plain),
            Err(why) => panic!("{why}\n{board:?}"),
        }
        let sizes = if s.premise.mine_count { &mut stats.sizes_with_count } else { &mut stats.sizes };
        *sizes.entry(s.premise.numbers.len()).or_default() += 1;
        stats.not_smallest += usize::from(!s.smallest);
        stats.not_smallest_with_count += usize::from(!s.smallest && s.premise.mine_count);
        stats.with_facts += usize::from(!s.premise.facts.is_empty());
    }
    if !e.chained {
        let key = |s: &MineStep| (s.whole_frontier, s.premise.numbers.len() + usize::from(s.premise.mine_count));
        assert!(e.steps.windows(2).all(|w| key(&w[0]) <= key(&w[1])), "order");
    }
}

#[derive(Default, Debug)]
struct Stats {
    steps: usize,
    whole_frontier: usize,
    positions_with_whole_frontier: usize,
    not_smallest: usize,
    not_smallest_with_count: usize,
    /// Steps without the mine count, by number of numbers.
    sizes: std::collections::BTreeMap<usize, usize>,
    /// Steps with the mine count, by number of numbers.
    sizes_with_count: std::collections::BTreeMap<usize, usize>,
    with_facts: usize,
    /// Steps whose premise the plain enumeration (≤ 16 cells) checked too.
    plain_checked: usize,
    time: Duration,
    median: Duration,
    p90: Duration,
    slowest: Duration,
    positions_with_steps: usize,
    most_steps: usize,
}

#[test]
fn hundred_positions_minimal_and_exact() {
    for chain in [false, true] {
        let mut stats = Stats::default();
        let mut times = Vec::new();
        for index in 0..100 {
            let board = position(index);
            let start = Instant::now();
            let e = explain(&board, ExplainOptions { chain }, &Deadline::never()).expect("no deadline");
            let took = start.elapsed();
            stats.time += took;
            stats.slowest = stats.slowest.max(took);
            times.push(took);
            stats.positions_with_steps += usize::from(!e.steps.is_empty());
            stats.positions_with_whole_frontier += usize::from(e.whole_frontier() > 0);
            stats.most_steps = stats.most_steps.max(e.steps.len());
            check_explanation(&board, &e, &mut stats);
            if index % 10 == 0 {
                assert_eq!(explain(&board, ExplainOptions { chain }, &Deadline::never()).unwrap(), e, "deterministic");
            }
            if std::env::var("EXPLAIN_DEBUG").is_ok() {
                eprintln!(
                    "{index}: {}x{} {:?} steps {} whole {} checks {} {took:?}",
                    board.width,
                    board.height,
                    board.mines,
                    e.steps.len(),
                    e.whole_frontier(),
                    e.checks
                );
                if e.whole_frontier() > 0 {
                    for r in 0..board.height {
                        let row: String = board.cells[r * board.width..(r + 1) * board.width]
                            .iter()
                            .map(|c| match c {
                                Cell::Covered => 'x',
                                Cell::Flag => 'F',
                                Cell::Open(v) => (b'0' + v) as char,
                            })
                            .collect();
                        eprintln!("   {row}");
                    }
                }
                for s in e.steps.iter().filter(|s| s.whole_frontier || !s.smallest) {
                    eprintln!("   {}", step_text(&board, s).chars().take(200).collect::<String>());
                }
            }
        }
        times.sort_unstable();
        (stats.median, stats.p90) = (times[50], times[90]);
        eprintln!("chain {chain}: {stats:#?}");
        assert!(stats.positions_with_steps >= 50, "{stats:?}");
    }
}

/// The 1-2-1 pattern against the board's edges: the mines under the 1s, the cell under
/// the 2 safe. Each mine needs the 2 and one 1; the safe cell needs all three numbers, or
/// (chained) one 1 once its mine is known.
#[test]
fn one_two_one() {
    let board = parse(&["xxx", "121"], None);
    let e = explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap();
    let text = explanation_text(&board, &e);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2..5],
        [
            "(1,1) is a mine: the 2 at (2,2) and the 1 at (2,3)",
            "(1,3) is a mine: the 1 at (2,1) and the 2 at (2,2)",
            "(1,2) is safe: the 1 at (2,1), the 2 at (2,2) and the 1 at (2,3)",
        ],
        "{text}"
    );
    let mut stats = Stats::default();
    check_explanation(&board, &e, &mut stats);
    let chained = explain(&board, ExplainOptions { chain: true }, &Deadline::never()).unwrap();
    let text = explanation_text(&board, &chained);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2..5],
        [
            "(1,1) is a mine: the 2 at (2,2) and the 1 at (2,3)",
            "(1,3) is a mine: the 1 at (2,1) and the 2 at (2,2)",
            "(1,2) is safe: the 1 at (2,1), given (1,1) a mine",
        ],
        "{text}"
    );
    check_explanation(&board, &chained, &mut stats);
    let json = explanation_json(&board, &chained);
    assert_eq!(
        json["steps"][2],
        serde_json::json!({"step": 3, "reasoning": "direct", "technique": "propagation of numbers",
            "constraints": [{"name": "the 1 at (2,1)", "at": [1, 0], "value": 1}],
            "facts": [{"var": "(1,1)", "values": ["mine"], "cell": [0, 0]}],
            "conclusion": {"var": "(1,2)", "values": ["safe"], "cell": [0, 1]},
            "smallest": true, "whole_frontier": false})
    );
    // Every covered cell is certain: solved, as a model whose variables are all known.
    assert_eq!(json["ending"], "solved");
}

/// The last mine: a 1 needs it, so every other covered cell is safe, by the mine count.
#[test]
fn the_mine_count_as_a_premise() {
    let board = parse(&["xxxxx", "1xxxx", "xxxxx"], Some(1));
    let e = explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap();
    let mut stats = Stats::default();
    check_explanation(&board, &e, &mut stats);
    assert_eq!(e.steps.len(), 9);
    let far = e.steps.iter().find(|s| s.cell == 14).unwrap();
    assert_eq!(step_text(&board, far), "(3,5) is safe: the mine count (1) and the 1 at (2,1)");
    // Without the total, nothing is certain.
    let board = Board { mines: None, ..board };
    assert!(explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap().steps.is_empty());
}

/// The check that the tests rely on rejects a set that is not minimal, one that does not
/// prove its cell, and a mine count that is not needed.
#[test]
fn the_minimality_check_rejects_what_it_should() {
    let board = parse(&["xxx", "121"], None);
    let (one_left, two, one_right) = (3, 4, 5);
    let step = |numbers: Vec<usize>, mine_count: bool| MineStep {
        cell: 2,
        is: Is::Mine,
        premise: Premise { numbers, facts: Vec::new(), mine_count },
        smallest: true,
        whole_frontier: false,
    };
    assert_eq!(proving_and_minimal(&board, &step(vec![one_left, two], false)), Ok(true));
    let err = proving_and_minimal(&board, &step(vec![one_left, two, one_right], false)).unwrap_err();
    assert!(err.starts_with("not minimal"), "{err}");
    let err = proving_and_minimal(&board, &step(vec![two], false)).unwrap_err();
    assert!(err.starts_with("does not prove"), "{err}");
    // Zeros below, and covered cells below them: the count (2) settles nothing here.
    let board = parse(&["xxx", "121", "000", "xxx"], Some(2));
    let err = proving_and_minimal(&board, &step(vec![one_left, two], true)).unwrap_err();
    assert!(err.contains("mine count is not needed"), "{err}");
    // A wrong fact proves the wrong thing; the chained check would reject it as not proved before.
    let wrong = Premise { numbers: vec![one_left], facts: vec![(0, Is::Safe)], mine_count: false };
    assert_eq!(proves(&board, &wrong, 1, Is::Mine), Check::Proves);
}

#[test]
fn a_deadline_stops_it() {
    let board = position(9);
    let past = Instant::now() - Duration::from_secs(1);
    assert!(explain(&board, ExplainOptions::default(), &Deadline::new(Some(past), StopToken::new())).is_err());
}

/// The plain contradiction check: no layout of the premise's scope satisfies its numbers
/// (and, with the count, leaves a number of mines that fits outside). `None` when the scope
/// has more than 16 cells.
fn naive_contradicts(board: &Board, premise: &Premise) -> Option<bool> {
    let facts: HashMap<usize, Is> = premise.facts.iter().copied().collect();
    let unknown = |j: usize| board.cells[j] == Cell::Covered && !facts.contains_key(&j);
    let mut scope: Vec<usize> =
        premise.numbers.iter().flat_map(|&n| board.neighbours(n)).filter(|&j| unknown(j)).collect();
    scope.sort_unstable();
    scope.dedup();
    if scope.len() > 16 {
        return None;
    }
    let outside = (0..board.cells.len()).filter(|&j| unknown(j) && scope.binary_search(&j).is_err()).count();
    let known =
        board.cells.iter().filter(|&&c| c == Cell::Flag).count() + facts.values().filter(|&&v| v == Is::Mine).count();
    for mask in 0u32..1 << scope.len() {
        let mine = |j: usize| match board.cells[j] {
            Cell::Flag => true,
            Cell::Open(_) => false,
            Cell::Covered => match facts.get(&j) {
                Some(v) => *v == Is::Mine,
                None => scope.binary_search(&j).is_ok_and(|k| mask >> k & 1 == 1),
            },
        };
        let numbers_hold = premise.numbers.iter().all(|&n| {
            let Cell::Open(v) = board.cells[n] else { return false };
            board.neighbours(n).filter(|&j| mine(j)).count() == usize::from(v)
        });
        if !numbers_hold {
            continue;
        }
        if !premise.mine_count {
            return Some(false);
        }
        let here = mask.count_ones() as usize + known;
        let total = board.mines.expect("a mine count");
        if here <= total && total - here <= outside {
            return Some(false);
        }
    }
    Some(true)
}

/// An impossible position's explanation: each step proves its cell, each fact a step uses
/// was proved before, and the contradiction holds by both checkers and is minimal.
fn check_impossible(board: &Board, e: &MineExplanation) {
    assert!(e.impossible);
    let mut proved: HashMap<usize, Is> = HashMap::new();
    for step in &e.steps {
        proving_and_minimal(board, step).unwrap();
        for fact in &step.premise.facts {
            assert_eq!(proved.get(&fact.0), Some(&fact.1), "a fact no earlier step proved: {}", step_text(board, step));
        }
        proved.insert(step.cell, step.is);
    }
    let premise = e.contradiction.as_ref().expect("a contradiction in bounds");
    for fact in &premise.facts {
        assert_eq!(proved.get(&fact.0), Some(&fact.1), "the contradiction rests on a fact no step proved");
    }
    assert_eq!(contradicts(board, premise), Check::Proves, "{premise:?}");
    if let Some(plain) = naive_contradicts(board, premise) {
        assert!(plain, "the plain check finds a layout for {premise:?}");
    }
    for k in 0..premise.numbers.len() {
        let mut fewer = premise.clone();
        fewer.numbers.remove(k);
        assert_ne!(contradicts(board, &fewer), Check::Proves, "not minimal: {premise:?} without {k}");
        if let Some(plain) = naive_contradicts(board, &fewer) {
            assert!(!plain);
        }
    }
}

#[test]
fn an_impossible_position_ends_in_the_numbers_that_contradict() {
    // A 2 with one covered neighbour: the 2 alone.
    let board = parse(&["x2", "11"], None);
    let e = explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap();
    check_impossible(&board, &e);
    assert!(e.steps.is_empty());
    assert_eq!(e.contradiction.as_ref().unwrap().numbers, [1]);
    assert!(explanation_text(&board, &e).contains("no layout: the 2 at (1,2) cannot hold"));
    // The one shape of every kind: the contradiction is the last step, the ending says so.
    let json = explanation_json(&board, &e);
    assert_eq!((json["status"].clone(), json["ending"].clone()), (json!("unsatisfiable"), json!("no solution")));
    let steps = json["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{json}");
    assert_eq!(steps[0]["conclusion"], json!({"contradiction": true}));
    assert_eq!(steps[0]["constraints"], json!([{"name": "the 2 at (1,2)", "at": [0, 1], "value": 2}]));
    assert!(json.get("contradiction").is_none(), "{json}");
    // A position whose contradiction needs cells proved first.
    let board = parse(&["1x1xx2xx", "x12xx31x", "xxx3xx2x", "0xxx1xxx"], Some(7));
    let e = explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap();
    check_impossible(&board, &e);
    assert!(!e.steps.is_empty());
    // Breaking the contradiction (a number left out) is caught by the check.
    let mut broken = e.contradiction.clone().unwrap();
    broken.numbers.pop();
    assert_ne!(contradicts(&board, &broken), Check::Proves);
}

/// Positions of seeded games with one revealed number off by one: whenever that makes the
/// position impossible, the explanation ends in a small verified contradiction.
#[test]
fn impossible_positions_of_games() {
    let mut impossible = 0;
    for index in 0..120u64 {
        let mut board = position(index);
        let numbers: Vec<usize> =
            (0..board.cells.len()).filter(|&i| matches!(board.cells[i], Cell::Open(v) if v > 0 && v < 8)).collect();
        if numbers.is_empty() {
            continue;
        }
        let at = numbers[(index as usize * 7) % numbers.len()];
        let Cell::Open(v) = board.cells[at] else { unreachable!() };
        board.cells[at] = Cell::Open(if index % 2 == 0 { v + 1 } else { v - 1 });
        if analyse(&board, &Deadline::never()).verdict != Verdict::Impossible {
            continue;
        }
        let e = explain(&board, ExplainOptions::default(), &Deadline::never()).unwrap();
        check_impossible(&board, &e);
        impossible += 1;
    }
    assert!(impossible >= 20, "only {impossible} impossible positions");
}

/// Every corpus position (`tests/corpus/minesweeper/*.puz`): the same checks, both ways.
#[test]
fn corpus_positions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/minesweeper");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "puz"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 5);
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        let file = cpsolve_dsl::parse(&text).expect("corpus files parse");
        let Ok(board) = cpsolve_puzzles::minesweeper::grid::read_puz(&file) else { continue };
        for chain in [false, true] {
            let e = explain(&board, ExplainOptions { chain }, &Deadline::never()).expect("no deadline");
            if std::env::var("EXPLAIN_DEBUG").is_ok() {
                eprintln!("{} (chain {chain}):\n{}", path.display(), explanation_text(&board, &e));
            }
            if e.impossible {
                assert_eq!(analyse(&board, &Deadline::never()).verdict, Verdict::Impossible);
                continue;
            }
            check_explanation(&board, &e, &mut Stats::default());
        }
    }
}

/// What `cpsolve explain` will print: the outcome of a corpus file, and `limit` at once
/// with a zero timeout.
#[test]
fn the_outcome_for_the_command_line() {
    use cpsolve_models::run::{RunOptions, Status};
    use cpsolve_puzzles::minesweeper::explain_puz;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/minesweeper/minesweepr-readme.puz");
    let file = cpsolve_dsl::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let outcome = explain_puz(&file, &RunOptions::default(), false).unwrap();
    assert_eq!(outcome.status, Status::Solved);
    assert!(outcome.text.contains("(2,4) is a mine: the 3 at (3,3)\n"), "{}", outcome.text);
    assert_eq!(outcome.json["steps"].as_array().map(Vec::len), Some(6));
    let options = RunOptions { timeout: Some(Duration::ZERO), ..RunOptions::default() };
    let outcome = explain_puz(&file, &options, true).unwrap();
    assert_eq!(outcome.status, Status::Limit);
    assert_eq!(outcome.json["status"], "limit");
}
