//! Explanations of the scheduling rules on sets of tasks: edge finding (unary and
//! cumulative), detectable precedences, not-first and overload.
//!
//! [`super::unary`] and [`super::energy`] push a task's earliest start by reasoning over a
//! *set* of other tasks and their windows. Their naive explanation cites every task's
//! bounds; the deduction needed only the tasks of the set, and each of those only as far
//! as "its window lies inside `[a, b)`". Here, asked why `estᵢ ≥ v` held, the rules are run
//! again on the domains as they were just before (an [`ExplainContext`]), looking for one
//! set that gives at least `v`, and cite (Vilím 2005; Schutt, Feydy and Stuckey 2013,
//! "Explaining the cumulative propagator", pointwise form):
//! - *edge finding*, a detection window `[a, b)` whose tasks `Ω` leave no room for `i`
//!   to end by `b` (`E(Ω) + eᵢ > C·(b − min(a, estᵢ))`), so `i` ends after all of them, and
//!   an update window `[a', b') ⊆ [a, b)` whose energy pushes `i` to `a' + ⌈rest / rᵢ⌉` with
//!   `rest = E(a', b') − (C − rᵢ)(b' − a')`: the tasks of `[a', b')` with the bounds
//!   `s ≥ a'`, `s ≤ b' − d`, the rest of `Ω` with `s ≥ a`, `s ≤ b − d`, and `sᵢ ≥ min(a, estᵢ)`;
//! - *detectable precedence* (unary), tasks `Θ'` that each start by `L` while `i` ends
//!   after `L` (`sᵢ ≥ L − pᵢ + 1`), so all of them come first, all starting at `a'` or later:
//!   `estᵢ ≥ a' + p(Θ')`;
//! - *not-first* (unary), tasks `Ω` each ending at `v` or later, that would not fit
//!   between `i`'s end and `T` were `i` first (`sᵢ ≥ T − p(Ω) − pᵢ + 1`, each `s ≤ T − d`),
//!   so one of them comes first and `estᵢ ≥ v`;
//! - *overload* (a conflict), a window `[a, b)` whose tasks need more than `C·(b − a)`.
//!
//! Latest starts are the same rules in mirrored time (`est' = −lct`), and their bounds are
//! mirrored back. Durations and resources take part with their minima and the capacity
//! with its maximum, cited as such. A set is found in `O(n²)` (a table of window energies);
//! when none gives `v` (never expected), the caller uses the naive explanation.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;

/// A table of `rows × cols` cells in one allocation, row after row, indexed by
/// `(row, col)`: the window tables here are rebuilt at every pass of the rules, and a
/// vector per row cost an allocation each.
#[derive(Debug, Clone)]
pub(crate) struct Table<T> {
    cols: usize,
    cells: Vec<T>,
}

impl<T: Copy> Table<T> {
    pub(crate) fn filled(rows: usize, cols: usize, value: T) -> Table<T> {
        Table { cols, cells: vec![value; rows * cols] }
    }
}

impl<T> std::ops::Index<(usize, usize)> for Table<T> {
    type Output = T;
    #[inline]
    fn index(&self, (row, col): (usize, usize)) -> &T {
        debug_assert!(col < self.cols);
        &self.cells[row * self.cols + col]
    }
}

impl<T> std::ops::IndexMut<(usize, usize)> for Table<T> {
    #[inline]
    fn index_mut(&mut self, (row, col): (usize, usize)) -> &mut T {
        debug_assert!(col < self.cols);
        &mut self.cells[row * self.cols + col]
    }
}

/// The energy of every window `[a, b)` bounded by the tasks' own ends, of the tasks given as
/// `(est, lct, energy)`: `lefts` and `rights` are the distinct earliest starts and latest
/// ends, ascending, and `energy[ia][ib]` sums the tasks starting no earlier than `lefts[ia]`
/// and ending no later than `rights[ib]` (a table of suffix-prefix sums, `O(n²)`). Edge
/// finding reads it ([`super::energy`]), and so do its explanations.
pub(crate) fn window_energies(
    tasks: impl Iterator<Item = (Val, Val, Val)> + Clone,
) -> (Vec<Val>, Vec<Val>, Table<Val>) {
    let mut lefts: Vec<Val> = tasks.clone().map(|t| t.0).collect();
    lefts.sort_unstable();
    lefts.dedup();
    let mut rights: Vec<Val> = tasks.clone().map(|t| t.1).collect();
    rights.sort_unstable();
    rights.dedup();
    let (na, nb) = (lefts.len(), rights.len());
    let mut energy = Table::filled(na, nb, 0 as Val);
    for (est, lct, e) in tasks {
        energy[(lefts.partition_point(|&a| a < est), rights.partition_point(|&b| b < lct))] += e;
    }
    // Sum over est ≥ a (rows from the bottom) and lct ≤ b (columns from the left).
    for ia in (0..na).rev() {
        for ib in 0..nb {
            let below = if ia + 1 < na { energy[(ia + 1, ib)] } else { 0 };
            let left = if ib > 0 { energy[(ia, ib - 1)] } else { 0 };
            let diagonal = if ia + 1 < na && ib > 0 { energy[(ia + 1, ib - 1)] } else { 0 };
            energy[(ia, ib)] += below + left - diagonal;
        }
    }
    (lefts, rights, energy)
}

/// A task as the rules saw it: window `[est, lct)`, duration `p` and use `r` at their
/// minima. A task with `p` or `r` at most 0 takes no part.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    pub(crate) est: Val,
    pub(crate) lct: Val,
    pub(crate) p: Val,
    pub(crate) r: Val,
}

impl Span {
    fn energy(&self) -> Val {
        self.p * self.r
    }

    fn active(&self) -> bool {
        self.p > 0 && self.r > 0
    }
}

/// One bound a reason cites, in the frame of the spans given (plain or mirrored time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Task `j` starts at `a` or later.
    EstAtLeast(usize, Val),
    /// Task `j` ends by `b` at the latest.
    LctAtMost(usize, Val),
}

/// Window energies over the tasks of `tasks` other than `skip`: `energy[ia][ib]` is the
/// energy of the tasks whose window lies inside `[lefts[ia], rights[ib])`.
struct Energies {
    lefts: Vec<Val>,
    rights: Vec<Val>,
    energy: Table<Val>,
}

impl Energies {
    fn new(tasks: &[Span], skip: Option<usize>) -> Energies {
        let members = tasks.iter().enumerate().filter(move |&(j, t)| Some(j) != skip && t.active());
        let (lefts, rights, energy) = window_energies(members.map(|(_, t)| (t.est, t.lct, t.energy())));
        Energies { lefts, rights, energy }
    }
}

/// The bounds that put every task but `skip` whose window lies in `[a, b)` there.
fn inside(tasks: &[Span], skip: Option<usize>, a: Val, b: Val, out: &mut Vec<Bound>) {
    for (j, t) in tasks.iter().enumerate() {
        if Some(j) != skip && t.active() && a <= t.est && t.lct <= b {
            out.extend([Bound::EstAtLeast(j, a), Bound::LctAtMost(j, b)]);
        }
    }
}

/// Why `estᵢ ≥ v` by edge finding on a resource of capacity `capacity`.
pub(crate) fn edge_finding(tasks: &[Span], capacity: Val, i: usize, v: Val) -> Option<Vec<Bound>> {
    let ti = tasks[i];
    if !ti.active() || ti.r > capacity {
        return None;
    }
    let Energies { lefts, rights, energy } = Energies::new(tasks, Some(i));
    let (na, nb) = (lefts.len(), rights.len());
    // best[ia][ib]: the strongest update (value, window) from a window inside
    // [lefts[ia], rights[ib]) (a dominance maximum over later lefts and earlier rights).
    let mut best = Table::filled(na, nb, (Val::MIN, 0usize, 0usize));
    for ia in (0..na).rev() {
        for ib in 0..nb {
            let (a, b) = (lefts[ia], rights[ib]);
            let mut here = (Val::MIN, ia, ib);
            if a < b {
                let rest = energy[(ia, ib)] - (capacity - ti.r) * (b - a);
                if rest > 0 {
                    here.0 = a + (rest + ti.r - 1) / ti.r;
                }
            }
            if ia + 1 < na && best[(ia + 1, ib)].0 > here.0 {
                here = best[(ia + 1, ib)];
            }
            if ib > 0 && best[(ia, ib - 1)].0 > here.0 {
                here = best[(ia, ib - 1)];
            }
            best[(ia, ib)] = here;
        }
    }
    // Among the detecting windows whose best update reaches v, the one of least energy.
    let mut chosen: Option<(usize, usize)> = None;
    for ia in 0..na {
        for ib in 0..nb {
            let (a, b) = (lefts[ia], rights[ib]);
            let detects = a < b && energy[(ia, ib)] + ti.energy() > capacity * (b - a.min(ti.est));
            if detects && best[(ia, ib)].0 >= v && chosen.is_none_or(|(ca, cb)| energy[(ia, ib)] < energy[(ca, cb)]) {
                chosen = Some((ia, ib));
            }
        }
    }
    let (ia, ib) = chosen?;
    let (a, b) = (lefts[ia], rights[ib]);
    let (_, ua, ub) = best[(ia, ib)];
    let (a2, b2) = (lefts[ua], rights[ub]);
    let mut out = vec![Bound::EstAtLeast(i, a.min(ti.est))];
    for (j, t) in tasks.iter().enumerate() {
        if j == i || !t.active() {
            continue;
        }
        if a2 <= t.est && t.lct <= b2 {
            out.extend([Bound::EstAtLeast(j, a2), Bound::LctAtMost(j, b2)]);
        } else if a <= t.est && t.lct <= b {
            out.extend([Bound::EstAtLeast(j, a), Bound::LctAtMost(j, b)]);
        }
    }
    Some(out)
}

/// Why `estᵢ ≥ v` by detectable precedences (unary: every `r` taken as 1).
pub(crate) fn detectable_precedences(tasks: &[Span], i: usize, v: Val) -> Option<Vec<Bound>> {
    let ti = tasks[i];
    let ect_i = ti.est + ti.p;
    // Θ: the tasks that surely come before i, by earliest start, latest first.
    let mut theta: Vec<usize> =
        (0..tasks.len()).filter(|&j| j != i && tasks[j].p > 0 && ect_i > tasks[j].lct - tasks[j].p).collect();
    theta.sort_unstable_by_key(|&j| std::cmp::Reverse(tasks[j].est));
    // The fewest (latest-starting) tasks whose earliest start plus total duration reach v.
    let mut total = 0;
    let mut count = None;
    for (k, &j) in theta.iter().enumerate() {
        total += tasks[j].p;
        if tasks[j].est + total >= v {
            count = Some(k + 1);
            break;
        }
    }
    let chosen = &theta[..count?];
    let a = chosen.iter().map(|&j| tasks[j].est).min()?;
    let latest_start = chosen.iter().map(|&j| tasks[j].lct - tasks[j].p).max()?;
    let mut out = vec![Bound::EstAtLeast(i, latest_start - ti.p + 1)];
    for &j in chosen {
        out.extend([Bound::EstAtLeast(j, a), Bound::LctAtMost(j, latest_start + tasks[j].p)]);
    }
    Some(out)
}

/// Why `estᵢ ≥ v` by not-first (unary: every `r` taken as 1).
pub(crate) fn not_first(tasks: &[Span], i: usize, v: Val) -> Option<Vec<Bound>> {
    let ti = tasks[i];
    let mut omega: Vec<usize> =
        (0..tasks.len()).filter(|&j| j != i && tasks[j].p > 0 && tasks[j].est + tasks[j].p >= v).collect();
    omega.sort_unstable_by_key(|&j| tasks[j].lct);
    // The smallest prefix by latest completion T whose tasks cannot all follow i by T.
    let mut total = 0;
    for k in 0..omega.len() {
        total += tasks[omega[k]].p;
        let t = tasks[omega[k]].lct;
        if k + 1 < omega.len() && tasks[omega[k + 1]].lct == t {
            continue;
        }
        if ti.est + ti.p > t - total {
            let mut out = vec![Bound::EstAtLeast(i, t - total - ti.p + 1)];
            for &j in &omega[..=k] {
                out.extend([Bound::EstAtLeast(j, v - tasks[j].p), Bound::LctAtMost(j, t)]);
            }
            return Some(out);
        }
    }
    None
}

/// Why the tasks have no schedule, by a window that needs more energy than it supplies.
pub(crate) fn overload(tasks: &[Span], capacity: Val) -> Option<Vec<Bound>> {
    let Energies { lefts, rights, energy } = Energies::new(tasks, None);
    let mut chosen: Option<(usize, usize)> = None;
    for (ia, &a) in lefts.iter().enumerate() {
        for (ib, &b) in rights.iter().enumerate() {
            if a < b
                && energy[(ia, ib)] > capacity * (b - a)
                && chosen.is_none_or(|(ca, cb)| energy[(ia, ib)] < energy[(ca, cb)])
            {
                chosen = Some((ia, ib));
            }
        }
    }
    let (ia, ib) = chosen?;
    let mut out = Vec::new();
    inside(tasks, None, lefts[ia], rights[ib], &mut out);
    Some(out)
}

/// The variables of a set of tasks on one resource, and how their rules' bounds read as
/// literals.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskVars<'a> {
    pub(crate) starts: &'a [VarId],
    pub(crate) durations: &'a [VarId],
    /// `None`: a unary resource (every use 1, capacity 1).
    pub(crate) resources: Option<&'a [VarId]>,
    pub(crate) capacity: Option<VarId>,
}

/// Which rules a resource runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// Edge finding, detectable precedences and not-first.
    Unary,
    /// Energetic edge finding.
    Cumulative,
}

impl TaskVars<'_> {
    /// The tasks as the domains were, in plain time or mirrored (`est' = −lct`).
    fn spans(&self, cx: &ExplainContext<'_>, mirrored: bool) -> Vec<Span> {
        (0..self.starts.len())
            .map(|j| {
                let (s, p) = (self.starts[j], cx.min(self.durations[j]));
                let r = self.resources.map_or(1, |rs| cx.min(rs[j]));
                let (est, lct) = (cx.min(s), cx.max(s) + p);
                if mirrored {
                    Span { est: -lct, lct: -est, p, r }
                } else {
                    Span { est, lct, p, r }
                }
            })
            .collect()
    }

    fn capacity_then(&self, cx: &ExplainContext<'_>) -> Val {
        self.capacity.map_or(1, |c| cx.max(c))
    }

    /// Why `estᵢ ≥ v` in the frame of `spans`, by any of `rules`.
    fn why_est(&self, rules: Rules, spans: &[Span], capacity: Val, i: usize, v: Val) -> Option<Vec<Bound>> {
        // A task that may last 0 may go anywhere: the rules leave it alone.
        if !spans[i].active() {
            return None;
        }
        match rules {
            Rules::Unary => detectable_precedences(spans, i, v)
                .or_else(|| edge_finding(spans, 1, i, v))
                .or_else(|| not_first(spans, i, v)),
            Rules::Cumulative => edge_finding(spans, capacity, i, v),
        }
    }

    /// A start bound of a task explained by `rules`, or `None` (the naive explanation).
    pub(crate) fn explain(&self, rules: Rules, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let i = self.starts.iter().position(|&x| x == lit.var())?;
        let p = cx.min(self.durations[i]);
        let (mirrored, v) = match lit {
            Literal::Gt(_, v) => (false, v + 1),
            // s ≤ v is lct ≤ v + p, which is est' ≥ −(v + p) in mirrored time.
            Literal::Le(_, v) => (true, -(v + p)),
            _ => return None,
        };
        let spans = self.spans(cx, mirrored);
        let bounds = self.why_est(rules, &spans, self.capacity_then(cx), i, v)?;
        Some(self.literals(cx, &spans, mirrored, &bounds))
    }

    /// A conflict: an overload, or a task whose earliest start some rule pushes past its
    /// latest (either way in time). `None`: the naive explanation.
    pub(crate) fn explain_conflict(&self, rules: Rules, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let capacity = self.capacity_then(cx);
        let spans = self.spans(cx, false);
        if let Some(bounds) = overload(&spans, capacity) {
            return Some(self.literals(cx, &spans, false, &bounds));
        }
        for mirrored in [false, true] {
            let spans = self.spans(cx, mirrored);
            for (i, t) in spans.iter().enumerate() {
                if !t.active() {
                    continue;
                }
                // Its start pushed past lct − p, with lct ≤ its current value.
                if let Some(mut bounds) = self.why_est(rules, &spans, capacity, i, t.lct - t.p + 1) {
                    bounds.push(Bound::LctAtMost(i, t.lct));
                    return Some(self.literals(cx, &spans, mirrored, &bounds));
                }
            }
        }
        None
    }

    /// The literals of `bounds` (in the frame `mirrored`), with the durations and uses of
    /// the tasks they name at their minima and the capacity at its maximum.
    fn literals(&self, cx: &ExplainContext<'_>, spans: &[Span], mirrored: bool, bounds: &[Bound]) -> Vec<Literal> {
        let mut out = Vec::with_capacity(bounds.len() + 4);
        let mut named: Vec<usize> = Vec::new();
        for &bound in bounds {
            let (j, lit) = match (bound, mirrored) {
                (Bound::EstAtLeast(j, a), false) => (j, Literal::Gt(self.starts[j], a - 1)),
                (Bound::LctAtMost(j, b), false) => (j, Literal::Le(self.starts[j], b - spans[j].p)),
                (Bound::EstAtLeast(j, a), true) => (j, Literal::Le(self.starts[j], -a - spans[j].p)),
                (Bound::LctAtMost(j, b), true) => (j, Literal::Gt(self.starts[j], -b - 1)),
            };
            out.push(lit);
            named.push(j);
        }
        named.sort_unstable();
        named.dedup();
        for j in named {
            out.push(Literal::Gt(self.durations[j], spans[j].p - 1));
            if let Some(rs) = self.resources {
                out.push(Literal::Gt(rs[j], spans[j].r - 1));
            }
        }
        if let Some(c) = self.capacity {
            out.push(Literal::Le(c, cx.max(c)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Rules, TaskVars};
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;

    /// Tasks A, B, C, D of duration 3 (starts 0–3, durations 4–7); A and B must run
    /// within [0, 6), D from 20 on.
    fn branch() -> Past {
        let mut ranges = vec![(0, 30); 4];
        ranges.extend([(3, 3); 4]);
        Past::new(&ranges, &[Literal::Le(var(0), 3), Literal::Le(var(1), 3), Literal::Gt(var(3), 19)])
    }

    #[test]
    fn unary_edge_finding_cites_the_set_and_not_the_others() {
        let past = branch();
        let (starts, durations) = ([var(0), var(1), var(2), var(3)], [var(4), var(5), var(6), var(7)]);
        let tasks = TaskVars { starts: &starts, durations: &durations, resources: None, capacity: None };
        // C cannot end by 6 with A and B there: it starts at 6.
        let reason = tasks.explain(Rules::Unary, Literal::Gt(var(2), 5), &past.cx()).expect("a rule gives it");
        for lit in [Literal::Le(var(0), 3), Literal::Le(var(1), 3)] {
            assert!(reason.contains(&lit), "{reason:?} lacks {lit:?}");
        }
        assert!(reason.iter().all(|l| l.var() != var(3) && l.var() != var(7)), "D cited: {reason:?}");
        // Mirrored: D's window does not reach A's, so nothing pushes A's latest start.
        assert!(tasks.explain(Rules::Unary, Literal::Le(var(0), 2), &past.cx()).is_none());
    }

    #[test]
    fn unary_detectable_precedence_lifts_the_later_tasks_start() {
        // A must start by 3, C starts at 2 or later: C ends after 3, so A comes first and
        // C starts at 3 at the earliest, whatever B and D do.
        let mut ranges = vec![(0, 30); 4];
        ranges.extend([(3, 3); 4]);
        let past = Past::new(&ranges, &[Literal::Le(var(0), 3), Literal::Gt(var(2), 1)]);
        let (starts, durations) = ([var(0), var(1), var(2), var(3)], [var(4), var(5), var(6), var(7)]);
        let tasks = TaskVars { starts: &starts, durations: &durations, resources: None, capacity: None };
        let reason = tasks.explain(Rules::Unary, Literal::Gt(var(2), 2), &past.cx()).expect("a rule gives it");
        // C's start lifted to the weakest that still ends after A's latest start (1).
        assert!(reason.contains(&Literal::Le(var(0), 3)) && reason.contains(&Literal::Gt(var(2), 0)), "{reason:?}");
        assert!(reason.iter().all(|l| ![var(1), var(3)].contains(&l.var())), "B or D cited: {reason:?}");
    }

    #[test]
    fn cumulative_edge_finding_cites_the_windows_tasks_and_the_capacity() {
        // Capacity 2; A and B use 1 for 4 within [0, 6); C uses 2 for 3: it cannot end by
        // 6, and while A and B run it has no room: it starts at 4.
        let mut ranges = vec![(0, 30); 4];
        ranges.extend([(4, 4), (4, 4), (3, 3), (3, 3), (1, 1), (1, 1), (2, 2), (1, 1), (2, 2)]);
        let past = Past::new(&ranges, &[Literal::Le(var(0), 2), Literal::Le(var(1), 2), Literal::Gt(var(3), 19)]);
        let (starts, durations, uses) =
            ([var(0), var(1), var(2), var(3)], [var(4), var(5), var(6), var(7)], [var(8), var(9), var(10), var(11)]);
        let tasks =
            TaskVars { starts: &starts, durations: &durations, resources: Some(&uses), capacity: Some(var(12)) };
        let reason = tasks.explain(Rules::Cumulative, Literal::Gt(var(2), 3), &past.cx()).expect("a rule gives it");
        for lit in [Literal::Le(var(0), 2), Literal::Le(var(1), 2), Literal::Le(var(12), 2)] {
            assert!(reason.contains(&lit), "{reason:?} lacks {lit:?}");
        }
        assert!(reason.iter().all(|l| ![var(3), var(7), var(11)].contains(&l.var())), "D cited: {reason:?}");
        // One more is beyond the rule.
        assert!(tasks.explain(Rules::Cumulative, Literal::Gt(var(2), 4), &past.cx()).is_none());
    }
}
