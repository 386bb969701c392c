//! Compiling a cryptarithm into engine variables and constraints.

use cpsolve_dsl::Diagnostic;
use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::{Branching, Consistency, Rel, SearchConfig, Solver, ValOrder, VarId, VarOrder};

use super::equation::Atom;
use super::view::CryptView;
use super::{Cryptarithm, Formulation};
use crate::explain::{NamedConstraint, Vocabulary};
use crate::problem::{Kind, Problem};

/// Builds the solver for `crypt`.
pub(super) fn build(crypt: &Cryptarithm, stop: &cpsolve_engine::StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let letters = crypt.letters();
    let base = crypt.base as i64;
    let mut solver = Solver::with_stop_token(stop.clone());
    // Only a limit can refuse the digits' range (a stop was requested).
    let vars: Vec<VarId> = letters
        .iter()
        .map(|_| solver.new_var(0, base - 1).ok())
        .collect::<Option<_>>()
        .ok_or_else(crate::compile::stopped_while_compiling)?;
    let var_of = |c: char| vars[letters.iter().position(|&l| l == c).expect("every letter has a variable")];

    let mut unsat_reason = None;
    if letters.len() > crypt.base as usize {
        unsat_reason = Some(format!(
            "{} distinct letters, but base {} has only {} digits, and letters stand for distinct digits",
            letters.len(),
            crypt.base,
            crypt.base
        ));
        solver.fail();
    }
    if !crypt.leading_zeros {
        for term in &crypt.terms {
            if let Atom::Word(word) = &term.atom {
                if word.len() > 1 {
                    solver.set_min(var_of(word[0]), 1);
                }
            }
        }
    }
    // Measured on the 40 seed puzzles: Hall intervals prune a few more nodes than they
    // cost only on permutation-like puzzles; value elimination is twice as fast overall.
    let mut named = Vec::new();
    let first = solver.num_propagators();
    all_different(&mut solver, &vars, &[], Consistency::Value);
    named.push(NamedConstraint {
        props: solver.propagators_since(first),
        name: "all different".to_string(),
        says: Some("the letters stand for different digits".to_string()),
        span: None,
        bindings: Vec::new(),
        all_different: None,
    });
    let mut carries = Vec::new();
    let first = solver.num_propagators();
    let posted = match crypt.formulation {
        Formulation::Columns => post_columns(crypt, &mut solver, &var_of, &mut carries),
        Formulation::Equation => post_equation(crypt, &mut solver, &var_of),
    };
    posted.map_err(|message| {
        vec![Diagnostic::new(message, crypt.terms[0].span.start..crypt.terms[crypt.terms.len() - 1].span.end)]
    })?;

    let order: Vec<VarId> = column_order(crypt).into_iter().map(var_of).collect();
    let search = SearchConfig {
        branching: vec![Branching { vars: order, var_order: VarOrder::DomWdeg, val_order: ValOrder::Min }],
        ..SearchConfig::default()
    };
    let mut shown: Vec<(VarId, String)> = letters.iter().zip(&vars).map(|(l, &x)| (x, l.to_string())).collect();
    shown.extend(carries.iter().filter_map(|c| c.carry).enumerate().map(|(j, c)| (c, format!("c{}", j + 1))));
    match crypt.formulation {
        Formulation::Columns => named.extend(column_names(&carries, &shown)),
        Formulation::Equation => named.push(NamedConstraint {
            props: solver.propagators_since(first),
            name: "the sum".to_string(),
            says: None,
            span: None,
            bindings: Vec::new(),
            all_different: None,
        }),
    }
    let vocabulary = Vocabulary { constraints: named, shown, ..Vocabulary::default() };
    let view = CryptView::new(crypt, letters, vars);
    let view = Box::new(view);
    Ok(Problem {
        kind: Kind::Cryptarithm,
        solver,
        search,
        mode: crypt.mode,
        unsat_reason,
        view,
        vocabulary,
        first_portfolio: None,
    })
}

/// Letters from the units column leftwards: the order dom/wdeg breaks ties in, so that
/// early decisions complete columns and the carries propagate.
fn column_order(crypt: &Cryptarithm) -> Vec<char> {
    let longest = crypt.terms.iter().map(|t| word_of(t).len()).max().unwrap_or(0);
    let mut order = Vec::new();
    for position in 0..longest {
        for term in &crypt.terms {
            let word = word_of(term);
            if position < word.len() {
                let c = word[word.len() - 1 - position];
                if !order.contains(&c) {
                    order.push(c);
                }
            }
        }
    }
    order
}

fn word_of(term: &super::equation::Term) -> &[char] {
    match &term.atom {
        Atom::Word(word) => word,
        Atom::One => &[],
    }
}

/// The digits of `|value|` in `base`, least significant first, each with the sign of `value`.
fn signed_digits(value: i64, base: i64) -> Vec<i64> {
    let sign = value.signum();
    let mut rest = value.unsigned_abs();
    let mut digits = Vec::new();
    while rest > 0 {
        digits.push(sign * (rest % base as u64) as i64);
        rest /= base as u64;
    }
    digits
}

/// One equation per column: `Σ coef·letter + constant digit + carry_in − base·carry_out = 0`.
/// One column as posted: its propagators, its terms (`Σ aᵢ·xᵢ = constant`) and the carry
/// it passes on (none for the last).
struct Carried {
    props: Vec<cpsolve_engine::PropId>,
    terms: Vec<(i64, VarId)>,
    constant: i64,
    carry: Option<VarId>,
}

/// "column 1: D + E = Y + 10·c1", counting from the units.
fn column_names(columns: &[Carried], shown: &[(VarId, String)]) -> Vec<NamedConstraint> {
    use std::fmt::Write;
    let name = |x: VarId| shown.iter().find(|(y, _)| *y == x).map_or("?", |(_, n)| n.as_str());
    // One side of a column, written into `out`: its terms with coefficient `sign`·a, a > 0.
    let side = |out: &mut String, terms: &[(i64, VarId)], sign: i64, constant: i64| {
        let start = out.len();
        for &(a, x) in terms.iter().filter(|t| t.0 * sign > 0) {
            let a = a * sign;
            let plus = if out.len() > start { " + " } else { "" };
            let _ = if a == 1 { write!(out, "{plus}{}", name(x)) } else { write!(out, "{plus}{a}·{}", name(x)) };
        }
        if constant != 0 || out.len() == start {
            let plus = if out.len() > start { " + " } else { "" };
            let _ = write!(out, "{plus}{constant}");
        }
    };
    columns
        .iter()
        .enumerate()
        .map(|(j, column)| {
            let (lc, rc) = if column.constant >= 0 { (0, column.constant) } else { (-column.constant, 0) };
            let mut says = String::with_capacity(48);
            side(&mut says, &column.terms, 1, lc);
            says.push_str(" = ");
            side(&mut says, &column.terms, -1, rc);
            NamedConstraint {
                props: column.props.clone(),
                name: format!("column {}", j + 1),
                says: Some(says),
                span: None,
                bindings: Vec::new(),
                all_different: None,
            }
        })
        .collect()
}

fn post_columns(
    crypt: &Cryptarithm,
    solver: &mut Solver,
    var_of: &dyn Fn(char) -> VarId,
    posted: &mut Vec<Carried>,
) -> Result<(), String> {
    let base = crypt.base as i64;
    let mut constant_digits: Vec<i64> = Vec::new();
    for term in &crypt.terms {
        if term.atom == Atom::One {
            for (j, d) in signed_digits(term.coef, base).into_iter().enumerate() {
                if constant_digits.len() <= j {
                    constant_digits.resize(j + 1, 0);
                }
                constant_digits[j] += d;
            }
        }
    }
    let columns = crypt.terms.iter().map(|t| word_of(t).len()).max().unwrap_or(0).max(constant_digits.len());
    let mut carry_in: Option<VarId> = None;
    for j in 0..columns {
        let mut terms: Vec<(i64, VarId)> = Vec::new();
        for term in &crypt.terms {
            let word = word_of(term);
            if j < word.len() {
                terms.push((term.coef, var_of(word[word.len() - 1 - j])));
            }
        }
        let constant = constant_digits.get(j).copied().unwrap_or(0);
        if let Some(c) = carry_in {
            terms.push((1, c));
        }
        // The carry out takes every value the column sum allows; its range follows from the
        // bounds of what flows in. When that range has one value or none, it is rounded
        // outwards instead: the column's propagator, not the compilation, then fixes the
        // carry or finds the contradiction, so that an explanation can say why (a carry
        // fixed or emptied here would be a deduction no step tells).
        let (mut lo, mut hi) = (constant as i128, constant as i128);
        for &(a, x) in &terms {
            let (p, q) = (a as i128 * solver.min(x) as i128, a as i128 * solver.max(x) as i128);
            lo += p.min(q);
            hi += p.max(q);
        }
        if j + 1 < columns {
            let mut carry_lo = lo.div_euclid(base as i128) + i128::from(lo.rem_euclid(base as i128) != 0);
            let mut carry_hi = hi.div_euclid(base as i128);
            if carry_lo >= carry_hi {
                carry_lo = lo.div_euclid(base as i128);
                carry_hi = hi.div_euclid(base as i128) + i128::from(hi.rem_euclid(base as i128) != 0);
            }
            let to_i64 = |v: i128| i64::try_from(v).map_err(|_| "a column sum overflows 64-bit arithmetic".to_string());
            let carry = solver.new_var(to_i64(carry_lo)?, to_i64(carry_hi)?).map_err(|e| e.to_string())?;
            terms.push((-base, carry));
            carry_in = Some(carry);
        }
        // Domain consistency per column (`linear_eq_domain`) halves the nodes but triples
        // the time on the seed puzzles: bounds reasoning it is.
        let first = solver.num_propagators();
        linear(solver, &terms, Rel::Eq, -constant).map_err(|e| e.to_string())?;
        let carry = carry_in.filter(|_| j + 1 < columns);
        posted.push(Carried { props: solver.propagators_since(first), terms, constant: -constant, carry });
    }
    Ok(())
}

/// The whole sum as one equation: each letter weighs `Σ coef · base^position`.
fn post_equation(crypt: &Cryptarithm, solver: &mut Solver, var_of: &dyn Fn(char) -> VarId) -> Result<(), String> {
    let base = crypt.base as i128;
    let too_big = || "the single-equation model overflows 64-bit arithmetic; use `option model = columns`".to_string();
    let mut terms: Vec<(i64, VarId)> = Vec::new();
    let mut constant: i128 = 0;
    for term in &crypt.terms {
        match &term.atom {
            Atom::One => constant += term.coef as i128,
            Atom::Word(word) => {
                for (position, &c) in word.iter().rev().enumerate() {
                    let weight = base
                        .checked_pow(position as u32)
                        .and_then(|p| p.checked_mul(term.coef as i128))
                        .and_then(|w| i64::try_from(w).ok())
                        .ok_or_else(too_big)?;
                    terms.push((weight, var_of(c)));
                }
            }
        }
    }
    let rhs = i64::try_from(-constant).map_err(|_| too_big())?;
    linear(solver, &terms, Rel::Eq, rhs).map_err(|e| e.to_string())
}
