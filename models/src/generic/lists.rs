//! Lists of integer expressions: literals `[a, b]`, comprehensions `[e | i in 1..n]`,
//! whole arrays (`q`, row-major) and their concatenations with `++`. A list exists only
//! at compile time: it is expanded into its elements, each a linear form with the span
//! of the expression it came from.

use cpsolve_dsl::ast::{BinaryOp, Expr, Span, Spanned};

use super::env::Entity;
use super::errors::{expected, Result};
use super::linear::Lin;
use super::Compiler;

/// One element of an expanded list.
pub(crate) type Element = (Lin, Span);

impl Compiler {
    /// Whether `expr` denotes a list rather than a single integer.
    pub(crate) fn is_list(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::List(_) | Expr::Comprehension { .. } => true,
            Expr::Binary { op: BinaryOp::Concat, .. } => true,
            Expr::Name(name) => matches!(self.env.lookup(name), Some(Entity::Array(_))),
            _ => false,
        }
    }

    /// The elements of a list expression, in order.
    pub(crate) fn list_elements(&mut self, expr: &Spanned<Expr>) -> Result<Vec<Element>> {
        let mut out = Vec::new();
        self.push_elements(expr, &mut out)?;
        Ok(out)
    }

    /// The arguments of a call such as `alldifferent(...)` or `sum(...)`: a list argument
    /// contributes its elements, any other argument is one element. So
    /// `alldifferent(S, E, N)`, `alldifferent(q)` and `alldifferent([...] ++ [...])` all work.
    pub(crate) fn elements_of_args(&mut self, args: &[Spanned<Expr>]) -> Result<Vec<Element>> {
        let mut out = Vec::new();
        for arg in args {
            if self.is_list(arg) {
                self.push_elements(arg, &mut out)?;
            } else {
                out.push((self.linearize(arg)?, arg.span.clone()));
            }
        }
        Ok(out)
    }

    fn push_elements(&mut self, expr: &Spanned<Expr>, out: &mut Vec<Element>) -> Result<()> {
        match &expr.node {
            Expr::List(items) => {
                for item in items {
                    out.push((self.linearize(item)?, item.span.clone()));
                }
            }
            Expr::Comprehension { element, generators } => {
                self.for_each_binding(generators, &mut |cx| {
                    out.push((cx.linearize(element)?, element.span.clone()));
                    Ok(())
                })?;
            }
            Expr::Binary { op: BinaryOp::Concat, lhs, rhs } => {
                for side in [lhs, rhs] {
                    if !self.is_list(side) {
                        return Err(expected("a list on each side of `++`", "a single value", side.span.clone()).into());
                    }
                    self.push_elements(side, out)?;
                }
            }
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Array(id)) => match &self.env.arrays[id].values {
                    Some(values) => out.extend(values.iter().map(|&v| (Lin::constant(v), expr.span.clone()))),
                    None => out.extend(self.env.arrays[id].cells.iter().map(|&x| (Lin::var(x), expr.span.clone()))),
                },
                _ => return Err(expected("a list", &format!("`{name}`"), expr.span.clone()).into()),
            },
            _ => return Err(expected("a list", "a single value", expr.span.clone()).into()),
        }
        Ok(())
    }
}
