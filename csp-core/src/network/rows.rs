//! Compressed rows: one flat array of items and where each row starts.

/// Compressed rows: `items[start[i]..start[i + 1]]` belong to row `i`.
pub(crate) struct Rows<T> {
    pub(super) start: Vec<u32>,
    pub(super) items: Vec<T>,
}

impl<T> Rows<T> {
    /// Rows given one after the other, without a list per row: a model of millions of
    /// variables pays four bytes per row, not a vector.
    pub(super) fn from_rows<R: IntoIterator<Item = T>>(rows: impl IntoIterator<Item = R>) -> Self {
        let rows = rows.into_iter();
        let mut start = Vec::with_capacity(rows.size_hint().0 + 1);
        start.push(0);
        let mut items = Vec::new();
        for row in rows {
            items.extend(row);
            start.push(items.len() as u32);
        }
        Rows { start, items }
    }

    /// The number of rows.
    pub(crate) fn num_rows(&self) -> usize {
        self.start.len() - 1
    }

    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

impl<T: Copy> Rows<T> {
    /// Rows of items tagged with their row, each row keeping its items in the order
    /// given: a counting sort, with no list per row.
    pub(super) fn from_tagged(num_rows: usize, tagged: &[(u32, T)]) -> Self {
        let mut start = vec![0u32; num_rows + 1];
        for &(row, _) in tagged {
            start[row as usize + 1] += 1;
        }
        for i in 0..num_rows {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut order = vec![0u32; tagged.len()];
        for (k, &(row, _)) in tagged.iter().enumerate() {
            order[next[row as usize] as usize] = k as u32;
            next[row as usize] += 1;
        }
        let items = order.iter().map(|&k| tagged[k as usize].1).collect();
        Rows { start, items }
    }
}
