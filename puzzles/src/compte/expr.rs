//! The normal form of a solution, and its rendering as steps.
//!
//! Two solutions are the same (docs/language.md, `compte`) when they differ only by the order of the
//! operands of `+` and `×`, by re-association inside a chain of `+`/`-` or of `×`/`÷`, or
//! by the order of independent steps. So a solution is kept as a tree whose inner nodes
//! are whole chains: a [`Nf::Sum`] holds the multisets of its added and subtracted terms
//! (`a - (b - c)` is `{a, c} - {b}`), a [`Nf::Prod`] those of its factors and divisors, and
//! no term of a sum is itself a sum (nor a factor a product). Children are sorted, and a
//! tile is only its value, so equal tiles are interchangeable. Steps by 1 (`× 1`, `÷ 1`)
//! are never built (see [`super::reach::combine`]), so they make no new solutions.
//! Equal normal forms are equal solutions; the derived order makes the output order.

use super::reach::{Op, Value};

/// A subtree of some tree of a normal form (see [`Nf::slots`]).
#[derive(Debug)]
struct Slot {
    path: Vec<usize>,
    /// The terms of the chain at `path` that make it; `None`: the node at `path` itself.
    terms: Option<u32>,
    /// The sub-chain sits on the subtracted (divided) side: `a - b - c` holds `b + c`.
    flipped: bool,
    tree: Nf,
}

impl Slot {
    /// Whether neither slot lies inside the other.
    fn disjoint(&self, other: &Slot) -> bool {
        let (a, b) = if self.path.len() <= other.path.len() { (self, other) } else { (other, self) };
        if !b.path.starts_with(&a.path) {
            return true;
        }
        match (a.terms, b.path.len() == a.path.len(), b.terms) {
            (Some(ma), true, Some(mb)) => ma & mb == 0,
            (Some(ma), false, _) => ma >> b.path[a.path.len()] & 1 == 0,
            _ => false,
        }
    }
}

/// The tree of a sub-chain (terms `up` added or multiplied, `down` subtracted or
/// divided), oriented to have a positive integer value above 1 for products, and
/// whether it had to be flipped; `None` when it has no such value.
fn chain(up: Vec<Nf>, down: Vec<Nf>, additive: bool) -> Option<(Nf, bool)> {
    let total = |v: &[Nf]| -> Option<u128> {
        if additive {
            v.iter().try_fold(0u128, |a, t| a.checked_add(u128::from(t.value())))
        } else {
            v.iter().try_fold(1u128, |a, t| a.checked_mul(u128::from(t.value())))
        }
    };
    let (u, d) = (total(&up)?, total(&down)?);
    let (value, flipped) = if additive {
        if u > d {
            (u - d, false)
        } else if d > u {
            (d - u, true)
        } else {
            return None;
        }
    } else if u > d && u % d == 0 {
        (u / d, false)
    } else if d > u && d % u == 0 {
        (d / u, true)
    } else {
        return None;
    };
    let value = Value::try_from(value).ok()?;
    let (mut a, mut b) = if flipped { (down, up) } else { (up, down) };
    if a.len() + b.len() < 2 {
        return None;
    }
    a.sort_unstable();
    b.sort_unstable();
    Some((if additive { Nf::Sum { value, pos: a, neg: b } } else { Nf::Prod { value, num: a, den: b } }, flipped))
}

/// A solution up to the equivalences above. The value comes first, so that sorting
/// groups solutions by value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Nf {
    Tile(Value),
    /// `pos[0] + pos[1] + … - neg[0] - …`: at least two terms, none a `Sum`.
    Sum {
        value: Value,
        pos: Vec<Nf>,
        neg: Vec<Nf>,
    },
    /// `num[0] × num[1] × … ÷ den[0] ÷ …`: at least two factors, none a `Prod`.
    Prod {
        value: Value,
        num: Vec<Nf>,
        den: Vec<Nf>,
    },
}

impl Nf {
    pub(crate) fn value(&self) -> Value {
        match self {
            Nf::Tile(v) | Nf::Sum { value: v, .. } | Nf::Prod { value: v, .. } => *v,
        }
    }

    /// Number of tiles used (one more than the steps).
    #[cfg(test)]
    pub(crate) fn tiles(&self) -> usize {
        match self {
            Nf::Tile(_) => 1,
            Nf::Sum { pos: a, neg: b, .. } | Nf::Prod { num: a, den: b, .. } => a.iter().chain(b).map(Nf::tiles).sum(),
        }
    }

    /// The tree of `self op other`, whose value the caller has checked to be `value`.
    pub(crate) fn apply(&self, op: Op, other: &Nf, value: Value) -> Nf {
        let additive = matches!(op, Op::Add | Op::Sub);
        let (mut up, mut down) = self.parts(additive);
        let (o_up, o_down) = other.parts(additive);
        if matches!(op, Op::Add | Op::Mul) {
            up.extend(o_up);
            down.extend(o_down);
        } else {
            // Subtracting a chain flips its signs: a - (b - c) = a + c - b.
            up.extend(o_down);
            down.extend(o_up);
        }
        up.sort_unstable();
        down.sort_unstable();
        if additive {
            Nf::Sum { value, pos: up, neg: down }
        } else {
            Nf::Prod { value, num: up, den: down }
        }
    }

    /// The terms of a sum (or the factors of a product), `self` alone if it is not one.
    fn parts(&self, additive: bool) -> (Vec<Nf>, Vec<Nf>) {
        match (self, additive) {
            (Nf::Sum { pos, neg, .. }, true) => (pos.clone(), neg.clone()),
            (Nf::Prod { num, den, .. }, false) => (num.clone(), den.clone()),
            _ => (vec![self.clone()], Vec::new()),
        }
    }

    /// Every subtree of every tree with this normal form: the real subtrees, and inside
    /// each chain of three or more terms every sub-chain of two or more (in some tree
    /// `a + b + c` holds `a + c`). Each comes with its path, the terms it takes of the
    /// chain at the end of the path (`None`: the whole node), the side it sits on, and
    /// itself as a tree.
    fn slots(&self, path: &mut Vec<usize>, out: &mut Vec<Slot>) {
        out.push(Slot { path: path.clone(), terms: None, flipped: false, tree: self.clone() });
        let (up, down, additive) = match self {
            Nf::Tile(_) => return,
            Nf::Sum { pos, neg, .. } => (pos, neg, true),
            Nf::Prod { num, den, .. } => (num, den, false),
        };
        let k = up.len() + down.len();
        if (3..=12).contains(&k) {
            for mask in 1u32..(1 << k) - 1 {
                if mask.count_ones() < 2 {
                    continue;
                }
                let pick = |side: &[Nf], offset: usize| -> Vec<Nf> {
                    side.iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> (i + offset) & 1 == 1)
                        .map(|(_, t)| t.clone())
                        .collect()
                };
                let (u, d) = (pick(up, 0), pick(down, up.len()));
                if let Some((tree, flipped)) = chain(u, d, additive) {
                    out.push(Slot { path: path.clone(), terms: Some(mask), flipped, tree });
                }
            }
        }
        for (i, child) in up.iter().chain(down).enumerate() {
            path.push(i);
            child.slots(path, out);
            path.pop();
        }
    }

    /// A copy with the given disjoint slots replaced by trees of the same values, normal
    /// again: a sum put into a sum merges with it, and so on. Every value above the
    /// replaced slots is unchanged, so no value needs recomputing.
    fn replaced(&self, reps: &[(&[usize], Option<u32>, bool, &Nf)]) -> Nf {
        if let Some(&(_, _, _, with)) = reps.iter().find(|(p, t, _, _)| p.is_empty() && t.is_none()) {
            return with.clone();
        }
        let (value, up, down, additive) = match self {
            Nf::Tile(_) => return self.clone(),
            Nf::Sum { value, pos, neg } => (*value, pos, neg, true),
            Nf::Prod { value, num, den } => (*value, num, den, false),
        };
        let (mut new_up, mut new_down) = (Vec::new(), Vec::new());
        let put = |tree: Nf, on_up: bool, new_up: &mut Vec<Nf>, new_down: &mut Vec<Nf>| {
            let (cu, cd) = tree.parts(additive);
            if on_up {
                new_up.extend(cu);
                new_down.extend(cd);
            } else {
                new_up.extend(cd);
                new_down.extend(cu);
            }
        };
        let mut removed = 0u32;
        for &(p, terms, flipped, with) in reps {
            if let (true, Some(mask)) = (p.is_empty(), terms) {
                removed |= mask;
                put(with.clone(), !flipped, &mut new_up, &mut new_down);
            }
        }
        for (i, child) in up.iter().chain(down).enumerate() {
            if removed >> i & 1 == 1 {
                continue;
            }
            let inner: Vec<(&[usize], Option<u32>, bool, &Nf)> =
                reps.iter().filter(|(p, ..)| p.first() == Some(&i)).map(|&(p, t, f, w)| (&p[1..], t, f, w)).collect();
            let child = if inner.is_empty() { child.clone() } else { child.replaced(&inner) };
            put(child, i < up.len(), &mut new_up, &mut new_down);
        }
        new_up.sort_unstable();
        new_down.sort_unstable();
        if additive {
            Nf::Sum { value, pos: new_up, neg: new_down }
        } else {
            Nf::Prod { value, num: new_up, den: new_down }
        }
    }

    /// The normal forms reached by swapping two disjoint subtrees of equal value, in any
    /// tree of this normal form: an intermediate result equal to a tile, or to another
    /// result, is interchangeable with it (the player cannot tell which a step took).
    pub(crate) fn swaps(&self) -> Vec<Nf> {
        let mut all = Vec::new();
        self.slots(&mut Vec::new(), &mut all);
        let mut out = Vec::new();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                if a.tree.value() != b.tree.value() || a.tree == b.tree || !a.disjoint(b) {
                    continue;
                }
                out.push(self.replaced(&[
                    (a.path.as_slice(), a.terms, a.flipped, &b.tree),
                    (b.path.as_slice(), b.terms, b.flipped, &a.tree),
                ]));
            }
        }
        out
    }

    /// The steps that compute this solution, one per line as `100 - 10 = 90`: each
    /// chain's terms are computed first, then the chain left to right, largest terms
    /// first and subtractions (divisions) last, so that every intermediate result is a
    /// positive integer.
    pub(crate) fn render(&self) -> Vec<String> {
        let mut steps = Vec::new();
        self.render_into(&mut steps);
        steps
    }

    /// The binary tree of the steps that [`Nf::render`] prints: one inner node per step,
    /// one leaf per tile used (the picture draws it).
    pub(crate) fn tree(&self) -> Tree {
        self.render_into(&mut Vec::new())
    }

    fn render_into(&self, steps: &mut Vec<String>) -> Tree {
        let (up, down, ops) = match self {
            Nf::Tile(v) => return Tree::Tile(*v),
            Nf::Sum { pos, neg, .. } => (pos, neg, (Op::Add, Op::Sub)),
            Nf::Prod { num, den, .. } => (num, den, (Op::Mul, Op::Div)),
        };
        // Largest first; on equal values the smaller tree first, for a fixed output.
        fn order(terms: &[Nf]) -> Vec<&Nf> {
            let mut t: Vec<&Nf> = terms.iter().collect();
            t.sort_by(|a, b| b.value().cmp(&a.value()).then_with(|| a.cmp(b)));
            t
        }
        let up = order(up);
        let down = order(down);
        let up_trees: Vec<Tree> = up.iter().map(|t| t.render_into(steps)).collect();
        let mut down_trees: Vec<Tree> = down.iter().map(|t| t.render_into(steps)).collect();
        let mut ups = up_trees.into_iter();
        let mut acc = ups.next().unwrap_or(Tree::Tile(0));
        let mut step = |acc: Tree, op: Op, operand: Tree| {
            // `combine` checked every step of some order when the tree was built; this
            // order keeps intermediate results no larger than needed (see below).
            let (a, v) = (acc.value(), operand.value());
            let next = match op {
                Op::Add => a + v,
                Op::Sub => a - v,
                Op::Mul => a.saturating_mul(v),
                Op::Div => a / v,
            };
            steps.push(format!("{a} {} {v} = {next}", op.symbol()));
            Tree::Step { op, value: next, left: Box::new(acc), right: Box::new(operand) }
        };
        loop {
            // Products divide as soon as a divisor goes exactly, so that no intermediate
            // result grows past what the solution needs; sums subtract last, so that every
            // intermediate result stays positive.
            if ops.1 == Op::Div {
                if let Some(i) = down_trees.iter().position(|d| acc.value() % d.value() == 0) {
                    let d = down_trees.remove(i);
                    acc = step(acc, Op::Div, d);
                    continue;
                }
            }
            match ups.next() {
                Some(v) => acc = step(acc, ops.0, v),
                None => break,
            }
        }
        for d in down_trees {
            acc = step(acc, ops.1, d);
        }
        acc
    }
}

/// A solution as the player computes it: tiles at the leaves, one step per inner node
/// (its left operand is the larger), the result at the root. A step's value is wide:
/// the printed order may pass through a product larger than any tile table holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tree {
    Tile(Value),
    Step { op: Op, value: u128, left: Box<Tree>, right: Box<Tree> },
}

impl Tree {
    pub(crate) fn value(&self) -> u128 {
        match self {
            Tree::Tile(v) => u128::from(*v),
            Tree::Step { value, .. } => *value,
        }
    }
}
