//! Reading `option name = value` lines, with errors that point at the value.

use cpsolve_dsl::ast::{OptionValue, Spanned};
use cpsolve_dsl::Diagnostic;

fn single<'a>(
    name: &Spanned<String>,
    values: &'a [Spanned<OptionValue>],
) -> Result<&'a Spanned<OptionValue>, Diagnostic> {
    match values {
        [one] => Ok(one),
        _ => Err(Diagnostic::new(format!("option `{}` takes one value", name.node), name.span.clone())),
    }
}

/// An integer option within `lo..=hi`.
pub fn int_option(
    name: &Spanned<String>,
    values: &[Spanned<OptionValue>],
    lo: i64,
    hi: i64,
) -> Result<i64, Diagnostic> {
    let value = single(name, values)?;
    match value.node {
        OptionValue::Int(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(Diagnostic::new(
            format!("option `{}` must be an integer from {lo} to {hi}", name.node),
            value.span.clone(),
        )
        .with_label("out of range")),
    }
}

/// A `true` / `false` option.
pub fn bool_option(name: &Spanned<String>, values: &[Spanned<OptionValue>]) -> Result<bool, Diagnostic> {
    let value = single(name, values)?;
    match value.node {
        OptionValue::Bool(b) => Ok(b),
        _ => Err(Diagnostic::new(format!("option `{}` must be `true` or `false`", name.node), value.span.clone())),
    }
}

/// One of a fixed set of words.
pub fn word_option<'k>(
    name: &Spanned<String>,
    values: &[Spanned<OptionValue>],
    known: &[&'k str],
) -> Result<&'k str, Diagnostic> {
    let value = single(name, values)?;
    if let OptionValue::Word(w) = &value.node {
        if let Some(k) = known.iter().find(|k| *k == w) {
            return Ok(k);
        }
    }
    Err(Diagnostic::new(format!("option `{}` must be one of: {}", name.node, known.join(", ")), value.span.clone()))
}

/// An option name that this kind of model does not know.
#[derive(Debug)]
pub struct UnknownOption<'a> {
    pub name: &'a Spanned<String>,
    pub known: &'a [&'a str],
}

impl From<UnknownOption<'_>> for Diagnostic {
    fn from(u: UnknownOption<'_>) -> Diagnostic {
        Diagnostic::new(format!("unknown option `{}`", u.name.node), u.name.span.clone())
            .with_label("not an option of this model")
            .with_note(format!("options here: {}", u.known.join(", ")))
    }
}
