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
use super::functions::is_condition_call;
use super::linear::Lin;
use super::Compiler;

impl Compiler {
    /// The truth of a condition as a 0/1 linear form. The condition is a Boolean context
    /// (see `partial.rs`): a part without a value makes it false.
    pub(crate) fn truth(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        let span = expr.span.clone();
        self.boolean_context(&span, |cx| cx.truth_inside(expr))
    }

    fn truth_inside(&mut self, expr: &Spanned<Expr>) -> Result<Lin> {
        let span = &expr.span;
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.truth_inside(e)) {
            return result;
        }
        if !self.mentions_var(expr) {
            return Ok(Lin::constant(i64::from(self.eval_bool(expr)?)));
        }
        match &expr.node {
            Expr::Bool(b) => Ok(Lin::constant(i64::from(*b))),
            Expr::Unary { op: UnaryOp::Not, operand } => Ok(Lin::constant(1).minus(self.truth(operand)?, span)?),
            Expr::Binary { op: BinaryOp::In, lhs, rhs } => self.membership_truth(lhs, rhs, span),
            Expr::Binary { op, lhs, rhs }
                if is_set_relation(*op) && (self.is_set_expr(lhs) || self.is_set_expr(rhs)) =>
            {
                self.set_relation_truth(*op, lhs, rhs, span)
            }
            Expr::Binary { op, lhs, rhs } if self.truth_equation(*op, lhs, rhs).is_some() => {
                let difference = self.truth(lhs)?.minus(self.truth(rhs)?, span)?;
                self.reified(&difference, if *op == BinaryOp::Eq { Rel::Eq } else { Rel::Ne }, span)
            }
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
                        self.disjunction(a, b, span)
                    }
                    BinaryOp::Implies => {
                        let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
                        self.implication(a, b, span)
                    }
                    BinaryOp::Iff => {
                        let difference = self.truth(lhs)?.minus(self.truth(rhs)?, span)?;
                        self.reified(&difference, Rel::Eq, span)
                    }
                    BinaryOp::Xor => {
                        let difference = self.truth(lhs)?.minus(self.truth(rhs)?, span)?;
                        self.reified(&difference, Rel::Ne, span)
                    }
                    _ => self.boolean_value(expr),
                }
            }
            Expr::Call { function, args } if is_condition_call(&function.node) => {
                let truths = self.truths_of_args(args)?;
                self.list_truth(&function.node, truths, span)
            }
            Expr::If { branches, otherwise } => self.if_truth(branches, otherwise.as_deref(), span),
            _ => self.boolean_value(expr),
        }
    }

    /// The truth of `exists`, `forall` or `xorall` over truths.
    pub(crate) fn list_truth(&mut self, function: &str, truths: Vec<(Lin, Span)>, span: &Span) -> Result<Lin> {
        let count = truths.len() as i64;
        match function {
            "xorall" => {
                let mut parity = Lin::constant(0);
                for (t, _) in truths {
                    let difference = parity.minus(t, span)?;
                    parity = self.reified(&difference, Rel::Ne, span)?;
                }
                Ok(parity)
            }
            _ => {
                let mut sum = Lin::default();
                for (t, _) in truths {
                    sum = sum.plus(t, span)?;
                }
                if function == "exists" {
                    let at_least_one = sum.minus(Lin::constant(1), span)?;
                    self.reified(&at_least_one, Rel::Ge, span)
                } else {
                    let all = sum.minus(Lin::constant(count), span)?;
                    self.reified(&all, Rel::Eq, span)
                }
            }
        }
    }

    /// `a or b` for two truths.
    pub(crate) fn disjunction(&mut self, a: Lin, b: Lin, span: &Span) -> Result<Lin> {
        let (na, nb) = (not(a, span)?, not(b, span)?);
        not(self.conjunction(na, nb, span)?, span)
    }

    /// `a -> b` for two truths.
    pub(crate) fn implication(&mut self, a: Lin, b: Lin, span: &Span) -> Result<Lin> {
        let nb = not(b, span)?;
        not(self.conjunction(a, nb, span)?, span)
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
    pub(crate) fn conjunction(&mut self, a: Lin, b: Lin, span: &Span) -> Result<Lin> {
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

    pub(crate) fn new_bool(&mut self, span: &Span) -> Result<VarId> {
        self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()).into())
    }
}

/// A relation that compares sets when a side is one.
impl Compiler {
    /// `b = false`, `(x > 3) != c`: `=` or `!=` with a condition on one side compares
    /// truths (MiniZinc's `bool` equality), which is `<->` or `xor`.
    pub(crate) fn truth_equation(&self, op: BinaryOp, lhs: &Spanned<Expr>, rhs: &Spanned<Expr>) -> Option<BinaryOp> {
        let logic = match op {
            BinaryOp::Eq => BinaryOp::Iff,
            BinaryOp::Ne => BinaryOp::Xor,
            _ => return None,
        };
        (self.is_condition(lhs) || self.is_condition(rhs)).then_some(logic)
    }
}

pub(crate) fn is_set_relation(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Subset | BinaryOp::Superset)
}

/// `not t` for a truth `t`.
pub(crate) fn not(t: Lin, span: &Span) -> Result<Lin> {
    Lin::constant(1).minus(t, span)
}
