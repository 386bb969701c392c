//! `enum Colour = {red, green, blue}`: the names of the values stand for 1, 2, 3 (so they
//! compare in the order written, `red < green`), and `Colour` for the set `1..3`, usable as
//! a domain, an index set and a generator. A variable whose domain is an enum prints its
//! value by name.
//!
//! MiniZinc's constructors add a value per member of a set: `enum Job = J(1..3)` has the
//! values `J(1)`, `J(2)`, `J(3)` (1, 2, 3), and `J(k)` is a call that gives the value of
//! `k`; `_(1..n)` makes `n` anonymous values (printed `to_enum(Task,2)`, as MiniZinc does);
//! `++` joins parts, numbered on from the ones before. `enum_next(E, x)`,
//! `enum_prev(E, x)` and `to_enum(E, k)` are then `x + 1`, `x - 1` and `k`, defined where
//! they stay within `E` (MiniZinc's relational semantics: `partial.rs`).

use std::rc::Rc;

use cpsolve_dsl::ast::{EnumPart, Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::Val;

use super::env::{Entity, EnumDef};
use super::errors::{expected, Fault, Result};
use super::linear::Lin;
use super::Compiler;

/// The functions over enums.
pub(crate) const ENUM_FUNCTIONS: &[&str] = &["enum_next", "enum_prev", "to_enum"];

/// A constructor `C(S)`: the value of `C(v)` is `offset + k` for the `k`-th member `v`
/// of `S` (from 1).
#[derive(Debug)]
pub(crate) struct Constructor {
    pub(crate) name: String,
    pub(crate) offset: Val,
    /// Sorted, without repeats.
    pub(crate) members: Vec<Val>,
}

impl Compiler {
    pub(crate) fn declare_enum(&mut self, name: &Ident, parts: &[EnumPart]) -> Result<()> {
        let declared = self.enum_values(name, parts);
        if declared.is_err() {
            // Declared anyway (invalid), so that its uses stay silent.
            let _ = self.env.declare(name, Entity::Invalid);
        }
        declared
    }

    fn enum_values(&mut self, name: &Ident, parts: &[EnumPart]) -> Result<()> {
        let mut names: Vec<String> = Vec::new();
        // Declared after the enum itself, once its values are all known.
        let mut values: Vec<(&Ident, Entity)> = Vec::new();
        for part in parts {
            match part {
                EnumPart::Names(idents) => {
                    for ident in idents {
                        names.push(ident.node.clone());
                        values.push((ident, Entity::Const(names.len() as Val)));
                    }
                }
                EnumPart::Constructor { name: constructor, set } => {
                    let members = self.const_set(set)?;
                    let offset = names.len() as Val;
                    for (k, v) in members.iter().enumerate() {
                        names.push(if constructor.node == "_" {
                            format!("to_enum({},{})", name.node, offset + k as Val + 1)
                        } else {
                            format!("{}({v})", constructor.node)
                        });
                    }
                    if constructor.node != "_" {
                        let def = Constructor { name: constructor.node.clone(), offset, members };
                        values.push((constructor, Entity::Constructor(Rc::new(def))));
                    }
                }
            }
        }
        // A set, not a look back along the list: 100,000 names took 9.4 s to compare.
        let mut seen = std::collections::HashSet::with_capacity(values.len());
        for (value, _) in &values {
            if !seen.insert(value.node.as_str()) {
                let message = format!("`{}` is named twice in this enum", value.node);
                return Err(Diagnostic::new(message, value.span.clone()).into());
            }
        }
        let id = self.env.enums.len();
        self.env.enums.push(EnumDef { values: names });
        self.env.declare(name, Entity::Enum(id))?;
        for (value, entity) in values {
            self.env.declare(value, entity)?;
        }
        Ok(())
    }

    /// The enum a domain expression names, if it names one.
    pub(crate) fn enum_of_domain(&self, domain: &Spanned<Expr>) -> Option<usize> {
        match &domain.node {
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Enum(id)) => Some(id),
                _ => None,
            },
            _ => None,
        }
    }

    /// `C(k)`: the value of member `k` of the constructor's set.
    pub(crate) fn construct(&mut self, constructor: &Constructor, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        let [arg] = args else {
            let message = format!("the constructor `{}` takes one argument", constructor.name);
            return Err(Diagnostic::new(message, span.clone()).into());
        };
        let lin = self.linearize(arg)?;
        let members = &constructor.members;
        if let Some(v) = lin.as_constant(span)? {
            return match members.binary_search(&v) {
                Ok(k) => Ok(Lin::constant(constructor.offset + k as Val + 1)),
                Err(_) => Err(Fault::Undefined(Diagnostic::new(
                    format!("{v} is not in the set of the constructor `{}`", constructor.name),
                    arg.span.clone(),
                ))),
            };
        }
        let (Some(&lo), Some(&hi)) = (members.first(), members.last()) else {
            let message = format!("the set of the constructor `{}` has no member", constructor.name);
            return Err(Fault::Undefined(Diagnostic::new(message, span.clone())));
        };
        if hi - lo + 1 != members.len() as Val {
            return Err(super::errors::not_supported(
                "a constructor over a set with gaps applied to a variable",
                arg.span.clone(),
            )
            .into());
        }
        let inside = self.index_in_range(lin, lo, hi, &arg.span)?;
        inside.plus(Lin::constant(constructor.offset + 1 - lo), span)
    }

    /// `enum_next(E, x)`, `enum_prev(E, x)`, `to_enum(E, k)`, and MiniZinc's `enum_next(x)`,
    /// `enum_prev(x)`, whose enum is the type of `x`.
    pub(crate) fn enum_function(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        if let [x] = args {
            if function.node != "to_enum" {
                let id = self.enum_of_value(x).ok_or_else(|| {
                    let message = format!(
                        "`{}(x)` needs its enum named here: `{}(E, x)` (enums are not a type in `.puz`, and \
                         the model has {} of them)",
                        function.node,
                        function.node,
                        self.env.enums.len()
                    );
                    Diagnostic::new(message, span.clone())
                })?;
                let n = self.env.enums[id].values.len() as Val;
                return self.enum_step(function, n, x, span);
            }
        }
        let [set, x] = args else {
            let message = format!("`{}` takes the enum and a value: `{}(E, x)`", function.node, function.node);
            return Err(Diagnostic::new(message, span.clone()).into());
        };
        let n = match &set.node {
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Enum(id)) => self.env.enums[id].values.len() as Val,
                Some(Entity::Invalid) => return Err(Fault::Silent),
                _ => return Err(expected("an enum", &format!("`{name}`"), set.span.clone()).into()),
            },
            _ => return Err(expected("an enum", "an expression", set.span.clone()).into()),
        };
        self.enum_step(function, n, x, span)
    }

    /// The enum a value `x` of `enum_next(x)` belongs to: a variable declared over an enum,
    /// else the model's only enum (a value of any other type would be MiniZinc's type error).
    fn enum_of_value(&self, x: &Spanned<Expr>) -> Option<usize> {
        if let Expr::Name(name) = &x.node {
            if let Some(Entity::Var(v)) = self.env.lookup(name) {
                if let Some(&id) = self.env.var_enums.get(&v) {
                    return Some(id);
                }
            }
        }
        (self.env.enums.len() == 1).then_some(0)
    }

    /// `x` moved by one within the enum's values `1..n` (`to_enum`: checked in range).
    fn enum_step(&mut self, function: &Ident, n: Val, x: &Spanned<Expr>, span: &Span) -> Result<Lin> {
        // The values `x` may have, and what is added to it.
        let (lo, hi, step) = match function.node.as_str() {
            "enum_next" => (1, n - 1, 1),
            "enum_prev" => (2, n, -1),
            _ => (1, n, 0),
        };
        let lin = self.linearize(x)?;
        if let Some(v) = lin.as_constant(span)? {
            if !(lo..=hi).contains(&v) {
                let message = format!("`{}` of {v} has no value: the enum has the values 1..{n}", function.node);
                return Err(Fault::Undefined(Diagnostic::new(message, span.clone())));
            }
            return Ok(Lin::constant(v + step));
        }
        let inside = self.index_in_range(lin, lo, hi, &x.span)?;
        inside.plus(Lin::constant(step), span)
    }
}
