//! The history of a search branch: every domain change as a literal, with what caused it.
//!
//! The store's trail records what to undo, once per variable per level; learning needs
//! more: each change in the order it happened, as the fact it established (`x > 4`,
//! `x ≤ 7`, `x ≠ 3`), with its cause (a decision, a propagator, the objective bound) and
//! its decision level. Conflict analysis then asks, for a literal that holds now, which
//! event first made it hold ([`History::position`]), and what the domains were just before
//! an event ([`History::min_at`], ...), which is what a propagator's explanation reads.
//!
//! A change may establish more than its cause claimed: `x ≥ 3` on a domain `{1, 2, 4}`
//! moves the minimum to 4. The claimed literal is recorded with its cause, and the rest
//! (`x ≥ 4`) as a second event caused by [`Cause::Holes`], whose reason is the domain of
//! `x` just before it. So an explanation only ever has to justify what its propagator
//! asked for.

use crate::domain::{Domain, Val};
use crate::ids::{PropId, VarId};
use crate::literal::Literal;

/// Why a literal became true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The search decided it (the left or the right side of a decision).
    Decision,
    /// A fact for the rest of the search: the branch-and-bound cut, which only tightens.
    Axiom,
    /// A propagator deduced it from the domains of its variables.
    Prop(PropId),
    /// The domain's holes: it follows from the same variable's domain just before.
    Holes,
    /// A learned nogood of the database, by index ([`crate::learn::db::NogoodDb`]).
    Nogood(u32),
}

/// One domain change.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Event {
    /// What became true: `Gt` for a new minimum, `Le` for a new maximum, `Ne` for a hole.
    pub(crate) lit: Literal,
    pub(crate) cause: Cause,
    /// The trail depth at which it happened.
    pub(crate) level: u32,
}

/// The positions of one variable's events, by kind, oldest first. Along a branch a
/// variable's minimum only rises and its maximum only falls, so the values of its `Gt`
/// events increase and those of its `Le` events decrease: "since when does `x > 4` hold"
/// and "what was the minimum before event 812" are binary searches.
#[derive(Debug, Clone, Default)]
struct VarEvents {
    lower: Vec<u32>,
    upper: Vec<u32>,
    holes: Vec<u32>,
}

/// The events of the current branch, in order, with an index per variable.
#[derive(Debug)]
pub(crate) struct History {
    pub(crate) events: Vec<Event>,
    /// For each variable, the positions of its events of each kind, oldest first.
    by_var: Vec<VarEvents>,
    /// The position of the event that removed each value (a value is removed once in a
    /// branch, so the key is unique).
    hole_at: rustc_hash::FxHashMap<(VarId, Val), u32>,
    /// Each variable's domain when the search began (before its first event).
    root: Vec<Domain>,
    /// The decision taken at each depth (index = depth), when there is one.
    decisions: Vec<Option<Literal>>,
    /// Events at or above this depth are facts of the whole search, as if at the root.
    pub(crate) root_level: u32,
    /// What is running now: every change is charged to it.
    pub(crate) cause: Cause,
    /// The literals of the events backtracks undid since the last [`History::take_undone`]
    /// (each backtrack's newest first), when [`History::track_undone`]: activity-based
    /// selection takes their variables back as candidates and reads the phases they leave.
    undone: Vec<Literal>,
    /// Whether to keep `undone` (only activity-based selection reads it).
    pub(crate) track_undone: bool,
    /// The decisions taken so far: a backtrack after a new one leaves a new branch end.
    pub(crate) decisions_taken: u64,
    /// The fewest events there were since the nogood database last read them: the events
    /// from there on are new to it, even where backtracks undid as many as came after.
    pub(crate) unread_from: usize,
}

impl History {
    /// A history for a search over `domains`, whose root is the level `root_level`.
    pub(crate) fn new(domains: &[Domain], root_level: u32) -> History {
        History {
            events: Vec::new(),
            by_var: vec![VarEvents::default(); domains.len()],
            hole_at: rustc_hash::FxHashMap::default(),
            root: domains.to_vec(),
            decisions: Vec::new(),
            root_level,
            cause: Cause::Axiom,
            undone: Vec::new(),
            track_undone: false,
            decisions_taken: 0,
            unread_from: 0,
        }
    }

    /// Records a change of `x` that established each of `claimed` (charged to the current
    /// cause), given the bounds before it and the domain after it; bounds that moved beyond
    /// what was claimed are recorded as [`Cause::Holes`] events.
    pub(crate) fn record(&mut self, x: VarId, claimed: &[Literal], old: (Val, Val), now: &Domain, level: usize) {
        let level = level as u32;
        let (mut min, mut max) = old;
        for &lit in claimed {
            match lit {
                Literal::Gt(_, v) => min = min.max(v + 1),
                Literal::Le(_, v) => max = max.min(v),
                _ => {}
            }
            self.push(x, Event { lit, cause: self.cause, level });
        }
        if now.min > min {
            self.push(x, Event { lit: Literal::Gt(x, now.min - 1), cause: Cause::Holes, level });
        }
        if now.max < max {
            self.push(x, Event { lit: Literal::Le(x, now.max), cause: Cause::Holes, level });
        }
    }

    fn push(&mut self, x: VarId, event: Event) {
        let p = self.events.len() as u32;
        let lists = &mut self.by_var[x.index()];
        match event.lit {
            Literal::Gt(..) => lists.lower.push(p),
            Literal::Le(..) => lists.upper.push(p),
            Literal::Ne(_, v) => {
                lists.holes.push(p);
                self.hole_at.insert((x, v), p);
            }
            Literal::Eq(..) => unreachable!("an event is a bound or a hole"),
        }
        self.events.push(event);
    }

    /// Records the decision applied at `depth`.
    pub(crate) fn set_decision(&mut self, depth: usize, decision: Literal) {
        self.decisions_taken += 1;
        if self.decisions.len() <= depth {
            self.decisions.resize(depth + 1, None);
        }
        self.decisions[depth] = Some(decision);
    }

    /// The decision taken at `level`.
    pub(crate) fn decision(&self, level: u32) -> Option<Literal> {
        self.decisions.get(level as usize).copied().flatten()
    }

    /// Forgets the events of the levels deeper than `depth` (they are being undone).
    pub(crate) fn backtrack_to(&mut self, depth: usize) {
        while let Some(&e) = self.events.last() {
            if e.level as usize <= depth {
                break;
            }
            let x = e.lit.var();
            let lists = &mut self.by_var[x.index()];
            match e.lit {
                Literal::Gt(..) => lists.lower.pop(),
                Literal::Le(..) => lists.upper.pop(),
                Literal::Ne(_, v) => {
                    self.hole_at.remove(&(x, v));
                    lists.holes.pop()
                }
                Literal::Eq(..) => None,
            };
            self.events.pop();
            if self.track_undone {
                self.undone.push(e.lit);
            }
        }
        self.decisions.truncate(depth + 1);
        self.unread_from = self.unread_from.min(self.events.len());
    }

    /// The literals of the events undone by backtracks since the last call (each
    /// backtrack's newest first).
    pub(crate) fn take_undone(&mut self) -> std::vec::Drain<'_, Literal> {
        self.undone.drain(..)
    }

    /// The value of the bound event at position `p`.
    fn bound(&self, p: u32) -> Val {
        match self.events[p as usize].lit {
            Literal::Gt(_, v) | Literal::Le(_, v) => v,
            _ => unreachable!("a bound event"),
        }
    }

    /// The minimum of `x` just before position `at`.
    pub(crate) fn min_at(&self, x: VarId, at: usize) -> Val {
        let lower = &self.by_var[x.index()].lower;
        match lower.partition_point(|&p| (p as usize) < at) {
            0 => self.root[x.index()].min,
            i => self.bound(lower[i - 1]) + 1,
        }
    }

    /// The maximum of `x` just before position `at`.
    pub(crate) fn max_at(&self, x: VarId, at: usize) -> Val {
        let upper = &self.by_var[x.index()].upper;
        match upper.partition_point(|&p| (p as usize) < at) {
            0 => self.root[x.index()].max,
            i => self.bound(upper[i - 1]),
        }
    }

    /// Whether `v` was in the domain of `x` just before position `at`.
    pub(crate) fn contains_at(&self, x: VarId, v: Val, at: usize) -> bool {
        v >= self.min_at(x, at)
            && v <= self.max_at(x, at)
            && self.hole_at.get(&(x, v)).is_none_or(|&p| p as usize >= at)
            && self.root[x.index()].contains(v)
    }

    /// The values of `x` removed by `≠` events before `at`, within its bounds then (a bound
    /// itself included: its removal may be what the next bound event explains).
    pub(crate) fn holes_at(&self, x: VarId, at: usize) -> Vec<Val> {
        let (lo, hi) = (self.min_at(x, at), self.max_at(x, at));
        let holes = &self.by_var[x.index()].holes;
        let end = holes.partition_point(|&p| (p as usize) < at);
        let mut values: Vec<Val> = holes[..end]
            .iter()
            .filter_map(|&p| match self.events[p as usize].lit {
                Literal::Ne(_, v) if v >= lo && v <= hi => Some(v),
                _ => None,
            })
            .collect();
        values.sort_unstable();
        values
    }

    /// The position of the first event that made `lit` hold, or `None` when it held when
    /// the search began. `lit` must hold now; `Eq` literals are asked for as their two
    /// bounds.
    pub(crate) fn position(&self, lit: Literal) -> Option<usize> {
        let x = lit.var();
        let root = &self.root[x.index()];
        let lists = &self.by_var[x.index()];
        // The first `Gt` event at least `x > v`, the first `Le` event at most `x ≤ v`.
        let first_gt = |v: Val| {
            let i = lists.lower.partition_point(|&p| self.bound(p) < v);
            lists.lower.get(i).map(|&p| p as usize)
        };
        let first_le = |v: Val| {
            let i = lists.upper.partition_point(|&p| self.bound(p) > v);
            lists.upper.get(i).map(|&p| p as usize)
        };
        match lit {
            Literal::Gt(_, v) if root.min > v => None,
            Literal::Le(_, v) if root.max <= v => None,
            Literal::Ne(_, v) if !root.contains(v) => None,
            Literal::Gt(_, v) => first_gt(v),
            Literal::Le(_, v) => first_le(v),
            Literal::Ne(_, v) => {
                let hole = self.hole_at.get(&(x, v)).map(|&p| p as usize);
                [hole, first_gt(v), first_le(v - 1)].into_iter().flatten().min()
            }
            Literal::Eq(..) => None,
        }
    }

    /// The level at which `lit` (which holds now) came to hold, `None` when it held when the
    /// search began.
    pub(crate) fn level_of(&self, lit: Literal) -> Option<u32> {
        match lit {
            Literal::Eq(x, v) => {
                let (a, b) = (self.level_of(Literal::Gt(x, v - 1)), self.level_of(Literal::Le(x, v)));
                a.max(b)
            }
            _ => self.position(lit).map(|p| self.events[p].level),
        }
    }

    /// The position of the first event below the search's root level: the domains just
    /// before it are the facts the whole search shares.
    pub(crate) fn first_after_root(&self) -> usize {
        self.events.partition_point(|e| e.level <= self.root_level)
    }

    /// The bounds of `x` when the search began.
    pub(crate) fn root_bounds(&self, x: VarId) -> (Val, Val) {
        let d = &self.root[x.index()];
        (d.min, d.max)
    }

    /// The literals that describe the domain of `x` just before `at`, beyond what held
    /// when the search began: its bounds and its holes. Together they imply the domain.
    pub(crate) fn domain_literals(&self, x: VarId, at: usize, out: &mut Vec<Literal>) {
        let (root_lo, root_hi) = self.root_bounds(x);
        let (lo, hi) = (self.min_at(x, at), self.max_at(x, at));
        if lo > root_lo {
            out.push(Literal::Gt(x, lo - 1));
        }
        if hi < root_hi {
            out.push(Literal::Le(x, hi));
        }
        out.extend(self.holes_at(x, at).into_iter().map(|v| Literal::Ne(x, v)));
    }
}
