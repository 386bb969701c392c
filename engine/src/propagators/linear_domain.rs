//! Domain-consistent linear equality `Σ aᵢ·xᵢ = c` for equations whose partial sums span
//! a small range (cryptarithm columns, small sums of digits).
//!
//! Bounds reasoning misses holes: in `D + E = Y + 10·C` it cannot see that no value of `E`
//! fits once `D` and the carry are fixed and `Y` has lost the matching digits. This
//! propagator keeps only values that lie on some complete solution of the equation, by
//! dynamic programming over reachable partial sums (a layered graph, one layer per term):
//! forward sets `Fᵢ` of sums reachable by the first `i` terms, then a backward pass that
//! keeps the sums from which `c` is still reachable and marks the supported values.
//! Cost: O(Σ |dom(xᵢ)| · range / 64) word operations per call.
//!
//! The common case (a column of digits and carries) has every partial sum within 128 (or
//! 256) values and every domain within one 64-value window: then each layer is one `u128`
//! (or two), a value's contribution one shift, and the pruned values leave their variable
//! at once by a mask ([`Context::keep_window`]), with no row allocated.
//!
//! A value `u` of `xⱼ` goes because no assignment of the other terms completes the sum:
//! the explanation cites their bounds when the bounds alone leave `c − aⱼ·u` out of reach
//! (the common case, and the strongest reason), else their whole domains, holes included
//! (the dynamic programming used them). A bound that moves is explained by the values it
//! passes; a conflict by the bounds when they suffice, else by every domain.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::{ruled_out, ExplainContext};
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};
use crate::propagators::bitrow::BitRow;

/// Partial sums must span at most this many values, or the post function uses bounds reasoning.
pub(crate) const MAX_SUM_RANGE: i64 = 1 << 14;

/// `Σ aᵢ·xᵢ = c`, domain consistent by dynamic programming over the partial sums; posted by [`crate::constraints::linear_eq_domain`].
#[derive(Debug, Clone)]
pub struct LinearEqDomain {
    terms: Vec<(i64, VarId)>,
    rhs: i64,
    forward: Vec<BitRow>,
    backward: [BitRow; 2],
    /// Lowest partial sum after each prefix of terms (index 0: the empty prefix).
    origin: Vec<i64>,
    unsupported: Vec<(VarId, Val)>,
    /// Word path scratch: each term's lowest value, its values as a window from there, and
    /// the forward layers (sums reachable by each prefix, bit `s` = `origin + s`).
    lows: Vec<Val>,
    windows: Vec<u64>,
    narrow: Vec<u128>,
    wide: Vec<Wide>,
    /// Width of the range of sums after each prefix (index 0: the empty prefix, 1).
    widths: Vec<i64>,
}

impl LinearEqDomain {
    pub(crate) fn new(terms: Vec<(i64, VarId)>, rhs: i64) -> LinearEqDomain {
        let k = terms.len();
        LinearEqDomain {
            terms,
            rhs,
            forward: vec![BitRow::default(); k + 1],
            backward: [BitRow::default(), BitRow::default()],
            origin: vec![0; k + 1],
            unsupported: Vec::new(),
            lows: vec![0; k],
            windows: vec![0; k],
            narrow: Vec::with_capacity(k + 1),
            wide: Vec::with_capacity(k + 1),
            widths: vec![1; k + 1],
        }
    }
}

/// A set of partial sums short enough to live in registers: bit `s` is the sum `origin + s`.
trait Layer: Copy + Default {
    /// How many sums a layer holds.
    const BITS: i64;
    fn bit(i: u32) -> Self;
    fn shl(self, s: u32) -> Self;
    fn shr(self, s: u32) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn is_empty(self) -> bool;
}

impl Layer for u128 {
    const BITS: i64 = 128;
    fn bit(i: u32) -> Self {
        1 << i
    }
    fn shl(self, s: u32) -> Self {
        self << s
    }
    fn shr(self, s: u32) -> Self {
        self >> s
    }
    fn and(self, other: Self) -> Self {
        self & other
    }
    fn or(self, other: Self) -> Self {
        self | other
    }
    fn is_empty(self) -> bool {
        self == 0
    }
}

/// 256 sums as two `u128` halves (low, high): sums of five or more digits with a carry.
#[derive(Clone, Copy, Default, Debug)]
struct Wide([u128; 2]);

impl Layer for Wide {
    const BITS: i64 = 256;
    fn bit(i: u32) -> Self {
        if i < 128 {
            Wide([1 << i, 0])
        } else {
            Wide([0, 1 << (i - 128)])
        }
    }
    fn shl(self, s: u32) -> Self {
        let [lo, hi] = self.0;
        match s {
            0 => self,
            1..=127 => Wide([lo << s, hi << s | lo >> (128 - s)]),
            _ => Wide([0, lo << (s - 128)]),
        }
    }
    fn shr(self, s: u32) -> Self {
        let [lo, hi] = self.0;
        match s {
            0 => self,
            1..=127 => Wide([lo >> s | hi << (128 - s), hi >> s]),
            _ => Wide([hi >> (s - 128), 0]),
        }
    }
    fn and(self, other: Self) -> Self {
        Wide([self.0[0] & other.0[0], self.0[1] & other.0[1]])
    }
    fn or(self, other: Self) -> Self {
        Wide([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }
    fn is_empty(self) -> bool {
        self.0 == [0, 0]
    }
}

impl LinearEqDomain {
    /// The propagation when all partial sums fit one [`Layer`] (`self.origin` set by the
    /// caller): `None` when a domain does not fit one 64-value window, for the row path.
    fn propagate_words<L: Layer>(&mut self, cx: &mut Context<'_>, layers: &mut Vec<L>) -> Option<PropResult> {
        let k = self.terms.len();
        for (i, &(_, x)) in self.terms.iter().enumerate() {
            let (lo, hi) = cx.bounds(x);
            if hi - lo >= 64 {
                return None;
            }
            self.lows[i] = lo;
            self.windows[i] = cx.window(x, lo);
        }
        // A value `v` of term `a·x` adds `a·v` to the prefix sum; measured from the new
        // origin (which adds the term's least contribution) that is a shift by `|a|` times the
        // distance of `v` from the bound giving that least contribution.
        let shift = |a: i64, window: u64, t: u32| -> u32 {
            if a > 0 {
                (a * t as i64) as u32
            } else {
                let top = 63 - window.leading_zeros();
                (-a * (top - t) as i64) as u32
            }
        };
        layers.clear();
        layers.push(L::bit(0));
        for i in 0..k {
            let (a, _) = self.terms[i];
            let window = self.windows[i];
            let (previous, mut reach, mut bits) = (layers[i], L::default(), window);
            while bits != 0 {
                let t = bits.trailing_zeros();
                bits &= bits - 1;
                reach = reach.or(previous.shl(shift(a, window, t)));
            }
            layers.push(reach);
        }
        let target = L::bit((self.rhs - self.origin[k]) as u32);
        if layers[k].and(target).is_empty() {
            return Some(Err(Conflict));
        }
        // Backward: `next` holds the prefix sums after term `i` from which the target is still
        // reachable; a value of term `i` is supported when it leads from a reachable prefix sum
        // into `next`.
        let mut next = target;
        for i in (0..k).rev() {
            let (a, x) = self.terms[i];
            let (lo, window) = (self.lows[i], self.windows[i]);
            let (reachable, mut current, mut supported, mut bits) = (layers[i], L::default(), 0u64, window);
            while bits != 0 {
                let t = bits.trailing_zeros();
                bits &= bits - 1;
                let back = next.shr(shift(a, window, t)).and(reachable);
                if !back.is_empty() {
                    supported |= 1 << t;
                    current = current.or(back);
                }
            }
            if supported != window {
                if let Err(conflict) = cx.keep_window(x, lo, supported) {
                    return Some(Err(conflict));
                }
            }
            next = current;
        }
        Some(Ok(PropStatus::Active))
    }
}

impl LinearEqDomain {
    /// The least and greatest sum of the terms but `skip`, by their bounds in `cx`.
    fn rest_bounds(&self, cx: &ExplainContext<'_>, skip: Option<usize>) -> (i64, i64) {
        let (mut low, mut high) = (0i64, 0i64);
        for (i, &(a, y)) in self.terms.iter().enumerate() {
            if Some(i) != skip {
                let (p, q) = (a * cx.min(y), a * cx.max(y));
                low += p.min(q);
                high += p.max(q);
            }
        }
        (low, high)
    }

    /// Pushes the facts about the terms but `skip`: their bounds, or with `!by_bounds`
    /// their whole domains.
    fn cite_rest(&self, cx: &ExplainContext<'_>, skip: Option<usize>, by_bounds: bool, reason: &mut Vec<Literal>) {
        for (i, &(_, y)) in self.terms.iter().enumerate() {
            if Some(i) == skip {
                continue;
            }
            if by_bounds {
                reason.push(Literal::Gt(y, cx.min(y) - 1));
                reason.push(Literal::Le(y, cx.max(y)));
            } else {
                cx.domain_of(y, reason);
            }
        }
    }
}

impl Propagator for LinearEqDomain {
    fn name(&self) -> &'static str {
        "linear == (domain)"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &(_, x) in &self.terms {
            cx.subscribe(x, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let k = self.terms.len();
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut unfixed = 0;
        for (i, &(a, x)) in self.terms.iter().enumerate() {
            let (min, max) = cx.bounds(x);
            let (p, q) = (a * min, a * max);
            lo += p.min(q);
            hi += p.max(q);
            self.origin[i + 1] = lo;
            self.widths[i + 1] = hi - lo + 1;
            unfixed += usize::from(min != max);
        }
        if self.rhs < lo || self.rhs > hi {
            return Err(Conflict);
        }
        if unfixed == 0 {
            return Ok(PropStatus::Entailed);
        }
        let width = hi - lo + 1;
        let done = if width <= <u128 as Layer>::BITS {
            let mut layers = std::mem::take(&mut self.narrow);
            let done = self.propagate_words(cx, &mut layers);
            self.narrow = layers;
            done
        } else if width <= Wide::BITS {
            let mut layers = std::mem::take(&mut self.wide);
            let done = self.propagate_words(cx, &mut layers);
            self.wide = layers;
            done
        } else {
            None
        };
        if let Some(result) = done {
            return result;
        }
        // Forward: sums reachable by each prefix.
        self.forward[0].reset(1);
        self.forward[0].set(0);
        for i in 0..k {
            let (a, x) = self.terms[i];
            let (prev, rest) = self.forward.split_at_mut(i + 1);
            let row = &mut rest[0];
            row.reset(self.widths[i + 1] as usize);
            for v in cx.values(x) {
                row.or_shifted(&prev[i], (a * v + self.origin[i] - self.origin[i + 1]) as isize);
            }
        }
        if !self.forward[k].get((self.rhs - self.origin[k]) as usize) {
            return Err(Conflict);
        }
        // Backward: keep sums from which `rhs` is reachable; a value is supported when it
        // links a reachable prefix sum to such a sum.
        self.unsupported.clear();
        let [mut next, mut current] = std::mem::take(&mut self.backward);
        next.reset(self.widths[k] as usize);
        next.set((self.rhs - self.origin[k]) as usize);
        for i in (0..k).rev() {
            let (a, x) = self.terms[i];
            current.reset(self.widths[i] as usize);
            for v in cx.values(x) {
                let shift = (self.origin[i + 1] - self.origin[i] - a * v) as isize;
                if !current.or_shifted_masked(&next, shift, &self.forward[i]) {
                    self.unsupported.push((x, v));
                }
            }
            std::mem::swap(&mut next, &mut current);
        }
        self.backward = [next, current];
        for &(x, v) in &self.unsupported {
            let _ = cx.remove(x, v)?;
        }
        Ok(PropStatus::Active)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let x = lit.var();
        let mut at = self.terms.iter().enumerate().filter(|&(_, &(_, y))| y == x);
        let (j, &(a, _)) = at.next()?;
        if at.next().is_some() {
            return None;
        }
        let mut reason = Vec::new();
        let (rest_min, rest_max) = self.rest_bounds(cx, Some(j));
        let by_bounds = ruled_out(cx, lit, &mut reason)?.into_iter().all(|u| {
            let need = self.rhs - a * u;
            need < rest_min || need > rest_max
        });
        self.cite_rest(cx, Some(j), by_bounds, &mut reason);
        Some(reason)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let (rest_min, rest_max) = self.rest_bounds(cx, None);
        let mut reason = Vec::new();
        self.cite_rest(cx, None, self.rhs < rest_min || self.rhs > rest_max, &mut reason);
        Some(reason)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.terms.iter().map(|&(a, x)| a as i128 * value(x) as i128).sum::<i128>() == self.rhs as i128
    }

    fn vars(&self) -> Vec<VarId> {
        self.terms.iter().map(|&(_, x)| x).collect()
    }

    fn linear_equation(&self) -> Option<(Vec<(i64, VarId)>, i64)> {
        Some((self.terms.clone(), self.rhs))
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }
}
