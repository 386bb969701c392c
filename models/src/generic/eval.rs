//! Conditions evaluated at compile time: `where` filters, and the constant parts of
//! logical constraints (`i < j -> ...` inside a `forall`), and the test of whether an
//! expression depends on variables at all. Integer constants are evaluated through their
//! linear form (see `linear.rs`).

use cpsolve_dsl::ast::{BinaryOp, Expr, LetDefinition, Spanned, UnaryOp};
use cpsolve_engine::Rel;

use super::env::Entity;
use super::errors::{expected, Fault, Result};
use super::functions::is_condition_call;
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
    /// The truth value of a condition over constants. A relation whose parts have no value
    /// (`a[i + 1] > 3` past the end of `a`) is false, as in MiniZinc.
    pub(crate) fn eval_bool(&mut self, expr: &Spanned<Expr>) -> Result<bool> {
        match self.eval_bool_inside(expr) {
            Err(Fault::Undefined(_)) => Ok(false),
            other => other,
        }
    }

    fn eval_bool_inside(&mut self, expr: &Spanned<Expr>) -> Result<bool> {
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.eval_bool(e)) {
            return result;
        }
        match &expr.node {
            Expr::Bool(b) => Ok(*b),
            Expr::Unary { op: UnaryOp::Not, operand } => Ok(!self.eval_bool(operand)?),
            Expr::Binary { op: BinaryOp::In, lhs, rhs } => {
                let v = self.eval_int(lhs)?;
                Ok(self.const_set(rhs)?.binary_search(&v).is_ok())
            }
            Expr::Binary { op, lhs, rhs } if self.is_set_expr(lhs) || self.is_set_expr(rhs) => {
                if !matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Subset | BinaryOp::Superset) {
                    let set = if self.is_set_expr(lhs) { lhs } else { rhs };
                    return Err(expected("a condition", "a set", set.span.clone()).into());
                }
                let (a, b) = (self.const_set(lhs)?, self.const_set(rhs)?);
                let within = |a: &[i64], b: &[i64]| a.iter().all(|v| b.binary_search(v).is_ok());
                Ok(match op {
                    BinaryOp::Eq => a == b,
                    BinaryOp::Ne => a != b,
                    BinaryOp::Subset => within(&a, &b),
                    BinaryOp::Superset => within(&b, &a),
                    _ => return Err(expected("a condition", "a set", expr.span.clone()).into()),
                })
            }
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
                    BinaryOp::Xor => a != self.eval_bool(rhs)?,
                    _ => return Err(expected("a condition", "an integer expression", expr.span.clone()).into()),
                })
            }
            Expr::Call { function, args } if is_condition_call(&function.node) => {
                let truths = self.truths_of_args(args)?;
                let mut values = Vec::with_capacity(truths.len());
                for (t, span) in &truths {
                    values.push(self.constant_of(t, span)?? != 0);
                }
                Ok(match function.node.as_str() {
                    "exists" => values.iter().any(|&v| v),
                    "forall" => values.iter().all(|&v| v),
                    _ => values.iter().filter(|&&v| v).count() % 2 == 1,
                })
            }
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Const(v @ (0 | 1))) => Ok(v == 1),
                _ => Err(expected("a condition", "an integer expression", expr.span.clone())
                    .with_label("e.g. `i < j`")
                    .into()),
            },
            _ => Err(expected("a condition", "an integer expression", expr.span.clone())
                .with_label("e.g. `i < j`")
                .into()),
        }
    }

    /// Whether an expression refers to a variable (so it cannot be evaluated at compile
    /// time). Conservative: a local name that shadows a variable counts.
    pub(crate) fn mentions_var(&self, expr: &Spanned<Expr>) -> bool {
        self.mentions(expr, false, &mut Vec::new())
    }

    /// `globals_only`: inside the body of a function, whose names are its parameters
    /// (checked at the call) or globals; `visiting`: the functions being looked into, so
    /// that a recursive one is looked into once.
    fn mentions(&self, expr: &Spanned<Expr>, globals_only: bool, visiting: &mut Vec<String>) -> bool {
        let any = |items: &mut dyn Iterator<Item = &Spanned<Expr>>, visiting: &mut Vec<String>| {
            for e in items {
                if self.mentions(e, globals_only, visiting) {
                    return true;
                }
            }
            false
        };
        let lookup = |name: &str| if globals_only { self.env.lookup_global(name) } else { self.env.lookup(name) };
        match &expr.node {
            Expr::Int(_) | Expr::Bool(_) => false,
            Expr::Name(name) => match lookup(name) {
                Some(Entity::Array(id)) => self.env.arrays[id].values.is_none(),
                Some(Entity::List(list)) => list.elems.iter().any(|e| !e.terms.is_empty()),
                Some(Entity::Var(_) | Entity::Lin(_) | Entity::Cond(_) | Entity::SetVar(_) | Entity::SetArray(_)) => {
                    true
                }
                _ => false,
            },
            Expr::Index { array, indices } => {
                self.mentions(&Spanned::new(Expr::Name(array.node.clone()), array.span.clone()), globals_only, visiting)
                    || any(&mut indices.iter(), visiting)
            }
            Expr::Unary { operand, .. } => self.mentions(operand, globals_only, visiting),
            Expr::Binary { lhs, rhs, .. } => any(&mut [lhs, rhs].into_iter().map(|b| &**b), visiting),
            Expr::Range { lo, hi } => any(&mut [lo, hi].into_iter().map(|b| &**b), visiting),
            // An index set or a length is known from the shape of the array alone, and an
            // array's shape never depends on the values of its variables.
            Expr::Call { function, .. }
                if lookup(&function.node).is_none()
                    && (function.node == "length" || super::sets::SET_FUNCTIONS.contains(&function.node.as_str())) =>
            {
                false
            }
            Expr::Call { function, args } => {
                if any(&mut args.iter(), visiting) {
                    return true;
                }
                match lookup(&function.node) {
                    Some(Entity::Function(def)) if !visiting.contains(&def.name.node) => {
                        visiting.push(def.name.node.clone());
                        let body = self.mentions(&def.body, true, visiting);
                        visiting.pop();
                        body
                    }
                    _ => false,
                }
            }
            Expr::List(items) | Expr::Set(items) => any(&mut items.iter(), visiting),
            Expr::Comprehension { element, generators } => {
                self.mentions(element, globals_only, visiting)
                    || generators.iter().any(|g| {
                        self.mentions(&g.source, globals_only, visiting)
                            || g.filter.as_ref().is_some_and(|f| self.mentions(f, globals_only, visiting))
                    })
            }
            Expr::If { branches, otherwise } => {
                branches
                    .iter()
                    .any(|(c, v)| self.mentions(c, globals_only, visiting) || self.mentions(v, globals_only, visiting))
                    || otherwise.as_ref().is_some_and(|e| self.mentions(e, globals_only, visiting))
            }
            Expr::Let { definitions, body } => {
                definitions.iter().any(|d| match d {
                    LetDefinition::Const { value, .. } => self.mentions(value, globals_only, visiting),
                    LetDefinition::Var { .. } | LetDefinition::Constraint(_) => true,
                }) || self.mentions(body, globals_only, visiting)
            }
            Expr::SetOf(_) => true,
            Expr::Str(_) => false,
            Expr::Annotated { expr, .. } => self.mentions(expr, globals_only, visiting),
        }
    }
}
