//! Lists of integer expressions: literals `[a, b]`, comprehensions `[e | i in 1..n]`,
//! whole arrays (`q`, row-major), lists bound to local names, and their concatenations
//! with `++`. A list exists only at compile time: it is expanded into its elements, each a
//! linear form with the span of the expression it came from. The same walk gives the
//! elements of a list of conditions as truths (`exists`, `forall`, `xorall`), or posts
//! each as a constraint (`forall` at the root).

use cpsolve_dsl::ast::{BinaryOp, Expr, Span, Spanned};

use super::env::Entity;
use super::errors::{expected, Result};
use super::linear::Lin;
use super::Compiler;

/// One element of an expanded list.
pub(crate) type Element = (Lin, Span);

/// What is done with each element expression of a list.
type Each<'a> = dyn FnMut(&mut Compiler, &Spanned<Expr>) -> Result<()> + 'a;

impl Compiler {
    /// Whether `expr` denotes a list rather than a single integer.
    pub(crate) fn is_list(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::List(_) | Expr::Comprehension { .. } => true,
            Expr::Binary { op: BinaryOp::Concat, .. } => true,
            Expr::Name(name) => matches!(self.env.lookup(name), Some(Entity::Array(_) | Entity::List(_))),
            Expr::Let { body, .. } => self.is_list(body),
            Expr::If { branches, .. } => branches.first().is_some_and(|(_, value)| self.is_list(value)),
            Expr::Call { function, .. } => match self.env.lookup(&function.node) {
                Some(Entity::Function(def)) => self.peek_body(|| self.is_list(&def.body)),
                _ => self.is_array_call(expr),
            },
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

    /// The truths of the conditions of `exists(...)`, `forall(...)`, `xorall(...)`: a list
    /// argument contributes its elements (a list of 0/1 variables is a list of truths).
    pub(crate) fn truths_of_args(&mut self, args: &[Spanned<Expr>]) -> Result<Vec<Element>> {
        let mut out = Vec::new();
        for arg in args {
            if self.is_list(arg) {
                self.each_element(arg, &mut |cx, e| {
                    out.push((cx.truth(e)?, e.span.clone()));
                    Ok(())
                })?;
            } else {
                out.push((self.truth(arg)?, arg.span.clone()));
            }
        }
        Ok(out)
    }

    /// `forall(list)` at the root: each condition of the list is posted as a constraint.
    pub(crate) fn post_each(&mut self, args: &[Spanned<Expr>]) -> Result<()> {
        for arg in args {
            if self.is_list(arg) {
                self.each_element(arg, &mut |cx, e| cx.post(e))?;
            } else {
                self.post(arg)?;
            }
        }
        Ok(())
    }

    fn push_elements(&mut self, expr: &Spanned<Expr>, out: &mut Vec<Element>) -> Result<()> {
        // The common case, a whole array, without a walk per element.
        if let Expr::Name(name) = &expr.node {
            match self.env.lookup(name) {
                Some(Entity::Array(id)) => {
                    let array = &self.env.arrays[id];
                    match &array.values {
                        Some(values) => out.extend(values.iter().map(|&v| (Lin::constant(v), expr.span.clone()))),
                        None => out.extend(array.cells.iter().map(|&x| (Lin::var(x), expr.span.clone()))),
                    }
                    return Ok(());
                }
                Some(Entity::List(list)) => {
                    out.extend(list.elems.iter().map(|lin| (lin.clone(), expr.span.clone())));
                    return Ok(());
                }
                _ => {}
            }
        }
        self.each_element(expr, &mut |cx, e| {
            out.push((cx.linearize(e)?, e.span.clone()));
            Ok(())
        })
    }

    /// Runs `each` on every element of a list, in order. The elements of a named array or
    /// list are already values: they are handed over as constants or plain names.
    fn each_element(&mut self, expr: &Spanned<Expr>, each: &mut Each<'_>) -> Result<()> {
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.each_element(e, each)) {
            return result;
        }
        match &expr.node {
            Expr::List(items) => {
                for item in items {
                    each(self, item)?;
                }
            }
            Expr::Comprehension { element, generators } => {
                self.for_each_binding(generators, &mut |cx| each(cx, element))?;
            }
            Expr::Binary { op: BinaryOp::Concat, lhs, rhs } => {
                for side in [lhs, rhs] {
                    if !self.is_list(side) {
                        return Err(expected("a list on each side of `++`", "a single value", side.span.clone()).into());
                    }
                    self.each_element(side, each)?;
                }
            }
            // `array1d(x)`, `array2d(S1, S2, list)`: the same elements, row-major (the
            // index sets are checked against the count of the elements).
            Expr::Call { function, args } if self.is_array_call(expr) => {
                let (_, lins) = self.coerce(function, args, &expr.span)?;
                self.each_lin(lins, &expr.span, each)?;
            }
            Expr::Name(name) => {
                let lins: Vec<Lin> = match self.env.lookup(name) {
                    Some(Entity::Array(id)) => match &self.env.arrays[id].values {
                        Some(values) => values.iter().map(|&v| Lin::constant(v)).collect(),
                        None => self.env.arrays[id].cells.iter().map(|&x| Lin::var(x)).collect(),
                    },
                    Some(Entity::List(list)) => list.elems.clone(),
                    _ => return Err(expected("a list", &format!("`{name}`"), expr.span.clone()).into()),
                };
                self.each_lin(lins, &expr.span, each)?;
            }
            _ => return Err(expected("a list", "a single value", expr.span.clone()).into()),
        }
        Ok(())
    }

    /// Runs `each` on elements that are already values. Each is bound to a hidden local,
    /// so that `each` sees an expression (a name) whatever it does with it.
    fn each_lin(&mut self, lins: Vec<Lin>, span: &Span, each: &mut Each<'_>) -> Result<()> {
        for lin in lins {
            let entity = match lin.as_constant(span)? {
                Some(v) => Entity::Const(v),
                None => Entity::Lin(std::rc::Rc::new(lin)),
            };
            self.env.push_entity(ELEMENT, entity);
            let result = each(self, &Spanned::new(Expr::Name(ELEMENT.to_owned()), span.clone()));
            self.env.pop_local();
            result?;
        }
        Ok(())
    }
}

/// The name an element of a named list is bound to while it is handed over (not a valid
/// identifier, so no user name can clash with it).
const ELEMENT: &str = "#element";
