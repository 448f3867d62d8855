//! Compressed rows: one flat array of items and where each row starts.

use std::sync::Arc;

/// Compressed rows: `items[start[i]..start[i + 1]]` belong to row `i`.
///
/// A model of millions of variables pays four bytes per row for the starts, so rows that
/// are all empty (the watches of a model without n-ary constraints, the edges of isolated
/// vertices) keep no starts at all, and rows laid out alike share one copy of them
/// ([`Rows::with_layout_of`]).
pub(crate) struct Rows<T> {
    /// `num_rows + 1` entries, or none when every row is empty.
    start: Arc<[u32]>,
    num_rows: usize,
    items: Vec<T>,
}

impl<T> Rows<T> {
    /// Rows given one after the other, without a list per row.
    pub(crate) fn from_rows<R: IntoIterator<Item = T>>(rows: impl IntoIterator<Item = R>) -> Self {
        let rows = rows.into_iter();
        let mut start = Vec::with_capacity(rows.size_hint().0 + 1);
        start.push(0);
        let mut items = Vec::new();
        for row in rows {
            items.extend(row);
            start.push(items.len() as u32);
        }
        Rows::from_parts(start.len() - 1, start, items)
    }

    /// Rows from their starts (`num_rows + 1` of them, or none when `items` is empty).
    fn from_parts(num_rows: usize, start: Vec<u32>, items: Vec<T>) -> Self {
        let start = if items.is_empty() {
            Arc::from([])
        } else {
            Arc::from(start)
        };
        Rows {
            start,
            num_rows,
            items,
        }
    }

    /// Rows with the same starts as `layout`'s, the items given in its order: each row
    /// holds as many items as `layout`'s does.
    pub(crate) fn with_layout_of<U>(layout: &Rows<U>, items: Vec<T>) -> Self {
        assert_eq!(items.len(), layout.items.len(), "one item per item of the layout");
        Rows {
            start: Arc::clone(&layout.start),
            num_rows: layout.num_rows,
            items,
        }
    }

    /// The number of rows.
    pub(crate) fn num_rows(&self) -> usize {
        self.num_rows
    }

    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[T] {
        debug_assert!(i < self.num_rows, "row {i} of {}", self.num_rows);
        match self.start.get(i..i + 2) {
            Some(&[from, to]) => &self.items[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Rows `i` and `i + 1` as one slice, and where the second starts in it.
    #[inline]
    pub(crate) fn two_rows(&self, i: usize) -> (&[T], usize) {
        debug_assert!(
            i + 1 < self.num_rows,
            "rows {i} and {} of {}",
            i + 1,
            self.num_rows
        );
        match self.start.get(i..i + 3) {
            Some(&[from, mid, to]) => (&self.items[from as usize..to as usize], (mid - from) as usize),
            _ => (&[], 0),
        }
    }

    /// Where row `i` starts among all the items: item `k` of row `i` is item
    /// `offset(i) + k` of the whole.
    #[inline]
    pub(crate) fn offset(&self, i: usize) -> usize {
        self.start.get(i).map_or(0, |&s| s as usize)
    }

    /// The number of items in all rows.
    #[inline]
    pub(crate) fn total(&self) -> usize {
        self.items.len()
    }

    /// All the items, row after row.
    #[inline]
    pub(crate) fn items(&self) -> &[T] {
        &self.items
    }
}

impl<T: Copy> Rows<T> {
    /// Rows of items tagged with their row, each row keeping its items in the order
    /// given: a counting sort, with no list per row.
    pub(crate) fn from_tagged(num_rows: usize, tagged: &[(u32, T)]) -> Self {
        if tagged.is_empty() {
            return Rows::from_parts(num_rows, Vec::new(), Vec::new());
        }
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
        drop(next);
        let items = order.iter().map(|&k| tagged[k as usize].1).collect();
        Rows::from_parts(num_rows, start, items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_with_and_without_items() {
        let rows = Rows::from_rows([vec![1, 2], vec![], vec![3]]);
        assert_eq!(rows.num_rows(), 3);
        assert_eq!(
            (rows.row(0), rows.row(1), rows.row(2)),
            (&[1, 2][..], &[][..], &[3][..])
        );
        assert_eq!((rows.offset(2), rows.total()), (2, 3));
        assert_eq!(rows.two_rows(1), (&[3][..], 0));
        let tagged = Rows::from_tagged(3, &[(2, 'a'), (0, 'b'), (2, 'c')]);
        assert_eq!(
            (tagged.row(0), tagged.row(1), tagged.row(2)),
            (&['b'][..], &[][..], &['a', 'c'][..])
        );
        let alike = Rows::with_layout_of(&tagged, vec![10, 20, 30]);
        assert_eq!((alike.row(0), alike.row(2)), (&[10][..], &[20, 30][..]));
        let empty: Rows<u8> = Rows::from_tagged(4, &[]);
        assert_eq!(
            (empty.num_rows(), empty.row(3), empty.offset(3), empty.total()),
            (4, &[][..], 0, 0)
        );
        assert_eq!(empty.two_rows(0), (&[][..], 0));
        let empty: Rows<u8> = Rows::from_rows([vec![], vec![]]);
        assert_eq!((empty.num_rows(), empty.row(1)), (2, &[][..]));
    }
}
