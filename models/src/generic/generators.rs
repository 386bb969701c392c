//! Generators: `i in 1..n`, `i, j in 1..n`, `b in {0, 3, 6}` with optional `where`
//! filters, as used by `forall` and comprehensions. Each binding of the names runs a
//! callback with the names visible as constants; sources and filters may use the names
//! of earlier generators (`i in 1..n, j in i+1..n`).

use cpsolve_dsl::ast::{Expr, Generator, Ident, Spanned};
use cpsolve_dsl::Diagnostic;

use super::errors::{expected, Result};
use super::Compiler;

/// How many generator bindings one compilation may make in all. A model beyond this is
/// not a puzzle: stop with an error rather than appear to hang.
pub(crate) const MAX_BINDINGS: u64 = 2_000_000;

/// The values a generator ranges over.
enum Source {
    /// `lo..hi`, empty when `hi < lo`.
    Range(i64, i64),
    Values(Vec<i64>),
}

impl Source {
    fn values(&self) -> Box<dyn Iterator<Item = i64> + '_> {
        match self {
            Source::Range(lo, hi) => Box::new(*lo..=*hi),
            Source::Values(values) => Box::new(values.iter().copied()),
        }
    }
}

/// The body run for each binding.
pub(crate) type Body<'a> = dyn FnMut(&mut Compiler) -> Result<()> + 'a;

impl Compiler {
    /// Runs `body` once for each binding of the generators' names that passes the filters,
    /// in order (the last name varies fastest).
    pub(crate) fn for_each_binding(&mut self, generators: &[Generator], body: &mut Body<'_>) -> Result<()> {
        check_distinct(generators)?;
        self.bind_generators(generators, body)
    }

    fn bind_generators(&mut self, generators: &[Generator], body: &mut Body<'_>) -> Result<()> {
        let Some((generator, rest)) = generators.split_first() else {
            return body(self);
        };
        let source = self.source(&generator.source)?;
        self.bind_names(generator, &generator.names, &source, rest, body)
    }

    fn bind_names(
        &mut self,
        generator: &Generator,
        names: &[Ident],
        source: &Source,
        rest: &[Generator],
        body: &mut Body<'_>,
    ) -> Result<()> {
        let Some((name, more)) = names.split_first() else {
            if let Some(filter) = &generator.filter {
                if !self.eval_bool(filter)? {
                    return Ok(());
                }
            }
            return self.bind_generators(rest, body);
        };
        for value in source.values() {
            self.bindings += 1;
            if self.solver.stop_token().requested().is_some() {
                // Compiling stops here; the caller reports the limit, not this.
                return Err(Diagnostic::new("stopped by a limit while compiling", generator.source.span.clone()).into());
            }
            if self.bindings > MAX_BINDINGS {
                let message = format!("too many iterations: more than {MAX_BINDINGS} in this model");
                return Err(Diagnostic::new(message, generator.source.span.clone())
                    .with_label("ranges over too many values")
                    .into());
            }
            self.env.push_local(&name.node, value);
            let result = self.bind_names(generator, more, source, rest, body);
            self.env.pop_local();
            result?;
        }
        Ok(())
    }

    /// Evaluates what a generator ranges over: a constant range, set or list.
    fn source(&mut self, expr: &Spanned<Expr>) -> Result<Source> {
        match &expr.node {
            Expr::Range { lo, hi } => Ok(Source::Range(self.eval_int(lo)?, self.eval_int(hi)?)),
            Expr::Set(items) => Ok(Source::Values(self.eval_set(items)?)),
            _ if self.is_set_expr(expr) => Ok(Source::Values(self.const_set(expr)?)),
            _ if self.is_list(expr) => {
                let mut values = Vec::new();
                for (lin, span) in self.list_elements(expr)? {
                    values.push(self.constant_of(&lin, &span)??);
                }
                Ok(Source::Values(values))
            }
            _ => Err(expected(
                "a range `lo..hi`, a set, an enum or a list of constants",
                "a single value",
                expr.span.clone(),
            )
            .with_label("a generator ranges over several values")
            .into()),
        }
    }
}

/// One forall or comprehension may not bind the same name twice.
fn check_distinct(generators: &[Generator]) -> Result<()> {
    let names: Vec<&Ident> = generators.iter().flat_map(|g| &g.names).collect();
    for (k, name) in names.iter().enumerate() {
        if names[..k].iter().any(|earlier| earlier.node == name.node) {
            let message = format!("`{}` is bound twice by the same generators", name.node);
            return Err(Diagnostic::new(message, name.span.clone()).with_label("bound again here").into());
        }
    }
    Ok(())
}
