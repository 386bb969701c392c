//! How open the model is where the explanation stalls: where nothing short of a case split
//! moves it on, how many values can no single assumption refute, once the simple patterns
//! have been applied?
//!
//! A person stuck on a puzzle tries "what if x were v?" and follows the consequences. When
//! most of the values still open fall to such a try, the puzzle is nearly done; when few do,
//! the person faces a large open position with little to hold on to. The count of values
//! that survive every one-level try is what [`crate::explain::Explanation::difficulty`]
//! reads from a case split or a search step.
//!
//! Before trying, a person looks for **patterns**: two constraints that share variables,
//! seen together. A Sudoku's row and box share three cells; if the box can hold its 7 only
//! in those three, then so must the row, and the row's other cells lose the 7 (locked
//! candidates). Propagation, one constraint at a time, never sees this. Generically: project
//! the pair of groups by branching over their *shared* variables only (each group alone
//! answers for the rest, given the shared values), from the domains all the constraints
//! leave, and keep what some branch allows. Each pass projects every sharing pair, then all
//! the groups propagate what fell; the passes repeat until nothing falls (the *pattern
//! closure*). The tries are counted from there: a stall that patterns resolve costs as
//! little as a split can, and a stall they do not is measured where the patterns leave it.

use crate::domain::Val;
use crate::explain::subset::Narrowing;
use crate::explain::values::Values;
use crate::explain::Stall;
use crate::ids::VarId;

use super::Driver;

/// A pair of groups is projected only when the product of its shared open variables'
/// domain sizes is at most this: a pattern is something a person sees at a glance.
const MAX_PATTERN_BRANCHES: u64 = 1_000;

/// The pattern closure of one stall gives up after this many branching nodes (what it
/// removed so far stands: every removal is sound), so that a large model stays cheap.
const MAX_PATTERN_NODES: u64 = 200_000;

impl Driver<'_> {
    /// From the fixpoint of all groups with the known facts: every (variable, value) pair
    /// still open, and how many of them, assumed, make the groups contradict each other by
    /// propagation alone; the same from the pattern closure of that fixpoint.
    pub(super) fn stall(&mut self) -> Stall {
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let facts = self.known_facts();
        let Some(fixpoint) = self.probe_domains(&all, &facts, None, None, None) else {
            return Stall { open: 0, refuted: 0, patterned_open: 0, patterned_refuted: 0 };
        };
        let (open, refuted) = self.refutations(&fixpoint);
        // Patterns that contradict the fixpoint settle the stall: nothing is left open.
        let (patterned_open, patterned_refuted) =
            self.pattern_closure(&fixpoint).map_or((0, 0), |domains| self.refutations(&domains));
        Stall { open, refuted, patterned_open, patterned_refuted }
    }

    /// From these shown domains (a fixpoint of all groups): how many (variable, value)
    /// pairs are open, and how many of them one propagation from the assumption refutes.
    fn refutations(&mut self, domains: &[Values]) -> (usize, usize) {
        let (mut open, mut refuted) = (0, 0);
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let every_var = vec![true; domains.len()];
        if self.enter_within(&all, domains, &every_var) {
            let open_pairs: Vec<(VarId, Vec<Val>)> = self
                .config
                .shown
                .iter()
                .map(|&x| (x, self.solver.values(x).collect::<Vec<Val>>()))
                .filter(|(_, values)| values.len() > 1)
                .collect();
            for (x, values) in open_pairs {
                for v in values {
                    open += 1;
                    // Only what the assumption wakes runs again, from the fixpoint.
                    self.solver.open_level();
                    let holds =
                        self.solver.narrow(&Narrowing::Within(x, Values::single(v))) && self.solver.run_queued(None);
                    self.solver.store.close_level();
                    self.solver.store.queue.clear();
                    if !holds {
                        refuted += 1;
                    }
                }
            }
        }
        self.solver.leave_subset();
        (open, refuted)
    }

    /// Enters the subset of these groups with the shown variables marked in `narrow`
    /// narrowed to `domains`, and propagates; `false` on conflict. The caller leaves.
    fn enter_within(&mut self, groups: &[usize], domains: &[Values], narrow: &[bool]) -> bool {
        let subset = self.subset_of(groups);
        self.solver.enter_subset(&subset);
        let shown = &self.config.shown;
        let ok = (0..domains.len())
            .filter(|&i| narrow[i])
            .all(|i| self.solver.narrow(&Narrowing::Within(shown[i], domains[i].clone())));
        ok && self.solver.run_awake(None)
    }

    /// The domains that repeated pattern passes leave from `fixpoint` (see the module doc),
    /// or `None` when the patterns and the groups contradict each other.
    fn pattern_closure(&mut self, fixpoint: &[Values]) -> Option<Vec<Values>> {
        let pairs = self.sharing_pairs();
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let every_var = vec![true; fixpoint.len()];
        let mut domains = fixpoint.to_vec();
        let mut nodes = MAX_PATTERN_NODES;
        loop {
            let mut next = domains.clone();
            let mut fell = false;
            for &(g, h, ref shared) in &pairs {
                for (i, left) in self.pair_projection(g, h, shared, &domains, &mut nodes)? {
                    let kept = Values::from_ascending(next[i].iter().filter(|v| left.binary_search(v).is_ok()));
                    fell |= kept.len() < next[i].len();
                    next[i] = kept;
                }
            }
            if !fell {
                return Some(domains);
            }
            let ok = self.enter_within(&all, &next, &every_var);
            let reached = ok.then(|| self.shown_domains());
            self.solver.leave_subset();
            domains = reached?;
        }
    }

    /// The pairs of groups that share a shown variable, with the shared ones (by position
    /// among the shown variables), in a fixed order.
    fn sharing_pairs(&self) -> Vec<(usize, usize, Vec<usize>)> {
        let mut pairs = std::collections::BTreeMap::<(usize, usize), Vec<usize>>::new();
        for (i, groups) in self.groups_of.iter().enumerate() {
            for (k, &g) in groups.iter().enumerate() {
                for &h in &groups[k + 1..] {
                    pairs.entry((g.min(h), g.max(h))).or_default().push(i);
                }
            }
        }
        pairs.into_iter().map(|((g, h), shared)| (g, h, shared)).collect()
    }

    /// The projection of groups `g` and `h` from `domains`, branching over their open
    /// `shared` variables only: each open shown variable of the pair (by position) with
    /// the values some branch leaves; empty when the pair offers no pattern or is too
    /// large; `None` when no branch survives.
    fn pair_projection(
        &mut self,
        g: usize,
        h: usize,
        shared: &[usize],
        domains: &[Values],
        nodes: &mut u64,
    ) -> Option<Vec<(usize, Vec<Val>)>> {
        let branch: Vec<usize> = shared.iter().copied().filter(|&i| domains[i].len() > 1).collect();
        let branches = branch.iter().fold(1u64, |acc, &i| acc.saturating_mul(domains[i].len() as u64));
        if branch.is_empty() || branches > MAX_PATTERN_BRANCHES || *nodes < branches {
            return Some(Vec::new());
        }
        let mut in_scope = self.in_plumbing.clone();
        for k in [g, h] {
            for x in &self.group_vars[k] {
                if let Some(&i) = self.shown_at.get(x) {
                    in_scope[i] = true;
                }
            }
        }
        // A shared variable can lose a value too (each group allows it, not both at once),
        // but when every open variable is shared the branches are the pair's propagation.
        let scope: Vec<usize> = (0..domains.len()).filter(|&i| in_scope[i] && domains[i].len() > 1).collect();
        if scope.len() == branch.len() {
            return Some(Vec::new());
        }
        let mut seen: Vec<Vec<Val>> = vec![Vec::new(); scope.len()];
        let ok = self.enter_within(&[g, h], domains, &in_scope);
        let reached = ok && self.branches(&branch, &scope, &mut seen, nodes);
        self.solver.leave_subset();
        reached.then(|| {
            scope
                .into_iter()
                .zip(seen)
                .map(|(i, mut left)| {
                    left.sort_unstable();
                    left.dedup();
                    (i, left)
                })
                .collect()
        })
    }

    /// Depth-first over the open branching variables (shown, by position), propagating at
    /// each node; each leaf adds the values it leaves to `seen` (per variable of `scope`).
    /// Whether some leaf was reached.
    fn branches(&mut self, branch: &[usize], scope: &[usize], seen: &mut [Vec<Val>], nodes: &mut u64) -> bool {
        let shown = &self.config.shown;
        let Some(&i) = branch.iter().find(|&&i| self.solver.size(shown[i]) > 1) else {
            for (k, &j) in scope.iter().enumerate() {
                seen[k].extend(self.solver.values(shown[j]));
            }
            return true;
        };
        let x = shown[i];
        let mut any = false;
        for v in self.solver.values(x).collect::<Vec<Val>>() {
            *nodes = nodes.saturating_sub(1);
            self.solver.open_level();
            let ok = self.solver.narrow(&Narrowing::Within(x, Values::single(v))) && self.solver.run_queued(None);
            any |= ok && self.branches(branch, scope, seen, nodes);
            self.solver.store.close_level();
            self.solver.store.queue.clear();
        }
        any
    }
}
