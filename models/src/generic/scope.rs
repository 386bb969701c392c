//! Expressions that stand for another expression in another scope: `let … in`, calls of
//! user predicates and functions, `if` decided by constants, and names bound to a
//! condition.
//!
//! None of them is compiled on its own. A `let` binds its names, a call binds its
//! parameters (in a frame of its own: the body sees them and the globals, not the caller's
//! locals), and then the body is compiled *in the mode of the place where the expression
//! stands*: as a constraint, a condition, an integer or a list. So a predicate posted as a
//! constraint posts exactly what its body written out would, and the same predicate under
//! `not` or `->` becomes the truth of that body: inlining, with names resolved where they
//! were written.
//!
//! The value a name is bound to is evaluated once, where it is defined ([`Compiler::value_of`]):
//! a constant, a linear form, an array or list, a set. A condition over variables is kept
//! as written with the locals it sees, and compiled where the name is used, so that
//! `let c = x > 3 in c` posts `x > 3` itself rather than a reified copy.

use std::rc::Rc;

use cpsolve_dsl::ast::{Expr, FunctionKind, Ident, Item, LetDefinition, Span, Spanned, UnaryOp};
use cpsolve_dsl::Diagnostic;

use super::env::{Deferred, Entity, FunctionDef, List};
use super::errors::{expected, not_supported, Fault, Result};
use super::generators::MAX_BINDINGS;
use super::shape::Shape;
use super::Compiler;

/// How deep calls of user functions may nest: deeper recursion is an error at the call
/// (every level costs stack in the compiler's recursive walk).
pub(crate) const MAX_CALL_DEPTH: u32 = 200;

/// How many calls deep [`Compiler::peek_body`] looks.
const MAX_PEEK: u32 = 8;

/// What a mode of compilation does with the expression an expression stands for.
pub(crate) type Mode<'a, T> = dyn FnMut(&mut Compiler, &Spanned<Expr>) -> Result<T> + 'a;

impl Compiler {
    /// If `expr` stands for another expression in another scope, runs `mode` on that one
    /// there; `None` when `expr` is an ordinary expression (or an `if` with a condition over
    /// variables, which each mode compiles its own way).
    pub(crate) fn unfold<T>(&mut self, expr: &Spanned<Expr>, mode: &mut Mode<'_, T>) -> Option<Result<T>> {
        match &expr.node {
            Expr::Let { definitions, body } => Some(self.with_let(definitions, &mut |cx| mode(cx, body))),
            Expr::Call { function, args } => {
                let entity = self.env.lookup(&function.node);
                if entity.is_none() && super::wrappers::is_wrapper(&function.node) {
                    return Some(super::wrappers::wrapped(function, args, &expr.span).and_then(|c| mode(self, c)));
                }
                if entity.is_none() && function.node == "assert" {
                    return Some(self.checked_assert(args, &expr.span).and_then(|value| match value {
                        Some(value) => mode(self, value),
                        None => mode(self, &Spanned::new(Expr::Bool(true), expr.span.clone())),
                    }));
                }
                let Some(Entity::Function(def)) = entity else {
                    return None;
                };
                Some(self.with_call(&def, function, args, &expr.span, &mut |cx| mode(cx, &def.body)))
            }
            Expr::If { branches, otherwise } => {
                for (condition, value) in branches {
                    if self.mentions_var(condition) {
                        return None;
                    }
                    match self.eval_bool(condition) {
                        Ok(true) => return Some(mode(self, value)),
                        Ok(false) => {}
                        Err(fault) => return Some(Err(fault)),
                    }
                }
                Some(match otherwise {
                    Some(value) => mode(self, value),
                    None => mode(self, &Spanned::new(Expr::Bool(true), expr.span.clone())),
                })
            }
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Cond(deferred)) => {
                    let saved = self.env.enter(deferred.scope.clone());
                    let result = mode(self, &deferred.expr);
                    self.env.leave(saved);
                    Some(result)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Makes the definitions of a `let`, runs `body`, and forgets them.
    fn with_let<T>(
        &mut self,
        definitions: &[LetDefinition],
        body: &mut dyn FnMut(&mut Compiler) -> Result<T>,
    ) -> Result<T> {
        let mark = self.env.locals_len();
        let result = self.let_definitions(definitions).and_then(|()| body(self));
        self.env.truncate_locals(mark);
        result
    }

    fn let_definitions(&mut self, definitions: &[LetDefinition]) -> Result<()> {
        for definition in definitions {
            match definition {
                LetDefinition::Const { name, value } => {
                    let entity = self.value_of(value)?;
                    self.env.push_entity(&name.node, entity);
                }
                LetDefinition::Var { decl, domain } => {
                    if self.in_condition() {
                        // Under `not` a fresh variable would mean "for all" (MiniZinc refuses
                        // it there); elsewhere in a condition it would only add solutions
                        // that differ in a value no one sees.
                        return Err(not_supported("a `var` of a `let` inside a condition", decl.name.span.clone())
                            .with_note("declare the variable with `var` at the top, or give it a value: `NAME = EXPR`")
                            .into());
                    }
                    let entity = self.new_local_var(decl, domain)?;
                    self.env.push_entity(&decl.name.node, entity);
                }
                // At the root it is posted; inside a condition it is part of it (MiniZinc:
                // the `let`'s constraints hold where its value is defined).
                LetDefinition::Constraint(constraint) => {
                    if self.in_condition() {
                        let t = self.truth(constraint)?;
                        self.require(t, &constraint.span)?;
                    } else {
                        self.post(constraint)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Binds the parameters of a user function to the arguments and runs `body` in a frame
    /// of its own.
    fn with_call<T>(
        &mut self,
        def: &Rc<FunctionDef>,
        function: &Ident,
        args: &[Spanned<Expr>],
        span: &Span,
        body: &mut dyn FnMut(&mut Compiler) -> Result<T>,
    ) -> Result<T> {
        if args.len() != def.params.len() {
            let s = |n: usize| if n == 1 { "" } else { "s" };
            let message = format!(
                "`{}` takes {} argument{}, not {}",
                def.name.node,
                def.params.len(),
                s(def.params.len()),
                args.len()
            );
            let params: Vec<&str> = def.params.iter().map(|p| p.node.as_str()).collect();
            return Err(Diagnostic::new(message, span.clone())
                .with_note(format!("defined as `{}({})`", def.name.node, params.join(", ")))
                .into());
        }
        if self.call_depth >= MAX_CALL_DEPTH {
            let message = format!("calls nested more than {MAX_CALL_DEPTH} deep (a recursion that does not end?)");
            return Err(Diagnostic::new(message, function.span.clone())
                .with_label("too deep")
                .with_note("a recursion must reach its base case through constants, e.g. `if n <= 1 then 1 else n * f(n - 1) endif`")
                .into());
        }
        self.bindings += 1;
        if self.bindings > MAX_BINDINGS {
            let message = format!("too many iterations and calls: more than {MAX_BINDINGS} in this model");
            return Err(Diagnostic::new(message, function.span.clone()).into());
        }
        let mut bound = Vec::with_capacity(args.len());
        for (param, arg) in def.params.iter().zip(args) {
            bound.push((param.node.clone(), self.value_of(arg)?));
        }
        let saved = self.env.enter(bound);
        self.call_depth += 1;
        let result = self.test_on_constants(def, args, span).and_then(|()| body(self));
        self.call_depth -= 1;
        self.env.leave(saved);
        result
    }

    /// MiniZinc's `test` is a predicate of the model's constants: in a call of one (its
    /// parameters bound), neither an argument nor the body may depend on a variable.
    fn test_on_constants(&self, def: &FunctionDef, args: &[Spanned<Expr>], span: &Span) -> Result<()> {
        if def.kind != FunctionKind::Test {
            return Ok(());
        }
        let over_variables =
            def.params.iter().zip(args).find(|(param, _)| {
                self.mentions_var(&Spanned::new(Expr::Name(param.node.clone()), param.span.clone()))
            });
        let (place, what) = match over_variables {
            Some((_, arg)) => (arg.span.clone(), "this argument depends on variables"),
            None if self.mentions_var(&def.body) => (span.clone(), "its body depends on variables"),
            None => return Ok(()),
        };
        let message = format!("`{}` is a `test`, over constants only", def.name.node);
        Err(Diagnostic::new(message, place)
            .with_label(what)
            .with_note(format!("a condition over variables is a `predicate`: `predicate {}(…) = …`", def.name.node))
            .into())
    }

    /// The value a local name stands for (a `let` definition, a call's argument).
    pub(crate) fn value_of(&mut self, expr: &Spanned<Expr>) -> Result<Entity> {
        if let Expr::Name(name) = &expr.node {
            match self.env.lookup(name) {
                Some(Entity::Invalid) => return Err(Fault::Silent),
                Some(Entity::Function(_)) => {
                    return Err(expected("a value", &format!("the function `{name}`"), expr.span.clone()).into())
                }
                Some(entity) => return Ok(entity),
                None => {}
            }
        }
        if self.is_set_expr(expr) {
            return self.set_entity(expr);
        }
        if self.is_list(expr) {
            let (shape, elems) = self.nested_list(expr)?;
            return Ok(Entity::List(Rc::new(List { shape, elems })));
        }
        if self.is_condition(expr) {
            if !self.mentions_var(expr) {
                return Ok(Entity::Const(i64::from(self.eval_bool(expr)?)));
            }
            let deferred = Deferred { expr: expr.clone(), scope: self.env.visible_locals() };
            return Ok(Entity::Cond(Rc::new(deferred)));
        }
        let lin = self.linearize(expr)?.normalized(&expr.span)?;
        Ok(match lin.as_constant(&expr.span)? {
            Some(v) => Entity::Const(v),
            None => Entity::Lin(Rc::new(lin)),
        })
    }

    /// A list as an array of any dimension: a list whose elements are all lists is one
    /// dimension more than its elements, which must have one shape (`[[1, 2], [3, 4]]`, or
    /// a comprehension of comprehensions). Each dimension is indexed from 1.
    pub(crate) fn nested_list(&mut self, expr: &Spanned<Expr>) -> Result<(Shape, Vec<super::linear::Lin>)> {
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.nested_list(e)) {
            return result;
        }
        if let Some(result) = self.array_call(expr) {
            return result;
        }
        let mut rows: Vec<(Shape, Vec<super::linear::Lin>, Span)> = Vec::new();
        let nested = match &expr.node {
            Expr::List(items) if !items.is_empty() && items.iter().all(|item| self.is_list(item)) => {
                for item in items {
                    let (shape, elems) = self.nested_list(item)?;
                    rows.push((shape, elems, item.span.clone()));
                }
                true
            }
            Expr::Comprehension { element, generators } if self.comprehension_of_lists(element, generators)? => {
                self.for_each_binding(generators, &mut |cx| {
                    let (shape, elems) = cx.nested_list(element)?;
                    rows.push((shape, elems, element.span.clone()));
                    Ok(())
                })?;
                true
            }
            _ => false,
        };
        if !nested {
            if let Expr::Name(name) = &expr.node {
                match self.env.lookup(name) {
                    Some(Entity::List(list)) => return Ok((list.shape.clone(), list.elems.clone())),
                    Some(Entity::Array(id)) => {
                        let array = &self.env.arrays[id];
                        let elems = match &array.values {
                            Some(values) => values.iter().map(|&v| super::linear::Lin::constant(v)).collect(),
                            None => array.cells.iter().map(|&x| super::linear::Lin::var(x)).collect(),
                        };
                        // A named array keeps its own index ranges.
                        return Ok((array.shape.clone(), elems));
                    }
                    _ => {}
                }
            }
            let elems: Vec<super::linear::Lin> = self.list_elements(expr)?.into_iter().map(|(lin, _)| lin).collect();
            return Ok((Shape { dims: vec![(1, elems.len() as i64)] }, elems));
        }
        let Some((first_shape, _, _)) = rows.first() else {
            return Ok((Shape { dims: vec![(1, 0)] }, Vec::new()));
        };
        let inner: Vec<u128> = (0..first_shape.dims.len()).map(|d| first_shape.extent(d)).collect();
        let mut elems = Vec::new();
        for (shape, row, span) in &rows {
            let extents: Vec<u128> = (0..shape.dims.len()).map(|d| shape.extent(d)).collect();
            if extents != inner {
                let show = |e: &[u128]| e.iter().map(u128::to_string).collect::<Vec<_>>().join("×");
                let message = match (extents.as_slice(), inner.as_slice()) {
                    ([this], [first]) => format!("this row has {this} values, but the first row has {first}"),
                    _ => format!("this element is {}, but the first is {}", show(&extents), show(&inner)),
                };
                return Err(Diagnostic::new(message, span.clone())
                    .with_label("the rows of an array must have one shape")
                    .into());
            }
            elems.extend(row.iter().cloned());
        }
        let mut dims = vec![(1, rows.len() as i64)];
        dims.extend(inner.iter().map(|&n| (1, n as i64)));
        Ok((Shape { dims }, elems))
    }

    /// Whether a comprehension's elements are lists (checked on its first binding).
    fn comprehension_of_lists(
        &mut self,
        element: &Spanned<Expr>,
        generators: &[cpsolve_dsl::ast::Generator],
    ) -> Result<bool> {
        if matches!(element.node, Expr::List(_) | Expr::Comprehension { .. }) {
            return Ok(true);
        }
        if !matches!(element.node, Expr::Name(_) | Expr::Call { .. } | Expr::Let { .. } | Expr::If { .. }) {
            return Ok(false);
        }
        // A name or call may stand for a list: look at what the element is on the first
        // binding, then stop the loop (without counting it against the iteration budget).
        let mut first = None;
        let budget = self.bindings;
        let probe = self.for_each_binding(generators, &mut |cx| {
            first = Some(cx.is_list(element));
            Err(Fault::Silent)
        });
        self.bindings = budget;
        match (probe, first) {
            (_, Some(is_list)) => Ok(is_list),
            (Err(fault), None) => Err(fault),
            (Ok(()), None) => Ok(false),
        }
    }

    /// Declares a user predicate or function.
    pub(crate) fn declare_function(
        &mut self,
        kind: FunctionKind,
        name: &Ident,
        params: &[Ident],
        body: &Spanned<Expr>,
    ) -> Result<()> {
        if super::functions::is_builtin(&name.node) && !super::functions::is_redefinable_global(&name.node) {
            let message = format!("`{}` is a built-in function or constraint", name.node);
            return Err(Diagnostic::new(message, name.span.clone()).with_label("choose another name").into());
        }
        for (k, param) in params.iter().enumerate() {
            if params[..k].iter().any(|p| p.node == param.node) {
                let message = format!("parameter `{}` is named twice", param.node);
                return Err(Diagnostic::new(message, param.span.clone()).into());
            }
        }
        let def = FunctionDef { kind, name: name.clone(), params: params.to_vec(), body: body.clone() };
        self.env.declare(name, Entity::Function(Rc::new(def)))
    }

    /// Whether an expression is a condition (its value a truth) rather than an integer, a
    /// list or a set, as far as its form tells.
    pub(crate) fn is_condition(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::Bool(_) => true,
            Expr::Unary { op, .. } => *op == UnaryOp::Not,
            Expr::Binary { op, .. } => op.is_condition(),
            Expr::Call { function, .. } => match self.env.lookup(&function.node) {
                Some(Entity::Function(def)) => {
                    matches!(def.kind, FunctionKind::Predicate | FunctionKind::Test)
                        || self.peek_body(|| self.is_condition(&def.body))
                }
                _ => super::functions::is_condition_call(&function.node) || super::wrappers::is_wrapper(&function.node),
            },
            Expr::If { branches, .. } => branches.first().is_some_and(|(_, value)| self.is_condition(value)),
            Expr::Let { body, .. } => self.is_condition(body),
            Expr::Name(name) => matches!(self.env.lookup(name), Some(Entity::Cond(_))),
            _ => false,
        }
    }

    /// Looks into a function's body to tell what its calls give (a list, a set, a
    /// condition), a few calls deep at most: a recursive function is then taken as giving
    /// neither, rather than looked into forever.
    pub(crate) fn peek_body(&self, look: impl FnOnce() -> bool) -> bool {
        if self.peeking.get() >= MAX_PEEK {
            return false;
        }
        self.peeking.set(self.peeking.get() + 1);
        let answer = look();
        self.peeking.set(self.peeking.get() - 1);
        answer
    }

    /// A statement that defines a name for the whole model, other than `let` and `var`.
    pub(crate) fn definition(&mut self, item: &Spanned<Item>) -> Result<()> {
        match &item.node {
            Item::Function { kind, name, params, body } => self.declare_function(*kind, name, params, body),
            Item::Enum { name, parts } => self.declare_enum(name, parts),
            _ => Ok(()),
        }
    }
}
