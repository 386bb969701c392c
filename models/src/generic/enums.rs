//! `enum Colour = {red, green, blue}`: the names of the values stand for 1, 2, 3 (so they
//! compare in the order written, `red < green`), and `Colour` for the set `1..3`, usable as
//! a domain, an index set and a generator. A variable whose domain is an enum prints its
//! value by name.

use cpsolve_dsl::ast::Ident;
use cpsolve_dsl::Diagnostic;

use super::env::{Entity, EnumDef};
use super::errors::Result;
use super::Compiler;

impl Compiler {
    pub(crate) fn declare_enum(&mut self, name: &Ident, values: &[Ident]) -> Result<()> {
        // A set, not a look back along the list: 100,000 names took 9.4 s to compare.
        let mut seen = std::collections::HashSet::with_capacity(values.len());
        for value in values {
            if !seen.insert(value.node.as_str()) {
                let message = format!("`{}` is named twice in this enum", value.node);
                return Err(Diagnostic::new(message, value.span.clone()).into());
            }
        }
        let id = self.env.enums.len();
        let names = values.iter().map(|v| v.node.clone()).collect();
        self.env.enums.push(EnumDef { values: names });
        self.env.declare(name, Entity::Enum(id))?;
        for (k, value) in values.iter().enumerate() {
            self.env.declare(value, Entity::Const(k as i64 + 1))?;
        }
        Ok(())
    }

    /// The enum a domain expression names, if it names one.
    pub(crate) fn enum_of_domain(&self, domain: &cpsolve_dsl::ast::Spanned<cpsolve_dsl::ast::Expr>) -> Option<usize> {
        match &domain.node {
            cpsolve_dsl::ast::Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Enum(id)) => Some(id),
                _ => None,
            },
            _ => None,
        }
    }
}
