//! Built-in functions: the integer ones (`sum`, and `abs`, `min`, `max` of constants) and
//! the names of global constraints the language reserves for later versions, so that
//! using one says "not supported yet" rather than "unknown function".

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;

use super::errors::{not_supported, overflow, Result};
use super::linear::Lin;
use super::Compiler;

/// The constraints this version compiles, under their accepted spellings.
pub(crate) const ALL_DIFFERENT: &[&str] = &["alldifferent", "all_different"];

/// Well-known constraints and functions (MiniZinc's names) that a later version adds.
const RESERVED: &[&str] = &[
    "count",
    "table",
    "element",
    "circuit",
    "subcircuit",
    "among",
    "atleast",
    "atmost",
    "exactly",
    "cumulative",
    "disjunctive",
    "global_cardinality",
    "gcc",
    "regular",
    "inverse",
    "nvalue",
    "lex_less",
    "lex_lesseq",
    "increasing",
    "decreasing",
    "all_equal",
    "bool2int",
    "product",
    "pow",
];

/// Whether `name` is a constraint or function that is reserved but not compiled yet.
pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// The error for a call of a name that is no function at all.
pub(crate) fn unknown_function(function: &Ident) -> Diagnostic {
    Diagnostic::new(format!("unknown function `{}`", function.node), function.span.clone())
        .with_label("not a function")
        .with_note("functions: `sum`, `abs`, `min`, `max`; constraints: `alldifferent`")
}

impl Compiler {
    /// The linear form of an integer-valued call.
    pub(crate) fn call_int(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<Lin> {
        match function.node.as_str() {
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
                    return Err(not_supported("`abs` of a variable", span.clone()).into());
                };
                Ok(Lin::constant(v.checked_abs().ok_or_else(|| overflow(span.clone()))?))
            }
            name @ ("min" | "max") => {
                let mut best: Option<i64> = None;
                for (element, element_span) in self.elements_of_args(args)? {
                    let Some(v) = element.as_constant(&element_span)? else {
                        return Err(not_supported(format!("`{name}` of a variable"), span.clone()).into());
                    };
                    best = Some(match best {
                        None => v,
                        Some(b) if name == "min" => b.min(v),
                        Some(b) => b.max(v),
                    });
                }
                let value = best.ok_or_else(|| Diagnostic::new(format!("`{name}` of an empty list"), span.clone()))?;
                Ok(Lin::constant(value))
            }
            name if ALL_DIFFERENT.contains(&name) => {
                let message = format!("`{name}` is a constraint, not an integer expression");
                Err(Diagnostic::new(message, span.clone()).into())
            }
            name if is_reserved(name) => Err(not_supported(format!("`{name}`"), function.span.clone()).into()),
            _ => Err(unknown_function(function).into()),
        }
    }
}
