//! Post functions: the public way to add a constraint.
//!
//! Each one validates its arguments, simplifies (merges repeated variables, folds fixed
//! ones, drops zero coefficients), decides trivial cases at once, and only then creates a
//! propagator — the cheapest one that enforces the constraint.
//!
//! Two kinds of trouble are kept apart. A constraint the engine cannot represent (a sum
//! whose intermediate values could overflow 64 bits, a table of the wrong shape) is a
//! [`ModelError`], returned by the functions that can meet one. A constraint that is merely
//! false (`x + y = 30` over digits) is not an error: posting it marks the solver failed
//! ([`Solver::is_failed`]), and its search finds no solution.
//!
//! ```
//! use cpsolve_engine::constraints::linear;
//! use cpsolve_engine::{ModelError, Rel, Solver};
//!
//! let mut solver = Solver::new();
//! let x = solver.new_var(0, 9)?;
//! let y = solver.new_var(0, 9)?;
//! linear(&mut solver, &[(1, x), (1, y)], Rel::Eq, 30)?;
//! assert!(!solver.propagate());
//!
//! let huge = solver.new_var(0, 1 << 60)?;
//! let error = linear(&mut solver, &[(1 << 10, huge)], Rel::Le, 0);
//! assert!(matches!(error, Err(ModelError::Overflow(_))));
//! # Ok::<(), ModelError>(())
//! ```

mod remainder;

pub use remainder::mod_by_constant;

use crate::domain::Val;
use crate::ids::VarId;
use crate::propagators::all_different::Consistency;
use crate::propagators::clause::BoolLit;
use crate::propagators::linear::Term;
use crate::propagators::linear_domain::MAX_SUM_RANGE;
use crate::propagators::regular_reasons::DEAD;
use crate::propagators::reified::{ReifiedLinear, Test};
use crate::propagators::reified_equal::ReifiedEqual;
use crate::propagators::{
    Abs, AllDifferent, AllDifferentShifted, BinaryFunction, Clause, CountedLine, Element, Extremum, Function,
    LineCounts, LinearEq, LinearEqDomain, LinearLe, LinearNe, Monotone, NotEqual, Parity, Regular, ReifiedIn, Table,
    Times, XorSystem,
};
use crate::solver::{ModelError, Solver, VAL_LIMIT};

/// A comparison between two integer quantities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// `a = b`
    Eq,
    /// `a ≠ b`
    Ne,
    /// `a ≤ b`
    Le,
    /// `a < b`
    Lt,
    /// `a ≥ b`
    Ge,
    /// `a > b`
    Gt,
}

impl Rel {
    /// Whether `a ⋈ b` holds, in `i128` so that sums of `i64` values compare exactly.
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
                LinearEq::post(solver, terms, rhs);
            }
        }
        (_, Rel::Ne) => {
            let _ = solver.post(Box::new(LinearNe { terms, rhs }));
        }
        (_, _) => {
            let _ = solver.post(Box::new(LinearLe::new(terms, rhs)));
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

/// Posts that `varsᵢ`, `varsᵢ + i` and `varsᵢ − i` are each pairwise distinct (three
/// all-different constraints with offsets, as one propagator that can also count). With
/// column `i` holding its queen's row, these are non-attacking queens.
pub fn all_different_shifted(solver: &mut Solver, vars: &[VarId]) {
    if vars.len() > 1 {
        let _ = solver.post(Box::new(AllDifferentShifted::new(vars.to_vec())));
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
    let (terms, test, rhs) = reified_parts(solver, terms, rel, rhs)?;
    if terms.is_empty() {
        solver.assign(b, Val::from(test.holds(0, rhs)));
        return Ok(());
    }
    let _ = solver.post(Box::new(ReifiedLinear::new(b, terms, test, rhs)));
    Ok(())
}

/// Posts `b ⇔ x = y`, where `b` is restricted to 0..1: once `b` is true, `x` and `y` keep
/// the same values (domain consistent, where [`reified_linear`] equals only the bounds).
pub fn reified_equal(solver: &mut Solver, b: VarId, x: VarId, y: VarId) {
    solver.set_min(b, 0);
    solver.set_max(b, 1);
    if x == y {
        solver.assign(b, 1);
        return;
    }
    let _ = solver.post(Box::new(ReifiedEqual { b, x, y }));
}

/// Posts `b → Σ coefᵢ·varᵢ ⋈ rhs`, where `b` is restricted to 0..1: the sum is
/// constrained only when `b = 1`, and `b` is set to 0 once the relation cannot hold.
pub fn half_reified_linear(
    solver: &mut Solver,
    b: VarId,
    terms: &[(i64, VarId)],
    rel: Rel,
    rhs: i64,
) -> Result<(), ModelError> {
    solver.set_min(b, 0);
    solver.set_max(b, 1);
    if solver.is_fixed(b) && solver.min(b) == 1 {
        return linear(solver, terms, rel, rhs);
    }
    // Checked even when b = 0 leaves nothing to post, so that a model is accepted or
    // refused whatever is known of b.
    let (terms, test, rhs) = reified_parts(solver, terms, rel, rhs)?;
    if solver.is_fixed(b) {
        return Ok(());
    }
    if terms.is_empty() {
        if !test.holds(0, rhs) {
            solver.assign(b, 0);
        }
        return Ok(());
    }
    let _ = solver.post(Box::new(ReifiedLinear::half(b, terms, test, rhs)));
    Ok(())
}

/// The terms of a reified relation simplified, and the relation normalised to `≤`, `=`
/// or `≠`.
fn reified_parts(
    solver: &Solver,
    terms: &[(i64, VarId)],
    rel: Rel,
    rhs: i64,
) -> Result<(Vec<Term>, Test, i64), ModelError> {
    let (terms, rhs) = simplify_terms(solver, terms, rhs)?;
    let negated = |terms: Vec<Term>| terms.iter().map(|&(a, x)| (-a, x)).collect();
    Ok(match rel {
        Rel::Eq => (terms, Test::Eq, rhs),
        Rel::Ne => (terms, Test::Ne, rhs),
        Rel::Le => (terms, Test::Le, rhs),
        Rel::Lt => (terms, Test::Le, rhs - 1),
        Rel::Ge => (negated(terms), Test::Le, -rhs),
        Rel::Gt => (negated(terms), Test::Le, -rhs - 1),
    })
}

/// Merges repeated variables, folds fixed ones into the constant, drops zero
/// coefficients, and rejects sums that could leave the 64-bit range.
fn simplify_terms(solver: &Solver, terms: &[(i64, VarId)], rhs: i64) -> Result<(Vec<(i64, VarId)>, i64), ModelError> {
    let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
    // Where each variable's term is in `merged`, for long sums: a scan of `merged` made a
    // sum of 100,000 terms take seconds to post. Short ones (most) are scanned.
    const SCANNED_TERMS: usize = 16;
    let mut position: std::collections::HashMap<VarId, usize> = std::collections::HashMap::new();
    let find = |position: &std::collections::HashMap<VarId, usize>, merged: &[(i128, VarId)], x: VarId| {
        if terms.len() > SCANNED_TERMS {
            position.get(&x).copied()
        } else {
            merged.iter().position(|t| t.1 == x)
        }
    };
    let mut rhs = rhs as i128;
    for &(a, x) in terms {
        if solver.is_fixed(x) {
            rhs -= a as i128 * solver.min(x) as i128;
        } else if let Some(i) = find(&position, &merged, x) {
            merged[i].0 += a as i128;
        } else {
            if terms.len() > SCANNED_TERMS {
                position.insert(x, merged.len());
            }
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
    let _ =
        solver.post(Box::new(Element { index, array: array.to_vec(), result, z_done_at: None, values: Vec::new() }));
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
    if x == z {
        // x = f(x): the fixed points of f, and nothing to propagate. (The propagator would
        // read x and z as two variables and could accept x = v with f(v) ≠ v.)
        solver.retain(x, |v| f(v) == Some(v));
        return Ok(());
    }
    if solver.is_fixed(z) {
        // `x mod 97 = 0` and the like: keep the values of x that map to z, once; no graph
        // to build and nothing left to propagate.
        let w = solver.min(z);
        solver.retain(x, |v| f(v) == Some(w));
        return Ok(());
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
    // A variable named twice takes one value: a tuple that gives it two is no solution
    // (kept, it would make the table look satisfiable, and entailed, with one tuple left).
    let consistent =
        |t: &&Vec<Val>| (0..vars.len()).all(|i| (i + 1..vars.len()).all(|j| vars[i] != vars[j] || t[i] == t[j]));
    let flat: Vec<Val> = tuples.iter().filter(consistent).flatten().copied().collect();
    if flat.is_empty() {
        solver.fail();
        return;
    }
    let _ = solver.post(Box::new(Table::new(vars.to_vec(), flat)));
}

/// Posts the clause: some variable of `pos` is 1 or some variable of `neg` is 0. Every
/// variable is restricted to 0..1.
pub fn clause(solver: &mut Solver, pos: &[VarId], neg: &[VarId]) {
    for &var in pos.iter().chain(neg) {
        solver.set_min(var, 0);
        solver.set_max(var, 1);
    }
    let mut literals: Vec<BoolLit> = Vec::with_capacity(pos.len() + neg.len());
    for (vars, positive) in [(pos, true), (neg, false)] {
        for &var in vars {
            match literals.iter().find(|l| l.var == var) {
                // x ∨ ¬x: always true.
                Some(l) if l.positive != positive => return,
                Some(_) => {}
                None => literals.push(BoolLit { var, positive }),
            }
        }
    }
    // A literal true already satisfies it; false ones can never help.
    if literals.iter().any(|l| solver.is_fixed(l.var) && solver.min(l.var) == l.value()) {
        return;
    }
    literals.retain(|l| !solver.is_fixed(l.var));
    match literals.as_slice() {
        [] => solver.fail(),
        [unit] => solver.assign(unit.var, unit.value()),
        _ => {
            let _ = solver.post(Box::new(Clause::new(literals)));
        }
    }
}

/// Posts that an odd (`odd`) or even number of `xs` are 1. Every variable is restricted
/// to 0..1; a variable listed twice counts twice.
pub fn parity(solver: &mut Solver, xs: &[VarId], odd: bool) {
    for &x in xs {
        solver.set_min(x, 0);
        solver.set_max(x, 1);
    }
    // x ⊕ x = 0: a variable listed an even number of times drops out, and a fixed one
    // moves into the parity sought.
    let mut sorted = xs.to_vec();
    sorted.sort_unstable();
    let mut odd = odd;
    let mut free: Vec<VarId> = Vec::new();
    for run in sorted.chunk_by(|a, b| a == b) {
        let x = run[0];
        if run.len() % 2 == 0 {
            continue;
        }
        if solver.is_fixed(x) {
            odd ^= solver.min(x) == 1;
        } else {
            free.push(x);
        }
    }
    match free.as_slice() {
        [] => {
            if odd {
                solver.fail();
            }
        }
        &[x] => solver.assign(x, Val::from(odd)),
        _ => {
            let _ = solver.post(Box::new(Parity::new(free, odd)));
        }
    }
}

/// Adds, over parity equations `(xs, odd)` that share variables and that the model
/// already enforces one by one ([`parity`]), their elimination together (Gauss–Jordan
/// over GF(2): a sum of equations fixes variables that none fixes alone; see
/// [`XorSystem`]). Every variable is restricted to 0..1; a variable listed twice in an
/// equation cancels out. The elimination costs about rank² × columns / 64 word operations
/// when posted, and as much at most per propagation (in practice a small part: only the
/// rows whose pivot got fixed are repaired): past [`XOR_SYSTEM_WORK`] nothing is added,
/// and the result is `false` (the equations still hold, each by its own propagator).
pub fn parity_elimination(solver: &mut Solver, equations: &[(Vec<VarId>, bool)]) -> bool {
    for (xs, _) in equations {
        for &x in xs {
            solver.set_min(x, 0);
            solver.set_max(x, 1);
        }
    }
    match XorSystem::new(equations) {
        None => {
            solver.fail();
            true
        }
        Some(system) if system.work() > XOR_SYSTEM_WORK => false,
        Some(system) => {
            if system.rank() > 0 {
                let _ = solver.post(Box::new(system));
            }
            true
        }
    }
}

/// The most word operations one full elimination of a parity system may cost (rank² ×
/// words of 64 columns) for [`parity_elimination`] to post it: about 1,500 equations over
/// as many variables. Measured on random satisfiable systems of 3–6 variables per
/// equation: 950 equations over 1,000 variables (14 M) solved in 0.1 s, where the
/// equations one by one do not solve 280 over 300 in 30 s.
pub const XOR_SYSTEM_WORK: usize = 1 << 26;

/// Posts `b ⇔ x ∈ set` (`half`: `b → x ∈ set`), where `b` is restricted to 0..1. `set`
/// may list its values in any order, with repeats.
pub fn reified_in(solver: &mut Solver, b: VarId, x: VarId, set: &[Val], half: bool) {
    solver.set_min(b, 0);
    solver.set_max(b, 1);
    let mut set = set.to_vec();
    set.sort_unstable();
    set.dedup();
    if set.is_empty() {
        solver.assign(b, 0);
        return;
    }
    if half && solver.is_fixed(b) && solver.min(b) == 0 {
        return;
    }
    let _ = solver.post(Box::new(ReifiedIn::new(b, x, set, half)));
}

/// Posts `z = f(x, y)`; pairs where `f` gives `None` are impossible (division by zero,
/// overflow: `f` must compute with checked arithmetic). `name` is what statistics call
/// it. Domain consistent while `x` and `y` have few pairs of values, forward checking
/// beyond (see [`crate::propagators::BinaryFunction`]).
pub fn binary_function(
    solver: &mut Solver,
    x: VarId,
    y: VarId,
    z: VarId,
    f: impl Fn(Val, Val) -> Option<Val> + Send + 'static,
    name: &'static str,
) -> Result<(), ModelError> {
    // With x or y fixed (or x = y), z is a function of one variable: its graph, when it
    // can be tabulated, is domain consistent at any size and cheaper to maintain.
    if solver.is_fixed(x) && solver.size(y) <= MAX_FUNCTION_DOMAIN {
        let vx = solver.min(x);
        return function(solver, y, z, move |vy| f(vx, vy), name);
    }
    if solver.is_fixed(y) && solver.size(x) <= MAX_FUNCTION_DOMAIN {
        let vy = solver.min(y);
        return function(solver, x, z, move |vx| f(vx, vy), name);
    }
    if x == y && solver.size(x) <= MAX_FUNCTION_DOMAIN {
        return function(solver, x, z, move |v| f(v, v), name);
    }
    let _ = solver.post(Box::new(BinaryFunction::new(x, y, z, Box::new(f), name)));
    Ok(())
}

/// Posts `z = |x|`: tabulated (domain consistent) when `x` has at most
/// [`SMALL_ABS_DOMAIN`] values, by bounds otherwise.
pub fn abs(solver: &mut Solver, x: VarId, z: VarId) -> Result<(), ModelError> {
    if solver.size(x) <= SMALL_ABS_DOMAIN {
        return function(solver, x, z, |v| v.checked_abs(), "abs");
    }
    let _ = solver.post(Box::new(Abs { x, z }));
    Ok(())
}

/// Domains up to this many values get functions by their graph (domain consistent).
pub const SMALL_FUNCTION_DOMAIN: u64 = 4096;

/// `abs` of a domain up to this many values goes by its graph (domain consistent), a wider
/// one by bounds, as Gecode's default. The graph is read whole at every call, and the
/// difference `|x - y|` of two wide variables is the usual `abs`: on the MiniZinc
/// collection's celar (differences of 1,553 values) the graph made 100 times fewer nodes a
/// second than the bounds, and on the three `abs` instances of `tests/minizinc/` it pruned
/// nothing the bounds do not (the same nodes, 5 to 25 times the time).
pub const SMALL_ABS_DOMAIN: u64 = 64;

/// Posts `z = x div k` (truncating towards zero, as MiniZinc), `k ≠ 0`: tabulated when `x`
/// has few values, by bounds otherwise.
pub fn div_by_constant(solver: &mut Solver, x: VarId, k: Val, z: VarId) -> Result<(), ModelError> {
    if k == 0 {
        solver.fail();
        return Ok(());
    }
    if solver.size(x) <= SMALL_FUNCTION_DOMAIN {
        return function(solver, x, z, move |v| v.checked_div(k), "div");
    }
    if k > 0 {
        let _ = solver.post(Box::new(Monotone { x, z, f: Box::new(move |v| v / k), name: "div" }));
    } else {
        // x div k = (-x) div (-k): a non-decreasing function of -x.
        let neg_x = solver.new_var(-solver.max(x), -solver.min(x))?;
        linear(solver, &[(1, x), (1, neg_x)], Rel::Eq, 0)?;
        let _ = solver.post(Box::new(Monotone { x: neg_x, z, f: Box::new(move |v| v / -k), name: "div" }));
    }
    Ok(())
}

/// Circuits up to this many nodes keep their successors distinct with domain consistency
/// (a matching per call, which pays on small graphs), larger ones by bounds.
const CIRCUIT_DOMAIN_LIMIT: usize = 64;

/// Posts that the successors `succ` form one circuit through every node (MiniZinc's
/// `circuit`): node `i` is the value `i + offset`, `succ[i]` is the node after node `i`.
/// No node is its own successor, so a single node has no circuit (and no nodes, one).
pub fn circuit(solver: &mut Solver, succ: &[VarId], offset: i64) {
    if !restrict_to_nodes(solver, succ, offset) {
        return;
    }
    for (i, &x) in succ.iter().enumerate() {
        solver.remove(x, offset + i as i64);
    }
    successors_distinct(solver, succ);
    // Two nodes: the domains already leave only 0 → 1 → 0.
    if succ.len() > 2 {
        let _ = solver.post(Box::new(crate::propagators::Circuit::new(succ.to_vec(), offset)));
    }
}

/// Posts that the nodes that are not their own successor form one circuit, or that there
/// are none (MiniZinc's `subcircuit`; nodes and successors as in [`circuit`]).
pub fn subcircuit(solver: &mut Solver, succ: &[VarId], offset: i64) {
    if !restrict_to_nodes(solver, succ, offset) {
        return;
    }
    successors_distinct(solver, succ);
    // Up to two nodes, every permutation is a subcircuit.
    if succ.len() > 2 {
        let _ = solver.post(Box::new(crate::propagators::Subcircuit::new(succ.to_vec(), offset)));
    }
}

/// Restricts each successor to the nodes `offset..offset + n`. `false` when there is
/// nothing more to post: no nodes, or no solution.
fn restrict_to_nodes(solver: &mut Solver, succ: &[VarId], offset: i64) -> bool {
    let Some(last) = offset.checked_add(succ.len() as i64 - 1) else {
        solver.fail();
        return false;
    };
    for &x in succ {
        solver.set_min(x, offset);
        solver.set_max(x, last);
    }
    !succ.is_empty() && !solver.is_failed()
}

/// All-different on the successors of a circuit or subcircuit: they form a permutation.
fn successors_distinct(solver: &mut Solver, succ: &[VarId]) {
    let consistency = if succ.len() <= CIRCUIT_DOMAIN_LIMIT { Consistency::Domain } else { Consistency::Bounds };
    all_different(solver, succ, &[], consistency);
}

/// Posts MiniZinc's cumulative: at every time, the tasks running (`startsᵢ ≤ t <
/// startsᵢ + durationsᵢ`) use at most `capacity` in all; durations and resources are at
/// least 0, and tasks of duration or resource 0 use nothing. Time-tabling on the profile of
/// compulsory parts ([`crate::propagators::TimeTable`]).
pub fn cumulative(
    solver: &mut Solver,
    starts: &[VarId],
    durations: &[VarId],
    resources: &[VarId],
    capacity: VarId,
) -> Result<(), ModelError> {
    assert!(starts.len() == durations.len() && starts.len() == resources.len(), "one duration and resource per task");
    if starts.is_empty() {
        return Ok(());
    }
    for &x in durations.iter().chain(resources) {
        solver.set_min(x, 0);
    }
    solver.set_min(capacity, 0);
    let reach: i128 = starts
        .iter()
        .zip(durations)
        .map(|(&s, &d)| (solver.max(s) as i128).abs().max((solver.min(s) as i128).abs()) + solver.max(d) as i128)
        .max()
        .unwrap_or(0);
    let load: i128 = resources.iter().map(|&r| solver.max(r) as i128).sum();
    if reach > (i64::MAX / 4) as i128 || load > (i64::MAX / 4) as i128 {
        return Err(ModelError::Overflow(format!(
            "a cumulative whose tasks reach time {reach} or load {load}, beyond the 64-bit range the solver computes in"
        )));
    }
    let _ = solver.post(Box::new(crate::propagators::TimeTable::new(
        starts.to_vec(),
        durations.to_vec(),
        resources.to_vec(),
        capacity,
    )));
    let energetic = (0..starts.len()).filter(|&i| solver.max(resources[i]) > 0 && solver.max(durations[i]) > 0).count();
    if (2..=crate::propagators::energy::MAX_TASKS).contains(&energetic) {
        let _ = solver.post(Box::new(crate::propagators::CumulativeEnergy::new(
            starts.to_vec(),
            durations.to_vec(),
            resources.to_vec(),
            capacity,
        )));
    }
    // Tasks that each take more than half of the largest capacity never run together, nor
    // with the largest task of at most half that still leaves too little room for them (the
    // test of Gecode's FlatZinc interface, applied to a subset): those tasks form a unary
    // resource, where edge finding applies.
    let cap = solver.max(capacity);
    let mut heights: Vec<(Val, usize)> =
        (0..starts.len()).map(|i| (solver.min(resources[i]), i)).filter(|&(h, _)| h > 0).collect();
    heights.sort_unstable_by(|a, b| b.cmp(a));
    let big = heights.iter().take_while(|&&(h, _)| 2 * h > cap).count();
    let mut exclusive: Vec<usize> = heights[..big].iter().map(|&(_, i)| i).collect();
    if let (Some(&(smallest_big, _)), Some(&(h, i))) = (heights[..big].last(), heights.get(big)) {
        if h + smallest_big > cap {
            exclusive.push(i);
        }
    }
    exclusive.sort_unstable();
    unary(
        solver,
        &exclusive.iter().map(|&i| starts[i]).collect::<Vec<_>>(),
        &exclusive.iter().map(|&i| durations[i]).collect::<Vec<_>>(),
    );
    Ok(())
}

/// Posts MiniZinc's diffn: rectangle `i`, with corner `(xᵢ, yᵢ)` and sides `dxᵢ`, `dyᵢ`,
/// overlaps no other (in some dimension one ends before the other starts). With `strict`
/// off (`diffn_nonstrict`), rectangles with a side of 0 may go anywhere. Pairwise
/// separation and compulsory parts ([`crate::propagators::Diffn`]). The front ends check
/// that the four arrays have one length.
pub fn diffn(
    solver: &mut Solver,
    x: &[VarId],
    y: &[VarId],
    dx: &[VarId],
    dy: &[VarId],
    strict: bool,
) -> Result<(), ModelError> {
    let n = x.len();
    assert!(y.len() == n && dx.len() == n && dy.len() == n, "one corner and two sides per rectangle");
    let reach = x
        .iter()
        .chain(y)
        .chain(dx)
        .chain(dy)
        .map(|&v| solver.max(v).unsigned_abs().max(solver.min(v).unsigned_abs()))
        .max();
    if reach.unwrap_or(0) > (i64::MAX / 4) as u64 {
        return Err(ModelError::Overflow(
            "a diffn whose rectangles reach beyond the 64-bit range the solver computes in".into(),
        ));
    }
    if n >= 2 {
        let _ = solver.post(Box::new(crate::propagators::Diffn::new(
            x.to_vec(),
            y.to_vec(),
            dx.to_vec(),
            dy.to_vec(),
            strict,
        )));
    }
    // Rectangles that can never be apart in one dimension (a row of unit-high boxes) never
    // overlap in the other: there they are tasks of a unary resource, and edge finding sees
    // overloads that pairs alone miss.
    for (along, across, along_sizes, across_sizes) in [(x, y, dx, dy), (y, x, dy, dx)] {
        for group in never_apart(solver, across, across_sizes) {
            let starts: Vec<VarId> = group.iter().map(|&i| along[i]).collect();
            let sizes: Vec<VarId> = group.iter().map(|&i| along_sizes[i]).collect();
            unary(solver, &starts, &sizes);
        }
    }
    Ok(())
}

/// Groups (of two or more) of intervals `[originᵢ, originᵢ + sizeᵢ)` that surely overlap
/// pairwise, whatever the search decides: each interval's earliest end comes after every
/// other's latest start, and no size can be 0. Greedy, in index order.
fn never_apart(solver: &Solver, origins: &[VarId], sizes: &[VarId]) -> Vec<Vec<usize>> {
    let apart_possible = |i: usize, j: usize| {
        solver.min(origins[i]) + solver.min(sizes[i]) <= solver.max(origins[j])
            || solver.min(origins[j]) + solver.min(sizes[j]) <= solver.max(origins[i])
    };
    let solid: Vec<usize> = (0..origins.len()).filter(|&i| solver.min(sizes[i]) > 0).collect();
    let mut placed = vec![false; origins.len()];
    let mut groups = Vec::new();
    for &i in &solid {
        if placed[i] {
            continue;
        }
        let mut group = vec![i];
        for &j in &solid {
            if !placed[j] && j != i && group.iter().all(|&k| !apart_possible(j, k)) {
                group.push(j);
            }
        }
        if group.len() >= 2 {
            for &k in &group {
                placed[k] = true;
            }
            groups.push(group);
        }
    }
    groups
}

/// Edge finding on tasks that never overlap, for up to [`crate::propagators::unary::MAX_TASKS`].
/// Tasks that all last exactly one unit never overlap when their starts differ: there the
/// resource is an all-different, whose Hall intervals on bounds already contain everything
/// edge finding, detectable precedences and not-first deduce for unit tasks, at a fraction
/// of their cost, and which also removes a fixed task's start from the others' domains.
fn unary(solver: &mut Solver, starts: &[VarId], durations: &[VarId]) {
    if starts.len() >= 2 && durations.iter().all(|&d| solver.min(d) == 1 && solver.max(d) == 1) {
        all_different(solver, starts, &[], Consistency::Bounds);
    } else if starts.len() >= 2 && starts.len() <= crate::propagators::unary::MAX_TASKS {
        let _ = solver.post(Box::new(crate::propagators::Unary::new(starts.to_vec(), durations.to_vec())));
    }
}

/// Posts MiniZinc's disjunctive (no two tasks overlap; with `strict` false, tasks of
/// duration 0 may go anywhere, with `strict` true not even inside another task): the
/// cumulative of unit resources and capacity 1, and for `strict`, where a duration may be 0,
/// the pairwise disjunctions `sᵢ + dᵢ ≤ sⱼ ∨ sⱼ + dⱼ ≤ sᵢ` as well.
pub fn disjunctive(solver: &mut Solver, starts: &[VarId], durations: &[VarId], strict: bool) -> Result<(), ModelError> {
    assert_eq!(starts.len(), durations.len(), "one duration per task");
    let one = solver.new_var(1, 1)?;
    let resources = vec![one; starts.len()];
    cumulative(solver, starts, durations, &resources, one)?;
    if strict && durations.iter().any(|&d| solver.min(d) <= 0) {
        for i in 0..starts.len() {
            for j in i + 1..starts.len() {
                let before = solver.new_var(0, 1)?;
                let after = solver.new_var(0, 1)?;
                let (si, di, sj, dj) = (starts[i], durations[i], starts[j], durations[j]);
                reified_linear(solver, before, &[(1, si), (1, di), (-1, sj)], Rel::Le, 0)?;
                reified_linear(solver, after, &[(1, sj), (1, dj), (-1, si)], Rel::Le, 0)?;
                clause(solver, &[before, after], &[]);
            }
        }
    }
    Ok(())
}

/// Posts MiniZinc's `regular`: the values of `xs`, read in order as symbols, spell a word
/// that the deterministic automaton accepts. Its states are `1..=states` and its symbols,
/// the values the variables may take, `1..=symbols`; `transition[q - 1][s - 1]` is the
/// state after reading `s` in state `q`, 0 when there is none (the word is rejected); the
/// walk begins in `start` and must end in one of `accepting`. Values outside `1..=symbols`
/// are removed. Domain consistent ([`crate::propagators::Regular`]).
pub fn regular(
    solver: &mut Solver,
    xs: &[VarId],
    states: usize,
    symbols: usize,
    transition: &[Vec<usize>],
    start: usize,
    accepting: &[usize],
) -> Result<(), ModelError> {
    let invalid = |what: String| Err(ModelError::InvalidArgument(format!("regular: {what}")));
    // States are stored as u32, with u32::MAX for "no state".
    if states >= DEAD as usize {
        return invalid(format!("{states} states; at most {} are supported", DEAD - 1));
    }
    let Some(last) = Val::try_from(symbols).ok().filter(|&s| s <= VAL_LIMIT) else {
        return invalid(format!("{symbols} symbols; at most {VAL_LIMIT} are supported"));
    };
    if transition.len() != states {
        return invalid(format!("{} rows of transitions for {states} states", transition.len()));
    }
    if let Some((q, row)) = transition.iter().enumerate().find(|(_, row)| row.len() != symbols) {
        return invalid(format!("state {} has {} transitions for {symbols} symbols", q + 1, row.len()));
    }
    if let Some(&q) = transition.iter().flatten().find(|&&q| q > states) {
        return invalid(format!("a transition to state {q}, but the states are 1..{states} (0 for none)"));
    }
    if !(1..=states).contains(&start) {
        return invalid(format!("start state {start} is not one of the states 1..{states}"));
    }
    if let Some(&q) = accepting.iter().find(|&&q| !(1..=states).contains(&q)) {
        return invalid(format!("accepting state {q} is not one of the states 1..{states}"));
    }
    let mut is_accepting = vec![false; states];
    for &q in accepting {
        is_accepting[q - 1] = true;
    }
    if xs.is_empty() {
        // The empty word: accepted when the start state is.
        if !is_accepting[start - 1] {
            solver.fail();
        }
        return Ok(());
    }
    for &x in xs {
        solver.set_min(x, 1);
        solver.set_max(x, last);
    }
    let next: Vec<u32> = transition.iter().flatten().map(|&q| if q == 0 { DEAD } else { (q - 1) as u32 }).collect();
    let _ = solver.post(Box::new(Regular::new(xs.to_vec(), states, symbols, next, (start - 1) as u32, is_accepting)));
    Ok(())
}

/// Posts MiniZinc's `inverse` with the arrays' index sets made explicit: position `i` of
/// `f` is the value `i + f_offset`, position `j` of `g` the value `j + g_offset`, and
/// `f[i] = j ⇔ g[j] = i` for all of them, so `f` and `g` are inverse bijections between
/// the two sets of positions (arrays of different lengths: no solution). Channelling
/// ([`crate::propagators::Inverse`]) and all-different at `consistency` on each side;
/// with [`Consistency::Domain`], domain consistent.
pub fn inverse(
    solver: &mut Solver,
    f: &[VarId],
    f_offset: Val,
    g: &[VarId],
    g_offset: Val,
    consistency: Consistency,
) -> Result<(), ModelError> {
    for (offset, len) in [(f_offset, f.len()), (g_offset, g.len())] {
        let last = offset as i128 + len as i128 - 1;
        if offset.unsigned_abs() > VAL_LIMIT as u64 || last > VAL_LIMIT as i128 {
            return Err(ModelError::ValueOutOfRange(if last > VAL_LIMIT as i128 { last } else { offset as i128 }));
        }
    }
    if f.len() != g.len() {
        solver.fail();
        return Ok(());
    }
    if f.is_empty() {
        return Ok(());
    }
    let last = |offset: Val| offset + f.len() as Val - 1;
    for &x in f {
        solver.set_min(x, g_offset);
        solver.set_max(x, last(g_offset));
    }
    for &y in g {
        solver.set_min(y, f_offset);
        solver.set_max(y, last(f_offset));
    }
    all_different(solver, f, &[], consistency);
    all_different(solver, g, &[], consistency);
    let _ = solver.post(Box::new(crate::propagators::Inverse::new(f.to_vec(), f_offset, g.to_vec(), g_offset)));
    Ok(())
}

/// Posts `x <lex y` as MiniZinc's `lex_less`: the first position where they differ has
/// the smaller value in `x`, or `x` is a proper prefix of `y` (lengths may differ).
/// Generalised arc consistency ([`crate::propagators::Lex`]).
pub fn lex_less(solver: &mut Solver, x: &[VarId], y: &[VarId]) {
    lex(solver, x, y, true);
}

/// Posts `x ≤lex y` as MiniZinc's `lex_lesseq`: `x <lex y` or `x = y`.
pub fn lex_lesseq(solver: &mut Solver, x: &[VarId], y: &[VarId]) {
    lex(solver, x, y, false);
}

fn lex(solver: &mut Solver, x: &[VarId], y: &[VarId], strict: bool) {
    // Equal on the common prefix, `x` is the smaller when it is shorter (or, not strict,
    // as long): the propagator compares the prefix, strictly when that is not so.
    let common = x.len().min(y.len());
    let strict = if strict { x.len() >= y.len() } else { x.len() > y.len() };
    if common == 0 {
        if strict {
            solver.fail();
        }
        return;
    }
    let _ = solver.post(Box::new(crate::propagators::Lex::new(x[..common].to_vec(), y[..common].to_vec(), strict)));
}

/// Posts MiniZinc's `global_cardinality`: `counts[k]` is the number of variables of `x`
/// equal to `cover[k]`; with `closed`, every variable of `x` takes a value of `cover`.
/// `cover` may repeat a value (its counts are then equal). Counting rules, weaker than
/// Régin's flow (see [`crate::propagators::GlobalCardinality`]).
pub fn global_cardinality(
    solver: &mut Solver,
    x: &[VarId],
    cover: &[Val],
    counts: &[VarId],
    closed: bool,
) -> Result<(), ModelError> {
    if cover.len() != counts.len() {
        return Err(ModelError::InvalidArgument(format!(
            "global cardinality with {} values to count and {} counts",
            cover.len(),
            counts.len()
        )));
    }
    let mut order: Vec<usize> = (0..cover.len()).collect();
    order.sort_by_key(|&k| cover[k]);
    let (mut values, mut firsts): (Vec<Val>, Vec<VarId>) = (Vec::new(), Vec::new());
    for k in order {
        match (values.last(), firsts.last()) {
            (Some(&v), Some(&first)) if v == cover[k] => linear(solver, &[(1, counts[k]), (-1, first)], Rel::Eq, 0)?,
            _ => {
                values.push(cover[k]);
                firsts.push(counts[k]);
            }
        }
    }
    post_global_cardinality(solver, x, values, firsts, closed);
    Ok(())
}

/// Posts the propagator over the distinct sorted `values`, after restricting `x` to them
/// when `closed`: bounds always, the values between while the domain can be listed.
fn post_global_cardinality(solver: &mut Solver, x: &[VarId], values: Vec<Val>, counts: Vec<VarId>, closed: bool) {
    if closed {
        let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
            if !x.is_empty() {
                solver.fail();
            }
            return;
        };
        for &xi in x {
            solver.set_min(xi, first);
            solver.set_max(xi, last);
            if solver.size(xi) <= MAX_FUNCTION_DOMAIN {
                let gone: Vec<Val> = solver.values(xi).filter(|v| values.binary_search(v).is_err()).collect();
                for v in gone {
                    solver.remove(xi, v);
                }
            }
        }
    }
    let _ = solver.post(Box::new(crate::propagators::GlobalCardinality::new(x.to_vec(), values, counts, closed)));
}

/// Posts MiniZinc's `global_cardinality_low_up`: between `lo[k]` and `up[k]` variables of
/// `x` equal `cover[k]`; with `closed`, every variable of `x` takes a value of `cover`. A
/// repeated value must meet all its bounds.
pub fn global_cardinality_low_up(
    solver: &mut Solver,
    x: &[VarId],
    cover: &[Val],
    lo: &[Val],
    up: &[Val],
    closed: bool,
) -> Result<(), ModelError> {
    if lo.len() != cover.len() || up.len() != cover.len() {
        return Err(ModelError::InvalidArgument(format!(
            "global cardinality with {} values to count, {} lower bounds and {} upper bounds",
            cover.len(),
            lo.len(),
            up.len()
        )));
    }
    let mut bounds: Vec<(Val, Val, Val)> = (0..cover.len()).map(|k| (cover[k], lo[k], up[k])).collect();
    bounds.sort_unstable();
    let mut merged: Vec<(Val, Val, Val)> = Vec::new();
    for (v, l, u) in bounds {
        match merged.last_mut() {
            Some(last) if last.0 == v => *last = (v, last.1.max(l), last.2.min(u)),
            _ => merged.push((v, l, u)),
        }
    }
    // A count lies within 0..n whatever the bounds say.
    let n = x.len() as Val;
    let mut counts = Vec::with_capacity(merged.len());
    for &(_, l, u) in &merged {
        let (l, u) = (l.max(0), u.min(n));
        if l > u {
            solver.fail();
            return Ok(());
        }
        counts.push(solver.new_var(l, u)?);
    }
    let values = merged.iter().map(|&(v, _, _)| v).collect();
    post_global_cardinality(solver, x, values, counts, closed);
    Ok(())
}

/// Posts, for each line, that at most `cap` of its variables are 1 (exactly `cap` when
/// `exact`); a variable listed twice in a line counts twice. Every variable is restricted
/// to 0..1. One propagator keeps the count of every line ([`LineCounts`]): for many lines
/// over shared variables (the lines of a grid), far cheaper than a linear constraint each.
pub fn line_counts(solver: &mut Solver, lines: &[CountedLine]) {
    let mut index: std::collections::BTreeMap<VarId, u32> = std::collections::BTreeMap::new();
    let mut vars: Vec<VarId> = Vec::new();
    let mut kept: Vec<(Vec<u32>, i64, bool)> = Vec::new();
    for line in lines {
        if line.cap < 0 || (line.exact && line.cap > line.vars.len() as i64) {
            solver.fail();
            return;
        }
        if !line.exact && line.cap >= line.vars.len() as i64 {
            continue; // Can never be exceeded.
        }
        let members = line
            .vars
            .iter()
            .map(|&x| {
                *index.entry(x).or_insert_with(|| {
                    vars.push(x);
                    (vars.len() - 1) as u32
                })
            })
            .collect();
        kept.push((members, line.cap, line.exact));
    }
    for &x in &vars {
        solver.set_min(x, 0);
        solver.set_max(x, 1);
    }
    if !kept.is_empty() {
        let _ = solver.post(Box::new(LineCounts::new(vars, kept)));
    }
}
