//! The model's parity equations, eliminated together where they share variables.
//!
//! MiniZinc writes a parity as `array_bool_xor`, `bool_xor` and `bool_not`, each posted
//! by itself as it comes (see `post`), which fixes a variable only when all the others of
//! its equation are. Equations that share variables say more together: added up, the
//! shared variables cancel (learning a parity function from samples, Lights Out, ciphers).
//! Each set of equations connected by their variables that holds a real parity (three
//! variables or more) and more than one equation is also given to the engine's
//! [`constraints::parity_elimination`]; sets of two-variable equations only (negations,
//! `a ≠ b`) are chains that propagate fully one by one, and are left as they are.

use cpsolve_engine::{constraints, VarId};

use crate::compile::Compiler;
use crate::model::Term;

impl Compiler<'_> {
    /// Notes the equation `⊕ terms = odd` (a true constant flips it), and returns it with
    /// the constants folded: its variables and parity.
    pub(crate) fn note_parity(&mut self, terms: &[Term], odd: bool) -> (Vec<VarId>, bool) {
        let mut odd = odd;
        let mut vars = Vec::with_capacity(terms.len());
        for t in terms {
            match *t {
                Term::Const(c) => odd ^= c != 0,
                Term::Var(x) => vars.push(x),
            }
        }
        self.parities.push((vars.clone(), odd));
        (vars, odd)
    }

    /// Posts the elimination of each connected set of the noted equations that needs it.
    pub(crate) fn post_parity_systems(&mut self) {
        let parities = std::mem::take(&mut self.parities);
        for set in connected(&parities) {
            let real = set.iter().any(|&e| parities[e].0.len() >= 3);
            if set.len() >= 2 && real {
                let equations: Vec<(Vec<VarId>, bool)> = set.iter().map(|&e| parities[e].clone()).collect();
                constraints::parity_elimination(&mut self.solver, &equations);
            }
        }
    }
}

/// The equations grouped by shared variables, each group in the order of its first
/// equation, equations in their own order.
fn connected(equations: &[(Vec<VarId>, bool)]) -> Vec<Vec<usize>> {
    fn find(parent: &mut [usize], mut e: usize) -> usize {
        while parent[e] != e {
            parent[e] = parent[parent[e]];
            e = parent[e];
        }
        e
    }
    let mut parent: Vec<usize> = (0..equations.len()).collect();
    let mut first_with = std::collections::HashMap::new();
    for (e, (xs, _)) in equations.iter().enumerate() {
        for &x in xs {
            let other = *first_with.entry(x).or_insert(e);
            let (a, b) = (find(&mut parent, other), find(&mut parent, e));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = std::collections::HashMap::new();
    for e in 0..equations.len() {
        let root = find(&mut parent, e);
        let g = *group_of.entry(root).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(e);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::connected;
    use cpsolve_engine::Solver;

    #[test]
    fn equations_sharing_a_variable_are_one_set() {
        let mut s = Solver::new();
        let x: Vec<_> = (0..6).map(|_| s.new_var(0, 1).expect("0/1")).collect();
        let eqs = vec![
            (vec![x[0], x[1], x[2]], true),
            (vec![x[3], x[4]], false),
            (vec![x[2], x[5]], true),
            (vec![x[4]], true),
        ];
        assert_eq!(connected(&eqs), vec![vec![0, 2], vec![1, 3]]);
    }
}
