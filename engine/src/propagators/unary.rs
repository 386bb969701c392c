//! A unary resource (tasks that never overlap) by overload checking, edge finding,
//! detectable precedences and not-first/not-last.
//!
//! Time-tabling only sees a task once its compulsory part exists; on a machine of a job
//! shop most tasks have none until late, and proofs of optimality need stronger rules about
//! *sets* of tasks. For a set `Ω`, let `est(Ω)`, `lct(Ω)` and `p(Ω)` be its earliest start,
//! latest completion and total duration; its earliest completion is
//! `ECT(Ω) = max over Ω' ⊆ Ω of est(Ω') + p(Ω')`, computed by scanning the tasks by earliest
//! start (`ect = max(ect, estₖ) + pₖ`). Then (Baptiste, Le Pape and Nuijten 2001):
//! - *overload*: if `ECT(Ω) > lct(Ω)` there is no schedule;
//! - *edge finding*: if a task `i ∉ Ω` with `ECT(Ω ∪ {i}) > lct(Ω)`, then `i` cannot end
//!   before all of `Ω` is done, so it starts after it: `estᵢ ≥ ECT(Ω)`;
//! - *detectable precedences* and *not-first*, which catch what edge finding misses when
//!   a task's own window is wide (see their functions below); mirrored, not-first is
//!   not-last.
//!
//! Only the sets `Ω = {k : lctₖ ≤ lctⱼ}` matter (the task intervals): edge finding runs on
//! Vilím's Θ-Λ tree in `O(n log n)` (`theta_lambda.rs`); detectable precedences cost
//! `O(n²)` here, not-first `O(n²)` to `O(n³)` (see `NOT_FIRST_ALL_SETS`). The same rules on the mirrored problem (times negated) give latest starts.
//! A task whose duration is a variable takes part with its smallest duration, as if it
//! were cut short: the cut tasks still never overlap, so every rule stays sound; a task
//! whose duration may be 0 is left to time-tabling (it may then go anywhere).

use super::task_reasons::{Rules, TaskVars};
use super::theta_lambda::{self, Window};
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Machines with more tasks than this get time-tabling only (the rules but edge finding
/// are quadratic here).
pub(crate) const MAX_TASKS: usize = 64;

/// Tasks that never overlap (a unary resource) by edge finding; posted by
/// [`crate::constraints::cumulative`] (and so [`crate::constraints::disjunctive`]) on the
/// tasks too large to run together.
#[derive(Debug, Clone)]
pub struct Unary {
    starts: Vec<VarId>,
    durations: Vec<VarId>,
}

/// Raises `est` by detectable precedences (Vilím 2004): when task `i` cannot end before
/// task `j` must start (`estᵢ + pᵢ > lstⱼ`), `j` surely comes first, so `i` starts once all
/// such `j` are done: `estᵢ ≥ ECT({j : estᵢ + pᵢ > lstⱼ})`. Edge finding misses these when
/// the tasks before `i` leave slack in their own window.
fn detectable_precedences(windows: &[Window], est: &mut [Val]) {
    let mut by_est: Vec<usize> = (0..windows.len()).collect();
    by_est.sort_unstable_by_key(|&k| windows[k].est);
    for (i, w) in windows.iter().enumerate() {
        let ect_i = w.est + w.p;
        let mut ect = Val::MIN;
        for &j in &by_est {
            let v = windows[j];
            if j != i && ect_i > v.lct - v.p {
                ect = ect.max(v.est) + v.p;
            }
        }
        est[i] = est[i].max(ect);
    }
}

/// Raises `est` by not-first reasoning (Torres and Lopez 2000, Vilím 2004): if task `i`
/// ran before every task of a set `Ω`, those would all fit between `i`'s earliest end and
/// `lct(Ω)`; when they cannot (`estᵢ + pᵢ > LST(Ω)`, the latest time the set can start),
/// some task of `Ω` comes first and `estᵢ ≥ min over Ω of ectⱼ`. The sets tried are
/// `{j ≠ i : ectⱼ ≥ t}` for each earliest end `t` of another task (the largest that fires
/// wins), or only the smallest `t` above `estᵢ` on machines of more than
/// `NOT_FIRST_ALL_SETS` tasks, where trying them all would cost `O(n³)`.
fn not_first(windows: &[Window], est: &mut [Val]) {
    let mut by_lct_desc: Vec<usize> = (0..windows.len()).collect();
    by_lct_desc.sort_unstable_by_key(|&k| std::cmp::Reverse(windows[k].lct));
    let mut ects: Vec<Val> = windows.iter().map(|w| w.est + w.p).collect();
    ects.sort_unstable();
    ects.dedup();
    for (i, w) in windows.iter().enumerate() {
        let ect_i = w.est + w.p;
        let above = ects.partition_point(|&t| t <= w.est);
        let tries =
            if windows.len() > NOT_FIRST_ALL_SETS { &ects[above..(above + 1).min(ects.len())] } else { &ects[above..] };
        for &t in tries.iter().rev() {
            // LST(Ω): Ω's tasks packed as late as possible, the latest completion first.
            let mut lst = Val::MAX;
            let mut members = 0;
            for &j in &by_lct_desc {
                let v = windows[j];
                if j != i && v.est + v.p >= t {
                    lst = lst.min(v.lct) - v.p;
                    members += 1;
                }
            }
            if members > 0 && ect_i > lst {
                est[i] = est[i].max(t);
                break;
            }
        }
    }
}

/// Above this many tasks, not-first tries one set per task instead of all of them.
const NOT_FIRST_ALL_SETS: usize = 24;

impl Unary {
    pub(crate) fn new(starts: Vec<VarId>, durations: Vec<VarId>) -> Unary {
        Unary { starts, durations }
    }

    fn task_vars(&self) -> TaskVars<'_> {
        TaskVars { starts: &self.starts, durations: &self.durations, resources: None, capacity: None }
    }
}

impl Propagator for Unary {
    fn name(&self) -> &'static str {
        "unary"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in self.starts.iter().chain(&self.durations) {
            cx.subscribe(x, Events::BOUNDS);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let tasks: Vec<usize> = (0..self.starts.len()).filter(|&i| cx.min(self.durations[i]) > 0).collect();
        if tasks.len() < 2 {
            return Ok(PropStatus::Active);
        }
        let window = |i: usize| {
            let (s, p) = (self.starts[i], cx.min(self.durations[i]));
            Window { est: cx.min(s), lct: cx.max(s) + p, p }
        };
        let forward: Vec<Window> = tasks.iter().map(|&i| window(i)).collect();
        let mut est = theta_lambda::edge_find(&forward)?;
        detectable_precedences(&forward, &mut est);
        not_first(&forward, &mut est);
        // Mirrored: a task's latest completion is minus its earliest start in negated time.
        let mirrored: Vec<Window> = forward.iter().map(|w| Window { est: -w.lct, lct: -w.est, p: w.p }).collect();
        let mut neg_lct = theta_lambda::edge_find(&mirrored)?;
        detectable_precedences(&mirrored, &mut neg_lct);
        not_first(&mirrored, &mut neg_lct);
        for (k, &i) in tasks.iter().enumerate() {
            let s = self.starts[i];
            let _ = cx.set_min(s, est[k])?;
            let _ = cx.set_max(s, -neg_lct[k] - forward[k].p)?;
        }
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let n = self.starts.len();
        let task = |i: usize| (value(self.starts[i]), value(self.durations[i]));
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                let ((si, di), (sj, dj)) = (task(i), task(j));
                di <= 0 || dj <= 0 || si + di <= sj || sj + dj <= si
            })
        })
    }

    fn vars(&self) -> Vec<VarId> {
        self.starts.iter().chain(&self.durations).copied().collect()
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    /// A start bound: the set of tasks of one rule (edge finding, detectable precedences or
    /// not-first) that gives it, found again on the domains then
    /// (`task_reasons.rs`).
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.task_vars().explain(Rules::Unary, lit, cx)
    }

    /// An overload: the tasks of the window overloaded; a task pushed past its latest
    /// start: the rule's set and that start.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.task_vars().explain_conflict(Rules::Unary, cx)
    }
}
