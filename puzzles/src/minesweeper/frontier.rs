//! The model of a position: one linear constraint per revealed number (its unflagged
//! covered neighbours hold exactly `number − flags` mines), the covered cells that touch
//! a number (the frontier) grouped into boxes, and the boxes split into independent
//! components.
//!
//! A box is a set of covered cells that touch exactly the same numbers: they are
//! interchangeable, so a box of s cells holding k mines stands for C(s, k) layouts and
//! the counting never branches on its cells one by one.

use std::collections::HashMap;

use super::grid::{Board, Cell};

/// A revealed number, seen from the boxes of its component.
#[derive(Debug, Clone)]
pub struct Constraint {
    /// Mines among its covered neighbours (the number minus its flags).
    pub need: usize,
    /// Indices of its boxes in the component.
    pub boxes: Vec<usize>,
}

/// Covered cells that touch exactly the same numbers.
#[derive(Debug, Clone)]
pub struct MineBox {
    /// Cell indices on the board, ascending.
    pub cells: Vec<usize>,
    /// Indices of its constraints in the component.
    pub constraints: Vec<usize>,
}

/// Boxes linked by shared numbers; components are counted independently.
#[derive(Debug, Clone, Default)]
pub struct Component {
    pub boxes: Vec<MineBox>,
    pub constraints: Vec<Constraint>,
}

impl Component {
    pub fn cells(&self) -> usize {
        self.boxes.iter().map(|b| b.cells.len()).sum()
    }
}

/// The position as a counting problem.
#[derive(Debug, Clone)]
pub struct Frontier {
    pub components: Vec<Component>,
    /// Covered cells that touch no number: only the global count ties them.
    pub outside: Vec<usize>,
    /// Mines not flagged (`mines − flags`), when the total is known.
    pub free_mines: Option<usize>,
    /// A number that no layout can satisfy on its own (more mines than room, or two
    /// numbers with the same neighbours and different demands): no layout at all.
    pub impossible: bool,
}

/// What is known of a covered cell before counting.
pub const UNKNOWN: u8 = 0;
pub const SAFE: u8 = 1;
pub const MINE: u8 = 2;

/// Each number's unknown covered neighbours and the mines among them (flags and cells
/// `known` as mines count as found; cells known safe drop out).
fn local_constraints(board: &Board, known: &[u8]) -> (Vec<(usize, Vec<usize>)>, bool) {
    let mut impossible = false;
    let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, cell) in board.cells.iter().enumerate() {
        let Cell::Open(n) = *cell else { continue };
        let mut covered = Vec::new();
        let mut flags = 0usize;
        for j in board.neighbours(i) {
            match board.cells[j] {
                Cell::Covered if known[j] == MINE => flags += 1,
                Cell::Covered if known[j] == SAFE => {}
                Cell::Covered => covered.push(j),
                Cell::Flag => flags += 1,
                Cell::Open(_) => {}
            }
        }
        let Some(need) = usize::from(n).checked_sub(flags) else {
            impossible = true;
            continue;
        };
        if need > covered.len() {
            impossible = true;
        }
        if covered.is_empty() {
            continue;
        }
        covered.sort_unstable();
        // Two numbers over the same cells are one constraint (or a contradiction).
        match seen.get(&covered) {
            Some(&need0) => impossible |= need0 != need,
            None => {
                seen.insert(covered.clone(), need);
                out.push((need, covered));
            }
        }
    }
    (out, impossible)
}

/// Builds boxes and components from a board, with some covered cells already `known`
/// (safe or mines: they are left out of the counting problem).
pub fn build(board: &Board, known: &[u8]) -> Frontier {
    let (constraints, impossible) = local_constraints(board, known);
    let known_mines = known.iter().filter(|&&k| k == MINE).count();
    let free_mines = board.mines.map(|m| m.saturating_sub(board.flags() + known_mines));
    let impossible = impossible
        || board.mines.is_some_and(|m| {
            let known_safe = known.iter().filter(|&&k| k == SAFE).count();
            m < board.flags() + known_mines || m > board.flags() + board.covered() - known_safe
        });
    // Each covered cell's list of constraints (ascending, as built).
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); board.cells.len()];
    for (c, (_, cells)) in constraints.iter().enumerate() {
        for &cell in cells {
            touching[cell].push(c);
        }
    }
    let mut outside = Vec::new();
    let mut box_of_signature: HashMap<&[usize], usize> = HashMap::new();
    let mut boxes: Vec<(Vec<usize>, &[usize])> = Vec::new();
    for (i, cell) in board.cells.iter().enumerate() {
        if *cell != Cell::Covered || known[i] != UNKNOWN {
            continue;
        }
        if touching[i].is_empty() {
            outside.push(i);
            continue;
        }
        let b = *box_of_signature.entry(&touching[i]).or_insert_with(|| {
            boxes.push((Vec::new(), &touching[i]));
            boxes.len() - 1
        });
        boxes[b].0.push(i);
    }
    // Components: union-find over constraints through the boxes they share.
    let mut parent: Vec<usize> = (0..constraints.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (_, cons) in &boxes {
        for w in cons.windows(2) {
            let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut component_of_root: HashMap<usize, usize> = HashMap::new();
    let mut components: Vec<Component> = Vec::new();
    let mut local_constraint: HashMap<usize, usize> = HashMap::new();
    for (cells, cons) in boxes {
        let root = find(&mut parent, cons[0]);
        let k = *component_of_root.entry(root).or_insert_with(|| {
            components.push(Component::default());
            components.len() - 1
        });
        let comp = &mut components[k];
        let b = comp.boxes.len();
        let mut local = Vec::with_capacity(cons.len());
        for &c in cons {
            let lc = *local_constraint.entry(c).or_insert_with(|| {
                comp.constraints.push(Constraint { need: constraints[c].0, boxes: Vec::new() });
                comp.constraints.len() - 1
            });
            comp.constraints[lc].boxes.push(b);
            local.push(lc);
        }
        comp.boxes.push(MineBox { cells, constraints: local });
    }
    Frontier { components, outside, free_mines, impossible }
}

/// What local reasoning alone proves: a number whose mines are all found makes its other
/// neighbours safe; a number needing as many mines as it has unknown neighbours makes
/// them all mines. Repeated to a fixpoint. Cheap; the bot plays these cells without
/// counting, and a timed-out analysis reports them.
/// Returns per cell [`UNKNOWN`], [`SAFE`] or [`MINE`] (covered cells only); `None` when a
/// number is contradicted.
pub fn local_deductions(board: &Board) -> Option<Vec<u8>> {
    let mut known = vec![UNKNOWN; board.cells.len()];
    let (constraints, impossible) = local_constraints(board, &known);
    if impossible {
        return None;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (need, cells) in &constraints {
            let mines = cells.iter().filter(|&&c| known[c] == 2).count();
            let unknown = cells.iter().filter(|&&c| known[c] == 0).count();
            if mines > *need || mines + unknown < *need {
                return None;
            }
            if unknown == 0 {
                continue;
            }
            let set = if mines == *need {
                1
            } else if mines + unknown == *need {
                2
            } else {
                continue;
            };
            for &c in cells {
                if known[c] == 0 {
                    known[c] = set;
                }
            }
            changed = true;
        }
    }
    Some(known)
}
