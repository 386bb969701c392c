//! Edge finding on a unary resource in `O(n log n)`: Vilím's Θ-Λ tree ("O(n log n)
//! filtering algorithms for unary resource constraint", CPAIOR 2004).
//!
//! The tasks are the leaves of a balanced binary tree, in order of earliest start. Each
//! node summarises the tasks below it that are in the set `Θ`: their total duration `ΣP`
//! and their earliest completion `ECT` (the latest of `est(Ω') + p(Ω')` over the subsets
//! `Ω'` made of the tasks from some leaf on), combined as
//! `ECT = max(ECT_right, ECT_left + ΣP_right)`. A second set `Λ` of *gray* tasks is folded
//! in at most one at a time: `ΣP̄` and `ECT̄` are the same figures with one gray task of the
//! subtree added, the one that makes them largest.
//!
//! Edge finding then takes the tasks by latest completion, latest first. With `Θ` the
//! tasks not taken yet, `j` the one of them that ends last: if `ECT(Θ) > lct_j` there is
//! no schedule (overload); otherwise `j` turns gray, and while some gray task `i` would
//! make `Θ` end after the new last `lct` (`ECT̄ > lct`), `i` must come after all of `Θ`:
//! its earliest start rises to `ECT(Θ)`, and it leaves the tree. Every update is found
//! by walking down from the root to the gray leaf responsible, so a pass costs
//! `O(n log n)` where the task-interval form costs `O(n³)`.

use crate::domain::Val;
use crate::outcome::Conflict;

/// A time earlier than any: the earliest completion of no task. Far from `Val::MIN`, so
/// that durations added to it stay below every real time.
const NEVER: Val = Val::MIN / 4;

/// One task: its window `[est, lct)` and duration.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub(crate) est: Val,
    pub(crate) lct: Val,
    pub(crate) p: Val,
}

/// The figures of a node: of the white tasks below it (`sum`, `ect`), and with at most one
/// gray task added (`gray_sum`, `gray_ect`).
#[derive(Debug, Clone, Copy)]
struct Node {
    sum: Val,
    ect: Val,
    gray_sum: Val,
    gray_ect: Val,
}

const EMPTY: Node = Node { sum: 0, ect: NEVER, gray_sum: 0, gray_ect: NEVER };

fn combine(l: Node, r: Node) -> Node {
    Node {
        sum: l.sum + r.sum,
        ect: r.ect.max(l.ect + r.sum),
        gray_sum: (l.gray_sum + r.sum).max(l.sum + r.gray_sum),
        gray_ect: r.gray_ect.max(l.ect + r.gray_sum).max(l.gray_ect + r.sum),
    }
}

/// The Θ-Λ tree over tasks in order of earliest start (leaf `k` is the `k`-th).
struct ThetaLambda {
    /// A complete binary tree in an array: node `v` has children `2v` and `2v + 1`; the
    /// leaves start at `leaves`.
    nodes: Vec<Node>,
    leaves: usize,
}

impl ThetaLambda {
    /// Every task white (in `Θ`); `by_est` lists them in order of earliest start.
    fn new(tasks: &[Window], by_est: &[usize]) -> ThetaLambda {
        let leaves = by_est.len().next_power_of_two();
        let mut nodes = vec![EMPTY; 2 * leaves];
        for (k, &i) in by_est.iter().enumerate() {
            let t = tasks[i];
            nodes[leaves + k] = Node { sum: t.p, ect: t.est + t.p, gray_sum: t.p, gray_ect: t.est + t.p };
        }
        for v in (1..leaves).rev() {
            nodes[v] = combine(nodes[2 * v], nodes[2 * v + 1]);
        }
        ThetaLambda { nodes, leaves }
    }

    fn set(&mut self, leaf: usize, node: Node) {
        let mut v = self.leaves + leaf;
        self.nodes[v] = node;
        while v > 1 {
            v /= 2;
            self.nodes[v] = combine(self.nodes[2 * v], self.nodes[2 * v + 1]);
        }
    }

    /// Window at `leaf` (of duration `p`, earliest start `est`) turns gray.
    fn gray(&mut self, leaf: usize, est: Val, p: Val) {
        self.set(leaf, Node { sum: 0, ect: NEVER, gray_sum: p, gray_ect: est + p });
    }

    fn remove(&mut self, leaf: usize) {
        self.set(leaf, EMPTY);
    }

    fn root(&self) -> Node {
        self.nodes[1]
    }

    /// The gray leaf whose task gives the root's `gray_ect`.
    fn responsible_for_ect(&self) -> usize {
        let mut v = 1;
        while v < self.leaves {
            let (node, l, r) = (self.nodes[v], self.nodes[2 * v], self.nodes[2 * v + 1]);
            if node.gray_ect == r.gray_ect {
                v = 2 * v + 1;
            } else if node.gray_ect == l.ect + r.gray_sum {
                return self.responsible_for_sum(2 * v + 1);
            } else {
                v *= 2;
            }
        }
        v - self.leaves
    }

    /// The gray leaf below `v` whose task gives `v`'s `gray_sum`.
    fn responsible_for_sum(&self, mut v: usize) -> usize {
        while v < self.leaves {
            let (node, l, r) = (self.nodes[v], self.nodes[2 * v], self.nodes[2 * v + 1]);
            v = if node.gray_sum == l.gray_sum + r.sum { 2 * v } else { 2 * v + 1 };
        }
        v - self.leaves
    }
}

/// New earliest starts by overload checking and edge finding on tasks that never overlap
/// (each duration at least 1); `Err` on overload.
pub(crate) fn edge_find(tasks: &[Window]) -> Result<Vec<Val>, Conflict> {
    let n = tasks.len();
    let mut est: Vec<Val> = tasks.iter().map(|t| t.est).collect();
    let mut by_est: Vec<usize> = (0..n).collect();
    by_est.sort_unstable_by_key(|&i| (tasks[i].est, i));
    let mut leaf_of = vec![0; n];
    for (k, &i) in by_est.iter().enumerate() {
        leaf_of[i] = k;
    }
    let mut by_lct: Vec<usize> = (0..n).collect();
    by_lct.sort_unstable_by_key(|&i| (std::cmp::Reverse(tasks[i].lct), i));
    let mut tree = ThetaLambda::new(tasks, &by_est);
    let mut gray_count = 0;
    for (q, &j) in by_lct.iter().enumerate() {
        if tree.root().ect > tasks[j].lct {
            return Err(Conflict);
        }
        let Some(&next) = by_lct.get(q + 1) else { break };
        tree.gray(leaf_of[j], tasks[j].est, tasks[j].p);
        gray_count += 1;
        let horizon = tasks[next].lct;
        // An overload first: then no gray task is to blame for the excess.
        if tree.root().ect > horizon {
            return Err(Conflict);
        }
        while gray_count > 0 && tree.root().gray_ect > horizon {
            let leaf = tree.responsible_for_ect();
            let i = by_est[leaf];
            est[i] = est[i].max(tree.root().ect);
            tree.remove(leaf);
            gray_count -= 1;
        }
    }
    Ok(est)
}

#[cfg(test)]
mod tests {
    use super::{edge_find, Window};
    use crate::domain::Val;
    use proptest::prelude::*;

    /// Edge finding by the task-interval form (`O(n³)`): every set `{k : lctₖ ≤ lctⱼ}`.
    fn by_task_intervals(tasks: &[Window]) -> Option<Vec<Val>> {
        let ect = |set: &[Window]| {
            let mut sorted = set.to_vec();
            sorted.sort_by_key(|t| t.est);
            sorted.iter().fold(Val::MIN / 4, |e, t| e.max(t.est) + t.p)
        };
        let mut est: Vec<Val> = tasks.iter().map(|t| t.est).collect();
        for j in tasks {
            let omega: Vec<Window> = tasks.iter().copied().filter(|t| t.lct <= j.lct).collect();
            if ect(&omega) > j.lct {
                return None;
            }
            for (i, t) in tasks.iter().enumerate() {
                let mut with = omega.clone();
                with.push(*t);
                if t.lct > j.lct && ect(&with) > j.lct {
                    est[i] = est[i].max(ect(&omega));
                }
            }
        }
        Some(est)
    }

    fn tasks() -> impl Strategy<Value = Vec<Window>> {
        prop::collection::vec((0i64..12, 1i64..5, 0i64..10), 1..14)
            .prop_map(|v| v.into_iter().map(|(est, p, slack)| Window { est, lct: est + p + slack, p }).collect())
    }

    proptest! {
        /// The tree finds what the task intervals find: the same overloads and bounds.
        #[test]
        fn agrees_with_the_task_interval_form(tasks in tasks()) {
            let tree = edge_find(&tasks).ok();
            prop_assert_eq!(tree, by_task_intervals(&tasks));
        }

        /// Every schedule (starts in their windows, no two tasks overlapping) starts each
        /// task no earlier than the bound found, and one exists only without an overload.
        #[test]
        fn never_cuts_off_a_schedule(tasks in tasks().prop_filter("small", |t| t.len() <= 5)) {
            let found = edge_find(&tasks);
            let n = tasks.len();
            let mut starts = vec![0; n];
            fn each(tasks: &[Window], k: usize, starts: &mut Vec<Val>, visit: &mut dyn FnMut(&[Val])) {
                if k == tasks.len() {
                    return visit(starts);
                }
                for s in tasks[k].est..=tasks[k].lct - tasks[k].p {
                    starts[k] = s;
                    each(tasks, k + 1, starts, visit);
                }
            }
            let mut ok = true;
            each(&tasks, 0, &mut starts, &mut |s| {
                let apart = (0..n).all(|i| (i + 1..n).all(|j| s[i] + tasks[i].p <= s[j] || s[j] + tasks[j].p <= s[i]));
                if apart {
                    match &found {
                        Err(_) => ok = false,
                        Ok(est) => ok &= (0..n).all(|i| s[i] >= est[i]),
                    }
                }
            });
            prop_assert!(ok, "a schedule cut off: {:?} -> {:?}", tasks, found);
        }
    }
}
