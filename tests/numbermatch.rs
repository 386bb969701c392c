//! `cpsolve` on Number Match grids, end to end: the JSON moves it prints are replayed here
//! with this file's own reading of the rules (not the solver's), the exit statuses follow
//! docs/cli.md ("Exit status"), and `play numbermatch` gives the same starts whatever the thread count.

mod common;

use serde_json::Value;

/// A grid: cells in reading order (0 cleared), `cols` to a row.
struct Grid {
    cols: usize,
    cells: Vec<u8>,
    app: bool,
}

impl Grid {
    fn parse(rows: &str, cols: usize, app: bool) -> Grid {
        let cells = rows
            .split_whitespace()
            .flat_map(|w| w.chars())
            .map(|c| if c == '.' { 0 } else { c as u8 - b'0' })
            .collect();
        Grid { cols, cells, app }
    }

    fn index(&self, pos: &Value) -> usize {
        let r = pos[0].as_u64().expect("row") as usize;
        let c = pos[1].as_u64().expect("column") as usize;
        assert!(c < self.cols, "column {c} off the grid");
        r * self.cols + c
    }

    /// Neighbours: only cleared cells between them in reading order, or on the column /
    /// diagonal (app rules) between them, without leaving the grid.
    fn neighbours(&self, i: usize, j: usize) -> bool {
        let (i, j) = (i.min(j), i.max(j));
        if self.cells[i + 1..j].iter().all(|&d| d == 0) {
            return true;
        }
        let (r1, c1) = ((i / self.cols) as isize, (i % self.cols) as isize);
        let (r2, c2) = ((j / self.cols) as isize, (j % self.cols) as isize);
        let (dr, dc) = (r2 - r1, c2 - c1);
        if dr <= 0 || !(dc == 0 || (self.app && dc.abs() == dr)) {
            return false;
        }
        (1..dr).all(|t| self.cells[((r1 + t) * self.cols as isize + c1 + t * dc.signum()) as usize] == 0)
    }

    fn play(&mut self, m: &Value) {
        if m.get("add").is_some() {
            let digits: Vec<u8> = self.cells.iter().copied().filter(|&d| d != 0).collect();
            self.cells.extend(digits);
            return;
        }
        let pair = m["match"].as_array().expect("a match");
        let (i, j) = (self.index(&pair[0]), self.index(&pair[1]));
        let (a, b) = (self.cells[i], self.cells[j]);
        assert!(i != j && a != 0 && b != 0 && (a == b || a + b == 10), "{m}: {a} and {b} do not match");
        assert!(self.neighbours(i, j), "{m}: not neighbours");
        self.cells[i] = 0;
        self.cells[j] = 0;
        if self.app {
            let rows: Vec<&[u8]> = self.cells.chunks(self.cols).filter(|r| r.iter().any(|&d| d != 0)).collect();
            self.cells = rows.concat();
        }
    }
}

/// Runs `cpsolve --format json` on a corpus file; returns its exit status and object.
fn solve_json(path: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    args.push(path);
    let run = common::cpsolve(&args, None);
    let object = serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    (run.code, object)
}

/// Replays the printed line; returns (adds, matches).
fn replay(mut grid: Grid, object: &Value) -> (usize, usize) {
    assert_eq!(object["kind"], "numbermatch");
    assert_eq!(object["won"], true);
    let moves = object["moves"].as_array().expect("moves");
    for m in moves {
        grid.play(m);
    }
    assert!(grid.cells.iter().all(|&d| d == 0), "not cleared: {:?}", grid.cells);
    let adds = moves.iter().filter(|m| m.get("add").is_some()).count();
    assert_eq!(object["adds_used"], adds);
    (adds, moves.len() - adds)
}

#[test]
fn the_spec_start_is_won_and_every_printed_move_is_legal() {
    let (code, object) = solve_json("corpus/numbermatch/start-35.puz", &[]);
    assert_eq!(code, 0);
    assert_eq!(object["status"], "solved");
    let grid = Grid::parse("518145871 636527126 958716539 27158326", 9, true);
    let (adds, matches) = replay(grid, &object);
    assert_eq!((adds, matches), (1, 33));
}

#[test]
fn the_paper_game_takes_34_matches() {
    let (code, object) = solve_json("corpus/numbermatch/classic-1-19.puz", &[]);
    assert_eq!(code, 0);
    let grid = Grid::parse("123456789 111213141 516171819", 9, false);
    assert_eq!(replay(grid, &object).1, 34);
}

#[test]
fn a_proven_loss_exits_1_and_a_timeout_3() {
    let (code, object) = solve_json("corpus/numbermatch/no-win-json.puz", &[]);
    assert_eq!((code, object["status"].as_str()), (1, Some("unsatisfiable")));
    let (code, object) = solve_json("corpus/numbermatch/start-35.puz", &["--timeout", "0"]);
    assert_eq!((code, object["status"].as_str()), (3, Some("limit")));
}

#[test]
fn bad_grids_exit_2_with_the_position() {
    let run = common::cpsolve(&["corpus/errors/numbermatch-zero.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("numbermatch-zero.puz:3:5"), "{}", run.stderr);
}

#[test]
fn play_gives_the_same_starts_on_any_thread_count() {
    let run = |threads: &str| {
        let r = common::cpsolve(
            &[
                "play",
                "numbermatch",
                "--games",
                "6",
                "--digits",
                "18",
                "--seed",
                "9",
                "--threads",
                threads,
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("json");
        for timing in ["time_ms", "solve_ms", "slowest"] {
            assert!(v.get(timing).is_none(), "{timing} only with --stats: {v}");
        }
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["games"], 6);
    let by_adds: u64 = one["won_with_adds"].as_array().expect("a list").iter().map(|n| n.as_u64().unwrap_or(0)).sum();
    assert_eq!(by_adds, one["won"].as_u64().expect("won"));
}
