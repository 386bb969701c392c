//! Reading the `name = value` parameters of puzzle statements (`queens n = 8`).

use cpsolve_dsl::ast::{BinaryOp, Expr, Param, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;

/// Evaluates a constant integer expression: literals, `+ - *`, unary minus, parentheses.
pub fn const_int(expr: &Spanned<Expr>) -> Result<i64, Diagnostic> {
    let overflow = || Diagnostic::new("this value overflows 64-bit integers", expr.span.clone());
    match &expr.node {
        Expr::Int(v) => Ok(*v),
        Expr::Unary { op: UnaryOp::Neg, operand } => const_int(operand)?.checked_neg().ok_or_else(overflow),
        Expr::Binary { op, lhs, rhs } if matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul) => {
            let (a, b) = (const_int(lhs)?, const_int(rhs)?);
            match op {
                BinaryOp::Add => a.checked_add(b),
                BinaryOp::Sub => a.checked_sub(b),
                _ => a.checked_mul(b),
            }
            .ok_or_else(overflow)
        }
        _ => Err(Diagnostic::new("expected an integer", expr.span.clone()).with_label("not a constant integer")),
    }
}

/// The parameters of a puzzle statement, checked against the names it accepts.
#[derive(Debug)]
pub struct Params<'a> {
    params: &'a [Param],
    statement: Span,
}

impl<'a> Params<'a> {
    /// Fails on a parameter name outside `known` or given twice.
    pub fn new(params: &'a [Param], statement: Span, known: &[&str]) -> Result<Params<'a>, Diagnostic> {
        for (i, p) in params.iter().enumerate() {
            if !known.contains(&p.name.node.as_str()) {
                return Err(Diagnostic::new(format!("unknown parameter `{}`", p.name.node), p.name.span.clone())
                    .with_note(format!("parameters here: {}", known.join(", "))));
            }
            if params[..i].iter().any(|q| q.name.node == p.name.node) {
                return Err(Diagnostic::new(
                    format!("parameter `{}` is given twice", p.name.node),
                    p.name.span.clone(),
                ));
            }
        }
        Ok(Params { params, statement })
    }

    /// An integer parameter within `lo..=hi`; `default` when absent (`None`: required).
    pub fn int(&self, name: &str, lo: i64, hi: i64, default: Option<i64>) -> Result<i64, Diagnostic> {
        let Some(p) = self.params.iter().find(|p| p.name.node == name) else {
            return default.ok_or_else(|| {
                Diagnostic::new(format!("missing parameter `{name}`"), self.statement.clone())
                    .with_label(format!("add `{name} = ...`"))
            });
        };
        let v = const_int(&p.value)?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(Diagnostic::new(format!("`{name}` must be from {lo} to {hi}"), p.value.span.clone())
                .with_label(format!("{v} is out of range")))
        }
    }
}
