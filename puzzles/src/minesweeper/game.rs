//! The game simulator: a seeded board, the first-click rule, reveals with the flood fill
//! of zeros, and what the player sees (a [`Board`] position).

use cpsolve_models::report::counted;
use rand_core::Rng;
use rand_pcg::Pcg64Mcg;

use super::grid::{neighbours, Board, Cell};

/// Board size and mines of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
}

impl Level {
    pub const BEGINNER: Level = Level { width: 9, height: 9, mines: 10 };
    pub const INTERMEDIATE: Level = Level { width: 16, height: 16, mines: 40 };
    pub const EXPERT: Level = Level { width: 30, height: 16, mines: 99 };

    /// `beginner`, `intermediate`, `expert`, or `WxHxM`.
    pub fn parse(text: &str) -> Result<Level, String> {
        match text.to_ascii_lowercase().as_str() {
            "beginner" => return Ok(Level::BEGINNER),
            "intermediate" => return Ok(Level::INTERMEDIATE),
            "expert" => return Ok(Level::EXPERT),
            _ => {}
        }
        let parts: Vec<Option<usize>> = text.split(['x', 'X']).map(|p| p.trim().parse().ok()).collect();
        let [Some(width), Some(height), Some(mines)] = parts[..] else {
            return Err(format!("`{text}`: expected beginner, intermediate, expert or WxHxM (e.g. 30x16x99)"));
        };
        if width == 0 || height == 0 || width > 1000 || height > 1000 {
            return Err(format!("`{text}`: width and height are from 1 to 1000"));
        }
        // The first click needs room: its cell (and neighbours with `opening`) are mine-free.
        if mines.saturating_add(9) > width * height {
            let room = (width * height).saturating_sub(9);
            return Err(match room {
                0 => format!(
                    "`{text}`: a {width}x{height} board has no room for a mine: the first click opens up to 9 cells"
                ),
                _ => format!("`{text}`: at most {} on a {width}x{height} board", counted(room as u64, "mine", "mines")),
            });
        }
        Ok(Level { width, height, mines })
    }

    /// The name used in reports: the standard level's name, or `WxHxM`.
    pub fn name(&self) -> String {
        match *self {
            Level::BEGINNER => "beginner".into(),
            Level::INTERMEDIATE => "intermediate".into(),
            Level::EXPERT => "expert".into(),
            Level { width, height, mines } => format!("{width}x{height}x{mines}"),
        }
    }
}

/// Which cells the first click guarantees mine-free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstClick {
    /// The first cell is never a mine; the bot opens the corner (0, 0).
    Safe,
    /// The first cell and its neighbours are mine-free; the bot opens (3, 3) (clamped to the board).
    Opening,
}

impl FirstClick {
    pub fn name(self) -> &'static str {
        match self {
            FirstClick::Safe => "safe",
            FirstClick::Opening => "opening",
        }
    }

    /// The cell the bot opens first, as the published bots did: a corner for `safe`
    /// (most likely to be a zero), (3, 3) for `opening`.
    pub fn cell(self, level: Level) -> usize {
        match self {
            FirstClick::Safe => 0,
            FirstClick::Opening => 3.min(level.height - 1) * level.width + 3.min(level.width - 1),
        }
    }
}

/// SplitMix64: spreads (seed, game index) into independent generator states.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of game `index` of a run seeded `seed`: a game depends on nothing else,
/// so results are the same whatever the threads.
pub fn game_rng(seed: u64, index: u64) -> Pcg64Mcg {
    let hi = mix(seed);
    let lo = mix(hi ^ mix(index.wrapping_add(0x5851_F42D_4C95_7F2D)));
    Pcg64Mcg::new((u128::from(hi) << 64 | u128::from(lo)) | 1)
}

/// A uniform integer below `n` (rejection sampling: no modulo bias).
fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// One game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    pub level: Level,
    mine: Vec<bool>,
    /// Per cell, its number of neighbouring mines.
    count: Vec<u8>,
    /// What the player sees (flags are the player's own marks).
    pub view: Board,
    hidden_safe: usize,
}

/// What a reveal did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reveal {
    Safe,
    Boom,
}

impl Game {
    /// A board with mines placed uniformly among the cells the first-click rule allows.
    pub fn new(level: Level, first: FirstClick, rng: &mut Pcg64Mcg) -> Game {
        let n = level.width * level.height;
        let start = first.cell(level);
        let mut allowed: Vec<usize> = match first {
            FirstClick::Safe => (0..n).filter(|&i| i != start).collect(),
            FirstClick::Opening => {
                let near: Vec<usize> = neighbours(level.width, level.height, start).collect();
                (0..n).filter(|&i| i != start && !near.contains(&i)).collect()
            }
        };
        let mut mine = vec![false; n];
        // Partial Fisher–Yates: the first `mines` cells of a random permutation.
        for k in 0..level.mines.min(allowed.len()) {
            let j = k + below(rng, allowed.len() - k);
            allowed.swap(k, j);
            mine[allowed[k]] = true;
        }
        let count =
            (0..n).map(|i| neighbours(level.width, level.height, i).filter(|&j| mine[j]).count() as u8).collect();
        let view =
            Board { width: level.width, height: level.height, cells: vec![Cell::Covered; n], mines: Some(level.mines) };
        let hidden_safe = n - mine.iter().filter(|&&m| m).count();
        Game { level, mine, count, view, hidden_safe }
    }

    /// Opens a cell; a zero opens its neighbours in turn.
    pub fn reveal(&mut self, i: usize) -> Reveal {
        if self.mine[i] {
            return Reveal::Boom;
        }
        let mut stack = vec![i];
        while let Some(c) = stack.pop() {
            if self.view.cells[c] != Cell::Covered {
                continue;
            }
            self.view.cells[c] = Cell::Open(self.count[c]);
            self.hidden_safe -= 1;
            if self.count[c] == 0 {
                stack.extend(neighbours(self.level.width, self.level.height, c));
            }
        }
        Reveal::Safe
    }

    /// Marks a cell the player knows to be a mine.
    pub fn flag(&mut self, i: usize) {
        if self.view.cells[i] == Cell::Covered {
            self.view.cells[i] = Cell::Flag;
        }
    }

    /// Every safe cell is open.
    pub fn won(&self) -> bool {
        self.hidden_safe == 0
    }
}
