//! Regular: the word `x₁ x₂ … xₙ` is accepted by a deterministic finite automaton
//! (MiniZinc's `regular`; symbols are the values `1..=S`, states are numbered from 0 here).
//!
//! A DFA reads the word one symbol at a time, moving from state to state along its
//! transition function `δ(q, s)`, which may be undefined (a dead end); the word is
//! accepted when the walk from the start state ends in an accepting state. Many rules of
//! rostering and puzzles are such languages: "no three 1s in a row", the blocks of a
//! nonogram row, "a night shift is followed by a rest day".
//!
//! Filtering follows Pesant's layered graph ("A regular language membership constraint
//! for finite sequences of variables", CP 2004). Unfold the automaton over the sequence:
//! layer `j` (for `j = 0..=n`) holds a copy of every state, and an edge `q --v--> q'` joins
//! layer `j` to layer `j + 1` when `δ(q, v) = q'` and `v` is still in the domain of the
//! variable at position `j`. Every path from the start state in layer 0 to an accepting
//! state in layer `n` spells an accepted word, and every accepted word of the current
//! domains is such a path. A state of a layer is *live* when it is reachable from the start
//! and co-reachable to an accepting state of the last layer: it lies on such a path. A value
//! `v` stays at position `j` exactly when some edge labelled `v` joins a live state of layer
//! `j` to a live state of layer `j + 1`: that edge lies on a full path, an accepted word that
//! gives position `j` the value `v`. This is domain consistency.
//!
//! The live sets are computed by two sweeps: forward, a state stays live only if a live
//! state of the layer before leads to it (reachability); then backward, only if it leads to
//! a live state of the layer after (co-reachability). Starting from any sets that contain
//! the true live sets (at the first call: the start, every state, the accepting states),
//! one forward sweep then one backward sweep give exactly the live sets.
//!
//! Incrementality. Pesant keeps, for each state, counts of its incoming and outgoing edges.
//! Here the live sets themselves are kept, as bit sets in trailed integers (so backtracking
//! restores them with the domains), together with each position's domain size when they
//! were computed: domains only shrink along a branch, so a size that differs is a domain
//! that lost values. A call starts from the kept sets, which contain the new live sets, and
//! sweeps only where something changed: forward from the first changed position until a
//! layer past the last one stays the same, backward from the last changed position until a
//! layer before the first one stays the same (in an unchanged stretch, the kept sets already
//! agree with each other). Values are pruned only at positions whose domain or neighbouring
//! live sets changed. A branching that fixes one variable thus costs the layers around it,
//! not the whole sequence.

use super::regular_reasons::{Dfa, DEAD};
use crate::domain::Val;
use crate::ids::{TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Priority, PropResult, PropStatus};
use crate::propagator::{Context, PostContext, Propagator};

/// A word accepted by a deterministic finite automaton, domain consistent on the layered graph; posted by [`crate::constraints::regular`].
#[derive(Debug, Clone)]
pub struct Regular {
    vars: Vec<VarId>,
    states: usize,
    symbols: usize,
    /// `next[q * symbols + s]`: the state after reading the value `s + 1` in state `q`, or
    /// [`DEAD`].
    next: Vec<u32>,
    start: u32,
    accepting: Vec<bool>,
    /// No variable is read at two positions. Then pruning one position cannot change the
    /// domain of another, so the live sets stay exact after a call: it reaches its fixpoint.
    distinct: bool,
    /// The number of 64-bit words in the bit set of one layer.
    words: usize,
    /// Trailed: the live states of each layer, as bit sets (word `w` of layer `j` at
    /// `j * words + w`, each `u64` stored as an `i64`), exact for the domains of `sizes`.
    live: Vec<TrailedInt>,
    /// Trailed: the domain size of each position when `live` was computed (-1 before the
    /// first call).
    sizes: Vec<TrailedInt>,
    /// Scratch of one call (nothing in it outlives the call, so nothing is trailed): the
    /// live sets being updated, laid out as `live`...
    sets: Vec<u64>,
    /// ...whether each layer's set changed in this call...
    touched: Vec<bool>,
    /// ...whether each position's domain changed since the sets were computed...
    changed: Vec<bool>,
    /// ...each position's domain as symbols (`s = v - 1`), read once per call when first
    /// needed (`read_at[j] == call`)...
    domain: Vec<Vec<u32>>,
    read_at: Vec<u64>,
    call: u64,
    /// ...and buffers: a layer's new set, the values supported at one position.
    new: Vec<u64>,
    supported: Vec<bool>,
}

impl Regular {
    /// `next` holds `states × symbols` entries, each a state below `states` or [`DEAD`];
    /// `start < states`, `accepting` has one flag per state (checked by the post function).
    pub(crate) fn new(
        vars: Vec<VarId>,
        states: usize,
        symbols: usize,
        next: Vec<u32>,
        start: u32,
        accepting: Vec<bool>,
    ) -> Regular {
        let n = vars.len();
        let words = states.div_ceil(64);
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        sorted.dedup();
        Regular {
            distinct: sorted.len() == n,
            vars,
            states,
            symbols,
            next,
            start,
            accepting,
            words,
            live: Vec::new(),
            sizes: Vec::new(),
            sets: vec![0; (n + 1) * words],
            touched: vec![false; n + 1],
            changed: vec![false; n],
            domain: vec![Vec::new(); n],
            read_at: vec![0; n],
            call: 0,
            new: vec![0; words],
            supported: vec![false; symbols],
        }
    }

    fn dfa(&self) -> Dfa<'_> {
        Dfa {
            vars: &self.vars,
            states: self.states,
            symbols: self.symbols,
            next: &self.next,
            start: self.start,
            accepting: &self.accepting,
        }
    }

    fn step(&self, q: usize, s: u32) -> u32 {
        self.next[q * self.symbols + s as usize]
    }

    fn layer(&self, j: usize) -> &[u64] {
        &self.sets[j * self.words..(j + 1) * self.words]
    }

    /// The states of a bit set.
    fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
        set.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }

    fn contains(set: &[u64], q: u32) -> bool {
        set[q as usize / 64] >> (q % 64) & 1 == 1
    }

    /// The symbols of the domain at position `j`, read once per call.
    fn read_domain(&mut self, cx: &Context<'_>, j: usize) {
        if self.read_at[j] != self.call {
            self.read_at[j] = self.call;
            let last = self.symbols as Val;
            let domain = &mut self.domain[j];
            domain.clear();
            // The post function bounds every domain by 1..=S, so this visits at most S values.
            domain.extend(cx.values(self.vars[j]).filter(|&v| 1 <= v && v <= last).map(|v| (v - 1) as u32));
        }
    }

    /// Replaces layer `j` by `new` if they differ, noting the change; `Err` if it is empty.
    fn update(&mut self, j: usize, new: &[u64]) -> Result<bool, Conflict> {
        let range = j * self.words..(j + 1) * self.words;
        if self.sets[range.clone()] == *new {
            return Ok(false);
        }
        self.sets[range].copy_from_slice(new);
        self.touched[j] = true;
        if new.iter().all(|&w| w == 0) {
            return Err(Conflict);
        }
        Ok(true)
    }

    /// Forward step over position `j`: layer `j + 1` keeps the states a state of layer `j`
    /// leads to. Whether it changed.
    fn forward(&mut self, cx: &Context<'_>, j: usize, new: &mut [u64]) -> Result<bool, Conflict> {
        self.read_domain(cx, j);
        new.fill(0);
        for q in Self::members(self.layer(j)) {
            for &s in &self.domain[j] {
                let to = self.step(q, s);
                if to != DEAD {
                    new[to as usize / 64] |= 1 << (to % 64);
                }
            }
        }
        for (n, &old) in new.iter_mut().zip(self.layer(j + 1)) {
            *n &= old;
        }
        self.update(j + 1, new)
    }

    /// Backward step over position `j`: layer `j` keeps the states that lead to a state of
    /// layer `j + 1`. Whether it changed.
    fn backward(&mut self, cx: &Context<'_>, j: usize, new: &mut [u64]) -> Result<bool, Conflict> {
        self.read_domain(cx, j);
        new.fill(0);
        let after = self.layer(j + 1);
        for q in Self::members(self.layer(j)) {
            if self.domain[j].iter().any(|&s| {
                let to = self.step(q, s);
                to != DEAD && Self::contains(after, to)
            }) {
                new[q / 64] |= 1 << (q % 64);
            }
        }
        self.update(j, new)
    }

    /// The forward then the backward sweep, from the kept sets, around the positions
    /// `first..=last` whose domains changed.
    fn sweep(&mut self, cx: &Context<'_>, first: usize, last: usize, new: &mut [u64]) -> Result<(), Conflict> {
        let n = self.vars.len();
        // Forward from the first change; past the last one, an unchanged layer leaves the
        // rest unchanged.
        for j in first..n {
            if !self.forward(cx, j, new)? && j >= last {
                break;
            }
        }
        // Backward from the last change (the forward sweep removed no state that a state
        // after the last change leads to); before the first one, likewise.
        for j in (0..=last).rev() {
            if !self.backward(cx, j, new)? && j < first {
                break;
            }
        }
        Ok(())
    }

    /// Keeps at position `j` the values of the edges between live states of layers `j` and
    /// `j + 1`.
    fn prune(&mut self, cx: &mut Context<'_>, j: usize, supported: &mut [bool]) -> Result<(), Conflict> {
        self.read_domain(cx, j);
        supported.fill(false);
        let after = self.layer(j + 1);
        for q in Self::members(self.layer(j)) {
            for &s in &self.domain[j] {
                let to = self.step(q, s);
                if to != DEAD && Self::contains(after, to) {
                    supported[s as usize] = true;
                }
            }
        }
        let last = self.symbols as Val;
        // Values outside 1..=S are no symbols: they go as well.
        let _ = cx.retain(self.vars[j], |_, v| 1 <= v && v <= last && supported[(v - 1) as usize])?;
        Ok(())
    }
}

impl Propagator for Regular {
    fn name(&self) -> &'static str {
        "regular"
    }

    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult {
        for &x in &self.vars {
            cx.subscribe(x, Events::DOMAIN);
        }
        // Sets that contain the live ones: the start, then every state, then the accepting
        // states. The first call sweeps the whole sequence, since every size differs.
        let n = self.vars.len();
        let mut initial = vec![0u64; (n + 1) * self.words];
        let layer = |j: usize, q: usize| j * self.words + q / 64;
        initial[layer(0, self.start as usize)] |= 1 << (self.start % 64);
        for j in 1..n {
            for q in 0..self.states {
                initial[layer(j, q)] |= 1 << (q % 64);
            }
        }
        for q in (0..self.states).filter(|&q| self.accepting[q]) {
            initial[layer(n, q)] |= 1 << (q % 64);
        }
        self.live = initial.iter().map(|&w| cx.new_int(w as i64)).collect();
        self.sizes = (0..n).map(|_| cx.new_int(-1)).collect();
        Ok(PropStatus::Active)
    }

    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult {
        let n = self.vars.len();
        self.call += 1;
        let mut first = None;
        let mut last = 0;
        for j in 0..n {
            self.changed[j] = cx.size(self.vars[j]) as i64 != cx.int(self.sizes[j]);
            if self.changed[j] {
                first = first.or(Some(j));
                last = j;
            }
        }
        let Some(first) = first else {
            return Ok(PropStatus::Active);
        };
        for (set, &id) in self.sets.iter_mut().zip(&self.live) {
            *set = cx.int(id) as u64;
        }
        self.touched.fill(false);
        // Buffers go back before a conflict is returned, to be there at the next call.
        let mut new = std::mem::take(&mut self.new);
        let swept = self.sweep(cx, first, last, &mut new);
        self.new = new;
        swept?;
        let read_sizes: Vec<i64> =
            if self.distinct { Vec::new() } else { self.vars.iter().map(|&x| cx.size(x) as i64).collect() };
        let mut supported = std::mem::take(&mut self.supported);
        let pruned = (0..n).try_for_each(|j| {
            if self.changed[j] || self.touched[j] || self.touched[j + 1] {
                self.prune(cx, j, &mut supported)
            } else {
                Ok(())
            }
        });
        self.supported = supported;
        pruned?;
        for (k, &id) in self.live.iter().enumerate() {
            if self.touched[k / self.words] {
                cx.set_int(id, self.sets[k] as i64);
            }
        }
        for (j, (&x, &id)) in self.vars.iter().zip(&self.sizes).enumerate() {
            // With distinct variables, the removed values carried no edge between live states:
            // the sets are exact for the domains as pruned. Otherwise, pruning one position may
            // have cut edges at another: the next call must see those domains as changed.
            let size = if self.distinct { cx.size(x) as i64 } else { read_sizes[j] };
            if cx.int(id) != size {
                cx.set_int(id, size);
            }
        }
        Ok(PropStatus::Active)
    }

    fn idempotent(&self) -> bool {
        self.distinct
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    /// Runs the automaton over the values.
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool {
        let mut q = self.start;
        for &x in &self.vars {
            let v = value(x);
            if v < 1 || v > self.symbols as Val {
                return false;
            }
            q = self.step(q as usize, (v - 1) as u32);
            if q == DEAD {
                return false;
            }
        }
        self.accepting[q as usize]
    }

    fn vars(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    /// A removed value: the missing values of the other positions that cut every path
    /// through it (`regular_reasons.rs`).
    fn explain(&self, lit: Literal, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.dfa().explain(lit, cx)
    }

    /// No accepted word: the missing values that cut every path from the start.
    fn explain_conflict(&self, cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        self.dfa().explain_conflict(cx)
    }
}
