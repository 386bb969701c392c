//! Evaluating an output specification's expressions on one solution, with MiniZinc's
//! meaning: arrays keep their index sets, `div` and `mod` truncate toward zero, `show`
//! prints as MiniZinc does (`[1, 2]`, `1..3`, `{1, 3}`, `true`).
//!
//! A declaration is evaluated when first used, once per solution: the specification may
//! list a parameter after the expression that reads it.

use std::cell::RefCell;
use std::collections::HashMap;

use super::syntax::{Decl, Expr, Generator, Unsupported};

/// A value: MiniZinc's integers, Booleans, strings, sets of integers and arrays of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
    /// Sorted, each element once.
    Set(Vec<i64>),
    /// Row-major items under their index sets (`lo..hi` each).
    Array(Vec<(i64, i64)>, Vec<Value>),
}

fn fail<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

/// The names defined for a solution: the specification's declarations and the solution's
/// values, each evaluated once.
pub(crate) struct Scope<'a> {
    decls: HashMap<&'a str, &'a Decl>,
    values: RefCell<HashMap<String, Value>>,
}

impl<'a> Scope<'a> {
    pub(crate) fn new(decls: &'a [Decl], solution: HashMap<String, Value>) -> Scope<'a> {
        Scope { decls: decls.iter().map(|d| (d.name.as_str(), d)).collect(), values: RefCell::new(solution) }
    }

    /// The value of a declared name: the solution's (shaped by its declaration), or its own.
    fn global(&self, name: &str) -> Result<Value, Unsupported> {
        if let Some(v) = self.values.borrow().get(name) {
            return Ok(v.clone());
        }
        let Some(decl) = self.decls.get(name) else { return fail(format!("`{name}` has no value")) };
        let Some(expr) = &decl.value else { return fail(format!("the solution gives no value to `{name}`")) };
        let v = self.eval(expr, &Locals::default())?;
        let v = shaped(decl, v, self, &Locals::default())?;
        self.values.borrow_mut().insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// A solution's value under its declaration's index sets.
    pub(crate) fn set_solution_value(&self, name: &str, v: Value) -> Result<(), Unsupported> {
        let v = match self.decls.get(name) {
            Some(decl) => shaped(decl, v, self, &Locals::default())?,
            None => v,
        };
        self.values.borrow_mut().insert(name.to_string(), v);
        Ok(())
    }

    pub(crate) fn eval(&self, e: &Expr, locals: &Locals) -> Result<Value, Unsupported> {
        Ok(match e {
            Expr::Int(n) => Value::Int(*n),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Name(name) => match locals.get(name) {
                Some(v) => v.clone(),
                None => self.global(name)?,
            },
            Expr::Array(items) => {
                let items = items.iter().map(|i| self.eval(i, locals)).collect::<Result<Vec<_>, _>>()?;
                Value::Array(vec![(1, items.len() as i64)], items)
            }
            Expr::Array2d(rows) => {
                let width = rows.first().map_or(0, Vec::len);
                if rows.iter().any(|r| r.len() != width) {
                    return fail("a 2d array literal with rows of different lengths");
                }
                let mut items = Vec::new();
                for row in rows {
                    for item in row {
                        items.push(self.eval(item, locals)?);
                    }
                }
                Value::Array(vec![(1, rows.len() as i64), (1, width as i64)], items)
            }
            Expr::Set(items) => {
                let mut elements = Vec::new();
                for item in items {
                    elements.push(int(&self.eval(item, locals)?)?);
                }
                set(elements)
            }
            Expr::Comprehension { body, generators, set: is_set } => {
                let mut items = Vec::new();
                self.generate(generators, body, locals, &mut items)?;
                if *is_set {
                    set(items.iter().map(int).collect::<Result<_, _>>()?)
                } else {
                    Value::Array(vec![(1, items.len() as i64)], items)
                }
            }
            Expr::Keyed { keys, body, generators } => {
                let mut pairs = Vec::new();
                let keyed = Expr::Array(keys.iter().cloned().chain([(**body).clone()]).collect());
                self.generate(generators, &keyed, locals, &mut pairs)?;
                keyed_array(keys.len(), pairs)?
            }
            Expr::Index(array, indices) => {
                let array = self.eval(array, locals)?;
                let indices = indices.iter().map(|i| int(&self.eval(i, locals)?)).collect::<Result<Vec<_>, _>>()?;
                index(&array, &indices)?
            }
            Expr::Call(name, args) => {
                let args = args.iter().map(|a| self.eval(a, locals)).collect::<Result<Vec<_>, _>>()?;
                super::builtins::call(name, &args)?
            }
            Expr::Unary(op, e) => match (*op, self.eval(e, locals)?) {
                ("-", Value::Int(n)) => Value::Int(n.checked_neg().ok_or_else(overflow)?),
                ("not", Value::Bool(b)) => Value::Bool(!b),
                (op, v) => return fail(format!("`{op}` of {v:?}")),
            },
            Expr::Binary(op, a, b) => {
                // `/\` and `\/` need their right side only when the left does not decide.
                if matches!(*op, "/\\" | "\\/") {
                    let left = boolean(&self.eval(a, locals)?)?;
                    if left == (*op == "\\/") {
                        return Ok(Value::Bool(left));
                    }
                    return Ok(Value::Bool(boolean(&self.eval(b, locals)?)?));
                }
                binary(op, self.eval(a, locals)?, self.eval(b, locals)?)?
            }
            Expr::If(branches, otherwise) => {
                for (condition, then) in branches {
                    if boolean(&self.eval(condition, locals)?)? {
                        return self.eval(then, locals);
                    }
                }
                self.eval(otherwise, locals)?
            }
            Expr::Let(decls, body) => {
                let mut inner = locals.clone();
                for decl in decls {
                    let Some(value) = &decl.value else { return fail("a `let` variable without a value") };
                    let v = self.eval(value, &inner)?;
                    let v = shaped(decl, v, self, &inner)?;
                    inner.bind(&decl.name, v);
                }
                self.eval(body, &inner)?
            }
        })
    }

    /// The body's values for every binding of the generators, in order.
    fn generate(
        &self,
        generators: &[Generator],
        body: &Expr,
        locals: &Locals,
        out: &mut Vec<Value>,
    ) -> Result<(), Unsupported> {
        let Some((first, rest)) = generators.split_first() else {
            out.push(self.eval(body, locals)?);
            return Ok(());
        };
        let values = match self.eval(&first.source, locals)? {
            Value::Set(elements) => elements.into_iter().map(Value::Int).collect(),
            Value::Array(_, items) => items,
            other => return fail(format!("a generator over {other:?}")),
        };
        self.bind_names(&first.names, &values, first, rest, body, locals, out)
    }

    /// `i, j in S`: every name runs over the values, the last fastest; the condition is
    /// tested once all of the generator's names are bound.
    #[allow(clippy::too_many_arguments, reason = "one level of the generators' recursion: its state, spelled out")]
    fn bind_names(
        &self,
        names: &[String],
        values: &[Value],
        generator: &Generator,
        rest: &[Generator],
        body: &Expr,
        locals: &Locals,
        out: &mut Vec<Value>,
    ) -> Result<(), Unsupported> {
        let Some((name, others)) = names.split_first() else {
            if let Some(condition) = &generator.condition {
                if !boolean(&self.eval(condition, locals)?)? {
                    return Ok(());
                }
            }
            return self.generate(rest, body, locals, out);
        };
        for v in values {
            let mut inner = locals.clone();
            inner.bind(name, v.clone());
            self.bind_names(others, values, generator, rest, body, &inner, out)?;
        }
        Ok(())
    }
}

/// The names a comprehension or a `let` binds, innermost last.
#[derive(Clone, Default)]
pub(crate) struct Locals(Vec<(String, Value)>);

impl Locals {
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    fn bind(&mut self, name: &str, v: Value) {
        self.0.push((name.to_string(), v));
    }
}

/// A value under its declaration's index sets: an array literal is indexed from 1 until
/// `array [0..n] of int: x = [...]` says otherwise.
fn shaped(decl: &Decl, v: Value, scope: &Scope, locals: &Locals) -> Result<Value, Unsupported> {
    let Some(sets) = &decl.index_sets else { return Ok(v) };
    let Value::Array(dims, items) = v else { return fail(format!("`{}` is declared an array", decl.name)) };
    if sets.len() != dims.len() && sets.iter().any(Option::is_none) {
        return fail(format!("`{}`: index sets that do not match its value", decl.name));
    }
    let mut new_dims = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        match set {
            None => new_dims.push(dims[i]),
            Some(e) => new_dims.push(range(&scope.eval(e, locals)?)?),
        }
    }
    let size: i64 = new_dims.iter().map(|(lo, hi)| (hi - lo + 1).max(0)).product();
    if size != items.len() as i64 {
        return fail(format!("`{}` has {} items for index sets of {size}", decl.name, items.len()));
    }
    Ok(Value::Array(new_dims, items))
}

/// An indexed comprehension's array from its `[key..., value]` items, generated in
/// row-major order over a full box of keys, as MiniZinc requires.
fn keyed_array(arity: usize, pairs: Vec<Value>) -> Result<Value, Unsupported> {
    let mut keys = Vec::new();
    let mut items = Vec::new();
    for pair in pairs {
        let Value::Array(_, mut parts) = pair else { return fail("an indexed comprehension's item") };
        let value = parts.pop().ok_or_else(|| Unsupported("an empty indexed item".into()))?;
        keys.push(parts.iter().map(int).collect::<Result<Vec<_>, _>>()?);
        items.push(value);
    }
    let dims: Vec<(i64, i64)> = (0..arity)
        .map(|d| {
            let lo = keys.iter().map(|k| k[d]).min().unwrap_or(1);
            let hi = keys.iter().map(|k| k[d]).max().unwrap_or(0);
            (lo, hi)
        })
        .collect();
    let mut expected = Vec::new();
    let mut key: Vec<i64> = dims.iter().map(|d| d.0).collect();
    if !keys.is_empty() {
        'all: loop {
            expected.push(key.clone());
            for d in (0..arity).rev() {
                if key[d] < dims[d].1 {
                    key[d] += 1;
                    continue 'all;
                }
                key[d] = dims[d].0;
            }
            break;
        }
    }
    if expected != keys {
        return fail("an indexed comprehension whose keys are not a box in order");
    }
    Ok(Value::Array(dims, items))
}

fn overflow() -> Unsupported {
    Unsupported("an integer overflow".into())
}

pub(crate) fn int(v: &Value) -> Result<i64, Unsupported> {
    match v {
        Value::Int(n) => Ok(*n),
        Value::Bool(b) => fail(format!("the Boolean {b} where an integer should be")),
        other => fail(format!("{other:?} where an integer should be")),
    }
}

pub(crate) fn boolean(v: &Value) -> Result<bool, Unsupported> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => fail(format!("{other:?} where a Boolean should be")),
    }
}

/// A set's bounds, when it is a range (index sets are).
pub(crate) fn range(v: &Value) -> Result<(i64, i64), Unsupported> {
    match v {
        Value::Set(e) if e.is_empty() => Ok((1, 0)),
        Value::Set(e) if e[e.len() - 1] - e[0] + 1 == e.len() as i64 => Ok((e[0], e[e.len() - 1])),
        other => fail(format!("{other:?} where a range should be")),
    }
}

pub(crate) fn set(mut elements: Vec<i64>) -> Value {
    elements.sort_unstable();
    elements.dedup();
    Value::Set(elements)
}

fn index(array: &Value, indices: &[i64]) -> Result<Value, Unsupported> {
    let Value::Array(dims, items) = array else { return fail(format!("indexing {array:?}")) };
    if dims.len() != indices.len() {
        return fail("an array indexed with another number of indices than its dimensions");
    }
    let mut offset = 0i64;
    for (&(lo, hi), &i) in dims.iter().zip(indices) {
        if i < lo || i > hi {
            return fail(format!("index {i} out of {lo}..{hi}"));
        }
        offset = offset * (hi - lo + 1) + (i - lo);
    }
    Ok(items[offset as usize].clone())
}

fn binary(op: &str, a: Value, b: Value) -> Result<Value, Unsupported> {
    use Value::*;
    Ok(match (op, a, b) {
        ("==" | "=", a, b) => Bool(a == b),
        ("!=", a, b) => Bool(a != b),
        ("<", Int(a), Int(b)) => Bool(a < b),
        ("<=", Int(a), Int(b)) => Bool(a <= b),
        (">", Int(a), Int(b)) => Bool(a > b),
        (">=", Int(a), Int(b)) => Bool(a >= b),
        ("<", Bool(a), Bool(b)) => Bool(!a & b),
        ("<=", Bool(a), Bool(b)) => Bool(a <= b),
        (">", Bool(a), Bool(b)) => Bool(a & !b),
        (">=", Bool(a), Bool(b)) => Bool(a >= b),
        ("<", Str(a), Str(b)) => Bool(a < b),
        ("<=", Str(a), Str(b)) => Bool(a <= b),
        (">", Str(a), Str(b)) => Bool(a > b),
        (">=", Str(a), Str(b)) => Bool(a >= b),
        ("->", Bool(a), Bool(b)) => Bool(!a || b),
        ("<-", Bool(a), Bool(b)) => Bool(a || !b),
        ("<->", Bool(a), Bool(b)) => Bool(a == b),
        ("+", Int(a), Int(b)) => Int(a.checked_add(b).ok_or_else(overflow)?),
        ("-", Int(a), Int(b)) => Int(a.checked_sub(b).ok_or_else(overflow)?),
        ("*", Int(a), Int(b)) => Int(a.checked_mul(b).ok_or_else(overflow)?),
        ("div", Int(a), Int(b)) => Int(a.checked_div(b).ok_or_else(|| Unsupported("a division by zero".into()))?),
        ("mod", Int(a), Int(b)) => Int(a.checked_rem(b).ok_or_else(|| Unsupported("a modulo by zero".into()))?),
        // Sets are held element by element: a range too wide for that is left to MiniZinc.
        ("..", Int(a), Int(b)) if b.saturating_sub(a) < 1 << 24 => Set((a..=b).collect()),
        ("in", Int(a), Set(s)) => Bool(s.binary_search(&a).is_ok()),
        ("++", Str(a), Str(b)) => Str(a + &b),
        ("++", Array(_, mut a), Array(_, b)) => {
            a.extend(b);
            Array(vec![(1, a.len() as i64)], a)
        }
        (op, a, b) => return fail(format!("`{op}` of {a:?} and {b:?}")),
    })
}
