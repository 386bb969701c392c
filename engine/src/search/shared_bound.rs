//! An objective bound shared between searches while they run.
//!
//! Searches of disjoint parts of one model's tree (the subtrees of a split, run on threads or
//! in other processes) each do branch and bound over their own part. A [`SharedBound`] lets
//! each of them prune with the best objective *any* of them has found so far: every search
//! that holds it offers each improving solution's objective to it, and reads it at every
//! node to cut, beside its own bound. The cut only ever removes solutions that are not
//! better than a solution that exists, so the best over all the searches is still the
//! optimum, proven when every one of them finished.
//!
//! What a search that finished can claim changes with it: not "my part has no solution"
//! but "my part has no solution better than [`SharedBound::best`] as it stands now" (the
//! bound only tightens, so a cut made with an older value holds for the newer one too).
//!
//! The value is kept as a *rank*, lower is better (the objective for a minimisation, its
//! negation for a maximisation), so that a process carrying it elsewhere (a cluster's
//! scheduler) can keep the best of two ranks without knowing the sense.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use crate::domain::Val;

use super::config::Sense;

/// The rank of no bound yet.
const NONE: i64 = i64::MAX;

/// The best objective found so far by the searches that share it; cloning shares it.
#[derive(Debug, Clone)]
pub struct SharedBound(Arc<AtomicI64>);

impl Default for SharedBound {
    fn default() -> SharedBound {
        SharedBound::new()
    }
}

impl SharedBound {
    /// A bound that no solution has set yet.
    pub fn new() -> SharedBound {
        SharedBound(Arc::new(AtomicI64::new(NONE)))
    }

    /// The rank of `value` under `sense`: lower is better. The one value with no rank,
    /// `i64::MIN` maximised, is given none: offering it then cuts nothing, which is safe.
    fn rank(value: Val, sense: Sense) -> i64 {
        match sense {
            Sense::Minimize => value,
            Sense::Maximize => value.saturating_neg(),
        }
    }

    /// Offers the objective of a solution that exists; the bound keeps the better one.
    pub fn offer(&self, value: Val, sense: Sense) {
        self.offer_rank(SharedBound::rank(value, sense));
    }

    /// Offers a rank read from another holder's [`SharedBound::rank_now`].
    pub fn offer_rank(&self, rank: i64) {
        self.0.fetch_min(rank, Ordering::Relaxed);
    }

    /// The best rank so far, `None` before any solution.
    pub fn rank_now(&self) -> Option<i64> {
        let rank = self.0.load(Ordering::Relaxed);
        (rank != NONE).then_some(rank)
    }

    /// The best objective so far under `sense`, `None` before any solution.
    pub fn best(&self, sense: Sense) -> Option<Val> {
        self.rank_now().map(|rank| match sense {
            Sense::Minimize => rank,
            Sense::Maximize => -rank,
        })
    }

    /// The better of a search's own bound and this one, under `sense`.
    pub(super) fn tighten(&self, own: Option<Val>, sense: Sense) -> Option<Val> {
        match (own, self.best(sense)) {
            (Some(a), Some(b)) => Some(match sense {
                Sense::Minimize => a.min(b),
                Sense::Maximize => a.max(b),
            }),
            (a, b) => a.or(b),
        }
    }
}
