//! Cumulative and disjunctive (time-tabling, and edge finding where the resource is unary)
//! against brute force: on random small instances, the solutions the search finds are
//! exactly the assignments that satisfy the definitions written here, and propagation at the
//! root never removes a value that some solution uses.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use cpsolve_engine::{constraints, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

/// A task: start domain, duration domain, resource domain (inclusive ranges).
#[derive(Debug, Clone)]
struct Task {
    start: (Val, Val),
    duration: (Val, Val),
    resource: (Val, Val),
}

fn task() -> impl Strategy<Value = Task> {
    (-2i64..3, 0i64..5, 0i64..3, 0i64..2, 0i64..3, 0i64..2).prop_map(|(s, sw, d, dw, r, rw)| Task {
        start: (s, s + sw),
        duration: (d, d + dw),
        resource: (r, r + rw),
    })
}

/// MiniZinc's cumulative at a full assignment, by scanning every time point.
fn cumulative_holds(s: &[Val], d: &[Val], r: &[Val], c: Val) -> bool {
    let (lo, hi) = (s.iter().min().copied().unwrap_or(0), s.iter().zip(d).map(|(a, b)| a + b).max().unwrap_or(0));
    (lo..hi).all(|t| (0..s.len()).filter(|&i| s[i] <= t && t < s[i] + d[i]).map(|i| r[i]).sum::<Val>() <= c)
        && (s.is_empty() || c >= 0)
}

fn disjunctive_holds(s: &[Val], d: &[Val], strict: bool) -> bool {
    (0..s.len()).all(|i| {
        (i + 1..s.len()).all(|j| (!strict && (d[i] == 0 || d[j] == 0)) || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i])
    })
}

/// Every assignment of the given ranges, in order.
fn assignments(ranges: &[(Val, Val)]) -> Vec<Vec<Val>> {
    let mut all = vec![Vec::new()];
    for &(lo, hi) in ranges {
        all = all.into_iter().flat_map(|p| (lo..=hi).map(move |v| [p.clone(), vec![v]].concat())).collect();
    }
    all
}

fn solutions(solver: &mut Solver, vars: &[VarId]) -> BTreeSet<Vec<Val>> {
    let mut found = BTreeSet::new();
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    solver.search(&config, |s| {
        found.insert(vars.iter().map(|&x| s.value(x)).collect());
        ControlFlow::Continue(())
    });
    found
}

/// The root domains keep every value that some solution uses.
fn root_keeps_supports(
    solver: &mut Solver,
    vars: &[VarId],
    expected: &BTreeSet<Vec<Val>>,
) -> Result<(), TestCaseError> {
    let ok = solver.propagate();
    if ok {
        for sol in expected {
            for (k, &x) in vars.iter().enumerate() {
                prop_assert!(solver.contains(x, sol[k]), "value {} of variable {} removed at the root", sol[k], k);
            }
        }
    } else {
        prop_assert!(expected.is_empty(), "root propagation failed on a model with solutions");
    }
    Ok(())
}

/// A cumulative of tasks with starts in `ranges` and fixed durations `d` and uses `r`
/// under `capacity`: the root keeps every start some brute-force solution takes, and the
/// search finds exactly the brute-force solutions.
fn fixed_tasks_agree_with_brute_force(
    ranges: &[(Val, Val)],
    d: &[Val],
    r: &[Val],
    capacity: Val,
) -> Result<(), TestCaseError> {
    let expected: BTreeSet<Vec<Val>> =
        assignments(ranges).into_iter().filter(|a| cumulative_holds(a, d, r, capacity)).collect();
    let mut solver = Solver::new();
    let starts: Vec<VarId> = ranges.iter().map(|&(lo, hi)| solver.new_var(lo, hi).unwrap()).collect();
    let dv: Vec<VarId> = d.iter().map(|&v| solver.new_var(v, v).unwrap()).collect();
    let rv: Vec<VarId> = r.iter().map(|&v| solver.new_var(v, v).unwrap()).collect();
    let c = solver.new_var(capacity, capacity).unwrap();
    constraints::cumulative(&mut solver, &starts, &dv, &rv, c).unwrap();
    root_keeps_supports(&mut solver, &starts, &expected)?;
    prop_assert_eq!(solutions(&mut solver, &starts), expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn cumulative_finds_exactly_the_brute_force_solutions(
        tasks in proptest::collection::vec(task(), 1..4),
        capacity in (0i64..3, 0i64..2),
    ) {
        let mut ranges: Vec<(Val, Val)> = Vec::new();
        for t in &tasks { ranges.push(t.start); }
        for t in &tasks { ranges.push(t.duration); }
        for t in &tasks { ranges.push(t.resource); }
        ranges.push((capacity.0, capacity.0 + capacity.1));
        let n = tasks.len();
        let expected: BTreeSet<Vec<Val>> = assignments(&ranges)
            .into_iter()
            .filter(|a| cumulative_holds(&a[..n], &a[n..2 * n], &a[2 * n..3 * n], a[3 * n]))
            .collect();
        let mut solver = Solver::new();
        let vars: Vec<VarId> = ranges.iter().map(|&(lo, hi)| solver.new_var(lo, hi).unwrap()).collect();
        constraints::cumulative(&mut solver, &vars[..n], &vars[n..2 * n], &vars[2 * n..3 * n], vars[3 * n]).unwrap();
        root_keeps_supports(&mut solver, &vars, &expected)?;
        let found = solutions(&mut solver, &vars);
        prop_assert_eq!(found, expected);
    }

    /// More tasks with fixed durations and resources, where the energetic rules (overload,
    /// edge finding) have sets to reason about; only the starts vary.
    #[test]
    fn cumulative_of_fixed_tasks_finds_exactly_the_brute_force_solutions(
        tasks in proptest::collection::vec((0i64..4, 0i64..4, 1i64..4, 1i64..4), 3..6),
        capacity in 1i64..5,
    ) {
        let ranges: Vec<(Val, Val)> = tasks.iter().map(|&(s, w, _, _)| (s, s + w)).collect();
        let d: Vec<Val> = tasks.iter().map(|t| t.2).collect();
        let r: Vec<Val> = tasks.iter().map(|t| t.3).collect();
        fixed_tasks_agree_with_brute_force(&ranges, &d, &r, capacity)?;
    }

    /// Tasks that all last one unit: the tasks too large to run together are an
    /// all-different there, not a unary resource's edge finding.
    #[test]
    fn cumulative_of_unit_tasks_finds_exactly_the_brute_force_solutions(
        tasks in proptest::collection::vec((0i64..4, 0i64..4, 1i64..5), 2..7),
        capacity in 1i64..6,
    ) {
        let ranges: Vec<(Val, Val)> = tasks.iter().map(|&(s, w, _)| (s, s + w)).collect();
        let d: Vec<Val> = vec![1; tasks.len()];
        let r: Vec<Val> = tasks.iter().map(|t| t.2).collect();
        fixed_tasks_agree_with_brute_force(&ranges, &d, &r, capacity)?;
    }

    #[test]
    fn disjunctive_finds_exactly_the_brute_force_solutions(
        tasks in proptest::collection::vec(task(), 1..5),
        strict in any::<bool>(),
    ) {
        let mut ranges: Vec<(Val, Val)> = Vec::new();
        for t in &tasks { ranges.push(t.start); }
        for t in &tasks { ranges.push(t.duration); }
        let n = tasks.len();
        let expected: BTreeSet<Vec<Val>> = assignments(&ranges)
            .into_iter()
            .filter(|a| disjunctive_holds(&a[..n], &a[n..], strict))
            .collect();
        let mut solver = Solver::new();
        let vars: Vec<VarId> = ranges.iter().map(|&(lo, hi)| solver.new_var(lo, hi).unwrap()).collect();
        constraints::disjunctive(&mut solver, &vars[..n], &vars[n..], strict).unwrap();
        root_keeps_supports(&mut solver, &vars, &expected)?;
        let found = solutions(&mut solver, &vars);
        prop_assert_eq!(found, expected);
    }
}

/// Time-tabling: a task that fills the capacity cannot overlap another task's compulsory
/// part, so its earliest start moves past it (bounds only: holes are not cut); edge finding:
/// of three tasks, one that can go neither first nor between the others goes after both.
#[test]
fn the_profile_and_edge_finding_push_start_times() {
    let mut solver = Solver::new();
    let a = solver.new_var(2, 3).unwrap(); // runs during [3, 4) whatever happens
    let b = solver.new_var(2, 10).unwrap();
    let (two, one) = (solver.new_var(2, 2).unwrap(), solver.new_var(1, 1).unwrap());
    constraints::cumulative(&mut solver, &[a, b], &[two, two], &[one, one], one).unwrap();
    assert!(solver.propagate());
    // b (duration 2) would overlap [3, 4) starting at 2 or 3: it starts at 4 at the earliest.
    assert_eq!(solver.min(b), 4, "b must start after the compulsory part of a");

    let mut solver = Solver::new();
    let x = solver.new_var(0, 2).unwrap();
    let y = solver.new_var(0, 2).unwrap();
    let z = solver.new_var(0, 5).unwrap();
    let two = solver.new_var(2, 2).unwrap();
    constraints::disjunctive(&mut solver, &[x, y, z], &[two, two, two], false).unwrap();
    assert!(solver.propagate());
    // x and y both end by 4 and take 4 units together: z cannot come first nor between them,
    // so it starts after both (no compulsory part exists: time-tabling alone sees nothing).
    assert_eq!(solver.min(z), 4);
}

/// Unit tasks on a unary resource: two of them fill `[0, 2)`, so the third starts at 2 (a
/// Hall interval; a fixed task's start also leaves the others' domains).
#[test]
fn unit_tasks_on_a_unary_resource_are_all_different() {
    let mut solver = Solver::new();
    let x = solver.new_var(0, 1).unwrap();
    let y = solver.new_var(0, 1).unwrap();
    let z = solver.new_var(0, 5).unwrap();
    let one = solver.new_var(1, 1).unwrap();
    constraints::disjunctive(&mut solver, &[x, y, z], &[one, one, one], false).unwrap();
    assert!(solver.propagate());
    assert_eq!(solver.min(z), 2);

    let mut solver = Solver::new();
    let (a, b) = (solver.new_var(3, 3).unwrap(), solver.new_var(0, 6).unwrap());
    let one = solver.new_var(1, 1).unwrap();
    constraints::disjunctive(&mut solver, &[a, b], &[one, one], false).unwrap();
    assert!(solver.propagate());
    assert!(!solver.contains(b, 3), "a fixed unit task's start is taken");
}

/// Three tasks on a unary resource (capacity 1, each uses 1), fixed durations: the bounds
/// propagation leaves. Found by comparing the propagator with and without each rule on
/// random instances; each case needs the rule it is named after.
fn unary_bounds(tasks: &[(Val, Val, Val)]) -> Vec<(Val, Val)> {
    let mut solver = Solver::new();
    let starts: Vec<VarId> = tasks.iter().map(|&(lo, hi, _)| solver.new_var(lo, hi).unwrap()).collect();
    let durations: Vec<VarId> = tasks.iter().map(|&(_, _, p)| solver.new_var(p, p).unwrap()).collect();
    let one = solver.new_var(1, 1).unwrap();
    constraints::cumulative(&mut solver, &starts, &durations, &vec![one; tasks.len()], one).unwrap();
    assert!(solver.propagate());
    starts.iter().map(|&x| (solver.min(x), solver.max(x))).collect()
}

#[test]
fn detectable_precedences_push_a_task_after_those_it_cannot_end_before() {
    // The first task ends at 10 at the earliest, after both others must have started (by
    // 7): both come first, and together they end at 6 at the earliest.
    assert_eq!(unary_bounds(&[(5, 14, 5), (1, 7, 2), (0, 7, 4)]), vec![(6, 14), (1, 7), (0, 7)]);
}

#[test]
fn not_last_pulls_a_task_before_the_latest_start_of_the_others() {
    // Starting at 9, the third task would run last, and the other two could not both fit
    // before 9: it is not last, so it starts by the latest start of one of them.
    assert_eq!(unary_bounds(&[(3, 11, 3), (3, 7, 5), (0, 9, 3)]), vec![(3, 11), (3, 7), (0, 8)]);
}

/// Tasks whose heights exceed half the capacity (and the largest smaller one that still
/// cannot run beside them) form a unary resource even when the heights, the capacity and
/// the durations are variables: edge finding then applies with the smallest durations.
#[test]
fn tasks_too_big_to_share_get_edge_finding_with_variable_durations() {
    let mut solver = Solver::new();
    let x = solver.new_var(0, 2).unwrap();
    let y = solver.new_var(0, 2).unwrap();
    let z = solver.new_var(0, 5).unwrap();
    let d: Vec<VarId> = (0..3).map(|_| solver.new_var(2, 3).unwrap()).collect();
    let big = solver.new_var(6, 9).unwrap();
    let half = solver.new_var(5, 9).unwrap();
    let capacity = solver.new_var(0, 10).unwrap();
    constraints::cumulative(&mut solver, &[x, y, z], &d, &[big, big, half], capacity).unwrap();
    assert!(solver.propagate());
    assert_eq!(solver.min(z), 4, "x and y take 4 units by time 4 at the earliest: z goes after both");
}

/// A task that surely runs while another holds the whole capacity cannot use it: its
/// resource drops to 0 (a worker already busy cannot be assigned).
#[test]
fn the_profile_bounds_the_resource_of_a_task_that_surely_runs() {
    let mut solver = Solver::new();
    let (a, b) = (solver.new_var(0, 0).unwrap(), solver.new_var(2, 3).unwrap());
    let (five, three) = (solver.new_var(5, 5).unwrap(), solver.new_var(3, 3).unwrap());
    let (busy, maybe) = (solver.new_var(2, 2).unwrap(), solver.new_var(0, 1).unwrap());
    let capacity = solver.new_var(2, 2).unwrap();
    constraints::cumulative(&mut solver, &[a, b], &[five, three], &[busy, maybe], capacity).unwrap();
    assert!(solver.propagate());
    assert_eq!(solver.max(maybe), 0, "b runs during [3, 5), when a uses the whole capacity");
}

/// Energy: a task that takes the whole capacity (2) cannot run beside two tasks of 1 that
/// together need [0, 3): it starts at 3. Neither time-tabling (no compulsory part before 3)
/// nor the unary rules (only the big task is exclusive) see it; edge finding over the
/// energy of the window [0, 3) does.
#[test]
fn energetic_edge_finding_pushes_a_task_past_a_full_window() {
    let mut solver = Solver::new();
    let starts: Vec<VarId> = [(0, 3), (1, 7), (0, 2)].iter().map(|&(lo, hi)| solver.new_var(lo, hi).unwrap()).collect();
    let durations: Vec<VarId> = [3, 5, 2].iter().map(|&p| solver.new_var(p, p).unwrap()).collect();
    let resources: Vec<VarId> = [1, 2, 1].iter().map(|&r| solver.new_var(r, r).unwrap()).collect();
    let capacity = solver.new_var(2, 2).unwrap();
    constraints::cumulative(&mut solver, &starts, &durations, &resources, capacity).unwrap();
    assert!(solver.propagate());
    let bounds: Vec<(Val, Val)> = starts.iter().map(|&x| (solver.min(x), solver.max(x))).collect();
    assert_eq!(bounds, vec![(0, 3), (3, 7), (0, 2)]);
}
