//! A system of parity equations over 0/1 variables, solved together by Gauss–Jordan
//! elimination over GF(2).
//!
//! Each equation `x₁ ⊕ … ⊕ xₖ = b` alone (see [`crate::propagators::parity`]) fixes nothing
//! until all its variables but one are fixed. Added together, equations cancel the variables
//! they share: `a ⊕ b ⊕ c = 1` and `a ⊕ b ⊕ d = 0` give `c ⊕ d = 1`, so fixing `c` fixes `d`
//! while `a` and `b` are still open. The solutions of a system of such equations form an
//! affine space; in the *reduced row echelon form* of the system over the open variables
//! (each row owns a pivot column that no other row holds), a row with a single open
//! variable fixes it, a row with none must add up to its right-hand side, and every other
//! open variable takes both values in some solution. One elimination is therefore domain
//! consistent for the system alone, where the equations one by one are far weaker: learning
//! the parity of a noisy sample set, Lights Out, ciphers and codes are made of such
//! systems, and clause learning cannot make up for the difference (a parity needs a clause
//! per assignment of its variables), which is why SAT solvers for cryptography keep XORs
//! apart and eliminate (CryptoMiniSat).
//!
//! The system is brought to reduced form once, when posted, over all its variables. Each
//! propagation copies that form and repairs only the rows whose pivot has since been
//! fixed: such a row takes an open column of its own as its new pivot, which is eliminated
//! from the other rows. Columns that stayed pivots need nothing, since no row but their own
//! holds them. The cost is (rows whose pivot is fixed) × rows × words of 64 columns.
//!
//! Explanations are exact and cheap: every row is a sum of the model's equations, so it
//! holds in every solution; a row that fixed `x` had every other variable fixed, and those
//! values are the reason. The row is kept per variable when it fixes it, and for the
//! conflict when it fails, so analysis reads it back without eliminating again.

use crate::domain::Val;
use crate::ids::VarId;
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// Parity equations over shared 0/1 variables, eliminated together; posted by
/// [`crate::constraints::parity_elimination`].
#[derive(Debug, Clone)]
pub struct XorSystem {
    vars: Vec<VarId>,
    /// The equations as given (positions in `vars`, odd), the ground truth.
    equations: Vec<(Vec<usize>, bool)>,
    /// Words of 64 columns per row.
    words: usize,
    /// The reduced row echelon form of the equations: rows × words.
    base: Vec<u64>,
    base_odd: Vec<bool>,
    /// The pivot column of each row of `base`.
    base_pivot: Vec<usize>,
    /// Scratch for one propagation: the rows, their parities, the open columns, the
    /// columns fixed to 1.
    rows: Vec<u64>,
    odd: Vec<bool>,
    open: Vec<u64>,
    ones: Vec<u64>,
    /// Per variable, the row that fixed it last (vars × words).
    reasons: Vec<u64>,
    /// The row that failed last.
    conflict: Vec<u64>,
}

fn bit(row: &[u64], c: usize) -> bool {
    row[c / 64] >> (c % 64) & 1 == 1
}

fn flip(row: &mut [u64], c: usize) {
    row[c / 64] ^= 1 << (c % 64);
}

/// `target ^= source`, rows of `words` words at the given row indices of `m`.
fn add_row(m: &mut [u64], words: usize, target: usize, source: usize) {
    for w in 0..words {
        let s = m[source * words + w];
        m[target * words + w] ^= s;
    }
}

impl XorSystem {
    /// The system of `equations` (variables, odd), a variable listed twice in an equation
    /// cancelling out; `None` if the equations contradict each other (`0 = 1` follows).
    pub(crate) fn new(equations: &[(Vec<VarId>, bool)]) -> Option<XorSystem> {
        let mut vars: Vec<VarId> = Vec::new();
        let mut position = std::collections::HashMap::new();
        let mut given = Vec::with_capacity(equations.len());
        for (xs, odd) in equations {
            let mut at = Vec::with_capacity(xs.len());
            for &x in xs {
                let i = *position.entry(x).or_insert_with(|| {
                    vars.push(x);
                    vars.len() - 1
                });
                at.push(i);
            }
            given.push((at, *odd));
        }
        let n = vars.len();
        let words = n.div_ceil(64).max(1);
        let mut rows = vec![0u64; given.len() * words];
        let mut odd: Vec<bool> = given.iter().map(|e| e.1).collect();
        for (r, (at, _)) in given.iter().enumerate() {
            for &c in at {
                flip(&mut rows[r * words..(r + 1) * words], c);
            }
        }
        // Gauss–Jordan over all columns, in order.
        let m = given.len();
        let mut pivots = Vec::new();
        for c in 0..n {
            let rank = pivots.len();
            let Some(r) = (rank..m).find(|&r| bit(&rows[r * words..(r + 1) * words], c)) else { continue };
            for w in 0..words {
                rows.swap(r * words + w, rank * words + w);
            }
            odd.swap(r, rank);
            for j in 0..m {
                if j != rank && bit(&rows[j * words..(j + 1) * words], c) {
                    add_row(&mut rows, words, j, rank);
                    odd[j] ^= odd[rank];
                }
            }
            pivots.push(c);
        }
        let rank = pivots.len();
        // The rows past the rank are empty: `0 = odd`.
        if odd[rank..].iter().any(|&o| o) {
            return None;
        }
        rows.truncate(rank * words);
        odd.truncate(rank);
        Some(XorSystem {
            equations: given,
            words,
            rows: rows.clone(),
            odd: odd.clone(),
            base: rows,
            base_odd: odd,
            base_pivot: pivots,
            open: vec![0; words],
            ones: vec![0; words],
            reasons: vec![0; n * words],
            conflict: vec![0; words],
            vars,
        })
    }

    /// The independent equations left after elimination.
    pub(crate) fn rank(&self) -> usize {
        self.base_pivot.len()
    }

    /// Word operations of the costliest propagation: every row re-pivoted against every
    /// row.
    pub(crate) fn work(&self) -> usize {
        self.rank() * self.rank() * self.words
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.rows[r * self.words..(r + 1) * self.words]
    }

    /// The literals that a stored row's fixed columns other than `except` held at `cx`.
    fn fixed_in(&self, row: &[u64], except: Option<usize>, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let mut reason = Vec::new();
        for (w, &word) in row.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if Some(c) == except {
                    continue;
                }
                let x = self.vars[c];
                if cx.max(x) == 0 {
                    reason.push(Literal::Le(x, 0));
                } else if cx.min(x) == 1 {
                    reason.push(Literal::Gt(x, 0));
                } else {
                    // Not fixed then: not a row this propagator used; cite everything.
                    debug_assert!(false, "xor system: a reason column was open");
                    return None;
                }
            }
        }
        Some(reason)
    }
}

impl Propagator for XorSystem {
    fn name(&self) -> &'static str {
        "xor system"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::ASSIGNED);
        }
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let words = self.words;
        self.open.fill(0);
        self.ones.fill(0);
        for (c, &x) in self.vars.iter().enumerate() {
            if !cx.is_fixed(x) {
                flip(&mut self.open, c);
            } else if cx.min(x) == 1 {
                flip(&mut self.ones, c);
            }
        }
        self.rows.copy_from_slice(&self.base);
        self.odd.copy_from_slice(&self.base_odd);
        let m = self.base_pivot.len();
        // Repair the rows whose pivot was fixed: a new pivot among their open columns.
        for r in 0..m {
            if bit(&self.open, self.base_pivot[r]) {
                continue;
            }
            let row = &self.rows[r * words..(r + 1) * words];
            let Some(c) = (0..words).find_map(|w| {
                let open = row[w] & self.open[w];
                (open != 0).then(|| w * 64 + open.trailing_zeros() as usize)
            }) else {
                continue;
            };
            for j in 0..m {
                if j != r && bit(&self.rows[j * words..(j + 1) * words], c) {
                    add_row(&mut self.rows, words, j, r);
                    self.odd[j] ^= self.odd[r];
                }
            }
        }
        // Read the rows: none open must add up, one open is fixed.
        let mut all_fixed = true;
        for r in 0..m {
            let row = self.row(r);
            let (mut open_count, mut open_at, mut ones) = (0u32, 0usize, 0u32);
            for (w, (&bits, (&open, &one))) in row.iter().zip(self.open.iter().zip(&self.ones)).enumerate() {
                let open = bits & open;
                if open != 0 && open_count == 0 {
                    open_at = w * 64 + open.trailing_zeros() as usize;
                }
                open_count += open.count_ones();
                ones += (bits & one).count_ones();
            }
            // What the open columns must add up to.
            let need = self.odd[r] ^ (ones % 2 == 1);
            match open_count {
                0 if need => {
                    self.conflict.copy_from_slice(&self.rows[r * words..(r + 1) * words]);
                    return Err(Conflict);
                }
                0 => {}
                1 => {
                    self.reasons[open_at * words..(open_at + 1) * words]
                        .copy_from_slice(&self.rows[r * words..(r + 1) * words]);
                    cx.assign(self.vars[open_at], Val::from(need))?;
                }
                _ => all_fixed = false,
            }
        }
        Ok(if all_fixed { PropStatus::Entailed } else { PropStatus::Active })
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        self.equations.iter().all(|(at, odd)| {
            let values: Vec<Val> = at.iter().map(|&c| value(self.vars[c])).collect();
            values.iter().all(|&v| v == 0 || v == 1) && (values.iter().filter(|&&v| v == 1).count() % 2 == 1) == *odd
        })
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    /// One elimination fixes all the system fixes: a variable it fixes is the pivot of its
    /// row, held by no other row, so fixing it opens no new unit.
    fn idempotent(&self) -> bool {
        true
    }

    fn domain_consistent(&self) -> bool {
        true
    }

    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let c = self.vars.iter().position(|&x| x == lit.var())?;
        self.fixed_in(&self.reasons[c * self.words..(c + 1) * self.words], Some(c), cx)
    }

    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.fixed_in(&self.conflict, None, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::XorSystem;
    use crate::learn::explain::testing::{var, Past};
    use crate::literal::Literal;
    use crate::propagator::Propagator;

    #[test]
    fn elimination_keeps_the_independent_equations_and_finds_a_contradiction() {
        // x0 ⊕ x1 = 1, x1 ⊕ x2 = 1, x0 ⊕ x2 = 0: the third is the sum of the first two.
        let eqs = vec![(vec![var(0), var(1)], true), (vec![var(1), var(2)], true), (vec![var(0), var(2)], false)];
        assert_eq!(XorSystem::new(&eqs).map(|s| s.rank()), Some(2));
        let mut bad = eqs.clone();
        bad[2].1 = true;
        assert!(XorSystem::new(&bad).is_none());
        // x ⊕ x = 0 whatever x: an equation listing a variable twice is empty.
        assert_eq!(XorSystem::new(&[(vec![var(0), var(0)], false)]).map(|s| s.rank()), Some(0));
        assert!(XorSystem::new(&[(vec![var(0), var(0)], true)]).is_none());
    }

    #[test]
    fn a_conflict_is_explained_by_the_fixed_columns_of_its_row() {
        // x0 ⊕ x1 = 1 and x0 ⊕ x1 ⊕ x2 = 0 need x2 = 1; with x2 = 0 the sum row fails.
        let mut s = XorSystem::new(&[(vec![var(0), var(1)], true), (vec![var(0), var(1), var(2)], false)]).unwrap();
        s.conflict = vec![0b100];
        let past = Past::new(&[(0, 1); 3], &[Literal::Le(var(2), 0)]);
        assert_eq!(s.explain_conflict(&past.cx()), Some(vec![Literal::Le(var(2), 0)]));
        // A unit: the stored row of x1 is x0 ⊕ x1, x0 = 1 then.
        s.reasons[1] = 0b011;
        let past = Past::new(&[(0, 1); 3], &[Literal::Gt(var(0), 0)]);
        assert_eq!(s.explain(Literal::Le(var(1), 0), &past.cx()), Some(vec![Literal::Gt(var(0), 0)]));
    }
}
