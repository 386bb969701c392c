//! The scan: a group's next variable by one pass over all of its variables.
//!
//! A filter and a `min_by_key` per decision: the simplest selection there is. It serves the
//! small groups, where a pass costs less than keeping a heap, and it is the oracle the heaps are tested against: for every order, the heap's
//! choice must be the scan's.

use crate::branch::VarOrder;
use crate::ids::VarId;
use crate::store::Store;

/// The unfixed variable of `vars` that `order` decides first; ties go to the earlier one.
#[inline]
pub(crate) fn select_var(store: &Store, weights: &[u64], vars: &[VarId], order: VarOrder) -> Option<VarId> {
    let domain = |x: VarId| &store.domains[x.index()];
    let mut unfixed = vars.iter().copied().filter(|&x| !domain(x).is_fixed());
    // `min_by_key` keeps the first of equal keys: ties go to the earlier variable.
    match order {
        VarOrder::Input => unfixed.next(),
        VarOrder::SmallestDomain => unfixed.min_by_key(|&x| domain(x).size()),
        VarOrder::LargestDomain => unfixed.min_by_key(|&x| std::cmp::Reverse(domain(x).size())),
        VarOrder::SmallestMin => unfixed.min_by_key(|&x| domain(x).min),
        VarOrder::LargestMax => unfixed.min_by_key(|&x| std::cmp::Reverse(domain(x).max)),
        VarOrder::Occurrence => unfixed.min_by_key(|&x| std::cmp::Reverse(degree(store, x))),
        VarOrder::MostConstrained => unfixed.min_by_key(|&x| (domain(x).size(), std::cmp::Reverse(degree(store, x)))),
        VarOrder::MaxRegret => unfixed.min_by_key(|&x| {
            let d = domain(x);
            let second = d.next_value(d.min + 1).unwrap_or(d.min);
            std::cmp::Reverse(second - d.min)
        }),
        VarOrder::DomWdeg => {
            let mut best: Option<(VarId, f64)> = None;
            for x in unfixed {
                let wdeg: u64 = store.watchers(x).filter(|p| store.alive[p.index()]).map(|p| weights[p.index()]).sum();
                let score = domain(x).size() as f64 / wdeg.max(1) as f64;
                if best.is_none_or(|(_, s)| score < s) {
                    best = Some((x, score));
                }
            }
            best.map(|(x, _)| x)
        }
    }
}

/// The number of constraints still alive on `x`.
fn degree(store: &Store, x: VarId) -> usize {
    store.watchers(x).filter(|p| store.alive[p.index()]).count()
}
