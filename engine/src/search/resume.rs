//! Going on where a resumable search stopped ([`crate::SearchConfig::resumable`]).

use crate::branch::Decision;
use crate::solver::Solver;

use super::config::SearchConfig;
use super::conflict::ConflictHandler;

/// The place where a resumable search stopped: its decision stack, each decision with
/// whether its right branch is the one taken, and whether the newest branch propagated
/// without failing.
#[derive(Debug, Clone)]
pub(crate) struct Resume {
    pub(super) stack: Vec<(Decision, bool)>,
    pub(super) ok: bool,
}

impl Solver {
    /// Rebuilds the node where a resumable search stopped, from the propagated root: each
    /// saved decision opens a level with the branch taken, as [`Solver::branch`] did. The
    /// newest branch, if it failed, is not propagated again (that would count the failure,
    /// and raise a dom/wdeg weight, twice): an empty level stands for it, which the search
    /// closes at once as it backtracks. Returns whether the node propagated without failing.
    pub(super) fn replay(
        &mut self,
        saved: Resume,
        stack: &mut Vec<(Decision, bool)>,
        conflicts: &mut dyn ConflictHandler,
        config: &SearchConfig,
    ) -> bool {
        let nodes = self.stats.nodes;
        let last = saved.stack.len().saturating_sub(1);
        for (i, &(decision, right)) in saved.stack.iter().enumerate() {
            stack.push((decision, right));
            if i == last && !saved.ok {
                self.open_level();
                break;
            }
            let ok = self.branch(conflicts, decision, right, config, None);
            // Propagation that is not deterministic is a propagator bug, as is a solution
            // accepted that violates a constraint (`check_solutions`): going on would miss
            // or repeat solutions, so say so.
            assert!(
                ok,
                "replaying a resumed search failed where the search had not: a propagator is not deterministic"
            );
        }
        // Replaying is not searching.
        self.stats.nodes = nodes;
        saved.ok
    }
}
