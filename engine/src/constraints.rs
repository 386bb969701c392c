//! Post functions: the public way to add a constraint.
//!
//! Each one validates its arguments, simplifies (merges repeated variables, folds fixed
//! ones, drops zero coefficients), decides trivial cases at once, and only then creates a
//! propagator — the cheapest one that enforces the constraint.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagators::all_different::Consistency;
use crate::propagators::linear_domain::MAX_SUM_RANGE;
use crate::propagators::{AllDifferent, LinearEq, LinearEqDomain, LinearLe, LinearNe, NotEqual, Queens};
use crate::solver::{ModelError, Solver};

/// A comparison between two integer quantities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    Eq,
    Ne,
    Le,
    Lt,
    Ge,
    Gt,
}

impl Rel {
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Le => a <= b,
            Rel::Lt => a < b,
            Rel::Ge => a >= b,
            Rel::Gt => a > b,
        }
    }

    /// The relation with its sides swapped (`a < b` ⟺ `b > a`).
    pub fn flip(self) -> Rel {
        match self {
            Rel::Le => Rel::Ge,
            Rel::Lt => Rel::Gt,
            Rel::Ge => Rel::Le,
            Rel::Gt => Rel::Lt,
            other => other,
        }
    }
}

/// Posts `Σ coefᵢ·varᵢ ⋈ rhs`, with bounds reasoning.
pub fn linear(solver: &mut Solver, terms: &[(i64, VarId)], rel: Rel, rhs: i64) -> Result<(), ModelError> {
    post_linear(solver, terms, rel, rhs, false)
}

/// Posts `Σ coefᵢ·varᵢ = rhs` keeping every domain value that has a support (domain
/// consistency), when the sums span a small range; bounds reasoning otherwise.
pub fn linear_eq_domain(solver: &mut Solver, terms: &[(i64, VarId)], rhs: i64) -> Result<(), ModelError> {
    post_linear(solver, terms, Rel::Eq, rhs, true)
}

fn post_linear(
    solver: &mut Solver,
    terms: &[(i64, VarId)],
    rel: Rel,
    rhs: i64,
    domain: bool,
) -> Result<(), ModelError> {
    // Merge repeated variables and fold fixed ones into the right-hand side, in i128 so
    // the overflow check below sees the true magnitudes.
    let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
    let mut rhs = rhs as i128;
    for &(a, x) in terms {
        if solver.is_fixed(x) {
            rhs -= a as i128 * solver.min(x) as i128;
        } else if let Some(t) = merged.iter_mut().find(|t| t.1 == x) {
            t.0 += a as i128;
        } else {
            merged.push((a as i128, x));
        }
    }
    merged.retain(|t| t.0 != 0);
    let magnitude: i128 = merged
        .iter()
        .map(|&(a, x)| a.abs() * (solver.min(x) as i128).abs().max((solver.max(x) as i128).abs()))
        .sum::<i128>()
        + rhs.abs()
        + 1;
    if magnitude > (i64::MAX / 4) as i128 {
        return Err(ModelError::Overflow(format!(
            "a linear constraint over {} variables can reach ±{magnitude}, beyond the 64-bit range \
             the solver computes in",
            merged.len()
        )));
    }
    let mut terms: Vec<(i64, VarId)> = merged.into_iter().map(|(a, x)| (a as i64, x)).collect();
    let mut rhs = rhs as i64;
    // Normalise to `=`, `≠` or `≤`.
    let rel = match rel {
        Rel::Lt => {
            rhs -= 1;
            Rel::Le
        }
        Rel::Gt | Rel::Ge => {
            for t in &mut terms {
                t.0 = -t.0;
            }
            rhs = if rel == Rel::Gt { -rhs - 1 } else { -rhs };
            Rel::Le
        }
        other => other,
    };
    match (terms.as_slice(), rel) {
        ([], _) => {
            if !rel.holds(0, rhs as i128) {
                solver.fail();
            }
        }
        (&[(a, x)], Rel::Eq) => {
            if rhs % a == 0 {
                solver.assign(x, rhs / a);
            } else {
                solver.fail();
            }
        }
        (&[(a, x)], Rel::Ne) => {
            if rhs % a == 0 {
                solver.remove(x, rhs / a);
                if solver.contains(x, rhs / a) {
                    // An inner value of a huge interval: keep it as a propagator instead.
                    let _ = solver.post(Box::new(LinearNe { terms, rhs }));
                }
            }
        }
        (&[(1, x), (-1, y)], Rel::Ne) => not_equal(solver, x, y, rhs),
        (&[(-1, x), (1, y)], Rel::Ne) => not_equal(solver, y, x, rhs),
        (_, Rel::Eq) => {
            let range: i128 =
                terms.iter().map(|&(a, x)| (a as i128).abs() * (solver.max(x) - solver.min(x)) as i128).sum();
            if domain && range <= MAX_SUM_RANGE as i128 {
                let _ = solver.post(Box::new(LinearEqDomain::new(terms, rhs)));
            } else {
                let _ = solver.post(Box::new(LinearEq { terms, rhs }));
            }
        }
        (_, Rel::Ne) => {
            let _ = solver.post(Box::new(LinearNe { terms, rhs }));
        }
        (_, _) => {
            let _ = solver.post(Box::new(LinearLe { terms, rhs }));
        }
    }
    Ok(())
}

/// Posts `x ≠ y + c`.
pub fn not_equal(solver: &mut Solver, x: VarId, y: VarId, c: Val) {
    if x == y {
        if c == 0 {
            solver.fail();
        }
        return;
    }
    let _ = solver.post(Box::new(NotEqual { x, y, c }));
}

/// Posts that the values `varsᵢ + offsetsᵢ` are pairwise distinct (`offsets` empty: all 0).
pub fn all_different(solver: &mut Solver, vars: &[VarId], offsets: &[i64], consistency: Consistency) {
    let offsets = if offsets.is_empty() { vec![0; vars.len()] } else { offsets.to_vec() };
    assert_eq!(offsets.len(), vars.len(), "one offset per variable");
    match vars.len() {
        0 | 1 => {}
        2 => not_equal(solver, vars[0], vars[1], offsets[1] - offsets[0]),
        _ => {
            let _ = solver.post(Box::new(AllDifferent::new(vars.to_vec(), offsets, consistency)));
        }
    }
}

/// Posts that `vars` (column `i` holding its queen's row) place non-attacking queens:
/// `varsᵢ`, `varsᵢ + i` and `varsᵢ − i` pairwise distinct.
pub fn queens(solver: &mut Solver, vars: &[VarId]) {
    if vars.len() > 1 {
        let _ = solver.post(Box::new(Queens::new(vars.to_vec())));
    }
}
