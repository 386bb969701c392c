//! Conditions over variables: a relation, or `and`/`or`/`not`/`->`/`<->` of conditions,
//! as a 0/1 value (its *truth*). A relation gets a new 0/1 variable tied to it by the
//! engine's reified linear propagator; the logical operators are then linear over those
//! truths: `a and b` as a value is a new `c` with `c ≤ ta`, `c ≤ tb`, `c ≥ ta + tb − 1`,
//! and `or`, `->` are conjunctions of negations; as constraints they need no new variable
//! (`a or b` is `ta + tb ≥ 1`). `not` costs nothing: the truth of `not c` is `1 − tc`.

use cpsolve_dsl::ast::{BinaryOp, Expr, Span, Spanned, UnaryOp};
use cpsolve_engine::{constraints, Rel, VarId};

use super::errors::{expected, model_error, overflow, Result};
use super::eval::relation;
use super::linear::Lin;
use super::Compiler;

impl Compiler {
    /// The truth of a condition as a 0/1 linear form.
    pub(crate) fn truth(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        self.condition_depth += 1;
        let truth = self.truth_inside(expr);
        self.condition_depth -= 1;
        truth
    }

    fn truth_inside(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        let span = &expr.span;
        if !self.mentions_var(expr) {
            return Ok(Lin::constant(i64::from(self.eval_bool(expr)?)));
        }
        match &expr.node {
            Expr::Bool(b) => Ok(Lin::constant(i64::from(*b))),
            Expr::Unary { op: UnaryOp::Not, operand } => Ok(Lin::constant(1).minus(self.truth(operand)?, span)?),
            Expr::Binary { op, lhs, rhs } => {
                if let Some(rel) = relation(*op) {
                    let difference = self.linearize(lhs)?.minus(self.linearize(rhs)?, span)?;
                    return self.reified(&difference, rel, span);
                }
                match op {
                    BinaryOp::And => {
                        let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
                        self.conjunction(a, b, span)
                    }
                    BinaryOp::Or => {
                        let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
                        let (na, nb) = (not(a, span)?, not(b, span)?);
                        not(self.conjunction(na, nb, span)?, span)
                    }
                    BinaryOp::Implies => {
                        let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
                        let nb = not(b, span)?;
                        not(self.conjunction(a, nb, span)?, span)
                    }
                    BinaryOp::Iff => {
                        let difference = self.truth(lhs)?.minus(self.truth(rhs)?, span)?;
                        self.reified(&difference, Rel::Eq, span)
                    }
                    _ => self.boolean_value(expr),
                }
            }
            _ => self.boolean_value(expr),
        }
    }

    /// Posts that a condition holds.
    pub(crate) fn post_truth(&mut self, expr: &Spanned<Expr>) -> Result<()> {
        let t = self.truth(expr)?;
        self.post_lin(&t, Rel::Eq, 1, &expr.span)
    }

    /// Posts `lin ⋈ value`.
    pub(crate) fn post_lin(&mut self, lin: &Lin, rel: Rel, value: i64, span: &Span) -> Result<()> {
        let rhs = value.checked_sub(lin.constant).ok_or_else(|| overflow(span.clone()))?;
        constraints::linear(&mut self.solver, &lin.terms, rel, rhs).map_err(|e| model_error(&e, span.clone()))?;
        Ok(())
    }

    /// A new 0/1 variable `b ⇔ lin ⋈ 0` (a constant when `lin` is one).
    pub(crate) fn reified(&mut self, lin: &Lin, rel: Rel, span: &Span) -> Result<Lin> {
        let lin = lin.normalized(span)?;
        if let Some(v) = lin.as_constant(span)? {
            return Ok(Lin::constant(i64::from(rel.holds(v.into(), 0))));
        }
        let b = self.new_bool(span)?;
        let rhs = lin.constant.checked_neg().ok_or_else(|| overflow(span.clone()))?;
        constraints::reified_linear(&mut self.solver, b, &lin.terms, rel, rhs)
            .map_err(|e| model_error(&e, span.clone()))?;
        Ok(Lin::var(b))
    }

    /// `a and b` for two truths: a new `c` with `c ≤ a`, `c ≤ b`, `c ≥ a + b − 1`.
    fn conjunction(&mut self, a: Lin, b: Lin, span: &Span) -> Result<Lin> {
        match (a.as_constant(span)?, b.as_constant(span)?) {
            (Some(0), _) | (_, Some(0)) => return Ok(Lin::constant(0)),
            (Some(_), _) => return Ok(b),
            (_, Some(_)) => return Ok(a),
            _ => {}
        }
        let c = Lin::var(self.new_bool(span)?);
        self.post_lin(&c.clone().minus(a.clone(), span)?, Rel::Le, 0, span)?;
        self.post_lin(&c.clone().minus(b.clone(), span)?, Rel::Le, 0, span)?;
        self.post_lin(&c.clone().minus(a.plus(b, span)?, span)?, Rel::Ge, -1, span)?;
        Ok(c)
    }

    /// A variable with values in {0, 1} used as a condition (`b` for `b == 1`).
    fn boolean_value(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        let lin = self.linearize(expr)?.normalized(&expr.span)?;
        let (lo, hi) = lin.bounds(&self.solver);
        if lo >= 0 && hi <= 1 {
            return Ok(lin);
        }
        Err(expected("a condition", "an integer expression", expr.span.clone())
            .with_label("a relation such as `x < y`, or a 0..1 variable")
            .into())
    }

    fn new_bool(&mut self, span: &Span) -> Result<VarId> {
        self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()).into())
    }
}

/// `not t` for a truth `t`.
fn not(t: Lin, span: &Span) -> Result<Lin> {
    Lin::constant(1).minus(t, span)
}
