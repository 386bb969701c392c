//! Post functions: the public way to add a constraint.
//!
//! Each one validates its arguments, simplifies (merges repeated variables, folds fixed
//! ones, drops zero coefficients), decides trivial cases at once, and only then creates a
//! propagator — the cheapest one that enforces the constraint.

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagators::all_different::Consistency;
use crate::propagators::clause::Literal;
use crate::propagators::linear_domain::MAX_SUM_RANGE;
use crate::propagators::reified::{ReifiedLinear, Test};
use crate::propagators::{
    AllDifferent, BinaryFunction, Clause, Element, Extremum, Function, LinearEq, LinearEqDomain, LinearLe, LinearNe,
    NotEqual, Queens, Table, Times,
};
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

    /// The relation that holds exactly when this one does not.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Le => Rel::Gt,
            Rel::Lt => Rel::Ge,
            Rel::Ge => Rel::Lt,
            Rel::Gt => Rel::Le,
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
    let (mut terms, mut rhs) = simplify_terms(solver, terms, rhs)?;
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

/// Posts `b ⇔ Σ coefᵢ·varᵢ ⋈ rhs`, where `b` is restricted to 0..1.
pub fn reified_linear(
    solver: &mut Solver,
    b: VarId,
    terms: &[(i64, VarId)],
    rel: Rel,
    rhs: i64,
) -> Result<(), ModelError> {
    solver.set_min(b, 0);
    solver.set_max(b, 1);
    if solver.is_fixed(b) {
        let rel = if solver.min(b) == 1 { rel } else { rel.negate() };
        return linear(solver, terms, rel, rhs);
    }
    let (terms, rhs) = simplify_terms(solver, terms, rhs)?;
    let (terms, test, rhs) = match rel {
        Rel::Eq => (terms, Test::Eq, rhs),
        Rel::Ne => (terms, Test::Ne, rhs),
        Rel::Le => (terms, Test::Le, rhs),
        Rel::Lt => (terms, Test::Le, rhs - 1),
        Rel::Ge => (terms.iter().map(|&(a, x)| (-a, x)).collect(), Test::Le, -rhs),
        Rel::Gt => (terms.iter().map(|&(a, x)| (-a, x)).collect(), Test::Le, -rhs - 1),
    };
    if terms.is_empty() {
        let holds = match test {
            Test::Le => 0 <= rhs,
            Test::Eq => 0 == rhs,
            Test::Ne => 0 != rhs,
        };
        solver.assign(b, Val::from(holds));
        return Ok(());
    }
    let _ = solver.post(Box::new(ReifiedLinear::new(b, terms, test, rhs)));
    Ok(())
}

/// Merges repeated variables, folds fixed ones into the constant, drops zero
/// coefficients, and rejects sums that could leave the 64-bit range.
fn simplify_terms(solver: &Solver, terms: &[(i64, VarId)], rhs: i64) -> Result<(Vec<(i64, VarId)>, i64), ModelError> {
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
    Ok((merged.into_iter().map(|(a, x)| (a as i64, x)).collect(), rhs as i64))
}

/// Posts `result = array[index]`, `index` counting from 0 (restricted to the positions).
pub fn element(solver: &mut Solver, index: VarId, array: &[VarId], result: VarId) {
    if array.is_empty() {
        solver.fail();
        return;
    }
    solver.set_min(index, 0);
    solver.set_max(index, array.len() as Val - 1);
    let _ = solver.post(Box::new(Element { index, array: array.to_vec(), result }));
}

/// Posts `result = max(xs)` (`is_max`) or `result = min(xs)`; `xs` must not be empty.
pub fn extremum(solver: &mut Solver, result: VarId, xs: &[VarId], is_max: bool) {
    if xs.is_empty() {
        solver.fail();
        return;
    }
    let _ = solver.post(Box::new(Extremum { result, xs: xs.to_vec(), is_max }));
}

/// Posts `z = x · y`.
pub fn times(solver: &mut Solver, x: VarId, y: VarId, z: VarId) -> Result<(), ModelError> {
    let magnitude = |v: VarId| (solver.min(v) as i128).abs().max((solver.max(v) as i128).abs());
    if magnitude(x) * magnitude(y) > (i64::MAX / 4) as i128 {
        return Err(ModelError::Overflow(format!(
            "a product can reach ±{}, beyond the 64-bit range the solver computes in",
            magnitude(x) * magnitude(y)
        )));
    }
    let _ = solver.post(Box::new(Times { x, y, z }));
    Ok(())
}

/// The most values a variable may have when a function of it is given by its graph.
pub const MAX_FUNCTION_DOMAIN: u64 = 1 << 20;

/// Posts `z = f(x)`, tabulating `f` over the domain of `x` (values where `f` gives `None`
/// are removed from `x`). `name` is what statistics and errors call it.
pub fn function(
    solver: &mut Solver,
    x: VarId,
    z: VarId,
    f: impl Fn(Val) -> Option<Val>,
    name: &'static str,
) -> Result<(), ModelError> {
    if solver.size(x) > MAX_FUNCTION_DOMAIN {
        return Err(ModelError::Overflow(format!(
            "`{name}` of a variable with {} values; at most {MAX_FUNCTION_DOMAIN} are supported",
            solver.size(x)
        )));
    }
    let graph: Vec<(Val, Val)> = solver.values(x).filter_map(|v| f(v).map(|w| (v, w))).collect();
    let _ = solver.post(Box::new(Function { x, z, graph, name }));
    Ok(())
}

/// Posts that `vars` take the values of one of the `tuples` (each as long as `vars`).
pub fn table(solver: &mut Solver, vars: &[VarId], tuples: &[Vec<Val>]) {
    assert!(tuples.iter().all(|t| t.len() == vars.len()), "every tuple has one value per variable");
    if vars.is_empty() {
        if tuples.is_empty() {
            solver.fail();
        }
        return;
    }
    let flat: Vec<Val> = tuples.iter().flatten().copied().collect();
    let _ = solver.post(Box::new(Table::new(vars.to_vec(), flat)));
}

/// Posts the clause: some variable of `pos` is 1 or some variable of `neg` is 0. Every
/// variable is restricted to 0..1.
pub fn clause(solver: &mut Solver, pos: &[VarId], neg: &[VarId]) {
    let mut literals: Vec<Literal> = Vec::with_capacity(pos.len() + neg.len());
    for (vars, positive) in [(pos, true), (neg, false)] {
        for &var in vars {
            solver.set_min(var, 0);
            solver.set_max(var, 1);
            match literals.iter().find(|l| l.var == var) {
                // x ∨ ¬x: always true.
                Some(l) if l.positive != positive => return,
                Some(_) => {}
                None => literals.push(Literal { var, positive }),
            }
        }
    }
    // A literal true already satisfies it; false ones can never help.
    let value = |l: &Literal| Val::from(l.positive);
    if literals.iter().any(|l| solver.is_fixed(l.var) && solver.min(l.var) == value(l)) {
        return;
    }
    literals.retain(|l| !solver.is_fixed(l.var));
    match literals.as_slice() {
        [] => solver.fail(),
        [unit] => solver.assign(unit.var, value(unit)),
        _ => {
            let _ = solver.post(Box::new(Clause::new(literals)));
        }
    }
}

/// Posts `z = f(x, y)`; pairs where `f` gives `None` are impossible. `name` is what
/// statistics call it.
pub fn binary_function(
    solver: &mut Solver,
    x: VarId,
    y: VarId,
    z: VarId,
    f: impl Fn(Val, Val) -> Option<Val> + Send + 'static,
    name: &'static str,
) -> Result<(), ModelError> {
    let _ = solver.post(Box::new(BinaryFunction { x, y, z, f: Box::new(f), name }));
    Ok(())
}
