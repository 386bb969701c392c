//! The literal: one atomic fact about one variable's domain.
//!
//! `x = v`, `x ≠ v`, `x ≤ v` and `x > v` are the engine's common vocabulary. A search
//! decision is a literal and its negation (the two branches); a path from the root to a
//! subtree is a list of them ([`crate::Subproblem`]); learning records every domain change
//! as the literal it made true, and a propagator explains a change by the literals that
//! implied it ([`crate::Propagator::explain`]); a learned nogood is literals that cannot all
//! hold. There is no Boolean variable behind a literal (the literals are *lazy*, as in lazy
//! clause generation): whether one holds is read off the domain of its variable.
//!
//! The four kinds are closed under negation, so every literal has one, and `x ≤ v` /
//! `x > v` are the bound literals, which explain better than holes: a bound implies every
//! bound beyond it.

use crate::domain::Val;
use crate::ids::VarId;

/// A fact about one variable: `x = v`, `x ≠ v`, `x ≤ v` or `x > v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Literal {
    /// `x = v`
    Eq(VarId, Val),
    /// `x ≠ v`
    Ne(VarId, Val),
    /// `x ≤ v`
    Le(VarId, Val),
    /// `x > v`
    Gt(VarId, Val),
}

impl Literal {
    /// The variable it fixes or bounds.
    pub fn var(self) -> VarId {
        match self {
            Literal::Eq(x, _) | Literal::Ne(x, _) | Literal::Le(x, _) | Literal::Gt(x, _) => x,
        }
    }

    /// The opposite fact: the other branch of the same decision.
    pub fn negated(self) -> Literal {
        match self {
            Literal::Eq(x, v) => Literal::Ne(x, v),
            Literal::Ne(x, v) => Literal::Eq(x, v),
            Literal::Le(x, v) => Literal::Gt(x, v),
            Literal::Gt(x, v) => Literal::Le(x, v),
        }
    }

    /// Whether `value` (the variable's value in a full assignment) satisfies it.
    pub fn holds_for(self, value: Val) -> bool {
        match self {
            Literal::Eq(_, v) => value == v,
            Literal::Ne(_, v) => value != v,
            Literal::Le(_, v) => value <= v,
            Literal::Gt(_, v) => value > v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Literal;
    use crate::ids::VarId;

    #[test]
    fn a_literal_and_its_negation_split_every_value() {
        let x = VarId(0);
        for lit in [Literal::Eq(x, 3), Literal::Ne(x, 3), Literal::Le(x, 3), Literal::Gt(x, 3)] {
            assert_eq!(lit.negated().negated(), lit);
            for v in 0..7 {
                assert_ne!(lit.holds_for(v), lit.negated().holds_for(v), "{lit:?} at {v}");
            }
        }
    }
}
