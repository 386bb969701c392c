//! Sets: constant sets (`{1, 3, 5}`, `1..n`, a named set, an enum, `index_set(x)`) and set
//! variables (`var s in set of 1..n`), with MiniZinc's operators and globals.
//!
//! A set variable is its characteristic function: one 0/1 variable per value of its
//! universe (the `set of` domain), 1 when the value is in the set. Every set expression is
//! then a universe and, for each of its values, the *truth* of its membership: a constant
//! for a constant set, a 0/1 variable for a set variable, and for `a union b` the truth of
//! `u ∈ a ∨ u ∈ b` (made by the same connectives as any condition, which fold constants).
//! So `card(s)` is the sum of the truths, `s subset t` is `sᵤ ≤ tᵤ` for each value,
//! `all_disjoint(S)` is `Σᵢ Sᵢᵤ ≤ 1`: linear constraints over 0/1 variables, which is how
//! MiniZinc's own decomposition for solvers without sets (`nosets.mzn`) compiles them too,
//! and how Gecode's set bounds reasoning prunes on such small universes.

use std::collections::BTreeMap;
use std::rc::Rc;

use cpsolve_dsl::ast::{BinaryOp, Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{constraints, Rel, Val};

use super::env::{Entity, SetArray, SetVar};
use super::errors::{expected, model_error, not_supported, Fault, Result};
use super::linear::Lin;
use super::reify::not;
use super::shape::Shape;
use super::Compiler;

/// The set globals, MiniZinc's names.
pub(crate) const SET_GLOBALS: &[&str] = &["all_disjoint", "disjoint", "partition_set"];

/// Functions whose value is a set: `index_set(a)` of a 1-d array, and MiniZinc's
/// `index_set_KofN(a)`, the K-th index set of an N-d array (N up to 6, as `array6d`).
pub(crate) const SET_FUNCTIONS: &[&str] = &[
    "index_set",
    "index_set_1of2",
    "index_set_2of2",
    "index_set_1of3",
    "index_set_2of3",
    "index_set_3of3",
    "index_set_1of4",
    "index_set_2of4",
    "index_set_3of4",
    "index_set_4of4",
    "index_set_1of5",
    "index_set_2of5",
    "index_set_3of5",
    "index_set_4of5",
    "index_set_5of5",
    "index_set_1of6",
    "index_set_2of6",
    "index_set_3of6",
    "index_set_4of6",
    "index_set_5of6",
    "index_set_6of6",
];

/// Which dimension an index-set function reads, of how many: `index_set` is 1 of 1,
/// `index_set_2of3` 2 of 3.
fn index_set_dimension(name: &str) -> Option<(usize, usize)> {
    if name == "index_set" {
        return Some((1, 1));
    }
    let (k, n) = name.strip_prefix("index_set_")?.split_once("of")?;
    Some((k.parse().ok()?, n.parse().ok()?))
}

/// The most values a constant set or a set variable's universe may hold.
const MAX_SET_VALUES: i128 = 1 << 20;

/// A set expression: its universe (sorted) and the truth of each value's membership.
#[derive(Debug, Clone)]
pub(crate) struct SetVal {
    universe: Vec<Val>,
    members: Vec<Lin>,
}

impl SetVal {
    fn constant(values: Vec<Val>) -> SetVal {
        let members = vec![Lin::constant(1); values.len()];
        SetVal { universe: values, members }
    }

    /// The truth of `u ∈ self` (0 outside the universe).
    fn member(&self, u: Val) -> Lin {
        match self.universe.binary_search(&u) {
            Ok(k) => self.members[k].clone(),
            Err(_) => Lin::constant(0),
        }
    }
}

/// The values of two universes, merged.
fn merged(a: &[Val], b: &[Val]) -> Vec<Val> {
    let mut all: Vec<Val> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

impl Compiler {
    /// Whether an expression denotes a set (as far as its form and names tell).
    pub(crate) fn is_set_expr(&self, expr: &Spanned<Expr>) -> bool {
        match &expr.node {
            Expr::Set(_) | Expr::Range { .. } => true,
            Expr::Binary { op, .. } => {
                matches!(op, BinaryOp::Union | BinaryOp::Intersect | BinaryOp::Diff | BinaryOp::Symdiff)
            }
            Expr::Name(name) => {
                matches!(self.env.lookup(name), Some(Entity::Set(_) | Entity::SetVar(_) | Entity::Enum(_)))
            }
            Expr::Index { array, .. } => matches!(self.env.lookup(&array.node), Some(Entity::SetArray(_))),
            Expr::Call { function, .. } => match self.env.lookup(&function.node) {
                Some(Entity::Function(def)) => self.peek_body(|| self.is_set_expr(&def.body)),
                _ => SET_FUNCTIONS.contains(&function.node.as_str()),
            },
            Expr::Let { body, .. } => self.is_set_expr(body),
            Expr::If { branches, .. } => branches.first().is_some_and(|(_, value)| self.is_set_expr(value)),
            _ => false,
        }
    }

    /// The values of a constant set expression, sorted, without repeats.
    pub(crate) fn const_set(&mut self, expr: &Spanned<Expr>) -> Result<Vec<Val>> {
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.const_set(e)) {
            return result;
        }
        match &expr.node {
            Expr::Range { lo, hi } => {
                let (lo, hi) = (self.eval_int(lo)?, self.eval_int(hi)?);
                if i128::from(hi) - i128::from(lo) >= MAX_SET_VALUES {
                    let message = format!("the set {lo}..{hi} is too large to list (more than 2^20 values)");
                    return Err(Diagnostic::new(message, expr.span.clone()).into());
                }
                Ok((lo..=hi).collect())
            }
            Expr::Set(items) => self.eval_set(items),
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Set(values)) => Ok((*values).clone()),
                Some(Entity::Enum(id)) => Ok((1..=self.env.enums[id].values.len() as Val).collect()),
                Some(Entity::Invalid) => Err(Fault::Silent),
                _ => self.const_of_set_val(expr),
            },
            Expr::Binary { op, lhs, rhs } if self.is_set_expr(expr) => {
                let (a, b) = (self.const_set(lhs)?, self.const_set(rhs)?);
                let contains = |s: &[Val], v: &Val| s.binary_search(v).is_ok();
                Ok(match op {
                    BinaryOp::Union => merged(&a, &b),
                    BinaryOp::Intersect => a.into_iter().filter(|v| contains(&b, v)).collect(),
                    BinaryOp::Diff => a.into_iter().filter(|v| !contains(&b, v)).collect(),
                    _ => merged(&a, &b).into_iter().filter(|v| contains(&a, v) != contains(&b, v)).collect(),
                })
            }
            Expr::Call { function, args } if SET_FUNCTIONS.contains(&function.node.as_str()) => {
                self.index_set(function, args, &expr.span)
            }
            _ => self.const_of_set_val(expr),
        }
    }

    /// A set expression that must be constant.
    fn const_of_set_val(&mut self, expr: &Spanned<Expr>) -> Result<Vec<Val>> {
        let set = self.set_val(expr)?;
        let mut values = Vec::new();
        for (u, member) in set.universe.iter().zip(&set.members) {
            match member.as_constant(&expr.span)? {
                Some(0) => {}
                Some(_) => values.push(*u),
                None => {
                    return Err(Diagnostic::new(
                        "expected a constant set, but this depends on a set variable",
                        expr.span.clone(),
                    )
                    .with_label("must be known before solving")
                    .into())
                }
            }
        }
        Ok(values)
    }

    /// `index_set(a)`: the index range of a 1-d array or list; `index_set_KofN(a)` the
    /// range of dimension K of an N-d one. Constants, even when `a` holds variables.
    fn index_set(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<Vec<Val>> {
        let name = function.node.as_str();
        let (k, n) = index_set_dimension(name).unwrap_or((1, 1));
        let [array] = args else {
            return Err(Diagnostic::new(format!("`{name}` takes one array"), span.clone()).into());
        };
        let shape = match &array.node {
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Array(id)) => Some(self.env.arrays[id].shape.clone()),
                Some(Entity::List(list)) => Some(list.shape.clone()),
                Some(Entity::SetArray(sets)) => Some(sets.shape.clone()),
                Some(Entity::Invalid) => return Err(Fault::Silent),
                _ => None,
            },
            _ => None,
        };
        let shape = match shape {
            Some(shape) => shape,
            // A list written in place or coerced (`array2d(…)`) has the shape its
            // elements give it.
            None if self.is_list(array) => self.nested_list(array)?.0,
            None => return Err(expected("an array", "a single value", array.span.clone()).into()),
        };
        if shape.dims.len() != n {
            let dims = shape.dims.len();
            let message = format!(
                "`{name}` takes an array of {n} dimension{}, but this one has {dims}",
                if n == 1 { "" } else { "s" }
            );
            let mut diagnostic = Diagnostic::new(message, array.span.clone());
            if dims > 1 {
                diagnostic = diagnostic.with_note(format!("use `index_set_1of{dims}` … `index_set_{dims}of{dims}`"));
            }
            return Err(diagnostic.into());
        }
        let (lo, hi) = shape.dims[k - 1];
        Ok((lo..=hi).collect())
    }

    /// Any set expression, constant or over set variables.
    fn set_val(&mut self, expr: &Spanned<Expr>) -> Result<SetVal> {
        if let Some(result) = self.unfold(expr, &mut |cx, e| cx.set_val(e)) {
            return result;
        }
        let span = &expr.span;
        match &expr.node {
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::SetVar(id)) => Ok(self.set_var_val(id)),
                Some(Entity::Set(_) | Entity::Enum(_)) => Ok(SetVal::constant(self.const_set(expr)?)),
                Some(Entity::Invalid) => Err(Fault::Silent),
                _ => Err(expected("a set", &format!("`{name}`"), span.clone()).into()),
            },
            Expr::Index { array, indices } => {
                let Some(Entity::SetArray(sets)) = self.env.lookup(&array.node) else {
                    return Err(expected("a set", "an integer expression", span.clone()).into());
                };
                if indices.iter().any(|i| self.mentions_var(i)) {
                    return self.set_at_variable_index(&array.node, &sets, indices, span);
                }
                let mut values = Vec::with_capacity(indices.len());
                for index in indices {
                    values.push(self.eval_int(index)?);
                }
                let dims = sets.shape.dims.len();
                if values.len() != dims {
                    let message = format!(
                        "`{}` has {dims} dimension{}, but {} {} given",
                        array.node,
                        if dims == 1 { "" } else { "s" },
                        values.len(),
                        if values.len() == 1 { "index is" } else { "indices are" }
                    );
                    return Err(Diagnostic::new(message, span.clone()).into());
                }
                match sets.shape.offset(&values) {
                    Ok(offset) => Ok(self.set_var_val(sets.sets[offset])),
                    Err(super::shape::BadIndex::OutOfRange(d)) => {
                        let (lo, hi) = sets.shape.dims[d];
                        let message =
                            format!("index {} is out of range: `{}` is indexed by {lo}..{hi}", values[d], array.node);
                        Err(Fault::Undefined(
                            Diagnostic::new(message, indices[d].span.clone()).with_label("out of range"),
                        ))
                    }
                }
            }
            Expr::Binary { op, lhs, rhs } if self.is_set_expr(expr) => {
                let (a, b) = (self.set_val(lhs)?, self.set_val(rhs)?);
                let universe = match op {
                    BinaryOp::Intersect => {
                        a.universe.iter().copied().filter(|u| b.universe.binary_search(u).is_ok()).collect()
                    }
                    BinaryOp::Diff => a.universe.clone(),
                    _ => merged(&a.universe, &b.universe),
                };
                let mut members = Vec::with_capacity(universe.len());
                for &u in &universe {
                    let (x, y) = (a.member(u), b.member(u));
                    members.push(match op {
                        BinaryOp::Union => self.disjunction(x, y, span)?,
                        BinaryOp::Intersect => self.conjunction(x, y, span)?,
                        BinaryOp::Diff => {
                            let not_y = not(y, span)?;
                            self.conjunction(x, not_y, span)?
                        }
                        _ => self.reified(&x.minus(y, span)?, Rel::Ne, span)?,
                    });
                }
                Ok(SetVal { universe, members })
            }
            Expr::Set(items) if items.iter().any(|item| self.mentions_var(item)) => self.set_of_values(items, span),
            // Only the forms `const_set` lists itself go back to it: any other would come
            // back here through its own fallback, without end.
            Expr::Set(_) | Expr::Range { .. } => Ok(SetVal::constant(self.const_set(expr)?)),
            Expr::Call { function, .. } if SET_FUNCTIONS.contains(&function.node.as_str()) => {
                Ok(SetVal::constant(self.const_set(expr)?))
            }
            _ => Err(expected("a set", "an integer expression", span.clone()).into()),
        }
    }

    /// `S[k]` for an array of sets and a variable `k`: each value's membership is an
    /// element constraint over that value's memberships in the sets of the array.
    fn set_at_variable_index(
        &mut self,
        name: &str,
        sets: &SetArray,
        indices: &[Spanned<Expr>],
        span: &Span,
    ) -> Result<SetVal> {
        if indices.len() != sets.shape.dims.len() {
            let message =
                format!("`{name}` has {} dimensions, but {} indices are given", sets.shape.dims.len(), indices.len());
            return Err(Diagnostic::new(message, span.clone()).into());
        }
        let universe = sets.sets.first().map(|&id| self.env.set_vars[id].universe.clone()).unwrap_or_default();
        if sets.sets.is_empty() || sets.sets.iter().any(|&id| self.env.set_vars[id].universe != universe) {
            return Err(not_supported(
                "an array of sets over different universes read at a variable index",
                span.clone(),
            )
            .into());
        }
        let mut position = Lin::default();
        for (index, &(lo, hi)) in indices.iter().zip(&sets.shape.dims.clone()) {
            let lin = self.linearize(index)?;
            let lin = self.index_in_range(lin, lo, hi, &index.span)?;
            position = position.times(hi - lo + 1, span)?.plus(lin.minus(Lin::constant(lo), span)?, span)?;
        }
        let mut members = Vec::with_capacity(universe.len());
        for k in 0..universe.len() {
            let cells: Vec<_> = sets.sets.iter().map(|&id| self.env.set_vars[id].members[k]).collect();
            members.push(self.element(&cells, &position, span)?);
        }
        Ok(SetVal { universe, members })
    }

    /// `{x, y}` with variables: `u` is in the set when some element equals it.
    fn set_of_values(&mut self, items: &[Spanned<Expr>], span: &Span) -> Result<SetVal> {
        let mut values = Vec::with_capacity(items.len());
        let mut universe = Vec::new();
        for item in items {
            let lin = self.linearize(item)?;
            let x = self.var_of(&lin, &item.span)?;
            if self.solver.size(x) > MAX_SET_VALUES as u64 {
                return Err(
                    Diagnostic::new("this element ranges over too many values for a set", item.span.clone()).into()
                );
            }
            universe.extend(self.solver.values(x));
            values.push(Lin::var(x));
        }
        universe.sort_unstable();
        universe.dedup();
        let mut members = Vec::with_capacity(universe.len());
        for &u in &universe {
            let mut some = Lin::default();
            for value in &values {
                let equal = self.reified(&value.clone().minus(Lin::constant(u), span)?, Rel::Eq, span)?;
                some = some.plus(equal, span)?;
            }
            members.push(self.reified(&some.minus(Lin::constant(1), span)?, Rel::Ge, span)?);
        }
        Ok(SetVal { universe, members })
    }

    fn set_var_val(&self, id: usize) -> SetVal {
        let set = &self.env.set_vars[id];
        SetVal { universe: set.universe.clone(), members: set.members.iter().map(|&b| Lin::var(b)).collect() }
    }

    /// What a name bound to a set expression stands for: the constant set, or a set
    /// variable equal to the expression.
    pub(crate) fn set_entity(&mut self, expr: &Spanned<Expr>) -> Result<Entity> {
        if !self.mentions_var(expr) {
            return Ok(Entity::Set(Rc::new(self.const_set(expr)?)));
        }
        let set = self.set_val(expr)?;
        let mut members = Vec::with_capacity(set.members.len());
        for truth in &set.members {
            members.push(self.var_of(truth, &expr.span)?);
        }
        let id = self.env.set_vars.len();
        self.env.set_vars.push(SetVar { name: "a set".to_owned(), universe: set.universe, members });
        Ok(Entity::SetVar(id))
    }

    /// A new set variable over `universe`.
    pub(crate) fn new_set_var(&mut self, name: String, universe: &[Val], span: &Span) -> Result<usize> {
        let mut members = Vec::with_capacity(universe.len());
        for _ in universe {
            members.push(self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?);
        }
        let id = self.env.set_vars.len();
        self.env.set_vars.push(SetVar { name, universe: universe.to_vec(), members });
        Ok(id)
    }

    /// `var s in set of U` or `var S[1..k] in set of U`.
    pub(crate) fn declare_set_vars(
        &mut self,
        name: &Ident,
        dims: Option<Shape>,
        universe: &Spanned<Expr>,
    ) -> Result<Entity> {
        let values = self.const_set(universe)?;
        if values.len() as i128 > MAX_SET_VALUES {
            return Err(Diagnostic::new("the universe of this set is too large", universe.span.clone()).into());
        }
        let Some(shape) = dims else {
            return Ok(Entity::SetVar(self.new_set_var(name.node.clone(), &values, &universe.span)?));
        };
        let count = shape.len().unwrap_or(u64::MAX);
        if count.saturating_mul(values.len() as u64) > 1 << 20 {
            let message = format!("array `{}` of sets is too large (at most 2^20 members in all)", name.node);
            return Err(Diagnostic::new(message, name.span.clone()).into());
        }
        let mut sets = Vec::with_capacity(count as usize);
        for offset in 0..count as usize {
            sets.push(self.new_set_var(shape.cell_name(&name.node, offset), &values, &universe.span)?);
        }
        Ok(Entity::SetArray(Rc::new(SetArray { shape, sets })))
    }

    /// `card(s)`: the sum of the membership truths.
    pub(crate) fn cardinality(&mut self, set: &Spanned<Expr>) -> Result<Lin> {
        if !self.is_set_expr(set) {
            return Err(expected("a set", "something else", set.span.clone()).into());
        }
        let set = self.set_val(set)?;
        let mut total = Lin::default();
        for member in set.members {
            total = total.plus(member, &Span::default())?;
        }
        Ok(total)
    }

    /// `min(s)` / `max(s)` of a set (undefined when it is empty).
    pub(crate) fn set_extremum(&mut self, set_expr: &Spanned<Expr>, is_max: bool, span: &Span) -> Result<Lin> {
        if !self.mentions_var(set_expr) {
            let values = self.const_set(set_expr)?;
            let best = if is_max { values.last() } else { values.first() };
            return match best {
                Some(&v) => Ok(Lin::constant(v)),
                None => Err(Fault::Undefined(Diagnostic::new("the extremum of an empty set", span.clone()))),
            };
        }
        let set = self.set_val(set_expr)?;
        let (Some(&first), Some(&last)) = (set.universe.first(), set.universe.last()) else {
            return Err(Fault::Undefined(Diagnostic::new("the extremum of an empty set", span.clone())));
        };
        // Defined when the set is not empty.
        let mut card = Lin::default();
        for member in &set.members {
            card = card.plus(member.clone(), span)?;
        }
        let nonempty = self.reified(&card.minus(Lin::constant(1), span)?, Rel::Ge, span)?;
        self.require(nonempty.clone(), span)?;
        // m is a member, and no member lies beyond it: for a minimum, uᵢ ∈ s → m ≤ uᵢ,
        // i.e. m + (last − uᵢ)·sᵢ ≤ last (and the mirror image for a maximum).
        let position =
            self.solver.new_var(0, set.universe.len() as Val - 1).map_err(|e| model_error(&e, span.clone()))?;
        let mut values = Vec::with_capacity(set.universe.len());
        for &u in &set.universe {
            values.push(self.solver.new_var(u, u).map_err(|e| model_error(&e, span.clone()))?);
        }
        let m = self.aux_var(first.into(), last.into(), span)?;
        constraints::element(&mut self.solver, position, &values, m);
        let mut member_vars = Vec::with_capacity(set.members.len());
        for member in &set.members {
            member_vars.push(self.var_of(member, span)?);
        }
        let chosen = self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?;
        constraints::element(&mut self.solver, position, &member_vars, chosen);
        for (&u, &b) in set.universe.iter().zip(&member_vars) {
            let terms = if is_max {
                // b → m ≥ u: m − (u − first)·b ≥ first
                Lin::var(m).minus(Lin::var(b).times(u - first, span)?, span)?
            } else {
                Lin::var(m).plus(Lin::var(b).times(last - u, span)?, span)?
            };
            if is_max {
                self.post_lin(&terms, Rel::Ge, first, span)?;
            } else {
                self.post_lin(&terms, Rel::Le, last, span)?;
            }
        }
        // m is a member where the set is not empty (where it is empty, the enclosing
        // condition is false and nothing is asked of m).
        let empty = not(nonempty, span)?;
        self.post_lin(&Lin::var(chosen).plus(empty.clone(), span)?, Rel::Ge, 1, span)?;
        // Where the set is empty, the position is 0, so that it adds no solutions.
        let first_position = self.reified(&Lin::var(position), Rel::Eq, span)?;
        self.post_lin(&first_position.minus(empty, span)?, Rel::Ge, 0, span)?;
        Ok(Lin::var(m))
    }

    /// The truth of `x in S`.
    pub(crate) fn membership_truth(&mut self, x: &Spanned<Expr>, set: &Spanned<Expr>, span: &Span) -> Result<Lin> {
        if !self.is_set_expr(set) && !self.is_list(set) {
            return Err(expected("a set after `in`", "a single value", set.span.clone())
                .with_note("in `let NAME = VALUE in BODY`, a membership test as the value is written in parentheses: `let b = (x in S) in …`")
                .into());
        }
        let value = self.linearize(x)?;
        if self.mentions_var(set) {
            let set = self.set_val(set)?;
            if let Some(v) = value.as_constant(span)? {
                return Ok(set.member(v));
            }
            // Σᵤ (x = u ∧ u ∈ S): the terms exclude each other.
            let mut total = Lin::default();
            for (&u, member) in set.universe.iter().zip(&set.members) {
                let equal = self.reified(&value.clone().minus(Lin::constant(u), span)?, Rel::Eq, span)?;
                let both = self.conjunction(equal, member.clone(), span)?;
                total = total.plus(both, span)?;
            }
            return Ok(total);
        }
        let values = if self.is_set_expr(set) { self.const_set(set)? } else { self.set_of(set)? };
        if let Some(v) = value.as_constant(span)? {
            return Ok(Lin::constant(i64::from(values.binary_search(&v).is_ok())));
        }
        let x = self.var_of(&value, span)?;
        let b = self.new_bool(span)?;
        constraints::reified_in(&mut self.solver, b, x, &values, false);
        Ok(Lin::var(b))
    }

    /// Posts `x in S` (`holds`) or `not (x in S)`.
    pub(crate) fn post_membership(
        &mut self,
        x: &Spanned<Expr>,
        set: &Spanned<Expr>,
        holds: bool,
        span: &Span,
    ) -> Result<()> {
        if !self.mentions_var(set) && (self.is_set_expr(set) || self.is_list(set)) {
            let value = self.linearize(x)?;
            let values = if self.is_set_expr(set) { self.const_set(set)? } else { self.set_of(set)? };
            // A range of values is two bounds.
            let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
                if holds {
                    self.solver.fail();
                }
                return Ok(());
            };
            if holds && hi - lo + 1 == values.len() as Val {
                self.post_lin(&value, Rel::Ge, lo, span)?;
                return self.post_lin(&value, Rel::Le, hi, span);
            }
            let x = self.var_of(&value, span)?;
            let b =
                self.solver.new_var(i64::from(holds), i64::from(holds)).map_err(|e| model_error(&e, span.clone()))?;
            constraints::reified_in(&mut self.solver, b, x, &values, false);
            return Ok(());
        }
        let t = self.membership_truth(x, set, span)?;
        self.post_lin(&t, Rel::Eq, i64::from(holds), span)
    }

    /// The relation between two sets as a list of linear relations over truths, all of
    /// which hold when the sets are equal, or the one is a subset of the other.
    fn set_relation_parts(
        &mut self,
        op: BinaryOp,
        lhs: &Spanned<Expr>,
        rhs: &Spanned<Expr>,
        span: &Span,
    ) -> Result<Vec<(Lin, Rel)>> {
        for side in [lhs, rhs] {
            if !self.is_set_expr(side) {
                return Err(expected("a set on each side", "something else", side.span.clone()).into());
            }
        }
        let (a, b) = (self.set_val(lhs)?, self.set_val(rhs)?);
        let (a, b) = if op == BinaryOp::Superset { (b, a) } else { (a, b) };
        let rel = if matches!(op, BinaryOp::Subset | BinaryOp::Superset) { Rel::Le } else { Rel::Eq };
        let mut parts = Vec::new();
        for u in merged(&a.universe, &b.universe) {
            parts.push((a.member(u).minus(b.member(u), span)?, rel));
        }
        Ok(parts)
    }

    /// The truth of `a == b`, `a != b`, `a subset b`, `a superset b` over sets.
    pub(crate) fn set_relation_truth(
        &mut self,
        op: BinaryOp,
        lhs: &Spanned<Expr>,
        rhs: &Spanned<Expr>,
        span: &Span,
    ) -> Result<Lin> {
        let parts = self.set_relation_parts(op, lhs, rhs, span)?;
        let mut truths = Vec::with_capacity(parts.len());
        for (lin, rel) in parts {
            truths.push((self.reified(&lin, rel, span)?, span.clone()));
        }
        let all = self.list_truth("forall", truths, span)?;
        if op == BinaryOp::Ne {
            return not(all, span);
        }
        Ok(all)
    }

    /// Posts `a == b`, `a != b`, `a subset b` or `a superset b` over sets.
    pub(crate) fn post_set_relation(
        &mut self,
        op: BinaryOp,
        lhs: &Spanned<Expr>,
        rhs: &Spanned<Expr>,
        span: &Span,
    ) -> Result<()> {
        if op == BinaryOp::Ne {
            let t = self.set_relation_truth(op, lhs, rhs, span)?;
            return self.post_lin(&t, Rel::Eq, 1, span);
        }
        for (lin, rel) in self.set_relation_parts(op, lhs, rhs, span)? {
            self.post_lin(&lin, rel, 0, span)?;
        }
        Ok(())
    }

    /// The sets of a list argument: an array of set variables, or a list of set expressions.
    fn set_list(&mut self, arg: &Spanned<Expr>) -> Result<Vec<SetVal>> {
        if let Expr::Name(name) = &arg.node {
            if let Some(Entity::SetArray(sets)) = self.env.lookup(name) {
                return Ok(sets.sets.iter().map(|&id| self.set_var_val(id)).collect());
            }
        }
        let mut out = Vec::new();
        match &arg.node {
            Expr::List(items) => {
                for item in items {
                    out.push(self.set_val(item)?);
                }
            }
            Expr::Comprehension { element, generators } => {
                self.for_each_binding(generators, &mut |cx| {
                    out.push(cx.set_val(element)?);
                    Ok(())
                })?;
            }
            _ => return Err(expected("a list of sets", "something else", arg.span.clone()).into()),
        }
        Ok(out)
    }

    /// The membership truths of a list of sets, set by set, each in its universe's order
    /// (what `set_search` branches on); members known already are left out.
    pub(crate) fn set_members(&mut self, arg: &Spanned<Expr>) -> Result<Vec<Vec<Lin>>> {
        let sets = self.set_list(arg)?;
        let mut out = Vec::with_capacity(sets.len());
        for set in sets {
            let mut members = Vec::with_capacity(set.members.len());
            for lin in set.members {
                if lin.as_constant(&arg.span)?.is_none() {
                    members.push(lin);
                }
            }
            out.push(members);
        }
        Ok(out)
    }

    /// Whether a list argument is a list of sets (`S` an array of set variables, or a
    /// list whose first element is a set).
    pub(crate) fn is_set_list(&self, arg: &Spanned<Expr>) -> bool {
        match &arg.node {
            Expr::Name(name) => matches!(self.env.lookup(name), Some(Entity::SetArray(_))),
            Expr::List(items) => items.first().is_some_and(|item| self.is_set_expr(item)),
            Expr::Comprehension { element, .. } => self.is_set_expr(element),
            _ => false,
        }
    }

    /// `increasing(S)` (`decreasing(S)`: `descending`) over sets, in MiniZinc's order of
    /// sets: their sorted members compared lexicographically, a proper prefix first
    /// (`{} < {1} < {1, 2} < {1, 3} < {2}`).
    pub(crate) fn post_set_chain(&mut self, list: &Spanned<Expr>, descending: bool, span: &Span) -> Result<()> {
        let sets = self.set_list(list)?;
        for pair in sets.windows(2) {
            let (a, b) = if descending { (&pair[1], &pair[0]) } else { (&pair[0], &pair[1]) };
            let le = self.set_le(a, b, span)?;
            self.post_lin(&le, Rel::Eq, 1, span)?;
        }
        Ok(())
    }

    /// The truth of `x ≤ y` in the order of sets, as MiniZinc's decomposition for solvers
    /// without sets builds it (`set_le` of std/nosets.mzn): from the greatest value of the
    /// universe down, `le` is the order of the parts of `x` and `y` from that value up,
    /// given they agree below it. Where only `x` has the value, `x` is smaller exactly when
    /// `y` has a greater one (else `y` is a prefix of `x`); where only `y` has it, when `x`
    /// has no greater one.
    fn set_le(&mut self, x: &SetVal, y: &SetVal, span: &Span) -> Result<Lin> {
        let universe = merged(&x.universe, &y.universe);
        let mut le = Lin::constant(1);
        let (mut x_above, mut y_above) = (Lin::constant(0), Lin::constant(0));
        for &u in universe.iter().rev() {
            let (xu, yu) = (x.member(u), y.member(u));
            let (not_xu, not_yu) = (not(xu.clone(), span)?, not(yu.clone(), span)?);
            // The four cases exclude each other: their sum is the truth.
            let both = self.conjunction(xu.clone(), yu.clone(), span)?;
            let neither = self.conjunction(not_xu.clone(), not_yu.clone(), span)?;
            let same = both.plus(neither, span)?;
            let x_only = self.conjunction(xu.clone(), not_yu, span)?;
            let y_only = self.conjunction(not_xu, yu.clone(), span)?;
            let no_x_above = not(x_above.clone(), span)?;
            let cases = [(same, le), (x_only, y_above.clone()), (y_only, no_x_above)];
            let mut next = Lin::constant(0);
            for (case, then) in cases {
                next = next.plus(self.conjunction(case, then, span)?, span)?;
            }
            le = next;
            x_above = self.disjunction(x_above, xu, span)?;
            y_above = self.disjunction(y_above, yu, span)?;
        }
        Ok(le)
    }

    /// `all_disjoint(S)`, `disjoint(a, b)`, `partition_set(S, universe)`.
    pub(crate) fn post_set_global(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<()> {
        let name = function.node.as_str();
        let (sets, cover) = match (name, args) {
            ("all_disjoint", [list]) => (self.set_list(list)?, None),
            ("disjoint", [a, b]) => (vec![self.set_val(a)?, self.set_val(b)?], None),
            ("partition_set", [list, universe]) => (self.set_list(list)?, Some(self.const_set(universe)?)),
            _ => {
                let form = match name {
                    "all_disjoint" => "all_disjoint(S)",
                    "disjoint" => "disjoint(a, b)",
                    _ => "partition_set(S, universe)",
                };
                let plural = if args.len() == 1 { "" } else { "s" };
                return Err(Diagnostic::new(
                    format!("`{name}` does not take {} argument{plural}", args.len()),
                    span.clone(),
                )
                .with_note(format!("the form is `{form}`"))
                .into());
            }
        };
        // Σᵢ [u ∈ Sᵢ] ≤ 1 for each value (= 1 inside the universe of a partition, 0 outside).
        let mut counts: BTreeMap<Val, Lin> = BTreeMap::new();
        for set in &sets {
            for (&u, member) in set.universe.iter().zip(&set.members) {
                let entry = counts.entry(u).or_default();
                *entry = std::mem::take(entry).plus(member.clone(), span)?;
            }
        }
        if let Some(cover) = &cover {
            for &u in cover {
                counts.entry(u).or_default();
            }
        }
        for (u, count) in counts {
            match &cover {
                None => self.post_lin(&count, Rel::Le, 1, span)?,
                Some(cover) => {
                    let inside = i64::from(cover.binary_search(&u).is_ok());
                    self.post_lin(&count, Rel::Eq, inside, span)?;
                }
            }
        }
        Ok(())
    }
}
