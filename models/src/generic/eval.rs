//! Conditions evaluated at compile time: `where` filters, and the constant parts of
//! logical constraints (`i < j -> ...` inside a `forall`). Integer constants are
//! evaluated through their linear form (see `linear.rs`).

use cpsolve_dsl::ast::{BinaryOp, Expr, Spanned, UnaryOp};
use cpsolve_engine::Rel;

use super::env::Entity;
use super::errors::{expected, Result};
use super::Compiler;

/// The engine relation of a relational operator.
pub(crate) fn relation(op: BinaryOp) -> Option<Rel> {
    Some(match op {
        BinaryOp::Eq => Rel::Eq,
        BinaryOp::Ne => Rel::Ne,
        BinaryOp::Lt => Rel::Lt,
        BinaryOp::Le => Rel::Le,
        BinaryOp::Gt => Rel::Gt,
        BinaryOp::Ge => Rel::Ge,
        _ => return None,
    })
}

/// `not (a ⋈ b)` as `a ⋈' b`.
pub(crate) fn negate(rel: Rel) -> Rel {
    match rel {
        Rel::Eq => Rel::Ne,
        Rel::Ne => Rel::Eq,
        Rel::Lt => Rel::Ge,
        Rel::Le => Rel::Gt,
        Rel::Gt => Rel::Le,
        Rel::Ge => Rel::Lt,
    }
}

impl Compiler {
    /// The truth value of a condition over constants.
    pub(crate) fn eval_bool(&mut self, expr: &Spanned<Expr>) -> Result<bool> {
        match &expr.node {
            Expr::Bool(b) => Ok(*b),
            Expr::Unary { op: UnaryOp::Not, operand } => Ok(!self.eval_bool(operand)?),
            Expr::Binary { op, lhs, rhs } => {
                if let Some(rel) = relation(*op) {
                    let (a, b) = (self.eval_int(lhs)?, self.eval_int(rhs)?);
                    return Ok(rel.holds(a.into(), b.into()));
                }
                let a = self.eval_bool(lhs)?;
                // Short-circuit like the host language: `i > 1 and ...` may guard the rest.
                Ok(match op {
                    BinaryOp::And => a && self.eval_bool(rhs)?,
                    BinaryOp::Or => a || self.eval_bool(rhs)?,
                    BinaryOp::Implies => !a || self.eval_bool(rhs)?,
                    BinaryOp::Iff => a == self.eval_bool(rhs)?,
                    _ => return Err(expected("a condition", "an integer expression", expr.span.clone()).into()),
                })
            }
            _ => Err(expected("a condition", "an integer expression", expr.span.clone())
                .with_label("e.g. `i < j`")
                .into()),
        }
    }

    /// Whether an expression refers to a variable or an array (so it cannot be evaluated
    /// at compile time). Conservative: a generator name that shadows a variable counts.
    pub(crate) fn mentions_var(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::Int(_) | Expr::Bool(_) => false,
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Var(_)) => true,
                Some(Entity::Array(id)) => self.env.arrays[id].values.is_none(),
                _ => false,
            },
            Expr::Index { .. } => true,
            Expr::Unary { operand, .. } => self.mentions_var(operand),
            Expr::Binary { lhs, rhs, .. } => self.mentions_var(lhs) || self.mentions_var(rhs),
            Expr::Range { lo, hi } => self.mentions_var(lo) || self.mentions_var(hi),
            Expr::Call { args: items, .. } | Expr::List(items) | Expr::Set(items) => {
                items.iter().any(|e| self.mentions_var(e))
            }
            Expr::If { .. } | Expr::Let { .. } | Expr::SetOf(_) => true,
            Expr::Comprehension { element, generators } => {
                self.mentions_var(element)
                    || generators.iter().any(|g| {
                        self.mentions_var(&g.source) || g.filter.as_ref().is_some_and(|f| self.mentions_var(f))
                    })
            }
        }
    }
}
