//! The trail: an undo log with level marks.
//!
//! Every change to search state (a domain's bounds, a word of its bitset, a trailed
//! integer, a propagator going dormant) pushes the old value here. Backtracking to a level
//! pops and restores entries in reverse order, so the state is exactly what it was when the
//! level was opened — without ever copying the whole state per node.

use fixedbitset::Block;

use crate::domain::Val;
use crate::ids::{PropId, TrailedInt, VarId};

#[derive(Debug, Clone, Copy)]
pub(crate) enum Undo {
    /// A domain of at most 64 values, whole.
    Small {
        var: VarId,
        min: Val,
        max: Val,
        word: Block,
    },
    Bounds {
        var: VarId,
        min: Val,
        max: Val,
        size: u64,
    },
    Block {
        var: VarId,
        index: u32,
        word: Block,
    },
    Int {
        id: TrailedInt,
        old: i64,
    },
    Revive {
        prop: PropId,
    },
}

#[derive(Debug, Default)]
pub(crate) struct Trail {
    entries: Vec<Undo>,
    /// For each open level: where its entries start, and its unique stamp.
    levels: Vec<(usize, u64)>,
    next_stamp: u64,
}

impl Trail {
    pub(crate) fn push(&mut self, undo: Undo) {
        self.entries.push(undo);
    }

    /// The number of open levels (0 at the root).
    pub(crate) fn depth(&self) -> usize {
        self.levels.len()
    }

    /// A number that identifies the current level instance: no two level instances (even at
    /// the same depth) share one, so "already saved at this stamp" is a safe test.
    pub(crate) fn stamp(&self) -> u64 {
        self.levels.last().map_or(0, |&(_, stamp)| stamp)
    }

    pub(crate) fn open_level(&mut self) {
        self.next_stamp += 1;
        self.levels.push((self.entries.len(), self.next_stamp));
    }

    /// Closes the innermost level and returns its entries, newest first, for undoing.
    pub(crate) fn close_level(&mut self) -> impl Iterator<Item = Undo> + '_ {
        let (start, _) = self.levels.pop().expect("close_level at the root");
        self.entries.drain(start..).rev()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_a_level_returns_only_its_entries_newest_first() {
        let mut trail = Trail::default();
        trail.push(Undo::Int { id: TrailedInt(0), old: 1 });
        trail.open_level();
        trail.push(Undo::Int { id: TrailedInt(0), old: 2 });
        trail.push(Undo::Int { id: TrailedInt(1), old: 3 });
        let undone: Vec<i64> = trail
            .close_level()
            .map(|u| match u {
                Undo::Int { old, .. } => old,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(undone, vec![3, 2]);
        assert_eq!(trail.depth(), 0);
    }

    #[test]
    fn stamps_are_never_reused() {
        let mut trail = Trail::default();
        trail.open_level();
        let first = trail.stamp();
        let _ = trail.close_level().count();
        trail.open_level();
        assert_ne!(trail.stamp(), first);
    }
}
