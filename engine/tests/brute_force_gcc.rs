//! Global cardinality (counts as variables, or as bounds; open or closed) checked against
//! brute force on small random instances, and its pruning rules on hand-picked cases.
//!
//! For each random instance (0 to 5 variables over small domains, a cover of 0 to 3 values
//! that may repeat one and may miss the domains, count domains that may stray below 0 or
//! above n, values removed or fixed after posting, sometimes a count that is a variable of
//! `x` itself, sometimes a random linear constraint beside it):
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - the rules hold at the fixpoint (the propagator promises no domain consistency, so
//!   each rule is checked as stated in its module documentation);
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order.
//!
//! The definition here is the one of `constraints::global_cardinality`: `counts[k]` is the
//! number of variables equal to `cover[k]` (between `lo[k]` and `up[k]` in the bounded
//! form), and closed, every variable takes a value of the cover. (MiniZinc's standard
//! decomposition adds `Σ counts ≤ n` as an implied constraint, which it is not when the
//! cover repeats a value; cpsolve keeps to the documented meaning, as Gecode does.)

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{global_cardinality, global_cardinality_low_up, linear};
use cpsolve_engine::{Rel, SearchConfig, Solver, Val, VarId};
use proptest::prelude::*;

mod common;

/// A change made after posting, to a variable of `x` (or a count, past them).
#[derive(Debug, Clone, Copy)]
enum Late {
    Remove(usize, Val),
    Fix(usize, Val),
}

#[derive(Debug, Clone)]
enum Counts {
    /// One variable per value of the cover: its domain, or the variable of `x` it is.
    Vars(Vec<Result<Vec<Val>, usize>>),
    /// Bounds per value of the cover.
    Bounds(Vec<(Val, Val)>),
}

#[derive(Debug, Clone)]
struct Model {
    x: Vec<Vec<Val>>,
    cover: Vec<Val>,
    counts: Counts,
    closed: bool,
    late: Vec<Late>,
    /// `Σ coefs·x ≤ rhs`, when present.
    side: Option<(Vec<i64>, i64)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    /// The domains of the model's variables: `x`, then the counts that are variables of
    /// their own.
    fn domains(&self) -> Vec<Vec<Val>> {
        let mut domains = self.x.clone();
        if let Counts::Vars(counts) = &self.counts {
            domains.extend(counts.iter().filter_map(|c| c.as_ref().ok().cloned()));
        }
        domains
    }

    /// The index among the model's variables of each count variable.
    fn count_vars(&self) -> Vec<usize> {
        let Counts::Vars(counts) = &self.counts else { return Vec::new() };
        let mut next = self.x.len();
        counts
            .iter()
            .map(|c| match c {
                Ok(_) => {
                    next += 1;
                    next - 1
                }
                Err(i) => *i,
            })
            .collect()
    }

    fn occurrences(values: &[Val], v: Val) -> Val {
        values.iter().filter(|&&w| w == v).count() as Val
    }

    fn holds(&self, values: &[Val]) -> bool {
        let x = &values[..self.x.len()];
        let closed = !self.closed || x.iter().all(|v| self.cover.contains(v));
        let counted = match &self.counts {
            Counts::Vars(_) => {
                self.cover.iter().zip(self.count_vars()).all(|(&v, c)| Model::occurrences(x, v) == values[c])
            }
            Counts::Bounds(bounds) => self.cover.iter().zip(bounds).all(|(&v, &(lo, up))| {
                let n = Model::occurrences(x, v);
                lo <= n && n <= up
            }),
        };
        closed
            && counted
            && self
                .side
                .as_ref()
                .is_none_or(|(coefs, rhs)| coefs.iter().zip(x).map(|(&a, &v)| a * v).sum::<i64>() <= *rhs)
    }

    fn final_domains(&self) -> Vec<Vec<Val>> {
        let mut domains = self.domains();
        for &late in &self.late {
            match late {
                Late::Remove(i, v) => domains[i].retain(|&w| w != v),
                Late::Fix(i, v) => domains[i].retain(|&w| w == v),
            }
        }
        domains
    }

    /// Every solution. `x` is enumerated; each count is then the number of occurrences of
    /// its value (no other value can satisfy it), kept if its domain holds it.
    fn brute_force(&self) -> Vec<Vec<Val>> {
        let domains = self.final_domains();
        let n = self.x.len();
        let mut assignments = vec![Vec::new()];
        for d in &domains[..n] {
            assignments =
                assignments.into_iter().flat_map(|p| d.iter().map(move |&v| [p.clone(), vec![v]].concat())).collect();
        }
        let mut found = Vec::new();
        for x in assignments {
            let mut values = x.clone();
            if let Counts::Vars(counts) = &self.counts {
                for (k, c) in counts.iter().enumerate() {
                    if c.is_ok() {
                        values.push(Model::occurrences(&x, self.cover[k]));
                    }
                }
            }
            if values.iter().zip(&domains).all(|(v, d)| d.contains(v)) && self.holds(&values) {
                found.push(values);
            }
        }
        found
    }

    fn build(&self) -> (Solver, Vec<VarId>) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = self.domains().iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
        let x = &vars[..self.x.len()];
        match &self.counts {
            Counts::Vars(_) => {
                let counts: Vec<VarId> = self.count_vars().iter().map(|&c| vars[c]).collect();
                global_cardinality(&mut solver, x, &self.cover, &counts, self.closed).expect("one count per value");
            }
            Counts::Bounds(bounds) => {
                let (lo, up): (Vec<Val>, Vec<Val>) = bounds.iter().copied().unzip();
                global_cardinality_low_up(&mut solver, x, &self.cover, &lo, &up, self.closed)
                    .expect("one bound per value");
            }
        }
        if let Some((coefs, rhs)) = &self.side {
            let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(x.iter().copied()).collect();
            linear(&mut solver, &terms, Rel::Le, *rhs).expect("small sums");
        }
        for &late in &self.late {
            match late {
                Late::Remove(i, v) => solver.remove(vars[i], v),
                Late::Fix(i, v) => solver.assign(vars[i], v),
            }
        }
        (solver, vars)
    }
}

/// The rules of the module documentation, at the fixpoint of a propagation that succeeded.
fn check_rules(m: &Model, solver: &Solver, vars: &[VarId]) -> Result<(), TestCaseError> {
    let x = &vars[..m.x.len()];
    let in_cover = |v: Val| m.cover.contains(&v);
    if m.closed {
        for &xi in x {
            prop_assert!(solver.values(xi).all(in_cover), "closed, but a variable keeps a value outside the cover");
        }
    }
    let mut distinct = m.cover.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let fixed = |v: Val| x.iter().filter(|&&xi| solver.is_fixed(xi) && solver.min(xi) == v).count() as Val;
    let possible = |v: Val| x.iter().filter(|&&xi| solver.contains(xi, v)).count() as Val;
    let all_take = |v: Val| x.iter().all(|&xi| !solver.contains(xi, v) || solver.is_fixed(xi));
    match &m.counts {
        Counts::Vars(_) => {
            // The bounds of each value's count (the tightest over a repeated value).
            let count_vars = m.count_vars();
            let bounds = |v: Val| {
                let cs: Vec<VarId> =
                    m.cover.iter().zip(&count_vars).filter(|&(&w, _)| w == v).map(|(_, &c)| vars[c]).collect();
                (
                    cs.iter().map(|&c| solver.min(c)).max().unwrap_or(0),
                    cs.iter().map(|&c| solver.max(c)).min().unwrap_or(0),
                )
            };
            for &v in &distinct {
                let (lo, hi) = bounds(v);
                prop_assert!(
                    fixed(v) <= lo && hi <= possible(v),
                    "count of {v} in {lo}..{hi}: not within fixed..possible"
                );
                if fixed(v) == hi {
                    prop_assert!(all_take(v), "value {v} is saturated but a free variable keeps it");
                }
                if possible(v) == lo {
                    prop_assert!(all_take(v), "every variable that can take {v} must, but one is free");
                }
            }
            // The sum: between the variables within the cover and those that meet it.
            let within = |xi: VarId| solver.values(xi).all(in_cover);
            let meets = |xi: VarId| solver.values(xi).any(in_cover);
            let n = x.len() as Val;
            let (low, high) = if m.closed {
                (n, n)
            } else {
                (x.iter().filter(|&&xi| within(xi)).count() as Val, x.iter().filter(|&&xi| meets(xi)).count() as Val)
            };
            let min_sum: Val = distinct.iter().map(|&v| bounds(v).0).sum();
            let max_sum: Val = distinct.iter().map(|&v| bounds(v).1).sum();
            for &v in &distinct {
                let (lo, hi) = bounds(v);
                prop_assert!(hi <= high - (min_sum - lo), "count of {v} at most {hi}, the others leave less");
                prop_assert!(lo >= low - (max_sum - hi), "count of {v} at least {lo}, the others need more");
            }
            if !m.closed && min_sum == high {
                prop_assert!(x.iter().all(|&xi| !meets(xi) || within(xi)), "the counts need every variable that can");
            }
            if !m.closed && max_sum == low {
                prop_assert!(x.iter().all(|&xi| within(xi) || !meets(xi)), "the counts are full, a variable may add");
            }
        }
        Counts::Bounds(bounds) => {
            for &v in &distinct {
                let lo = m.cover.iter().zip(bounds).filter(|&(&w, _)| w == v).map(|(_, b)| b.0).max().unwrap_or(0);
                let up = m.cover.iter().zip(bounds).filter(|&(&w, _)| w == v).map(|(_, b)| b.1).min().unwrap_or(0);
                prop_assert!(fixed(v) <= up && lo <= possible(v), "value {v}: bounds {lo}..{up} out of reach");
                if fixed(v) == up || possible(v) == lo {
                    prop_assert!(all_take(v), "value {v} at a bound, but a free variable keeps it");
                }
            }
        }
    }
    Ok(())
}

fn check(m: &Model) -> Result<(), TestCaseError> {
    let mut expected = m.brute_force();
    let (mut solver, vars) = m.build();
    if !solver.propagate() {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
        return Ok(());
    }
    for (k, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(
                solver.contains(x, s[k]),
                "value {} of variable {k} was pruned but is in solution {s:?}",
                s[k]
            );
        }
    }
    check_rules(m, &solver, &vars)?;
    let found = common::all_solutions(&mut solver, &vars, m.var_order, m.val_order);
    prop_assert!(found.is_some(), "the search stopped early");
    expected.sort();
    prop_assert_eq!(found.unwrap_or_default(), expected);
    Ok(())
}

/// A non-empty random subset of `lo..=hi`, dense more often than not.
fn domain_strategy(lo: Val, hi: Val) -> impl Strategy<Value = Vec<Val>> {
    let width = (hi - lo + 1) as usize;
    let full = (1u32 << width) - 1;
    (0..=full, 0..=full, 0..3usize).prop_map(move |(a, b, density)| {
        let mask = [a & b, a, a | b][density];
        let mask = [mask, a, b, 1].into_iter().find(|&m| m != 0).unwrap_or(1);
        (0..width).filter(|k| mask >> k & 1 == 1).map(|k| lo + k as Val).collect()
    })
}

fn model_strategy() -> impl Strategy<Value = Model> {
    (0usize..=5, 0usize..=3, any::<bool>(), any::<bool>()).prop_flat_map(|(n, m, closed, bounded)| {
        let nv = n as Val;
        // Bounds in order more often than not (out of order, the model has no solution).
        let pair = (-1..=nv + 1, -1..=nv + 1, proptest::bool::weighted(0.8)).prop_map(|(a, b, sorted)| {
            if sorted {
                (a.min(b), a.max(b))
            } else {
                (a, b)
            }
        });
        let counts = if bounded {
            proptest::collection::vec(pair, m).prop_map(Counts::Bounds).boxed()
        } else {
            // A count's domain is an interval or any subset; now and then it is a variable
            // of x (when there is one).
            let count = prop_oneof![
                3 => pair.prop_map(|(a, b)| Ok((a.min(b)..=a.max(b)).collect())),
                3 => domain_strategy(-1, nv + 1).prop_map(Ok),
                1 => (0..n.max(1)).prop_map(Err),
            ];
            proptest::collection::vec(count, m)
                .prop_map(move |cs| {
                    Counts::Vars(cs.into_iter().map(|c| if n == 0 { Ok(vec![0]) } else { c }).collect())
                })
                .boxed()
        };
        (proptest::collection::vec(domain_strategy(-1, 3), n), proptest::collection::vec(-1i64..=3, m), counts)
            .prop_flat_map(move |(x, cover, counts)| {
                let count =
                    n + if let Counts::Vars(cs) = &counts { cs.iter().filter(|c| c.is_ok()).count() } else { 0 };
                let late = prop_oneof![
                    3 => (0..count.max(1), -1..=3i64).prop_map(|(i, v)| Late::Remove(i, v)),
                    1 => (0..count.max(1), -1..=3i64).prop_map(|(i, v)| Late::Fix(i, v)),
                ];
                let side = proptest::option::weighted(
                    0.2,
                    (proptest::collection::vec(-2i64..=2, n), -3i64..6).prop_map(|(c, r)| (c, r)),
                );
                (proptest::collection::vec(late, if count == 0 { 0..1 } else { 0..3 }), side, 0..3usize, 0..4usize)
                    .prop_map(move |(late, side, var_order, val_order)| Model {
                        x: x.clone(),
                        cover: cover.clone(),
                        counts: counts.clone(),
                        closed,
                        late,
                        side,
                        var_order,
                        val_order,
                    })
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn global_cardinality_is_sound_pruned_and_exact(m in model_strategy()) {
        check(&m)?;
    }
}

fn values(solver: &Solver, x: VarId) -> Vec<Val> {
    solver.values(x).collect()
}

fn array(solver: &mut Solver, n: usize, lo: Val, hi: Val) -> Vec<VarId> {
    (0..n).map(|_| solver.new_var(lo, hi).unwrap()).collect()
}

#[test]
fn counts_lie_between_the_fixed_and_the_possible() {
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 3);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.assign(x[0], 1);
    s.remove(x[1], 2);
    s.remove(x[2], 2);
    assert!(s.propagate());
    assert_eq!((s.min(c[0]), s.max(c[0])), (1, 4), "one 1 already, four can be");
    assert_eq!((s.min(c[1]), s.max(c[1])), (0, 1), "only x[3] can be 2");
}

#[test]
fn a_saturated_value_leaves_the_others_and_a_needed_one_fixes_them() {
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 2);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.assign(x[0], 1);
    s.set_max(c[0], 1);
    assert!(s.propagate());
    assert_eq!((values(&s, x[1]), values(&s, x[3])), (vec![0, 2], vec![0, 2]), "1 is taken once, its count is 1");
    // Another model: 2 can go to x[0] and x[1] only, and needs both (the counts' sum, at
    // least 2 of 4, says nothing).
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 2);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.remove(x[2], 2);
    s.remove(x[3], 2);
    s.set_min(c[1], 2);
    assert!(s.propagate());
    assert_eq!((values(&s, x[0]), values(&s, x[1]), values(&s, x[2])), (vec![2], vec![2], vec![0, 1]));
}

#[test]
fn the_sum_of_the_counts_is_the_number_of_variables_in_the_cover() {
    // Open: four variables, at least 3 take 1, so the count of 2 is at most 1.
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 2);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.set_min(c[0], 3);
    assert!(s.propagate());
    assert_eq!(s.max(c[1]), 1);
    // Closed: the counts sum to 4, so the count of 2 is at least 4 - 2.
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 2);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, true).unwrap();
    s.set_max(c[0], 2);
    assert!(s.propagate());
    assert_eq!(values(&s, x[0]), vec![1, 2], "closed: 0 is not in the cover");
    assert_eq!(s.min(c[1]), 2);
}

#[test]
fn counts_that_fill_or_empty_the_cover_prune_the_variables() {
    // Open, x ∈ 0..2 and cover {1, 2}: counts summing to at least 4 take every variable.
    let mut s = Solver::new();
    let x = array(&mut s, 4, 0, 2);
    let c = array(&mut s, 2, 0, 4);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.set_min(c[0], 2);
    s.set_min(c[1], 2);
    assert!(s.propagate());
    assert!(x.iter().all(|&v| values(&s, v) == vec![1, 2]), "no variable may be 0");
    // x[0], x[1] within the cover fill counts of at most one each: x[2] stays out of it
    // (no value is saturated: nothing is fixed yet).
    let mut s = Solver::new();
    let x = array(&mut s, 3, 0, 2);
    let c = array(&mut s, 2, 0, 1);
    global_cardinality(&mut s, &x, &[1, 2], &c, false).unwrap();
    s.remove(x[0], 0);
    s.remove(x[1], 0);
    assert!(s.propagate());
    assert_eq!((values(&s, x[0]), values(&s, x[1]), values(&s, x[2])), (vec![1, 2], vec![1, 2], vec![0]));
    assert_eq!((values(&s, c[0]), values(&s, c[1])), (vec![1], vec![1]), "two in the cover, at most one each");
}

#[test]
fn bounds_repeats_and_shapes() {
    // Bounded: 1 at least twice among three variables fixes both free ones that can.
    let mut s = Solver::new();
    let x = array(&mut s, 3, 0, 2);
    s.remove(x[0], 1);
    global_cardinality_low_up(&mut s, &x, &[1], &[2], &[3], false).unwrap();
    assert!(s.propagate());
    assert_eq!((values(&s, x[1]), values(&s, x[2])), (vec![1], vec![1]));
    // A repeated value must meet both of its bounds: at most 1 and at least 1.
    let mut s = Solver::new();
    let x = array(&mut s, 2, 0, 1);
    global_cardinality_low_up(&mut s, &x, &[1, 1], &[0, 1], &[1, 2], false).unwrap();
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    assert_eq!(s.search(&config, |_| ControlFlow::Continue(())).solutions, 2, "[0, 1] and [1, 0]");
    // A repeated value's counts are equal.
    let mut s = Solver::new();
    let x = array(&mut s, 2, 0, 1);
    let c = array(&mut s, 2, 0, 2);
    global_cardinality(&mut s, &x, &[1, 1], &c, false).unwrap();
    s.assign(c[1], 2);
    assert!(s.propagate());
    assert_eq!((values(&s, c[0]), values(&s, x[0]), values(&s, x[1])), (vec![2], vec![1], vec![1]));
    // Bounds beyond any count are fine.
    let mut s = Solver::new();
    let x = array(&mut s, 2, 0, 1);
    global_cardinality_low_up(&mut s, &x, &[1], &[Val::MIN], &[Val::MAX], true).unwrap();
    assert!(s.propagate());
    // So are cover values far beyond any domain: no variable takes them.
    let mut s = Solver::new();
    let x = array(&mut s, 2, 0, 1);
    let c = array(&mut s, 2, 0, 2);
    global_cardinality(&mut s, &x, &[Val::MIN, Val::MAX], &c, false).unwrap();
    assert!(s.propagate());
    assert_eq!((values(&s, c[0]), values(&s, c[1])), (vec![0], vec![0]));
    // Arrays that do not match are refused, not a panic.
    let mut s = Solver::new();
    let x = array(&mut s, 2, 0, 1);
    assert!(global_cardinality(&mut s, &x, &[1, 2], &x[..1], false).is_err());
    assert!(global_cardinality_low_up(&mut s, &x, &[1], &[0, 1], &[1], true).is_err());
}

#[test]
fn closed_counts_every_variable_even_one_too_wide_to_lose_its_holes() {
    // x ∈ ±2^40 keeps 2 between the cover's 1 and 3 (too wide for a bitset), yet closed, all
    // three variables count: at most one 1 and one 3 cannot make three.
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..3).map(|_| s.new_var(-(1 << 40), 1 << 40).unwrap()).collect();
    let c = array(&mut s, 2, 0, 1);
    global_cardinality(&mut s, &x, &[1, 3], &c, true).unwrap();
    assert!(s.contains(x[0], 2), "the hole could not be made");
    assert!(!s.propagate());
    // A variable fixed to the value that stayed fails at once, although the counts, which
    // still see two ways for each other variable, would allow three in the cover.
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..3).map(|_| s.new_var(-(1 << 40), 1 << 40).unwrap()).collect();
    let c = array(&mut s, 2, 0, 3);
    global_cardinality(&mut s, &x, &[1, 3], &c, true).unwrap();
    s.assign(x[0], 2);
    assert!(!s.propagate(), "x[0] = 2 is outside the cover");
    // With room for all three, search finds exactly the assignments over {1, 3}.
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..3).map(|_| s.new_var(-(1 << 40), 1 << 40).unwrap()).collect();
    let c = array(&mut s, 2, 1, 2);
    global_cardinality(&mut s, &x, &[1, 3], &c, true).unwrap();
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    assert_eq!(s.search(&config, |_| ControlFlow::Continue(())).solutions, 6, "two of one value, one of the other");
}
