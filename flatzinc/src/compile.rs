//! From a parsed FlatZinc model to engine variables: one engine variable per class of
//! variables that the model makes equal, constants as constants, arguments resolved.
//!
//! MiniZinc's output is full of equalities between variables: `bool2int(b, i)` for every
//! Boolean counted in a sum, `int_eq(x, y)` where a definition was inlined. Posting each
//! as a propagator would double the variables the search sees and add a propagation round
//! per equality. Instead the variables are merged first (union-find over names, the
//! domains intersected), and those constraints become no-ops for the engine; they are still
//! checked on every solution with the rest.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Solver, Val, VarId};
use flatzinc_serde::{Annotation, Argument, FlatZinc, Literal, Method, NamedRef, Type};

use crate::model::{Arg, Goal, Kind, Model, Output, Ref, Term, Written};
use crate::source::SourceIndex;

/// The domain of an `var int` declared without one: Gecode's and Chuffed's limits, so that
/// sums of a few of them stay far inside 64 bits.
pub const UNBOUNDED: Val = 2_147_483_646;

pub(crate) struct Compiler<'a> {
    pub(crate) solver: Solver,
    pub(crate) index: &'a SourceIndex,
    /// Each variable of the model, by name.
    pub(crate) vars: HashMap<String, Term>,
    /// Which variables are Boolean (printed as `true`/`false`).
    pub(crate) bools: HashMap<String, bool>,
    /// Position of each variable among the declarations.
    positions: HashMap<String, usize>,
    fzn_vars: Vec<(String, Term)>,
    consts: HashMap<Val, VarId>,
    pub(crate) written: Vec<Written>,
    pub(crate) posted: BTreeMap<String, usize>,
    /// Where the constraint being compiled is written.
    pub(crate) here: Range<usize>,
    /// How many all-different constraints each variable is in (domain consistency where
    /// they overlap).
    pub(crate) all_different_count: HashMap<VarId, usize>,
    /// Whether the constraint being compiled carries `:: domain`: MiniZinc's request for
    /// domain consistency, which a linear equation honours.
    pub(crate) domain_annotated: bool,
    /// The model's parity equations (variables, odd), constants folded: posted one by one
    /// as they come, and at the end also as systems where they share variables.
    pub(crate) parities: Vec<(Vec<VarId>, bool)>,
}

pub(crate) type Result<T> = std::result::Result<T, Diagnostic>;

/// The model's equalities between two variables, as a union-find over variable names.
struct Classes {
    parent: HashMap<String, String>,
}

impl Classes {
    fn find(&mut self, name: &str) -> String {
        let mut root = name.to_string();
        while let Some(p) = self.parent.get(&root) {
            if *p == root {
                break;
            }
            root = p.clone();
        }
        // Path compression keeps later look-ups short.
        let mut at = name.to_string();
        while at != root {
            let next = self.parent.insert(at.clone(), root.clone()).unwrap_or_else(|| root.clone());
            at = next;
        }
        root
    }

    fn union(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
        }
    }
}

/// The two variables an equality constraint makes equal, if it is one.
fn equated(c: &flatzinc_serde::Constraint) -> Option<(&str, &str)> {
    if !matches!(c.id.as_str(), "int_eq" | "bool_eq" | "bool2int") || c.args.len() != 2 {
        return None;
    }
    match (&c.args[0], &c.args[1]) {
        (Argument::Literal(Literal::Variable(a)), Argument::Literal(Literal::Variable(b))) => {
            Some((a.name.as_str(), b.name.as_str()))
        }
        _ => None,
    }
}

impl<'a> Compiler<'a> {
    pub(crate) fn new(index: &'a SourceIndex, stop: &cpsolve_engine::StopToken) -> Compiler<'a> {
        Compiler {
            solver: Solver::with_stop_token(stop.clone()),
            index,
            vars: HashMap::new(),
            bools: HashMap::new(),
            positions: HashMap::new(),
            fzn_vars: Vec::new(),
            consts: HashMap::new(),
            written: Vec::new(),
            posted: BTreeMap::new(),
            here: 0..0,
            all_different_count: HashMap::new(),
            domain_annotated: false,
            parities: Vec::new(),
        }
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message, self.here.clone())
    }

    /// Creates the variables, merging those the model equates.
    pub(crate) fn declare(&mut self, fzn: &FlatZinc) -> Result<()> {
        let mut classes = Classes { parent: HashMap::new() };
        for c in &fzn.constraints {
            if let Some((a, b)) = equated(c) {
                classes.union(a, b);
            }
        }
        let mut engine_var: HashMap<String, VarId> = HashMap::new();
        for var in &fzn.variables {
            self.here = self.index.declaration_span(&var.name).unwrap_or(0..0);
            let ranges: Vec<(i128, i128)> = match &var.ty {
                Type::Bool => vec![(0, 1)],
                Type::Int(None) => vec![(-(UNBOUNDED as i128), UNBOUNDED as i128)],
                Type::Int(Some(set)) => set.iter().map(|r| (*r.start() as i128, *r.end() as i128)).collect(),
                Type::Float(_) => {
                    return Err(self
                        .error(format!("float variables are not supported: `{}`", var.name))
                        .with_label("a float variable")
                        .with_note("cpsolve solves integer and Boolean models only"));
                }
                Type::IntSet(_) => {
                    return Err(self
                        .error(format!("set variables are not supported here: `{}`", var.name))
                        .with_label("a set variable")
                        .with_note("flatten with cpsolve's mznlib, which turns set variables into Booleans"));
                }
            };
            self.bools.insert(var.name.clone(), var.ty == Type::Bool);
            let root = classes.find(&var.name);
            let x = match engine_var.get(&root) {
                Some(&x) => {
                    self.restrict(x, &ranges)?;
                    x
                }
                None => {
                    let x = self.new_var(&ranges)?;
                    engine_var.insert(root, x);
                    x
                }
            };
            self.vars.insert(var.name.clone(), Term::Var(x));
            self.positions.insert(var.name.clone(), self.fzn_vars.len());
            self.fzn_vars.push((var.name.clone(), Term::Var(x)));
        }
        Ok(())
    }

    /// An argument as written: FlatZinc variables by position, for the solution check.
    pub(crate) fn written_argument(&self, arg: &Argument) -> Result<Arg<Ref>> {
        let reference = |lit: &Literal| -> Result<Ref> {
            match lit {
                Literal::Variable(v) => self
                    .positions
                    .get(&v.name)
                    .map(|&i| Ref::Var(i))
                    .ok_or_else(|| self.error(format!("unknown variable `{}`", v.name))),
                other => match self.literal(other)? {
                    Term::Const(c) => Ok(Ref::Const(c)),
                    Term::Var(_) => Err(self.error("a variable where a constant was expected")),
                },
            }
        };
        match arg {
            Argument::Array(items) => items.iter().map(reference).collect::<Result<Vec<Ref>>>().map(Arg::Array),
            Argument::ArrayNamed(a) => a.contents.iter().map(reference).collect::<Result<Vec<Ref>>>().map(Arg::Array),
            Argument::Literal(Literal::IntSet(set)) => {
                Ok(Arg::Set(set.iter().map(|r| (*r.start(), *r.end())).collect()))
            }
            Argument::Literal(lit) => reference(lit).map(Arg::Term),
        }
    }

    fn new_var(&mut self, ranges: &[(i128, i128)]) -> Result<VarId> {
        let limit = i128::from(cpsolve_engine::VAL_LIMIT);
        let values: u128 = ranges.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as u128).sum();
        let (Some(&(lo, _)), Some(&(_, hi))) = (ranges.first(), ranges.last()) else {
            return Err(self.error("a variable with an empty domain"));
        };
        if lo < -limit || hi > limit {
            return Err(self.error(format!("the domain {lo}..{hi} is beyond what cpsolve holds (±2^60)")));
        }
        let made = if ranges.len() > 1 && values <= 1 << 20 {
            let all: Vec<Val> = ranges.iter().flat_map(|&(a, b)| a as Val..=b as Val).collect();
            self.solver.new_var_in(&all)
        } else {
            self.solver.new_var(lo as Val, hi as Val)
        };
        let x = made.map_err(|e| self.error(e.to_string()))?;
        self.restrict(x, ranges)?;
        Ok(x)
    }

    /// Intersects a variable's domain with the given ranges (sorted, disjoint).
    fn restrict(&mut self, x: VarId, ranges: &[(i128, i128)]) -> Result<()> {
        let (Some(&(lo, _)), Some(&(_, hi))) = (ranges.first(), ranges.last()) else {
            self.solver.fail();
            return Ok(());
        };
        let clamp = |v: i128| v.clamp(Val::MIN as i128, Val::MAX as i128) as Val;
        self.solver.set_min(x, clamp(lo));
        self.solver.set_max(x, clamp(hi));
        for pair in ranges.windows(2) {
            let (gap_lo, gap_hi) = (pair[0].1 + 1, pair[1].0 - 1);
            // Gaps are removed value by value, so a domain may not skip more than this.
            if gap_hi - gap_lo >= 1 << 20 {
                return Err(self
                    .error(format!("a domain that skips {gap_lo}..{gap_hi}"))
                    .with_note("holes of more than 2^20 values are not supported"));
            }
            for v in gap_lo..=gap_hi {
                self.solver.remove(x, v as Val);
            }
        }
        Ok(())
    }

    /// An engine variable fixed to `v` (one per value).
    pub(crate) fn const_var(&mut self, v: Val) -> Result<VarId> {
        if let Some(&x) = self.consts.get(&v) {
            return Ok(x);
        }
        let x = self.solver.new_var(v, v).map_err(|e| self.error(e.to_string()))?;
        self.consts.insert(v, x);
        Ok(x)
    }

    pub(crate) fn var(&mut self, t: Term) -> Result<VarId> {
        match t {
            Term::Var(x) => Ok(x),
            Term::Const(c) => self.const_var(c),
        }
    }

    pub(crate) fn literal(&self, lit: &Literal) -> Result<Term> {
        match lit {
            Literal::Int(v) => Ok(Term::Const(*v)),
            Literal::Bool(b) => Ok(Term::Const(Val::from(*b))),
            Literal::Variable(v) => {
                self.vars.get(&v.name).copied().ok_or_else(|| self.error(format!("unknown variable `{}`", v.name)))
            }
            Literal::Float(_) | Literal::FloatSet(_) => Err(self
                .error("float values are not supported")
                .with_note("cpsolve solves integer and Boolean models only")),
            Literal::IntSet(_) => Err(self.error("a set where a single value was expected")),
            Literal::String(_) => Err(self.error("a string where a value was expected")),
        }
    }

    pub(crate) fn argument(&self, arg: &Argument) -> Result<Arg> {
        let array = |items: &[Literal]| -> Result<Arg> {
            items.iter().map(|l| self.literal(l)).collect::<Result<Vec<Term>>>().map(Arg::Array)
        };
        match arg {
            Argument::Array(items) => array(items),
            Argument::ArrayNamed(a) => array(&a.contents),
            Argument::Literal(Literal::IntSet(set)) => {
                Ok(Arg::Set(set.iter().map(|r| (*r.start(), *r.end())).collect()))
            }
            Argument::Literal(lit) => self.literal(lit).map(Arg::Term),
        }
    }

    /// The outputs, in the model's order.
    pub(crate) fn outputs(&self, fzn: &FlatZinc) -> Result<Vec<Output>> {
        let mut outputs = Vec::new();
        for named in &fzn.output {
            match named {
                NamedRef::Variable(v) => {
                    let term = self.literal(&Literal::Variable(v.clone()))?;
                    let kind = if v.ty == Type::Bool { Kind::Bool } else { Kind::Int };
                    outputs.push(Output { name: v.name.clone(), kind, dims: None, terms: vec![term] });
                }
                NamedRef::Array(a) => {
                    let terms = a.contents.iter().map(|l| self.literal(l)).collect::<Result<Vec<Term>>>()?;
                    let kind = match a.contents.first() {
                        Some(Literal::Bool(_)) => Kind::Bool,
                        Some(Literal::Variable(v)) if v.ty == Type::Bool => Kind::Bool,
                        _ => Kind::Int,
                    };
                    let dims = self.index.output_dims.get(&a.name).cloned().unwrap_or(vec![(1, terms.len() as i64)]);
                    outputs.push(Output { name: a.name.clone(), kind, dims: Some(dims), terms });
                }
            }
        }
        Ok(outputs)
    }

    pub(crate) fn goal(&mut self, fzn: &FlatZinc) -> Result<Goal> {
        self.here = self.index.solve_span().unwrap_or(0..0);
        Ok(match &fzn.solve.method {
            Method::Satisfy => Goal::Satisfy,
            Method::Minimize(lit) => Goal::Minimize(self.literal(lit)?),
            Method::Maximize(lit) => Goal::Maximize(self.literal(lit)?),
        })
    }
}

/// Compiles a parsed model for the engine, with a stop token of its own.
pub fn compile(fzn: &FlatZinc, index: &SourceIndex) -> Result<Model> {
    compile_with_stop(fzn, index, &cpsolve_engine::StopToken::new())
}

/// Compiles a parsed model for a run stopped by requests on `stop`: creating the variables
/// stops after one, and the model's solver searches under `stop`.
pub fn compile_with_stop(fzn: &FlatZinc, index: &SourceIndex, stop: &cpsolve_engine::StopToken) -> Result<Model> {
    let mut c = Compiler::new(index, stop);
    c.declare(fzn)?;
    c.count_all_different(fzn);
    for (k, constraint) in fzn.constraints.iter().enumerate() {
        c.here = index.constraint_span(k).unwrap_or(0..0);
        let args = constraint.args.iter().map(|a| c.argument(a)).collect::<Result<Vec<Arg>>>()?;
        c.domain_annotated = constraint.ann.iter().any(|a| matches!(a, Annotation::Atom(id) if id == "domain"));
        c.post(&constraint.id, &args)?;
        let args = constraint.args.iter().map(|a| c.written_argument(a)).collect::<Result<Vec<Arg<Ref>>>>()?;
        c.written.push(Written { name: constraint.id.clone(), args });
    }
    c.post_parity_systems();
    let goal = c.goal(fzn)?;
    let outputs = c.outputs(fzn)?;
    let mut warnings = Vec::new();
    let annotated_search = c.search_annotations(&fzn.solve.ann, &mut warnings)?;
    let (free_search, count_first) = c.free_search(fzn);
    Ok(Model {
        solver: c.solver,
        goal,
        annotated_search,
        free_search,
        count_first,
        outputs,
        written: c.written,
        fzn_vars: c.fzn_vars,
        warnings,
        posted: c.posted,
    })
}
