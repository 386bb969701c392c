//! `x ≠ y + c`: the binary disequality, with an offset so that queens' diagonals and
//! all-different decompositions need no auxiliary variables.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// `x ≠ y + c`; posted by [`crate::constraints::not_equal`].
#[derive(Debug, Clone)]
pub struct NotEqual {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) c: i64,
}

impl Propagator for NotEqual {
    fn name(&self) -> &'static str {
        "x != y + c"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        cx.subscribe(self.x, Events::ASSIGNED);
        cx.subscribe(self.y, Events::ASSIGNED);
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        if cx.is_fixed(self.x) {
            let _ = cx.remove(self.y, cx.min(self.x) - self.c)?;
            Ok(PropStatus::Entailed)
        } else if cx.is_fixed(self.y) {
            let _ = cx.remove(self.x, cx.min(self.y) + self.c)?;
            Ok(PropStatus::Entailed)
        } else {
            Ok(PropStatus::Active)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        value(self.x) != value(self.y) + self.c
    }

    fn vars(&self) -> Vec<VarId> {
        vec![self.x, self.y]
    }

    /// A value of one side goes because the other side was fixed.
    fn explain(&self, lit: Literal, _cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        match lit {
            Literal::Ne(z, w) if z == self.y => Some(vec![Literal::Eq(self.x, w + self.c)]),
            Literal::Ne(z, w) if z == self.x => Some(vec![Literal::Eq(self.y, w - self.c)]),
            _ => None,
        }
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        Some(vec![Literal::Eq(self.x, cx.min(self.x)), Literal::Eq(self.y, cx.min(self.y))])
    }

    fn priority(&self) -> Priority {
        Priority::Unary
    }
}
