//! Declarations: `let` constants and `var` scalars and arrays, with their domains
//! (`lo..hi` or `{v1, v2, ...}`) and index ranges. A failed declaration still declares
//! its names (as invalid), so that their later uses do not pile up further errors.

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned, VarDecl};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Val, VarId, VAL_LIMIT};

use cpsolve_engine::Rel;

use super::env::{Array, DomainSpec, Entity};
use super::errors::{expected, model_error, not_supported, Fault, Result};
use super::linear::Lin;
use super::shape::Shape;
use super::Compiler;

/// The bounds of a `var int` declared without any: Gecode's `Int::Limits` (±(2^31 − 2)).
const UNBOUNDED_INT: i64 = 2_147_483_646;

/// The most cells one array may have.
const MAX_CELLS: u64 = 1 << 20;

/// Set domains wider than this are not held exactly by the engine (see `domain.rs`).
const MAX_SET_SPAN: i128 = 1 << 24;

impl Compiler {
    pub(crate) fn declare_let(&mut self, name: &Ident, dims: &[Spanned<Expr>], value: &Spanned<Expr>) -> Result<()> {
        let evaluated = if self.is_set_expr(value) {
            self.set_entity(value)
        } else if self.mentions_var(value) {
            // A name for an expression, a list or a condition over variables (MiniZinc's
            // defined variables): it stands for that value wherever it is used.
            self.value_of(value)
        } else if self.is_list(value) {
            self.constant_array(name, value).map(Entity::Array)
        } else if self.is_condition(value) && !self.mentions_var(value) {
            self.eval_bool(value).map(|b| Entity::Const(i64::from(b)))
        } else {
            self.eval_int(value).map(Entity::Const)
        };
        let evaluated = evaluated.and_then(|entity| self.with_declared_dims(name, dims, entity, value));
        match evaluated {
            Ok(entity) => self.env.declare(name, entity),
            Err(fault) => {
                // Declared anyway (invalid), unless the name is a duplicate as well.
                let _ = self.env.declare(name, Entity::Invalid);
                Err(fault)
            }
        }
    }

    /// `var z = EXPR`: a variable shown with the model's own, equal to `EXPR` (an integer
    /// or a condition, which gives 0 or 1) and ranging over its bounds, or over `domain`
    /// (MiniZinc's `var 1..9: z = EXPR`). A list (`array[1..3] of var 1..9: r = [...]`)
    /// names its elements, each held in `domain`, as a `let` does.
    pub(crate) fn declare_defined(
        &mut self,
        name: &Ident,
        dims: &[Spanned<Expr>],
        domain: Option<&Spanned<Expr>>,
        value: &Spanned<Expr>,
    ) -> Result<()> {
        let defined = if self.is_list(value) {
            self.defined_list(domain, value).and_then(|entity| self.with_declared_dims(name, dims, entity, value))
        } else if !dims.is_empty() {
            Err(Diagnostic::new(
                format!("`{}` is declared an array, but its value is not a list", name.node),
                value.span.clone(),
            )
            .with_label("a single value")
            .into())
        } else {
            self.defined_var(domain, value)
        };
        let entity = match &defined {
            Ok(entity) => entity.clone(),
            Err(_) => Entity::Invalid,
        };
        let declared = self.env.declare(name, entity);
        defined?;
        declared
    }

    fn defined_var(&mut self, domain: Option<&Spanned<Expr>>, value: &Spanned<Expr>) -> Result<Entity> {
        let span = &value.span;
        let lin = if self.is_condition(value) { self.truth(value)? } else { self.linearize(value)? };
        let x = match domain {
            Some(domain) => {
                let spec = self.domain(domain)?;
                self.new_var(&spec, &domain.span)?
            }
            None => {
                let (lo, hi) = lin.bounds(&self.solver);
                self.aux_var(lo, hi, span)?
            }
        };
        let difference = lin.minus(Lin::var(x), span)?;
        self.post_lin(&difference, Rel::Eq, 0, span)?;
        Ok(Entity::Var(x))
    }

    fn defined_list(&mut self, domain: Option<&Spanned<Expr>>, value: &Spanned<Expr>) -> Result<Entity> {
        let entity = self.value_of(value)?;
        if let Some(domain) = domain {
            let spec = self.domain(domain)?;
            for (lin, span) in self.list_elements(value)? {
                let x = self.var_of(&lin, &span)?;
                match &spec {
                    DomainSpec::Range(lo, hi) => {
                        self.post_lin(&Lin::var(x), Rel::Ge, *lo, &span)?;
                        self.post_lin(&Lin::var(x), Rel::Le, *hi, &span)?;
                    }
                    DomainSpec::Set(values) => {
                        // Holes between the least and greatest value are removed one by one
                        // (a set domain spans at most 2^24 values).
                        let (lo, hi) = (values[0], values[values.len() - 1]);
                        self.post_lin(&Lin::var(x), Rel::Ge, lo, &span)?;
                        self.post_lin(&Lin::var(x), Rel::Le, hi, &span)?;
                        let holes: Vec<Val> =
                            self.solver.values(x).filter(|v| values.binary_search(v).is_err()).collect();
                        for v in holes {
                            self.solver.remove(x, v);
                        }
                    }
                }
            }
        }
        Ok(entity)
    }

    /// Declares every name of a `var` statement; errors are reported as they are found.
    pub(crate) fn declare_vars(&mut self, decls: &[VarDecl], domain: &Spanned<Expr>) {
        if let Expr::SetOf(universe) = &domain.node {
            for decl in decls {
                let entity = self.declare_set_decl(decl, universe).unwrap_or_else(|fault| {
                    self.report(fault);
                    Entity::Invalid
                });
                if let Err(fault) = self.env.declare(&decl.name, entity) {
                    self.report(fault);
                }
            }
            return;
        }
        let enum_id = self.enum_of_domain(domain);
        let domain = match self.domain(domain) {
            Ok(spec) => Some((spec, domain.span.clone())),
            Err(fault) => {
                self.report(fault);
                None
            }
        };
        for decl in decls {
            let entity = match &domain {
                Some((spec, span)) => self.declare_one(decl, spec, span).unwrap_or_else(|fault| {
                    self.report(fault);
                    Entity::Invalid
                }),
                None => Entity::Invalid,
            };
            if let (Some(id), Entity::Var(x)) = (enum_id, &entity) {
                self.env.var_enums.insert(*x, id);
            }
            if let (Some(id), Entity::Array(a)) = (enum_id, &entity) {
                for &x in &self.env.arrays[*a].cells {
                    self.env.var_enums.insert(x, id);
                }
            }
            if let Err(fault) = self.env.declare(&decl.name, entity) {
                self.report(fault);
            }
        }
    }

    fn declare_set_decl(&mut self, decl: &VarDecl, universe: &Spanned<Expr>) -> Result<Entity> {
        let dims = if decl.dims.is_empty() { None } else { Some(self.index_shape(decl)?) };
        self.declare_set_vars(&decl.name, dims, universe)
    }

    /// A `var` definition of a `let … in`: fresh variables, searched but not shown.
    pub(crate) fn new_local_var(&mut self, decl: &VarDecl, domain: &Spanned<Expr>) -> Result<Entity> {
        if let Expr::SetOf(universe) = &domain.node {
            return self.declare_set_decl(decl, universe);
        }
        let spec = self.domain(domain)?;
        let entity = self.declare_one(decl, &spec, &domain.span)?;
        if let Some(id) = self.enum_of_domain(domain) {
            match &entity {
                Entity::Var(x) => {
                    self.env.var_enums.insert(*x, id);
                }
                Entity::Array(a) => {
                    for &x in &self.env.arrays[*a].cells {
                        self.env.var_enums.insert(x, id);
                    }
                }
                _ => {}
            }
        }
        Ok(entity)
    }

    /// The index ranges of a declaration: `x[1..n, ROW, Colour]`.
    fn index_shape(&mut self, decl: &VarDecl) -> Result<Shape> {
        let mut dims = Vec::with_capacity(decl.dims.len());
        for dim in &decl.dims {
            dims.push(self.index_range(dim)?);
        }
        Ok(Shape { dims })
    }

    /// One index range: `lo..hi`, or a named range, set or enum whose values are contiguous.
    pub(crate) fn index_range(&mut self, dim: &Spanned<Expr>) -> Result<(i64, i64)> {
        if let Expr::Range { lo, hi } = &dim.node {
            return Ok((self.eval_int(lo)?, self.eval_int(hi)?));
        }
        if !self.is_set_expr(dim) {
            return Err(expected("an index range such as `1..n`", "a single value", dim.span.clone()).into());
        }
        let values = self.const_set(dim)?;
        match (values.first(), values.last()) {
            (Some(&lo), Some(&hi)) if hi - lo + 1 == values.len() as i64 => Ok((lo, hi)),
            (None, _) | (_, None) => Ok((1, 0)),
            _ => Err(Diagnostic::new("an index set must be a range of consecutive integers", dim.span.clone())
                .with_label("has gaps")
                .into()),
        }
    }

    fn declare_one(&mut self, decl: &VarDecl, domain: &DomainSpec, domain_span: &Span) -> Result<Entity> {
        if decl.dims.is_empty() {
            return Ok(Entity::Var(self.new_var(domain, domain_span)?));
        }
        let shape = self.index_shape(decl)?;
        let cells = match shape.len() {
            Some(n) if n <= MAX_CELLS => n as usize,
            _ => {
                let span = decl.name.span.start..decl.dims.last().map_or(decl.name.span.end, |d| d.span.end);
                let message = format!("array `{}` is too large (at most {MAX_CELLS} cells)", decl.name.node);
                return Err(Diagnostic::new(message, span).into());
            }
        };
        let mut vars = Vec::with_capacity(cells);
        for _ in 0..cells {
            vars.push(self.new_var(domain, domain_span)?);
        }
        let id = self.env.arrays.len();
        let name = decl.name.node.clone();
        let index_enums = decl.dims.iter().map(|d| self.enum_of_domain(d)).collect();
        self.env.arrays.push(Array { name, shape, cells: vars, domain: domain.clone(), values: None, index_enums });
        Ok(Entity::Array(id))
    }

    /// `let w = [3, 1, 4]` (indexed from 1), `let cost = [[1, 2], [3, 4]]` (rows and
    /// columns from 1), or a list of lists of lists…, literals or comprehensions.
    fn constant_array(&mut self, name: &Ident, value: &Spanned<Expr>) -> Result<usize> {
        let (shape, elems) = self.nested_list(value)?;
        if elems.len() as u64 > MAX_CELLS {
            let message = format!("array `{}` is too large (at most {MAX_CELLS} cells)", name.node);
            return Err(Diagnostic::new(message, value.span.clone()).into());
        }
        let mut values = Vec::with_capacity(elems.len());
        for lin in &elems {
            values.push(self.constant_of(lin, &value.span)??);
        }
        let mut cells = Vec::with_capacity(values.len());
        for &v in &values {
            cells.push(self.new_var(&DomainSpec::Range(v, v), &value.span)?);
        }
        let lo = values.iter().copied().min().unwrap_or(0);
        let hi = values.iter().copied().max().unwrap_or(0);
        let id = self.env.arrays.len();
        let array_name = name.node.clone();
        let domain = DomainSpec::Range(lo, hi);
        self.env.arrays.push(Array {
            name: array_name,
            shape,
            cells,
            domain,
            values: Some(values),
            index_enums: Vec::new(),
        });
        Ok(id)
    }

    /// The values of a list of constants, in order.
    pub(crate) fn constants_of(&mut self, list: &Spanned<Expr>) -> Result<Vec<Val>> {
        let mut values = Vec::new();
        for (lin, span) in self.list_elements(list)? {
            values.push(self.constant_of(&lin, &span)??);
        }
        Ok(values)
    }

    fn new_var(&mut self, domain: &DomainSpec, span: &Span) -> Result<VarId> {
        let var = match domain {
            DomainSpec::Range(lo, hi) => self.solver.new_var(*lo, *hi),
            DomainSpec::Set(values) => self.solver.new_var_in(values),
        };
        var.map_err(|e| Fault::from(model_error(&e, span.clone())))
    }

    /// Evaluates a domain: `lo..hi` or a set of constants, not empty.
    fn domain(&mut self, expr: &Spanned<Expr>) -> Result<DomainSpec> {
        let spec = match &expr.node {
            Expr::Range { lo, hi } => {
                let (lo, hi) = (self.eval_int(lo)?, self.eval_int(hi)?);
                if lo > hi {
                    let message = format!("empty domain: no integer lies in {lo}..{hi}");
                    return Err(Diagnostic::new(message, expr.span.clone())
                        .with_label("the lower bound exceeds the upper")
                        .into());
                }
                DomainSpec::Range(lo, hi)
            }
            Expr::Set(items) => {
                let values = self.eval_set(items)?;
                let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
                    return Err(Diagnostic::new("empty domain: the set has no value", expr.span.clone()).into());
                };
                if hi as i128 - lo as i128 >= MAX_SET_SPAN {
                    return Err(not_supported("a set domain whose values are this far apart", expr.span.clone()).into());
                }
                DomainSpec::Set(values)
            }
            // MiniZinc leaves an unbounded `var int` to the solver: Gecode's and Chuffed's
            // integers, whose limits are these, so a model answers as it does there.
            Expr::Name(name) if name == "int" && self.env.lookup(name).is_none() => {
                DomainSpec::Range(-UNBOUNDED_INT, UNBOUNDED_INT)
            }
            // A name whose declaration failed was reported there.
            Expr::Name(name) if matches!(self.env.lookup(name), Some(Entity::Invalid)) => return Err(Fault::Silent),
            // `var b in bool`: a 0/1 variable, usable as a condition (`b`, `not b`, `b -> ...`).
            Expr::Name(name) if name == "bool" && self.env.lookup(name).is_none() => DomainSpec::Range(0, 1),
            // A named set or range, an enum, `a union b`, …
            _ if self.is_set_expr(expr) => {
                let values = self.const_set(expr)?;
                let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
                    return Err(Diagnostic::new("empty domain: the set has no value", expr.span.clone()).into());
                };
                if hi - lo + 1 == values.len() as i64 {
                    DomainSpec::Range(lo, hi)
                } else if hi as i128 - lo as i128 >= MAX_SET_SPAN {
                    return Err(not_supported("a set domain whose values are this far apart", expr.span.clone()).into());
                } else {
                    DomainSpec::Set(values)
                }
            }
            _ => {
                return Err(expected(
                    "a domain such as `0..9`, `{1, 3, 5}` or `bool`",
                    "a single value",
                    expr.span.clone(),
                )
                .into())
            }
        };
        let (lo, hi) = match &spec {
            DomainSpec::Range(lo, hi) => (*lo, *hi),
            DomainSpec::Set(values) => (values[0], values[values.len() - 1]),
        };
        if let Some(v) = [lo, hi].into_iter().find(|v: &Val| v.unsigned_abs() > VAL_LIMIT.unsigned_abs()) {
            let message = format!("value {v} is out of range: domains must lie within ±2^60");
            return Err(Diagnostic::new(message, expr.span.clone()).with_label("too large for the solver").into());
        }
        Ok(spec)
    }
}
