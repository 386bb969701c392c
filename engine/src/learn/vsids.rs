//! The scores behind activity-based decisions (VSIDS, after Chaff and MiniSat), over
//! positions `0..n` that stand for variables or literals.
//!
//! Every conflict analysis raises the score of what it met by an increment that grows
//! geometrically after each conflict, so that old conflicts count less and less ("decay"
//! without touching every score). The candidates sit in an indexed heap keyed by score, so
//! that a bump moves one entry and the most active candidate is at the top. When scores or
//! the increment pass [`RESCALE_ABOVE`], all are scaled down together, their order unchanged.
//! Ties go to the smaller position, so the choice is deterministic.

use crate::select::heap::IndexedHeap;

/// When scores or the increment grow past this, all are scaled down so that they stay
/// finite.
const RESCALE_ABOVE: f64 = 1e100;

/// The heap key of a score: the heap puts the smallest key first, and scores are never
/// negative, so their bit patterns order as they do.
fn key(score: f64) -> u128 {
    u128::from(u64::MAX - score.to_bits())
}

/// Scores, the increment a bump adds, and the heap of the candidates.
#[derive(Debug)]
pub(crate) struct Vsids {
    score: Vec<f64>,
    /// What a bump adds now; it grows by `1 / decay` after each conflict.
    increment: f64,
    decay: f64,
    /// The candidates, the highest score first.
    heap: IndexedHeap,
}

impl Vsids {
    /// No positions yet; `decay` in (0, 1] (MiniSat uses 0.95).
    pub(crate) fn new(decay: f64) -> Vsids {
        Vsids { score: Vec::new(), increment: 1.0, decay, heap: IndexedHeap::new(0) }
    }

    /// A new position with score zero, a candidate; returns it.
    pub(crate) fn push(&mut self) -> u32 {
        let p = self.score.len() as u32;
        self.score.push(0.0);
        self.heap.grow(self.score.len());
        self.heap.set(p, key(0.0));
        p
    }

    #[cfg(test)]
    pub(crate) fn score(&self, p: u32) -> f64 {
        self.score[p as usize]
    }

    /// Raises the score of `p` by the current increment (a position out of the heap keeps
    /// its new score for when it comes back).
    pub(crate) fn bump(&mut self, p: u32) {
        let i = p as usize;
        self.score[i] += self.increment;
        if self.score[i] > RESCALE_ABOVE {
            self.rescale();
        } else if self.heap.contains(p) {
            self.heap.set(p, key(self.score[i]));
        }
    }

    /// Ends a conflict: later bumps weigh more than the ones before.
    pub(crate) fn decay(&mut self) {
        self.increment /= self.decay;
        // Also where no bump follows, so that the increment stays finite.
        if self.increment > RESCALE_ABOVE {
            self.rescale();
        }
    }

    fn rescale(&mut self) {
        self.increment /= RESCALE_ABOVE;
        for (p, s) in self.score.iter_mut().enumerate() {
            *s /= RESCALE_ABOVE;
            if self.heap.contains(p as u32) {
                self.heap.set(p as u32, key(*s));
            }
        }
    }

    /// The candidate of highest score.
    pub(crate) fn top(&self) -> Option<u32> {
        self.heap.top()
    }

    /// Takes `p` out of the candidates.
    pub(crate) fn remove(&mut self, p: u32) {
        self.heap.remove(p);
    }

    /// Makes `p` a candidate again, if it is not one.
    pub(crate) fn restore(&mut self, p: u32) {
        if !self.heap.contains(p) {
            self.heap.set(p, key(self.score[p as usize]));
        }
    }

    #[cfg(test)]
    pub(crate) fn contains(&self, p: u32) -> bool {
        self.heap.contains(p)
    }

    #[cfg(test)]
    pub(crate) fn increment(&self) -> f64 {
        self.increment
    }
}
