//! A variable's values as an explanation holds them: sorted runs of consecutive values.
//!
//! An explanation keeps, for every shown variable, its root domain, what is known of it now,
//! and the facts and conclusions of every step. Puzzle domains are small (a Sudoku cell's
//! `1..9` with holes), but a long model's are wide: a chain of 4,000 `x[i] < x[i+1]` over
//! `1..4000` narrows each variable to an interval such as `x[17] ∈ 17..4000`, thousands of
//! times. Listed value by value, that is 32 KB per domain, per fact, per step; as runs it
//! is one pair. Holes cost one run each, so a Sudoku cell's `{1, 3, 5, 7}` is four pairs.

use crate::domain::Val;

/// A finite set of values, as ascending, disjoint, non-adjacent inclusive runs `lo..=hi`.
/// Two equal sets have equal runs, so `==` compares sets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Values {
    runs: Vec<(Val, Val)>,
}

impl Values {
    /// The empty set.
    pub fn new() -> Values {
        Values { runs: Vec::new() }
    }

    /// `{v}`.
    pub fn single(v: Val) -> Values {
        Values { runs: vec![(v, v)] }
    }

    /// `lo..=hi` (empty when `lo > hi`).
    pub fn range(lo: Val, hi: Val) -> Values {
        Values { runs: if lo <= hi { vec![(lo, hi)] } else { Vec::new() } }
    }

    /// The values of an ascending sequence (repeats allowed).
    pub fn from_ascending(values: impl IntoIterator<Item = Val>) -> Values {
        let mut runs: Vec<(Val, Val)> = Vec::new();
        for v in values {
            match runs.last_mut() {
                Some((_, hi)) if v <= hi.saturating_add(1) => {
                    debug_assert!(v >= *hi, "values must ascend");
                    *hi = (*hi).max(v);
                }
                _ => runs.push((v, v)),
            }
        }
        Values { runs }
    }

    /// The runs, ascending.
    pub fn runs(&self) -> &[(Val, Val)] {
        &self.runs
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.runs.iter().map(|&(lo, hi)| (hi - lo) as usize + 1).sum()
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Whether there is exactly one value.
    pub fn is_single(&self) -> bool {
        matches!(self.runs.as_slice(), [(lo, hi)] if lo == hi)
    }

    /// The smallest value.
    pub fn min(&self) -> Option<Val> {
        self.runs.first().map(|r| r.0)
    }

    /// The largest value.
    pub fn max(&self) -> Option<Val> {
        self.runs.last().map(|r| r.1)
    }

    /// Whether `v` is one of the values.
    pub fn contains(&self, v: Val) -> bool {
        let at = self.runs.partition_point(|&(_, hi)| hi < v);
        self.runs.get(at).is_some_and(|&(lo, _)| lo <= v)
    }

    /// The values, ascending.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Val> + '_ {
        self.runs.iter().flat_map(|&(lo, hi)| lo..=hi)
    }

    /// The values, ascending, in a vector.
    pub fn to_vec(&self) -> Vec<Val> {
        self.iter().collect()
    }

    /// Whether every value is one of `other`'s.
    pub fn is_subset(&self, other: &Values) -> bool {
        let mut k = 0;
        for &(lo, hi) in &self.runs {
            while k < other.runs.len() && other.runs[k].1 < lo {
                k += 1;
            }
            match other.runs.get(k) {
                Some(&(olo, ohi)) if olo <= lo && hi <= ohi => {}
                _ => return false,
            }
        }
        true
    }

    /// The values but `v`.
    pub fn without(&self, v: Val) -> Values {
        let mut runs = Vec::with_capacity(self.runs.len() + 1);
        for &(lo, hi) in &self.runs {
            if v < lo || v > hi {
                runs.push((lo, hi));
                continue;
            }
            if lo < v {
                runs.push((lo, v - 1));
            }
            if v < hi {
                runs.push((v + 1, hi));
            }
        }
        Values { runs }
    }
}

impl FromIterator<Val> for Values {
    /// The values of any sequence (sorted here).
    fn from_iter<I: IntoIterator<Item = Val>>(values: I) -> Values {
        let mut all: Vec<Val> = values.into_iter().collect();
        all.sort_unstable();
        Values::from_ascending(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every question agrees with the same question asked of the plain sorted list.
        #[test]
        fn agrees_with_a_sorted_list(list in proptest::collection::btree_set(-20i64..20, 0..15), v in -22i64..22) {
            let list: Vec<Val> = list.into_iter().collect();
            let set = Values::from_ascending(list.iter().copied());
            prop_assert_eq!(set.to_vec(), list.clone());
            prop_assert_eq!(set.len(), list.len());
            prop_assert_eq!(set.contains(v), list.contains(&v));
            prop_assert_eq!(set.min(), list.first().copied());
            prop_assert_eq!(set.max(), list.last().copied());
            prop_assert_eq!(set.is_single(), list.len() == 1);
            let rest: Vec<Val> = list.iter().copied().filter(|&w| w != v).collect();
            prop_assert_eq!(set.without(v), Values::from_ascending(rest.iter().copied()));
            // Runs are maximal: two sets of the same values are equal.
            prop_assert_eq!(list.iter().copied().rev().collect::<Values>(), set.clone());
            for pair in set.runs().windows(2) {
                prop_assert!(pair[0].1 + 1 < pair[1].0);
            }
            let half: Vec<Val> = list.iter().copied().filter(|w| w % 2 == 0).collect();
            let half = Values::from_ascending(half);
            prop_assert!(half.is_subset(&set));
            prop_assert_eq!(set.is_subset(&half), set == half);
            prop_assert_eq!(Values::single(v).is_subset(&set), list.contains(&v));
        }
    }
}
