//! Cumulative resources by time-tabling: tasks that use a shared resource of limited
//! capacity, none of them interrupted.
//!
//! Task `i` starts at `sᵢ`, lasts `dᵢ` and uses `rᵢ` units of a resource of capacity `c`
//! while it runs; at every time the tasks running use at most `c`. Whatever the search
//! decides, a task whose latest start `lstᵢ = max sᵢ` comes before its earliest end
//! `ectᵢ = min sᵢ + min dᵢ` runs during `[lstᵢ, ectᵢ)`: its *compulsory part*. The sum of the
//! compulsory parts is the *profile* (Aggoun and Beldiceanu 1993; the time-tabling of
//! Gecode, Chuffed and Pumpkin). It prunes three ways:
//! - a profile above the largest capacity is a conflict, and the capacity is at least the
//!   profile's peak;
//! - a task cannot start where it would overlap a stretch of the profile that, with the task
//!   added (its own compulsory part taken out), exceeds the capacity: its earliest start moves
//!   past the stretch;
//! - symmetrically, its latest start moves so that it ends before such a stretch;
//! - a task's resource use is at most the capacity less the others' profile during its own
//!   compulsory part (the height filtering of Beldiceanu and Carlsson's sweep): a task that
//!   surely runs when another holds the whole resource cannot use it.
//!
//! Each call rebuilds the profile from scratch (sorting the compulsory parts' ends,
//! `O(n log n)`) and pushes each task's bounds once; the engine calls it again while it
//! prunes. Durations, resources and the capacity may be variables: the profile uses the
//! smallest duration and resource and the largest capacity, which keeps every rule sound.
//!
//! A search that learns gets the pushes *pointwise* (Schutt, Feydy, Stuckey and Wallace,
//! "Explaining the cumulative propagator", 2011): a task is moved past a stretch it cannot
//! share in steps, each over one time `t`, the latest of the stretch the task would still
//! cover from where it stands. Each step has a reason of its own that names only that time:
//! the task starts at `t − d + 1` or later (so it would run at `t` unless it starts after
//! `t`), and some of the tasks surely running at `t` (a start at most `t` and at least
//! `t − dⱼ + 1`, whatever their bounds were) use more than the capacity leaves it. A
//! nogood made of such literals is about a time, not about the bounds the search happened
//! to have, and prunes other branches too.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// A cumulative resource by time-tabling on the profile of compulsory parts; posted by [`crate::constraints::cumulative`].
#[derive(Debug, Clone)]
pub struct TimeTable {
    starts: Vec<VarId>,
    durations: Vec<VarId>,
    resources: Vec<VarId>,
    capacity: VarId,
    /// Scratch for the profile: (time, change of height); kept to avoid an allocation per
    /// call (its contents never outlive one call, so it needs no trailing).
    events: Vec<(Val, Val)>,
    /// The pointwise step that failed in the last call, if one did: task `i` could not
    /// run at time `t` nor avoid it (explained by [`Propagator::explain_conflict`]).
    failed_step: Option<(usize, Val)>,
}

/// A stretch `[start, end)` of the profile at constant `height`.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: Val,
    end: Val,
    height: Val,
}

/// MiniZinc's cumulative at a full assignment: the ground truth of every propagator of a
/// cumulative resource.
pub(crate) fn cumulative_holds(
    starts: &[VarId],
    durations: &[VarId],
    resources: &[VarId],
    capacity: VarId,
    value: &dyn Fn(VarId) -> Val,
) -> bool {
    let n = starts.len();
    let (s, d, r): (Vec<Val>, Vec<Val>, Vec<Val>) = (
        starts.iter().map(|&x| value(x)).collect(),
        durations.iter().map(|&x| value(x)).collect(),
        resources.iter().map(|&x| value(x)).collect(),
    );
    if d.iter().chain(&r).any(|&v| v < 0) {
        return false;
    }
    let c = value(capacity);
    // The load only rises when a task starts: checking at every start suffices.
    (0..n).filter(|&i| d[i] > 0 && r[i] > 0).all(|i| {
        let t = s[i];
        (0..n).filter(|&j| d[j] > 0 && s[j] <= t && t < s[j] + d[j]).map(|j| r[j]).sum::<Val>() <= c
    }) && (n == 0 || c >= 0)
}

/// The variables of a cumulative resource, in the order starts, durations, resources, capacity.
pub(crate) fn cumulative_vars(
    starts: &[VarId],
    durations: &[VarId],
    resources: &[VarId],
    capacity: VarId,
) -> Vec<VarId> {
    let mut vars: Vec<VarId> = starts.iter().chain(durations).chain(resources).copied().collect();
    vars.push(capacity);
    vars
}

impl TimeTable {
    pub(crate) fn new(starts: Vec<VarId>, durations: Vec<VarId>, resources: Vec<VarId>, capacity: VarId) -> TimeTable {
        TimeTable { starts, durations, resources, capacity, events: Vec::new(), failed_step: None }
    }

    /// The compulsory part of task `i`, if it has one that uses the resource.
    fn compulsory(&self, cx: &Context<'_>, i: usize) -> Option<(Val, Val, Val)> {
        let (lst, ect) = (cx.max(self.starts[i]), cx.min(self.starts[i]) + cx.min(self.durations[i]));
        let r = cx.min(self.resources[i]);
        (lst < ect && r > 0).then_some((lst, ect, r))
    }

    fn profile(&mut self, cx: &Context<'_>) -> Vec<Segment> {
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        for i in 0..self.starts.len() {
            if let Some((lst, ect, r)) = self.compulsory(cx, i) {
                events.push((lst, r));
                events.push((ect, -r));
            }
        }
        events.sort_unstable();
        let mut segments = Vec::new();
        let mut height = 0;
        let mut k = 0;
        while k < events.len() {
            let t = events[k].0;
            while k < events.len() && events[k].0 == t {
                height += events[k].1;
                k += 1;
            }
            if height > 0 && k < events.len() {
                segments.push(Segment { start: t, end: events[k].0, height });
            }
        }
        self.events = events;
        segments
    }
}

impl Propagator for TimeTable {
    fn name(&self) -> &'static str {
        "cumulative"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in self.starts.iter().chain(&self.durations).chain(&self.resources) {
            cx.subscribe(x, Events::BOUNDS);
        }
        cx.subscribe(self.capacity, Events::BOUNDS);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        self.failed_step = None;
        let pointwise = cx.learning();
        let segments = self.profile(cx);
        // A peak above the largest capacity is a conflict here.
        let peak = segments.iter().map(|s| s.height).max().unwrap_or(0);
        let _ = cx.set_min(self.capacity, peak)?;
        let capacity = cx.max(self.capacity);
        for i in 0..self.starts.len() {
            let (s, d, r) = (self.starts[i], cx.min(self.durations[i]), cx.min(self.resources[i]));
            if d <= 0 {
                continue;
            }
            let own = self.compulsory(cx, i);
            // The profile of the others at a segment: take out this task's own part.
            let others = |seg: &Segment| match own {
                Some((lst, ect, r)) if lst <= seg.start && seg.end <= ect => seg.height - r,
                _ => seg.height,
            };
            // Resource: the task surely runs during [lst, ect), so there it shares the
            // resource with the others' profile and uses at most what they leave.
            let (lst, ect) = (cx.max(s), cx.min(s) + d);
            if lst < ect && cx.max(self.resources[i]) > r {
                let first = segments.partition_point(|seg| seg.end <= lst);
                let busiest = segments[first..].iter().take_while(|seg| seg.start < ect).map(others).max().unwrap_or(0);
                let _ = cx.set_max(self.resources[i], capacity - busiest)?;
            }
            if r <= 0 || cx.is_fixed(s) {
                continue;
            }
            // Earliest start: past every stretch it cannot share, scanning left to right.
            let mut est = cx.min(s);
            for seg in &segments {
                if seg.end <= est {
                    continue;
                }
                if seg.start >= est + d {
                    break;
                }
                if others(seg) + r > capacity {
                    if !pointwise {
                        est = seg.end;
                        continue;
                    }
                    // Over the latest time of the stretch within reach, while in reach.
                    while est < seg.end && seg.start < est + d {
                        let t = (est + d - 1).min(seg.end - 1);
                        est = t + 1;
                        cx.set_min(s, est).inspect_err(|_| self.failed_step = Some((i, t)))?;
                    }
                }
            }
            let _ = cx.set_min(s, est)?;
            // Latest start: ends before every stretch it cannot share, right to left.
            let mut lst = cx.max(s);
            for seg in segments.iter().rev() {
                if seg.start >= lst + d {
                    continue;
                }
                if seg.end <= lst {
                    break;
                }
                if others(seg) + r > capacity {
                    if !pointwise {
                        lst = seg.start - d;
                        continue;
                    }
                    // Before the earliest time of the stretch within reach, while in reach.
                    while seg.start < lst + d && lst < seg.end {
                        let t = lst.max(seg.start);
                        lst = t - d;
                        cx.set_max(s, lst).inspect_err(|_| self.failed_step = Some((i, t)))?;
                    }
                }
            }
            let _ = cx.set_max(s, lst)?;
        }
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        cumulative_holds(&self.starts, &self.durations, &self.resources, self.capacity, value)
    }

    fn vars(&self) -> Vec<VarId> {
        cumulative_vars(&self.starts, &self.durations, &self.resources, self.capacity)
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    /// A start bound: pointwise (a search that learns gets only those), the time `t` it
    /// stepped over and the tasks surely running then (see the module doc); a resource
    /// bound: the compulsory parts of the other tasks over the task's own, its bounds, size
    /// and use, and the capacity. The capacity's minimum: every compulsory part. Reading
    /// the domains just before the change, these parts are at least those the propagator
    /// saw, so they force at least as much.
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let y = lit.var();
        if y == self.capacity && self.vars().into_iter().filter(|&x| x == y).count() == 1 {
            let mut reason = Vec::new();
            for j in 0..self.starts.len() {
                self.part_literals(cx, j, Val::MIN, Val::MAX, &mut reason);
            }
            return Some(reason);
        }
        // A variable in two roles (two tasks' start, a start and the capacity) gets the
        // naive explanation.
        let roles = self.vars().into_iter().filter(|&x| x == y).count();
        if roles != 1 {
            return None;
        }
        let i = self.starts.iter().position(|&x| x == y).or_else(|| self.resources.iter().position(|&x| x == y))?;
        let (s, d) = (self.starts[i], cx.min(self.durations[i]));
        match lit {
            // s > t: the step over time t, from a start at t − d + 1 or later.
            Literal::Gt(x, t) if x == s => return self.step_reason(cx, i, t, &[Literal::Gt(s, t - d)]),
            // s ≤ t − d: the step before time t, from a start at t or earlier.
            Literal::Le(x, v) if x == s => return self.step_reason(cx, i, v + d, &[Literal::Le(s, v + d)]),
            _ => {}
        }
        let (from, to) = match lit {
            // The stretches jumped over lie within [old minimum, new minimum).
            Literal::Gt(x, v) if x == s => (cx.min(s), v + 1),
            // ... and within [new maximum + d, old maximum + d).
            Literal::Le(x, v) if x == s => (v + d, cx.max(s) + d),
            Literal::Le(x, _) if x == self.resources[i] => (cx.max(s), cx.min(s) + d),
            _ => return None,
        };
        // A start pushed past the peaks needs only the bound it was pushed from; the use
        // limited by the task's own compulsory part needs both.
        let mut reason = vec![
            Literal::Gt(self.durations[i], d - 1),
            Literal::Gt(self.resources[i], cx.min(self.resources[i]) - 1),
            Literal::Le(self.capacity, cx.max(self.capacity)),
        ];
        if !matches!(lit, Literal::Le(x, _) if x == s) {
            reason.push(Literal::Gt(s, cx.min(s) - 1));
        }
        if !matches!(lit, Literal::Gt(x, _) if x == s) {
            reason.push(Literal::Le(s, cx.max(s)));
        }
        for j in (0..self.starts.len()).filter(|&j| j != i) {
            self.part_literals(cx, j, from, to, &mut reason);
        }
        Some(reason)
    }

    /// A pointwise step that failed: the task can neither run at its time nor avoid it. A
    /// peak above the capacity: the parts over that peak. Otherwise (a task with no place
    /// left) every task's bounds and parts.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        if let Some((i, t)) = self.failed_step {
            // It starts at t − d + 1 or later and by t at the latest: it runs at t.
            let (s, d) = (self.starts[i], cx.min(self.durations[i]));
            return self.step_reason(cx, i, t, &[Literal::Gt(s, t - d), Literal::Le(s, t)]);
        }
        let mut reason = vec![Literal::Le(self.capacity, cx.max(self.capacity))];
        let parts: Vec<(Val, Val, Val)> = (0..self.starts.len()).filter_map(|j| self.part_at(cx, j)).collect();
        let over = parts.iter().map(|&(t, _, _)| t).find(|&t| {
            parts.iter().filter(|&&(a, b, _)| a <= t && t < b).map(|&(_, _, r)| r).sum::<Val>() > cx.max(self.capacity)
        });
        match over {
            Some(t) => {
                // The tasks of largest use over the peak, until they pass the capacity.
                let mut at_peak: Vec<(Val, usize)> = (0..self.starts.len())
                    .filter_map(|j| self.part_at(cx, j).filter(|&(a, b, _)| a <= t && t < b).map(|(_, _, r)| (r, j)))
                    .collect();
                at_peak.sort_by_key(|&(r, j)| (std::cmp::Reverse(r), j));
                let mut load = 0;
                for (r, j) in at_peak {
                    if load > cx.max(self.capacity) {
                        break;
                    }
                    load += r;
                    self.part_literals(cx, j, t, t + 1, &mut reason);
                }
            }
            None => {
                for j in 0..self.starts.len() {
                    let (s, d, r) = (self.starts[j], self.durations[j], self.resources[j]);
                    reason.extend([
                        Literal::Gt(s, cx.min(s) - 1),
                        Literal::Le(s, cx.max(s)),
                        Literal::Gt(d, cx.min(d) - 1),
                        Literal::Gt(r, cx.min(r) - 1),
                    ]);
                }
            }
        }
        Some(reason)
    }
}

impl TimeTable {
    /// Why task `i` does not run at time `t`: tasks surely running at `t`, of the largest
    /// uses first, use more than the capacity leaves it; with its size and use, the
    /// capacity, and `start`, the literals on its start the step rests on. `None` when the
    /// parts at `t` do not suffice (never expected: the naive explanation then).
    fn step_reason(&self, cx: &ExplainContext<'_>, i: usize, t: Val, start: &[Literal]) -> Option<Vec<Literal>> {
        let (d, r) = (cx.min(self.durations[i]), cx.min(self.resources[i]));
        let capacity = cx.max(self.capacity);
        let mut at_t: Vec<(Val, usize)> = (0..self.starts.len())
            .filter(|&j| j != i)
            .filter_map(|j| self.part_at(cx, j).filter(|&(a, b, _)| a <= t && t < b).map(|(_, _, rj)| (rj, j)))
            .collect();
        at_t.sort_unstable_by_key(|&(rj, j)| (std::cmp::Reverse(rj), j));
        let mut reason = start.to_vec();
        reason.extend([
            Literal::Gt(self.durations[i], d - 1),
            Literal::Gt(self.resources[i], r - 1),
            Literal::Le(self.capacity, capacity),
        ]);
        let mut load = r;
        for (rj, j) in at_t {
            if load > capacity {
                break;
            }
            load += rj;
            self.part_literals(cx, j, t, t + 1, &mut reason);
        }
        (load > capacity).then_some(reason)
    }

    /// Task `j`'s compulsory part `[lst, ect)` and use, as the domains were.
    fn part_at(&self, cx: &ExplainContext<'_>, j: usize) -> Option<(Val, Val, Val)> {
        let s = self.starts[j];
        let (lst, ect, r) = (cx.max(s), cx.min(s) + cx.min(self.durations[j]), cx.min(self.resources[j]));
        (lst < ect && r > 0).then_some((lst, ect, r))
    }

    /// The literals that make task `j` run over the part of `[from, to)` its compulsory
    /// part covers, if any: lifted (Schutt et al.), a start at most the beginning of that
    /// overlap and at least its end less the duration, rather than the bounds the start
    /// had (weaker literals make a nogood that prunes more).
    fn part_literals(&self, cx: &ExplainContext<'_>, j: usize, from: Val, to: Val, out: &mut Vec<Literal>) {
        if let Some((lst, ect, r)) = self.part_at(cx, j) {
            if lst < to && from < ect {
                let (s, d) = (self.starts[j], self.durations[j]);
                let (a, b, dmin) = (lst.max(from), ect.min(to), cx.min(d));
                out.extend([
                    Literal::Le(s, a),
                    Literal::Gt(s, b - dmin - 1),
                    Literal::Gt(d, dmin - 1),
                    Literal::Gt(self.resources[j], r - 1),
                ]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TimeTable;
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;
    use crate::propagator::Propagator;

    /// Capacity 1 (variable 9). A (start 0, duration 3) runs over [2, 3) surely, B (start
    /// 3, duration 2) over [10, 12) surely; C (start 2, duration 3) may start at 0.
    fn board() -> (TimeTable, Past) {
        let ranges = [(0, 2), (10, 10), (0, 20), (3, 3), (2, 2), (3, 3), (1, 1), (1, 1), (1, 1), (1, 1)];
        let tasks = TimeTable::new(
            vec![var(0), var(1), var(2)],
            vec![var(3), var(4), var(5)],
            vec![var(6), var(7), var(8)],
            var(9),
        );
        (tasks, Past::new(&ranges, &[]))
    }

    #[test]
    fn a_step_cites_the_time_it_steps_over_and_only_the_tasks_there() {
        let (tasks, past) = board();
        // C steps over time 2 (A runs there): from a start of 0 or later to 3 or later.
        let reason = tasks.explain(Literal::Gt(var(2), 2), &past.cx()).expect("a step's reason");
        assert!(reason.contains(&Literal::Gt(var(2), -1)), "C's own start, lifted: {reason:?}");
        // A lifted to "starts by 2 and from 0 on": it then surely runs at 2.
        assert!(reason.contains(&Literal::Le(var(0), 2)) && reason.contains(&Literal::Gt(var(0), -1)), "{reason:?}");
        assert!(reason.iter().all(|l| l.var() != var(1)), "B, far away, cited: {reason:?}");
        // Before B (time 10): C ends by 10, starting by 7, because it starts by 10.
        let reason = tasks.explain(Literal::Le(var(2), 7), &past.cx()).expect("a step's reason");
        assert!(reason.contains(&Literal::Le(var(2), 10)) && reason.contains(&Literal::Le(var(1), 10)), "{reason:?}");
        assert!(reason.iter().all(|l| l.var() != var(0)), "A cited: {reason:?}");
    }
}
