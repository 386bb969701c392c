//! Number Match against an independent reading of the rules: every move of the solver's
//! lines is replayed here with this file's own neighbour test (geometry between two cells,
//! not the solver's forward scans), and on tiny boards a brute force (Dijkstra over every
//! sequence of moves) agrees with the solver on the fewest adds and moves — or on there
//! being no win.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use cpsolve_puzzles::numbermatch::grid::Game;
use cpsolve_puzzles::numbermatch::rules::{Move, Rules};
use cpsolve_puzzles::numbermatch::search::{solve, Limits, Verdict};
use cpsolve_puzzles::numbermatch::{greedy, read};

/// Whether the digits at `i < j` are neighbours: nothing but cleared cells between them in
/// reading order, or on the straight line between them (a column, or under app rules a
/// diagonal that stays on the grid).
fn neighbours(cells: &[u8], cols: usize, rules: Rules, i: usize, j: usize) -> bool {
    if cells[i + 1..j].iter().all(|&d| d == 0) {
        return true;
    }
    let (r1, c1) = ((i / cols) as isize, (i % cols) as isize);
    let (r2, c2) = ((j / cols) as isize, (j % cols) as isize);
    let (dr, dc) = (r2 - r1, c2 - c1);
    let straight = dc == 0 || (rules == Rules::App && dc.abs() == dr);
    if dr <= 0 || !straight {
        return false;
    }
    let step_c = dc.signum();
    (1..dr).all(|t| cells[((r1 + t) * cols as isize + c1 + t * step_c) as usize] == 0)
}

fn matching(cells: &[u8], cols: usize, rules: Rules, i: usize, j: usize) -> bool {
    i < j
        && j < cells.len()
        && cells[i] != 0
        && cells[j] != 0
        && (cells[i] == cells[j] || cells[i] + cells[j] == 10)
        && neighbours(cells, cols, rules, i, j)
}

fn all_pairs(cells: &[u8], cols: usize, rules: Rules) -> Vec<(usize, usize)> {
    let n = cells.len();
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).filter(|&(i, j)| matching(cells, cols, rules, i, j)).collect()
}

fn clear(cells: &mut Vec<u8>, cols: usize, rules: Rules, i: usize, j: usize) {
    cells[i] = 0;
    cells[j] = 0;
    if rules == Rules::App {
        let rows: Vec<Vec<u8>> = cells.chunks(cols).filter(|r| r.iter().any(|&d| d != 0)).map(<[u8]>::to_vec).collect();
        *cells = rows.concat();
    }
}

fn add(cells: &mut Vec<u8>) {
    let digits: Vec<u8> = cells.iter().copied().filter(|&d| d != 0).collect();
    cells.extend(digits);
}

/// Replays `moves` on `game`; panics on an illegal move or a line that does not win.
/// Returns (adds, matches).
fn replay(game: &Game, moves: &[Move]) -> (usize, usize) {
    let mut cells = game.cells.clone();
    let (mut adds, mut matches) = (0, 0);
    for (k, m) in moves.iter().enumerate() {
        match *m {
            Move::Match(i, j) => {
                let (i, j) = (i as usize, j as usize);
                assert!(matching(&cells, game.cols, game.rules, i, j), "move {k}: {i}, {j} do not match in {cells:?}");
                clear(&mut cells, game.cols, game.rules, i, j);
                matches += 1;
            }
            Move::Add => {
                assert!(game.adds.is_none_or(|a| adds < a as usize), "move {k}: an add too many");
                if game.rules == Rules::Classic {
                    assert!(
                        all_pairs(&cells, game.cols, game.rules).is_empty(),
                        "move {k}: an add while a match is left"
                    );
                }
                add(&mut cells);
                adds += 1;
            }
        }
    }
    assert!(cells.iter().all(|&d| d == 0), "the line does not clear the grid: {cells:?}");
    (adds, matches)
}

/// The cheapest win by brute force: (adds, matches) under app rules, (0, matches) under
/// paper rules (where adds are forced, not chosen); `None` when no win exists.
fn brute_force(game: &Game) -> Option<(usize, usize)> {
    let mut seen = HashSet::new();
    let mut queue = BinaryHeap::new();
    queue.push(Reverse((0usize, 0usize, game.adds.unwrap_or(u32::MAX), game.cells.clone())));
    while let Some(Reverse((adds, matches, left, cells))) = queue.pop() {
        if cells.iter().all(|&d| d == 0) {
            return Some((adds, matches));
        }
        if !seen.insert((cells.clone(), left)) {
            continue;
        }
        let pairs = all_pairs(&cells, game.cols, game.rules);
        for &(i, j) in &pairs {
            let mut next = cells.clone();
            clear(&mut next, game.cols, game.rules, i, j);
            queue.push(Reverse((adds, matches + 1, left, next)));
        }
        let may_add = game.rules == Rules::App || pairs.is_empty();
        if may_add && left > 0 {
            let mut next = cells.clone();
            add(&mut next);
            let adds = if game.rules == Rules::App { adds + 1 } else { 0 };
            queue.push(Reverse((adds, matches, left - 1, next)));
        }
    }
    None
}

fn limits() -> Limits<'static> {
    Limits { table_limit: 1 << 20, ..Limits::default() }
}

fn game_of(source: &str) -> Game {
    read(&cpsolve_dsl::parse(source).expect("parses")).expect("a numbermatch grid")
}

/// A small deterministic generator (the tests need no crate for it).
fn digits(seed: &mut u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((*seed >> 33) % 9) as u8 + 1
        })
        .collect()
}

/// Returns whether the game is won.
fn check_against_brute_force(game: &Game) -> bool {
    let (verdict, _) = solve(game, limits());
    let expected = brute_force(game);
    match verdict {
        Verdict::Optimal(line) => {
            let (adds, matches) = replay(game, &line.moves);
            let got = if game.rules == Rules::App { (adds, matches) } else { (0, matches) };
            assert_eq!(Some(got), expected, "{game:?}");
            true
        }
        Verdict::NoWin => {
            assert_eq!(expected, None, "{game:?}");
            false
        }
        Verdict::Stopped { .. } => panic!("no limit was set"),
    }
}

#[test]
fn tiny_app_boards_agree_with_brute_force() {
    let mut seed = 7;
    let mut won = 0;
    for k in 0..300 {
        let n = 2 + k % 6;
        let cols = 2 + k % 3;
        let game = Game { rules: Rules::App, cols, cells: digits(&mut seed, n), adds: Some((k % 3) as u32) };
        won += usize::from(check_against_brute_force(&game));
    }
    // Both answers are exercised.
    assert!((50..250).contains(&won), "{won} won");
}

#[test]
fn tiny_boards_with_cleared_cells_agree_with_brute_force() {
    let mut seed = 11;
    for k in 0..200 {
        let mut cells = digits(&mut seed, 8);
        for c in cells.iter_mut().step_by(3 + k % 2) {
            *c = 0;
        }
        let game = Game { rules: Rules::App, cols: 3 + k % 2, cells, adds: Some(2) };
        let _ = check_against_brute_force(&game);
    }
}

/// Boards big enough for many commuting matches (the partial-order reduction of the
/// search skips their orders) and for the table to meet positions again, within one
/// iteration and across iterations.
#[test]
fn medium_boards_agree_with_brute_force() {
    let mut seed = 19;
    let mut won = 0;
    for k in 0..200 {
        let n = 9 + k % 5;
        let cols = 3 + k % 3;
        let rules = if k % 4 == 3 { Rules::Classic } else { Rules::App };
        let game = Game { rules, cols, cells: digits(&mut seed, n), adds: Some((k % 2) as u32 + 1) };
        won += usize::from(check_against_brute_force(&game));
    }
    // Both answers are exercised.
    assert!((20..190).contains(&won), "{won} won");
}

/// Narrow boards: rows vanish often, so matches that remove a row (and shift every index
/// after it) meet the partial-order reduction, which must not treat them as commuting.
#[test]
fn narrow_boards_agree_with_brute_force() {
    let mut seed = 29;
    let mut won = 0;
    for k in 0..300 {
        let n = 6 + k % 5;
        let cols = 2 + k % 2;
        let game = Game { rules: Rules::App, cols, cells: digits(&mut seed, n), adds: Some(1) };
        won += usize::from(check_against_brute_force(&game));
    }
    // Both answers are exercised.
    assert!((30..270).contains(&won), "{won} won");
}

#[test]
fn tiny_paper_boards_agree_with_brute_force() {
    let mut seed = 3;
    let mut won = 0;
    for k in 0..200 {
        let n = 2 + k % 6;
        let game = Game { rules: Rules::Classic, cols: 3 + k % 2, cells: digits(&mut seed, n), adds: Some(2) };
        won += usize::from(check_against_brute_force(&game));
    }
    assert!((20..180).contains(&won), "{won} won");
}

#[test]
fn the_paper_game_1_to_19_is_won_in_34_matches() {
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/numbermatch/classic-1-19.puz"))
            .expect("the corpus file");
    let game = game_of(&source);
    assert_eq!(game.adds, None, "adds are unlimited on paper");
    let (verdict, _) = solve(&game, limits());
    let Verdict::Optimal(line) = verdict else { panic!("won on paper: {verdict:?}") };
    assert_eq!(replay(&game, &line.moves).1, 34);
}

#[test]
fn the_app_start_of_the_spec_is_replayed() {
    let game = game_of(
        "numbermatch cols = 9 adds = 5\n5 1 8 1 4 5 8 7 1\n6 3 6 5 2 7 1 2 6\n9 5 8 7 1 6 5 3 9\n2 7 1 5 8 3 2 6\n",
    );
    let (verdict, _) = solve(&game, limits());
    let Verdict::Optimal(line) = verdict else { panic!("{verdict:?}") };
    let (adds, matches) = replay(&game, &line.moves);
    // 35 digits: an odd count needs an add.
    assert_eq!(adds, 1);
    assert!(matches >= 18);
}

#[test]
fn greedy_games_are_legal() {
    let mut seed = 5;
    for k in 0..100 {
        let game = Game { rules: Rules::App, cols: 9, cells: digits(&mut seed, 27 + k % 9), adds: Some(5) };
        let played = greedy::play(&game);
        if played.won {
            replay(&game, &played.moves);
        }
        // Greedy: every match is the first pair in index order.
        let mut cells = game.cells.clone();
        for m in &played.moves {
            if let Move::Match(i, j) = *m {
                assert_eq!(all_pairs(&cells, 9, Rules::App).first(), Some(&(i as usize, j as usize)));
                clear(&mut cells, 9, Rules::App, i as usize, j as usize);
            } else {
                assert!(all_pairs(&cells, 9, Rules::App).is_empty(), "greedy adds only when stuck");
                add(&mut cells);
            }
        }
    }
}

#[test]
fn cleared_rows_of_the_input_vanish_under_app_rules() {
    let game = game_of("numbermatch cols = 3\n. . .\n1 . 9\n");
    assert_eq!(game.cells, vec![1, 0, 9]);
    let paper = game_of("numbermatch cols = 3\noption rules = classic\n. . .\n1 . 9\n");
    assert_eq!(paper.cells, vec![0, 0, 0, 1, 0, 9]);
}

#[test]
fn bad_grids_are_rejected_with_their_position() {
    for (source, message) in [
        ("numbermatch cols = 3\n1 2 0\n", "0 is not"),
        ("numbermatch cols = 3\n1 a 3\n", "`a` is not"),
        ("numbermatch cols = 3\n1 2 3 4\n", "row 1 has 4 cells"),
        ("numbermatch cols = 3\n1 2\n3 4 5\n", "only the last row may be short"),
        ("numbermatch cols = 3\noption rules = fancy\n1 2\n", "must be one of"),
    ] {
        let file = cpsolve_dsl::parse(source).expect("parses");
        let errors = read(&file).expect_err(source);
        assert!(errors[0].message.contains(message), "{source}: {:?}", errors[0].message);
    }
}
