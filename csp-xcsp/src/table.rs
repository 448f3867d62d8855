//! The tuples of an `<extension>`, stored flat and shared by every scope a `<group>` gives
//! them.

/// A cell of a table: a value or `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// This value.
    Value(i32),
    /// Any value (`*` in a short table).
    Any,
}

/// The tuples of an `<extension>`, one after the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The number of values a tuple has.
    pub arity: usize,
    /// The tuples one after the other.
    pub cells: Vec<Cell>,
}

impl Table {
    /// The number of tuples.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.arity).unwrap_or(0)
    }

    /// Whether there is no tuple.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The tuples.
    pub fn tuples(&self) -> impl Iterator<Item = &[Cell]> {
        self.cells.chunks_exact(self.arity.max(1))
    }

    /// Whether `tuple` matches one of the rows.
    pub fn matches(&self, tuple: &[i32]) -> bool {
        self.tuples().any(|row| {
            row.iter()
                .zip(tuple)
                .all(|(c, &v)| matches!(c, Cell::Any) || *c == Cell::Value(v))
        })
    }
}
