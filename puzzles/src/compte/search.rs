//! Every solution for a value, top down over the subset table.
//!
//! `solutions(m, v)` lists the normal forms of the expressions that use exactly the tiles
//! of mask `m` and are worth `v`: for each split of `m` into two parts and each value `x`
//! of the first part, the few partners `y` that give `v` in one step ([`partners`]) are
//! looked up in the second part's sorted set, and the solutions of both sides are
//! combined. Results are memoised per (canonical mask, value) and kept sorted and
//! without repeats, so that equivalent solutions collapse as soon as they meet.

use crate::Deadline;
use std::collections::HashMap;
use std::rc::Rc;

use super::expr::Nf;
use super::reach::{partners, Op, Reach, TimedOut, Value};

/// The solver of one table: memo and time limit.
#[derive(Debug)]
pub(crate) struct Enumerator<'r> {
    reach: &'r Reach,
    memo: HashMap<(u32, Value), Rc<Vec<Nf>>>,
    deadline: Deadline,
    /// Normal forms built (the `propagations` figure of `--stats`).
    pub(crate) built: u64,
    /// Memo lookups that missed (the `nodes` figure of `--stats`).
    pub(crate) visited: u64,
}

impl<'r> Enumerator<'r> {
    pub(crate) fn new(reach: &'r Reach, deadline: &Deadline) -> Enumerator<'r> {
        Enumerator { reach, memo: HashMap::new(), deadline: deadline.clone(), built: 0, visited: 0 }
    }

    /// The distinct solutions with exactly the tiles of `m`, worth `v`, sorted. The
    /// levels below `m`'s must be computed in the table.
    pub(crate) fn solutions(&mut self, m: u32, v: Value) -> Result<Rc<Vec<Nf>>, TimedOut> {
        let m = self.reach.canon(m);
        if let Some(found) = self.memo.get(&(m, v)) {
            return Ok(found.clone());
        }
        self.visited += 1;
        if self.visited % 256 == 0 && self.deadline.expired() {
            return Err(TimedOut);
        }
        let mut out: Vec<Nf> = Vec::new();
        if m.count_ones() == 1 {
            let tile = self.reach.tiles[m.trailing_zeros() as usize];
            if tile == v {
                out.push(Nf::Tile(v));
            }
        } else {
            let reach: &'r Reach = self.reach;
            for (a, b) in reach.splits(m) {
                // Each split once: the partner lookups cover both operand orders. The
                // smaller side is scanned and the larger one searched.
                let (a, b) = if reach.values(a).len() <= reach.values(b).len() { (a, b) } else { (b, a) };
                let ys = reach.values(b);
                for &x in reach.values(a) {
                    for (kind, y) in partners(x, v).into_iter().enumerate() {
                        let Some(y) = y else { continue };
                        if ys.binary_search(&y).is_err() {
                            continue;
                        }
                        let left = self.solutions(a, x)?;
                        let right = self.solutions(b, y)?;
                        for l in left.iter() {
                            for r in right.iter() {
                                // The order of `partners`: x + y, x - y, y - x, x × y, x ÷ y, y ÷ x.
                                let nf = match kind {
                                    0 => l.apply(Op::Add, r, v),
                                    1 => l.apply(Op::Sub, r, v),
                                    2 => r.apply(Op::Sub, l, v),
                                    3 => l.apply(Op::Mul, r, v),
                                    4 => l.apply(Op::Div, r, v),
                                    _ => r.apply(Op::Div, l, v),
                                };
                                out.push(nf);
                            }
                        }
                    }
                }
            }
            self.built += out.len() as u64;
            out.sort_unstable();
            out.dedup();
        }
        let out = Rc::new(out);
        self.memo.insert((m, v), out.clone());
        Ok(out)
    }
}
