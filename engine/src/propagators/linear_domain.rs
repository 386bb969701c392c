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

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context, Events, PostContext, Priority, PropResult, PropStatus, Propagator};
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
        let mut width = vec![1i64; k + 1];
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut unfixed = 0;
        for (i, &(a, x)) in self.terms.iter().enumerate() {
            let (p, q) = (a * cx.min(x), a * cx.max(x));
            lo += p.min(q);
            hi += p.max(q);
            self.origin[i + 1] = lo;
            width[i + 1] = hi - lo + 1;
            unfixed += usize::from(!cx.is_fixed(x));
        }
        if self.rhs < lo || self.rhs > hi {
            return Err(Conflict);
        }
        if unfixed == 0 {
            return Ok(PropStatus::Entailed);
        }
        // Forward: sums reachable by each prefix.
        self.forward[0].reset(1);
        self.forward[0].set(0);
        for i in 0..k {
            let (a, x) = self.terms[i];
            let (prev, rest) = self.forward.split_at_mut(i + 1);
            let row = &mut rest[0];
            row.reset(width[i + 1] as usize);
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
        next.reset(width[k] as usize);
        next.set((self.rhs - self.origin[k]) as usize);
        for i in (0..k).rev() {
            let (a, x) = self.terms[i];
            current.reset(width[i] as usize);
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

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.terms.iter().map(|&(a, x)| a as i128 * value(x) as i128).sum::<i128>() == self.rhs as i128
    }

    fn vars(&self) -> Vec<VarId> {
        self.terms.iter().map(|&(_, x)| x).collect()
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }
}
