//! Constraints: relations between linear expressions, `alldifferent`, conjunctions, and
//! `forall`, which posts its body once per binding of its generators.
//!
//! A relation `lhs ⋈ rhs` is posted as `lhs - rhs ⋈ 0` through the engine's `linear`,
//! which merges repeated variables, folds fixed ones and picks the propagator. Logical
//! operators decided by compile-time constants (`i < j -> ...` in a `forall`) post only
//! the side that matters; over variables they go through the truths of `reify.rs`.

use cpsolve_dsl::ast::{BinaryOp, Expr, Generator, Ident, Item, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{constraints, Consistency, Rel, VarId, VAL_LIMIT};

use super::arrays::ARRAY_FUNCTIONS;
use super::enums::ENUM_FUNCTIONS;
use super::errors::{model_error, not_supported, overflow, Fault, Result};
use super::eval::{negate, relation};
use super::functions::{is_reserved, unknown_function, ALL_DIFFERENT, INT_FUNCTIONS};
use super::global_calls::GLOBALS;
use super::linear::Lin;
use super::reify::is_set_relation;
use super::sets::{SET_FUNCTIONS, SET_GLOBALS};
use super::{globals, Compiler};

impl Compiler {
    /// Posts a constraint statement.
    pub(crate) fn post(&mut self, expr: &Spanned<Expr>) -> Result<()> {
        let span = &expr.span;
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.post(e)) {
            return result;
        }
        match &expr.node {
            // A conjunct of `alldifferent(x) :: domain /\ circuit(x)`: its own annotations.
            Expr::Annotated { expr, annotations } => {
                let outer = self.annotated;
                self.annotated = annotations.iter().rev().find_map(annotation_consistency).or(outer);
                let result = self.post(expr);
                self.annotated = outer;
                result
            }
            Expr::Binary { op: BinaryOp::In, lhs, rhs } => self.post_membership(lhs, rhs, true, span),
            Expr::Binary { op, lhs, rhs }
                if is_set_relation(*op) && (self.is_set_expr(lhs) || self.is_set_expr(rhs)) =>
            {
                self.post_set_relation(*op, lhs, rhs, span)
            }
            Expr::Binary { op, lhs, rhs } => {
                if let Some(logic) = self.truth_equation(*op, lhs, rhs) {
                    return self.post_logic(logic, lhs, rhs, expr);
                }
                if let Some(rel) = relation(*op) {
                    return self.post_relation(rel, lhs, rhs, span);
                }
                match op {
                    BinaryOp::And => {
                        self.post(lhs)?;
                        self.post(rhs)
                    }
                    BinaryOp::Or | BinaryOp::Implies | BinaryOp::Iff | BinaryOp::Xor => {
                        self.post_logic(*op, lhs, rhs, expr)
                    }
                    _ => Err(not_a_constraint(span)),
                }
            }
            Expr::Unary { op: UnaryOp::Not, operand } => match &operand.node {
                // A partial element is not in the set (its relation is false): only the
                // truth of the membership says that.
                Expr::Binary { op: BinaryOp::In, lhs, rhs } if !self.may_be_partial(lhs) => {
                    match self.post_membership(lhs, rhs, false, span) {
                        Err(Fault::Undefined(_)) => Ok(()),
                        other => other,
                    }
                }
                Expr::Binary { op, lhs, rhs }
                    if relation(*op).is_some() && !self.is_set_expr(lhs) && !self.is_set_expr(rhs) =>
                {
                    self.post_negated_relation(relation(*op).map_or(Rel::Eq, negate), lhs, rhs, operand, span)
                }
                _ => {
                    let t = self.truth(operand)?;
                    self.post_lin(&t, Rel::Eq, 0, span)
                }
            },
            Expr::Bool(b) => {
                if !b {
                    self.solver.fail();
                }
                Ok(())
            }
            Expr::Call { function, args } => self.post_call(function, args, span),
            Expr::If { branches, otherwise } => self.post_if(branches, otherwise.as_deref(), span),
            Expr::Name(_) | Expr::Index { .. } if self.mentions_var(expr) => self.post_truth(expr),
            _ => Err(not_a_constraint(span)),
        }
    }

    /// `not (lhs ⋈ rhs)` at the root, posted as `lhs ⋈' rhs` unless a part may have no
    /// value: then the negation also holds where it has none (MiniZinc's relational
    /// semantics), which only the truth of the relation can say.
    /// Whether an expression may have no value for some values of its variables: an array
    /// read at a variable index, or a form that may hide one (a call, a `let`, an `if`).
    fn may_be_partial(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::Index { indices, .. } => indices.iter().any(|i| self.mentions_var(i) || self.may_be_partial(i)),
            Expr::Call { .. } | Expr::Let { .. } | Expr::If { .. } => true,
            Expr::Binary { lhs, rhs, .. } => self.may_be_partial(lhs) || self.may_be_partial(rhs),
            Expr::Unary { operand, .. } => self.may_be_partial(operand),
            _ => false,
        }
    }

    fn post_negated_relation(
        &mut self,
        negated: Rel,
        lhs: &Spanned<Expr>,
        rhs: &Spanned<Expr>,
        relation_expr: &Spanned<Expr>,
        span: &Span,
    ) -> Result<()> {
        if !self.may_be_partial(relation_expr) {
            // A constant part without a value makes the relation false: its negation holds.
            return match self.post_relation(negated, lhs, rhs, span) {
                Err(Fault::Undefined(_)) => Ok(()),
                other => other,
            };
        }
        let t = self.truth(relation_expr)?;
        self.post_lin(&t, Rel::Eq, 0, span)
    }

    /// Posts a constraint statement (or one instance of a `forall` body) and records what
    /// it posted, for `cpsolve explain`.
    pub(crate) fn post_statement(&mut self, expr: &Spanned<Expr>) -> Result<()> {
        if let Expr::Annotated { expr, annotations } = &expr.node {
            let outer = self.annotated;
            self.annotated = annotations.iter().rev().find_map(annotation_consistency).or(outer);
            let result = self.post_statement(expr);
            self.annotated = outer;
            return result;
        }
        let first = self.solver.num_propagators();
        let outer = self.statement.replace(expr.span.clone());
        let result = self.post(expr);
        self.statement = outer;
        let props = self.solver.propagators_since(first);
        if !props.is_empty() {
            self.posted.push((props, globals::Origin { span: expr.span.clone(), bindings: self.env.bindings() }, None));
        }
        result
    }

    /// Where the constraint being compiled comes from.
    fn origin(&self) -> globals::Origin {
        let span = self.statement.clone().unwrap_or(0..0);
        globals::Origin { span, bindings: self.env.bindings() }
    }

    /// Posts every instance of a `forall` body.
    pub(crate) fn post_forall(&mut self, generators: &[Generator], body: &Spanned<Item>) -> Result<()> {
        self.for_each_binding(generators, &mut |cx| match &body.node {
            Item::Constraint(expr) => cx.post_statement(expr),
            Item::Forall { generators, body } => cx.post_forall(generators, body),
            _ => Err(Diagnostic::new("a `forall` body must be a constraint", body.span.clone()).into()),
        })
    }

    fn post_relation(&mut self, rel: Rel, lhs: &Spanned<Expr>, rhs: &Spanned<Expr>, span: &Span) -> Result<()> {
        let difference = self.linearize(lhs)?.minus(self.linearize(rhs)?, span)?;
        let rhs = difference.constant.checked_neg().ok_or_else(|| overflow(span.clone()))?;
        let posted = if rel == Rel::Eq && self.annotated == Some(Consistency::Domain) {
            // `:: domain` on an equality: the engine's domain-consistent sum (which falls
            // back to bounds where the partial sums span too many values).
            constraints::linear_eq_domain(&mut self.solver, &difference.terms, rhs)
        } else {
            constraints::linear(&mut self.solver, &difference.terms, rel, rhs)
        };
        posted.map_err(|e| model_error(&e, span.clone()))?;
        Ok(())
    }

    /// `a or b`, `a -> b`, `a <-> b`: decided here when constants settle them, else
    /// posted as a linear relation between the truths of both sides.
    fn post_logic(
        &mut self,
        op: BinaryOp,
        lhs: &Spanned<Expr>,
        rhs: &Spanned<Expr>,
        expr: &Spanned<Expr>,
    ) -> Result<()> {
        match op {
            BinaryOp::Implies if !self.mentions_var(lhs) => {
                if self.eval_bool(lhs)? {
                    self.post(rhs)?;
                }
                Ok(())
            }
            BinaryOp::Or if !self.mentions_var(lhs) => {
                if !self.eval_bool(lhs)? {
                    self.post(rhs)?;
                }
                Ok(())
            }
            BinaryOp::Or if !self.mentions_var(rhs) => {
                if !self.eval_bool(rhs)? {
                    self.post(lhs)?;
                }
                Ok(())
            }
            _ => {
                let span = &expr.span;
                let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
                match op {
                    BinaryOp::Or => self.post_lin(&a.plus(b, span)?, Rel::Ge, 1, span),
                    BinaryOp::Implies => self.post_lin(&a.minus(b, span)?, Rel::Le, 0, span),
                    BinaryOp::Xor => self.post_lin(&a.minus(b, span)?, Rel::Ne, 0, span),
                    _ => self.post_lin(&a.minus(b, span)?, Rel::Eq, 0, span),
                }
            }
        }
    }

    fn post_call(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<()> {
        match function.node.as_str() {
            "forall" => self.post_each(args),
            "exists" | "xorall" => {
                let truths = self.truths_of_args(args)?;
                if function.node == "exists" {
                    let mut sum = Lin::default();
                    for (t, _) in truths {
                        sum = sum.plus(t, span)?;
                    }
                    self.post_lin(&sum, Rel::Ge, 1, span)
                } else {
                    let t = self.list_truth("xorall", truths, span)?;
                    self.post_lin(&t, Rel::Eq, 1, span)
                }
            }
            name if SET_GLOBALS.contains(&name) => self.post_set_global(function, args, span),
            name if ALL_DIFFERENT.contains(&name) => self.post_all_different(args),
            "table" => self.post_table(args, span),
            // MiniZinc's `count(x, v, c)`: `c` of the `x` equal `v`.
            "count" if args.len() == 3 => {
                let counted = self.count(&args[..2], span)?;
                let difference = counted.minus(self.linearize(&args[2])?, span)?;
                self.post_lin(&difference, Rel::Eq, 0, span)
            }
            name if GLOBALS.contains(&name) => self.post_global(function, args, span),
            name if INT_FUNCTIONS.contains(&name)
                || SET_FUNCTIONS.contains(&name)
                || ARRAY_FUNCTIONS.contains(&name)
                || ENUM_FUNCTIONS.contains(&name) =>
            {
                Err(not_a_constraint(span))
            }
            name if is_reserved(name) => Err(not_supported(format!("`{name}`"), function.span.clone()).into()),
            _ => Err(unknown_function(function).into()),
        }
    }

    /// `table(vars, tuples)`: the variables take the values of one of the tuples, given as
    /// a list of lists of constants (a literal or a comprehension).
    fn post_table(&mut self, args: &[Spanned<Expr>], span: &Span) -> Result<()> {
        let [vars, tuples] = args else {
            return Err(Diagnostic::new(format!("`table` takes two arguments, not {}", args.len()), span.clone())
                .with_note("e.g. `table([x, y], [[1, 2], [2, 3]])`")
                .into());
        };
        let mut xs = Vec::new();
        for (lin, element_span) in self.list_elements(vars)? {
            xs.push(self.var_of(&lin, &element_span)?);
        }
        let rows = self.matrix_of(tuples)?;
        if let Some(row) = rows.iter().find(|row| row.len() != xs.len()) {
            let message = format!("this tuple has {} values, but the table has {} variables", row.len(), xs.len());
            return Err(Diagnostic::new(message, tuples.span.clone()).into());
        }
        constraints::table(&mut self.solver, &xs, &rows);
        Ok(())
    }

    /// Each element `x + c` takes part with its variable and the offset `c`; any other
    /// element gets a new variable equal to it.
    fn post_all_different(&mut self, args: &[Spanned<Expr>]) -> Result<()> {
        let elements = self.elements_of_args(args)?;
        let mut vars = Vec::with_capacity(elements.len());
        let mut offsets = Vec::with_capacity(elements.len());
        for (lin, span) in elements {
            let lin = lin.normalized(&span)?;
            match lin.as_offset_var() {
                // Large offsets go through a new variable, whose bounds are checked.
                Some((x, c)) if c.abs() <= VAL_LIMIT => {
                    vars.push(x);
                    offsets.push(c);
                }
                _ => {
                    vars.push(self.equal_var(&lin, &span)?);
                    offsets.push(0);
                }
            }
        }
        // Posted when compilation ends, so that global constraints can be recognised.
        let origin = self.origin();
        self.all_different.push((vars, offsets, origin, self.annotated));
        Ok(())
    }

    /// A new (auxiliary) variable equal to `lin`, with the bounds of `lin` as its domain.
    pub(crate) fn equal_var(&mut self, lin: &Lin, span: &Span) -> Result<VarId> {
        let (lo, hi) = lin.bounds(&self.solver);
        let limit = i128::from(VAL_LIMIT);
        if lo < -limit || hi > limit {
            let message = format!("this expression ranges over {lo}..{hi}, beyond what the solver can hold (±2^60)");
            return Err(Diagnostic::new(message, span.clone()).with_label("too large").into());
        }
        // After a failure at the root the bounds may cross; the model has no solution then.
        let (lo, hi) = (lo as i64, hi.max(lo) as i64);
        let aux = self.solver.new_var(lo, hi).map_err(|e| model_error(&e, span.clone()))?;
        let mut terms = lin.terms.clone();
        terms.push((-1, aux));
        let rhs = lin.constant.checked_neg().ok_or_else(|| overflow(span.clone()))?;
        constraints::linear(&mut self.solver, &terms, Rel::Eq, rhs).map_err(|e| model_error(&e, span.clone()))?;
        Ok(aux)
    }
}

fn not_a_constraint(span: &Span) -> Fault {
    Diagnostic::new("expected a constraint", span.clone())
        .with_label("this has a value but states nothing")
        .with_note("a constraint is a relation such as `x + y == 10`, or a call such as `alldifferent(q)`")
        .into()
}

/// The propagation strength an annotation asks for: MiniZinc's `domain`, `bounds` and
/// `value_propagation`. Other annotations (`:: "name"`, solver-specific ones) say nothing
/// the engine can use and are left out.
fn annotation_consistency(annotation: &Spanned<Expr>) -> Option<Consistency> {
    match &annotation.node {
        Expr::Name(name) => match name.as_str() {
            "domain" => Some(Consistency::Domain),
            "bounds" => Some(Consistency::Bounds),
            "value_propagation" => Some(Consistency::Value),
            _ => None,
        },
        _ => None,
    }
}
