//! MiniZinc's array coercions and declared index sets:
//!
//! - `array1d(x)`: the elements of any array or list, in row-major order (a 2-d array as one
//!   list, for `alldifferent` or a `search` line);
//! - `array1d(S, list)`, `array2d(S1, S2, list)`, … `array6d`: the elements of `list`
//!   (flattened) under the index sets `S1`, `S2`, …, which may start anywhere (`0..n-1`);
//! - the index sets of a typed declaration, `array[0..n-1] of int: w = [...]`, which its
//!   value takes (`int` keeps the value's own).
//!
//! An array is a shape and its elements in row-major order (`shape.rs`), so each of these
//! only gives the same elements another shape: no engine variable is made or copied.

use std::rc::Rc;

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::env::{Array, Entity, List, SetArray};
use super::errors::Result;
use super::linear::Lin;
use super::shape::Shape;
use super::Compiler;

/// The coercions, `array1d` to `array6d` (MiniZinc's library stops at 6 dimensions).
pub(crate) const ARRAY_FUNCTIONS: &[&str] = &["array1d", "array2d", "array3d", "array4d", "array5d", "array6d"];

/// The number of dimensions `arrayNd` gives, if `name` is one of the coercions.
fn dimensions(name: &str) -> Option<usize> {
    ARRAY_FUNCTIONS.iter().position(|&f| f == name).map(|d| d + 1)
}

/// A shape as the messages show it: `0..2`, `1..2 × 1..3`.
fn show(shape: &Shape) -> String {
    let dims: Vec<String> = shape.dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
    dims.join(" × ")
}

impl Compiler {
    /// Whether `expr` is a call of a coercion (and not of a model's function of that name,
    /// which a model may not declare: the names are built in).
    pub(crate) fn is_array_call(&self, expr: &Spanned<Expr>) -> bool {
        matches!(&expr.node, Expr::Call { function, .. }
            if dimensions(&function.node).is_some() && self.env.lookup(&function.node).is_none())
    }

    /// The shape and elements of `arrayNd(…)`; `None` if `expr` is no such call.
    pub(crate) fn array_call(&mut self, expr: &Spanned<Expr>) -> Option<Result<(Shape, Vec<Lin>)>> {
        let Expr::Call { function, args } = &expr.node else { return None };
        if !self.is_array_call(expr) {
            return None;
        }
        Some(self.coerce(function, args, &expr.span))
    }

    pub(crate) fn coerce(
        &mut self,
        function: &Ident,
        args: &[Spanned<Expr>],
        span: &Span,
    ) -> Result<(Shape, Vec<Lin>)> {
        let n = dimensions(&function.node).unwrap_or(1);
        if let ([list], 1) = (args, n) {
            let elems = self.flat_elements(list)?;
            return Ok((Shape { dims: vec![(1, elems.len() as i64)] }, elems));
        }
        let Some((list, sets)) = args.split_last().filter(|(_, sets)| sets.len() == n) else {
            let message = format!(
                "`{}` takes {n} index set{} and a list{}",
                function.node,
                if n == 1 { "" } else { "s" },
                if n == 1 { " (or one array to flatten)" } else { "" }
            );
            return Err(Diagnostic::new(message, span.clone()).with_note(format!("e.g. `{}`", example(n))).into());
        };
        let mut dims = Vec::with_capacity(n);
        for set in sets {
            dims.push(self.index_range(set)?);
        }
        let shape = Shape { dims };
        let elems = self.flat_elements(list)?;
        if shape.len() != Some(elems.len() as u64) {
            let cells = shape.len().map_or_else(|| "too many".to_owned(), |c| c.to_string());
            let message =
                format!("the index sets {} hold {cells} cells, but the list has {}", show(&shape), elems.len());
            return Err(Diagnostic::new(message, list.span.clone()).with_label("one value per cell").into());
        }
        Ok((shape, elems))
    }

    /// The elements of a list or array of any dimension, row-major.
    fn flat_elements(&mut self, list: &Spanned<Expr>) -> Result<Vec<Lin>> {
        if !self.is_list(list) {
            return Err(super::errors::expected("a list", "a single value", list.span.clone()).into());
        }
        Ok(self.nested_list(list)?.1)
    }

    /// Gives a declared array the index sets of its declaration (`array[0..2] of int: w`):
    /// the value must have as many dimensions, each with as many indices; a dimension
    /// declared `int` keeps the value's.
    pub(crate) fn with_declared_dims(
        &mut self,
        name: &Ident,
        dims: &[Spanned<Expr>],
        entity: Entity,
        value: &Spanned<Expr>,
    ) -> Result<Entity> {
        if dims.is_empty() {
            return Ok(entity);
        }
        let current = match &entity {
            Entity::Array(id) => self.env.arrays[*id].shape.clone(),
            Entity::List(list) => list.shape.clone(),
            Entity::SetArray(sets) => sets.shape.clone(),
            Entity::Invalid => return Ok(entity),
            _ => {
                let message = format!("`{}` is declared an array, but its value is not a list", name.node);
                return Err(Diagnostic::new(message, value.span.clone()).with_label("a single value").into());
            }
        };
        if current.dims.len() != dims.len() {
            let message = format!(
                "`{}` is declared with {} index set{}, but its value has {} dimension{}",
                name.node,
                dims.len(),
                if dims.len() == 1 { "" } else { "s" },
                current.dims.len(),
                if current.dims.len() == 1 { "" } else { "s" },
            );
            return Err(Diagnostic::new(message, value.span.clone())
                .with_note(format!("give the list its shape with `{}`", example(dims.len())))
                .into());
        }
        let mut declared = Vec::with_capacity(dims.len());
        for (d, dim) in dims.iter().enumerate() {
            let open = matches!(&dim.node, Expr::Name(n) if n == "int" && self.env.lookup(n).is_none());
            declared.push(if open { current.dims[d] } else { self.index_range(dim)? });
        }
        let declared = Shape { dims: declared };
        let extents = |s: &Shape| (0..s.dims.len()).map(|d| s.extent(d)).collect::<Vec<_>>();
        if extents(&declared) != extents(&current) {
            let message =
                format!("`{}` is declared over {}, but its value is {}", name.node, show(&declared), show(&current));
            return Err(Diagnostic::new(message, value.span.clone()).with_label("one value per index").into());
        }
        if declared == current {
            return Ok(entity);
        }
        Ok(match entity {
            // A constant array is copied under its new shape (it is neither searched nor
            // shown, and its cells are the same fixed variables).
            Entity::Array(id) if self.env.arrays[id].values.is_some() => {
                let array = Array { name: name.node.clone(), shape: declared, ..self.env.arrays[id].clone() };
                self.env.arrays.push(array);
                Entity::Array(self.env.arrays.len() - 1)
            }
            Entity::SetArray(sets) => Entity::SetArray(Rc::new(SetArray { shape: declared, sets: sets.sets.clone() })),
            // An array of variables under other indices is a name for its elements, as a
            // list defined in place is.
            other => {
                let elems = match other {
                    Entity::List(list) => list.elems.clone(),
                    _ => self.nested_list(value)?.1,
                };
                Entity::List(Rc::new(List { shape: declared, elems }))
            }
        })
    }
}

/// The coercion that gives a list `n` dimensions, as the notes show it.
fn example(n: usize) -> String {
    let sets: Vec<String> = (1..=n).map(|d| format!("1..n{d}")).collect();
    format!("array{n}d({}, [...])", sets.join(", "))
}
