//! The watch lists of the learned nogoods, per variable, split by kind of literal and sorted
//! by value, so that a change of a domain visits only the literals it made true.
//!
//! A nogood watches two of its literals that do not hold (see [`super::db`]); it needs a
//! visit only when one of them comes to hold. A small model with wide domains learns
//! thousands of nogoods over a few variables: `nfc` of the MiniZinc benchmarks has 13
//! variables over 0..120 and 45,000 nogoods after 14 s, and a list per variable scanned
//! whole at every change spent four fifths of the search there. Split and sorted, the
//! literals that one event made true are a range of a list:
//!
//! | literal | holds when | made true by an event that took the bounds from `(lo, hi)` to `(lo', hi')` |
//! |---|---|---|
//! | `x ≤ v` | `max ≤ v` | `hi' ≤ v < hi` |
//! | `x > v` | `min > v` | `lo ≤ v < lo'` |
//! | `x = v` | `x` is fixed to `v` | `v = lo' = hi'`, when `lo < hi` |
//! | `x ≠ v` | `v` is not in the domain | `lo ≤ v < lo'`, `hi' < v ≤ hi`, or `v` the hole the event made (an older hole passed over is taken again: a visit too many, never one too few) |
//!
//! Only the literals an event made true, not all those that hold: a nogood that keeps
//! watching a literal that holds (it propagated, or another of its literals is false) must
//! not be visited again at every later change of the variable. On `nfc` four in five
//! visits were such, before.
//!
//! Each list holds a bucket of watches per value: watches move at every visit, and
//! inserting into a sorted vector of thousands moved more memory than the scan it replaced
//! saved (`nfc`: 57% of the time in the insertion's `memmove`); an ordered set of
//! (value, nogood) spent its time rebalancing. While the values watched span at most
//! [`DENSE_SPAN`], the buckets are a vector indexed by value (a watch added is a push, an
//! event's range a slice); wider, an ordered map from value to bucket (a tree walk per
//! watch added: on PSPLIB instances a tenth of the search went there). A value's bucket
//! stays when emptied, with its capacity, for the watches that come back to it.

use std::collections::BTreeMap;
use std::ops::{Bound, RangeBounds};

use crate::domain::Val;
use crate::ids::VarId;
use crate::literal::Literal;

/// A watch: the nogood, and its *blocker*, another of its literals. A nogood with a false
/// literal can do nothing: when the blocker is false, a visit is spared without reading
/// the nogood (MiniSat's blocking literals; most wakes of a long search are such).
pub(crate) type Watch = (u32, Literal);

/// The widest span of values whose buckets are kept in a vector indexed by value.
const DENSE_SPAN: Val = 4096;

/// The watches of each literal of one kind of one variable, by the literal's value.
#[derive(Debug, Clone)]
enum List {
    /// The buckets of the values `offset..offset + buckets.len()`.
    Dense { offset: Val, buckets: Vec<Vec<Watch>> },
    /// The buckets of values spread wider than [`DENSE_SPAN`].
    Sparse(BTreeMap<Val, Vec<Watch>>),
}

impl Default for List {
    fn default() -> List {
        List::Dense { offset: 0, buckets: Vec::new() }
    }
}

impl List {
    fn is_empty(&self) -> bool {
        match self {
            List::Dense { buckets, .. } => buckets.is_empty(),
            List::Sparse(map) => map.is_empty(),
        }
    }

    /// The bucket of `value`, made if need be.
    fn bucket(&mut self, value: Val) -> &mut Vec<Watch> {
        if let List::Dense { offset, buckets } = self {
            if buckets.is_empty() {
                *offset = value;
            }
            let (lo, hi) = ((*offset).min(value), (*offset + buckets.len() as Val).max(value + 1));
            if hi - lo > DENSE_SPAN {
                let map = buckets.drain(..).enumerate().map(|(k, b)| (*offset + k as Val, b)).collect();
                *self = List::Sparse(map);
            } else {
                if lo < *offset {
                    buckets.splice(0..0, (lo..*offset).map(|_| Vec::new()));
                    *offset = lo;
                }
                buckets.resize_with((hi - lo) as usize, Vec::new);
            }
        }
        match self {
            List::Dense { offset, buckets } => &mut buckets[(value - *offset) as usize],
            List::Sparse(map) => map.entry(value).or_default(),
        }
    }

    /// Calls `f` on the bucket of every value in `range`, with the value.
    fn for_range(&mut self, range: (Bound<Val>, Bound<Val>), mut f: impl FnMut(Val, &mut Vec<Watch>)) {
        match self {
            List::Dense { offset, buckets } => {
                let lo = match range.0 {
                    Bound::Included(a) => a,
                    Bound::Excluded(a) => a + 1,
                    Bound::Unbounded => *offset,
                };
                let hi = match range.1 {
                    Bound::Included(b) => b + 1,
                    Bound::Excluded(b) => b,
                    Bound::Unbounded => *offset + buckets.len() as Val,
                };
                let (lo, hi) = (lo.max(*offset), hi.min(*offset + buckets.len() as Val));
                for v in lo..hi {
                    let bucket = &mut buckets[(v - *offset) as usize];
                    if !bucket.is_empty() {
                        f(v, bucket);
                    }
                }
            }
            List::Sparse(map) => {
                for (&v, bucket) in map.range_mut(range) {
                    f(v, bucket);
                }
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        match self {
            List::Dense { buckets, .. } => buckets.iter().map(Vec::len).sum(),
            List::Sparse(map) => map.values().map(Vec::len).sum(),
        }
    }
}

/// One variable's watches, a list per kind of literal, each sorted by value.
#[derive(Debug, Clone, Default)]
struct VarWatches {
    le: List,
    gt: List,
    eq: List,
    ne: List,
}

impl VarWatches {
    fn list(&mut self, lit: Literal) -> (&mut List, Val) {
        match lit {
            Literal::Le(_, v) => (&mut self.le, v),
            Literal::Gt(_, v) => (&mut self.gt, v),
            Literal::Eq(_, v) => (&mut self.eq, v),
            Literal::Ne(_, v) => (&mut self.ne, v),
        }
    }

    fn is_empty(&self) -> bool {
        self.le.is_empty() && self.gt.is_empty() && self.eq.is_empty() && self.ne.is_empty()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        [&self.le, &self.gt, &self.eq, &self.ne].iter().map(|l| l.len()).sum()
    }
}

/// The watches of all variables.
#[derive(Debug, Clone, Default)]
pub(crate) struct Watches {
    vars: Vec<VarWatches>,
}

impl Watches {
    /// Makes room for the watches of `num_vars` variables.
    pub(crate) fn grow(&mut self, num_vars: usize) {
        if self.vars.len() < num_vars {
            self.vars.resize(num_vars, VarWatches::default());
        }
    }

    /// Forgets every watch.
    pub(crate) fn clear(&mut self) {
        for w in &mut self.vars {
            *w = VarWatches::default();
        }
    }

    /// Records that nogood `k` watches `lit`, with `blocker` another of its literals.
    pub(crate) fn add(&mut self, k: u32, lit: Literal, blocker: Literal) {
        let (list, value) = self.vars[lit.var().index()].list(lit);
        list.bucket(value).push((k, blocker));
    }

    /// Whether a literal of `x` was watched since the last [`Watches::clear`] (an emptied
    /// bucket stays): a cheap test before an event's bounds are looked up.
    pub(crate) fn watches(&self, x: VarId) -> bool {
        self.vars.get(x.index()).is_some_and(|w| !w.is_empty())
    }

    /// Takes out into `out` the watches of `x` whose literal one event made true, but those
    /// that `blocked` says can wait (their blocker is false): the event took the bounds of
    /// `x` from `before` to `after` (minimum, maximum), or made the hole `hole`. Those
    /// taken out that still watch are to be [`Watches::add`]ed back.
    pub(crate) fn take_made_true(
        &mut self,
        x: VarId,
        before: (Val, Val),
        after: (Val, Val),
        hole: Option<Val>,
        blocked: impl Fn(Literal) -> bool,
        out: &mut Vec<(Watch, Literal)>,
    ) {
        let Some(w) = self.vars.get_mut(x.index()) else { return };
        use std::ops::Bound::{Excluded, Included};
        let blocked = &blocked;
        // x ≤ v holds from v = max on; x > v up to v = min - 1.
        take(&mut w.le, after.1..before.1, blocked, out, |v| Literal::Le(x, v));
        take(&mut w.gt, before.0..after.0, blocked, out, |v| Literal::Gt(x, v));
        if after.0 == after.1 && before.0 != before.1 {
            take(&mut w.eq, after.0..=after.0, blocked, out, |v| Literal::Eq(x, v));
        }
        take(&mut w.ne, before.0..after.0, blocked, out, |v| Literal::Ne(x, v));
        if after.1 < before.1 {
            take(&mut w.ne, (Excluded(after.1), Included(before.1)), blocked, out, |v| Literal::Ne(x, v));
        }
        if let Some(h) = hole {
            take(&mut w.ne, h..=h, blocked, out, |v| Literal::Ne(x, v));
        }
    }
}

/// Takes out the watches of the values in `range` of a list but the blocked ones, which
/// stay in place (a range that runs backwards, as no event makes, takes nothing).
fn take(
    list: &mut List,
    range: impl RangeBounds<Val>,
    blocked: &impl Fn(Literal) -> bool,
    out: &mut Vec<(Watch, Literal)>,
    lit: impl Fn(Val) -> Literal,
) {
    use std::ops::Bound::{Excluded, Included, Unbounded};
    let backwards = match (range.start_bound(), range.end_bound()) {
        (Included(a), Included(b)) => a > b,
        (Included(a) | Excluded(a), Excluded(b)) | (Excluded(a), Included(b)) => a >= b,
        (Unbounded, _) | (_, Unbounded) => false,
    };
    if backwards {
        return;
    }
    let range = (range.start_bound().cloned(), range.end_bound().cloned());
    list.for_range(range, |v, bucket| {
        bucket.retain(|&watch| {
            if blocked(watch.1) {
                return true;
            }
            out.push((watch, lit(v)));
            false
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::propagators::nogood::{truth_in, Truth};
    use proptest::prelude::*;

    fn lit_of(kind: u8, x: VarId, v: Val) -> Literal {
        match kind % 4 {
            0 => Literal::Le(x, v),
            1 => Literal::Gt(x, v),
            2 => Literal::Eq(x, v),
            _ => Literal::Ne(x, v),
        }
    }

    /// Values spread wider than the dense span move the buckets to a map, watches and all.
    #[test]
    fn buckets_spread_wide_keep_their_watches() {
        let x = VarId(0);
        let mut w = Watches::default();
        w.grow(1);
        let blocker = Literal::Eq(VarId(1), 0);
        for (k, v) in [(0u32, 5), (1, 3), (2, 5 + DENSE_SPAN), (3, -DENSE_SPAN)].into_iter() {
            w.add(k, Literal::Gt(x, v), blocker);
            w.add(k, Literal::Le(x, v), blocker);
        }
        assert!(matches!(w.vars[0].gt, List::Sparse(_)));
        let mut taken = Vec::new();
        // The minimum from 0 to 6: x > 3 and x > 5 came to hold.
        w.take_made_true(x, (0, 10_000), (6, 10_000), None, |_| false, &mut taken);
        let mut got: Vec<u32> = taken.iter().map(|&((k, _), _)| k).collect();
        got.sort_unstable();
        assert_eq!(got, vec![0, 1]);
        // The maximum from 10,000 to 4: x ≤ 5 and x ≤ 4101 came to hold; then to -5,000:
        // x ≤ 3 and x ≤ -4096.
        for (before, after, want) in [(10_000, 4, [0u32, 2]), (4, -5_000, [1, 3])] {
            taken.clear();
            w.take_made_true(x, (-10_000, before), (-10_000, after), None, |_| false, &mut taken);
            let mut got: Vec<u32> = taken.iter().map(|&((k, _), _)| k).collect();
            got.sort_unstable();
            assert_eq!(got, want);
        }
    }

    proptest! {
        /// What is taken out is exactly the watched literals that hold after the event and
        /// did not before, but those whose blocker is false, and what stays is the rest:
        /// checked against the literals' truth.
        #[test]
        fn takes_exactly_the_literals_the_event_made_true(
            watched in proptest::collection::vec((0u8..4, 0i64..10, any::<bool>()), 0..40),
            lo in 0i64..10,
            width in 0i64..10,
            old_holes in proptest::collection::vec(0i64..10, 0..3),
            event in (0u8..3, 0i64..10),
        ) {
            let x = VarId(0);
            let hi = (lo + width).min(9);
            let before: Vec<Val> = (lo..=hi).filter(|v| !old_holes.contains(v) || *v == lo || *v == hi).collect();
            // The event: a new minimum, a new maximum, or an interior hole.
            let (kind, v) = event;
            let (after, hole): (Vec<Val>, Option<Val>) = match kind {
                0 => (before.iter().copied().filter(|&u| u >= v).collect(), None),
                1 => (before.iter().copied().filter(|&u| u <= v).collect(), None),
                _ => (before.iter().copied().filter(|&u| u != v).collect(), Some(v)),
            };
            let interior = hole.is_none_or(|h| before.contains(&h) && lo < h && h < hi);
            prop_assume!(!after.is_empty() && after.len() < before.len() && interior);
            let (d0, d1) = (Domain::from_values(&before), Domain::from_values(&after));
            let mut w = Watches::default();
            w.grow(1);
            let lits: Vec<Literal> = watched.iter().map(|&(kind, v, _)| lit_of(kind, x, v)).collect();
            // Each watch's blocker names the watch; some are blocked (false, in the search).
            let blocker = |k: usize| Literal::Eq(VarId(1), k as Val);
            for (k, &lit) in lits.iter().enumerate() {
                w.add(k as u32, lit, blocker(k));
            }
            let blocked = |b: Literal| matches!(b, Literal::Eq(_, k) if watched[k as usize].2);
            let mut taken = Vec::new();
            w.take_made_true(x, (d0.min, d0.max), (d1.min, d1.max), hole, blocked, &mut taken);
            for (k, &lit) in lits.iter().enumerate() {
                let made_true = truth_in(&d1, lit) == Truth::True && truth_in(&d0, lit) != Truth::True;
                // An old hole the new bounds passed over is taken again (the lists do not
                // know the holes): a visit too many, never one too few.
                let passed_over = matches!(lit, Literal::Ne(_, u) if !before.contains(&u)
                    && ((d0.min..d1.min).contains(&u) || (d1.max + 1..=d0.max).contains(&u)));
                let was_taken = taken.contains(&((k as u32, blocker(k)), lit));
                let wanted = (made_true || passed_over) && !watched[k].2;
                prop_assert_eq!(was_taken, wanted, "{:?}: {:?} -> {:?}", lit, before, after);
            }
            prop_assert_eq!(w.vars[0].len() + taken.len(), lits.len());
        }
    }
}
