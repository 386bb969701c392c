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
        TimeTable { starts, durations, resources, capacity, events: Vec::new() }
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
                    est = seg.end;
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
                    lst = seg.start - d;
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

    /// A start bound: the compulsory parts of the other tasks over the stretch the task was
    /// pushed across, the task's own bounds, size and use, and the capacity. A resource
    /// bound: the same over the task's compulsory part. The capacity's minimum: every
    /// compulsory part. Reading the domains just before the change, these parts are at
    /// least those the propagator saw, so they force at least as much.
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

    /// A peak above the capacity: the parts over that peak. Otherwise (a task with no place
    /// left) every task's bounds and parts.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
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
