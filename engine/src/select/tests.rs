//! The selector's choice is the scan's, at every node of random walks through random models.
//!
//! A walk decides (any fixing of any variable), propagates (failures raise dom/wdeg weights,
//! entailed propagators die), backtracks (domains and propagators come back), goes back to
//! the first level as a restart does, and posts constraints there as restarts post nogoods;
//! with learning on, it also adds nogoods to the nogood database, which then watches more
//! variables. Between steps, sometimes, the selector chooses and its choice is compared with
//! the oracle: each group scanned in turn as before the heaps, then the first unfixed
//! variable. The one propagator left (`sole.rs`) is compared the same way with the pass that
//! found it before.
//!
//! The oracle keeps its own dom/wdeg weights by the rule of the search before the heaps: a
//! propagator's weight grows by one when it fails, and the nogood database's never does.
//! The solver's weights are what both the scan and the heaps read, so a slip there (a merge
//! once bumped them twice per failure) changes choices without the selector and the scan
//! disagreeing; the walk compares the weights too.

use proptest::prelude::*;

use super::scan;
use crate::branch::{Branching, ValOrder, VarOrder};
use crate::constraints::{all_different, linear, not_equal, Rel};
use crate::ids::VarId;
use crate::literal::Literal;
use crate::outcome::Events;
use crate::solver::Solver;
use crate::Consistency;

const ORDERS: [VarOrder; 9] = [
    VarOrder::Input,
    VarOrder::SmallestDomain,
    VarOrder::DomWdeg,
    VarOrder::LargestDomain,
    VarOrder::SmallestMin,
    VarOrder::LargestMax,
    VarOrder::Occurrence,
    VarOrder::MostConstrained,
    VarOrder::MaxRegret,
];

/// A small deterministic generator: the walk is a function of the case's seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The choice before the heaps: each group scanned in turn, then the first unfixed variable;
/// `weights` are the oracle's own.
fn oracle(solver: &Solver, weights: &[u64], branching: &[Branching]) -> Option<VarId> {
    for group in branching {
        if let Some(x) = scan::select_var(&solver.store, weights, &group.vars, group.var_order) {
            return Some(x);
        }
    }
    (0..solver.num_vars() as u32).map(VarId).find(|&x| !solver.is_fixed(x))
}

/// The one propagator left, as the search found it before the cursors: the only one alive,
/// if it watches every unfixed variable.
fn sole_oracle(solver: &Solver) -> Option<usize> {
    if solver.store.alive_count != 1 {
        return None;
    }
    let p = solver.store.alive.iter().position(|&a| a)?;
    let covered = (0..solver.num_vars() as u32)
        .map(VarId)
        .all(|x| solver.is_fixed(x) || solver.store.watchers(x).any(|q| q.index() == p));
    covered.then_some(p)
}

/// How many comparisons a walk made: of the next variable, and of the one propagator left
/// where there was one.
#[derive(Default)]
struct Compared {
    choices: usize,
    sole: usize,
}

fn random_model(rng: &mut Rng, n: usize) -> Solver {
    let mut solver = Solver::new();
    for _ in 0..n {
        let lo = rng.below(7) as i64 - 3;
        let x = match rng.below(8) {
            // A wide domain: its bitset words are trailed one by one.
            0 => solver.new_var(lo, lo + 100 + rng.below(200) as i64),
            1 => solver.new_var(lo, lo + rng.below(2) as i64),
            2 => {
                let values: Vec<i64> = (0..1 + rng.below(6)).map(|_| rng.below(12) as i64).collect();
                solver.new_var_in(&values)
            }
            _ => solver.new_var(lo, lo + rng.below(10) as i64),
        };
        x.expect("a valid domain");
    }
    for _ in 0..rng.below(2 * n) {
        post_random(rng, &mut solver, n);
    }
    solver
}

fn post_random(rng: &mut Rng, solver: &mut Solver, n: usize) {
    let mut pick = |k: usize| -> Vec<VarId> { (0..k).map(|_| VarId(rng.below(n) as u32)).collect() };
    match pick(1)[0].0 % 3 {
        0 => {
            let xs = pick(2);
            not_equal(solver, xs[0], xs[1], 0);
        }
        1 => {
            let mut xs = pick(4);
            xs.sort();
            xs.dedup();
            all_different(solver, &xs, &[], Consistency::Bounds);
        }
        _ => {
            let xs = pick(3);
            let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
            let _ = linear(solver, &terms, Rel::Le, 12);
        }
    }
}

fn random_branching(rng: &mut Rng, n: usize) -> Vec<Branching> {
    (0..rng.below(4))
        .map(|_| Branching {
            // Repeats allowed, as a model may name a variable twice.
            vars: (0..rng.below(2 * n + 1)).map(|_| VarId(rng.below(n) as u32)).collect(),
            var_order: ORDERS[rng.below(ORDERS.len())],
            val_order: ValOrder::Min,
        })
        .collect()
}

/// A fixing of an unfixed variable that keeps at least one value (`None` if all are fixed).
fn random_fixing(rng: &mut Rng, solver: &Solver) -> Option<Literal> {
    let unfixed: Vec<VarId> = (0..solver.num_vars() as u32).map(VarId).filter(|&x| !solver.is_fixed(x)).collect();
    let x = unfixed[rng.below(unfixed.len().max(1)).min(unfixed.len().checked_sub(1)?)];
    let values: Vec<i64> = solver.values(x).collect();
    let v = values[rng.below(values.len())];
    Some(match rng.below(4) {
        0 => Literal::Eq(x, v),
        1 => Literal::Ne(x, v),
        2 => Literal::Le(x, v),
        _ => Literal::Gt(x, v),
    })
}

/// The oracle's weights: those of the solver's propagators posted since the last call, as
/// posted; one more for a propagator that failed (`failed`: the propagation's result), unless
/// it is the nogood database.
fn follow_weights(weights: &mut Vec<u64>, solver: &Solver, failed: bool) {
    weights.extend_from_slice(&solver.weights[weights.len()..]);
    if let (true, Some(p)) = (failed, solver.failed_by) {
        if Some(p) != solver.learner.db.slot {
            weights[p.index()] += 1;
        }
    }
}

/// Adds a nogood of one to three random fixings to the database, as the search posts what it
/// learned: the database watches its first two variables from now on.
fn add_random_nogood(rng: &mut Rng, solver: &mut Solver) {
    let Some(slot) = solver.learner.db.slot else { return };
    let nogood: Vec<Literal> = (0..1 + rng.below(3)).filter_map(|_| random_fixing(rng, solver)).collect();
    if nogood.is_empty() {
        return;
    }
    let num_vars = solver.num_vars();
    for x in solver.learner.db.add(nogood, 3, &solver.store, num_vars) {
        solver.store.subscribe(x, slot, Events::DOMAIN);
    }
    solver.store.queue.push(slot);
}

/// Walks `steps` steps from the root of a random model, comparing the selector with the
/// oracle along the way; with `learning`, the nogood database takes part.
fn walk(seed: u64, n: usize, steps: usize, scan_limit: usize, learning: bool) -> Result<Compared, TestCaseError> {
    let mut rng = Rng(seed | 1);
    let mut solver = random_model(&mut rng, n);
    let branching = random_branching(&mut rng, n);
    let mut compared = Compared::default();
    if !solver.propagate() {
        return Ok(compared);
    }
    if learning {
        // As the search starts it: the database's slot is posted before selection prepares.
        solver.start_learning(&crate::SearchConfig::default());
    }
    let mut weights = Vec::new();
    follow_weights(&mut weights, &solver, false);
    solver.selector.scan_limit = scan_limit;
    solver.selector.prepare(&mut solver.store, &solver.weights, &branching);
    // The first level, as a search opens it (restarts come back to it).
    solver.open_level();
    let mut depth = 1;
    let mut consistent = true;
    for _ in 0..steps {
        if consistent && rng.chance(60) {
            let chosen = solver.selector.next(&mut solver.store, &solver.weights, &branching).map(|(x, _)| x);
            prop_assert_eq!(chosen, oracle(&solver, &weights, &branching), "depth {}", depth);
            // The weights themselves: a choice shows a wrong weight only when it tips a score.
            prop_assert_eq!(&solver.weights, &weights, "failure weights at depth {}", depth);
            compared.choices += 1;
        }
        if consistent && rng.chance(60) {
            let sole = sole_oracle(&solver);
            prop_assert_eq!(solver.selector.sole_propagator(&mut solver.store), sole, "depth {}", depth);
            compared.sole += sole.is_some() as usize;
        }
        match rng.below(10) {
            // Backtrack one level (after a failure, always).
            _ if !consistent || (depth > 1 && rng.chance(35)) => {
                solver.store.close_level();
                solver.store.queue.clear();
                depth -= 1;
                consistent = true;
                if depth == 0 {
                    solver.open_level();
                    depth = 1;
                }
            }
            // A restart: back to the first level, where a nogood-like constraint may be posted.
            0 if depth > 1 => {
                while depth > 1 {
                    solver.store.close_level();
                    depth -= 1;
                }
                if rng.chance(50) {
                    let posted_from = solver.weights.len();
                    post_random(&mut rng, &mut solver, n);
                    // As the search does with its nogoods: weight 0 until it fails (only
                    // the new propagators: a constraint may post none).
                    for p in posted_from..solver.weights.len() {
                        solver.weights[p] *= rng.below(2) as u64;
                    }
                    if solver.is_failed() {
                        return Ok(compared);
                    }
                    follow_weights(&mut weights, &solver, false);
                    consistent = solver.propagate_queue();
                    follow_weights(&mut weights, &solver, !consistent);
                }
            }
            // Learning: a nogood for the database, at any level (the search posts them where
            // it backjumped to).
            1 if learning => {
                add_random_nogood(&mut rng, &mut solver);
                consistent = solver.propagate_queue();
                follow_weights(&mut weights, &solver, !consistent);
                if !consistent {
                    solver.store.queue.clear();
                }
            }
            // Decide.
            _ => {
                let Some(fixing) = random_fixing(&mut rng, &solver) else { continue };
                solver.open_level();
                depth += 1;
                consistent = solver.store.apply(fixing).is_ok() && {
                    let ok = solver.propagate_queue();
                    follow_weights(&mut weights, &solver, !ok);
                    ok
                };
                if !consistent {
                    solver.store.queue.clear();
                }
            }
        }
    }
    solver.selector.release(&mut solver.store);
    Ok(compared)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Every group a heap (scan limit 0), some (3) or, as in production, only large ones.
    #[test]
    fn the_selector_chooses_as_the_scan_does(
        seed in any::<u64>(),
        n in 1usize..40,
        scan_limit in prop::sample::select(vec![0usize, 3, super::SCAN_LIMIT]),
        learning in any::<bool>(),
    ) {
        walk(seed, n, 120, scan_limit, learning)?;
    }
}

#[test]
fn the_walks_compare_often() {
    let (mut choices, mut sole) = (0, 0);
    for seed in 1..200 {
        // Small models too: there, one propagator is often the last one alive.
        let n = 2 + (seed as usize * 7) % 24;
        let compared = walk(seed * 7919, n, 120, 0, seed % 2 == 0).expect("the same choices");
        choices += compared.choices;
        sole += compared.sole;
    }
    assert!(choices > 2000, "only {choices} comparisons of the next variable");
    assert!(sole > 200, "only {sole} nodes with one propagator left");
}
