//! A first-in first-out queue that can push without a branch on whether to push.
//!
//! The propagation queues are filled in the hottest loop of the search: for each
//! constraint watching a changed variable, "is it queued already?" has no pattern a
//! branch predictor could learn. [`Ring::push_if`] writes the item whatever the answer
//! and moves the end of the queue by the answer, so that loop has no such branch.

/// A growable ring buffer of `Copy` items (capacity a power of two).
#[derive(Clone, Debug)]
pub(crate) struct Ring<T> {
    buf: Vec<T>,
    head: usize,
    len: usize,
}

impl<T: Copy + Default> Ring<T> {
    /// An empty queue with room for `capacity` items.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Ring {
            buf: vec![T::default(); (capacity + 1).next_power_of_two()],
            head: 0,
            len: 0,
        }
    }

    /// Makes room for `extra` more items, plus the slot [`Ring::push_if`] may write
    /// without keeping.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, extra: usize) {
        if self.len + extra >= self.buf.len() {
            self.grow(extra);
        }
    }

    /// Appends `item` if `keep`; the slot after the end is written either way. Needs the
    /// room of [`Ring::reserve`].
    #[inline(always)]
    pub(crate) fn push_if(&mut self, item: T, keep: bool) {
        debug_assert!(self.len < self.buf.len(), "reserve first");
        let mask = self.buf.len() - 1;
        self.buf[(self.head + self.len) & mask] = item;
        self.len += usize::from(keep);
    }

    /// [`Ring::push_if`] for each of `items` (at most `count` of them), with the room made
    /// once: the end of the queue stays in a register across the items instead of going
    /// through memory after each.
    #[inline(always)]
    pub(crate) fn extend_if(&mut self, count: usize, items: impl Iterator<Item = (T, bool)>) {
        self.reserve(count);
        let (head, mut len) = (self.head, self.len);
        let buf = &mut self.buf[..];
        let mask = buf.len() - 1;
        for (item, keep) in items {
            debug_assert!(len < buf.len(), "at most `count` items");
            buf[(head + len) & mask] = item;
            len += usize::from(keep);
        }
        self.len = len;
    }

    /// Appends `item`.
    #[inline(always)]
    pub(crate) fn push_back(&mut self, item: T) {
        self.reserve(1);
        self.push_if(item, true);
    }

    /// Removes and returns the first item.
    #[inline(always)]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head];
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        Some(item)
    }

    /// Number of items queued (for the tests: the search only pushes and pops).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Grows to a power of two above `len + extra`, keeping the items in order.
    #[cold]
    fn grow(&mut self, extra: usize) {
        let capacity = (self.len + extra + 1).next_power_of_two().max(2 * self.buf.len());
        let mask = self.buf.len() - 1;
        let mut buf: Vec<T> = (0..self.len).map(|i| self.buf[(self.head + i) & mask]).collect();
        buf.resize(capacity, T::default());
        self.buf = buf;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::Ring;

    #[test]
    fn keeps_order_across_growth_and_wrap_around() {
        let mut ring = Ring::with_capacity(2);
        let mut expected = std::collections::VecDeque::new();
        let mut next = 0u32;
        for round in 0..50 {
            ring.reserve(round % 7);
            for _ in 0..(round % 7) {
                let keep = !next.is_multiple_of(3);
                ring.push_if(next, keep);
                if keep {
                    expected.push_back(next);
                }
                next += 1;
            }
            for _ in 0..(round % 5) {
                assert_eq!(ring.pop_front(), expected.pop_front());
            }
            assert_eq!(ring.len(), expected.len());
        }
        while let Some(item) = expected.pop_front() {
            assert_eq!(ring.pop_front(), Some(item));
        }
        assert_eq!(ring.pop_front(), None);
    }

    #[test]
    fn extend_if_keeps_the_kept_items_in_order() {
        let mut ring = Ring::with_capacity(2);
        let mut expected = std::collections::VecDeque::new();
        for round in 0u32..40 {
            let items: Vec<(u32, bool)> = (0..round % 9)
                .map(|i| (round * 10 + i, (round + i) % 3 != 0))
                .collect();
            ring.extend_if(items.len(), items.iter().copied());
            expected.extend(items.iter().filter(|(_, keep)| *keep).map(|(item, _)| *item));
            for _ in 0..(round % 4) {
                assert_eq!(ring.pop_front(), expected.pop_front());
            }
            assert_eq!(ring.len(), expected.len());
        }
        assert!(expected.len() > 8, "the queue grew past its first capacity");
        while let Some(item) = expected.pop_front() {
            assert_eq!(ring.pop_front(), Some(item));
        }
        assert_eq!(ring.pop_front(), None);
    }
}
