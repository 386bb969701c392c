//! An indexed binary min-heap over the positions `0..n` of a group, keyed by `(key, position)`.
//!
//! "Indexed": each position knows its slot in the heap, so a key that changed is moved up or
//! down in `O(log n)` and a position leaves or comes back without a search. Comparing the
//! position after the key makes equal keys come out in group order, the tie rule of the
//! scan it replaces (`min_by_key` keeps the first of equal keys).

const ABSENT: u32 = u32::MAX;

#[derive(Debug, Default)]
pub(crate) struct IndexedHeap {
    /// The heap proper: positions, the smallest `(key, position)` first.
    heap: Vec<u32>,
    /// Per position, its index in `heap`, or `ABSENT`.
    slot: Vec<u32>,
    /// Per position, its key (meaningful while it is in the heap).
    keys: Vec<u128>,
}

impl IndexedHeap {
    /// An empty heap for the positions `0..n`.
    pub(crate) fn new(n: usize) -> IndexedHeap {
        IndexedHeap { heap: Vec::with_capacity(n), slot: vec![ABSENT; n], keys: vec![0; n] }
    }

    /// Makes room for the positions up to `n` (a heap whose positions are created lazily).
    pub(crate) fn grow(&mut self, n: usize) {
        if n > self.slot.len() {
            self.slot.resize(n, ABSENT);
            self.keys.resize(n, 0);
        }
    }

    /// The position with the smallest key (the earliest of equal keys).
    #[inline]
    pub(crate) fn top(&self) -> Option<u32> {
        self.heap.first().copied()
    }

    /// Inserts `pos` with `key`, or moves it to its new place if it is in already.
    pub(crate) fn set(&mut self, pos: u32, key: u128) {
        let p = pos as usize;
        let old = self.keys[p];
        self.keys[p] = key;
        match self.slot[p] {
            ABSENT => {
                self.slot[p] = self.heap.len() as u32;
                self.heap.push(pos);
                self.sift_up(self.heap.len() - 1);
            }
            i if key < old => self.sift_up(i as usize),
            i if key > old => self.sift_down(i as usize),
            _ => {}
        }
    }

    /// Whether `pos` is in the heap.
    #[inline]
    pub(crate) fn contains(&self, pos: u32) -> bool {
        self.slot[pos as usize] != ABSENT
    }

    /// Takes `pos` out, if it is in.
    pub(crate) fn remove(&mut self, pos: u32) {
        let i = self.slot[pos as usize];
        if i == ABSENT {
            return;
        }
        let i = i as usize;
        self.slot[pos as usize] = ABSENT;
        let last = self.heap.pop().expect("a position in the heap");
        if i < self.heap.len() {
            // The last entry fills the hole, then goes wherever its key sends it.
            self.heap[i] = last;
            self.slot[last as usize] = i as u32;
            self.sift_up(i);
            self.sift_down(self.slot[last as usize] as usize);
        }
    }

    #[inline]
    fn less(&self, a: u32, b: u32) -> bool {
        (self.keys[a as usize], a) < (self.keys[b as usize], b)
    }

    fn sift_up(&mut self, mut i: usize) {
        let pos = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let above = self.heap[parent];
            if !self.less(pos, above) {
                break;
            }
            self.heap[i] = above;
            self.slot[above as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = pos;
        self.slot[pos as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let pos = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.less(self.heap[right], self.heap[left]) { right } else { left };
            let below = self.heap[child];
            if !self.less(below, pos) {
                break;
            }
            self.heap[i] = below;
            self.slot[below as usize] = i as u32;
            i = child;
        }
        self.heap[i] = pos;
        self.slot[pos as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_is_the_smallest_key_and_then_the_earliest_position() {
        let mut heap = IndexedHeap::new(6);
        for (pos, key) in [(0, 5), (1, 3), (2, 3), (3, 9), (4, 1), (5, 1)] {
            heap.set(pos, key);
        }
        assert_eq!(heap.top(), Some(4));
        heap.remove(4);
        assert_eq!(heap.top(), Some(5));
        heap.set(5, 7);
        assert_eq!(heap.top(), Some(1));
        heap.set(3, 0);
        assert_eq!(heap.top(), Some(3));
        for pos in 0..6 {
            heap.remove(pos);
        }
        assert_eq!(heap.top(), None);
    }
}
