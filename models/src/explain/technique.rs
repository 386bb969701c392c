//! Steps named as players name them: "hidden single", "X-wing", "XY-wing".
//!
//! A Sudoku player reads a grid of *houses* (rows, columns, boxes), each a set of cells
//! holding different values, and pencils in each cell's *candidates*. The classic techniques
//! are patterns over houses and candidates that rule a value out of a cell or fix one. A
//! step of an explanation cites constraints and facts; when every constraint it cites is an
//! all-different over shown variables (a house: a row, column or box of any grid, or any
//! other all-different of the model), its shape can be read as one of these patterns.
//!
//! The pattern is looked for in the step alone, never in the board around it: the cells'
//! candidates are the step's facts (a cell without a fact has its root domain: a given, or
//! every value), less the values of cells those facts fix in a cited house they share (what
//! a player's pencil marks show). A step is named by the simplest pattern that, on those
//! candidates and within the cited houses, yields at least its conclusion, in the order of
//! Sukaku Explainer's scale: full house, naked and hidden singles, plain elimination,
//! locked candidates (pointing, box-line reduction), naked pair, X-wing, hidden pair, naked
//! triple, swordfish, hidden triple, XY-wing, naked and hidden quads, jellyfish. A step
//! that fits none is given a generic name by its caller ("propagation of all different",
//! "case split"): a name says how a step can be seen, its check (the engine's) says it holds.

use std::collections::{BTreeSet, HashMap};

use cpsolve_engine::{Val, VarId};

/// A set of candidate values.
pub type Candidates = BTreeSet<Val>;

/// What a house is on the grid: boxes and lines make the difference between pointing and
/// box-line reduction, and fish are made of lines only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HouseKind {
    /// A row of a grid.
    Row,
    /// A column of a grid.
    Column,
    /// A box (a rectangle of cells tiling the grid).
    Box,
    /// Any other all-different (a diagonal, a cage, the letters of a cryptarithm).
    Other,
}

impl HouseKind {
    /// The kind a constraint's name implies ("row 3", "column 2 of y", "box 5").
    pub fn from_name(name: &str) -> HouseKind {
        let word = name.split_whitespace().next().unwrap_or("");
        let numbered = name.split_whitespace().nth(1).is_some_and(|n| n.parse::<i64>().is_ok());
        match (word, numbered) {
            ("row", true) => HouseKind::Row,
            ("column", true) => HouseKind::Column,
            ("box", true) => HouseKind::Box,
            _ => HouseKind::Other,
        }
    }

    fn is_line(self) -> bool {
        matches!(self, HouseKind::Row | HouseKind::Column)
    }
}

/// An all-different constraint over shown variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct House {
    /// Its variables.
    pub vars: Vec<VarId>,
    /// What it is on the grid.
    pub kind: HouseKind,
}

/// A pattern a step has the shape of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Technique {
    /// The only cell left open in its one house.
    FullHouse,
    /// The cell's houses leave it one candidate.
    NakedSingle,
    /// The value has one place left in a house.
    HiddenSingle,
    /// The cell's houses rule values out of it, leaving more than one.
    Elimination,
    /// A box's candidates for a value lie in one line: the value leaves the rest of the line.
    Pointing,
    /// A line's candidates for a value lie in one box: the value leaves the rest of the box.
    BoxLineReduction,
    /// One house's candidates for a value lie in another (neither a box and a line).
    LockedCandidates,
    /// `n` cells of a house with `n` candidates between them: those leave the house's other
    /// cells.
    NakedSubset(usize),
    /// `n` values with only `n` places in a house: those cells hold nothing else.
    HiddenSubset(usize),
    /// `n` disjoint lines whose candidates for a value lie in `n` crossing lines: the value
    /// leaves the rest of those (2: X-wing, 3: swordfish, 4: jellyfish).
    Fish(usize),
    /// A pivot `{a, b}` sharing houses with pincers `{a, c}` and `{b, c}`: a cell seeing both
    /// pincers is not `c`.
    XYWing,
}

impl Technique {
    /// The name players use.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::Elimination => "elimination",
            Technique::Pointing => "pointing",
            Technique::BoxLineReduction => "box-line reduction",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedSubset(2) => "naked pair",
            Technique::NakedSubset(3) => "naked triple",
            Technique::NakedSubset(_) => "naked quad",
            Technique::HiddenSubset(2) => "hidden pair",
            Technique::HiddenSubset(3) => "hidden triple",
            Technique::HiddenSubset(_) => "hidden quad",
            Technique::Fish(2) => "X-wing",
            Technique::Fish(3) => "swordfish",
            Technique::Fish(_) => "jellyfish",
            Technique::XYWing => "XY-wing",
        }
    }
}

/// Beyond this many cited houses a step is not searched for fish (the choices of base and
/// cover lines grow as the square of the binomial).
const MAX_HOUSES_FOR_FISH: usize = 12;

/// The step's shape: its cited houses and the candidates its facts give their cells.
#[derive(Debug)]
pub struct Shape<'a> {
    houses: &'a [&'a House],
    candidates: HashMap<VarId, Candidates>,
}

impl<'a> Shape<'a> {
    /// The shape of a step citing `houses`, whose facts (with the root domains of the cells
    /// without one) are `known`; `None` when a cell's domain is unknown.
    pub fn new(houses: &'a [&'a House], known: &dyn Fn(VarId) -> Option<Candidates>) -> Option<Shape<'a>> {
        let mut given: HashMap<VarId, Candidates> = HashMap::new();
        for house in houses {
            for &x in &house.vars {
                if let std::collections::hash_map::Entry::Vacant(entry) = given.entry(x) {
                    entry.insert(known(x)?);
                }
            }
        }
        // The pencil marks: a fixed cell's value leaves every other cell of its cited houses.
        let mut candidates = given.clone();
        for house in houses {
            for &x in &house.vars {
                if let Some(&v) = single(&given[&x]) {
                    for &y in house.vars.iter().filter(|&&y| y != x) {
                        if let Some(c) = candidates.get_mut(&y) {
                            if !is_single(&given[&y]) {
                                c.remove(&v);
                            }
                        }
                    }
                }
            }
        }
        Some(Shape { houses, candidates })
    }

    /// A cell's candidates.
    pub fn candidates(&self, x: VarId) -> &Candidates {
        &self.candidates[&x]
    }

    /// The simplest pattern that narrows `var` to within `after`, if any.
    pub fn classify(&self, var: VarId, after: &Candidates) -> Option<Technique> {
        let before = self.candidates.get(&var)?;
        let holding: Vec<&House> = self.houses.iter().copied().filter(|h| h.vars.contains(&var)).collect();
        if holding.is_empty() {
            return None;
        }
        if before.is_subset(after) {
            if after.len() != 1 {
                return Some(Technique::Elimination);
            }
            let others_fixed = |h: &House| h.vars.iter().all(|&y| y == var || is_single(&self.candidates[&y]));
            if self.houses.len() == 1 && others_fixed(holding[0]) {
                return Some(Technique::FullHouse);
            }
            return Some(Technique::NakedSingle);
        }
        if let Some(&v) = single(after) {
            if before.contains(&v) && holding.iter().any(|h| self.places(h, v).len() == 1) {
                return Some(Technique::HiddenSingle);
            }
        }
        let removed: Vec<Val> = before.difference(after).copied().collect();
        let one = |test: &dyn Fn(Val) -> Option<Technique>| -> Option<Technique> {
            match removed.as_slice() {
                [v] => test(*v),
                _ => None,
            }
        };
        let leaves = |kept: &Candidates| before.intersection(kept).all(|v| after.contains(v));
        let naked = |n: usize| self.naked_subset(var, &holding, n, &|union| leaves(&complement(before, union)));
        let hidden = |n: usize| self.hidden_subset(var, &holding, n, &leaves);
        one(&|v| self.locked(var, v))
            .or_else(|| naked(2))
            .or_else(|| one(&|v| self.fish(var, v, 2)))
            .or_else(|| hidden(2))
            .or_else(|| naked(3))
            .or_else(|| one(&|v| self.fish(var, v, 3)))
            .or_else(|| hidden(3))
            .or_else(|| one(&|v| self.xy_wing(var, v)))
            .or_else(|| naked(4))
            .or_else(|| hidden(4))
            .or_else(|| one(&|v| self.fish(var, v, 4)))
    }

    /// The cells of `house` that may still hold `v`.
    fn places(&self, house: &House, v: Val) -> Vec<VarId> {
        house.vars.iter().copied().filter(|y| self.candidates[y].contains(&v)).collect()
    }

    /// Whether two cells share a cited house.
    fn sees(&self, a: VarId, b: VarId) -> bool {
        a != b && self.houses.iter().any(|h| h.vars.contains(&a) && h.vars.contains(&b))
    }

    /// Locked candidates: a house whose places for `v` all lie in another house that holds
    /// `var`, which the first does not.
    fn locked(&self, var: VarId, v: Val) -> Option<Technique> {
        for from in self.houses.iter().filter(|h| !h.vars.contains(&var)) {
            let places = self.places(from, v);
            // One place is a hidden single, not a pattern over two houses.
            if places.len() < 2 {
                continue;
            }
            for to in self.houses.iter().filter(|h| h.vars.contains(&var)) {
                if places.iter().all(|y| to.vars.contains(y)) {
                    return Some(match (from.kind, to.kind) {
                        (HouseKind::Box, k) if k.is_line() => Technique::Pointing,
                        (k, HouseKind::Box) if k.is_line() => Technique::BoxLineReduction,
                        _ => Technique::LockedCandidates,
                    });
                }
            }
        }
        None
    }

    /// A naked subset of `n` open cells of a house holding `var` (not `var` itself), whose
    /// candidates' union (of `n` values) `fits` the conclusion once removed from `var`.
    fn naked_subset(
        &self,
        var: VarId,
        holding: &[&House],
        n: usize,
        fits: &dyn Fn(&Candidates) -> bool,
    ) -> Option<Technique> {
        for house in holding {
            let cells: Vec<VarId> = house
                .vars
                .iter()
                .copied()
                .filter(|&y| y != var && (2..=n).contains(&self.candidates[&y].len()))
                .collect();
            for subset in subsets(&cells, n) {
                let union: Candidates = subset.iter().flat_map(|y| self.candidates[y].iter().copied()).collect();
                if union.len() == n && fits(&union) {
                    return Some(Technique::NakedSubset(n));
                }
            }
        }
        None
    }

    /// A hidden subset: `n` values of `var` that have exactly `n` places (`var` one of them)
    /// in a house holding it, and keeping only them `fits` the conclusion.
    fn hidden_subset(
        &self,
        var: VarId,
        holding: &[&House],
        n: usize,
        fits: &dyn Fn(&Candidates) -> bool,
    ) -> Option<Technique> {
        let values: Vec<Val> = self.candidates[&var].iter().copied().collect();
        for house in holding {
            for subset in subsets(&values, n) {
                let mut places: Vec<VarId> = Vec::new();
                let mut open = true;
                for &v in &subset {
                    let at = self.places(house, v);
                    // A value already placed in the house is no part of a hidden subset.
                    open &= at.len() >= 2 && at.iter().all(|y| !is_single(&self.candidates[y]));
                    places.extend(at);
                }
                places.sort_unstable();
                places.dedup();
                let kept: Candidates = subset.iter().copied().collect();
                if open && places.len() == n && fits(&kept) {
                    return Some(Technique::HiddenSubset(n));
                }
            }
        }
        None
    }

    /// A fish of `n` lines for `v`: `n` disjoint base lines (none holding `var`) whose
    /// places for `v` all lie in `n` disjoint cover lines, one of which holds `var`.
    fn fish(&self, var: VarId, v: Val, n: usize) -> Option<Technique> {
        if self.houses.len() > MAX_HOUSES_FOR_FISH {
            return None;
        }
        let lines: Vec<&House> = self.houses.iter().copied().filter(|h| h.kind.is_line()).collect();
        let bases: Vec<&House> =
            lines.iter().copied().filter(|h| !h.vars.contains(&var) && self.places(h, v).len() >= 2).collect();
        for base in subsets(&bases, n) {
            if !disjoint(&base) {
                continue;
            }
            let places: Vec<VarId> = base.iter().flat_map(|h| self.places(h, v)).collect();
            for cover in subsets(&lines, n) {
                let crossing = cover.iter().all(|c| base.iter().all(|b| c.kind != b.kind));
                if crossing
                    && disjoint(&cover)
                    && cover.iter().any(|c| c.vars.contains(&var))
                    && places.iter().all(|y| cover.iter().any(|c| c.vars.contains(y)))
                {
                    return Some(Technique::Fish(n));
                }
            }
        }
        None
    }

    /// An XY-wing eliminating `c` from `var`.
    fn xy_wing(&self, var: VarId, c: Val) -> Option<Technique> {
        let pairs: Vec<VarId> = self.candidates.iter().filter(|(_, k)| k.len() == 2).map(|(&y, _)| y).collect();
        let pincers: Vec<VarId> =
            pairs.iter().copied().filter(|&y| self.candidates[&y].contains(&c) && self.sees(y, var)).collect();
        for (i, &q1) in pincers.iter().enumerate() {
            for &q2 in &pincers[i + 1..] {
                let a = other(&self.candidates[&q1], c);
                let b = other(&self.candidates[&q2], c);
                if a == b {
                    continue;
                }
                let pivot: Candidates = [a, b].into_iter().collect();
                if pairs
                    .iter()
                    .any(|&p| p != var && self.candidates[&p] == pivot && self.sees(p, q1) && self.sees(p, q2))
                {
                    return Some(Technique::XYWing);
                }
            }
        }
        None
    }
}

fn single(c: &Candidates) -> Option<&Val> {
    if c.len() == 1 {
        c.iter().next()
    } else {
        None
    }
}

fn is_single(c: &Candidates) -> bool {
    c.len() == 1
}

fn complement(of: &Candidates, without: &Candidates) -> Candidates {
    of.difference(without).copied().collect()
}

/// The value of a two-value set that is not `c`.
fn other(pair: &Candidates, c: Val) -> Val {
    pair.iter().copied().find(|&v| v != c).unwrap_or(c)
}

fn disjoint(houses: &[&House]) -> bool {
    houses.iter().enumerate().all(|(i, a)| houses[i + 1..].iter().all(|b| a.vars.iter().all(|x| !b.vars.contains(x))))
}

/// Every `n`-element subset of `items`, in order.
fn subsets<T: Copy>(items: &[T], n: usize) -> Vec<Vec<T>> {
    fn go<T: Copy>(items: &[T], n: usize, start: usize, current: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if current.len() == n {
            out.push(current.clone());
            return;
        }
        for i in start..items.len() {
            if items.len() - i < n - current.len() {
                break;
            }
            current.push(items[i]);
            go(items, n, i + 1, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    if n <= items.len() {
        go(items, n, 0, &mut Vec::new(), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9×9 grid's cells and its 27 houses (rows, columns, boxes).
    fn grid() -> (Vec<Vec<VarId>>, Vec<House>) {
        let mut solver = cpsolve_engine::Solver::new();
        let cells: Vec<Vec<VarId>> =
            (0..9).map(|_| (0..9).map(|_| solver.new_var(1, 9).expect("a cell")).collect()).collect();
        let mut houses = Vec::new();
        for i in 0..9 {
            houses.push(House { vars: cells[i].clone(), kind: HouseKind::Row });
            houses.push(House { vars: (0..9).map(|r| cells[r][i]).collect(), kind: HouseKind::Column });
            let (r0, c0) = (i / 3 * 3, i % 3 * 3);
            let vars = (0..9).map(|k| cells[r0 + k / 3][c0 + k % 3]).collect();
            houses.push(House { vars, kind: HouseKind::Box });
        }
        (cells, houses)
    }

    fn set(values: &[Val]) -> Candidates {
        values.iter().copied().collect()
    }

    /// The technique of narrowing `var` to `after`, on `houses` of the grid, where the cells
    /// of `marks` have those candidates and every other cell 1..9 without `v`.
    fn named(houses: &[&House], marks: &[(VarId, Candidates)], v: Val, var: VarId, after: &[Val]) -> Option<Technique> {
        let known = |x: VarId| -> Option<Candidates> {
            Some(
                marks
                    .iter()
                    .find(|(y, _)| *y == x)
                    .map_or_else(|| (1..=9).filter(|&w| w != v).collect(), |m| m.1.clone()),
            )
        };
        Shape::new(houses, &known)?.classify(var, &set(after))
    }

    #[test]
    fn a_swordfish_on_three_rows_is_named_and_loses_its_name_without_a_cover_column() {
        let (cells, houses) = grid();
        let row = |r: usize| &houses[3 * r];
        let column = |c: usize| &houses[3 * c + 1];
        // Rows 1, 5, 9 hold 7 only in columns 1, 4, 7 (two of them each): 7 leaves the rest
        // of those columns, here x[3,4].
        let marks = vec![
            (cells[0][0], set(&[7, 1])),
            (cells[0][3], set(&[7, 2])),
            (cells[4][3], set(&[7, 3])),
            (cells[4][6], set(&[7, 4])),
            (cells[8][0], set(&[7, 5])),
            (cells[8][6], set(&[7, 6])),
            (cells[2][3], set(&[7, 8, 9])),
        ];
        let cited = [row(0), row(4), row(8), column(0), column(3), column(6)];
        assert_eq!(named(&cited, &marks, 7, cells[2][3], &[8, 9]), Some(Technique::Fish(3)));
        assert_eq!(Technique::Fish(3).name(), "swordfish");
        let without = [row(0), row(4), row(8), column(0), column(3)];
        assert_eq!(named(&without, &marks, 7, cells[2][3], &[8, 9]), None);
        // Two of its rows and two columns are no X-wing: row 5's 7s are outside columns 1, 4.
        let two = [row(0), row(4), column(0), column(3)];
        assert_eq!(named(&two, &marks, 7, cells[2][3], &[8, 9]), None);
    }

    #[test]
    fn an_xy_wing_needs_its_pivot_to_see_both_pincers() {
        let (cells, houses) = grid();
        let (row, column, boxed) =
            (|r: usize| &houses[3 * r], |c: usize| &houses[3 * c + 1], |b: usize| &houses[3 * b + 2]);
        // Pivot x[1,1] = {1, 2}, pincers x[1,5] = {1, 3} (row 1) and x[3,2] = {2, 3} (box 1);
        // x[3,5] sees both pincers (column 5 and row 3): not 3.
        let marks = vec![
            (cells[0][0], set(&[1, 2])),
            (cells[0][4], set(&[1, 3])),
            (cells[2][1], set(&[2, 3])),
            (cells[2][4], set(&[3, 4, 5])),
        ];
        let cited = [row(0), boxed(0), row(2), column(4)];
        assert_eq!(named(&cited, &marks, 9, cells[2][4], &[4, 5]), Some(Technique::XYWing));
        // Without box 1 the pivot does not see x[3,2].
        let cut = [row(0), row(2), column(4)];
        assert_eq!(named(&cut, &marks, 9, cells[2][4], &[4, 5]), None);
    }

    #[test]
    fn singles_are_told_apart() {
        let (cells, houses) = grid();
        let (row, boxed) = (|r: usize| &houses[3 * r], |b: usize| &houses[3 * b + 2]);
        // Row 1 fixed but for x[1,9]: a full house.
        let mut marks: Vec<(VarId, Candidates)> = (0..8).map(|c| (cells[0][c], set(&[c as Val + 1]))).collect();
        assert_eq!(named(&[row(0)], &marks, 0, cells[0][8], &[9]), Some(Technique::FullHouse));
        // With box 3 cited too, the same cell is a naked single.
        assert_eq!(named(&[row(0), boxed(2)], &marks, 0, cells[0][8], &[9]), Some(Technique::NakedSingle));
        // x[1,9] = 9 where 9 has one place in row 1, the others open: a hidden single.
        marks = (0..8).map(|c| (cells[0][c], set(&[1, 2, 3, 4, 5, 6, 7, 8]))).collect();
        assert_eq!(named(&[row(0)], &marks, 0, cells[0][8], &[9]), Some(Technique::HiddenSingle));
        // A conclusion no pattern gives has no name.
        assert_eq!(named(&[row(1)], &marks, 0, cells[1][8], &[9]), None);
    }
}
