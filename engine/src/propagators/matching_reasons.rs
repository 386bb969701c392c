//! Explanations of all-different's matching removals by *Hall sets*.
//!
//! The matching (Régin's algorithm) removes a value `w` from `x` when no assignment of the
//! other variables within their domains avoids `w`: by Hall's theorem, some set `S` of
//! other variables has, once `w` is taken away, fewer values than variables between them;
//! with `w`, exactly as many. The variables of `S` take all those values, `w` among them.
//! Hall *intervals* ([`super::all_different_reasons`]) find such a set when its values are
//! contiguous; this module finds it in general, when asked, on the domains just before
//! the removal: a maximum matching of the other variables into their values but `w` leaves
//! a variable out, and the variables reached from it by alternating paths are `S` (every
//! value they reach is matched to one of them, or the matching would grow). The reason is
//! that each variable of `S` lies within `S`'s values: its bounds at their ends and its
//! holes between.
//!
//! The matching is Kuhn's augmenting paths, from scratch: `O(|S| · edges)`, paid only for
//! removals no interval explains, against the naive explanation (every domain of the
//! constraint) it replaces.

use std::collections::HashMap;

use crate::ids::VarId;
use crate::learn::explain::{ruled_out, ExplainContext};
use crate::literal::Literal;

/// Values beyond this many between a Hall set's ends are not cited one by one.
const MAX_SPAN: i64 = 4096;

/// The bipartite graph of the variables but one and their shifted values but one.
struct Graph {
    /// Per variable (index into the constraint's), its value indices.
    edges: Vec<Vec<usize>>,
    /// Per value index, the shifted value.
    values: Vec<i64>,
}

impl Graph {
    fn new(cx: &ExplainContext<'_>, vars: &[VarId], offsets: &[i64], skip: usize, w: i64) -> Option<Graph> {
        let mut index: HashMap<i64, usize> = HashMap::new();
        let mut values = Vec::new();
        let mut edges = vec![Vec::new(); vars.len()];
        for (j, (&y, &o)) in vars.iter().zip(offsets).enumerate() {
            if j == skip {
                continue;
            }
            let (lo, hi) = (cx.min(y), cx.max(y));
            if hi - lo > MAX_SPAN {
                return None;
            }
            for u in (lo..=hi).filter(|&u| cx.contains(y, u)) {
                let shifted = u + o;
                if shifted == w {
                    continue;
                }
                let k = *index.entry(shifted).or_insert_with(|| {
                    values.push(shifted);
                    values.len() - 1
                });
                edges[j].push(k);
            }
        }
        Some(Graph { edges, values })
    }

    /// Tries to match `j`, reassigning along an augmenting path (Kuhn).
    fn augment(&self, j: usize, owner: &mut [Option<usize>], visited: &mut [bool]) -> bool {
        for &k in &self.edges[j] {
            if std::mem::replace(&mut visited[k], true) {
                continue;
            }
            if owner[k].is_none_or(|other| self.augment(other, owner, visited)) {
                owner[k] = Some(j);
                return true;
            }
        }
        false
    }
}

/// A Hall set of the variables but `skip` that takes the shifted value `w`: the variables
/// and the shifted values they share (`w` included). `None` when the others can avoid `w`.
fn hall_set(
    cx: &ExplainContext<'_>,
    vars: &[VarId],
    offsets: &[i64],
    skip: usize,
    w: i64,
) -> Option<(Vec<usize>, Vec<i64>)> {
    let graph = Graph::new(cx, vars, offsets, skip, w)?;
    let mut owner: Vec<Option<usize>> = vec![None; graph.values.len()];
    let mut matched = vec![false; vars.len()];
    let mut visited = vec![false; graph.values.len()];
    let mut free = None;
    for j in (0..vars.len()).filter(|&j| j != skip) {
        visited.fill(false);
        if graph.augment(j, &mut owner, &mut visited) {
            matched[j] = true;
        } else {
            free = Some(j);
            break;
        }
    }
    // The alternating paths from the variable left out.
    let start = free?;
    let mut in_set = vec![false; vars.len()];
    let mut reached = vec![false; graph.values.len()];
    let mut stack = vec![start];
    in_set[start] = true;
    while let Some(j) = stack.pop() {
        for &k in &graph.edges[j] {
            if std::mem::replace(&mut reached[k], true) {
                continue;
            }
            let next = owner[k]?;
            if !std::mem::replace(&mut in_set[next], true) {
                stack.push(next);
            }
        }
    }
    let set: Vec<usize> = (0..vars.len()).filter(|&j| in_set[j]).collect();
    let mut values: Vec<i64> = (0..graph.values.len()).filter(|&k| reached[k]).map(|k| graph.values[k]).collect();
    values.push(w);
    values.sort_unstable();
    Some((set, values))
}

/// Pushes that each variable of `set` lies within the shifted `values`: its bounds at their
/// ends, its holes between.
fn cite_within(vars: &[VarId], offsets: &[i64], set: &[usize], values: &[i64], out: &mut Vec<Literal>) -> Option<()> {
    let (&first, &last) = (values.first()?, values.last()?);
    if last - first > MAX_SPAN {
        return None;
    }
    for &j in set {
        let (y, o) = (vars[j], offsets[j]);
        out.push(Literal::Gt(y, first - 1 - o));
        out.push(Literal::Le(y, last - o));
        let mut at = values.iter().peekable();
        for u in first..=last {
            while at.next_if(|&&v| v < u).is_some() {}
            if at.peek() != Some(&&u) {
                out.push(Literal::Ne(y, u - o));
            }
        }
    }
    Some(())
}

/// Why the variable of index `i` lost its values `lo..=hi` (unshifted) that it still had,
/// one Hall set per value, with `passed` (a bound literal) and its holes there.
pub(crate) fn explain_by_hall_sets(
    cx: &ExplainContext<'_>,
    vars: &[VarId],
    offsets: &[i64],
    i: usize,
    lit: Literal,
) -> Option<Vec<Literal>> {
    let x = vars[i];
    if vars.iter().filter(|&&y| y == x).count() != 1 {
        return None;
    }
    let mut out = Vec::new();
    for u in ruled_out(cx, lit, &mut out)? {
        let (set, values) = hall_set(cx, vars, offsets, i, u + offsets[i])?;
        cite_within(vars, offsets, &set, &values, &mut out)?;
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::explain_by_hall_sets;
    use crate::learn::explain::testing::{var, Past};
    use crate::learn::verify::check_reason;
    use crate::literal::Literal;
    use crate::propagators::AllDifferent;
    use crate::Consistency;

    /// `x1, x2 ∈ {1, 3}` take 1 and 3 between them: `x0 ≠ 3` because of their domains
    /// (no Hall interval: 2 lies between), and nothing of `x3`.
    #[test]
    fn a_hall_set_with_a_gap_explains_a_removal() {
        let lits = [
            Literal::Gt(var(1), 0),
            Literal::Le(var(1), 3),
            Literal::Ne(var(1), 2),
            Literal::Gt(var(2), 0),
            Literal::Le(var(2), 3),
            Literal::Ne(var(2), 2),
            Literal::Le(var(3), 4),
        ];
        let past = Past::new(&[(0, 5); 4], &lits);
        let vars: Vec<_> = (0..4).map(var).collect();
        let lit = Literal::Ne(var(0), 3);
        let reason = explain_by_hall_sets(&past.cx(), &vars, &[0; 4], 0, lit).expect("a Hall set");
        let expected = vec![
            Literal::Ne(var(1), 2),
            Literal::Ne(var(2), 2),
            Literal::Le(var(1), 3),
            Literal::Le(var(2), 3),
            Literal::Gt(var(1), 0),
            Literal::Gt(var(2), 0),
        ];
        let mut sorted = expected.clone();
        sorted.sort_unstable();
        assert_eq!(reason, sorted);
        let prop = AllDifferent::new(vars, vec![0; 4], Consistency::Domain);
        check_reason(past.history(), &prop, &reason, Some(lit));
    }
}
