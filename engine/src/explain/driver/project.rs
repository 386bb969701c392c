//! What a few constraints *together* say about their variables, beyond propagation.
//!
//! Propagation runs each constraint on its own and passes domains between them; it misses
//! what only holds for their conjunction. Column 3 of SEND + MORE = MONEY says
//! `E + c2 = N` and the all-different says `E ≠ N`; neither removes a value alone, but
//! together they leave `c2 = 1`. A person sees this by trying the few cases of the small
//! constraint against the large one; so does [`Driver::project`]: it branches over the
//! variables of every group but the one with the largest search space, propagates the
//! whole set at each leaf, and keeps the union of what the leaves leave.
//!
//! The result is sound: every solution of the groups with the facts goes through exactly
//! one leaf, and propagation never removes a value of a solution. It is exact when the
//! leaves fix everything (one group, or a large group that propagation decides once the
//! others are fixed). The cost is bounded by [`MAX_LEAVES`]; a set whose branching space
//! is larger gets plain propagation.

use crate::domain::Val;
use crate::ids::VarId;

use super::super::subset::Narrowing;
use super::super::values::Values;
use super::Driver;

/// The values that some leaf left, per shown variable in scope (by position in its root
/// domain, listed in `roots`).
struct Seen {
    vars: Vec<usize>,
    roots: Vec<Vec<Val>>,
    marks: Vec<Vec<bool>>,
}

/// A set of groups is branched over only when the product of its branching variables'
/// domain sizes is at most this.
pub(crate) const MAX_LEAVES: u64 = 2_000;

impl Driver<'_> {
    /// The shown domains that the groups leave from the facts (and `assume`): all of
    /// them, or those at the positions in `read`, in its order; `None` when they
    /// contradict. Propagation, then branching as the module doc says.
    pub(super) fn project(
        &mut self,
        groups: &[usize],
        facts: &[usize],
        assume: Option<(VarId, Val)>,
        read: Option<&[usize]>,
    ) -> Option<Vec<Values>> {
        if self.exact_by_propagation(groups) {
            return self.probe_domains(groups, facts, assume, None, read);
        }
        let ok = self.enter_and_propagate(groups, facts, assume, None);
        let result = if !ok {
            None
        } else {
            let branch = self.branching_vars(groups, &|x| self.solver.size(x));
            // Only the variables of these groups can change below; the rest keep what
            // propagation left.
            let mut in_scope: Vec<usize> = groups
                .iter()
                .flat_map(|&g| self.group_vars[g].iter().filter_map(|x| self.shown_at.get(x).copied()))
                .collect();
            in_scope.sort_unstable();
            in_scope.dedup();
            let roots: Vec<Vec<Val>> = in_scope.iter().map(|&i| self.root[i].to_vec()).collect();
            let marks = roots.iter().map(|root| vec![false; root.len()]).collect();
            let mut seen = Seen { vars: in_scope, roots, marks };
            let mut nodes = 4 * MAX_LEAVES;
            let mut domains = self.read_domains(read);
            match self.leaves(&branch, &mut seen, &mut nodes) {
                // Out of nodes: what propagation alone left.
                None => Some(domains),
                Some(false) => None,
                Some(true) => {
                    for (k, &i) in seen.vars.iter().enumerate() {
                        let at = match read {
                            None => Some(i),
                            Some(read) => read.iter().position(|&j| j == i),
                        };
                        if let Some(at) = at {
                            domains[at] = Values::from_ascending(
                                seen.roots[k].iter().zip(&seen.marks[k]).filter(|(_, &m)| m).map(|(&v, _)| v),
                            );
                        }
                    }
                    Some(domains)
                }
            }
        };
        self.solver.leave_subset();
        result
    }

    /// Whether propagation alone already gives what the cases would: one group of one
    /// domain-consistent propagator, and nothing else running (no plumbing). A chain of
    /// thousands of `x[i] < x[i+1]` would otherwise try thousands of cases per step.
    fn exact_by_propagation(&self, groups: &[usize]) -> bool {
        let [g] = groups else { return false };
        let [p] = self.config.groups[*g].as_slice() else { return false };
        self.plumbing_props == 0 && self.solver.props[p.index()].domain_consistent()
    }

    /// Whether branching over these groups is cheap enough (from the known domains).
    pub(super) fn projectable(&self, groups: &[usize]) -> bool {
        let known_size = |x: VarId| match self.shown_at.get(&x) {
            Some(&i) => self.known[i].len() as u64,
            None => self.solver.size(x),
        };
        let branch = self.branching_vars(groups, &known_size);
        branch.iter().fold(1u64, |acc, &x| acc.saturating_mul(known_size(x))) <= MAX_LEAVES
    }

    /// Every variable of the groups but those only the largest-space group has (all of
    /// them for one group), in a fixed order.
    fn branching_vars(&self, groups: &[usize], size: &dyn Fn(VarId) -> u64) -> Vec<VarId> {
        let space = |vars: &[VarId]| vars.iter().fold(1u64, |acc, &x| acc.saturating_mul(size(x)));
        let largest = if groups.len() > 1 {
            groups.iter().copied().max_by_key(|&g| (space(&self.group_vars[g]), std::cmp::Reverse(g)))
        } else {
            None
        };
        let mut vars: Vec<VarId> =
            groups.iter().filter(|&&g| Some(g) != largest).flat_map(|&g| self.group_vars[g].iter().copied()).collect();
        vars.sort();
        vars.dedup();
        vars
    }

    /// Depth-first over the open branching variables, propagating at each node; each leaf
    /// adds its shown domains to `seen`. `Some(true)` if a leaf was reached, `Some(false)`
    /// if none, `None` when `nodes` ran out.
    fn leaves(&mut self, branch: &[VarId], seen: &mut Seen, nodes: &mut u64) -> Option<bool> {
        let Some(&x) = branch.iter().find(|&&x| self.solver.size(x) > 1) else {
            for (k, &i) in seen.vars.iter().enumerate() {
                let root = &seen.roots[k];
                for v in self.solver.values(self.config.shown[i]) {
                    if let Ok(at) = root.binary_search(&v) {
                        seen.marks[k][at] = true;
                    }
                }
            }
            return Some(true);
        };
        let mut any = false;
        for v in self.solver.values(x).collect::<Vec<Val>>() {
            if *nodes == 0 {
                return None;
            }
            *nodes -= 1;
            self.solver.open_level();
            let ok = self.solver.narrow(&Narrowing::Within(x, Values::single(v))) && self.solver.run_awake(None);
            let below = if ok { self.leaves(branch, seen, nodes) } else { Some(false) };
            self.solver.store.close_level();
            self.solver.store.queue.clear();
            any |= below?;
        }
        Some(any)
    }

    pub(super) fn shown_domains(&self) -> Vec<Values> {
        self.config.shown.iter().map(|&x| self.solver.value_set(x)).collect()
    }

    /// The shown domains now: all of them, or those at the positions in `read`.
    pub(super) fn read_domains(&self, read: Option<&[usize]>) -> Vec<Values> {
        match read {
            None => self.shown_domains(),
            Some(read) => read.iter().map(|&i| self.solver.value_set(self.config.shown[i])).collect(),
        }
    }
}
