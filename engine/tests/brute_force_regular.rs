//! Regular checked against brute force on small random automata, and on hand-picked
//! languages.
//!
//! For each random instance (1 to 4 states, 1 to 3 symbols, transitions drawn from the
//! states and 0 for none, a random start and set of accepting states, sometimes among 128
//! more states that cannot be reached; 0 to 5 positions with domains that often hold values
//! outside the symbols; sometimes a variable read at two positions):
//! - domain consistency at the root, after posting and again after each of a few batches of
//!   values removed or fixed (so that the incremental calls, which start from the live sets
//!   of the call before, are checked as well as the first): propagation fails exactly when
//!   no word is accepted, and otherwise each variable keeps exactly the values that some
//!   accepted word gives it (nothing supported removed, nothing unsupported kept). With a
//!   variable at two positions, only the first half is promised: nothing supported is
//!   removed;
//! - exactness: search, with every solution checked, finds exactly the brute-force
//!   solutions, whatever the variable and value order, sometimes with a random linear
//!   constraint beside (its propagation changes several domains between two calls).
//!
//! The automaton is run here by its definition in MiniZinc's `regular` (2.6.4): states
//! `1..Q`, symbols `1..S`, `d[q, s] = 0` rejects, the word must end in `F`.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use cpsolve_engine::constraints::{linear, regular};
use cpsolve_engine::{Branching, ModelError, Rel, SearchConfig, Solver, Val, ValOrder, VarId, VarOrder};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Automaton {
    states: usize,
    symbols: usize,
    /// `transition[q - 1][s - 1]`, 0 for none.
    transition: Vec<Vec<usize>>,
    start: usize,
    accepting: Vec<usize>,
}

impl Automaton {
    /// Whether the word of `values` takes the automaton from its start to an accepting state.
    fn accepts(&self, values: &[Val]) -> bool {
        let mut q = self.start;
        for &v in values {
            if v < 1 || v > self.symbols as Val {
                return false;
            }
            q = self.transition[q - 1][v as usize - 1];
            if q == 0 {
                return false;
            }
        }
        self.accepting.contains(&q)
    }
}

/// A change made after posting.
#[derive(Debug, Clone, Copy)]
enum Late {
    Remove(usize, Val),
    Fix(usize, Val),
}

#[derive(Debug, Clone)]
struct Model {
    dfa: Automaton,
    /// The domain of each variable.
    domains: Vec<Vec<Val>>,
    /// The variable read at each position of the word.
    positions: Vec<usize>,
    /// Changes made after posting, a batch at a time, each batch followed by propagation.
    batches: Vec<Vec<Late>>,
    /// `Σ coefs·x ≤ rhs`, posted before the search only, so that the search's propagation
    /// changes several domains between two calls of regular.
    side: Option<(Vec<i64>, i64)>,
    var_order: usize,
    val_order: usize,
}

impl Model {
    /// The domains once the first `batches` batches of changes are made.
    fn domains_after(&self, batches: usize) -> Vec<Vec<Val>> {
        let mut domains = self.domains.clone();
        for &late in self.batches[..batches].iter().flatten() {
            match late {
                Late::Remove(i, v) => domains[i].retain(|&w| w != v),
                Late::Fix(i, v) => domains[i].retain(|&w| w == v),
            }
        }
        domains
    }

    fn word(&self, values: &[Val]) -> Vec<Val> {
        self.positions.iter().map(|&i| values[i]).collect()
    }

    fn side_holds(&self, values: &[Val]) -> bool {
        self.side
            .as_ref()
            .is_none_or(|(coefs, rhs)| coefs.iter().zip(values).map(|(&a, &v)| a * v).sum::<i64>() <= *rhs)
    }

    /// Every assignment of `domains` whose word is accepted.
    fn accepted(&self, domains: &[Vec<Val>]) -> BTreeSet<Vec<Val>> {
        let mut all = vec![Vec::new()];
        for domain in domains {
            all = all.into_iter().flat_map(|p| domain.iter().map(move |&v| [p.clone(), vec![v]].concat())).collect();
        }
        all.into_iter().filter(|values| self.dfa.accepts(&self.word(values))).collect()
    }

    fn distinct_positions(&self) -> bool {
        self.positions.iter().collect::<BTreeSet<_>>().len() == self.positions.len()
    }
}

fn apply(solver: &mut Solver, vars: &[VarId], batch: &[Late]) {
    for &late in batch {
        match late {
            Late::Remove(i, v) => solver.remove(vars[i], v),
            Late::Fix(i, v) => solver.assign(vars[i], v),
        }
    }
}

/// After propagation, each variable keeps exactly the values of the accepted words
/// (`expected`); propagation fails exactly when there are none. `Ok(false)` once it failed.
fn check_domain_consistency(
    m: &Model,
    solver: &mut Solver,
    vars: &[VarId],
    expected: &BTreeSet<Vec<Val>>,
) -> Result<bool, TestCaseError> {
    if !solver.propagate() {
        prop_assert!(expected.is_empty(), "propagation failed but {} solutions exist", expected.len());
        return Ok(false);
    }
    // Variables that no position reads are free: the constraint has nothing to say there.
    let read: BTreeSet<usize> = m.positions.iter().copied().collect();
    for (i, &x) in vars.iter().enumerate() {
        let kept: BTreeSet<Val> = solver.values(x).collect();
        let supported: BTreeSet<Val> = expected.iter().map(|s| s[i]).collect();
        prop_assert!(supported.is_subset(&kept), "x{i} lost a supported value: kept {kept:?}, supported {supported:?}");
        if m.distinct_positions() && read.contains(&i) {
            prop_assert_eq!(kept, supported, "x{} keeps a value no accepted word gives it", i);
        }
    }
    if m.distinct_positions() && !m.positions.is_empty() {
        prop_assert!(!expected.is_empty(), "propagation succeeded but no word is accepted");
    }
    Ok(true)
}

fn check(m: &Model) -> Result<(), TestCaseError> {
    let mut solver = Solver::new();
    let vars: Vec<VarId> = m.domains.iter().map(|d| solver.new_var_in(d).expect("non-empty")).collect();
    let word: Vec<VarId> = m.positions.iter().map(|&i| vars[i]).collect();
    let d = &m.dfa;
    regular(&mut solver, &word, d.states, d.symbols, &d.transition, d.start, &d.accepting).expect("a valid DFA");
    for k in 0..=m.batches.len() {
        if k > 0 {
            apply(&mut solver, &vars, &m.batches[k - 1]);
        }
        if !check_domain_consistency(m, &mut solver, &vars, &m.accepted(&m.domains_after(k)))? {
            return Ok(());
        }
    }
    if let Some((coefs, rhs)) = &m.side {
        let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(vars.iter().copied()).collect();
        linear(&mut solver, &terms, Rel::Le, *rhs).expect("small sums");
    }
    let expected: BTreeSet<Vec<Val>> =
        m.accepted(&m.domains_after(m.batches.len())).into_iter().filter(|v| m.side_holds(v)).collect();
    let config = SearchConfig {
        branching: vec![Branching {
            vars: vars.clone(),
            var_order: [VarOrder::Input, VarOrder::SmallestDomain, VarOrder::DomWdeg][m.var_order],
            val_order: [ValOrder::Min, ValOrder::Max, ValOrder::MiddleOut, ValOrder::Split][m.val_order],
        }],
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut found = BTreeSet::new();
    let outcome = solver.search(&config, |s| {
        assert!(found.insert(vars.iter().map(|&x| s.value(x)).collect::<Vec<Val>>()), "a solution found twice");
        ControlFlow::Continue(())
    });
    prop_assert!(outcome.stopped.is_none());
    prop_assert_eq!(found, expected);
    Ok(())
}

fn automaton_strategy() -> impl Strategy<Value = Automaton> {
    (1usize..=4, 1usize..=3).prop_flat_map(|(states, symbols)| {
        (
            proptest::collection::vec(proptest::collection::vec(0..=states, symbols), states),
            1..=states,
            proptest::collection::vec(any::<bool>(), states),
            proptest::bool::weighted(0.2),
        )
            .prop_map(move |(transition, start, accept, padded)| {
                let dfa = Automaton {
                    states,
                    symbols,
                    transition,
                    start,
                    accepting: (1..=states).filter(|&q| accept[q - 1]).collect(),
                };
                if padded {
                    pad(&dfa)
                } else {
                    dfa
                }
            })
    })
}

/// The same language with 128 more states, unreachable from the start: state `q` becomes
/// `q + 62`, so that the states read straddle the propagator's 64-state words. The new
/// states lead to each other and to the old ones, and some of them accept.
fn pad(dfa: &Automaton) -> Automaton {
    const SHIFT: usize = 62;
    let states = dfa.states + 128;
    let old = |q: usize| (SHIFT + 1..=SHIFT + dfa.states).contains(&q);
    let transition = (1..=states)
        .map(|q| {
            (1..=dfa.symbols)
                .map(|s| if old(q) { dfa.transition[q - SHIFT - 1][s - 1] } else { (q * 7 + s) % (states + 1) })
                .map(|to| if old(q) && to != 0 { to + SHIFT } else { to })
                .collect()
        })
        .collect();
    let mut accepting: Vec<usize> = dfa.accepting.iter().map(|&q| q + SHIFT).collect();
    accepting.extend((1..=states).filter(|&q| !old(q) && q % 3 == 0));
    Automaton { states, symbols: dfa.symbols, transition, start: dfa.start + SHIFT, accepting }
}

/// A non-empty random subset of `-1..=symbols + 1`: the symbols and one value on each side.
fn domain_strategy(symbols: usize) -> impl Strategy<Value = Vec<Val>> {
    let width = symbols + 3;
    (1u32..1 << width).prop_map(move |mask| (0..width).filter(|k| mask >> k & 1 == 1).map(|k| k as Val - 1).collect())
}

fn model_strategy() -> impl Strategy<Value = Model> {
    (automaton_strategy(), 0usize..=5).prop_flat_map(|(dfa, n)| {
        let s = dfa.symbols as Val;
        let vars = n.max(1);
        let late = prop_oneof![
            4 => (0..vars, -1..=s + 1).prop_map(|(i, v)| Late::Remove(i, v)),
            1 => (0..vars, 1..=s).prop_map(|(i, v)| Late::Fix(i, v)),
        ];
        // Mostly one variable per position; sometimes a position reads an earlier variable.
        let positions = prop_oneof![
            4 => Just((0..n).collect::<Vec<usize>>()),
            1 => proptest::collection::vec(0..vars, n),
        ];
        let side = proptest::option::weighted(
            0.3,
            (proptest::collection::vec(-2i64..=2, vars), -3i64..8).prop_map(|(c, r)| (c, r)),
        );
        (
            Just(dfa.clone()),
            proptest::collection::vec(domain_strategy(dfa.symbols), vars),
            positions,
            proptest::collection::vec(proptest::collection::vec(late, 1..=3), 0..=3),
            side,
            0..3usize,
            0..4usize,
        )
            .prop_map(|(dfa, domains, positions, batches, side, var_order, val_order)| Model {
                dfa,
                domains,
                positions,
                batches,
                side,
                var_order,
                val_order,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn regular_is_domain_consistent_and_exact(m in model_strategy()) {
        check(&m)?;
    }
}

/// "No three 1s in a row" over the symbols 1 (a 0 bit) and 2 (a 1 bit): state q counts the
/// 1s that end the word so far.
fn no_three_ones() -> Automaton {
    Automaton {
        states: 3,
        symbols: 2,
        transition: vec![vec![1, 2], vec![1, 3], vec![1, 0]],
        start: 1,
        accepting: vec![1, 2, 3],
    }
}

fn post(solver: &mut Solver, xs: &[VarId], d: &Automaton) -> Result<(), ModelError> {
    regular(solver, xs, d.states, d.symbols, &d.transition, d.start, &d.accepting)
}

fn count(solver: &mut Solver) -> u128 {
    let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
    solver.search(&config, |_| ControlFlow::Continue(())).solutions
}

#[test]
fn words_without_three_ones_in_a_row_are_counted_by_the_tribonacci_numbers() {
    // 2, 4, 7, 13, 24, ...: each word ends in 0, 01 or 011 after a shorter one.
    let mut expected = vec![1u128, 2, 4];
    while expected.len() <= 20 {
        let k = expected.len();
        expected.push(expected[k - 1] + expected[k - 2] + expected[k - 3]);
    }
    for (n, &words) in expected.iter().enumerate() {
        let mut s = Solver::new();
        let xs: Vec<VarId> = (0..n).map(|_| s.new_var(0, 5).unwrap()).collect();
        post(&mut s, &xs, &no_three_ones()).unwrap();
        assert_eq!(count(&mut s), words, "n = {n}");
    }
}

#[test]
fn a_value_is_removed_when_it_would_make_three_ones() {
    let mut s = Solver::new();
    let xs: Vec<VarId> = (0..5).map(|_| s.new_var(-3, 9).unwrap()).collect();
    post(&mut s, &xs, &no_three_ones()).unwrap();
    assert!(s.propagate());
    assert_eq!(s.values(xs[0]).collect::<Vec<_>>(), vec![1, 2], "values outside the symbols go");
    s.assign(xs[1], 2);
    s.assign(xs[3], 2);
    assert!(s.propagate());
    // x2 = 2 would make 1 1 1 in the middle.
    assert_eq!(s.values(xs[2]).collect::<Vec<_>>(), vec![1]);
    assert_eq!(s.values(xs[0]).collect::<Vec<_>>(), vec![1, 2]);
    s.assign(xs[0], 2);
    s.assign(xs[4], 2);
    assert!(s.propagate(), "2 2 1 2 2 is accepted");
}

#[test]
fn a_nonogram_row_fixes_the_cells_every_placement_shares() {
    // The clue 3 on a row of 4 cells (1 white, 2 black): 0* 1 1 1 0*. Both placements
    // blacken the two middle cells.
    let row = Automaton {
        states: 5,
        symbols: 2,
        transition: vec![vec![1, 2], vec![0, 3], vec![0, 4], vec![5, 0], vec![5, 0]],
        start: 1,
        accepting: vec![4, 5],
    };
    let mut s = Solver::new();
    let xs: Vec<VarId> = (0..4).map(|_| s.new_var(1, 2).unwrap()).collect();
    post(&mut s, &xs, &row).unwrap();
    assert!(s.propagate());
    let domains: Vec<Vec<Val>> = xs.iter().map(|&x| s.values(x).collect()).collect();
    assert_eq!(domains, vec![vec![1, 2], vec![2], vec![2], vec![1, 2]]);
    assert_eq!(count(&mut s), 2);
}

#[test]
fn the_empty_word_is_accepted_exactly_when_the_start_state_accepts() {
    let mut d = no_three_ones();
    let mut s = Solver::new();
    post(&mut s, &[], &d).unwrap();
    assert!(s.propagate());
    d.accepting = vec![2];
    let mut s = Solver::new();
    post(&mut s, &[], &d).unwrap();
    assert!(!s.propagate());
}

#[test]
fn automata_of_the_wrong_shape_are_refused() {
    let good = no_three_ones();
    let mut bad = Vec::new();
    let mut d = good.clone();
    d.transition.pop();
    bad.push(d);
    let mut d = good.clone();
    d.transition[1].push(1);
    bad.push(d);
    let mut d = good.clone();
    d.transition[0][0] = 4;
    bad.push(d);
    for start in [0, 4] {
        bad.push(Automaton { start, ..good.clone() });
    }
    for accepting in [vec![0], vec![1, 4]] {
        bad.push(Automaton { accepting, ..good.clone() });
    }
    bad.push(Automaton { states: 0, transition: vec![], start: 1, ..good.clone() });
    for d in &bad {
        let mut s = Solver::new();
        let x = s.new_var(1, 2).unwrap();
        assert!(matches!(post(&mut s, &[x], d), Err(ModelError::InvalidArgument(_))), "{d:?}");
    }
}

#[test]
fn a_variable_read_twice_is_fixed_only_to_an_accepted_word() {
    // The words 1 2 and 2 3: read as x x, the first position supports {1, 2} and the
    // second {2, 3}; pruning both leaves x = 2, and "2 2" is no word. A second pass sees it.
    let d = Automaton {
        states: 4,
        symbols: 3,
        transition: vec![vec![2, 3, 0], vec![0, 4, 0], vec![0, 0, 4], vec![0, 0, 0]],
        start: 1,
        accepting: vec![4],
    };
    let mut s = Solver::new();
    let x = s.new_var(1, 3).unwrap();
    post(&mut s, &[x, x], &d).unwrap();
    assert!(!s.propagate(), "x x is never accepted");
    assert_eq!(count(&mut s), 0);
}
