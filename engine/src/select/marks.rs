//! What the store tells variable selection: which variables' scores may have changed.
//!
//! The store calls [`Marks::changed`] after every domain change and every domain restored on
//! backtracking, and [`Marks::killed`], [`Marks::revived`], [`Marks::weighed`] when a
//! propagator goes dormant, wakes up again or fails (its dom/wdeg weight grows; the nogood
//! database's failures do not weigh, so the solver does not call it for them), and
//! [`Marks::subscribed`] when a propagator watches one more variable during a search (the
//! nogood database does, as it learns: the scan counts that watch in the degree). A variable
//! that some score-ordered group holds is then put once on the dirty list, whose scores the
//! selector recomputes at the next decision; any other variable costs one byte test. While
//! no search runs, nothing is tracked and every call is that one test.
//!
//! The degree (alive watchers) and wdeg (sum of their failure weights) of the tracked
//! variables are kept here incrementally, when a group's order needs them: a propagator
//! that dies, wakes or fails updates the variables it watches, instead of every decision
//! summing over every watcher of every variable.

use crate::ids::{PropId, VarId};

/// Per variable: not held by a score-ordered group.
pub(crate) const UNTRACKED: u8 = 0;
/// Held by one, and its key in the heaps is up to date.
pub(crate) const CLEAN: u8 = 1;
/// Held by one, and on the dirty list.
pub(crate) const DIRTY: u8 = 2;

#[derive(Debug, Default)]
pub(crate) struct Marks {
    /// Per variable, `UNTRACKED`, `CLEAN` or `DIRTY`; empty while no search tracks.
    pub(crate) state: Vec<u8>,
    /// The `DIRTY` variables, each once.
    pub(crate) dirty: Vec<VarId>,
    /// For the propagators known when the degrees were counted (`0..prop_start.len() - 1`):
    /// `prop_vars[prop_start[p]..prop_start[p + 1]]` are the tracked variables `p` watches,
    /// once per watch (as the scan counted them). Empty when no order needs degrees.
    pub(crate) prop_start: Vec<u32>,
    pub(crate) prop_vars: Vec<u32>,
    /// Per known propagator, the tracked variables it subscribed to after the count (the
    /// nogood database subscribes as it learns); empty until one does.
    pub(crate) late_vars: Vec<Vec<u32>>,
    /// Per tracked variable: its alive watchers, and the sum of their weights.
    pub(crate) degree: Vec<u32>,
    pub(crate) wdeg: Vec<u64>,
    /// Per known propagator, its dom/wdeg weight (the solver's, mirrored).
    pub(crate) weight: Vec<u64>,
}

impl Marks {
    /// `x`'s domain changed or was restored.
    #[inline]
    pub(crate) fn changed(&mut self, x: VarId) {
        if let Some(state) = self.state.get_mut(x.index()) {
            if *state == CLEAN {
                *state = DIRTY;
                self.dirty.push(x);
            }
        }
    }

    /// Whether some variable is tracked (a search with a score-ordered heap runs).
    #[inline]
    pub(crate) fn tracking(&self) -> bool {
        !self.state.is_empty()
    }

    /// Whether the degrees of `p`'s variables are kept here.
    #[inline]
    fn knows(&self, p: PropId) -> bool {
        p.index() + 1 < self.prop_start.len()
    }

    /// `p`, alive or not, now watches `x` too (once more, if it watched it already: the scan
    /// counts every watch).
    #[inline]
    pub(crate) fn subscribed(&mut self, x: VarId, p: PropId, alive: bool) {
        // A propagator posted after the count is counted at the next decision (the number
        // of propagators changed), with all of its watches.
        if !self.knows(p) || self.state.get(x.index()).is_none_or(|&s| s == UNTRACKED) {
            return;
        }
        if self.late_vars.len() <= p.index() {
            self.late_vars.resize_with(p.index() + 1, Vec::new);
        }
        self.late_vars[p.index()].push(x.0);
        if alive {
            self.degree[x.index()] += 1;
            self.wdeg[x.index()] += self.weight[p.index()];
            self.changed(x);
        }
    }

    /// Calls `f` on each tracked variable `p` watches, once per watch: those of the count,
    /// then those it subscribed to since.
    #[inline]
    fn for_each_var(&mut self, p: PropId, mut f: impl FnMut(&mut Marks, usize)) {
        for i in self.prop_start[p.index()]..self.prop_start[p.index() + 1] {
            let x = self.prop_vars[i as usize] as usize;
            f(self, x);
        }
        for i in 0..self.late_vars.get(p.index()).map_or(0, Vec::len) {
            let x = self.late_vars[p.index()][i] as usize;
            f(self, x);
        }
    }

    /// `p` went dormant: its variables lose it from their degree and wdeg.
    #[inline]
    pub(crate) fn killed(&mut self, p: PropId) {
        if self.knows(p) {
            self.shift(p, false);
        }
    }

    /// `p` woke up again on backtracking.
    #[inline]
    pub(crate) fn revived(&mut self, p: PropId) {
        if self.knows(p) {
            self.shift(p, true);
        }
    }

    /// `p` failed: its weight grew by one, and so did the wdeg of its variables (it is alive:
    /// only alive propagators run).
    #[inline]
    pub(crate) fn weighed(&mut self, p: PropId) {
        if self.knows(p) {
            self.weight[p.index()] += 1;
            self.for_each_var(p, |marks, x| {
                marks.wdeg[x] += 1;
                marks.changed(VarId(x as u32));
            });
        }
    }

    fn shift(&mut self, p: PropId, alive: bool) {
        let w = self.weight[p.index()];
        self.for_each_var(p, |marks, x| {
            if alive {
                marks.degree[x] += 1;
                marks.wdeg[x] += w;
            } else {
                marks.degree[x] -= 1;
                marks.wdeg[x] -= w;
            }
            marks.changed(VarId(x as u32));
        });
    }

    /// Stops tracking (the search ended): every call is one test again.
    pub(crate) fn clear(&mut self) {
        self.state.clear();
        self.dirty.clear();
        self.prop_start.clear();
        self.prop_vars.clear();
        self.late_vars.clear();
        self.degree.clear();
        self.wdeg.clear();
        self.weight.clear();
    }
}
