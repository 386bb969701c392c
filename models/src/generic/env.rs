//! Names and what they stand for: `let` constants, arrays and sets, variables, arrays of
//! variables, set variables, enums, user functions, and the local names bound by
//! generators, `let … in` and calls.
//!
//! Declarations are global and must come before their use (the file is read top to
//! bottom, like a script). Local names live on a stack above them, so an inner name may
//! shadow an outer one and everything a loop or a `let` bound disappears when it ends. A
//! call opens a frame: its body sees its parameters and the globals only.

use std::collections::HashMap;
use std::rc::Rc;

use cpsolve_dsl::ast::{Expr, FunctionKind, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Val, VarId};

use super::errors::Result;
use super::linear::Lin;
use super::shape::Shape;

/// What a name stands for.
///
/// Globals are declared by `let`, `var`, `enum`, `predicate` and `function`; locals are bound
/// by generators (`Const`), by `let … in` definitions and by the parameters of a call, which
/// may stand for anything an expression can be: a constant, an integer expression over
/// variables (`Lin`), a condition kept as written (`Cond`), an array or list, a set.
#[derive(Debug, Clone)]
pub(crate) enum Entity {
    Const(i64),
    Var(VarId),
    /// An index into [`Env::arrays`].
    Array(usize),
    /// A list made in place (a `let` definition or a call's argument): its elements as
    /// linear forms, so that `x[i] + i` stays an offset and makes no new variable.
    List(Rc<List>),
    /// An integer expression over variables, as its linear form.
    Lin(Rc<Lin>),
    /// A condition over variables, compiled where it is used (so that `c` in
    /// `let c = x > 3 in c` posts `x > 3` itself, as the model written out would).
    Cond(Rc<Deferred>),
    /// A set of constants, sorted, without repeats.
    Set(Rc<Vec<i64>>),
    /// An index into [`Env::set_vars`].
    SetVar(usize),
    /// A list of set variables (indices into [`Env::set_vars`]), row-major.
    SetArray(Rc<SetArray>),
    /// An index into [`Env::enums`]: the enum's name stands for the set `1..n`.
    Enum(usize),
    /// A user predicate or function.
    Function(Rc<FunctionDef>),
    /// An enum's constructor, `J` of `enum Job = J(1..5)`.
    Constructor(Rc<super::enums::Constructor>),
    /// A name whose declaration failed (already reported): uses of it stay silent.
    Invalid,
}

/// A list made in place: its shape (indexed from 1 in each dimension) and elements.
#[derive(Debug, Clone)]
pub(crate) struct List {
    pub(crate) shape: Shape,
    pub(crate) elems: Vec<Lin>,
}

/// An array of set variables.
#[derive(Debug, Clone)]
pub(crate) struct SetArray {
    pub(crate) shape: Shape,
    pub(crate) sets: Vec<usize>,
}

/// A condition and the locals it may use, compiled when the name that stands for it is.
#[derive(Debug)]
pub(crate) struct Deferred {
    pub(crate) expr: Spanned<Expr>,
    pub(crate) scope: Vec<(String, Entity)>,
}

/// `predicate NAME(params) = body` or `function NAME(params) = body`.
#[derive(Debug)]
pub(crate) struct FunctionDef {
    pub(crate) kind: FunctionKind,
    pub(crate) name: Ident,
    pub(crate) params: Vec<Ident>,
    pub(crate) body: Spanned<Expr>,
}

/// A set variable: one 0/1 variable per value of its universe (`members[k]` is 1 when
/// `universe[k]` is in the set).
#[derive(Debug, Clone)]
pub(crate) struct SetVar {
    pub(crate) name: String,
    pub(crate) universe: Vec<Val>,
    pub(crate) members: Vec<VarId>,
}

/// `enum NAME = {a, b, c}`: the names of its values, which are 1, 2, 3.
#[derive(Debug, Clone)]
pub(crate) struct EnumDef {
    pub(crate) values: Vec<String>,
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
    /// Per dimension, the enum its index set is, if one is (`var pos[Person]`): the
    /// explanation names the cell `pos[ann]`. Empty when no dimension is.
    pub(crate) index_enums: Vec<Option<usize>>,
}

/// A user declaration, in the order of the file (which is the order of the output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decl {
    Scalar(VarId),
    Array(usize),
    SetVar(usize),
    SetArray { name: String, shape: Shape, sets: Vec<usize> },
}

#[derive(Debug, Default)]
pub(crate) struct Env {
    globals: HashMap<String, (Entity, Span)>,
    /// Local names (generators, `let … in`, parameters), innermost last.
    locals: Vec<(String, Entity)>,
    /// Where the locals of the current call start: a function body sees its parameters
    /// and the globals, not the locals of its caller.
    frame: usize,
    pub(crate) arrays: Vec<Array>,
    pub(crate) set_vars: Vec<SetVar>,
    pub(crate) enums: Vec<EnumDef>,
    pub(crate) decls: Vec<Decl>,
    /// The name of each declared scalar, for messages and output.
    scalar_names: HashMap<VarId, String>,
    /// The enum whose values a variable takes, for output by name.
    pub(crate) var_enums: HashMap<VarId, usize>,
}

/// What [`Env::enter`] saved, to be given back to [`Env::leave`].
#[derive(Debug)]
pub(crate) struct Frame {
    frame: usize,
    len: usize,
}

impl Env {
    pub(crate) fn lookup(&self, name: &str) -> Option<Entity> {
        if let Some((_, entity)) = self.locals[self.frame..].iter().rev().find(|(n, _)| n == name) {
            return Some(entity.clone());
        }
        self.globals.get(name).map(|(entity, _)| entity.clone())
    }

    /// The global meaning of a name, ignoring locals.
    pub(crate) fn lookup_global(&self, name: &str) -> Option<Entity> {
        self.globals.get(name).map(|(entity, _)| entity.clone())
    }

    /// Starts a new scope that sees only `bindings` and the globals (a call, or the
    /// locals a deferred condition was written among).
    pub(crate) fn enter(&mut self, bindings: Vec<(String, Entity)>) -> Frame {
        let saved = Frame { frame: self.frame, len: self.locals.len() };
        self.frame = self.locals.len();
        self.locals.extend(bindings);
        saved
    }

    /// Ends the scope [`Env::enter`] started.
    pub(crate) fn leave(&mut self, saved: Frame) {
        self.locals.truncate(saved.len);
        self.frame = saved.frame;
    }

    /// The locals visible now, outermost first (what a deferred condition captures).
    pub(crate) fn visible_locals(&self) -> Vec<(String, Entity)> {
        self.locals[self.frame..].to_vec()
    }

    pub(crate) fn locals_len(&self) -> usize {
        self.locals.len()
    }

    pub(crate) fn truncate_locals(&mut self, len: usize) {
        self.locals.truncate(len);
    }

    pub(crate) fn push_entity(&mut self, name: &str, entity: Entity) {
        self.locals.push((name.to_owned(), entity));
    }

    /// Declares a global name. A second declaration of the same name is an error.
    pub(crate) fn declare(&mut self, name: &Ident, entity: Entity) -> Result<()> {
        if self.globals.contains_key(&name.node) {
            let diagnostic = Diagnostic::new(format!("`{}` is declared twice", name.node), name.span.clone())
                .with_label("declared again here")
                .with_note("each name may be declared once, by `let`, `var`, `enum`, `predicate` or `function`");
            return Err(diagnostic.into());
        }
        match entity {
            Entity::Var(x) => {
                self.scalar_names.insert(x, name.node.clone());
                self.decls.push(Decl::Scalar(x));
            }
            Entity::Array(a) if self.arrays[a].values.is_none() => self.decls.push(Decl::Array(a)),
            Entity::SetVar(id) => self.decls.push(Decl::SetVar(id)),
            Entity::SetArray(ref sets) => self.decls.push(Decl::SetArray {
                name: name.node.clone(),
                shape: sets.shape.clone(),
                sets: sets.sets.clone(),
            }),
            _ => {}
        }
        self.globals.insert(name.node.clone(), (entity, name.span.clone()));
        Ok(())
    }

    pub(crate) fn push_local(&mut self, name: &str, value: i64) {
        self.locals.push((name.to_owned(), Entity::Const(value)));
    }

    /// The constant locals bound now (generator names, mostly), outermost first, with
    /// their values.
    pub(crate) fn bindings(&self) -> Vec<(String, i64)> {
        self.locals
            .iter()
            .filter_map(|(name, entity)| match entity {
                Entity::Const(v) => Some((name.clone(), *v)),
                _ => None,
            })
            .collect()
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
        super::errors::INTERMEDIATE.to_owned()
    }

    /// A cell's name as the model writes it: an index of an enum dimension by the enum's
    /// name (`pos[ann]`, where the output says `pos[1]`), others as numbers.
    pub(crate) fn cell_label(&self, array: &Array, offset: usize) -> String {
        let indices: Vec<String> = array
            .shape
            .indices(offset)
            .iter()
            .enumerate()
            .map(|(d, &i)| {
                let names = array.index_enums.get(d).copied().flatten().map(|id| &self.enums[id].values);
                match names {
                    Some(names) if i >= 1 && (i as usize) <= names.len() => names[i as usize - 1].clone(),
                    _ => i.to_string(),
                }
            })
            .collect();
        format!("{}[{}]", array.name, indices.join(","))
    }
}
