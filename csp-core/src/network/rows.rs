//! Compressed rows: one flat array of items and where each row starts.

/// Compressed rows: `items[start[i]..start[i + 1]]` belong to row `i`.
pub(crate) struct Rows<T> {
    pub(super) start: Vec<u32>,
    pub(super) items: Vec<T>,
}

impl<T> Rows<T> {
    pub(crate) fn from_lists(lists: Vec<Vec<T>>) -> Self {
        let mut start = Vec::with_capacity(lists.len() + 1);
        start.push(0);
        let mut items = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for list in lists {
            items.extend(list);
            start.push(items.len() as u32);
        }
        Rows { start, items }
    }

    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// Where row `i` starts among all the items: item `k` of row `i` is item
    /// `offset(i) + k` of the whole.
    #[inline]
    pub(crate) fn offset(&self, i: usize) -> usize {
        self.start[i] as usize
    }

    /// The number of items in all rows.
    #[inline]
    pub(crate) fn total(&self) -> usize {
        self.items.len()
    }
}
