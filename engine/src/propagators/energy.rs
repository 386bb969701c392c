//! Cumulative resources by energetic reasoning over task intervals: overload checking and
//! edge finding.
//!
//! Time-tabling sees a task only once it has a compulsory part. A set of tasks can be
//! impossible long before that: task `j` needs `eⱼ = dⱼ · rⱼ` units of *energy* (duration
//! times resource) inside its window `[estⱼ, lctⱼ)`, and a window `[a, b)` supplies at most
//! `C · (b − a)`. With `Ω(a, b)` the tasks whose windows lie inside `[a, b)` and `E(a, b)`
//! their energy (Mercier and Van Hentenryck 2008; Vilím 2009 for the `O(kn log n)` form):
//! - *overload*: `E(a, b) > C · (b − a)` has no schedule;
//! - *edge finding*: a task `i` outside `Ω = Ω(a, b)` with
//!   `E(a, b) + eᵢ > C · (b − min(a, estᵢ))` cannot end by `b`, so it ends after every task
//!   of `Ω` (`Ω ⋖ i`). Then for every window `[a', b') ⊆ [a, b)` whose energy leaves less
//!   than `rᵢ` of the capacity free for too long, `rest = E(a', b') − (C − rᵢ)(b' − a') > 0`,
//!   task `i` starts at `a' + ⌈rest / rᵢ⌉` at the earliest.
//!
//! Only windows from an earliest start to a latest completion matter. Here every such
//! window is tried, `O(n²)` of them: the energies by a sweep, detection for every task by
//! running minima of the slack (`O(n²)` in all), and for each task detected, the best
//! update inside its windows by a dominance maximum (`O(n²)` per such task, so `O(n³)` at
//! worst, rarely reached); resources of many tasks get time-tabling only (`MAX_TASKS`). The same rules on the mirrored problem (times negated)
//! give latest starts. Durations, resources and the capacity may be variables: the rules
//! use the smallest durations and resources and the largest capacity, which keeps them
//! sound (each bound only weakens).
//!
//! A search that learns runs it only while it pays: there time-tabling's explained
//! failures teach most of what it deduces, for a fraction of its cost, but not all of it
//! on every model (on some packing instances a pass in ten prunes, and without it they are
//! not proved; notes/learning.md, "Scheduling under learning"). So after [`WARM_UP`]
//! passes it runs while at least one pass in [`PAYING_RATIO`] prunes or fails, and
//! otherwise once in [`SAMPLE_EVERY`] calls, to notice when it starts to pay again.

use super::task_reasons::{window_energies, Rules, Table, TaskVars};
use super::time_table::{cumulative_holds, cumulative_vars};
use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Resources with more tasks than this get time-tabling only (the rules are cubic here).
pub(crate) const MAX_TASKS: usize = 48;

/// Under learning, the passes always run before the rate is judged.
const WARM_UP: u64 = 50;
/// Under learning, it runs while one pass in this many (or more) prunes or fails.
const PAYING_RATIO: u64 = 50;
/// Under learning, a resource whose passes do not pay still runs one call in this many.
const SAMPLE_EVERY: u64 = 32;

/// A cumulative resource by energetic reasoning (overload checking and edge finding); posted beside [`TimeTable`](crate::propagators::TimeTable) by [`crate::constraints::cumulative`] on small task sets.
#[derive(Debug, Clone)]
pub struct CumulativeEnergy {
    starts: Vec<VarId>,
    durations: Vec<VarId>,
    resources: Vec<VarId>,
    capacity: VarId,
    /// Under learning: the passes run, those that pruned or failed, and the calls skipped
    /// since the last pass (the module doc says why).
    runs: u64,
    paid: u64,
    skipped: u64,
}

/// A task as the rules see it: window `[est, lct)`, resource use, energy.
#[derive(Debug, Clone, Copy)]
struct Task {
    est: Val,
    lct: Val,
    r: Val,
    energy: Val,
}

/// New earliest starts by overload checking and edge finding; `Err` on overload.
fn edge_find(tasks: &[Task], capacity: Val) -> Result<Vec<Val>, Conflict> {
    let (lefts, rights, energy) = window_energies(tasks.iter().map(|t| (t.est, t.lct, t.energy)));
    let (na, nb) = (lefts.len(), rights.len());
    for ia in 0..na {
        for ib in 0..nb {
            if lefts[ia] < rights[ib] && energy[(ia, ib)] > capacity * (rights[ib] - lefts[ia]) {
                return Err(Conflict);
            }
        }
    }
    let mut est: Vec<Val> = tasks.iter().map(|t| t.est).collect();
    // Detection. With slack(a, b) = C·(b − a) − E(a, b), window [a, b) detects task i
    // when eᵢ > slack(a, b) if a ≤ estᵢ, or when eᵢ + C·estᵢ > slack(a, b) + C·a if
    // a > estᵢ. Per right end b, a prefix minimum of the first and a suffix minimum of
    // the second answer each task in O(1): detection costs O(n²) in all.
    let mut prefix_min = vec![Val::MAX; na];
    let mut suffix_min = vec![Val::MAX; na + 1];
    // (i, ia, ib): task i and the widest window that detects it, per right end, in the
    // order of the right ends.
    let mut detections: Vec<(usize, usize, usize)> = Vec::new();
    for ib in 0..nb {
        let b = rights[ib];
        let slack = |ia: usize| if lefts[ia] < b { capacity * (b - lefts[ia]) - energy[(ia, ib)] } else { Val::MAX };
        let mut running = Val::MAX;
        for (ia, slot) in prefix_min.iter_mut().enumerate() {
            running = running.min(slack(ia));
            *slot = running;
        }
        for ia in (0..na).rev() {
            let shifted = slack(ia).saturating_add(capacity * lefts[ia]);
            suffix_min[ia] = suffix_min[ia + 1].min(shifted);
        }
        for (i, t) in tasks.iter().enumerate() {
            if t.r <= 0 || t.energy <= 0 || b >= t.lct {
                continue;
            }
            let own = lefts.partition_point(|&a| a < t.est);
            let detected = prefix_min[own] < t.energy || suffix_min[own + 1] < t.energy + capacity * t.est;
            if detected {
                // The widest window (smallest a) that detects: the most subsets to use.
                let widest = (0..na).find(|&ia| {
                    let a = lefts[ia];
                    a < b && energy[(ia, ib)] + t.energy > capacity * (b - a.min(t.est))
                });
                if let Some(ia) = widest {
                    detections.push((i, ia, ib));
                }
            }
        }
    }
    // Updates, for the tasks detected: best[ia][ib] is the strongest update from a window
    // inside [lefts[ia], rights[ib]) (a dominance maximum: later left ends, earlier right
    // ends), with rest = E(a', b') − (C − rᵢ)(b' − a') > 0 giving a' + ⌈rest / rᵢ⌉.
    // The table depends on the task only through rᵢ: one per resource use detected (k
    // distinct uses make this O(k·n²), as in Mercier and Van Hentenryck's algorithm).
    let mut tables: Vec<(Val, Table<Val>)> = Vec::new();
    for &(i, ia, ib) in &detections {
        let r = tasks[i].r;
        let k = match tables.iter().position(|(used, _)| *used == r) {
            Some(k) => k,
            None => {
                tables.push((r, best_updates(&lefts, &rights, &energy, capacity, r)));
                tables.len() - 1
            }
        };
        est[i] = est[i].max(tables[k].1[(ia, ib)]);
    }
    Ok(est)
}

/// `best[ia][ib]`: the strongest earliest start that the windows inside
/// `[lefts[ia], rights[ib])` give a task using `r` that must end after them: for a window
/// `[a', b')` with `rest = E(a', b') − (C − r)(b' − a') > 0`, `a' + ⌈rest / r⌉` (a dominance
/// maximum over later left ends and earlier right ends).
fn best_updates(lefts: &[Val], rights: &[Val], energy: &Table<Val>, capacity: Val, r: Val) -> Table<Val> {
    let (na, nb) = (lefts.len(), rights.len());
    let mut best = Table::filled(na, nb, Val::MIN);
    for ia in (0..na).rev() {
        for ib in 0..nb {
            let (a, b) = (lefts[ia], rights[ib]);
            let mut value = Val::MIN;
            if a < b {
                let rest = energy[(ia, ib)] - (capacity - r) * (b - a);
                if rest > 0 {
                    value = a + (rest + r - 1) / r;
                }
            }
            if ia + 1 < na {
                value = value.max(best[(ia + 1, ib)]);
            }
            if ib > 0 {
                value = value.max(best[(ia, ib - 1)]);
            }
            best[(ia, ib)] = value;
        }
    }
    best
}

impl CumulativeEnergy {
    pub(crate) fn new(starts: Vec<VarId>, durations: Vec<VarId>, resources: Vec<VarId>, capacity: VarId) -> Self {
        CumulativeEnergy { starts, durations, resources, capacity, runs: 0, paid: 0, skipped: 0 }
    }

    fn task_vars(&self) -> TaskVars<'_> {
        TaskVars {
            starts: &self.starts,
            durations: &self.durations,
            resources: Some(&self.resources),
            capacity: Some(self.capacity),
        }
    }
}

impl Propagator for CumulativeEnergy {
    fn name(&self) -> &'static str {
        "cumulative energy"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in self.starts.iter().chain(&self.durations).chain(&self.resources) {
            cx.subscribe(x, Events::BOUNDS);
        }
        cx.subscribe(self.capacity, Events::BOUNDS);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        if !cx.learning() {
            self.pass(cx)?;
            return Ok(PropStatus::Active);
        }
        let paying = self.runs < WARM_UP || self.paid * PAYING_RATIO >= self.runs;
        if !paying && self.skipped + 1 < SAMPLE_EVERY {
            self.skipped += 1;
            return Ok(PropStatus::Active);
        }
        self.skipped = 0;
        self.runs += 1;
        let outcome = self.pass(cx);
        if !matches!(outcome, Ok(false)) {
            self.paid += 1;
        }
        outcome?;
        Ok(PropStatus::Active)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        cumulative_holds(&self.starts, &self.durations, &self.resources, self.capacity, value)
    }

    fn vars(&self) -> Vec<VarId> {
        cumulative_vars(&self.starts, &self.durations, &self.resources, self.capacity)
    }

    fn priority(&self) -> Priority {
        Priority::Last
    }

    /// A start bound: the detection and update windows of edge finding that give it, found
    /// again on the domains then (`task_reasons.rs`).
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.task_vars().explain(Rules::Cumulative, lit, cx)
    }

    /// An overloaded window's tasks, or the windows that push a task past its latest start.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.task_vars().explain_conflict(Rules::Cumulative, cx)
    }
}

impl CumulativeEnergy {
    /// One pass of overload checking and edge finding both ways; whether it pruned.
    fn pass(&self, cx: &mut Context<'_>) -> Result<bool, Conflict> {
        let capacity = cx.max(self.capacity);
        let indices: Vec<usize> = (0..self.starts.len())
            .filter(|&i| cx.min(self.durations[i]) > 0 && cx.min(self.resources[i]) > 0)
            .collect();
        if indices.len() < 2 {
            return Ok(false);
        }
        let forward: Vec<Task> = indices
            .iter()
            .map(|&i| {
                let (s, d, r) = (self.starts[i], cx.min(self.durations[i]), cx.min(self.resources[i]));
                Task { est: cx.min(s), lct: cx.max(s) + d, r, energy: d * r }
            })
            .collect();
        let est = edge_find(&forward, capacity)?;
        let mirrored: Vec<Task> = forward.iter().map(|t| Task { est: -t.lct, lct: -t.est, ..*t }).collect();
        let neg_lct = edge_find(&mirrored, capacity)?;
        let mut pruned = false;
        for (k, &i) in indices.iter().enumerate() {
            let (s, d) = (self.starts[i], cx.min(self.durations[i]));
            pruned |= cx.set_min(s, est[k])?;
            pruned |= cx.set_max(s, -neg_lct[k] - d)?;
        }
        Ok(pruned)
    }
}
