//! Activity-based variable selection (VSIDS, after Chaff and MiniSat), over integer variables.
//!
//! Each variable has an *activity*: every conflict analysis raises the activity of the
//! variables whose literals it met, by an increment that grows geometrically after each
//! conflict, so that old conflicts count less and less ("decay" without touching every
//! score). The search decides next the unfixed variable of highest activity: it works where
//! the model's hardest part is, as the conflicts show it, whatever the model's order.
//!
//! The scores and the heap are `learn/vsids.rs`'s, over the variables' indices. A
//! variable found fixed at the top leaves the heap; it comes back when a backtrack restores
//! its domain (the history tells which variables changed at the levels undone). Ties go to
//! the smaller variable index, so the choice is deterministic.

use crate::ids::VarId;
use crate::learn::vsids::Vsids;

/// Activities of the variables, and the heap of the candidates for the next decision.
#[derive(Debug)]
pub(crate) struct Activity(Vsids);

impl Activity {
    /// All `num_vars` variables with activity zero, `decay` in (0, 1] (MiniSat uses 0.95).
    pub(crate) fn new(num_vars: usize, decay: f64) -> Activity {
        let mut scores = Vsids::new(decay);
        for _ in 0..num_vars {
            scores.push();
        }
        Activity(scores)
    }

    /// The activity of `x`.
    #[cfg(test)]
    pub(crate) fn score(&self, x: VarId) -> f64 {
        self.0.score(x.0)
    }

    /// Raises the activity of `x` by the current increment.
    pub(crate) fn bump(&mut self, x: VarId) {
        self.0.bump(x.0);
    }

    /// Ends a conflict: later bumps weigh more than the ones before.
    pub(crate) fn decay(&mut self) {
        self.0.decay();
    }

    /// Makes `x` a candidate again (its domain was restored), if it is not one.
    pub(crate) fn restore(&mut self, x: VarId) {
        self.0.restore(x.0);
    }

    /// The most active variable for which `open` holds; the ones on the way for which it
    /// does not leave the heap (until [`Activity::restore`]).
    pub(crate) fn most_active(&mut self, open: impl Fn(VarId) -> bool) -> Option<VarId> {
        while let Some(top) = self.0.top() {
            let x = VarId(top);
            if open(x) {
                return Some(x);
            }
            self.0.remove(top);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heap's choice against a scan over all open variables, after random bumps,
    /// removals and restorations.
    #[test]
    fn the_choice_is_the_most_active_open_variable_ties_to_the_smaller() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let n = 1 + next(12) as usize;
            let mut activity = Activity::new(n, 0.8);
            let mut open = vec![true; n];
            for _ in 0..60 {
                match next(4) {
                    0 => {
                        let x = VarId(next(n as u64) as u32);
                        activity.bump(x);
                        if next(3) == 0 {
                            activity.decay();
                        }
                    }
                    1 => open[next(n as u64) as usize] = false,
                    2 => {
                        let x = next(n as u64) as usize;
                        open[x] = true;
                        activity.restore(VarId(x as u32));
                    }
                    _ => {
                        let expected = (0..n)
                            .filter(|&i| open[i])
                            .map(|i| VarId(i as u32))
                            .max_by(|&a, &b| activity.score(a).total_cmp(&activity.score(b)).then(b.0.cmp(&a.0)));
                        assert_eq!(activity.most_active(|x| open[x.index()]), expected);
                    }
                }
            }
        }
    }

    #[test]
    fn scores_are_rescaled_without_changing_their_order() {
        let mut activity = Activity::new(3, 0.5);
        activity.bump(VarId(2));
        for _ in 0..400 {
            activity.bump(VarId(1));
            activity.decay();
        }
        assert!(activity.score(VarId(1)).is_finite());
        assert_eq!(activity.most_active(|_| true), Some(VarId(1)));
        assert_eq!(activity.most_active(|x| x != VarId(1)), Some(VarId(2)));
    }
}
