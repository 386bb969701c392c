//! How much of its tree a depth-first search has explored, told from its decision stack.
//!
//! Every decision splits its node in two: the left branch takes a share of the variable's
//! values (`x = v` one of `n`, `x ≤ v` those up to `v`), the right branch the rest. If the
//! tree below were as large for every value, a left subtree would hold that share of its
//! node's tree, and a search whose newest decision at depth `i` is on its right branch has
//! finished the left subtree there. The explored share of the whole tree is then the sum,
//! over the depths on a right branch, of the left share there times the shares of the
//! branches taken above it. It is Knuth's estimate of a backtrack tree's size (1975) read
//! off one path: rough where subtrees differ a lot, but it only grows as the search goes,
//! and the work done divided by it projects the work the whole tree takes.
//!
//! [`SearchConfig::probe`](crate::SearchConfig::probe) uses it to decide, after a little
//! work, whether a plain depth-first search (a model's own annotation, without learning)
//! will finish soon, or should give way to the main search. Measured on the MiniZinc
//! benchmarks (notes/learning.md): on cvrp the projection at 1,024 nodes
//! was 84 million propagations, and the tree took 99 million; on the scheduling instances,
//! where no plain search finishes in minutes, it is 10¹⁵ or more, or nothing is explored.

use crate::branch::Decision;
use crate::domain::Domain;
use crate::solver::Solver;

use super::config::{ActivitySearch, Probe, SearchConfig};

/// A probe under way: its progress, and when it gives way.
#[derive(Debug)]
pub(crate) struct ProbeRun {
    /// What it has explored: the search records its decisions and turns here.
    pub(crate) progress: Progress,
    max_propagations: u64,
    look_every: u64,
    overrun: f64,
    next_look: u64,
    /// The search's propagations when the probe began.
    start: u64,
    /// The first judged look's projection: the probe's promise.
    promised: Option<f64>,
    /// An improving solution came since the previous look.
    improved: bool,
}

impl ProbeRun {
    /// A probe beginning when the search has taken `nodes` nodes and run `propagations`
    /// propagators.
    pub(crate) fn new(probe: &Probe, nodes: u64, propagations: u64) -> ProbeRun {
        let look_every = probe.look_every.max(1);
        ProbeRun {
            progress: Progress::default(),
            max_propagations: probe.max_propagations,
            look_every,
            overrun: probe.overrun,
            next_look: nodes + look_every,
            start: propagations,
            promised: None,
            improved: false,
        }
    }

    /// The share of its budget a probe may spend on looks that come just after an improving
    /// solution ([`ProbeRun::gives_way`]): small, so that a branch and bound whose plain search
    /// keeps improving without finishing soon still leaves the main search nearly all the time.
    const AFTER_SOLUTION_SHARE: u64 = 128;

    /// The probe's search found a solution better than the one before.
    pub(crate) fn improved(&mut self) {
        self.improved = true;
    }

    /// After a branch, with the search at `nodes` nodes and `propagations` propagations and
    /// the stack's branches `right`: the probe's work, when it gives way. It looks every
    /// `look_every` nodes, and gives way when its work or its projection passes the most
    /// it may cost, when it projects nothing explored, or when it has done
    /// [`Probe::overrun`] times what its first judged look projected.
    ///
    /// A look that comes after an improving solution since the previous look judges
    /// nothing while the probe's work is within [`ProbeRun::AFTER_SOLUTION_SHARE`]th of its
    /// budget. The projection takes the subtrees still to come to be like those explored,
    /// but in branch and bound each new bound cuts the subtrees still to come, and most of
    /// the explored ones were searched under a looser bound: a look just after a solution
    /// overstates the work left the most. The next look, with the bound at work, judges.
    pub(crate) fn gives_way(
        &mut self,
        nodes: u64,
        propagations: u64,
        right: impl IntoIterator<Item = bool>,
    ) -> Option<u64> {
        if nodes < self.next_look {
            return None;
        }
        self.next_look = nodes + self.look_every;
        let work = propagations - self.start;
        if std::mem::take(&mut self.improved) && work <= self.max_propagations / Self::AFTER_SOLUTION_SHARE {
            return None;
        }
        let projected = self.progress.projected(work, right);
        let promised = *self.promised.get_or_insert(projected.unwrap_or(f64::INFINITY));
        let max = self.max_propagations as f64;
        let gives_way =
            work > self.max_propagations || projected.is_none_or(|p| p > max) || work as f64 > self.overrun * promised;
        gives_way.then_some(work)
    }
}

/// One decision on the stack.
#[derive(Debug, Clone, Copy)]
struct Step {
    /// The share of the node's values its left branch takes.
    left: f64,
    /// The search's node count when it was taken.
    nodes_at: u64,
    /// Its left branch's nodes, once the search is on its right branch.
    left_nodes: u64,
}

/// The decisions on the stack (index = depth of the decision).
#[derive(Debug, Default)]
pub(crate) struct Progress {
    steps: Vec<Step>,
}

impl Progress {
    /// Records the decision taken at stack depth `depth` on a variable whose domain is
    /// `domain`, before it is applied, when the search has taken `nodes` nodes. The entries
    /// past it belong to decisions popped since.
    pub(crate) fn decide(&mut self, depth: usize, decision: Decision, domain: &Domain, nodes: u64) {
        let size = domain.size().max(1) as f64;
        let left = match decision {
            Decision::Assign(..) => 1.0 / size,
            Decision::LessEq(_, v) => domain.count_in(domain.min, v) as f64 / size,
            Decision::Greater(_, v) => domain.count_in(v + 1, domain.max) as f64 / size,
            Decision::Exclude(..) => 1.0 - 1.0 / size,
        };
        self.steps.truncate(depth);
        self.steps.push(Step { left, nodes_at: nodes, left_nodes: 0 });
    }

    /// The search turns to the right branch of the decision at `depth`, having taken
    /// `nodes` nodes.
    pub(crate) fn turn_right(&mut self, depth: usize, nodes: u64) {
        if let Some(step) = self.steps.get_mut(depth) {
            step.left_nodes = nodes - step.nodes_at;
        }
    }

    /// The share of the tree explored, given the stack's branches (whether each decision is
    /// on its right branch), oldest first. A left branch that failed at once (one node) is
    /// no subtree: the decision only removed a value, as propagation does, and the node's
    /// tree is all in its right branch (a nonogram's rows, decided true and refuted at
    /// once, would otherwise look half done at every level).
    pub(crate) fn explored(&self, right: impl IntoIterator<Item = bool>) -> f64 {
        let (mut mass, mut done) = (1.0f64, 0.0f64);
        for (step, right) in self.steps.iter().zip(right) {
            if !right {
                mass *= step.left;
            } else if step.left_nodes > 1 {
                done += mass * step.left;
                mass *= 1.0 - step.left;
            }
        }
        done
    }

    /// The work the whole tree would take, from the work done so far: `None` while nothing
    /// is explored.
    pub(crate) fn projected(&self, work: u64, right: impl IntoIterator<Item = bool>) -> Option<f64> {
        let explored = self.explored(right);
        (explored > 0.0).then(|| work as f64 / explored)
    }
}

impl SearchConfig {
    /// The configuration of the probe that runs before this search, when one applies: the
    /// probe's groups, no learning, no restarts, no saved phases, and this search's goal
    /// and limits. Only where one solution or an optimum is wanted, and not in a split
    /// (`track`), a resumable search, a count or a projected search.
    pub(super) fn probe_phase(&self, track: bool) -> Option<(SearchConfig, &Probe)> {
        let one_answer = self.objective.is_some() || self.limits.solutions == Some(1) || self.first_only;
        let probe = self.probe.as_ref()?;
        (one_answer && !track && !self.resumable && !self.count_only && !self.project).then(|| {
            let config = SearchConfig {
                branching: probe.branching.clone(),
                restart_scale: None,
                phase_saving: false,
                learning: false,
                activity: ActivitySearch::Off,
                probe: None,
                ..self.clone()
            };
            (config, probe)
        })
    }
}

impl Solver {
    /// The probe gives way, having run `work` propagations: back to before the search's
    /// root, where the main search opens its own.
    pub(super) fn leave_probe(&mut self, stack: &mut Vec<(Decision, bool)>, work: u64) {
        while stack.pop().is_some() {
            self.store.close_level();
        }
        self.store.close_level();
        self.store.queue.clear();
        self.selector.release(&mut self.store);
        self.stats.probe_propagations += work;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::VarId;

    /// A complete binary tree of depth 3 (each decision `x ≤ lo` on a domain of two): the
    /// share explored before each leaf is its rank among the eight leaves.
    #[test]
    fn a_balanced_tree_is_explored_leaf_by_leaf() {
        let d = Domain::range(0, 1);
        let mut p = Progress::default();
        for leaf in 0..8u32 {
            let right: Vec<bool> = (0..3).map(|i| leaf >> (2 - i) & 1 == 1).collect();
            for (depth, &r) in right.iter().enumerate() {
                p.decide(depth, Decision::LessEq(VarId(depth as u32), 0), &d, 0);
                if r {
                    // Each left subtree below depth d holds 2^(3-d) - 1 nodes, more than one.
                    p.turn_right(depth, 7);
                }
            }
            assert!((p.explored(right.iter().copied()) - f64::from(leaf) / 8.0).abs() < 1e-12, "leaf {leaf}");
        }
    }

    /// `x = v` on a domain of four takes a quarter: on its right branch, a quarter is done,
    /// and the next value's left branch below weighs a quarter of the rest.
    #[test]
    fn an_assignment_takes_its_value_s_share() {
        let mut p = Progress::default();
        p.decide(0, Decision::Assign(VarId(0), 0), &Domain::range(0, 3), 10);
        assert_eq!(p.explored([false]), 0.0);
        p.turn_right(0, 15);
        assert!((p.explored([true]) - 0.25).abs() < 1e-12);
        p.decide(1, Decision::Assign(VarId(0), 1), &Domain::range(1, 3), 16);
        p.turn_right(1, 20);
        assert!((p.explored([true, true]) - (0.25 + 0.75 / 3.0)).abs() < 1e-12);
        assert_eq!(p.projected(100, [false, false]), None);
        assert!((p.projected(50, [true, false]).unwrap() - 200.0).abs() < 1e-9);
    }

    /// A probe whose projection passes its budget gives way at a look, but not at a look
    /// that comes just after an improving solution while its work is small; the look after
    /// that one judges again, and a solution does not excuse work past the share.
    #[test]
    fn a_look_just_after_an_improving_solution_waits_for_the_next() {
        let probe = Probe { branching: Vec::new(), max_propagations: 1 << 20, look_every: 10, overrun: 2.0 };
        let d = Domain::range(0, 999);
        // One finished subtree of a thousandth of the tree: a projection of 1,000 × work.
        let setup = |run: &mut ProbeRun| {
            run.progress.decide(0, Decision::Assign(VarId(0), 0), &d, 0);
            run.progress.turn_right(0, 5);
        };
        let mut plain = ProbeRun::new(&probe, 0, 0);
        setup(&mut plain);
        assert_eq!(plain.gives_way(10, 5_000, [true]), Some(5_000));

        let mut run = ProbeRun::new(&probe, 0, 0);
        setup(&mut run);
        run.improved();
        assert_eq!(run.gives_way(10, 5_000, [true]), None);
        assert_eq!(run.gives_way(20, 6_000, [true]), Some(6_000));

        let mut late = ProbeRun::new(&probe, 0, 0);
        setup(&mut late);
        late.improved();
        let past_share = (1 << 20) / ProbeRun::AFTER_SOLUTION_SHARE + 1;
        assert_eq!(late.gives_way(10, past_share, [true]), Some(past_share));
    }

    /// A left branch that failed at once explored nothing: the whole node is still to do.
    #[test]
    fn a_left_branch_failed_at_once_is_no_progress() {
        let d = Domain::range(0, 1);
        let mut p = Progress::default();
        for depth in 0..10 {
            p.decide(depth, Decision::Assign(VarId(depth as u32), 1), &d, 2 * depth as u64);
            p.turn_right(depth, 2 * depth as u64 + 1);
        }
        assert_eq!(p.explored([true; 10]), 0.0);
        // One real subtree at depth 3: half of what was left there.
        p.turn_right(3, 100);
        assert!((p.explored([true; 10]) - 0.5).abs() < 1e-12);
    }
}
