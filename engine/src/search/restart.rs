//! Restarts: when a search goes back to the root, and what it keeps when it does.
//!
//! A search that wants one solution or an optimum may start again from the root now and
//! then, keeping what it learned: dom/wdeg's failure weights, the activities, the learned
//! nogoods, the phases of the newest solution, and the refuted part of the branch it
//! leaves (as nogoods, [`crate::SearchConfig::nogoods`]). A new run then takes other
//! decisions at the top of the tree, where a bad early choice costs most. *When* is a
//! [`RestartStrategy`]'s answer; [`LubyRestarts`] is the engine's.

use crate::branch::Decision;
use crate::solver::Solver;

use super::config::SearchConfig;

/// The `k`-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: the
/// universal restart schedule of Luby, Sinclair and Zuckerman (1993), within a constant
/// factor of the best fixed schedule for any run-time distribution.
pub fn luby(k: u64) -> u64 {
    let mut k = k.max(1);
    loop {
        // The smallest 2^i - 1 that is >= k.
        let mut power = 1u64;
        while power - 1 < k {
            power *= 2;
        }
        if power - 1 == k {
            return power / 2;
        }
        k -= power / 2 - 1;
    }
}

/// When a search goes back to the root, told by its failure count.
pub(crate) trait RestartStrategy: std::fmt::Debug {
    /// Whether a restart is due once the search has failed `failures` times in all.
    fn is_due(&self, failures: u64) -> bool;

    /// The search has just restarted, having failed `failures` times in all.
    fn restarted(&mut self, failures: u64);
}

/// Restart after `scale × luby(k)` failures in the `k`-th run.
#[derive(Debug, Clone)]
pub(crate) struct LubyRestarts {
    scale: u64,
    /// Restarts so far.
    restarts: u64,
    /// The failure count at which the current run ends.
    next_at: u64,
}

impl LubyRestarts {
    /// The schedule of `config`, starting when the search has failed `failures` times,
    /// if it restarts.
    pub(crate) fn of(config: &SearchConfig, failures: u64) -> Option<LubyRestarts> {
        config.restart_scale.map(|scale| LubyRestarts { scale, restarts: 0, next_at: failures + scale * luby(1) })
    }
}

impl RestartStrategy for LubyRestarts {
    fn is_due(&self, failures: u64) -> bool {
        failures >= self.next_at
    }

    fn restarted(&mut self, failures: u64) {
        self.restarts += 1;
        self.next_at = failures + self.scale * luby(self.restarts + 1);
    }
}

impl Solver {
    /// Goes back to the root from the branch `stack`, keeping what the search learned.
    /// `refuted`: every left branch on the stack with its right branch taken is a refuted
    /// subtree (not so in an enumeration past its first solution, where a solution that
    /// still counts may lie below it); with [`SearchConfig::nogoods`], they are posted as
    /// nogoods (into the learned ones' database where the search learns). The root is then
    /// propagated again by the caller.
    pub(crate) fn restart(&mut self, stack: &mut Vec<(Decision, bool)>, config: &SearchConfig, refuted: bool) {
        let nogoods = if config.nogoods && refuted {
            crate::propagators::nogood::from_branch(stack.iter().map(|&(d, right)| (d.literal(false), right)))
        } else {
            Vec::new()
        };
        while stack.pop().is_some() {
            self.store.close_level();
        }
        self.post_learned();
        self.reduce_learned();
        for nogood in nogoods {
            if self.keep_refuted(&nogood) {
                self.stats.nogoods += 1;
            } else if let Some(id) = self.post(Box::new(crate::propagators::Nogood::new(nogood))) {
                // It weighs in dom/wdeg once it has failed, not before.
                self.weights[id.index()] = 0;
                self.stats.nogoods += 1;
            }
        }
        self.next_run();
        self.stats.restarts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{luby, LubyRestarts, RestartStrategy};

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn runs_end_after_scale_times_luby_failures() {
        let mut r = LubyRestarts { scale: 10, restarts: 0, next_at: 10 };
        let mut failures = 0;
        let mut runs = Vec::new();
        for _ in 0..7 {
            let start = failures;
            while !r.is_due(failures) {
                failures += 1;
            }
            runs.push(failures - start);
            r.restarted(failures);
        }
        assert_eq!(runs, [10, 10, 20, 10, 10, 20, 40]);
    }
}
