//! Names and what they stand for: `let` constants and arrays, variables, arrays of
//! variables, and the
//! names bound by `forall` and comprehension generators.
//!
//! Declarations are global and must come before their use (the file is read top to
//! bottom, like a script). Generator names live on a stack above them, so an inner
//! generator may shadow an outer name and everything it bound disappears when its loop ends.

use std::collections::HashMap;

use cpsolve_dsl::ast::{Ident, Span};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Val, VarId};

use super::errors::Result;
use super::shape::Shape;

/// What a name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entity {
    Const(i64),
    Var(VarId),
    /// An index into [`Env::arrays`].
    Array(usize),
    /// A name whose declaration failed (already reported): uses of it stay silent.
    Invalid,
}

/// A declared domain, kept to check `given` values against what the user wrote (the
/// solver's domains may already have been pruned by constraints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DomainSpec {
    Range(Val, Val),
    /// Sorted, without repeats, not empty.
    Set(Vec<Val>),
}

impl DomainSpec {
    pub(crate) fn contains(&self, v: Val) -> bool {
        match self {
            DomainSpec::Range(lo, hi) => (*lo..=*hi).contains(&v),
            DomainSpec::Set(values) => values.binary_search(&v).is_ok(),
        }
    }

    /// As the user would write it: `1..9`, `{1, 3, 5}`.
    pub(crate) fn show(&self) -> String {
        match self {
            DomainSpec::Range(lo, hi) => format!("{lo}..{hi}"),
            DomainSpec::Set(values) => {
                let values: Vec<String> = values.iter().map(Val::to_string).collect();
                format!("{{{}}}", values.join(", "))
            }
        }
    }
}

/// An array of variables.
#[derive(Debug, Clone)]
pub(crate) struct Array {
    pub(crate) name: String,
    pub(crate) shape: Shape,
    /// Row-major.
    pub(crate) cells: Vec<VarId>,
    pub(crate) domain: DomainSpec,
    /// A `let` array: its values (the cells are then fixed variables, used only by
    /// element constraints; the array is neither searched nor printed).
    pub(crate) values: Option<Vec<Val>>,
}

/// A user declaration, in the order of the file (which is the order of the output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decl {
    Scalar(VarId),
    Array(usize),
}

#[derive(Debug, Default)]
pub(crate) struct Env {
    globals: HashMap<String, (Entity, Span)>,
    /// Generator names, innermost last.
    locals: Vec<(String, i64)>,
    pub(crate) arrays: Vec<Array>,
    pub(crate) decls: Vec<Decl>,
    /// The name of each declared scalar, for messages and output.
    scalar_names: HashMap<VarId, String>,
}

impl Env {
    pub(crate) fn lookup(&self, name: &str) -> Option<Entity> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(Entity::Const(*v));
        }
        self.globals.get(name).map(|(entity, _)| *entity)
    }

    /// Declares a global name. A second declaration of the same name is an error.
    pub(crate) fn declare(&mut self, name: &Ident, entity: Entity) -> Result<()> {
        if self.globals.contains_key(&name.node) {
            let diagnostic = Diagnostic::new(format!("`{}` is declared twice", name.node), name.span.clone())
                .with_label("declared again here")
                .with_note("each name may be declared once, by `let` or `var`");
            return Err(diagnostic.into());
        }
        match entity {
            Entity::Var(x) => {
                self.scalar_names.insert(x, name.node.clone());
                self.decls.push(Decl::Scalar(x));
            }
            Entity::Array(a) if self.arrays[a].values.is_none() => self.decls.push(Decl::Array(a)),
            Entity::Array(_) => {}
            Entity::Const(_) | Entity::Invalid => {}
        }
        self.globals.insert(name.node.clone(), (entity, name.span.clone()));
        Ok(())
    }

    pub(crate) fn push_local(&mut self, name: &str, value: i64) {
        self.locals.push((name.to_owned(), value));
    }

    /// The generator names bound now, outermost first, with their values.
    pub(crate) fn bindings(&self) -> Vec<(String, i64)> {
        self.locals.clone()
    }

    pub(crate) fn pop_local(&mut self) {
        self.locals.pop();
    }

    pub(crate) fn scalar_name(&self, x: VarId) -> Option<&str> {
        self.scalar_names.get(&x).map(String::as_str)
    }

    /// A readable name for any variable: `S`, `q[3]`, or a description of an auxiliary.
    pub(crate) fn var_name(&self, x: VarId) -> String {
        if let Some(name) = self.scalar_name(x) {
            return name.to_owned();
        }
        for array in &self.arrays {
            if let Some(offset) = array.cells.iter().position(|&c| c == x) {
                return array.shape.cell_name(&array.name, offset);
            }
        }
        "an intermediate value".to_owned()
    }
}
