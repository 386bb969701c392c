//! Le Compte est Bon / Countdown (docs/language.md, `compte`): `compte 100 2 1 10 4 3 -> 819`.
//!
//! Not compiled to the generic engine: a constraint model of expression trees must guess
//! the shape of the tree, and it explores each value once per shape and per order of the
//! operands (bench/README.md, "Compte est Bon", measures the gap). Instead:
//! `reach.rs` tabulates the values of every subset of the tiles (dynamic programming over
//! subsets), `search.rs` lists the solutions of one value top down over that table,
//! `expr.rs` gives each solution its normal form (the spec's notion of distinct solutions)
//! and its steps (and the tree of those steps), `view.rs` writes text and JSON,
//! `picture.rs` draws the trees (`--format svg`), and `table.rs` answers
//! `cpsolve table compte` for all 13,243 selections of the game.

mod expr;
mod picture;
mod reach;
mod search;
pub mod table;
mod view;

use crate::Deadline;
use std::time::Instant;

use cpsolve_dsl::ast::{File, Item, SolveMode};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::Stats;
use rayon::prelude::*;

use crate::outcome::Outcome;
use cpsolve_models::run::{RunOptions, Status};
use expr::Nf;
use reach::{Reach, TimedOut, Value};
use search::Enumerator;

/// More tiles than this would need 2^n subsets in memory; ten is the most the spec asks.
pub const MAX_TILES: usize = 16;

/// Whether the file's model is a `compte` statement.
pub fn is_compte(file: &File) -> bool {
    file.items.iter().any(|i| matches!(i.node, Item::Compte { .. }))
}

/// Checks a `compte` model without solving it (`cpsolve check`): the number of tiles.
pub fn check(file: &File) -> Result<usize, Vec<Diagnostic>> {
    read_game(file).map(|g| g.tiles.len())
}

/// One game, as read from the file.
#[derive(Debug, Clone)]
struct Game {
    tiles: Vec<Value>,
    target: Value,
    mode: SolveMode,
}

fn read_game(file: &File) -> Result<Game, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut game: Option<Game> = None;
    let mut mode = SolveMode::First;
    for item in &file.items {
        match &item.node {
            Item::Compte { tiles, target } => {
                if game.is_some() {
                    errors.push(
                        Diagnostic::new("a file holds one model", item.span.clone())
                            .with_label("a second `compte` statement")
                            .with_note("put each game in its own file, or give several -e options"),
                    );
                    continue;
                }
                let mut values = Vec::new();
                for t in tiles {
                    match u64::try_from(t.node) {
                        Ok(v) if v > 0 => values.push(v),
                        _ => errors.push(
                            Diagnostic::new(format!("tile `{}` is not a positive integer", t.node), t.span.clone())
                                .with_label("tiles are positive integers"),
                        ),
                    }
                }
                if tiles.len() > MAX_TILES {
                    errors.push(
                        Diagnostic::new(
                            format!("{} tiles: at most {MAX_TILES} are supported", tiles.len()),
                            item.span.clone(),
                        )
                        .with_label("too many tiles")
                        .with_note("the search tabulates every subset of the tiles (2^n of them)"),
                    );
                }
                let target_value = match u64::try_from(target.node) {
                    Ok(v) if v > 0 => v,
                    _ => {
                        errors.push(
                            Diagnostic::new(
                                format!("target `{}` is not a positive integer", target.node),
                                target.span.clone(),
                            )
                            .with_label("every result of the game is a positive integer"),
                        );
                        1
                    }
                };
                game = Some(Game { tiles: values, target: target_value, mode: SolveMode::First });
            }
            Item::Solve(m) => mode = m.node,
            Item::Option { name, .. } => errors.push(
                Diagnostic::new(format!("unknown option `{}`", name.node), name.span.clone())
                    .with_label("not an option of this model")
                    .with_note("a `compte` model takes no options"),
            ),
            _ => errors.push(
                Diagnostic::new(
                    "a `compte` model holds only the `compte` statement and a `solve` line",
                    item.span.clone(),
                )
                .with_label("not part of a `compte` model"),
            ),
        }
    }
    match game {
        Some(game) if errors.is_empty() => Ok(Game { mode, ..game }),
        _ => {
            if errors.is_empty() {
                errors.push(Diagnostic::new("no `compte` statement", 0..0));
            }
            Err(errors)
        }
    }
}

/// What the search decided, before rendering.
#[derive(Debug)]
struct Answer {
    /// The value the solutions reach: the target, or the closest reachable value.
    best: Option<Value>,
    /// The other value as close as `best` (above the target when `best` is below).
    best_other: Option<Value>,
    /// Distinct solutions reaching `best`, sorted (fewest steps first), at most the limit.
    solutions: Vec<Nf>,
    /// Solutions found (capped at the limit, as the runner does).
    count: u128,
    stopped: Option<view::Stopped>,
}

/// Solves a `compte` model in the mode the options and the file ask for.
pub fn solve(file: &File, options: &RunOptions) -> Result<Outcome, Vec<Diagnostic>> {
    let game = read_game(file)?;
    let start = Instant::now();
    let mut mode = options.mode.unwrap_or(game.mode);
    if mode == SolveMode::First && options.limit.is_some() {
        mode = SolveMode::All;
    }
    let threads = options.threads.max(1);
    let pool = (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten();
    let mut reach = Reach::new(&game.tiles);
    let mut enumerated = (0u64, 0u64);
    let answer = search(&game, mode, options, start, pool.as_ref(), &mut reach, &mut enumerated);
    let status = match (answer.stopped, answer.count) {
        (Some(_), _) => Status::Limit,
        (None, 0) => Status::Unsatisfiable,
        (None, _) => Status::Solved,
    };
    let stats = Stats {
        nodes: reach.counters.nodes + enumerated.0,
        failures: reach.counters.failures,
        propagations: reach.counters.stored + enumerated.1,
        solutions: answer.count,
        max_depth: game.tiles.len(),
        time: start.elapsed(),
        ..Stats::default()
    };
    let text = view::text(game.target, mode, &answer, options);
    let json = view::json(game.target, mode, status, &answer, options);
    // As for every kind: no solution, no picture (the text goes to standard error).
    let picture = (options.picture && status != Status::Unsatisfiable).then(|| {
        let trees: Vec<expr::Tree> = answer.solutions.iter().map(Nf::tree).collect();
        picture::svg(&game.tiles, game.target, answer.best, &trees, &text)
    });
    Ok(Outcome { status, text, json, stats, picture })
}

fn search(
    game: &Game,
    mode: SolveMode,
    options: &RunOptions,
    start: Instant,
    pool: Option<&rayon::ThreadPool>,
    reach: &mut Reach,
    enumerated: &mut (u64, u64),
) -> Answer {
    let deadline = &Deadline::of_run(options, start);
    let timed_out = |count: u128| Answer {
        best: None,
        best_other: None,
        solutions: Vec::new(),
        count,
        stopped: Some(view::Stopped::Time),
    };
    let n = game.tiles.len();
    let target = game.target;
    // 1. The levels (tile counts) that reach the target; the first alone in `first` mode.
    let mut levels = Vec::new();
    for level in 1..=n {
        if level < n {
            if reach.extend_to(level, deadline, pool).is_err() {
                return timed_out(0);
            }
        } else if reach.extend_to(n - 1, deadline, pool).is_err() {
            return timed_out(0);
        }
        if reaches(reach, level, target) {
            levels.push(level);
            if mode == SolveMode::First {
                break;
            }
        }
    }
    // 2. Otherwise the closest values, from every subset.
    let (best, best_other) = if levels.is_empty() {
        let Ok((below, above)) = closest(reach, target, deadline) else { return timed_out(0) };
        let best = match (below, above) {
            (Some(b), Some(a)) if target - b <= a - target => b,
            (Some(b), None) => b,
            (_, Some(a)) => a,
            (None, None) => return timed_out(0),
        };
        let other = match (below, above) {
            (Some(b), Some(a)) if target - b == a - target => Some(a),
            _ => None,
        };
        for level in 1..=n {
            if reaches(reach, level, best) {
                levels.push(level);
                if mode == SolveMode::First {
                    break;
                }
            }
        }
        (best, other)
    } else {
        (target, None)
    };
    // 3. The distinct solutions of `best`, level by level (so fewest steps first).
    let limit = options.limit.unwrap_or(u128::MAX);
    let mut solutions: Vec<Nf> = Vec::new();
    let mut stopped = None;
    let mut single = Enumerator::new(reach, deadline);
    for &level in &levels {
        let masks: Vec<u32> = if level == n {
            vec![reach.full()]
        } else {
            reach.masks_of_level(level).into_iter().filter(|&m| reach.values(m).binary_search(&best).is_ok()).collect()
        };
        let found: Result<Vec<Vec<Nf>>, TimedOut> = match pool {
            // Each worker has its own memo; each mask's list is the same either way.
            Some(pool) => pool.install(|| {
                let lists: Vec<(Result<Vec<Nf>, TimedOut>, u64, u64)> = masks
                    .par_iter()
                    .map(|&m| {
                        let mut e = Enumerator::new(reach, deadline);
                        let list = e.solutions(m, best).map(|l| l.to_vec());
                        (list, e.visited, e.built)
                    })
                    .collect();
                lists
                    .into_iter()
                    .map(|(list, visited, built)| {
                        enumerated.0 += visited;
                        enumerated.1 += built;
                        list
                    })
                    .collect()
            }),
            None => masks.iter().map(|&m| single.solutions(m, best).map(|l| l.to_vec())).collect(),
        };
        let Ok(found) = found else {
            stopped = Some(view::Stopped::Time);
            break;
        };
        let mut this_level: Vec<Nf> = found.into_iter().flatten().collect();
        this_level.sort_unstable();
        solutions.extend(merge_equal_values(this_level));
        if mode == SolveMode::First {
            solutions.truncate(1);
            break;
        }
        if solutions.len() as u128 > limit {
            break;
        }
    }
    enumerated.0 += single.visited;
    enumerated.1 += single.built;
    if solutions.len() as u128 > limit {
        solutions.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        stopped = Some(view::Stopped::Solutions);
    }
    let count = solutions.len() as u128;
    if mode == SolveMode::Count {
        solutions.clear();
    }
    Answer { best: Some(best), best_other, solutions, count, stopped }
}

/// Keeps one solution (the first in order) per class of solutions that differ only by
/// which of two equal values a step took: once made, an intermediate result equal to a
/// tile is that tile as far as the player can tell (`25 × 4 = 100, 100 ÷ 2 = 50,
/// 100 - 50 = 50` reads the same whichever 100 is halved). `sorted` is sorted and
/// without repeats; the classes are closed under such swaps (union-find).
fn merge_equal_values(sorted: Vec<Nf>) -> Vec<Nf> {
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..sorted.len()).collect();
    for (i, nf) in sorted.iter().enumerate() {
        for other in nf.swaps() {
            if let Ok(j) = sorted.binary_search(&other) {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                // The smaller index (the earlier solution) represents the class.
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    sorted.into_iter().enumerate().filter(|&(i, _)| find(&mut parent, i) == i).map(|(_, nf)| nf).collect()
}

/// Whether some subset of `level` tiles makes `v`.
fn reaches(reach: &Reach, level: usize, v: Value) -> bool {
    if level == reach.tiles.len() {
        reach.full_contains(v)
    } else {
        reach.masks_of_level(level).into_iter().any(|m| reach.values(m).binary_search(&v).is_ok())
    }
}

/// The largest reachable value below `target` and the smallest above (neither reachable
/// exactly), over every subset.
fn closest(reach: &mut Reach, target: Value, deadline: &Deadline) -> Result<(Option<Value>, Option<Value>), TimedOut> {
    let mut below: Option<Value> = None;
    let mut above: Option<Value> = None;
    let mut see = |v: Value| {
        if v < target && below.is_none_or(|b| v > b) {
            below = Some(v);
        } else if v > target && above.is_none_or(|a| v < a) {
            above = Some(v);
        }
    };
    for m in 1..reach.full() {
        if reach.canon(m) == m {
            let set = reach.values(m);
            let i = set.partition_point(|&v| v < target);
            if i > 0 {
                see(set[i - 1]);
            }
            if let Some(&v) = set.get(i) {
                see(v);
            }
        }
    }
    reach.scan_full(deadline, see)?;
    Ok((below, above))
}

#[cfg(test)]
mod tests {
    use super::expr::{Nf, Tree};
    use super::reach::{Op, Reach};
    use super::*;

    fn run(model: &str, mode: SolveMode, threads: usize) -> Outcome {
        let file = cpsolve_dsl::parse(model).expect("parses");
        let options = RunOptions { mode: Some(mode), threads, ..RunOptions::default() };
        solve(&file, &options).expect("a compte model")
    }

    #[test]
    fn chains_are_flattened_and_sorted() {
        let (a, b, c) = (Nf::Tile(10), Nf::Tile(4), Nf::Tile(3));
        // 10 - (4 - 3) and (10 + 3) - 4
        let left = a.apply(Op::Sub, &b.apply(Op::Sub, &c, 1), 9);
        let right = a.apply(Op::Add, &c, 13).apply(Op::Sub, &b, 9);
        assert_eq!(left, right);
        // 10 ÷ (4 ÷ 2) = 10 × 2 ÷ 4 is not exact, but 12 ÷ (4 ÷ 2) = 12 × 2 ÷ 4 is.
        let (d, e, f) = (Nf::Tile(12), Nf::Tile(4), Nf::Tile(2));
        let x = d.apply(Op::Div, &e.apply(Op::Div, &f, 2), 6);
        let y = d.apply(Op::Mul, &f, 24).apply(Op::Div, &e, 6);
        assert_eq!(x, y);
        assert_eq!(x.tiles(), 3);
        assert_eq!(x.render(), ["12 ÷ 4 = 3", "3 × 2 = 6"]);
        // The picture's tree is the printed steps: (12 ÷ 4) × 2.
        let twelve_by_four =
            Tree::Step { op: Op::Div, value: 3, left: Box::new(Tree::Tile(12)), right: Box::new(Tree::Tile(4)) };
        let tree = Tree::Step { op: Op::Mul, value: 6, left: Box::new(twelve_by_four), right: Box::new(Tree::Tile(2)) };
        assert_eq!(x.tree(), tree);
    }

    #[test]
    fn the_subset_table_knows_small_games() {
        let mut reach = Reach::new(&[3, 2, 1]);
        reach.extend_to(2, &crate::Deadline::never(), None).expect("no deadline");
        assert!(reach.full_contains(9)); // (2 + 1) × 3
        assert!(!reach.full_contains(10));
        assert_eq!(reach.values(0b011), &[1, 3]); // 1 and 2: 2 - 1, 2 + 1 (× 1, ÷ 1 skipped)
    }

    #[test]
    fn the_classic_is_solved_the_same_on_any_thread_count() {
        let one = run("compte 100 2 1 10 4 3 -> 819", SolveMode::All, 1);
        let two = run("compte 100 2 1 10 4 3 -> 819", SolveMode::All, 2);
        assert_eq!(one.status, Status::Solved);
        assert_eq!((one.text.clone(), one.json.clone()), (two.text, two.json));
        assert!(one.text.contains("= 819\n"));
        let first = run("compte 100 2 1 10 4 3 -> 819", SolveMode::First, 1);
        assert_eq!(first.json["solutions"][0].as_array().map(Vec::len), Some(4));
    }

    #[test]
    fn bad_values_are_diagnosed() {
        let file = cpsolve_dsl::parse("compte 0 3 -> 5").expect("parses");
        assert!(solve(&file, &RunOptions::default()).is_err());
        assert!(is_compte(&file));
    }
}
