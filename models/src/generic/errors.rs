//! The wording of the compiler's errors, kept in one place so that the same fault always
//! reads the same way wherever it is found, and so that "is not supported yet" (the mark
//! of a feature a later version adds) is easy to find.

use std::fmt::Display;

use cpsolve_dsl::ast::Span;
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::ModelError;

/// Why a step of the compilation stopped.
#[derive(Debug)]
pub(crate) enum Fault {
    /// A new error to show.
    Report(Diagnostic),
    /// A consequence of an error already shown (a name whose declaration failed): saying
    /// it again would only add noise.
    Silent,
    /// An expression without a value (a constant index out of its array's range, a
    /// division by zero). As in MiniZinc, it makes its nearest enclosing condition false;
    /// with no condition around it, it is this error.
    Undefined(Diagnostic),
}

impl From<Diagnostic> for Fault {
    fn from(diagnostic: Diagnostic) -> Fault {
        Fault::Report(diagnostic)
    }
}

pub(crate) type Result<T> = std::result::Result<T, Fault>;

pub(crate) fn unknown_name(name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(format!("unknown name `{name}`"), span).with_label("not declared above")
}

/// A feature the language reserves but this version does not compile.
pub(crate) fn not_supported(what: impl Display, span: Span) -> Diagnostic {
    Diagnostic::new(format!("{what} is not supported yet"), span)
        .with_label("not supported yet")
        .with_note("docs/language.md lists what the language supports")
}

/// An integer computation of the model itself (not of the search) left the 64-bit range.
pub(crate) fn overflow(span: Span) -> Diagnostic {
    Diagnostic::new("integer overflow", span).with_label("this value does not fit in 64 bits")
}

/// A constant was required, but the expression depends on a variable.
pub(crate) fn not_constant(variable: &str, span: Span) -> Diagnostic {
    let message = if variable == INTERMEDIATE {
        "expected a constant, but this depends on variables".to_owned()
    } else {
        format!("expected a constant, but this depends on the variable `{variable}`")
    };
    Diagnostic::new(message, span).with_label("must be known before solving")
}

/// What [`super::env::Env::var_name`] calls a variable the user did not name.
pub(crate) const INTERMEDIATE: &str = "an intermediate value";

/// An expression of the wrong sort: a list where a number is needed, and so on.
pub(crate) fn expected(what: &str, found: &str, span: Span) -> Diagnostic {
    Diagnostic::new(format!("expected {what}, found {found}"), span)
}

/// The engine refused a variable or a constraint.
pub(crate) fn model_error(error: &ModelError, span: Span) -> Diagnostic {
    let label = match error {
        ModelError::EmptyDomain => "no value is possible",
        ModelError::ValueOutOfRange(_) => "too large for the solver",
        ModelError::Overflow(_) => "its sums could overflow",
        ModelError::InvalidArgument(_) => "its arguments do not fit together",
        ModelError::Interrupted => "stopped by a limit",
    };
    Diagnostic::new(error.to_string(), span).with_label(label)
}
