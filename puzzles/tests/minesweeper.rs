//! Minesweeper analysis against a brute-force enumeration of every layout, the end-game
//! search against the textbook expectimax, the minesweepr README example, and the time
//! of a large single-component frontier.

use cpsolve_puzzles::Deadline;
use std::time::Instant;

use cpsolve_puzzles::minesweeper::analysis::{analyse, Verdict};
use cpsolve_puzzles::minesweeper::grid::{neighbours, Board, Cell};
use num_bigint::BigUint;
use proptest::prelude::*;

/// Every layout of the covered cells: (consistent layouts, per cell the layouts where it is a mine).
fn brute_force(board: &Board) -> (u64, Vec<u64>) {
    let (_, layouts) = layouts_satisfying_numbers(board);
    let mut total = 0u64;
    let mut per_cell = vec![0u64; board.cells.len()];
    for mine in layouts.iter().filter(|l| board.mines.is_none_or(|m| l.iter().filter(|&&x| x).count() == m)) {
        total += 1;
        for (i, _) in mine.iter().enumerate().filter(|(_, &m)| m) {
            per_cell[i] += 1;
        }
    }
    (total, per_cell)
}

fn check_against_brute_force(board: &Board) {
    let (total, per_cell) = brute_force(board);
    let a = analyse(board, &Deadline::never());
    if total == 0 {
        assert_eq!(a.verdict, Verdict::Impossible, "{board:?}");
        return;
    }
    assert_eq!(a.verdict, Verdict::Exact, "{board:?}");
    assert_eq!(a.total, BigUint::from(total), "{board:?}");
    for (i, cell) in board.cells.iter().enumerate() {
        match cell {
            Cell::Open(_) => assert!(a.mine_weight[i].is_none()),
            _ => assert_eq!(a.mine_weight[i], Some(BigUint::from(per_cell[i])), "cell {i} of {board:?}"),
        }
        if *cell == Cell::Covered {
            assert_eq!(a.safe.contains(&i), per_cell[i] == 0);
            assert_eq!(a.mines.contains(&i), per_cell[i] == total);
        }
    }
}

/// A random position: a true layout, some safe cells revealed with their numbers, some
/// mines flagged, at most 14 covered cells; sometimes a number or the total is wrong.
fn position() -> impl Strategy<Value = Board> {
    (2usize..=5, 2usize..=5)
        .prop_flat_map(|(w, h)| {
            let n = w * h;
            (
                Just((w, h)),
                proptest::collection::vec(0u8..100, n),
                proptest::collection::vec(0u8..100, n),
                0u8..4,
                0u8..100,
                0usize..n,
            )
        })
        .prop_map(|((w, h), mine_roll, show_roll, total_kind, density, tweak)| {
            let n = w * h;
            let density = 10 + density / 3;
            let mine: Vec<bool> = mine_roll.iter().map(|&r| r < density).collect();
            let mut cells: Vec<Cell> = (0..n)
                .map(|i| {
                    if mine[i] {
                        if show_roll[i] < 25 {
                            Cell::Flag
                        } else {
                            Cell::Covered
                        }
                    } else if show_roll[i] < 55 {
                        let count = neighbours(w, h, i).filter(|&j| mine[j]).count();
                        Cell::Open(count as u8)
                    } else {
                        Cell::Covered
                    }
                })
                .collect();
            // Keep the brute force small: reveal covered safe cells until at most 14 remain.
            let mut covered = cells.iter().filter(|c| **c == Cell::Covered).count();
            for i in 0..n {
                if covered <= 14 {
                    break;
                }
                if cells[i] == Cell::Covered {
                    cells[i] = if mine[i] {
                        Cell::Flag
                    } else {
                        Cell::Open(neighbours(w, h, i).filter(|&j| mine[j]).count() as u8)
                    };
                    covered -= 1;
                }
            }
            let true_total = mine.iter().filter(|&&m| m).count();
            // Sometimes a wrong number (which may or may not stay consistent).
            if total_kind == 3 {
                if let Cell::Open(v) = cells[tweak] {
                    let flags = neighbours(w, h, tweak).filter(|&j| cells[j] == Cell::Flag).count() as u8;
                    let around = neighbours(w, h, tweak).count() as u8;
                    cells[tweak] = Cell::Open(((v + 1) % (around + 1)).max(flags));
                }
            }
            let mines = match total_kind {
                0 => None,
                1 => Some(true_total + tweak % 3),
                _ => Some(true_total),
            };
            let flags = cells.iter().filter(|c| **c == Cell::Flag).count();
            Board { width: w, height: h, cells, mines: mines.map(|m| m.max(flags)) }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    #[test]
    fn counts_and_probabilities_equal_brute_force(board in position()) {
        check_against_brute_force(&board);
    }
}

fn parse(rows: &[&str], mines: Option<usize>) -> Board {
    let cells: Vec<Cell> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            'x' => Cell::Covered,
            '.' => Cell::Open(0),
            'F' => Cell::Flag,
            d => Cell::Open(d as u8 - b'0'),
        })
        .collect();
    Board { width: rows[0].len(), height: rows.len(), cells, mines }
}

#[test]
fn minesweepr_readme_example() {
    let mut rows = vec!["..1xxxxxxx", "..2xxxxxxx", "..3xxxxxxx", "..2xxxxxxx", "112xxxxxxx"];
    rows.extend(["xxxxxxxxxx"; 5]);
    let board = parse(&rows, Some(10));
    let a = analyse(&board, &Deadline::never());
    assert_eq!(a.total, BigUint::from(237_093_780u64));
    let at = |r: usize, c: usize| a.mine_weight[r * 10 + c].clone().expect("covered");
    // Off-frontier cells: 6/77; the cell below the 1-1-2 corner: 71/77.
    assert_eq!(at(9, 9) * 77u32, &a.total * 6u32);
    assert_eq!(at(5, 1) * 77u32, &a.total * 71u32);
    assert_eq!(at(0, 3), BigUint::from(0u32));
    assert_eq!(at(1, 3), a.total);
    assert_eq!(a.safe.len(), 3);
    assert_eq!(a.mines.len(), 3);
}

/// Numbers on a checkerboard of covered cells, from a random layout: one component of
/// 105 cells, each its own box.
pub fn checkerboard(width: usize, height: usize, seed: u64) -> Board {
    checkerboard_with(width, height, seed, 30)
}

/// The same, `density` percent of the covered cells mined.
pub fn checkerboard_with(width: usize, height: usize, seed: u64, density: u64) -> Board {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % 100
    };
    let covered = |i: usize| (i / width + i % width) % 2 == 0;
    let mine: Vec<bool> = (0..width * height).map(|i| covered(i) && next() < density).collect();
    let cells = (0..width * height)
        .map(|i| {
            if covered(i) {
                Cell::Covered
            } else {
                Cell::Open(neighbours(width, height, i).filter(|&j| mine[j]).count() as u8)
            }
        })
        .collect();
    Board { width, height, cells, mines: Some(mine.iter().filter(|&&m| m).count()) }
}

#[test]
fn checkerboard_frontier_is_exact_and_fast() {
    let board = checkerboard(21, 10, 7);
    let start = Instant::now();
    let a = analyse(&board, &Deadline::never());
    let took = start.elapsed();
    assert_eq!(a.verdict, Verdict::Exact);
    eprintln!("checkerboard 21x10: {} layouts, {} states, {took:?}", a.total, a.states);
    // Generous here (tests run in parallel, debug-ish profile); bench/minesweeper.sh times it.
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
}

/// The counting programme alone (no local deduction first) on the checkerboard: one
/// component of 105 single-cell boxes.
#[test]
fn checkerboard_count_without_deduction() {
    use cpsolve_puzzles::minesweeper::{count, frontier};
    for (seed, density) in [(7, 30), (1, 50)] {
        let board = checkerboard_with(21, 10, seed, density);
        let fr = frontier::build(&board, &vec![frontier::UNKNOWN; board.cells.len()]);
        assert_eq!(fr.components.len(), 1);
        assert_eq!(fr.components[0].cells(), 105);
        let start = Instant::now();
        let c = count::count(&fr.components[0], &Deadline::never()).expect("no deadline");
        let took = start.elapsed();
        let total: BigUint = c.by_mines.iter().sum();
        eprintln!(
            "checkerboard 21x10 ({density}%) without deduction: {total} layouts (any total), {} states, {took:?}",
            c.states
        );
        // The true layout is one of them, with the true number of mines.
        assert!(c.by_mines[board.mines.expect("given")] >= BigUint::from(1u32));
        assert!(took.as_secs_f64() < 5.0, "{took:?}");
    }
}

/// Times the exact analysis on real expert mid-game positions: games played by a simple
/// player (certain cells first, else the lowest probability), every position where local
/// deduction is stuck analysed and timed. `MINESWEEPER_BENCH_GAMES` games (default 10;
/// bench/minesweeper.sh asks for more).
#[test]
fn expert_midgame_analysis_times() {
    use cpsolve_puzzles::minesweeper::frontier::{local_deductions, MINE, SAFE};
    use cpsolve_puzzles::minesweeper::game::{game_rng, FirstClick, Game, Level, Reveal};
    let games: u64 = std::env::var("MINESWEEPER_BENCH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    let mut times = Vec::new();
    for index in 0..games {
        let mut rng = game_rng(42, index);
        let mut game = Game::new(Level::EXPERT, FirstClick::Safe, &mut rng);
        let mut alive = game.reveal(0) == Reveal::Safe;
        while alive && !game.won() {
            let known = local_deductions(&game.view).expect("a real game is consistent");
            let safe: Vec<usize> = (0..known.len()).filter(|&i| known[i] == SAFE).collect();
            for (i, k) in known.iter().enumerate() {
                if *k == MINE {
                    game.flag(i);
                }
            }
            if !safe.is_empty() {
                for i in safe {
                    alive &= game.reveal(i) == Reveal::Safe;
                }
                continue;
            }
            let start = Instant::now();
            let a = analyse(&game.view, &Deadline::never());
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(a.verdict, Verdict::Exact);
            for &i in &a.mines {
                game.flag(i);
            }
            if !a.safe.is_empty() {
                for &i in &a.safe {
                    alive &= game.reveal(i) == Reveal::Safe;
                }
                continue;
            }
            let guess = (0..game.view.cells.len())
                .filter(|&i| game.view.cells[i] == Cell::Covered)
                .min_by(|&x, &y| a.probability(x).unwrap_or(1.0).total_cmp(&a.probability(y).unwrap_or(1.0)))
                .expect("a covered cell remains");
            alive = game.reveal(guess) == Reveal::Safe;
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len().max(1);
    let mean = times.iter().sum::<f64>() / n as f64;
    eprintln!(
        "expert mid-game analyses: {} positions from {games} games; mean {mean:.3} ms, median {:.3} ms, 90% {:.3} ms, max {:.3} ms",
        times.len(),
        times.get(n / 2).copied().unwrap_or(0.0),
        times.get(n * 9 / 10).copied().unwrap_or(0.0),
        times.last().copied().unwrap_or(0.0)
    );
    assert!(times.get(n / 2).copied().unwrap_or(0.0) < 50.0, "median analysis time");
}

/// The end-game search: a pure 50/50 is won half the time; a position where one cell
/// settles everything is won whenever that cell is safe.
#[test]
fn endgame_search_values() {
    use cpsolve_puzzles::minesweeper::endgame::best_move;
    // Two covered cells, one mine, no numbers between them: a coin toss.
    let board = parse(&["xx"], Some(1));
    let (_, p) = best_move(&board).expect("two layouts");
    assert!((p - 0.5).abs() < 1e-12, "{p}");
    // 1x3 with one mine among three: revealing the middle (safe in 2 of 3 layouts)
    // shows a 1 either way and teaches nothing; an end cell is safe in 2 of 3 and then
    // tells where the mine is: 2/3.
    let board = parse(&["xxx"], Some(1));
    let (cell, p) = best_move(&board).expect("three layouts");
    assert!((p - 2.0 / 3.0).abs() < 1e-12, "{p}");
    assert_ne!(cell, 1);
}

/// Every assignment of the covered cells that satisfies the numbers (flags are mines).
fn layouts_satisfying_numbers(board: &Board) -> (Vec<usize>, Vec<Vec<bool>>) {
    let covered: Vec<usize> = (0..board.cells.len()).filter(|&i| board.cells[i] == Cell::Covered).collect();
    let mut out = Vec::new();
    for mask in 0u64..1 << covered.len() {
        let mut mine: Vec<bool> = board.cells.iter().map(|c| *c == Cell::Flag).collect();
        for (b, &c) in covered.iter().enumerate() {
            mine[c] = mask >> b & 1 == 1;
        }
        let ok = board.cells.iter().enumerate().all(|(i, cell)| match cell {
            Cell::Open(n) => neighbours(board.width, board.height, i).filter(|&j| mine[j]).count() == usize::from(*n),
            _ => true,
        });
        if ok {
            out.push(mine);
        }
    }
    (covered, out)
}

/// The textbook expectimax: every cell at every state, no pruning, no dominance rule.
fn naive_value(
    board: &Board,
    covered: &[usize],
    layouts: &[Vec<bool>],
    weight: &[f64],
    set: &[usize],
    memo: &mut std::collections::HashMap<Vec<usize>, f64>,
) -> f64 {
    if set.len() <= 1 {
        return 1.0;
    }
    if let Some(&v) = memo.get(set) {
        return v;
    }
    let best = covered
        .iter()
        .filter_map(|&c| naive_cell_value(board, covered, layouts, weight, set, c, memo))
        .fold(0.0, f64::max);
    memo.insert(set.to_vec(), best);
    best
}

/// The value of revealing `cell` in `set`, or `None` when it teaches nothing.
fn naive_cell_value(
    board: &Board,
    covered: &[usize],
    layouts: &[Vec<bool>],
    weight: &[f64],
    set: &[usize],
    cell: usize,
    memo: &mut std::collections::HashMap<Vec<usize>, f64>,
) -> Option<f64> {
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for &l in set.iter().filter(|&&l| !layouts[l][cell]) {
        let shown = neighbours(board.width, board.height, cell).filter(|&j| layouts[l][j]).count();
        groups.entry(shown).or_default().push(l);
    }
    if groups.len() == 1 && groups.values().next().is_some_and(|g| g.len() == set.len()) {
        return None;
    }
    let total: f64 = set.iter().map(|&l| weight[l]).sum();
    let won: f64 = groups
        .values()
        .map(|g| g.iter().map(|&l| weight[l]).sum::<f64>() * naive_value(board, covered, layouts, weight, g, memo))
        .sum();
    Some(won / total)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The end-game search (pruned, with its dominance rules) finds the value of the
    /// textbook expectimax, and its move achieves it: with the total number of mines, and
    /// with layouts weighed by an arbitrary weight per number of mines.
    #[test]
    fn endgame_search_equals_naive_expectimax(board in position(), roll in proptest::collection::vec(0u32..20, 15)) {
        use cpsolve_puzzles::minesweeper::endgame::{best_move_in, enumerate, MineCount};
        let (covered, all) = layouts_satisfying_numbers(&board);
        // The search lists layouts for a position the bot reached: numbers away from the
        // covered cells are not checked again.
        prop_assume!(!all.is_empty());
        let flags = board.cells.iter().filter(|c| **c == Cell::Flag).count();
        let mines_of = |l: &Vec<bool>| l.iter().filter(|&&m| m).count() - flags;
        let weights: Vec<f64> = roll.iter().map(|&r| f64::from(r)).collect();
        let cases = [
            board.mines.map(|m| MineCount::Exactly(m.saturating_sub(flags))),
            Some(MineCount::Weighted(&weights)),
        ];
        for count in cases.into_iter().flatten() {
            let (layouts, weight): (Vec<Vec<bool>>, Vec<f64>) = all
                .iter()
                .filter(|l| match count {
                    MineCount::Exactly(m) => mines_of(l) == m,
                    MineCount::Weighted(_) => true,
                })
                .map(|l| (l.clone(), match count {
                    MineCount::Exactly(_) => 1.0,
                    MineCount::Weighted(w) => w[mines_of(l)],
                }))
                .filter(|(_, w)| *w > 0.0)
                .unzip();
            if layouts.is_empty() || layouts.len() > 300 {
                continue;
            }
            let listed = enumerate(&board, &covered, count).expect("few layouts");
            prop_assert_eq!(listed.len(), layouts.len());
            let mut memo = Default::default();
            let set: Vec<usize> = (0..layouts.len()).collect();
            let expected = naive_value(&board, &covered, &layouts, &weight, &set, &mut memo);
            match best_move_in(&listed) {
                None => prop_assert!(layouts.len() < 2),
                Some((cell, value)) => {
                    prop_assert!((value - expected).abs() < 1e-9, "search {} naive {} {:?}", value, expected, board);
                    let achieved = naive_cell_value(&board, &covered, &layouts, &weight, &set, cell, &mut memo);
                    prop_assert!(achieved.is_some_and(|v| (v - expected).abs() < 1e-9), "cell {} gives {:?}, best {}", cell, achieved, expected);
                }
            }
        }
    }
}

/// The end-game listing refuses a flagged cell among the cells to list (it would treat
/// it as free and count layouts twice).
#[test]
fn endgame_listing_refuses_flags() {
    use cpsolve_puzzles::minesweeper::endgame::{enumerate, MineCount};
    let mut board = parse(&["1xx"], Some(1));
    assert!(enumerate(&board, &[1, 2], MineCount::Exactly(1)).is_some_and(|l| l.len() == 1));
    board.cells[1] = Cell::Flag;
    assert!(enumerate(&board, &[1, 2], MineCount::Exactly(0)).is_none());
}

/// A pair walled in by a flag and the edge, one mine between them: each cell is half of
/// a formed 50/50, so its whole safety counts again (factor 1 + 0.9), and the first is
/// the cell to guess at once.
#[test]
fn walled_pair_is_a_coin_flip() {
    use cpsolve_puzzles::minesweeper::fifty::{Influence, MAX_FACTOR};
    let board = Board { width: 3, height: 1, cells: vec![Cell::Covered, Cell::Covered, Cell::Flag], mines: Some(2) };
    let a = analyse(&board, &Deadline::never());
    let mut influence = Influence::new(&board, &a);
    assert!((influence.factor(0) - MAX_FACTOR).abs() < 1e-12);
    assert!((influence.factor(1) - MAX_FACTOR).abs() < 1e-12);
    assert_eq!(influence.coin_flip_or_safe(), Some(0));
    // One more mine to place: both cells mines in the only layout, no 50/50.
    let full = Board { mines: Some(3), ..board };
    let a = analyse(&full, &Deadline::never());
    let mut influence = Influence::new(&full, &a);
    assert_eq!(influence.factor(0), 1.0);
    assert_eq!(influence.coin_flip_or_safe(), None);
}

/// In layout `mine`, cell `m` is a mine of a closed 50/50 structure: a pair (`m` and a
/// side neighbour, walled at both ends) or a 2×2 block (`m` on one mined diagonal, mines
/// on the block's four diagonal corners); no wall is a revealed cell.
fn in_closed_structure(board: &Board, mine: &[bool], m: usize) -> bool {
    let (w, h) = (board.width as isize, board.height as isize);
    let at = |x: isize, y: isize| (0 <= x && x < w && 0 <= y && y < h).then(|| (y * w + x) as usize);
    let wall = |x: isize, y: isize| at(x, y).is_none_or(|i| mine[i] && !matches!(board.cells[i], Cell::Open(_)));
    let hidden_safe = |x: isize, y: isize| at(x, y).is_some_and(|i| board.cells[i] == Cell::Covered && !mine[i]);
    let hidden_mine = |x: isize, y: isize| at(x, y).is_some_and(|i| board.cells[i] == Cell::Covered && mine[i]);
    let (x, y) = (m as isize % w, m as isize / w);
    // Pairs: (left, right) or (top, bottom), `m` either one.
    let across = |lx: isize| (-1..=1).all(|d| wall(lx - 1, y + d) && wall(lx + 2, y + d));
    let down = |ty: isize| (-1..=1).all(|d| wall(x + d, ty - 1) && wall(x + d, ty + 2));
    let pair = (hidden_safe(x + 1, y) && across(x))
        || (hidden_safe(x - 1, y) && across(x - 1))
        || (hidden_safe(x, y + 1) && down(y))
        || (hidden_safe(x, y - 1) && down(y - 1));
    let block = [(x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)].iter().any(|&(bx, by)| {
        let corners = [(bx - 1, by - 1), (bx + 2, by - 1), (bx - 1, by + 2), (bx + 2, by + 2)];
        let diagonal = (bx, by) == (x, y) || (bx + 1, by + 1) == (x, y);
        let (mines, safes) = if diagonal {
            ([(bx, by), (bx + 1, by + 1)], [(bx + 1, by), (bx, by + 1)])
        } else {
            ([(bx + 1, by), (bx, by + 1)], [(bx, by), (bx + 1, by + 1)])
        };
        corners.iter().all(|&(cx, cy)| wall(cx, cy))
            && mines.iter().all(|&(cx, cy)| hidden_mine(cx, cy))
            && safes.iter().all(|&(cx, cy)| hidden_safe(cx, cy))
    });
    pair || block
}

/// Layouts (among `layouts`) in which the cells `mines` are mines, `safes` safe and the
/// walls mines, or `None` when the structure is not weighed: a cell of its own off the
/// board or not covered, a revealed wall, more than three wall mines unknown, or more
/// mines needed than are left.
fn brute_force_structure(
    board: &Board,
    layouts: &[Vec<bool>],
    mines: &[(isize, isize)],
    safes: &[(isize, isize)],
    walls: &[(isize, isize)],
) -> Option<u64> {
    let (w, h) = (board.width as isize, board.height as isize);
    let at = |(x, y): (isize, isize)| (0 <= x && x < w && 0 <= y && y < h).then(|| (y * w + x) as usize);
    let own: Vec<usize> = mines.iter().chain(safes).map(|&p| at(p)).collect::<Option<_>>()?;
    if own.iter().any(|&i| board.cells[i] != Cell::Covered) {
        return None;
    }
    let walls: Vec<usize> = walls.iter().filter_map(|&p| at(p)).collect();
    if walls.iter().any(|&i| matches!(board.cells[i], Cell::Open(_))) {
        return None;
    }
    let unknown = walls.iter().filter(|&&i| board.cells[i] == Cell::Covered).count();
    let left = board.mines? - board.cells.iter().filter(|c| **c == Cell::Flag).count();
    if unknown > 3 || unknown + mines.len() > left {
        return None;
    }
    let n = layouts
        .iter()
        .filter(|l| own[..mines.len()].iter().chain(&walls).all(|&i| l[i]) && own[mines.len()..].iter().all(|&i| !l[i]))
        .count();
    Some(n as u64)
}

/// The 50/50 factor of `cell` from its definition, each structure counted over `layouts`
/// (those of the right total): the pairs that hold the cell (the left or top cell the
/// mine), plus the likeliest 2×2 block (top-left and bottom-right the mines), capped at
/// the cell's mine and safe layouts.
fn brute_force_factor(board: &Board, layouts: &[Vec<bool>], cell: usize) -> f64 {
    let mine = layouts.iter().filter(|l| l[cell]).count() as u64;
    let safe = layouts.len() as u64 - mine;
    if safe == 0 {
        return 1.0;
    }
    let (x, y) = ((cell % board.width) as isize, (cell / board.width) as isize);
    let across = |ax: isize| {
        let walls: Vec<_> = (-1..=1).flat_map(|d| [(ax - 1, y + d), (ax + 2, y + d)]).collect();
        brute_force_structure(board, layouts, &[(ax, y)], &[(ax + 1, y)], &walls).unwrap_or(0)
    };
    let down = |ay: isize| {
        let walls: Vec<_> = (-1..=1).flat_map(|d| [(x + d, ay - 1), (x + d, ay + 2)]).collect();
        brute_force_structure(board, layouts, &[(x, ay)], &[(x, ay + 1)], &walls).unwrap_or(0)
    };
    let block = |bx: isize, by: isize| {
        let walls = [(bx - 1, by - 1), (bx + 2, by - 1), (bx - 1, by + 2), (bx + 2, by + 2)];
        brute_force_structure(board, layouts, &[(bx, by), (bx + 1, by + 1)], &[(bx + 1, by), (bx, by + 1)], &walls)
            .unwrap_or(0)
    };
    let blocks = [block(x, y), block(x - 1, y), block(x, y - 1), block(x - 1, y - 1)];
    let tally = across(x) + across(x - 1) + down(y) + down(y - 1) + blocks.iter().max().copied().unwrap_or(0);
    1.0 + 0.9 * tally.min(mine).min(safe) as f64 / safe as f64
}

/// The cell given as "a 50/50 or safe" is, in every layout where it is a mine, the mine of
/// a closed 50/50 structure (brute force over all layouts); every cell's 50/50 factor lies
/// between 1 and its maximum and equals its definition counted over all layouts. Returns
/// whether a cell was given.
fn check_coin_flip_or_safe(board: &Board) -> Result<bool, TestCaseError> {
    use cpsolve_puzzles::minesweeper::fifty::{Influence, MAX_FACTOR};
    let a = analyse(board, &Deadline::never());
    if a.verdict != Verdict::Exact || board.mines.is_none() {
        return Ok(false);
    }
    let total = board.mines.unwrap_or_default();
    let (_, layouts) = layouts_satisfying_numbers(board);
    let layouts: Vec<Vec<bool>> = layouts.into_iter().filter(|l| l.iter().filter(|&&x| x).count() == total).collect();
    let mut influence = Influence::new(board, &a);
    for i in (0..board.cells.len()).filter(|&i| board.cells[i] == Cell::Covered) {
        let f = influence.factor(i);
        prop_assert!((1.0..=MAX_FACTOR + 1e-12).contains(&f), "factor {} of cell {}", f, i);
        let expected = brute_force_factor(board, &layouts, i);
        prop_assert!((f - expected).abs() < 1e-9, "factor {} of cell {}, brute force {}, {:?}", f, i, expected, board);
    }
    let Some(m) = influence.coin_flip_or_safe() else { return Ok(false) };
    prop_assert_eq!(board.cells[m], Cell::Covered);
    let mut mined = 0;
    for l in layouts.iter().filter(|l| l[m]) {
        mined += 1;
        prop_assert!(in_closed_structure(board, l, m), "cell {} in {:?}", m, board);
    }
    prop_assert!(mined > 0, "cell {} is never a mine", m);
    Ok(true)
}

/// `check_coin_flip_or_safe` on 600 random positions (a fixed seed); the check must bite:
/// some of them have such a cell.
#[test]
fn coin_flip_or_safe_holds_in_every_layout() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let found = AtomicUsize::new(0);
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(
        ProptestConfig { cases: 600, ..ProptestConfig::default() },
        proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    runner
        .run(&position(), |board| {
            if check_coin_flip_or_safe(&board)? {
                found.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
    let found = found.into_inner();
    assert!(found >= 10, "only {found} of 600 positions had a cell to check");
}
