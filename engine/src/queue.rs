//! The propagation queue: one FIFO per priority, each propagator queued at most once.
//!
//! Cheap propagators (binary disequalities) run before costly ones (all-different with Hall
//! intervals), so the costly ones see domains that the cheap ones have already pruned.

use std::collections::VecDeque;

use crate::ids::PropId;
use crate::outcome::Priority;

#[derive(Debug, Default)]
pub(crate) struct Queue {
    buckets: [VecDeque<PropId>; Priority::COUNT],
    queued: Vec<bool>,
    priority: Vec<Priority>,
}

impl Queue {
    pub(crate) fn register(&mut self, priority: Priority) {
        self.queued.push(false);
        self.priority.push(priority);
    }

    pub(crate) fn push(&mut self, prop: PropId) {
        let i = prop.index();
        if !self.queued[i] {
            self.queued[i] = true;
            self.buckets[self.priority[i] as usize].push_back(prop);
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<PropId> {
        for bucket in &mut self.buckets {
            if let Some(prop) = bucket.pop_front() {
                self.queued[prop.index()] = false;
                return Some(prop);
            }
        }
        None
    }

    /// Forgets the propagators from `first` on; none of them may be queued.
    pub(crate) fn truncate(&mut self, first: usize) {
        debug_assert!(self.queued[first.min(self.queued.len())..].iter().all(|&q| !q));
        self.queued.truncate(first);
        self.priority.truncate(first);
    }

    pub(crate) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            for prop in bucket.drain(..) {
                self.queued[prop.index()] = false;
            }
        }
    }
}
