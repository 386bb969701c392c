//! Partial expressions and MiniZinc's relational semantics: an expression without a value
//! (an index outside its array, a division by zero, a `let` constraint that fails) makes
//! its nearest enclosing condition false, not the whole model.
//!
//! Each condition compiled over variables ([`Compiler::truth`]) is a *Boolean context*: it
//! opens a frame that collects the truths under which its parts are defined, and its own
//! truth is the conjunction of what it says and those. An index `a[i]` whose variable `i`
//! may leave the array's range inside a condition adds `i ∈ range` to the frame (and reads
//! the array through a copy of `i` that stays in range); at the root, with no frame open,
//! `i` is simply restricted to the range, which is what a constraint that must hold means.
//! A constant without a value is the fault [`Fault::Undefined`]: a Boolean context turns it
//! into false; at the root it is reported as the error it carries.

use cpsolve_dsl::ast::Span;
use cpsolve_engine::Rel;

use super::errors::{Fault, Result};
use super::linear::Lin;
use super::Compiler;

impl Compiler {
    /// Whether a condition encloses the expression being compiled.
    pub(crate) fn in_condition(&self) -> bool {
        !self.partial.is_empty()
    }

    /// Compiles a condition as a Boolean context: the truth `f` gives, and-ed with the
    /// truths under which its parts are defined; false if a part has no value.
    pub(crate) fn boolean_context(&mut self, span: &Span, f: impl FnOnce(&mut Compiler) -> Result<Lin>) -> Result<Lin> {
        self.partial.push(Vec::new());
        let result = f(self);
        let defined = self.partial.pop().unwrap_or_default();
        match result {
            Err(Fault::Undefined(_)) => Ok(Lin::constant(0)),
            Err(fault) => Err(fault),
            Ok(mut t) => {
                for d in defined {
                    t = self.conjunction(t, d, span)?;
                }
                Ok(t)
            }
        }
    }

    /// The enclosing condition holds only where `d` (a truth) does; at the root, `d` must.
    pub(crate) fn require(&mut self, d: Lin, span: &Span) -> Result<()> {
        match self.partial.last_mut() {
            Some(frame) => {
                frame.push(d);
                Ok(())
            }
            None => self.post_lin(&d, Rel::Eq, 1, span),
        }
    }

    /// Runs `f` with its partial parts required under `guard` (a truth): the branch of an
    /// `if` over variables is defined wherever it is taken. When the branch has no value at
    /// all, the enclosing condition requires that it is not taken, and the reason is given.
    pub(crate) fn defined_when<T>(
        &mut self,
        guard: &Lin,
        span: &Span,
        f: impl FnOnce(&mut Compiler) -> Result<T>,
    ) -> Result<std::result::Result<T, cpsolve_dsl::Diagnostic>> {
        self.partial.push(Vec::new());
        let result = f(self);
        let defined = self.partial.pop().unwrap_or_default();
        let value = match result {
            Err(Fault::Undefined(diagnostic)) => {
                let not_taken = Lin::constant(1).minus(guard.clone(), span)?;
                if !self.in_condition() && not_taken.as_constant(span)? == Some(0) {
                    return Err(Fault::Undefined(diagnostic));
                }
                self.require(not_taken, span)?;
                return Ok(Err(diagnostic));
            }
            other => other?,
        };
        for d in defined {
            // guard → d
            let implication = self.implication(guard.clone(), d, span)?;
            self.require(implication, span)?;
        }
        Ok(Ok(value))
    }
}
