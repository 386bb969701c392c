//! Built-in functions: the integer ones (`sum`, `abs`, `min`, `max`, `count`, `bool2int`,
//! `card`, `length`), the conditions over lists (`exists`, `forall`, `xorall`), and the one
//! table of every built-in name, from which both the dispatch and the list printed after
//! "unknown function" are made (so the two cannot drift apart).

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::arrays::ARRAY_FUNCTIONS;
use super::enums::ENUM_FUNCTIONS;
use super::env::Entity;
use super::errors::{not_supported, overflow, Result};
use super::global_calls::GLOBALS;
use super::linear::Lin;
use super::sets::{SET_FUNCTIONS, SET_GLOBALS};
use super::wrappers::CONSTRAINT_WRAPPERS;
use super::Compiler;

/// The constraints this version compiles, under their accepted spellings.
pub(crate) const ALL_DIFFERENT: &[&str] = &["alldifferent", "all_different"];

/// Functions whose value is an integer.
pub(crate) const INT_FUNCTIONS: &[&str] =
    &["sum", "abs", "min", "max", "count", "bool2int", "card", "length", "lb", "ub", "lb_array", "ub_array"];

/// Functions whose value is a condition over a list.
pub(crate) const CONDITION_FUNCTIONS: &[&str] = &["exists", "forall", "xorall"];

/// Constraints other than the globals of [`GLOBALS`] and [`SET_GLOBALS`].
const CONSTRAINTS: &[&str] = &["table"];

/// Well-known constraints and functions (MiniZinc's names) that a later version adds.
const RESERVED: &[&str] = &["element", "atleast", "atmost", "exactly", "gcc", "product", "pow"];

/// Whether `name` is a constraint or function that is reserved but not compiled yet.
pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// Whether `name` is a condition over a list.
pub(crate) fn is_condition_call(name: &str) -> bool {
    CONDITION_FUNCTIONS.contains(&name)
}

/// Every built-in name, in the groups the error message shows.
fn builtin_groups() -> [(&'static str, Vec<&'static str>); 4] {
    let mut constraints: Vec<&str> = ALL_DIFFERENT.to_vec();
    constraints.extend(CONSTRAINTS);
    constraints.extend(GLOBALS);
    constraints.extend(SET_GLOBALS);
    constraints.extend(CONSTRAINT_WRAPPERS);
    let mut functions: Vec<&str> = INT_FUNCTIONS.to_vec();
    functions.extend(ENUM_FUNCTIONS);
    functions.extend(SET_FUNCTIONS);
    [
        ("functions", functions),
        ("lists", ARRAY_FUNCTIONS.to_vec()),
        ("conditions", CONDITION_FUNCTIONS.to_vec()),
        ("constraints", constraints),
    ]
}

/// Whether `name` is a built-in (which a user function may not redefine).
pub(crate) fn is_builtin(name: &str) -> bool {
    is_reserved(name) || builtin_groups().iter().any(|(_, names)| names.contains(&name))
}

/// Whether `name` is a global constraint that a model may define itself, as MiniZinc's
/// library does (the handbook defines its own `inverse`): the model's definition is then
/// what its calls mean.
pub(crate) fn is_redefinable_global(name: &str) -> bool {
    ALL_DIFFERENT.contains(&name)
        || CONSTRAINTS.contains(&name)
        || GLOBALS.contains(&name)
        || SET_GLOBALS.contains(&name)
}

/// The error for a call of a name that is no function at all.
pub(crate) fn unknown_function(function: &Ident) -> Diagnostic {
    let groups: Vec<String> = builtin_groups()
        .iter()
        .map(|(what, names)| {
            // The twenty `index_set_KofN` are one family: the message shows its ends.
            let mut shown: Vec<String> =
                names.iter().filter(|n| !n.starts_with("index_set_")).map(|n| format!("`{n}`")).collect();
            if names.iter().any(|n| n.starts_with("index_set_")) {
                shown.push("`index_set_1of2` … `index_set_6of6`".to_owned());
            }
            format!("{what}: {}", shown.join(", "))
        })
        .collect();
    Diagnostic::new(format!("unknown function `{}`", function.node), function.span.clone())
        .with_label("not a function")
        .with_note(format!("{}; or a `predicate` or `function` declared above", groups.join("; ")))
}

impl Compiler {
    /// The linear form of an integer-valued call.
    pub(crate) fn call_int(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        if let Some(Entity::Constructor(constructor)) = self.env.lookup(&function.node) {
            return self.construct(&constructor, args, span);
        }
        match function.node.as_str() {
            name if ENUM_FUNCTIONS.contains(&name) => self.enum_function(function, args, span),
            "sum" => {
                let mut total = Lin::default();
                for (element, _) in self.elements_of_args(args)? {
                    total = total.plus(element, span)?;
                }
                Ok(total)
            }
            "abs" => {
                let [arg] = args else {
                    let message = format!("`abs` takes one argument, not {}", args.len());
                    return Err(Diagnostic::new(message, span.clone()).into());
                };
                let lin = self.linearize(arg)?;
                let Some(v) = lin.as_constant(&arg.span)? else {
                    return self.abs(lin, span);
                };
                Ok(Lin::constant(v.checked_abs().ok_or_else(|| overflow(span.clone()))?))
            }
            name @ ("min" | "max") if matches!(args, [set] if self.is_set_expr(set)) => {
                self.set_extremum(&args[0], name == "max", span)
            }
            name @ ("min" | "max") => {
                let elements = self.elements_of_args(args)?;
                if elements.is_empty() {
                    let diagnostic = Diagnostic::new(format!("`{name}` of an empty list"), span.clone());
                    return Err(super::errors::Fault::Undefined(diagnostic));
                }
                let mut values = Vec::with_capacity(elements.len());
                for (element, element_span) in &elements {
                    values.extend(element.as_constant(element_span)?);
                }
                if values.len() < elements.len() {
                    return self.extremum(elements, name == "max", span);
                }
                let best = if name == "max" { values.into_iter().max() } else { values.into_iter().min() };
                Ok(Lin::constant(best.unwrap_or_default()))
            }
            "count" => self.count(args, span),
            // MiniZinc's bounds of an expression as the model stands when it is read: a
            // constant (the domains after the constraints posted above it).
            name @ ("lb" | "ub" | "lb_array" | "ub_array") => {
                let lower = name.starts_with("lb");
                let elements = if name.ends_with("_array") {
                    self.elements_of_args(args)?
                } else {
                    let [arg] = args else {
                        return Err(Diagnostic::new(format!("`{name}` takes one expression"), span.clone()).into());
                    };
                    vec![(self.linearize(arg)?, arg.span.clone())]
                };
                let bounds = elements.iter().map(|(lin, _)| lin.bounds(&self.solver));
                let bound = if lower { bounds.map(|b| b.0).min() } else { bounds.map(|b| b.1).max() };
                let Some(bound) = bound else {
                    let diagnostic = Diagnostic::new(format!("`{name}` of an empty list"), span.clone());
                    return Err(super::errors::Fault::Undefined(diagnostic));
                };
                Ok(Lin::constant(i64::try_from(bound).map_err(|_| overflow(span.clone()))?))
            }
            "bool2int" => match args {
                [condition] => self.truth(condition),
                _ => Err(Diagnostic::new("`bool2int` takes one condition", span.clone()).into()),
            },
            "card" => match args {
                [set] => self.cardinality(set),
                _ => Err(Diagnostic::new("`card` takes one set", span.clone()).into()),
            },
            "length" => match args {
                [list] if self.is_list(list) => Ok(Lin::constant(self.list_elements(list)?.len() as i64)),
                _ => Err(Diagnostic::new("`length` takes one list", span.clone()).into()),
            },
            name if ARRAY_FUNCTIONS.contains(&name) => {
                Err(super::errors::expected("an integer expression", "a list", span.clone()).into())
            }
            name if is_builtin(name)
                && !INT_FUNCTIONS.contains(&name)
                && !SET_FUNCTIONS.contains(&name)
                && !ENUM_FUNCTIONS.contains(&name) =>
            {
                if is_reserved(name) {
                    return Err(not_supported(format!("`{name}`"), function.span.clone()).into());
                }
                let message = format!("`{name}` is a constraint, not an integer expression");
                Err(Diagnostic::new(message, span.clone()).into())
            }
            name if SET_FUNCTIONS.contains(&name) => {
                Err(super::errors::expected("an integer expression", "a set", span.clone()).into())
            }
            _ => Err(unknown_function(function).into()),
        }
    }
}
