//! Capped counts on lines ([`line_counts`]) checked against brute force on small random
//! line families.
//!
//! For each random instance (up to 6 variables with 0/1 domains, some fixed; up to 4
//! lines of up to 5 members each, a member sometimes listed twice; caps 0 to 3, at most or
//! exactly; variables fixed after posting):
//! - soundness: after propagation no value of a solution is gone, and failure means none;
//! - the same pruning as one linear constraint per line, when no line lists a variable
//!   twice (then both reach the fixpoint of the same rules);
//! - exactness: search, with every solution checked against the propagator's ground
//!   truth, finds exactly the brute-force solutions, whatever the variable and value order.

use cpsolve_engine::constraints::{line_counts, linear};
use cpsolve_engine::propagators::CountedLine;
use cpsolve_engine::{Rel, Solver, Val, VarId};
use proptest::prelude::*;

mod common;

#[derive(Debug, Clone)]
struct Model {
    /// One domain per variable: a non-empty subset of {0, 1}.
    domains: Vec<Vec<Val>>,
    /// (members as indices into `domains`, cap, exact).
    lines: Vec<(Vec<usize>, i64, bool)>,
    /// (variable, value) fixed after posting.
    late: Vec<(usize, Val)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    fn holds(&self, values: &[Val]) -> bool {
        self.lines.iter().all(|(members, cap, exact)| {
            let sum: Val = members.iter().map(|&k| values[k]).sum();
            if *exact {
                sum == *cap
            } else {
                sum <= *cap
            }
        })
    }

    fn repeats(&self) -> bool {
        self.lines.iter().any(|(members, _, _)| {
            let mut m = members.clone();
            m.sort_unstable();
            m.windows(2).any(|w| w[0] == w[1])
        })
    }

    fn brute_force(&self) -> Vec<Vec<Val>> {
        let mut domains = self.domains.clone();
        for &(k, v) in &self.late {
            domains[k].retain(|&w| w == v);
        }
        let mut found = Vec::new();
        let total: usize = domains.iter().map(Vec::len).product();
        for mut code in 0..total {
            let values: Vec<Val> = domains
                .iter()
                .map(|d| {
                    let v = d[code % d.len()];
                    code /= d.len();
                    v
                })
                .collect();
            if self.holds(&values) {
                found.push(values);
            }
        }
        found.sort();
        found
    }

    /// The model with the propagator (`linear` false) or one linear constraint per line.
    fn build(&self, with_linear: bool) -> (Solver, Vec<VarId>) {
        let mut solver = Solver::new();
        let vars: Vec<VarId> = self.domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
        if with_linear {
            for (members, cap, exact) in &self.lines {
                let terms: Vec<(i64, VarId)> = members.iter().map(|&k| (1, vars[k])).collect();
                linear(&mut solver, &terms, if *exact { Rel::Eq } else { Rel::Le }, *cap).expect("small sums");
            }
        } else {
            let lines: Vec<CountedLine> = self
                .lines
                .iter()
                .map(|(members, cap, exact)| CountedLine {
                    vars: members.iter().map(|&k| vars[k]).collect(),
                    cap: *cap,
                    exact: *exact,
                })
                .collect();
            line_counts(&mut solver, &lines);
        }
        for &(k, v) in &self.late {
            solver.assign(vars[k], v);
        }
        (solver, vars)
    }
}

fn domains_after(solver: &Solver, vars: &[VarId]) -> Vec<Vec<Val>> {
    vars.iter().map(|&x| solver.values(x).collect()).collect()
}

fn check(m: &Model) -> Result<(), TestCaseError> {
    let expected = m.brute_force();
    let (mut solver, vars) = m.build(false);
    let ok = solver.propagate();
    if !m.repeats() {
        let (mut reference, _) = m.build(true);
        let reference_ok = reference.propagate();
        prop_assert_eq!(ok, reference_ok, "failure differs from the linear constraints");
        if ok {
            prop_assert_eq!(domains_after(&solver, &vars), domains_after(&reference, &vars));
        }
    }
    if !ok {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
        return Ok(());
    }
    for (k, &x) in vars.iter().enumerate() {
        for s in &expected {
            prop_assert!(solver.contains(x, s[k]), "value {} of variable {k} pruned but in solution {s:?}", s[k]);
        }
    }
    let found = common::all_solutions(&mut solver, &vars, m.var_order, m.val_order);
    prop_assert!(found.is_some(), "the search stopped early");
    prop_assert_eq!(found.unwrap_or_default(), expected);
    Ok(())
}

fn model_strategy() -> impl Strategy<Value = Model> {
    (1usize..=6).prop_flat_map(|count| {
        let domain = prop_oneof![4 => Just(vec![0, 1]), 1 => Just(vec![0]), 1 => Just(vec![1])];
        let members = proptest::collection::vec(0..count, 0..=5);
        let line = (members, 0i64..=3, any::<bool>());
        (
            proptest::collection::vec(domain, count),
            proptest::collection::vec(line, 1..=4),
            proptest::collection::vec((0..count, 0i64..=1), 0..3),
            0..3usize,
            0..4usize,
        )
            .prop_map(|(domains, lines, late, var_order, val_order)| Model {
                domains,
                lines,
                late,
                var_order,
                val_order,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn line_counts_are_sound_as_strong_as_linear_and_exact(m in model_strategy()) {
        check(&m)?;
    }
}

#[test]
fn a_full_line_empties_its_other_cells_and_a_doubled_variable_weighs_two() {
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..4).map(|_| s.new_var(0, 1).unwrap()).collect();
    // x0 + x1 + x2 ≤ 1, and x3 listed twice with x0: x0 + 2·x3 ≤ 2.
    line_counts(
        &mut s,
        &[
            CountedLine { vars: vec![x[0], x[1], x[2]], cap: 1, exact: false },
            CountedLine { vars: vec![x[0], x[3], x[3]], cap: 2, exact: false },
        ],
    );
    assert!(s.propagate());
    s.assign(x[0], 1);
    assert!(s.propagate());
    assert_eq!([s.max(x[1]), s.max(x[2]), s.max(x[3])], [0, 0, 0]);
}

#[test]
fn an_exact_line_fills_its_last_open_cells() {
    let mut s = Solver::new();
    let x: Vec<VarId> = (0..4).map(|_| s.new_var(0, 1).unwrap()).collect();
    line_counts(&mut s, &[CountedLine { vars: x.clone(), cap: 2, exact: true }]);
    assert!(s.propagate());
    s.assign(x[0], 0);
    s.assign(x[1], 0);
    assert!(s.propagate());
    assert_eq!([s.min(x[2]), s.min(x[3])], [1, 1]);
}
