//! The exceptions of the package and how a model's located errors become one.
//!
//! A [`ModelError`]'s text is `FILE:LINE:COLUMN: MESSAGE` followed by the errors as the
//! command line renders them (source line and caret); its attributes `file`, `line`,
//! `column` and `message` are the first error's, and `errors` lists them all, each as the
//! JSON output's error object (docs/json.md).

use cpsolve_dsl::{Diagnostic, SourceMap};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pyo3::create_exception!(
    cpsolve,
    ModelError,
    PyValueError,
    "A model that cannot be read or compiled: located errors, as the command line prints them."
);
pyo3::create_exception!(
    cpsolve,
    Stopped,
    PyRuntimeError,
    "A limit (time, nodes) struck before the answer asked for was complete."
);

/// A located error of a model (`map`: the model's files, as read).
pub(crate) fn model_error(py: Python<'_>, map: &SourceMap, diagnostics: &[Diagnostic]) -> PyErr {
    let rendered = cpsolve_dsl::render_map(map, diagnostics, false);
    let located: Vec<(String, usize, usize, String)> = diagnostics
        .iter()
        .take(cpsolve_dsl::diagnostic::MAX_RENDERED)
        .map(|d| match map.locate(d.span.start) {
            Some(at) => (at.label.to_string(), at.line, at.column, d.message.clone()),
            None => (map.files().first().map(|f| f.label.clone()).unwrap_or_default(), 0, 0, d.message.clone()),
        })
        .collect();
    let (file, line, column, message) = located.first().cloned().unwrap_or_default();
    let text = format!("{file}:{line}:{column}: {message}\n{rendered}");
    with_place(py, ModelError::new_err(text), (&file, line, column, &message), &located)
}

/// A model error that is not at a place in a text (line and column 0), as the JSON output
/// gives one.
pub(crate) fn unlocated(py: Python<'_>, file: &str, message: &str) -> PyErr {
    let text = format!("{file}: {message}");
    let located = [(file.to_string(), 0, 0, message.to_string())];
    with_place(py, ModelError::new_err(text), (file, 0, 0, message), &located)
}

fn with_place(
    py: Python<'_>,
    err: PyErr,
    (file, line, column, message): (&str, usize, usize, &str),
    all: &[(String, usize, usize, String)],
) -> PyErr {
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("file", file)?;
        value.setattr("line", line)?;
        value.setattr("column", column)?;
        value.setattr("message", message)?;
        let errors: Vec<Bound<'_, PyDict>> = all
            .iter()
            .map(|(file, line, column, message)| {
                let error = PyDict::new(py);
                error.set_item("message", message)?;
                error.set_item("file", file)?;
                error.set_item("line", line)?;
                error.set_item("column", column)?;
                Ok(error)
            })
            .collect::<PyResult<_>>()?;
        value.setattr("errors", errors)
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}
