//! Declarations: `let` constants and `var` scalars and arrays, with their domains
//! (`lo..hi` or `{v1, v2, ...}`) and index ranges. A failed declaration still declares
//! its names (as invalid), so that their later uses do not pile up further errors.

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned, VarDecl};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Val, VarId, VAL_LIMIT};

use super::env::{Array, DomainSpec, Entity};
use super::errors::{expected, model_error, not_supported, Fault, Result};
use super::shape::Shape;
use super::Compiler;

/// The most cells one array may have.
const MAX_CELLS: u64 = 1 << 20;

/// Set domains wider than this are not held exactly by the engine (see `domain.rs`).
const MAX_SET_SPAN: i128 = 1 << 24;

impl Compiler {
    pub(crate) fn declare_let(&mut self, name: &Ident, value: &Spanned<Expr>) -> Result<()> {
        match self.eval_int(value) {
            Ok(v) => self.env.declare(name, Entity::Const(v)),
            Err(fault) => {
                // Declared anyway (invalid), unless the name is a duplicate as well.
                let _ = self.env.declare(name, Entity::Invalid);
                Err(fault)
            }
        }
    }

    /// Declares every name of a `var` statement; errors are reported as they are found.
    pub(crate) fn declare_vars(&mut self, decls: &[VarDecl], domain: &Spanned<Expr>) {
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
            if let Err(fault) = self.env.declare(&decl.name, entity) {
                self.report(fault);
            }
        }
    }

    fn declare_one(&mut self, decl: &VarDecl, domain: &DomainSpec, domain_span: &Span) -> Result<Entity> {
        if decl.dims.is_empty() {
            return Ok(Entity::Var(self.new_var(domain, domain_span)?));
        }
        let mut dims = Vec::with_capacity(decl.dims.len());
        for dim in &decl.dims {
            let Expr::Range { lo, hi } = &dim.node else {
                return Err(expected("an index range such as `1..n`", "a single value", dim.span.clone()).into());
            };
            dims.push((self.eval_int(lo)?, self.eval_int(hi)?));
        }
        let shape = Shape { dims };
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
        self.env.arrays.push(Array { name: decl.name.node.clone(), shape, cells: vars, domain: domain.clone() });
        Ok(Entity::Array(id))
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
            _ => {
                return Err(
                    expected("a domain such as `0..9` or `{1, 3, 5}`", "a single value", expr.span.clone()).into()
                )
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
