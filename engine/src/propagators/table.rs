//! `(x₁, …, xₖ) ∈ T` for an explicit list of tuples: simple tabular reduction (STR,
//! Ullmann 2007). The tuples still valid are kept at the front of a permutation whose
//! length is a trailed integer: a tuple that loses a value is swapped past the end, and
//! backtracking restores the length, which restores the set (swaps only move tuples
//! within the prefix that was valid at the earlier level). Each variable keeps exactly the
//! values some valid tuple gives it: domain consistency.

use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::propagator::{Conflict, Context, Events, PostContext, PropResult, PropStatus, Propagator};

/// The variables take the values of one of the allowed tuples; posted by [`crate::constraints::table`].
#[derive(Debug, Clone)]
pub struct Table {
    pub(crate) vars: Vec<VarId>,
    /// Row-major, `vars.len()` values per tuple.
    pub(crate) tuples: Vec<Val>,
    order: Vec<u32>,
    live: Option<TrailedInt>,
}

impl Table {
    pub(crate) fn new(vars: Vec<VarId>, tuples: Vec<Val>) -> Table {
        let count = if vars.is_empty() { 0 } else { tuples.len() / vars.len() };
        Table { vars, tuples, order: (0..count as u32).collect(), live: None }
    }

    fn tuple(&self, t: u32) -> &[Val] {
        let k = self.vars.len();
        &self.tuples[t as usize * k..(t as usize + 1) * k]
    }
}

impl Propagator for Table {
    fn name(&self) -> &'static str {
        "table"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::DOMAIN);
        }
        self.live = Some(cx.new_int(self.order.len() as i64));
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let Some(live_id) = self.live else { return Err(Conflict) };
        let mut live = cx.int(live_id) as usize;
        let mut i = 0;
        while i < live {
            let t = self.order[i];
            if self.tuple(t).iter().zip(&self.vars).all(|(&v, &x)| cx.contains(x, v)) {
                i += 1;
            } else {
                live -= 1;
                self.order.swap(i, live);
            }
        }
        cx.set_int(live_id, live as i64);
        if live == 0 {
            return Err(Conflict);
        }
        for (column, &x) in self.vars.iter().enumerate() {
            if cx.is_fixed(x) {
                continue;
            }
            let mut supported: Vec<Val> = self.order[..live].iter().map(|&t| self.tuple(t)[column]).collect();
            supported.sort_unstable();
            supported.dedup();
            let _ = cx.retain(x, |_, v| supported.binary_search(&v).is_ok())?;
        }
        Ok(if live == 1 { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let assignment: Vec<Val> = self.vars.iter().map(|&x| value(x)).collect();
        (0..self.order.len() as u32).any(|t| self.tuple(t) == assignment.as_slice())
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }
}
