//! Integer expressions that are not linear: products of variables, `div`/`mod`, `abs`,
//! `min`/`max`, `count`, and array cells with a variable index (element). Each becomes a
//! new (auxiliary) variable tied to its operands by one engine propagator; the expression
//! then takes part in linear forms as that variable.

use cpsolve_dsl::ast::{BinaryOp, Expr, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{constraints, Rel, Val, VarId, VAL_LIMIT};

use super::errors::{model_error, Result};
use super::linear::Lin;
use super::Compiler;

impl Compiler {
    /// A variable equal to `lin`: its own variable when it is one, else a new one.
    pub(crate) fn var_of(&mut self, lin: &Lin, span: &Span) -> Result<VarId> {
        let lin = lin.normalized(span)?;
        match lin.terms.as_slice() {
            &[(1, x)] if lin.constant == 0 => Ok(x),
            _ => self.equal_var(&lin, span),
        }
    }

    /// A new variable over `lo..=hi`, refused beyond the values the solver holds.
    pub(crate) fn aux_var(&mut self, lo: i128, hi: i128, span: &Span) -> Result<VarId> {
        let limit = i128::from(VAL_LIMIT);
        if lo < -limit || hi > limit {
            let message = format!("this expression ranges over {lo}..{hi}, beyond what the solver can hold (±2^60)");
            return Err(Diagnostic::new(message, span.clone()).with_label("too large").into());
        }
        let (lo, hi) = (lo as i64, hi.max(lo) as i64);
        self.solver.new_var(lo, hi).map_err(|e| model_error(&e, span.clone()).into())
    }

    /// `a * b` where both depend on variables.
    pub(crate) fn product(&mut self, a: Lin, b: Lin, span: &Span) -> Result<Lin> {
        let (x, y) = (self.var_of(&a, span)?, self.var_of(&b, span)?);
        if x == y {
            return self.apply(x, span, "square", |v| v.checked_mul(v));
        }
        let (xl, xh, yl, yh) = (
            self.solver.min(x) as i128,
            self.solver.max(x) as i128,
            self.solver.min(y) as i128,
            self.solver.max(y) as i128,
        );
        let corners = [xl * yl, xl * yh, xh * yl, xh * yh];
        let (lo, hi) = (corners.iter().copied().min().unwrap_or(0), corners.iter().copied().max().unwrap_or(0));
        let z = self.aux_var(lo, hi, span)?;
        constraints::times(&mut self.solver, x, y, z).map_err(|e| model_error(&e, span.clone()))?;
        Ok(Lin::var(z))
    }

    /// `a div k` or `a mod k` for a variable `a` and a constant `k ≠ 0`, truncating as
    /// MiniZinc does (the remainder has the sign of the dividend).
    pub(crate) fn divide(&mut self, op: BinaryOp, a: Lin, k: i64, span: &Span) -> Result<Lin> {
        let x = self.var_of(&a, span)?;
        if op == BinaryOp::Div {
            self.apply(x, span, "div", move |v| v.checked_div(k))
        } else {
            self.apply(x, span, "mod", move |v| v.checked_rem(k))
        }
    }

    /// `f(x)` as a new variable, through `f`'s graph over the domain of `x`.
    fn apply(
        &mut self,
        x: VarId,
        span: &Span,
        name: &'static str,
        f: impl Fn(Val) -> Option<Val> + Copy,
    ) -> Result<Lin> {
        if self.solver.size(x) > constraints::MAX_FUNCTION_DOMAIN {
            let message = format!(
                "`{name}` of a variable with {} possible values is not supported: at most {} are",
                self.solver.size(x),
                constraints::MAX_FUNCTION_DOMAIN
            );
            return Err(Diagnostic::new(message, span.clone()).with_label("too many values").into());
        }
        let images: Vec<Val> = self.solver.values(x).filter_map(f).collect();
        let lo = images.iter().copied().min().unwrap_or(0);
        let hi = images.iter().copied().max().unwrap_or(0);
        let z = self.aux_var(lo.into(), hi.into(), span)?;
        constraints::function(&mut self.solver, x, z, f, name).map_err(|e| model_error(&e, span.clone()))?;
        Ok(Lin::var(z))
    }

    pub(crate) fn abs(&mut self, a: Lin, span: &Span) -> Result<Lin> {
        let x = self.var_of(&a, span)?;
        if self.solver.min(x) >= 0 {
            return Ok(Lin::var(x));
        }
        if self.solver.max(x) <= 0 {
            return Lin::var(x).times(-1, span);
        }
        self.apply(x, span, "abs", |v| v.checked_abs())
    }

    /// `min(...)` / `max(...)` of elements some of which depend on variables.
    pub(crate) fn extremum(&mut self, elements: Vec<(Lin, Span)>, is_max: bool, span: &Span) -> Result<Lin> {
        let mut xs = Vec::with_capacity(elements.len());
        for (lin, element_span) in &elements {
            xs.push(self.var_of(lin, element_span)?);
        }
        let lows = xs.iter().map(|&x| self.solver.min(x));
        let highs = xs.iter().map(|&x| self.solver.max(x));
        let (lo, hi) = if is_max {
            (lows.max().unwrap_or(0), highs.max().unwrap_or(0))
        } else {
            (lows.min().unwrap_or(0), highs.min().unwrap_or(0))
        };
        let z = self.aux_var(lo.into(), hi.into(), span)?;
        constraints::extremum(&mut self.solver, z, &xs, is_max);
        Ok(Lin::var(z))
    }

    /// `count(list, v)`: how many elements equal `v`, as a sum of reified equalities.
    pub(crate) fn count(&mut self, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        // MiniZinc's `count(list of conditions)`: how many hold (so the generator form
        // `count(i in 1..n)(x[i] == 2)` works too).
        if let [list] = args {
            if self.is_list(list) {
                let mut total = Lin::default();
                for (truth, _) in self.truths_of_args(args)? {
                    total = total.plus(truth, span)?;
                }
                return Ok(total);
            }
        }
        let [list, value] = args else {
            let message = format!("`count` takes a list and a value, not {} arguments", args.len());
            return Err(Diagnostic::new(message, span.clone()).with_note("e.g. `count(x, 3) == 2`").into());
        };
        let value = self.linearize(value)?;
        let mut total = Lin::default();
        for (element, element_span) in self.list_elements(list)? {
            let difference = element.minus(value.clone(), &element_span)?.normalized(&element_span)?;
            let truth = self.reified(&difference, Rel::Eq, &element_span)?;
            total = total.plus(truth, span)?;
        }
        Ok(total)
    }

    /// The cell at a flat position that depends on variables: `position` counts from 0
    /// over `cells` (already restricted to the array's bounds by the caller).
    pub(crate) fn element(&mut self, cells: &[VarId], position: &Lin, span: &Span) -> Result<Lin> {
        let index = self.var_of(position, span)?;
        let lo = cells.iter().map(|&x| self.solver.min(x)).min().unwrap_or(0);
        let hi = cells.iter().map(|&x| self.solver.max(x)).max().unwrap_or(0);
        let z = self.aux_var(lo.into(), hi.into(), span)?;
        constraints::element(&mut self.solver, index, cells, z);
        Ok(Lin::var(z))
    }
}
