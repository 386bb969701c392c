//! Integer expressions as linear forms `Σ aᵢ·xᵢ + c`.
//!
//! Every integer expression of a generic model is linear in its variables, so one walk
//! turns it into a [`Lin`]; a constant is simply a `Lin` without terms, which is how
//! `let` values, indices and bounds are evaluated too. All arithmetic on user values is
//! checked: an overflow is an error at the operation that caused it, never a wrap.

use cpsolve_dsl::ast::{BinaryOp, Expr, Ident, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;
use std::rc::Rc;

use cpsolve_engine::{Rel, Solver, VarId};
use indexmap::IndexMap;

use super::env::{Entity, List};
use super::errors::{expected, model_error, not_constant, not_supported, overflow, unknown_name, Fault, Result};
use super::shape::{BadIndex, Shape};
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
        if let Expr::If { otherwise: None, .. } = &expr.node {
            if !self.is_condition(expr) {
                return Err(Diagnostic::new(
                    "an `if` without `else` has no value when its conditions fail",
                    span.clone(),
                )
                .with_label("add `else …`")
                .into());
            }
        }
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.linearize(e)) {
            return result;
        }
        match &expr.node {
            Expr::Int(v) => Ok(Lin::constant(*v)),
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Const(v)) => Ok(Lin::constant(v)),
                Some(Entity::Var(x)) => Ok(Lin::var(x)),
                Some(Entity::Lin(lin)) => Ok((*lin).clone()),
                Some(Entity::Array(_) | Entity::List(_) | Entity::SetArray(_)) => {
                    Err(Diagnostic::new(format!("array `{name}` used without an index"), span.clone())
                        .with_label("an array needs an index here, e.g. `q[1]`")
                        .into())
                }
                Some(Entity::Set(_) | Entity::SetVar(_) | Entity::Enum(_)) => {
                    Err(expected("an integer expression", &format!("the set `{name}`"), span.clone()).into())
                }
                Some(Entity::Function(_) | Entity::Constructor(_)) => {
                    Err(Diagnostic::new(format!("`{name}` is a function"), span.clone())
                        .with_label("call it with its arguments, e.g. `f(x)`")
                        .into())
                }
                Some(Entity::Cond(_)) => self.truth(expr),
                Some(Entity::Invalid) => Err(Fault::Silent),
                None => Err(unknown_name(name, span.clone()).into()),
            },
            Expr::Index { array, indices } => self.indexed(array, indices, span),
            Expr::Unary { op: UnaryOp::Neg, operand } => self.linearize(operand)?.times(-1, span),
            // A condition used as a number is 1 when it holds, 0 otherwise.
            Expr::Unary { op: UnaryOp::Not, .. } => self.truth(expr),
            Expr::Binary { op, .. } if op.is_condition() => self.truth(expr),
            Expr::Binary { op: BinaryOp::Union | BinaryOp::Intersect | BinaryOp::Diff | BinaryOp::Symdiff, .. } => {
                Err(expected("an integer expression", "a set", span.clone()).into())
            }
            Expr::Binary { op, lhs, rhs } => self.linearize_binary(*op, lhs, rhs, span),
            Expr::Call { function, .. } if super::functions::is_condition_call(&function.node) => self.truth(expr),
            Expr::Call { function, args } => self.call_int(function, args, span),
            Expr::Bool(_) => Err(expected("an integer expression", "a truth value", span.clone()).into()),
            Expr::List(_) | Expr::Comprehension { .. } => {
                Err(expected("an integer expression", "a list", span.clone()).into())
            }
            Expr::Range { .. } => Err(expected("an integer expression", "a range", span.clone()).into()),
            Expr::Set(_) | Expr::SetOf(_) => Err(expected("an integer expression", "a set", span.clone()).into()),
            Expr::Str(_) => Err(expected("an integer expression", "a string", span.clone()).into()),
            // Only a constraint statement carries annotations (`post_statement` reads them).
            Expr::Annotated { expr, .. } => self.linearize(expr),
            Expr::If { branches, otherwise } => {
                if self.is_condition(expr) {
                    return self.truth(expr);
                }
                self.if_value(branches, otherwise.as_deref(), span)
            }
            Expr::Let { .. } => unreachable!("a `let` is unfolded above"),
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
                    let diagnostic = Diagnostic::new("division by zero", rhs.span.clone()).with_label("this is 0");
                    return Err(Fault::Undefined(diagnostic));
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

    /// The array or list named `array`, checked to take `count` indices.
    fn indexed_array(&self, array: &Ident, count: usize, span: &Span) -> Result<Indexed> {
        let indexed = match self.env.lookup(&array.node) {
            Some(Entity::Array(id)) => Indexed::Array(id),
            Some(Entity::List(list)) => Indexed::List(list),
            Some(Entity::SetArray(_)) => {
                return Err(expected("an integer expression", "a set variable", span.clone())
                    .with_note("an array of sets gives a set: use it with `card`, `in`, `subset`, …")
                    .into())
            }
            Some(Entity::Invalid) => return Err(Fault::Silent),
            Some(_) => {
                return Err(Diagnostic::new(format!("`{}` is not an array", array.node), array.span.clone())
                    .with_label("a scalar cannot be indexed")
                    .into())
            }
            None => return Err(unknown_name(&array.node, array.span.clone()).into()),
        };
        let dims = self.shape_of(&indexed).dims.len();
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
        Ok(indexed)
    }

    fn shape_of<'a>(&'a self, indexed: &'a Indexed) -> &'a Shape {
        match indexed {
            Indexed::Array(id) => &self.env.arrays[*id].shape,
            Indexed::List(list) => &list.shape,
        }
    }

    /// The element at a row-major offset, as a linear form (a constant for a `let` array).
    fn element_at(&self, indexed: &Indexed, offset: usize) -> Lin {
        match indexed {
            Indexed::Array(id) => {
                let array = &self.env.arrays[*id];
                match &array.values {
                    Some(values) => Lin::constant(values[offset]),
                    None => Lin::var(array.cells[offset]),
                }
            }
            Indexed::List(list) => list.elems[offset].clone(),
        }
    }

    /// `array[indices]`: the element when the indices are constants, else an element
    /// constraint. At the root the indices are restricted to the array's ranges; inside a
    /// condition, an index that may leave its range makes the condition false there (see
    /// `partial.rs`).
    fn indexed(&mut self, array: &Ident, indices: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        let indexed = self.indexed_array(array, indices.len(), span)?;
        if !indices.iter().any(|i| self.mentions_var(i)) {
            let mut values = Vec::with_capacity(indices.len());
            for index in indices {
                values.push(self.eval_int(index)?);
            }
            let shape = self.shape_of(&indexed);
            return match shape.offset(&values) {
                Ok(offset) => Ok(self.element_at(&indexed, offset)),
                Err(BadIndex::OutOfRange(d)) => {
                    let (lo, hi) = shape.dims[d];
                    let which = if values.len() > 1 { format!(" in dimension {}", d + 1) } else { String::new() };
                    let message = format!(
                        "index {} is out of range: `{}` is indexed by {lo}..{hi}{which}",
                        values[d], array.node
                    );
                    Err(Fault::Undefined(Diagnostic::new(message, indices[d].span.clone()).with_label("out of range")))
                }
            };
        }
        let dims = self.shape_of(&indexed).dims.clone();
        let mut position = Lin::default();
        for (index, &(lo, hi)) in indices.iter().zip(&dims) {
            let lin = self.linearize(index)?;
            let lin = self.index_in_range(lin, lo, hi, &index.span)?;
            let extent = hi.checked_sub(lo).and_then(|e| e.checked_add(1)).ok_or_else(|| overflow(span.clone()))?;
            position = position.times(extent, span)?.plus(lin.minus(Lin::constant(lo), span)?, span)?;
        }
        let cells = match &indexed {
            Indexed::Array(id) => self.env.arrays[*id].cells.clone(),
            Indexed::List(list) => {
                let mut cells = Vec::with_capacity(list.elems.len());
                for lin in &list.elems {
                    cells.push(self.var_of(lin, span)?);
                }
                cells
            }
        };
        if cells.is_empty() {
            return Err(Fault::Undefined(Diagnostic::new(format!("`{}` is empty", array.node), span.clone())));
        }
        self.element(&cells, &position, span)
    }

    /// An index that stays within `lo..hi`: at the root, `index` restricted to it; inside a
    /// condition where it may leave it, a copy that stays in range and equals `index`
    /// wherever `index` is in range, that fact being required by the condition.
    pub(crate) fn index_in_range(&mut self, index: Lin, lo: i64, hi: i64, span: &Span) -> Result<Lin> {
        let (min, max) = index.bounds(&self.solver);
        if min >= i128::from(lo) && max <= i128::from(hi) {
            return Ok(index);
        }
        if !self.in_condition() {
            self.post_lin(&index, Rel::Ge, lo, span)?;
            self.post_lin(&index, Rel::Le, hi, span)?;
            return Ok(index);
        }
        if lo > hi || max < i128::from(lo) || min > i128::from(hi) {
            let message = format!("this index ranges over {min}..{max}, outside the array's range {lo}..{hi}");
            return Err(Fault::Undefined(Diagnostic::new(message, span.clone())));
        }
        let above = self.reified(&index.clone().minus(Lin::constant(lo), span)?, Rel::Ge, span)?;
        let below = self.reified(&index.clone().minus(Lin::constant(hi), span)?, Rel::Le, span)?;
        let defined = self.conjunction(above, below, span)?;
        let copy = Lin::var(self.solver.new_var(lo, hi).map_err(|e| model_error(&e, span.clone()))?);
        let same = self.reified(&copy.clone().minus(index, span)?, Rel::Eq, span)?;
        let implication = self.implication(defined.clone(), same, span)?;
        self.post_lin(&implication, Rel::Eq, 1, span)?;
        // Where the index is out of range the copy is `lo`, so that it adds no solutions.
        let at_lo = self.reified(&copy.clone().minus(Lin::constant(lo), span)?, Rel::Eq, span)?;
        self.post_lin(&defined.clone().plus(at_lo, span)?, Rel::Ge, 1, span)?;
        self.require(defined, span)?;
        Ok(copy)
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

/// What an index reads: a declared array, or a list bound to a local name.
enum Indexed {
    Array(usize),
    List(Rc<List>),
}
