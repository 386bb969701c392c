//! Inverse: two arrays that are each other's inverse function (MiniZinc's `inverse`).
//!
//! Position `i` of `f` is the value `i + f_offset`, position `j` of `g` the value
//! `j + g_offset`, and `f[i] = j ⇔ g[j] = i` for every such pair: `f` is a bijection from
//! the positions of `f` onto those of `g`, and `g` is its inverse. (Arrays of different
//! lengths have no solution: each side maps injectively into the other.)
//!
//! This is the *channelling* between a permutation and its dual that Walsh studies in
//! "Permutation problems and channelling constraints" (LPAR 2001), after the redundant
//! models of Cheng, Choi, Lee and Wu ("Increasing constraint propagation by redundant
//! modeling", Constraints 1999). Each pair `(i, j)` is one binary constraint
//! `f[i] = j ⇔ g[j] = i`, whose only support for `f[i] = j` is `g[j] = i`. Hence the rule:
//! - `j` stays in `f[i]` only while `i` is in `g[j]`, and `i` in `g[j]` only while `j` is
//!   in `f[i]`.
//!
//! The post function posts all-different on both sides beside this propagator, for two
//! reasons. Its value elimination gives the rest of arc consistency on the binary
//! constraints: once `f[i] = j`, no other value of `g[j]` has a support, and indeed `j`
//! leaves every other `f[k]`, after which the rule leaves only `i` in `g[j]`. And it sees
//! Hall sets, which the channelling cannot: with `f[0], f[1] ∈ {1, 2}` and
//! `f[2], f[3] ∈ {1, 2, 3, 4}` (so `g[3], g[4] ∈ {2, 3}` on the other side), nothing is
//! removed here, nor by value elimination, although `f[2]` and `f[3]` must take 3 and 4
//! (Walsh shows generalised arc consistency on all-different to be strictly stronger than
//! arc consistency on the channelling). With all-different at domain consistency (Régin's
//! matching) the whole is domain consistent: a value `j` of `f[i]` lies in a perfect
//! matching, a permutation `π` within the domains of `f`, and `g = π⁻¹` lies within the
//! domains of `g`, because the rule keeps `j ∈ f[i]` exactly when `i ∈ g[j]`.
//!
//! A call makes one pass over `f`, then one over `g`, from scratch: the engine does not
//! say which variable changed, and a domain is a bitset, so a pass costs O(Σ|dom|). The
//! two passes reach the fixpoint: the pass over `g` removes `i` from `g[j]` only where `j`
//! has already left `f[i]`, which gives the pass over `f` nothing new. (Unless a variable
//! occurs twice among `f` and `g`, as in `inverse(f, f)`: the engine then runs it again.)
//!
//! A value `j` leaves `f[i]` because `i` had left `g[j]`: that one literal explains it (a
//! bound of `f[i]` that moves is explained by the values it passes, each gone itself or
//! gone from its partner). A conflict is a variable all of whose values lost their partner.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::{ruled_out, ExplainContext};
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// The channelling of `f` and `g`, whose domains the post function restricted to each
/// other's positions (both of the same length).
#[derive(Debug, Clone)]
pub struct Inverse {
    f: Vec<VarId>,
    f_offset: Val,
    g: Vec<VarId>,
    g_offset: Val,
    /// No variable occurs twice among `f` and `g`: one call is then a fixpoint.
    distinct: bool,
}

impl Inverse {
    pub(crate) fn new(f: Vec<VarId>, f_offset: Val, g: Vec<VarId>, g_offset: Val) -> Inverse {
        let mut all: Vec<VarId> = f.iter().chain(&g).copied().collect();
        all.sort_unstable();
        all.dedup();
        let distinct = all.len() == f.len() + g.len();
        Inverse { f, f_offset, g, g_offset, distinct }
    }

    /// Keeps in each `from[i]` the values `j + to_offset` whose `to[j]` still holds
    /// `i + from_offset`.
    fn channel(
        cx: &mut Context<'_>,
        from: &[VarId],
        from_offset: Val,
        to: &[VarId],
        to_offset: Val,
    ) -> Result<(), Conflict> {
        for (i, &x) in from.iter().enumerate() {
            let back = i as Val + from_offset;
            // The post function narrowed each domain to the other array's positions; the
            // test below would remove a value beyond them all the same.
            let _ = cx.retain(x, |cx, v| {
                usize::try_from(v - to_offset).ok().and_then(|j| to.get(j)).is_some_and(|&y| cx.contains(y, back))
            })?;
        }
        Ok(())
    }
}

impl Inverse {
    /// The roles of `x`: (its array's position `i` with the array's offset, the other array
    /// and its offset).
    fn roles(&self, x: VarId) -> impl Iterator<Item = (Val, &[VarId], Val)> + '_ {
        let f = self
            .f
            .iter()
            .enumerate()
            .filter(move |&(_, &y)| y == x)
            .map(|(i, _)| (i as Val + self.f_offset, &self.g[..], self.g_offset));
        let g = self
            .g
            .iter()
            .enumerate()
            .filter(move |&(_, &y)| y == x)
            .map(|(j, _)| (j as Val + self.g_offset, &self.f[..], self.f_offset));
        f.chain(g)
    }

    /// The literal saying that value `v` of a variable at `back` (its own position's value)
    /// has lost its partner: `to[v − to_offset]` no longer holds `back`.
    fn partner_gone(cx: &ExplainContext<'_>, v: Val, back: Val, to: &[VarId], to_offset: Val) -> Option<Literal> {
        let y = *usize::try_from(v - to_offset).ok().and_then(|j| to.get(j))?;
        (!cx.contains(y, back)).then_some(Literal::Ne(y, back))
    }

    /// Why every value of `x` in `lo..=hi` is impossible in one role: gone from `x`
    /// already (cited as a hole) or gone from its partner.
    fn values_gone(
        cx: &ExplainContext<'_>,
        x: VarId,
        (lo, hi): (Val, Val),
        (back, to, to_offset): (Val, &[VarId], Val),
        reason: &mut Vec<Literal>,
    ) -> Option<()> {
        for v in lo..=hi {
            if cx.contains(x, v) {
                reason.push(Inverse::partner_gone(cx, v, back, to, to_offset)?);
            } else {
                reason.push(Literal::Ne(x, v));
            }
        }
        Some(())
    }

    fn explain_in_role(
        &self,
        lit: Literal,
        cx: &ExplainContext<'_>,
        role: (Val, &[VarId], Val),
    ) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for v in ruled_out(cx, lit, &mut reason)? {
            reason.push(Inverse::partner_gone(cx, v, role.0, role.1, role.2)?);
        }
        Some(reason)
    }
}

impl Propagator for Inverse {
    fn name(&self) -> &'static str {
        "inverse"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in self.f.iter().chain(&self.g) {
            cx.subscribe(x, Events::DOMAIN);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        Inverse::channel(cx, &self.f, self.f_offset, &self.g, self.g_offset)?;
        Inverse::channel(cx, &self.g, self.g_offset, &self.f, self.f_offset)?;
        // Everything fixed and channelled: each f[i] = j has g[j] = i, and the reverse.
        if self.f.iter().chain(&self.g).all(|&x| cx.is_fixed(x)) {
            return Ok(PropStatus::Entailed);
        }
        Ok(PropStatus::Active)
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.roles(lit.var()).find_map(|role| self.explain_in_role(lit, cx, role))
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        // A variable none of whose values keeps its partner.
        self.f.iter().chain(&self.g).find_map(|&x| {
            self.roles(x).find_map(|role| {
                let mut reason = vec![Literal::Gt(x, cx.min(x) - 1), Literal::Le(x, cx.max(x))];
                Inverse::values_gone(cx, x, (cx.min(x), cx.max(x)), role, &mut reason)?;
                Some(reason)
            })
        })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let points_back = |from: &[VarId], from_offset: Val, to: &[VarId], to_offset: Val| {
            from.iter().enumerate().all(|(i, &x)| {
                usize::try_from(value(x) - to_offset)
                    .ok()
                    .and_then(|j| to.get(j))
                    .is_some_and(|&y| value(y) == i as Val + from_offset)
            })
        };
        points_back(&self.f, self.f_offset, &self.g, self.g_offset)
            && points_back(&self.g, self.g_offset, &self.f, self.f_offset)
    }

    fn vars(&self) -> Vec<VarId> {
        self.f.iter().chain(&self.g).copied().collect()
    }

    fn idempotent(&self) -> bool {
        self.distinct
    }
}

#[cfg(test)]
mod tests {
    use super::Inverse;
    use crate::learn::explain::testing::{var, Past};
    use crate::learn::verify::check_reason;
    use crate::literal::Literal;
    use crate::propagator::Propagator;

    /// `f = [x0, x1, x2]`, `g = [x3, x4, x5]`, positions and values from 0.
    fn three() -> Inverse {
        Inverse::new(vec![var(0), var(1), var(2)], 0, vec![var(3), var(4), var(5)], 0)
    }

    /// A value leaves `f[i]` because `i` left its partner: one literal; a bound that
    /// moves cites the values it passed, each gone from its partner.
    #[test]
    fn a_value_is_explained_by_its_partner() {
        let prop = three();
        let past = Past::new(&[(0, 2); 6], &[Literal::Ne(var(4), 0)]);
        let lit = Literal::Ne(var(0), 1);
        let reason = prop.explain(lit, &past.cx()).expect("explained");
        assert_eq!(reason, vec![Literal::Ne(var(4), 0)]);
        check_reason(past.history(), &prop, &reason, Some(lit));

        // f[2] ≤ 0: its values 1 and 2 lost their partners g[1] and g[2].
        let past = Past::new(&[(0, 2); 6], &[Literal::Ne(var(4), 2), Literal::Ne(var(5), 2)]);
        let lit = Literal::Le(var(2), 0);
        let reason = prop.explain(lit, &past.cx()).expect("explained");
        check_reason(past.history(), &prop, &reason, Some(lit));
        assert!(reason.contains(&Literal::Ne(var(4), 2)) && reason.contains(&Literal::Ne(var(5), 2)), "{reason:?}");
    }

    /// A variable none of whose values keeps its partner.
    #[test]
    fn a_conflict_is_a_variable_without_partners() {
        let prop = three();
        let past = Past::new(&[(0, 2); 6], &[Literal::Ne(var(3), 0), Literal::Ne(var(4), 0), Literal::Ne(var(5), 0)]);
        let reason = prop.explain_conflict(&past.cx()).expect("explained");
        check_reason(past.history(), &prop, &reason, None);
    }
}
