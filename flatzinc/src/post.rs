//! The FlatZinc builtins over integers and Booleans, each posted as engine constraints.
//!
//! Booleans are 0/1 variables, so most Boolean builtins are linear relations or clauses:
//! `bool_and(a, b, r)` is the three clauses `¬r ∨ a`, `¬r ∨ b`, `r ∨ ¬a ∨ ¬b`. Reified forms
//! (`_reif`, `r ⇔ c`) and half-reified ones (`_imp`, `r → c`) of linear relations go to the
//! engine's reified linear propagators. Constants are folded before anything is posted, so
//! a reified constraint whose control is fixed becomes the plain constraint or its negation.

use cpsolve_engine::{constraints, Consistency, Rel, Val, VarId};

use crate::compile::{Compiler, Result};
use crate::model::{Arg, Term};

/// Inverses up to this many positions keep each side all-different with domain
/// consistency (a matching per call, which pays on small permutations), larger ones by
/// bounds.
const INVERSE_DOMAIN_LIMIT: usize = 64;

/// A relation as written in a builtin's name.
fn relation(name: &str) -> Option<Rel> {
    Some(match name {
        "eq" => Rel::Eq,
        "ne" => Rel::Ne,
        "le" => Rel::Le,
        "lt" => Rel::Lt,
        "ge" => Rel::Ge,
        "gt" => Rel::Gt,
        _ => return None,
    })
}

/// How a relation is controlled: always, `r ⇔ c` or `r → c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Control {
    Always,
    Reif,
    Imp,
}

/// Splits `int_lin_le_reif` into (`int_lin_le`, Reif).
fn control_of(name: &str) -> (&str, Control) {
    if let Some(base) = name.strip_suffix("_reif") {
        (base, Control::Reif)
    } else if let Some(base) = name.strip_suffix("_imp") {
        (base, Control::Imp)
    } else {
        (name, Control::Always)
    }
}

impl Compiler<'_> {
    fn term(&self, args: &[Arg], i: usize) -> Result<Term> {
        match args.get(i) {
            Some(Arg::Term(t)) => Ok(*t),
            Some(Arg::Array(_)) => {
                Err(self.error(format!("argument {} should be a single value, not an array", i + 1)))
            }
            Some(Arg::Set(_)) => Err(self.error(format!("argument {} should be a single value, not a set", i + 1))),
            None => Err(self.error(format!("argument {} is missing", i + 1))),
        }
    }

    fn array<'b>(&self, args: &'b [Arg], i: usize) -> Result<&'b [Term]> {
        match args.get(i) {
            Some(Arg::Array(ts)) => Ok(ts),
            _ => Err(self.error(format!("argument {} should be an array", i + 1))),
        }
    }

    fn int(&self, args: &[Arg], i: usize) -> Result<Val> {
        match self.term(args, i)? {
            Term::Const(c) => Ok(c),
            Term::Var(_) => Err(self.error(format!("argument {} should be a constant", i + 1))),
        }
    }

    fn ints(&self, args: &[Arg], i: usize) -> Result<Vec<Val>> {
        self.array(args, i)?
            .iter()
            .map(|t| match t {
                Term::Const(c) => Ok(*c),
                Term::Var(_) => Err(self.error(format!("argument {} should hold constants", i + 1))),
            })
            .collect()
    }

    /// A constant that counts something: at least 0.
    fn count(&self, args: &[Arg], i: usize) -> Result<usize> {
        let c = self.int(args, i)?;
        usize::try_from(c).map_err(|_| self.error(format!("argument {} should be at least 0, not {c}", i + 1)))
    }

    fn set(&self, args: &[Arg], i: usize) -> Result<Vec<(Val, Val)>> {
        match args.get(i) {
            Some(Arg::Set(ranges)) => Ok(ranges.clone()),
            // A set given as an array of values ({} prints as []).
            Some(Arg::Array(ts)) if ts.is_empty() => Ok(Vec::new()),
            _ => Err(self.error(format!("argument {} should be a set of integers", i + 1))),
        }
    }

    fn vars(&mut self, terms: &[Term]) -> Result<Vec<VarId>> {
        terms.iter().map(|&t| self.var(t)).collect()
    }

    fn arity(&self, args: &[Arg], n: usize) -> Result<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(self.error(format!("expected {n} arguments, found {}", args.len())))
        }
    }

    fn engine<T>(&self, r: std::result::Result<T, cpsolve_engine::ModelError>) -> Result<T> {
        r.map_err(|e| self.error(e.to_string()))
    }

    /// `Σ coefs·terms ⋈ rhs`, controlled by `r`.
    fn linear(
        &mut self,
        coefs: &[Val],
        terms: &[Term],
        rel: Rel,
        rhs: Val,
        control: Control,
        r: Option<Term>,
    ) -> Result<()> {
        if coefs.len() != terms.len() {
            return Err(self.error(format!("{} coefficients for {} variables", coefs.len(), terms.len())));
        }
        let mut rhs = rhs as i128;
        let mut lin: Vec<(Val, VarId)> = Vec::with_capacity(terms.len());
        for (&a, &t) in coefs.iter().zip(terms) {
            match t {
                Term::Const(c) => rhs -= a as i128 * c as i128,
                Term::Var(x) => lin.push((a, x)),
            }
        }
        let rhs = Val::try_from(rhs).map_err(|_| self.error("a constant beyond 64 bits"))?;
        let (control, rel) = match (control, r) {
            (Control::Always, _) | (_, None) => (Control::Always, rel),
            (Control::Reif, Some(Term::Const(1))) | (Control::Imp, Some(Term::Const(1))) => (Control::Always, rel),
            (Control::Reif, Some(Term::Const(_))) => (Control::Always, rel.negate()),
            (Control::Imp, Some(Term::Const(_))) => return Ok(()),
            (c, Some(Term::Var(_))) => (c, rel),
        };
        match (control, r) {
            // `b ⇔ x = y`: domain consistent once b is known, as Gecode's default.
            (Control::Reif, Some(Term::Var(b))) if rel == Rel::Eq && rhs == 0 && is_difference(&lin) => {
                constraints::reified_equal(&mut self.solver, b, lin[0].1, lin[1].1);
                Ok(())
            }
            (Control::Reif, Some(Term::Var(b))) => {
                let r = constraints::reified_linear(&mut self.solver, b, &lin, rel, rhs);
                self.engine(r)
            }
            (Control::Imp, Some(Term::Var(b))) => {
                let r = constraints::half_reified_linear(&mut self.solver, b, &lin, rel, rhs);
                self.engine(r)
            }
            // `:: domain` (MiniZinc puts it on the equations that define an index, among
            // others; Gecode honours it): every value kept has a support, where the sums
            // span a small range (bounds beyond).
            _ if rel == Rel::Eq && self.domain_annotated => {
                let r = constraints::linear_eq_domain(&mut self.solver, &lin, rhs);
                self.engine(r)
            }
            _ => {
                let r = constraints::linear(&mut self.solver, &lin, rel, rhs);
                self.engine(r)
            }
        }
    }

    /// At least one of `pos` is true or one of `neg` is false.
    fn clause(&mut self, pos: &[Term], neg: &[Term]) -> Result<()> {
        let (mut p, mut n) = (Vec::new(), Vec::new());
        for &t in pos {
            match t {
                Term::Const(0) => {}
                Term::Const(_) => return Ok(()),
                Term::Var(x) => p.push(x),
            }
        }
        for &t in neg {
            match t {
                Term::Const(0) => return Ok(()),
                Term::Const(_) => {}
                Term::Var(x) => n.push(x),
            }
        }
        constraints::clause(&mut self.solver, &p, &n);
        Ok(())
    }

    /// `result = array[index]`, `index` counting from 1.
    fn element(&mut self, index: Term, array: &[Term], result: Term) -> Result<()> {
        if let Term::Const(i) = index {
            return match usize::try_from(i - 1).ok().and_then(|i| array.get(i)) {
                Some(&cell) => self.linear(&[1, -1], &[cell, result], Rel::Eq, 0, Control::Always, None),
                None => {
                    self.solver.fail();
                    Ok(())
                }
            };
        }
        let i = self.var(index)?;
        // The engine counts positions from 0: a first cell that the index may not take
        // makes position p hold the model's element p.
        let mut cells = vec![self.const_var(0)?];
        cells.extend(self.vars(array)?);
        self.solver.set_min(i, 1);
        let z = self.var(result)?;
        constraints::element(&mut self.solver, i, &cells, z);
        Ok(())
    }

    fn all_different(&mut self, xs: &[VarId]) {
        let lo = xs.iter().map(|&x| self.solver.min(x)).min().unwrap_or(0);
        let hi = xs.iter().map(|&x| self.solver.max(x)).max().unwrap_or(0);
        let overlaps = xs.iter().any(|x| self.all_different_count.get(x).is_some_and(|&n| n > 1));
        // As in the `.puz` compiler: the matching pays where all-differents overlap over
        // small domains (Sudoku, Latin squares), bounds elsewhere.
        let consistency =
            if overlaps && hi.saturating_sub(lo) < 64 { Consistency::Domain } else { Consistency::Bounds };
        constraints::all_different(&mut self.solver, xs, &[], consistency);
    }

    pub(crate) fn count_all_different(&mut self, fzn: &flatzinc_serde::FlatZinc) {
        for c in fzn.constraints.iter().filter(|c| c.id == "fzn_all_different_int") {
            if let Ok(Arg::Array(ts)) = c.args.first().map(|a| self.argument(a)).unwrap_or(Ok(Arg::Array(vec![]))) {
                for t in ts {
                    if let Term::Var(x) = t {
                        *self.all_different_count.entry(x).or_default() += 1;
                    }
                }
            }
        }
    }

    /// Posts one FlatZinc constraint.
    pub(crate) fn post(&mut self, name: &str, args: &[Arg]) -> Result<()> {
        *self.posted.entry(name.to_string()).or_default() += 1;
        let (base, control) = control_of(name);
        // Comparisons of two integers or Booleans: int_le(a, b), bool_eq_reif(a, b, r), ...
        if let Some((ty, rel)) = base.split_once('_').and_then(|(ty, rel)| Some((ty, relation(rel)?))) {
            if ty == "int" || ty == "bool" {
                self.arity(args, if control == Control::Always { 2 } else { 3 })?;
                let (a, b) = (self.term(args, 0)?, self.term(args, 1)?);
                let r = if control == Control::Always { None } else { Some(self.term(args, 2)?) };
                return self.linear(&[1, -1], &[a, b], rel, 0, control, r);
            }
        }
        // Linear relations: int_lin_le(as, bs, c), bool_lin_eq(as, bs, c), ...
        if let Some(rel) = base.strip_prefix("int_lin_").and_then(relation) {
            self.arity(args, if control == Control::Always { 3 } else { 4 })?;
            let (coefs, terms, rhs) = (self.ints(args, 0)?, self.array(args, 1)?.to_vec(), self.int(args, 2)?);
            let r = if control == Control::Always { None } else { Some(self.term(args, 3)?) };
            return self.linear(&coefs, &terms, rel, rhs, control, r);
        }
        if let Some(rel) = base.strip_prefix("bool_lin_").and_then(relation) {
            self.arity(args, 3)?;
            // The right-hand side may be a variable: Σ as·bs − c ⋈ 0.
            let (mut coefs, mut terms) = (self.ints(args, 0)?, self.array(args, 1)?.to_vec());
            coefs.push(-1);
            terms.push(self.term(args, 2)?);
            return self.linear(&coefs, &terms, rel, 0, control, None);
        }
        match (base, control) {
            ("bool2int", Control::Always) => {
                self.arity(args, 2)?;
                let (a, b) = (self.term(args, 0)?, self.term(args, 1)?);
                self.linear(&[1, -1], &[a, b], Rel::Eq, 0, Control::Always, None)
            }
            ("bool_not", Control::Always) => {
                self.arity(args, 2)?;
                let (a, b) = (self.term(args, 0)?, self.term(args, 1)?);
                let _ = self.note_parity(&[a, b], true);
                self.linear(&[1, 1], &[a, b], Rel::Eq, 1, Control::Always, None)
            }
            ("bool_xor", _) if args.len() == 2 && control == Control::Always => {
                let (a, b) = (self.term(args, 0)?, self.term(args, 1)?);
                let _ = self.note_parity(&[a, b], true);
                self.linear(&[1, -1], &[a, b], Rel::Ne, 0, Control::Always, None)
            }
            ("bool_xor", _) => {
                // bool_xor(a, b, r): r ⇔ a ≠ b (the 3-argument form is the reified one).
                self.arity(args, 3)?;
                let (a, b, r) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                if control != Control::Imp {
                    // a ⊕ b ⊕ r = 0
                    let _ = self.note_parity(&[a, b, r], false);
                }
                let control = if control == Control::Imp { Control::Imp } else { Control::Reif };
                self.linear(&[1, -1], &[a, b], Rel::Ne, 0, control, Some(r))
            }
            ("bool_and", _) | ("bool_or", _) => {
                self.arity(args, 3)?;
                let (a, b, r) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                self.and_or(base == "bool_and", &[a, b], r, control)
            }
            ("array_bool_and", _) | ("array_bool_or", _) => {
                self.arity(args, 2)?;
                let (xs, r) = (self.array(args, 0)?.to_vec(), self.term(args, 1)?);
                self.and_or(base == "array_bool_and", &xs, r, control)
            }
            ("array_bool_xor", Control::Always) => {
                self.arity(args, 1)?;
                let xs = self.array(args, 0)?.to_vec();
                let (vars, odd) = self.note_parity(&xs, true);
                constraints::parity(&mut self.solver, &vars, odd);
                Ok(())
            }
            ("bool_clause", _) => {
                let (pos, mut neg) = (self.array(args, 0)?.to_vec(), self.array(args, 1)?.to_vec());
                match control {
                    Control::Always => {
                        self.arity(args, 2)?;
                        self.clause(&pos, &neg)
                    }
                    Control::Imp => {
                        self.arity(args, 3)?;
                        neg.push(self.term(args, 2)?);
                        self.clause(&pos, &neg)
                    }
                    Control::Reif => {
                        self.arity(args, 3)?;
                        let r = self.term(args, 2)?;
                        let mut with_not_r = neg.clone();
                        with_not_r.push(r);
                        self.clause(&pos, &with_not_r)?;
                        for &a in &pos {
                            self.clause(&[r], &[a])?;
                        }
                        for &b in &neg {
                            self.clause(&[r, b], &[])?;
                        }
                        Ok(())
                    }
                }
            }
            ("int_plus", Control::Always) => {
                self.arity(args, 3)?;
                let (a, b, c) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                self.linear(&[1, 1, -1], &[a, b, c], Rel::Eq, 0, Control::Always, None)
            }
            ("int_times", Control::Always) => {
                self.arity(args, 3)?;
                let (a, b, c) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                match (a, b) {
                    (Term::Const(k), t) | (t, Term::Const(k)) => {
                        self.linear(&[k, -1], &[t, c], Rel::Eq, 0, Control::Always, None)
                    }
                    (Term::Var(x), Term::Var(y)) => {
                        let z = self.var(c)?;
                        {
                            let r = constraints::times(&mut self.solver, x, y, z);
                            self.engine(r)
                        }
                    }
                }
            }
            ("int_abs", Control::Always) => {
                self.arity(args, 2)?;
                let (a, b) = (self.term(args, 0)?, self.term(args, 1)?);
                let (x, z) = (self.var(a)?, self.var(b)?);
                {
                    let r = constraints::abs(&mut self.solver, x, z);
                    self.engine(r)
                }
            }
            ("int_min", Control::Always) | ("int_max", Control::Always) => {
                self.arity(args, 3)?;
                let (a, b, c) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                let xs = self.vars(&[a, b])?;
                let z = self.var(c)?;
                constraints::extremum(&mut self.solver, z, &xs, base == "int_max");
                Ok(())
            }
            ("array_int_maximum", Control::Always) | ("array_int_minimum", Control::Always) => {
                self.arity(args, 2)?;
                let m = self.term(args, 0)?;
                let xs = self.array(args, 1)?.to_vec();
                let (z, xs) = (self.var(m)?, self.vars(&xs)?);
                constraints::extremum(&mut self.solver, z, &xs, base == "array_int_maximum");
                Ok(())
            }
            ("int_div", Control::Always) | ("int_mod", Control::Always) | ("int_pow", Control::Always) => {
                self.arity(args, 3)?;
                let (a, b, c) = (self.term(args, 0)?, self.term(args, 1)?, self.term(args, 2)?);
                self.arithmetic(base, a, b, c)
            }
            ("set_in", _) => {
                let (x, set) = (self.term(args, 0)?, self.set(args, 1)?);
                let values = self.set_values(&set)?;
                match control {
                    Control::Always => {
                        self.arity(args, 2)?;
                        match x {
                            Term::Const(c) => {
                                if !values.contains(&c) {
                                    self.solver.fail();
                                }
                            }
                            Term::Var(x) => {
                                let gone: Vec<Val> = self.solver.values(x).filter(|v| !values.contains(v)).collect();
                                for v in gone {
                                    self.solver.remove(x, v);
                                }
                            }
                        }
                        Ok(())
                    }
                    _ => {
                        self.arity(args, 3)?;
                        let r = self.term(args, 2)?;
                        let (x, b) = (self.var(x)?, self.var(r)?);
                        constraints::reified_in(&mut self.solver, b, x, &values, control == Control::Imp);
                        Ok(())
                    }
                }
            }
            ("array_int_element", Control::Always)
            | ("array_bool_element", Control::Always)
            | ("array_var_int_element", Control::Always)
            | ("array_var_bool_element", Control::Always) => {
                self.arity(args, 3)?;
                let (i, xs, z) = (self.term(args, 0)?, self.array(args, 1)?.to_vec(), self.term(args, 2)?);
                self.element(i, &xs, z)
            }
            ("fzn_all_different_int", Control::Always) => {
                self.arity(args, 1)?;
                let xs = self.array(args, 0)?.to_vec();
                let xs = self.vars(&xs)?;
                self.all_different(&xs);
                Ok(())
            }
            ("cpsolve_table_int", Control::Always) | ("cpsolve_table_bool", Control::Always) => {
                self.arity(args, 2)?;
                let xs = self.array(args, 0)?.to_vec();
                let flat = self.ints(args, 1)?;
                if xs.is_empty() || flat.len() % xs.len() != 0 {
                    return Err(self.error(format!("a table of {} values for {} variables", flat.len(), xs.len())));
                }
                let tuples: Vec<Vec<Val>> = flat.chunks(xs.len()).map(<[Val]>::to_vec).collect();
                let xs = self.vars(&xs)?;
                constraints::table(&mut self.solver, &xs, &tuples);
                Ok(())
            }
            ("fzn_cumulative", Control::Always) => {
                self.arity(args, 4)?;
                let (st, du, re) =
                    (self.array(args, 0)?.to_vec(), self.array(args, 1)?.to_vec(), self.array(args, 2)?.to_vec());
                if st.len() != du.len() || st.len() != re.len() {
                    return Err(self.error("cumulative: starts, durations and resources differ in length"));
                }
                let b = self.term(args, 3)?;
                let (st, du, re, b) = (self.vars(&st)?, self.vars(&du)?, self.vars(&re)?, self.var(b)?);
                let r = constraints::cumulative(&mut self.solver, &st, &du, &re, b);
                self.engine(r)
            }
            ("fzn_disjunctive", Control::Always) | ("fzn_disjunctive_strict", Control::Always) => {
                self.arity(args, 2)?;
                let (st, du) = (self.array(args, 0)?.to_vec(), self.array(args, 1)?.to_vec());
                if st.len() != du.len() {
                    return Err(self.error("disjunctive: starts and durations differ in length"));
                }
                let (st, du) = (self.vars(&st)?, self.vars(&du)?);
                let r = constraints::disjunctive(&mut self.solver, &st, &du, base == "fzn_disjunctive_strict");
                self.engine(r)
            }
            ("fzn_diffn", Control::Always) | ("fzn_diffn_nonstrict", Control::Always) => {
                self.arity(args, 4)?;
                let arrays: Vec<Vec<Term>> =
                    (0..4).map(|k| self.array(args, k).map(<[Term]>::to_vec)).collect::<Result<_>>()?;
                if arrays.iter().any(|a| a.len() != arrays[0].len()) {
                    return Err(self.error("diffn: x, y, dx and dy differ in length"));
                }
                let vars: Vec<Vec<VarId>> = arrays.iter().map(|a| self.vars(a)).collect::<Result<_>>()?;
                let strict = base == "fzn_diffn";
                let r = constraints::diffn(&mut self.solver, &vars[0], &vars[1], &vars[2], &vars[3], strict);
                self.engine(r)
            }
            ("cpsolve_circuit", Control::Always) | ("cpsolve_subcircuit", Control::Always) => {
                self.arity(args, 2)?;
                let (xs, offset) = (self.array(args, 0)?.to_vec(), self.int(args, 1)?);
                let xs = self.vars(&xs)?;
                if base == "cpsolve_circuit" {
                    constraints::circuit(&mut self.solver, &xs, offset);
                } else {
                    constraints::subcircuit(&mut self.solver, &xs, offset);
                }
                Ok(())
            }
            ("cpsolve_regular", Control::Always) => {
                self.arity(args, 6)?;
                let xs = self.array(args, 0)?.to_vec();
                let (states, symbols) = (self.count(args, 1)?, self.count(args, 2)?);
                let flat = self.ints(args, 3)?;
                if Some(flat.len()) != states.checked_mul(symbols) {
                    return Err(self.error(format!(
                        "regular: {} transitions for {states} states and {symbols} symbols",
                        flat.len()
                    )));
                }
                // A negative state is no state: usize::MAX makes the engine say so.
                let as_state = |v: Val| usize::try_from(v).unwrap_or(usize::MAX);
                let transition: Vec<Vec<usize>> = (0..states)
                    .map(|q| flat[q * symbols..(q + 1) * symbols].iter().map(|&to| as_state(to)).collect())
                    .collect();
                let start = as_state(self.int(args, 4)?);
                let accepting: Vec<usize> = self.set_values(&self.set(args, 5)?)?.into_iter().map(as_state).collect();
                let xs = self.vars(&xs)?;
                let r = constraints::regular(&mut self.solver, &xs, states, symbols, &transition, start, &accepting);
                self.engine(r)
            }
            ("cpsolve_inverse", Control::Always) => {
                self.arity(args, 4)?;
                let (f, f_offset) = (self.array(args, 0)?.to_vec(), self.int(args, 1)?);
                let (g, g_offset) = (self.array(args, 2)?.to_vec(), self.int(args, 3)?);
                let (f, g) = (self.vars(&f)?, self.vars(&g)?);
                // As circuit's successors: the matching pays on small permutations.
                let consistency =
                    if f.len() <= INVERSE_DOMAIN_LIMIT { Consistency::Domain } else { Consistency::Bounds };
                let r = constraints::inverse(&mut self.solver, &f, f_offset, &g, g_offset, consistency);
                self.engine(r)
            }
            ("cpsolve_lex_less_int", Control::Always)
            | ("cpsolve_lex_less_bool", Control::Always)
            | ("cpsolve_lex_lesseq_int", Control::Always)
            | ("cpsolve_lex_lesseq_bool", Control::Always) => {
                self.arity(args, 2)?;
                let (x, y) = (self.array(args, 0)?.to_vec(), self.array(args, 1)?.to_vec());
                let (x, y) = (self.vars(&x)?, self.vars(&y)?);
                if base.starts_with("cpsolve_lex_less_") {
                    constraints::lex_less(&mut self.solver, &x, &y);
                } else {
                    constraints::lex_lesseq(&mut self.solver, &x, &y);
                }
                Ok(())
            }
            ("cpsolve_global_cardinality", Control::Always)
            | ("cpsolve_global_cardinality_closed", Control::Always) => {
                self.arity(args, 3)?;
                let (x, cover, counts) =
                    (self.array(args, 0)?.to_vec(), self.ints(args, 1)?, self.array(args, 2)?.to_vec());
                let (x, counts) = (self.vars(&x)?, self.vars(&counts)?);
                let closed = base.ends_with("_closed");
                let r = constraints::global_cardinality(&mut self.solver, &x, &cover, &counts, closed);
                self.engine(r)
            }
            ("cpsolve_global_cardinality_low_up", Control::Always)
            | ("cpsolve_global_cardinality_low_up_closed", Control::Always) => {
                self.arity(args, 4)?;
                let x = self.array(args, 0)?.to_vec();
                let (cover, lo, up) = (self.ints(args, 1)?, self.ints(args, 2)?, self.ints(args, 3)?);
                let x = self.vars(&x)?;
                let closed = base.ends_with("_closed");
                let r = constraints::global_cardinality_low_up(&mut self.solver, &x, &cover, &lo, &up, closed);
                self.engine(r)
            }
            _ if name.starts_with("float_") || name.contains("_float") || name == "int2float" => Err(self
                .error(format!("`{name}`: float constraints are not supported"))
                .with_label("a float constraint")
                .with_note("cpsolve solves integer and Boolean models only")),
            _ if name.starts_with("set_") || name.contains("_set") => Err(self
                .error(format!("`{name}`: set constraints are not supported"))
                .with_label("a set constraint")
                .with_note("flatten with cpsolve's mznlib, which turns set variables into Booleans")),
            _ => Err(self
                .error(format!("the constraint `{name}` is not supported by cpsolve"))
                .with_label("unknown to cpsolve")
                .with_note(
                    "flatten with cpsolve's mznlib (`minizinc --solver cpsolve`), which declares what cpsolve takes",
                )),
        }
    }

    /// `r ⇔ ∧xs` (is_and) or `r ⇔ ∨xs`, or the half-reified `r → ...`, as clauses.
    fn and_or(&mut self, is_and: bool, xs: &[Term], r: Term, control: Control) -> Result<()> {
        if is_and {
            // r → x for every x; and, reified, (∧xs) → r.
            for &x in xs {
                self.clause(&[x], &[r])?;
            }
            if control != Control::Imp {
                self.clause(&[r], xs)?;
            }
        } else {
            // r → ∨xs; and, reified, x → r for every x.
            self.clause(xs, &[r])?;
            if control != Control::Imp {
                for &x in xs {
                    self.clause(&[r], &[x])?;
                }
            }
        }
        Ok(())
    }

    fn set_values(&self, set: &[(Val, Val)]) -> Result<Vec<Val>> {
        let count: i128 = set.iter().map(|&(lo, hi)| (hi as i128 - lo as i128 + 1).max(0)).sum();
        if count > 1 << 20 {
            return Err(self.error(format!("a set of {count} values; at most 2^20 are supported")));
        }
        Ok(set.iter().flat_map(|&(lo, hi)| lo..=hi).collect())
    }

    /// `c = a div b`, `a mod b` or `a ^ b`, truncating as MiniZinc does.
    fn arithmetic(&mut self, op: &str, a: Term, b: Term, c: Term) -> Result<()> {
        let f: fn(Val, Val) -> Option<Val> = match op {
            "int_div" => |x, y| if y == 0 { None } else { x.checked_div(y) },
            "int_mod" => |x, y| if y == 0 { None } else { x.checked_rem(y) },
            _ => power,
        };
        let name = match op {
            "int_div" => "div",
            "int_mod" => "mod",
            _ => "pow",
        };
        let (x, z) = (self.var(a)?, self.var(c)?);
        match b {
            Term::Const(k) if op == "int_mod" => {
                let r = constraints::mod_by_constant(&mut self.solver, x, k, z);
                self.engine(r)
            }
            // Tabulated when x is small, else by bounds (as Gecode): a graph of a wide x read
            // whole at every call cost tdtsp 15 ms a node (notes/mzn-output.md).
            Term::Const(k) if op == "int_div" => {
                let r = constraints::div_by_constant(&mut self.solver, x, k, z);
                self.engine(r)
            }
            Term::Const(k) => {
                let r = constraints::function(&mut self.solver, x, z, move |v| f(v, k), name);
                self.engine(r)
            }
            Term::Var(y) => {
                let r = constraints::binary_function(&mut self.solver, x, y, z, f, name);
                self.engine(r)
            }
        }
    }
}

/// `x ^ y` for integers; a negative exponent is defined only where the result is an
/// integer (x = 1 or x = -1), as MiniZinc's `pow`.
pub(crate) fn power(x: Val, y: Val) -> Option<Val> {
    if y < 0 {
        return match x {
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => None,
        };
    }
    x.checked_pow(u32::try_from(y).ok()?)
}

/// Whether the sum is `x - y` (or `y - x`) for two variables.
fn is_difference(lin: &[(Val, VarId)]) -> bool {
    matches!(lin, [(a, _), (b, _)] if *a == -*b && a.abs() == 1)
}
