//! Integer expressions as linear forms `Σ aᵢ·xᵢ + c`.
//!
//! Every integer expression of a generic model is linear in its variables, so one walk
//! turns it into a [`Lin`]; a constant is simply a `Lin` without terms, which is how
//! `let` values, indices and bounds are evaluated too. All arithmetic on user values is
//! checked: an overflow is an error at the operation that caused it, never a wrap.

use cpsolve_dsl::ast::{BinaryOp, Expr, Ident, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Solver, VarId};
use indexmap::IndexMap;

use super::env::Entity;
use super::errors::{expected, not_constant, not_supported, overflow, unknown_name, Fault, Result};
use super::shape::BadIndex;
use super::Compiler;

/// `Σ coefᵢ·varᵢ + constant`. A variable may appear in several terms until
/// [`Lin::normalized`] merges them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Lin {
    pub(crate) terms: Vec<(i64, VarId)>,
    pub(crate) constant: i64,
}

impl Lin {
    pub(crate) fn constant(c: i64) -> Lin {
        Lin { terms: Vec::new(), constant: c }
    }

    pub(crate) fn var(x: VarId) -> Lin {
        Lin { terms: vec![(1, x)], constant: 0 }
    }

    pub(crate) fn plus(mut self, other: Lin, span: &Span) -> Result<Lin> {
        self.constant = self.constant.checked_add(other.constant).ok_or_else(|| overflow(span.clone()))?;
        self.terms.extend(other.terms);
        Ok(self)
    }

    pub(crate) fn times(mut self, k: i64, span: &Span) -> Result<Lin> {
        let scale = |v: i64| v.checked_mul(k).ok_or_else(|| Fault::from(overflow(span.clone())));
        self.constant = scale(self.constant)?;
        for term in &mut self.terms {
            term.0 = scale(term.0)?;
        }
        Ok(self)
    }

    pub(crate) fn minus(self, other: Lin, span: &Span) -> Result<Lin> {
        self.plus(other.times(-1, span)?, span)
    }

    /// Each variable once, no zero coefficient.
    pub(crate) fn normalized(&self, span: &Span) -> Result<Lin> {
        if self.terms.len() <= 1 {
            let mut lin = self.clone();
            lin.terms.retain(|t| t.0 != 0);
            return Ok(lin);
        }
        let mut merged: IndexMap<VarId, i64> = IndexMap::with_capacity(self.terms.len());
        for &(a, x) in &self.terms {
            let coef = merged.entry(x).or_insert(0);
            *coef = coef.checked_add(a).ok_or_else(|| overflow(span.clone()))?;
        }
        let terms = merged.into_iter().filter(|&(_, a)| a != 0).map(|(x, a)| (a, x)).collect();
        Ok(Lin { terms, constant: self.constant })
    }

    /// The value, if the expression does not depend on any variable (after merging, so
    /// `x - x + 3` is the constant 3).
    pub(crate) fn as_constant(&self, span: &Span) -> Result<Option<i64>> {
        if self.terms.is_empty() {
            return Ok(Some(self.constant));
        }
        let lin = self.normalized(span)?;
        Ok(lin.terms.is_empty().then_some(lin.constant))
    }

    /// `x + c` (coefficient 1), which constraints such as all-different take as an offset
    /// instead of a new variable. Expects a normalized form.
    pub(crate) fn as_offset_var(&self) -> Option<(VarId, i64)> {
        match self.terms.as_slice() {
            &[(1, x)] => Some((x, self.constant)),
            _ => None,
        }
    }

    /// The smallest and largest values over the current domains, in i128 (they may not
    /// fit in an i64 even when every coefficient does).
    pub(crate) fn bounds(&self, solver: &Solver) -> (i128, i128) {
        let mut lo = self.constant as i128;
        let mut hi = self.constant as i128;
        for &(a, x) in &self.terms {
            let (min, max) = (a as i128 * solver.min(x) as i128, a as i128 * solver.max(x) as i128);
            lo += min.min(max);
            hi += min.max(max);
        }
        (lo, hi)
    }
}

impl Compiler {
    /// The linear form of an integer expression.
    pub(crate) fn linearize(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        let span = &expr.span;
        match &expr.node {
            Expr::Int(v) => Ok(Lin::constant(*v)),
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Const(v)) => Ok(Lin::constant(v)),
                Some(Entity::Var(x)) => Ok(Lin::var(x)),
                Some(Entity::Array(_)) => {
                    Err(Diagnostic::new(format!("array `{name}` used without an index"), span.clone())
                        .with_label("an array needs an index here, e.g. `q[1]`")
                        .into())
                }
                Some(Entity::Invalid) => Err(Fault::Silent),
                None => Err(unknown_name(name, span.clone()).into()),
            },
            Expr::Index { array, indices } => self.indexed(array, indices, span),
            Expr::Unary { op: UnaryOp::Neg, operand } => self.linearize(operand)?.times(-1, span),
            // A condition used as a number is 1 when it holds, 0 otherwise.
            Expr::Unary { op: UnaryOp::Not, .. } => self.truth(expr),
            Expr::Binary { op, .. } if is_condition(*op) => self.truth(expr),
            Expr::Binary { op, lhs, rhs } => self.linearize_binary(*op, lhs, rhs, span),
            Expr::Call { function, args } => self.call_int(function, args, span),
            Expr::Bool(_) => Err(expected("an integer expression", "a truth value", span.clone()).into()),
            Expr::List(_) | Expr::Comprehension { .. } => {
                Err(expected("an integer expression", "a list", span.clone()).into())
            }
            Expr::Range { .. } => Err(expected("an integer expression", "a range", span.clone()).into()),
            Expr::Set(_) => Err(expected("an integer expression", "a set", span.clone()).into()),
            Expr::If { .. } | Expr::Let { .. } | Expr::SetOf(_) => {
                Err(super::errors::not_supported("this expression", span.clone()).into())
            }
        }
    }

    fn linearize_binary(&mut self, op: BinaryOp, lhs: &Spanned<Expr>, rhs: &Spanned<Expr>, span: &Span) -> Result<Lin> {
        match op {
            BinaryOp::Add => self.linearize(lhs)?.plus(self.linearize(rhs)?, span),
            BinaryOp::Sub => self.linearize(lhs)?.minus(self.linearize(rhs)?, span),
            BinaryOp::Mul => {
                let (a, b) = (self.linearize(lhs)?, self.linearize(rhs)?);
                if let Some(k) = a.as_constant(span)? {
                    b.times(k, span)
                } else if let Some(k) = b.as_constant(span)? {
                    a.times(k, span)
                } else {
                    self.product(a, b, span)
                }
            }
            BinaryOp::Div | BinaryOp::Mod => {
                let (a, b) = (self.linearize(lhs)?, self.linearize(rhs)?);
                let Some(b) = b.as_constant(span)? else {
                    let what = format!("`{}` by a variable", op.symbol());
                    return Err(not_supported(what, rhs.span.clone()).into());
                };
                if b == 0 {
                    return Err(Diagnostic::new("division by zero", rhs.span.clone()).with_label("this is 0").into());
                }
                let Some(a) = a.as_constant(span)? else {
                    return self.divide(op, a, b, span);
                };
                // Truncating division, with the remainder taking the sign of the dividend
                // (as in MiniZinc's `div` and `mod`).
                let value = if op == BinaryOp::Div { a.checked_div(b) } else { a.checked_rem(b) };
                Ok(Lin::constant(value.ok_or_else(|| overflow(span.clone()))?))
            }
            BinaryOp::Concat => Err(expected("an integer expression", "a list", span.clone()).into()),
            // Conditions are sent to `truth` before this point.
            _ => Err(expected("an integer expression", "a condition", span.clone()).into()),
        }
    }

    fn is_constant_array(&self, array: &Ident) -> bool {
        matches!(self.env.lookup(&array.node), Some(Entity::Array(id)) if self.env.arrays[id].values.is_some())
    }

    /// The array named `array`, checked to take `count` indices.
    fn indexed_array(&self, array: &Ident, count: usize, span: &Span) -> Result<usize> {
        let id = match self.env.lookup(&array.node) {
            Some(Entity::Array(id)) => id,
            Some(Entity::Invalid) => return Err(Fault::Silent),
            Some(Entity::Const(_) | Entity::Var(_)) => {
                return Err(Diagnostic::new(format!("`{}` is not an array", array.node), array.span.clone())
                    .with_label("a scalar cannot be indexed")
                    .into())
            }
            None => return Err(unknown_name(&array.node, array.span.clone()).into()),
        };
        let dims = self.env.arrays[id].shape.dims.len();
        if count != dims {
            let s = |n: usize| if n == 1 { "" } else { "s" };
            let message = format!(
                "`{}` has {dims} dimension{}, but {count} index{} given",
                array.node,
                s(dims),
                if count == 1 { " is" } else { "es are" }
            );
            return Err(Diagnostic::new(message, span.clone()).into());
        }
        Ok(id)
    }

    /// `array[indices]`: the cell's variable when the indices are constants, else an
    /// element constraint (the indices are then restricted to the array's ranges).
    fn indexed(&mut self, array: &Ident, indices: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        if !indices.iter().any(|i| self.mentions_var(i)) {
            let cell = self.cell(array, indices, span)?;
            // A cell of a `let` array is its value.
            return Ok(if self.solver.is_fixed(cell) && self.is_constant_array(array) {
                Lin::constant(self.solver.min(cell))
            } else {
                Lin::var(cell)
            });
        }
        let id = self.indexed_array(array, indices.len(), span)?;
        let dims = self.env.arrays[id].shape.dims.clone();
        let mut position = Lin::default();
        for (index, &(lo, hi)) in indices.iter().zip(&dims) {
            let lin = self.linearize(index)?;
            // The index is restricted to the array's range for the whole model. Inside a
            // condition that would be wrong where the index may leave the range (MiniZinc
            // makes the condition false instead: `i <= 5 -> a[i] == 3` allows i = 6), so
            // that case is refused rather than answered wrongly.
            let (min, max) = lin.bounds(&self.solver);
            if self.condition_depth > 0 && (min < i128::from(lo) || max > i128::from(hi)) {
                let what = format!(
                    "inside a condition, an index that may leave the array's range ({min}..{max} against {lo}..{hi})"
                );
                return Err(not_supported(what, index.span.clone())
                    .with_note("restrict the index's domain to the range, or index outside `or`, `->`, `not`")
                    .into());
            }
            self.post_lin(&lin, cpsolve_engine::Rel::Ge, lo, &index.span)?;
            self.post_lin(&lin, cpsolve_engine::Rel::Le, hi, &index.span)?;
            let extent = hi.checked_sub(lo).and_then(|e| e.checked_add(1)).ok_or_else(|| overflow(span.clone()))?;
            position = position.times(extent, span)?.plus(lin.minus(Lin::constant(lo), span)?, span)?;
        }
        let cells = self.env.arrays[id].cells.clone();
        self.element(&cells, &position, span)
    }

    /// The variable of the cell `array[indices]`; indices must be constants.
    pub(crate) fn cell(&mut self, array: &Ident, indices: &[Spanned<Expr>], span: &Span) -> Result<VarId> {
        let id = self.indexed_array(array, indices.len(), span)?;
        let mut values = Vec::with_capacity(indices.len());
        for index in indices {
            values.push(self.eval_index(index)?);
        }
        let array = &self.env.arrays[id];
        match array.shape.offset(&values) {
            Ok(offset) => Ok(array.cells[offset]),
            Err(BadIndex::OutOfRange(d)) => {
                let (lo, hi) = array.shape.dims[d];
                let which = if values.len() > 1 { format!(" in dimension {}", d + 1) } else { String::new() };
                let message =
                    format!("index {} is out of range: `{}` is indexed by {lo}..{hi}{which}", values[d], array.name);
                Err(Diagnostic::new(message, indices[d].span.clone()).with_label("out of range").into())
            }
        }
    }

    fn eval_index(&mut self, index: &Spanned<Expr>) -> Result<i64> {
        let lin = self.linearize(index)?;
        self.constant_of(&lin, &index.span)?
            .map_err(|d| d.with_note("a variable index (an `element` constraint) is not supported yet").into())
    }

    /// The value of an expression that must not depend on variables.
    pub(crate) fn eval_int(&mut self, expr: &Spanned<Expr>) -> Result<i64> {
        let lin = self.linearize(expr)?;
        Ok(self.constant_of(&lin, &expr.span)??)
    }

    /// The values of a constant set `{a, b, …}`, sorted, without repeats.
    pub(crate) fn eval_set(&mut self, items: &[Spanned<Expr>]) -> Result<Vec<i64>> {
        let mut values = items.iter().map(|item| self.eval_int(item)).collect::<Result<Vec<i64>>>()?;
        values.sort_unstable();
        values.dedup();
        Ok(values)
    }

    /// The value of a linear form, or the error that names a variable it depends on.
    pub(crate) fn constant_of(&self, lin: &Lin, span: &Span) -> Result<std::result::Result<i64, Diagnostic>> {
        let lin = lin.normalized(span)?;
        Ok(match lin.terms.first() {
            None => Ok(lin.constant),
            Some(&(_, x)) => Err(not_constant(&self.env.var_name(x), span.clone())),
        })
    }
}

/// Whether the operator makes a condition (a relation or a logical connective).
fn is_condition(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge
            | BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Implies
            | BinaryOp::Iff
    )
}
