//! Exact counting of one component's layouts, by number of mines, with arbitrary
//! precision.
//!
//! A path dynamic programme over the boxes: the boxes are put in an order where numbers
//! open and close quickly (each number is "open" from its first box to its last), and
//! the state between two boxes is the residual demand of the open numbers. Layouts that
//! reach the same state have the same completions, so each state is kept once with its
//! count per number of mines (the forward pass). Enumerating layouts one by one cannot do
//! a 10×21 checkerboard frontier (about 10^30 layouts); the number of states stays in the
//! thousands there.
//!
//! Per-box probabilities need, for each state, the weight of its completions; the
//! backward pass computes it with the weights of the rest of the board folded in
//! (`ext[k]`: how many ways the other components and the off-frontier cells complete a
//! layout in which this component holds k mines), so one pass serves every box.

use crate::Deadline;
use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::frontier::Component;

/// The deadline passed while counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

/// Where a value of the next state comes from.
#[derive(Debug, Clone, Copy)]
enum Src {
    /// Carried unchanged from this position of the previous state.
    Prev(usize),
    /// The `k`-th constraint of the box, after the box's mines.
    Box(usize),
}

/// How one box changes the state.
#[derive(Debug, Clone)]
struct Step {
    size: usize,
    /// Per constraint of the box: its residual before the box (a position in the previous
    /// state, or its full demand when the box opens it), and the room left after the box.
    cons: Vec<(Result<usize, usize>, usize)>,
    next: Vec<Src>,
}

impl Step {
    /// The state after putting `j` mines in the box, if it can still be completed.
    fn apply(&self, state: &[u8], j: usize, scratch: &mut Vec<u8>) -> Option<Vec<u8>> {
        scratch.clear();
        for &(before, room) in &self.cons {
            let r = match before {
                Ok(p) => usize::from(state[p]),
                Err(need) => need,
            };
            let r = r.checked_sub(j)?;
            if r > room {
                return None;
            }
            scratch.push(r as u8);
        }
        Some(
            self.next
                .iter()
                .map(|s| match *s {
                    Src::Prev(p) => state[p],
                    Src::Box(k) => scratch[k],
                })
                .collect(),
        )
    }
}

/// The states between two boxes, each with its count of prefix layouts by mines.
#[derive(Debug, Default)]
struct Layer {
    index: HashMap<Vec<u8>, usize>,
    keys: Vec<Vec<u8>>,
    counts: Vec<Vec<BigUint>>,
}

impl Layer {
    fn slot(&mut self, key: Vec<u8>) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.index.insert(key.clone(), self.keys.len());
        self.keys.push(key);
        self.counts.push(Vec::new());
        self.keys.len() - 1
    }
}

/// A counted component: its layouts by number of mines, and what the backward pass needs.
#[derive(Debug)]
pub struct Counted {
    /// Box indices of the component in counting order.
    order: Vec<usize>,
    steps: Vec<Step>,
    layers: Vec<Layer>,
    /// `by_mines[k]`: layouts of the component with k mines.
    pub by_mines: Vec<BigUint>,
    /// States kept, summed over the layers (a measure of the work).
    pub states: u64,
}

/// Binomial coefficients as exact integers (cached by the caller when hot).
pub fn binomial(n: usize, k: usize) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut r = BigUint::one();
    for i in 0..k {
        r *= n - i;
        r /= i + 1;
    }
    r
}

/// Binomials that fit a machine word: box sizes are small (at most 8 cells touch one number).
fn small_binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k as u64 {
        r = r * (n as u64 - i) / (i + 1);
    }
    r
}

/// `dst[m + shift] += factor × src[m]`.
fn add_scaled(dst: &mut Vec<BigUint>, src: &[BigUint], shift: usize, factor: u64) {
    if dst.len() < src.len() + shift {
        dst.resize(src.len() + shift, BigUint::zero());
    }
    for (m, v) in src.iter().enumerate() {
        if v.is_zero() {
            continue;
        }
        if factor == 1 {
            dst[m + shift] += v;
        } else {
            dst[m + shift] += v * factor;
        }
    }
}

/// Checked at every state: a state of a large board adds vectors of big numbers as long as
/// the mine count, far more work than reading the clock.
fn timed_out(deadline: &Deadline) -> bool {
    deadline.expired()
}

/// An order of the boxes in which numbers open late and close early: greedy from a few
/// starting boxes, keeping the order whose widest state is narrowest.
fn box_order(comp: &Component) -> Vec<usize> {
    let n = comp.boxes.len();
    let mut best: Option<((usize, usize), Vec<usize>)> = None;
    let mut starts = vec![0, n - 1, n / 2];
    starts.dedup();
    for &start in &starts {
        let order = greedy_from(comp, start);
        let cost = width(comp, &order);
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, order));
        }
    }
    best.map(|(_, o)| o).unwrap_or_default()
}

fn greedy_from(comp: &Component, start: usize) -> Vec<usize> {
    let n = comp.boxes.len();
    let mut placed = vec![false; n];
    let mut left: Vec<usize> = comp.constraints.iter().map(|c| c.boxes.len()).collect();
    let mut order = Vec::with_capacity(n);
    let mut next = Some(start);
    while let Some(b) = next {
        placed[b] = true;
        order.push(b);
        for &c in &comp.boxes[b].constraints {
            left[c] -= 1;
        }
        // Candidates: unplaced boxes on an open constraint; otherwise any unplaced box.
        let mut best: Option<(i64, usize)> = None;
        for (c, con) in comp.constraints.iter().enumerate() {
            if left[c] == 0 || left[c] == con.boxes.len() {
                continue;
            }
            for &cand in &con.boxes {
                if placed[cand] {
                    continue;
                }
                let mut score = 0i64;
                for &d in &comp.boxes[cand].constraints {
                    let opened = left[d] < comp.constraints[d].boxes.len();
                    if left[d] == 1 {
                        score += 4; // closes a number
                    } else if opened {
                        score += 1; // works on an open number
                    } else {
                        score -= 3; // opens a new number
                    }
                }
                if best.is_none_or(|(s, i)| score > s || (score == s && cand < i)) {
                    best = Some((score, cand));
                }
            }
        }
        next = best.map(|(_, i)| i).or_else(|| placed.iter().position(|p| !p));
    }
    order
}

/// (widest state, sum of state widths) of an order.
fn width(comp: &Component, order: &[usize]) -> (usize, usize) {
    let mut left: Vec<usize> = comp.constraints.iter().map(|c| c.boxes.len()).collect();
    let mut open = 0usize;
    let (mut max, mut sum) = (0, 0);
    for &b in order {
        for &c in &comp.boxes[b].constraints {
            if left[c] == comp.constraints[c].boxes.len() {
                open += 1;
            }
            left[c] -= 1;
            if left[c] == 0 {
                open -= 1;
            }
        }
        max = max.max(open);
        sum += open;
    }
    (max, sum)
}

/// The steps of an order: which numbers are open between boxes, and how each box changes them.
fn steps(comp: &Component, order: &[usize]) -> Vec<Step> {
    let n = order.len();
    let mut pos = vec![0; comp.boxes.len()];
    for (i, &b) in order.iter().enumerate() {
        pos[b] = i;
    }
    let first: Vec<usize> =
        comp.constraints.iter().map(|c| c.boxes.iter().map(|&b| pos[b]).min().unwrap_or(0)).collect();
    let last: Vec<usize> =
        comp.constraints.iter().map(|c| c.boxes.iter().map(|&b| pos[b]).max().unwrap_or(0)).collect();
    // open[i]: constraints open between box i-1 and box i.
    let open: Vec<Vec<usize>> =
        (0..=n).map(|i| (0..comp.constraints.len()).filter(|&c| first[c] < i && last[c] >= i).collect()).collect();
    order
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let mine = &comp.boxes[b];
            let cons = mine
                .constraints
                .iter()
                .map(|&c| {
                    let before = match open[i].iter().position(|&o| o == c) {
                        Some(p) => Ok(p),
                        None => Err(comp.constraints[c].need),
                    };
                    let room: usize = comp.constraints[c]
                        .boxes
                        .iter()
                        .filter(|&&d| pos[d] > i)
                        .map(|&d| comp.boxes[d].cells.len())
                        .sum();
                    (before, room)
                })
                .collect();
            let next = open[i + 1]
                .iter()
                .map(|&c| match mine.constraints.iter().position(|&d| d == c) {
                    Some(k) => Src::Box(k),
                    None => Src::Prev(open[i].iter().position(|&o| o == c).unwrap_or(0)),
                })
                .collect();
            Step { size: mine.cells.len(), cons, next }
        })
        .collect()
}

/// Counts a component's layouts by number of mines (the forward pass).
pub fn count(comp: &Component, deadline: &Deadline) -> Result<Counted, TimedOut> {
    let order = box_order(comp);
    let steps = steps(comp, &order);
    let mut layers: Vec<Layer> = Vec::with_capacity(steps.len() + 1);
    let mut first = Layer::default();
    let root = first.slot(Vec::new());
    first.counts[root] = vec![BigUint::one()];
    layers.push(first);
    let mut scratch = Vec::new();
    let mut states = 1u64;
    for step in &steps {
        if timed_out(deadline) {
            deadline.abandon(layers);
            return Err(TimedOut);
        }
        let prev = layers.last().unwrap_or_else(|| unreachable!("the first layer is pushed above"));
        let mut next = Layer::default();
        for (s, key) in prev.keys.iter().enumerate() {
            if timed_out(deadline) {
                deadline.abandon((layers, next));
                return Err(TimedOut);
            }
            for j in 0..=step.size {
                if let Some(to) = step.apply(key, j, &mut scratch) {
                    let t = next.slot(to);
                    add_scaled(&mut next.counts[t], &prev.counts[s], j, small_binomial(step.size, j));
                }
            }
        }
        states += next.keys.len() as u64;
        layers.push(next);
    }
    let last = layers.last().unwrap_or_else(|| unreachable!("at least one layer"));
    let by_mines = last.index.get(&Vec::new()).map_or_else(Vec::new, |&i| last.counts[i].clone());
    Ok(Counted { order, steps, layers, by_mines, states })
}

impl Counted {
    /// For every box of the component (in the component's box order), the weight of the
    /// layouts in which one given cell of the box is a mine: the sum over the component's
    /// layouts of [cell is a mine] × `ext[k]` (k: the layout's mines). The backward pass.
    pub fn box_weights(&self, ext: &[BigUint], deadline: &Deadline) -> Result<Vec<BigUint>, TimedOut> {
        let n = self.steps.len();
        let mut out = vec![BigUint::zero(); n];
        // after[s][m]: weight of the completions of state s of the current layer when the
        // prefix holds m mines.
        let mut after: Vec<Vec<BigUint>> = vec![ext.to_vec(); self.layers[n].keys.len()];
        let mut scratch = Vec::new();
        for i in (0..n).rev() {
            if timed_out(deadline) {
                deadline.abandon(after);
                return Err(TimedOut);
            }
            let step = &self.steps[i];
            let layer = &self.layers[i];
            let next = &self.layers[i + 1];
            let mut before: Vec<Vec<BigUint>> = Vec::with_capacity(layer.keys.len());
            let mut weight = BigUint::zero();
            for (s, key) in layer.keys.iter().enumerate() {
                if timed_out(deadline) {
                    deadline.abandon((after, before));
                    return Err(TimedOut);
                }
                let prefix = &layer.counts[s];
                let mut here = vec![BigUint::zero(); prefix.len()];
                for j in 0..=step.size {
                    let Some(to) = step.apply(key, j, &mut scratch) else { continue };
                    let Some(&t) = next.index.get(&to) else { continue };
                    let tail = &after[t];
                    let ways = small_binomial(step.size, j);
                    // One given cell is a mine in C(size − 1, j − 1) of the C(size, j) choices.
                    let cell_ways = if j > 0 { small_binomial(step.size - 1, j - 1) } else { 0 };
                    for (m, p) in prefix.iter().enumerate() {
                        let Some(w) = tail.get(m + j) else { continue };
                        if w.is_zero() {
                            continue;
                        }
                        if ways == 1 {
                            here[m] += w;
                        } else {
                            here[m] += w * ways;
                        }
                        if cell_ways > 0 && !p.is_zero() {
                            weight += p * w * cell_ways;
                        }
                    }
                }
                before.push(here);
            }
            out[self.order[i]] = weight;
            after = before;
        }
        Ok(out)
    }
}
