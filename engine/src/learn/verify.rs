//! Checking explanations by brute force, for tests: a reason must imply what it explains.
//!
//! Over every assignment of the propagator's variables drawn from the domains the search
//! began with (after the root's propagation, whose facts analysis leaves out), those that
//! satisfy the reason's literals and the constraint must satisfy the literal explained;
//! for a conflict, none may satisfy the constraint. Scopes with too many assignments to
//! enumerate are skipped.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::learn::history::History;
use crate::literal::Literal;
use crate::propagator::Propagator;

/// A constraint's ground truth over an assignment given as a function.
type GroundTruth<'a> = &'a dyn Fn(&dyn Fn(VarId) -> Val) -> bool;

/// Assignments beyond which a scope is not enumerated.
const MAX_ASSIGNMENTS: u64 = 200_000;

/// Panics unless `reason` and the constraint of `prop` imply `lit` (or, with `None`,
/// cannot hold together).
pub(crate) fn check_reason(history: &History, prop: &dyn Propagator, reason: &[Literal], lit: Option<Literal>) {
    check(history, prop.name(), prop.vars(), &|value| prop.is_satisfied(value), reason, lit);
}

/// Panics unless `reason`, about `lit`'s variable alone, implies `lit` (a bound moved past
/// the holes next to it).
pub(crate) fn check_holes(history: &History, reason: &[Literal], lit: Literal) {
    check(history, "holes", vec![lit.var()], &|_| true, reason, Some(lit));
}

fn check(
    history: &History,
    name: &str,
    mut vars: Vec<VarId>,
    satisfied: GroundTruth<'_>,
    reason: &[Literal],
    lit: Option<Literal>,
) {
    let facts = ExplainContext { history, at: history.first_after_root() };
    vars.sort_unstable();
    vars.dedup();
    let mut choices: Vec<Vec<Val>> = Vec::with_capacity(vars.len());
    let mut count: u64 = 1;
    for &x in &vars {
        let (lo, hi) = (facts.min(x), facts.max(x));
        if hi - lo > 1000 {
            return;
        }
        let values: Vec<Val> = (lo..=hi)
            .filter(|&v| facts.contains(x, v))
            .filter(|&v| reason.iter().filter(|f| f.var() == x).all(|f| f.holds_for(v)))
            .collect();
        count = count.saturating_mul(values.len() as u64);
        if count > MAX_ASSIGNMENTS {
            return;
        }
        choices.push(values);
    }
    // A reason literal on a variable outside the scope constrains nothing here.
    if choices.iter().any(Vec::is_empty) {
        return;
    }
    let mut pick = vec![0usize; vars.len()];
    loop {
        let value = |x: VarId| {
            let i = vars.binary_search(&x).expect("a variable of the scope");
            choices[i][pick[i]]
        };
        if satisfied(&value) {
            match lit {
                Some(lit) => assert!(
                    vars.binary_search(&lit.var()).is_ok() && lit.holds_for(value(lit.var())),
                    "{name}: the reason {reason:?} does not imply {lit:?}"
                ),
                None => panic!("{name}: the conflict {reason:?} has a solution"),
            }
        }
        let Some(i) = (0..vars.len()).find(|&i| pick[i] + 1 < choices[i].len()) else {
            return;
        };
        pick[i] += 1;
        pick[..i].fill(0);
    }
}
