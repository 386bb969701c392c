//! The step loop: find the candidates, explain each as simply as possible, tell the
//! simplest, check it, learn its conclusion, and go on.

mod project;
mod stall;
mod sums;

pub use sums::{permutation_sum, PermutationSum};

use crate::domain::Val;
use crate::ids::{PropId, VarId};
use crate::solver::Solver;

use super::subset::Narrowing;
use super::values::Values;
use super::verify::Verdict;
use super::{Conclusion, Ending, ExplainConfig, ExplainError, Explanation, Fact, Reasoning, Step};

/// A shown variable with more values than this cannot be a fact.
pub const MAX_FACT_VALUES: u64 = 4096;

/// When more groups than this take part in what propagation fixes, and no few of them fix
/// it, the steps go along the way, one group each (`towards_fixpoint`), rather than one
/// step citing them all. Grid puzzles stay below it (a Sudoku has 27 groups: its steps,
/// and the grade fitted on them, are told as before); long chains of constraints, whose
/// single step would cite hundreds, go above.
const MAX_TOLD_GROUPS: usize = 50;

/// Sets of more groups than this are explained by propagation only: three is as many
/// constraints as a person keeps in mind for one deduction.
const MAX_PROJECTED_GROUPS: usize = 3;

/// At most this many sets of groups of one size are tried together in a step.
const MAX_PROJECTED_SETS: usize = 5_000;

/// Of the single constraints that fix a variable, this many (those with the fewest facts
/// in scope) have their facts minimised and are compared.
const MINIMISED_SINGLES: usize = 4;

/// Of the failing assumptions found for a case split, this many (those with the fewest
/// groups taking part) are minimised and compared.
const MINIMISED_SPLITS: usize = 2;

/// A step citing more groups than this (a case split, or a direct step) is told as a chain
/// of small steps, when one is found ([`Driver::chained`]): as many constraints as a person
/// weighs in one step.
const MAX_STEP_GROUPS: usize = 6;

/// A chain under a step's assumption has at most this many steps before those the
/// contradiction does not rest on are left out (the steps come simplest first, not
/// nearest the contradiction first: a Sudoku's may fill much of the grid).
const MAX_CHAIN_STEPS: usize = 200;

/// What one group reached alone: the number of facts in its scope, and the domains it left
/// its own shown variables, by position (`None`: a contradiction).
type Reached = (usize, Option<Vec<(usize, Values)>>);

/// The fixpoint of all the groups from the known facts: the shown domains there (`None`:
/// a conflict) and the groups that pruned on the way.
struct Fixpoint {
    domains: Option<Vec<Values>>,
    active_groups: Vec<usize>,
}

/// What a probe must reach.
#[derive(Debug, Clone)]
enum Goal {
    /// The shown variable (by position) ends within these values.
    Within(usize, Values),
    /// A conflict.
    Conflict,
}

struct Driver<'a> {
    solver: &'a mut Solver,
    config: &'a ExplainConfig,
    /// Root domain of each shown variable.
    root: Vec<Values>,
    /// Known domain of each shown variable.
    known: Vec<Values>,
    /// Propagators in no group: they run in every probe.
    plumbing: Vec<bool>,
    /// How many propagators are in no group (counted once: every projection asks).
    plumbing_props: usize,
    /// The variables of each group.
    group_vars: Vec<Vec<VarId>>,
    /// The groups over each shown variable.
    groups_of: Vec<Vec<usize>>,
    /// Position of each variable among the shown ones.
    shown_at: std::collections::HashMap<VarId, usize>,
    /// How often a variable of each group was narrowed: a set of groups whose versions
    /// did not change since it was tried gives what it gave then.
    versions: Vec<u64>,
    /// The connected sets of 1, 2, 3 groups, built once.
    connected: Vec<Vec<Vec<usize>>>,
    /// Sets that fixed nothing, with the sum of their groups' versions then.
    fruitless: std::collections::HashMap<Vec<usize>, u64>,
    /// Which shown variables the plumbing (propagators in no group) reads, and how often
    /// one of them was narrowed: every probe sees the plumbing's facts.
    in_plumbing: Vec<bool>,
    plumbing_version: u64,
    /// Whether the model's equations were searched for a counting argument (once is
    /// enough: they do not change).
    sum_tried: bool,
    /// What each group reached alone, with the version of its facts then.
    alone_cache: Vec<Option<(u64, Reached)>>,
    /// Shown variables whose own groups did not fix them, with the version of their facts then.
    own_fruitless: Vec<Option<u64>>,
    /// The fixpoint of all the groups, kept while the steps only learn what it holds
    /// already (their conclusions contain its domains: facts that narrow no further leave
    /// the fixpoint where it was); long models take thousands of such steps.
    fixpoint: Option<std::rc::Rc<Fixpoint>>,
    /// Whether the kept fixpoint was computed from the facts known now: its domains stay
    /// right as steps go, but the groups that prune from the newer facts are fewer, and a
    /// step minimised over them reads differently.
    fixpoint_fresh: bool,
    /// Whether the steps being found are a step's chain (no chain within a chain).
    in_chain: bool,
}

impl Solver {
    /// Explains, step by step, how the model's shown variables get their values. See the
    /// [module documentation](crate::explain).
    pub fn explain(&mut self, config: &ExplainConfig) -> Result<Explanation, ExplainError> {
        if self.stats.propagations > 0 {
            return Err(ExplainError::RootPropagated);
        }
        if self.is_failed() {
            // The givens contradict each other as they are posted: nothing to deduce.
            return Ok(Explanation { steps: Vec::new(), ending: Ending::NoSolution, known: Vec::new() });
        }
        let mut root = Vec::with_capacity(config.shown.len());
        for &x in &config.shown {
            if self.size(x) > MAX_FACT_VALUES {
                return Err(ExplainError::DomainTooLarge(x));
            }
            root.push(self.value_set(x));
        }
        let mut plumbing = vec![true; self.props.len()];
        let mut group_vars = Vec::with_capacity(config.groups.len());
        for group in &config.groups {
            let mut vars = Vec::new();
            for &p in group {
                plumbing[p.index()] = false;
                vars.extend(self.props[p.index()].vars());
            }
            vars.sort();
            vars.dedup();
            group_vars.push(vars);
        }
        let shown_at: std::collections::HashMap<VarId, usize> =
            config.shown.iter().enumerate().map(|(i, &x)| (x, i)).collect();
        let mut groups_of = vec![Vec::new(); config.shown.len()];
        for (g, vars) in group_vars.iter().enumerate() {
            for x in vars {
                if let Some(&i) = shown_at.get(x) {
                    groups_of[i].push(g);
                }
            }
        }
        let known = root.clone();
        let versions = vec![0; config.groups.len()];
        let mut driver = Driver {
            solver: self,
            config,
            root,
            known,
            plumbing_props: plumbing.iter().filter(|&&p| p).count(),
            plumbing,
            group_vars,
            groups_of,
            shown_at,
            versions,
            connected: Vec::new(),
            fruitless: Default::default(),
            in_plumbing: Vec::new(),
            plumbing_version: 0,
            sum_tried: false,
            alone_cache: vec![None; config.groups.len()],
            own_fruitless: vec![None; config.shown.len()],
            fixpoint: None,
            fixpoint_fresh: false,
            in_chain: false,
        };
        driver.in_plumbing = driver.plumbing_scope();
        driver.run()
    }
}

impl Driver<'_> {
    fn run(&mut self) -> Result<Explanation, ExplainError> {
        let (steps, ending) = self.steps(self.config.max_steps)?;
        let known =
            self.config.shown.iter().zip(&self.known).map(|(&var, v)| Fact { var, values: v.clone() }).collect();
        Ok(Explanation { steps, ending, known })
    }

    /// Steps from the known facts until the model is solved, a contradiction is reached,
    /// nothing short follows, or `max_steps` were told; each is checked, and its
    /// conclusion learned.
    fn steps(&mut self, max_steps: usize) -> Result<(Vec<Step>, Ending), ExplainError> {
        let mut steps = Vec::new();
        let ending = loop {
            if let Some(stop) = self.solver.stop.requested() {
                break Ending::Stopped(Some(stop));
            }
            if steps.len() >= max_steps {
                break Ending::Stopped(None);
            }
            // Every variable known is a solution only when the constraints hold: on the
            // way to a contradiction, steps may fix them all first.
            if self.known.iter().all(Values::is_single) && self.consistent() {
                break Ending::Solved;
            }
            let step = match self.next_step()? {
                Ok(step) => step,
                Err(ending) => break ending,
            };
            self.check(&step)?;
            let contradiction = step.conclusion == Conclusion::Contradiction;
            if let Conclusion::Narrowed(fact) = &step.conclusion {
                let i = self.shown_at[&fact.var];
                let holds = self
                    .fixpoint
                    .as_ref()
                    .is_some_and(|f| f.domains.as_ref().is_some_and(|domains| domains[i].is_subset(&fact.values)));
                if !holds {
                    self.fixpoint = None;
                }
                self.fixpoint_fresh = false;
                self.learn(i, fact.values.clone());
            }
            steps.push(step);
            if contradiction {
                break Ending::NoSolution;
            }
        };
        Ok((steps, ending))
    }

    /// The shown variable `i` is now known to be within `values`: what was kept about the
    /// groups over it is out of date.
    fn learn(&mut self, i: usize, values: Values) {
        self.known[i] = values;
        for &g in &self.groups_of[i] {
            self.versions[g] += 1;
        }
        if self.in_plumbing[i] {
            self.plumbing_version += 1;
        }
    }

    /// A case split or a direct step that cites more than [`MAX_STEP_GROUPS`] groups,
    /// told instead as the small steps from an assumption to a contradiction, when each of
    /// those cites fewer (a person follows a chain of short deductions, not a dozen
    /// constraints at once): for a split, its assumption; for a direct step, that its
    /// conclusion is false. The step itself keeps its groups and is checked as before; each
    /// step of the chain is checked on its own.
    fn chained(&mut self, step: Step) -> Result<Step, ExplainError> {
        if step.groups.len() <= MAX_STEP_GROUPS || self.in_chain {
            return Ok(step);
        }
        let (i, assumed) = match (&step.reasoning, &step.conclusion) {
            (Reasoning::CaseSplit { var, value }, _) => (self.shown_at[var], Values::single(*value)),
            (Reasoning::Direct, Conclusion::Narrowed(fact)) => {
                let i = self.shown_at[&fact.var];
                (i, Values::from_ascending(self.known[i].iter().filter(|&v| !fact.values.contains(v))))
            }
            _ => return Ok(step),
        };
        let known = self.known.clone();
        let (fixpoint, fresh, sum_tried) = (self.fixpoint.take(), self.fixpoint_fresh, self.sum_tried);
        self.in_chain = true;
        self.learn(i, assumed);
        let outcome = self.steps(MAX_CHAIN_STEPS);
        // Back to the facts before the assumption. The versions only grow: what was kept
        // under the assumption is never taken for what holds without it.
        for (j, values) in known.into_iter().enumerate() {
            if self.known[j] != values {
                self.learn(j, values);
            }
        }
        (self.fixpoint, self.fixpoint_fresh, self.sum_tried, self.in_chain) = (fixpoint, fresh, sum_tried, false);
        let (chain, ending) = outcome?;
        let chain = needed(chain);
        let largest = chain.iter().map(|s| s.groups.len()).max().unwrap_or(usize::MAX);
        let plain = chain.iter().all(|s| matches!(s.reasoning, Reasoning::Direct | Reasoning::Sum { .. }));
        if ending != Ending::NoSolution || !plain || largest >= step.groups.len() {
            return Ok(step);
        }
        Ok(Step { chain, ..step })
    }

    /// Whether the propagation of all the groups from the known facts ends without a
    /// conflict.
    fn consistent(&mut self) -> bool {
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let facts = self.known_facts();
        self.probe_domains(&all, &facts, None, None, None).is_some()
    }

    /// The simplest next step, or why there is none.
    fn next_step(&mut self) -> Result<Result<Step, Ending>, ExplainError> {
        let fixpoint = self.fixpoint();
        let active_groups = &fixpoint.active_groups;
        let Some(domains) = &fixpoint.domains else {
            // No solution. The propagation of everything found it, but what it cites can be
            // most of the model: first the small steps a person takes towards the
            // contradiction (as on the way to a solution), each told when a few
            // constraints reach it.
            if let Some(step) = self.towards_contradiction() {
                return Ok(Ok(step));
            }
            let (groups, facts) = self.minimise(active_groups, None, &Goal::Conflict);
            return Ok(Ok(self.step(Reasoning::Direct, groups, facts, Conclusion::Contradiction)));
        };
        let narrowed: Vec<usize> = (0..domains.len()).filter(|&i| domains[i].len() < self.known[i].len()).collect();
        let fixed: Vec<usize> = narrowed.iter().copied().filter(|&i| domains[i].is_single()).collect();
        if !fixed.is_empty() {
            let step = self.direct_step(&fixed, domains, active_groups);
            return Ok(Ok(self.chained(step)?));
        }
        // What a few constraints together fix, as a person tries the cases of a small one.
        if let Some(step) = self.projection_step() {
            return Ok(Ok(step));
        }
        // Equations that cannot all hold, by counting: no case split needed.
        if let Some(step) = self.sum_step() {
            return Ok(Ok(step));
        }
        // A case split that fixes a variable reads better than a narrowing.
        if let Some(step) = self.case_split(true) {
            let step = self.chained(step)?;
            return Ok(Ok(self.with_stall(step)));
        }
        if !narrowed.is_empty() {
            let step = self.direct_step(&narrowed, domains, active_groups);
            return Ok(Ok(self.chained(step)?));
        }
        if let Some(step) = self.case_split(false) {
            let step = self.chained(step)?;
            return Ok(Ok(self.with_stall(step)));
        }
        Ok(self.beyond_propagation()?.map(|step| self.with_stall(step)))
    }

    /// The fixpoint of all the groups from the known facts (kept from step to step, see
    /// [`Driver::fixpoint`]'s field).
    fn fixpoint(&mut self) -> std::rc::Rc<Fixpoint> {
        if let Some(fixpoint) = &self.fixpoint {
            return fixpoint.clone();
        }
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let facts = self.known_facts();
        let mut active = vec![false; self.solver.props.len()];
        let domains = self.probe_domains(&all, &facts, None, Some(&mut active), None);
        let active_groups = self.active_groups(&active);
        // A conflict is told by steps whose facts do narrow it: recomputed each time.
        let fixpoint = std::rc::Rc::new(Fixpoint { domains, active_groups });
        self.fixpoint_fresh = true;
        if fixpoint.domains.is_some() {
            self.fixpoint = Some(fixpoint.clone());
        }
        fixpoint
    }

    /// The groups that prune on the way from the facts known now to the fixpoint.
    fn fresh_active_groups(&mut self) -> Vec<usize> {
        if !self.fixpoint_fresh {
            self.fixpoint = None;
        }
        self.fixpoint().active_groups.clone()
    }

    /// A case split or a search, with what the position offered before it (the grade
    /// reads it: [`super::Explanation::difficulty`]).
    fn with_stall(&mut self, step: Step) -> Step {
        Step { stall: Some(self.stall()), ..step }
    }

    /// The simplest direct explanation among the candidates.
    fn direct_step(&mut self, candidates: &[usize], domains: &[Values], active_groups: &[usize]) -> Step {
        let mut best: Option<(usize, usize, Step)> = None;
        let consider = |step: Step, best: &mut Option<(usize, usize, Step)>| {
            let cost = (step.groups.len(), step.facts.len());
            if best.as_ref().is_none_or(|(g, f, _)| cost < (*g, *f)) {
                *best = Some((cost.0, cost.1, step));
            }
        };
        // Single groups that reach a candidate; minimising their facts costs a probe per
        // fact, so only those with the fewest facts in scope are minimised. What each group
        // reaches alone is kept from step to step (`Driver::alone`).
        let mut considered: Vec<usize> = Vec::new();
        let mut is_considered = vec![false; self.config.groups.len()];
        let mut singles: Vec<(usize, usize, usize)> = Vec::new();
        for &i in candidates {
            for k in 0..self.groups_of[i].len() {
                let g = self.groups_of[i][k];
                if !is_considered[g] {
                    is_considered[g] = true;
                    considered.push(g);
                }
                let (facts, reached) = self.alone(g);
                let within = match reached {
                    None => true,
                    Some(own) => own.iter().any(|(j, d)| *j == i && d.is_subset(&domains[i])),
                };
                if within {
                    singles.push((*facts, i, g));
                }
            }
        }
        singles.sort_unstable();
        for &(_, i, g) in singles.iter().take(MINIMISED_SINGLES) {
            let goal = Goal::Within(i, domains[i].clone());
            let (groups, facts) = self.minimise(&[g], None, &goal);
            let step = self.step(Reasoning::Direct, groups, facts, self.narrowed(i, &domains[i]));
            consider(step, &mut best);
        }
        // Next, the constraints over the variable itself (a cell's row, column and box: a
        // naked single), one probe per candidate; the fewest facts in scope are minimised.
        if best.is_none() {
            let mut own: Vec<(usize, usize)> = Vec::new();
            for &i in candidates {
                let groups = self.groups_of[i].clone();
                if groups.len() < 2 {
                    continue;
                }
                // Unchanged facts, and a goal at most as wide as before (the fixpoint only
                // narrows): what did not reach it then does not now.
                let stamp: u64 = groups.iter().map(|&g| self.versions[g]).sum::<u64>() + self.plumbing_version;
                if self.own_fruitless[i] == Some(stamp) {
                    continue;
                }
                let goal = Goal::Within(i, domains[i].clone());
                let facts = self.scope_facts(&groups);
                if self.reaches(&groups, &facts, None, &goal) {
                    own.push((facts.len(), i));
                } else {
                    self.own_fruitless[i] = Some(stamp);
                }
            }
            own.sort_unstable();
            for &(_, i) in own.iter().take(MINIMISED_SINGLES) {
                let goal = Goal::Within(i, domains[i].clone());
                let (groups, facts) = self.minimise(&self.groups_of[i].clone(), None, &goal);
                let step = self.step(Reasoning::Direct, groups, facts, self.narrowed(i, &domains[i]));
                consider(step, &mut best);
            }
        }
        // Only many constraints together fix or narrow the candidates (a long chain of
        // them): rather than one step citing the whole chain, the steps along it, each one
        // constraint moving a bound to where the chain puts it.
        if best.is_none() && active_groups.len() > MAX_TOLD_GROUPS {
            if let Some(step) = self.towards_fixpoint(domains, &considered) {
                return step;
            }
        }
        if best.is_none() {
            let active_groups = self.fresh_active_groups();
            for &i in candidates.iter().take(self.config.candidates) {
                let goal = Goal::Within(i, domains[i].clone());
                let (groups, facts) = self.minimise(&active_groups, None, &goal);
                let step = self.step(Reasoning::Direct, groups, facts, self.narrowed(i, &domains[i]));
                consider(step, &mut best);
            }
        }
        best.expect("a candidate is always explained by the constraints that found it").2
    }

    /// Of what the `considered` groups reach alone from the known facts (`Driver::alone`,
    /// filled this step), the narrowing that moves a variable's bound to its bound at the
    /// fixpoint of all groups (`domains`), the fewest facts in scope first, then the
    /// earliest group and variable. `None`: no single group moves a bound that far.
    fn towards_fixpoint(&mut self, domains: &[Values], considered: &[usize]) -> Option<Step> {
        let mut groups = considered.to_vec();
        groups.sort_unstable();
        let mut best: Option<(usize, usize, usize)> = None;
        for g in groups {
            // Filled this step by `direct_step`.
            let Some((_, (facts, Some(reached)))) = &self.alone_cache[g] else { continue };
            for (i, now) in reached {
                let (known, fixpoint) = (&self.known[*i], &domains[*i]);
                if now.is_empty() || now.len() >= known.len() {
                    continue;
                }
                let lower = now.min() > known.min() && now.min() == fixpoint.min();
                let upper = now.max() < known.max() && now.max() == fixpoint.max();
                if (lower || upper) && best.is_none_or(|(f, _, _)| *facts < f) {
                    best = Some((*facts, g, *i));
                }
            }
        }
        let (_, g, i) = best?;
        let values = self.alone(g).1.as_ref()?.iter().find(|(j, _)| *j == i)?.1.clone();
        let goal = Goal::Within(i, values.clone());
        let (groups, facts) = self.minimise(&[g], None, &goal);
        Some(self.step(Reasoning::Direct, groups, facts, self.narrowed(i, &values)))
    }

    /// What group `g` reaches alone from the known facts in its scope (by propagation, or
    /// its cases when few): kept from step to step while those facts stand (long models
    /// have many groups, and each step changes few).
    fn alone(&mut self, g: usize) -> &Reached {
        let stamp = self.versions[g] + self.plumbing_version;
        if self.alone_cache[g].as_ref().is_none_or(|(at, _)| *at != stamp) {
            let facts = self.scope_facts(&[g]);
            let own: Vec<usize> = self.group_vars[g].iter().filter_map(|x| self.shown_at.get(x).copied()).collect();
            let reached = if self.projectable(&[g]) {
                self.project(&[g], &facts, None, Some(&own))
            } else {
                self.probe_domains(&[g], &facts, None, None, Some(&own))
            };
            // Only the group's own variables are read from it.
            let own = reached.map(|domains| own.into_iter().zip(domains).collect());
            self.alone_cache[g] = Some((stamp, (facts.len(), own)));
        }
        &self.alone_cache[g].as_ref().expect("just filled").1
    }

    /// "If x = v, contradiction": the simplest such step, trying the open variables with
    /// the fewest values first.
    fn case_split(&mut self, fixing_only: bool) -> Option<Step> {
        let all: Vec<usize> = (0..self.config.groups.len()).collect();
        let facts = self.known_facts();
        let mut open: Vec<usize> = (0..self.known.len())
            .filter(|&i| self.known[i].len() > 1 && (!fixing_only || self.known[i].len() == 2))
            .collect();
        open.sort_by_key(|&i| (self.known[i].len(), i));
        // Failing assumptions, with the groups that took part: the fewest groups are the
        // likeliest simplest step, and minimising costs a propagation per group and fact,
        // so only the most promising few are minimised.
        let mut failing: Vec<(usize, usize, Val, Vec<usize>)> = Vec::new();
        // Each assumption is propagated from the fixpoint of all groups and the facts,
        // computed once: only what the assumption wakes runs again. The groups that took
        // part are those that pruned to reach that fixpoint or after the assumption.
        let mut base_active = vec![false; self.solver.props.len()];
        let base = self.enter_and_propagate(&all, &facts, None, Some(&mut base_active));
        if base {
            'search: for i in open {
                for v in self.known[i].to_vec() {
                    let assume = (self.config.shown[i], v);
                    let mut active = base_active.clone();
                    self.solver.open_level();
                    let fails = !(self.solver.narrow(&Narrowing::Within(assume.0, Values::single(v)))
                        && self.solver.run_queued(Some(&mut active)));
                    self.solver.store.close_level();
                    self.solver.store.queue.clear();
                    if fails {
                        failing.push((0, i, v, self.active_groups(&active)));
                        if failing.len() >= self.config.candidates {
                            break 'search;
                        }
                    }
                }
            }
        }
        self.solver.leave_subset();
        for f in &mut failing {
            f.0 = f.3.len();
        }
        failing.sort_by_key(|f| f.0);
        let mut best: Option<Step> = None;
        for (_, i, v, active_groups) in failing.into_iter().take(MINIMISED_SPLITS) {
            let assume = (self.config.shown[i], v);
            let (groups, mut facts) = self.minimise(&active_groups, Some(assume), &Goal::Conflict);
            // The conclusion "x ∈ K \ {v}" rests on the fact "x ∈ K" too.
            if self.known[i].len() < self.root[i].len() && !facts.contains(&i) {
                facts.push(i);
                facts.sort();
            }
            let rest = self.known[i].without(v);
            let step =
                self.step(Reasoning::CaseSplit { var: assume.0, value: v }, groups, facts, self.narrowed(i, &rest));
            if best.as_ref().is_none_or(|b| (step.groups.len(), step.facts.len()) < (b.groups.len(), b.facts.len())) {
                best = Some(step);
            }
        }
        best
    }

    /// Propagation and one-level case splits are exhausted: either the model has several
    /// solutions from here (a free pick), or a search decides the next variable.
    fn beyond_propagation(&mut self) -> Result<Result<Step, Ending>, ExplainError> {
        let all_props = self.props_of(&(0..self.config.groups.len()).collect::<Vec<_>>());
        let facts = self.narrowings(&self.known_facts());
        let budget = self.config.verify_budget;
        let solution = match self.solver.refute(&all_props, &facts, budget) {
            Verdict::Holds => return Ok(Err(Ending::NoSolutionBySearch)),
            Verdict::Unfinished => return Ok(Err(Ending::Stopped(None))),
            Verdict::Counterexample(solution) => solution,
        };
        let i = (0..self.known.len()).find(|&i| self.known[i].len() > 1).expect("an open variable");
        let x = self.config.shown[i];
        // A variable in no constraint is not in the solution: any of its values is one.
        let value =
            solution.iter().find(|(y, _)| *y == x).map_or_else(|| self.known[i].min().expect("a domain"), |&(_, v)| v);
        let mut other = facts.clone();
        other.push(Narrowing::Without(x, Values::single(value)));
        match self.solver.refute(&all_props, &other, budget) {
            Verdict::Counterexample(_) => Ok(Err(Ending::FreeChoice { var: x })),
            Verdict::Unfinished => Ok(Err(Ending::Stopped(None))),
            Verdict::Holds => {
                // x = value in every solution, but only a search shows it: a case split
                // on every other value at once, with all the constraints.
                let groups = (0..self.config.groups.len()).collect();
                let facts = self.known_facts();
                let conclusion = self.narrowed(i, &Values::single(value));
                Ok(Ok(self.step(Reasoning::Search, groups, facts, conclusion)))
            }
        }
    }

    fn step(&mut self, reasoning: Reasoning, groups: Vec<usize>, facts: Vec<usize>, conclusion: Conclusion) -> Step {
        let clash = match (&reasoning, &conclusion) {
            (Reasoning::Direct, Conclusion::Contradiction) => self.clash(&groups, &facts),
            _ => None,
        };
        let facts =
            facts.into_iter().map(|i| Fact { var: self.config.shown[i], values: self.known[i].clone() }).collect();
        Step { reasoning, groups, facts, conclusion, stall: None, clash, chain: Vec::new() }
    }

    /// Of a contradiction's facts, one that the groups exclude from the others: the
    /// values they leave its variable (see [`Step::clash`]).
    fn clash(&mut self, groups: &[usize], facts: &[usize]) -> Option<Fact> {
        for (k, &i) in facts.iter().enumerate() {
            let mut others = facts.to_vec();
            others.remove(k);
            if let Some(domains) = self.probe_domains(groups, &others, None, None, None) {
                if domains[i].iter().all(|v| !self.known[i].contains(v)) {
                    return Some(Fact { var: self.config.shown[i], values: domains[i].clone() });
                }
            }
        }
        None
    }

    fn narrowed(&self, i: usize, values: &Values) -> Conclusion {
        Conclusion::Narrowed(Fact { var: self.config.shown[i], values: values.clone() })
    }

    /// The independent check of a step, before it is told.
    fn check(&mut self, step: &Step) -> Result<(), ExplainError> {
        check_step(self.solver, &self.config.groups, &self.props_of(&step.groups), step, self.config.verify_budget)
    }

    /// The fewest groups, then the fewest facts, that still reach `goal`, by deletion.
    fn minimise(&mut self, groups: &[usize], assume: Option<(VarId, Val)>, goal: &Goal) -> (Vec<usize>, Vec<usize>) {
        let mut groups = groups.to_vec();
        let mut k = groups.len();
        while k > 0 && groups.len() > 1 {
            k -= 1;
            let mut fewer = groups.clone();
            fewer.remove(k);
            if self.reaches(&fewer, &self.scope_facts(&fewer), assume, goal) {
                groups = fewer;
            }
        }
        let mut facts = self.scope_facts(&groups);
        let mut k = facts.len();
        while k > 0 {
            k -= 1;
            let mut fewer = facts.clone();
            fewer.remove(k);
            if self.reaches(&groups, &fewer, assume, goal) {
                facts = fewer;
            }
        }
        groups.sort();
        (groups, facts)
    }

    /// Whether the groups from the facts reach the goal: by propagation, or, for a few
    /// groups with a small space, by trying their cases (`project`).
    fn reaches(&mut self, groups: &[usize], facts: &[usize], assume: Option<(VarId, Val)>, goal: &Goal) -> bool {
        // Only the goal's variable is read.
        let read: Vec<usize> = match goal {
            Goal::Within(i, _) => vec![*i],
            Goal::Conflict => Vec::new(),
        };
        let meets = |domains: Option<Vec<Values>>| match (domains, goal) {
            (None, Goal::Conflict) => true,
            (Some(domains), Goal::Within(_, values)) => domains[0].is_subset(values),
            _ => false,
        };
        if meets(self.probe_domains(groups, facts, assume, None, Some(&read))) {
            return true;
        }
        groups.len() <= MAX_PROJECTED_GROUPS
            && self.projectable(groups)
            && meets(self.project(groups, facts, assume, Some(&read)))
    }

    /// On the way to a contradiction (the propagation of all the groups fails): what
    /// one, two or three connected groups fix or contradict, by propagation or by their
    /// cases; failing that, what one group alone narrows. `None`: no small step is left,
    /// and the contradiction is told with every group it needs.
    fn towards_contradiction(&mut self) -> Option<Step> {
        if let Some(step) = self.small_sets_step(true) {
            return Some(step);
        }
        if let Some(step) = self.sum_step() {
            return Some(step);
        }
        // No set of a few groups fixes a variable: the narrowing one group makes, the
        // fewest facts first.
        let mut best: Option<Step> = None;
        for g in 0..self.config.groups.len() {
            let facts = self.scope_facts(&[g]);
            let Some(domains) = self.probe_domains(&[g], &facts, None, None, None) else { continue };
            for (i, domain) in domains.iter().enumerate() {
                if domain.len() < self.known[i].len() {
                    let goal = Goal::Within(i, domain.clone());
                    let (groups, facts) = self.minimise(&[g], None, &goal);
                    let step = self.step(Reasoning::Direct, groups, facts, self.narrowed(i, domain));
                    if best.as_ref().is_none_or(|b| step.facts.len() < b.facts.len()) {
                        best = Some(step);
                    }
                }
            }
        }
        best
    }

    /// A variable that one, two or three connected groups fix together (fewest groups
    /// first, then fewest facts), when propagation of all of them fixes none.
    fn projection_step(&mut self) -> Option<Step> {
        self.small_sets_step(false)
    }

    /// A variable that one, two or three connected groups fix together, or a contradiction
    /// among them: the fewest groups first, then the fewest facts. Sets too large to try
    /// case by case are propagated when `propagate_large` (after the propagation of all
    /// the groups failed, a subset may still fix what the whole does not say cheaply).
    fn small_sets_step(&mut self, propagate_large: bool) -> Option<Step> {
        if self.connected.is_empty() {
            let mut level: Vec<Vec<usize>> = (0..self.config.groups.len()).map(|g| vec![g]).collect();
            for size in 1..=MAX_PROJECTED_GROUPS {
                if size > 1 {
                    level = self.extend_connected(&level);
                }
                self.connected.push(level.clone());
            }
        }
        let spaces = self.group_spaces();
        // The branching space of a set, from above: the product of its groups' spaces but
        // the largest (exact for one or two groups; shared variables count twice beyond).
        // Bounds on the branching space of a set, from the groups' spaces: at least the
        // second largest (all its variables are branched on), at most the product of all
        // but the largest (shared variables count twice).
        let bounds = |set: &[usize]| {
            let mut s: Vec<u64> = set.iter().map(|&g| spaces[g]).collect();
            s.sort_unstable();
            if s.len() == 1 {
                return (s[0], s[0]);
            }
            let upper = s[..s.len() - 1].iter().fold(1u64, |acc, &x| acc.saturating_mul(x));
            (s[s.len() - 2], upper)
        };
        for size in 1..=MAX_PROJECTED_GROUPS {
            let mut best: Option<Step> = None;
            let level = std::mem::take(&mut self.connected[size - 1]);
            let mut contradiction = None;
            for groups in &level {
                let stamp: u64 = groups.iter().map(|&g| self.versions[g]).sum::<u64>() + self.plumbing_version;
                if self.fruitless.get(groups) == Some(&stamp) {
                    continue;
                }
                // A set with every variable known finds nothing more, unless it is the
                // contradiction looked for.
                if spaces_all_fixed(groups, &spaces) && !propagate_large {
                    continue;
                }
                let (lower, upper) = bounds(groups);
                let by_cases =
                    lower <= project::MAX_LEAVES && (upper <= project::MAX_LEAVES || self.projectable(groups));
                if !by_cases && !propagate_large {
                    continue;
                }
                let facts = self.scope_facts(groups);
                let reached = if by_cases {
                    self.project(groups, &facts, None, None)
                } else {
                    self.probe_domains(groups, &facts, None, None, None)
                };
                let Some(domains) = reached else {
                    // These groups alone contradict the facts.
                    contradiction = Some(groups.clone());
                    break;
                };
                let mut fruitful = false;
                for (i, domain) in domains.iter().enumerate() {
                    if !domain.is_single() || self.known[i].is_single() {
                        continue;
                    }
                    fruitful = true;
                    let goal = Goal::Within(i, domain.clone());
                    let (groups, facts) = self.minimise(groups, None, &goal);
                    let step = self.step(Reasoning::Direct, groups, facts, self.narrowed(i, domain));
                    if best
                        .as_ref()
                        .is_none_or(|b| (step.groups.len(), step.facts.len()) < (b.groups.len(), b.facts.len()))
                    {
                        best = Some(step);
                    }
                }
                if !fruitful {
                    self.fruitless.insert(groups.clone(), stamp);
                }
            }
            self.connected[size - 1] = level;
            if let Some(groups) = contradiction {
                let (groups, facts) = self.minimise(&groups, None, &Goal::Conflict);
                return Some(self.step(Reasoning::Direct, groups, facts, Conclusion::Contradiction));
            }
            if best.is_some() {
                return best;
            }
        }
        None
    }

    /// Which shown variables a propagator in no group reads.
    fn plumbing_scope(&self) -> Vec<bool> {
        let mut read = vec![false; self.config.shown.len()];
        for (p, &plumbing) in self.plumbing.iter().enumerate() {
            if plumbing {
                for x in self.solver.props[p].vars() {
                    if let Some(&i) = self.shown_at.get(&x) {
                        read[i] = true;
                    }
                }
            }
        }
        read
    }

    /// The product of the known domain sizes of each group's variables, saturating.
    fn group_spaces(&self) -> Vec<u64> {
        let size = |x: &VarId| match self.shown_at.get(x) {
            Some(&i) => self.known[i].len() as u64,
            None => self.solver.size(*x),
        };
        self.group_vars.iter().map(|vars| vars.iter().fold(1u64, |acc, x| acc.saturating_mul(size(x)))).collect()
    }

    /// The sets of groups one larger than those given, each still connected by shared
    /// variables, without repeats, in a fixed order.
    fn extend_connected(&self, sets: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut out = std::collections::BTreeSet::new();
        for set in sets {
            for &g in set {
                for x in &self.group_vars[g] {
                    let Some(&i) = self.shown_at.get(x) else { continue };
                    for &h in &self.groups_of[i] {
                        if !set.contains(&h) {
                            let mut bigger = set.clone();
                            bigger.push(h);
                            bigger.sort_unstable();
                            out.insert(bigger);
                        }
                    }
                }
            }
            if out.len() > MAX_PROJECTED_SETS {
                break;
            }
        }
        out.into_iter().collect()
    }

    /// Runs the groups (and the plumbing) from the facts; the shown domains at the
    /// fixpoint (all of them, or those at the positions in `read`, in its order), or
    /// `None` on conflict.
    fn probe_domains(
        &mut self,
        groups: &[usize],
        facts: &[usize],
        assume: Option<(VarId, Val)>,
        active: Option<&mut [bool]>,
        read: Option<&[usize]>,
    ) -> Option<Vec<Values>> {
        let ok = self.enter_and_propagate(groups, facts, assume, active);
        let domains = ok.then(|| self.read_domains(read));
        self.solver.leave_subset();
        domains
    }

    /// Enters the subset of these groups, applies the facts (and `assume`) and propagates
    /// to a fixpoint; `false` on conflict. The caller reads what it needs, then leaves.
    fn enter_and_propagate(
        &mut self,
        groups: &[usize],
        facts: &[usize],
        assume: Option<(VarId, Val)>,
        active: Option<&mut [bool]>,
    ) -> bool {
        let subset = self.subset_of(groups);
        let narrowings = self.narrowings(facts);
        self.solver.enter_subset(&subset);
        let mut ok = narrowings.iter().all(|n| self.solver.narrow(n));
        if let Some((x, v)) = assume {
            ok = ok && self.solver.narrow(&Narrowing::Within(x, Values::single(v)));
        }
        ok && self.solver.run_awake(active)
    }

    /// The propagators awake when these groups run: theirs and the plumbing.
    fn subset_of(&self, groups: &[usize]) -> Vec<bool> {
        let mut subset = self.plumbing.clone();
        for &g in groups {
            for p in &self.config.groups[g] {
                subset[p.index()] = true;
            }
        }
        subset
    }

    /// The shown variables whose known domain is narrower than at the root.
    fn known_facts(&self) -> Vec<usize> {
        (0..self.known.len()).filter(|&i| self.known[i].len() < self.root[i].len()).collect()
    }

    /// The known facts about the variables of these groups (and of the plumbing).
    fn scope_facts(&self, groups: &[usize]) -> Vec<usize> {
        let mut in_scope = vec![false; self.known.len()];
        for &g in groups {
            for x in &self.group_vars[g] {
                if let Some(&i) = self.shown_at.get(x) {
                    in_scope[i] = true;
                }
            }
        }
        for (p, &plumbing) in self.plumbing.iter().enumerate() {
            if plumbing {
                for x in self.solver.props[p].vars() {
                    if let Some(&i) = self.shown_at.get(&x) {
                        in_scope[i] = true;
                    }
                }
            }
        }
        self.known_facts().into_iter().filter(|&i| in_scope[i]).collect()
    }

    fn narrowings(&self, facts: &[usize]) -> Vec<Narrowing> {
        facts.iter().map(|&i| Narrowing::Within(self.config.shown[i], self.known[i].clone())).collect()
    }

    /// The groups with a propagator that pruned.
    fn active_groups(&self, active: &[bool]) -> Vec<usize> {
        (0..self.config.groups.len()).filter(|&g| self.config.groups[g].iter().any(|p| active[p.index()])).collect()
    }

    /// The propagators of these groups, and the plumbing.
    fn props_of(&self, groups: &[usize]) -> Vec<PropId> {
        let mut props: Vec<PropId> = groups.iter().flat_map(|&g| self.config.groups[g].iter().copied()).collect();
        props.extend(self.plumbing.iter().enumerate().filter(|(_, &p)| p).map(|(p, _)| PropId(p as u32)));
        props.sort();
        props.dedup();
        props
    }
}

/// Whether every group of the set has all its variables known: nothing left to find.
fn spaces_all_fixed(set: &[usize], spaces: &[u64]) -> bool {
    set.iter().all(|&g| spaces[g] == 1)
}

/// Of a chain of steps ending in a contradiction, those it rests on: the last, and each
/// step whose conclusion is a fact of a step kept (a fact learned in the chain is the
/// conclusion of the newest step before that narrowed its variable; one known before the
/// chain is no step's).
fn needed(chain: Vec<Step>) -> Vec<Step> {
    let mut keep = vec![false; chain.len()];
    let Some(last) = chain.len().checked_sub(1) else { return chain };
    keep[last] = true;
    for k in (0..chain.len()).rev() {
        if !keep[k] {
            continue;
        }
        for fact in &chain[k].facts {
            let by =
                (0..k).rev().find(|&j| matches!(&chain[j].conclusion, Conclusion::Narrowed(f) if f.var == fact.var));
            if let Some(j) = by {
                keep[j] = true;
            }
        }
    }
    chain.into_iter().zip(keep).filter_map(|(step, keep)| keep.then_some(step)).collect()
}

/// Checks that the propagators `props` with the step's facts leave no value outside its
/// conclusion (or, for a contradiction, no solution at all); a counting step, that its
/// equations add up to a false one.
pub(super) fn check_step(
    solver: &mut Solver,
    groups: &[super::Group],
    props: &[PropId],
    step: &Step,
    budget: u64,
) -> Result<(), ExplainError> {
    if let Some(clash) = &step.clash {
        // The clash is a step of its own: the groups, from the other facts, narrow its
        // variable to values its fact excludes.
        let fact = step.facts.iter().find(|f| f.var == clash.var);
        let disjoint = fact.is_some_and(|f| clash.values.iter().all(|v| !f.values.contains(v)));
        let narrowing = Step {
            reasoning: Reasoning::Direct,
            groups: step.groups.clone(),
            facts: step.facts.iter().filter(|f| f.var != clash.var).cloned().collect(),
            conclusion: Conclusion::Narrowed(clash.clone()),
            stall: None,
            clash: None,
            chain: Vec::new(),
        };
        if !disjoint || check_step(solver, groups, props, &narrowing, budget).is_err() {
            return Err(ExplainError::Unverified { step: Box::new(step.clone()), counterexample: None });
        }
    }
    if let Reasoning::Sum { factors, total } = &step.reasoning {
        return match sums::check_sum(solver, groups, &step.groups, factors, *total) {
            true if step.conclusion == Conclusion::Contradiction && step.facts.is_empty() => Ok(()),
            _ => Err(ExplainError::Unverified { step: Box::new(step.clone()), counterexample: None }),
        };
    }
    let mut facts: Vec<Narrowing> = step.facts.iter().map(|f| Narrowing::Within(f.var, f.values.clone())).collect();
    if let Conclusion::Narrowed(fact) = &step.conclusion {
        facts.push(Narrowing::Without(fact.var, fact.values.clone()));
    }
    match solver.refute(props, &facts, budget) {
        Verdict::Holds => Ok(()),
        Verdict::Counterexample(c) => {
            Err(ExplainError::Unverified { step: Box::new(step.clone()), counterexample: Some(c) })
        }
        Verdict::Unfinished => Err(ExplainError::Unverified { step: Box::new(step.clone()), counterexample: None }),
    }
}
