//! A trail of bounded length. A deep search whose every node changes many domains
//! (forward checking on n-queens changes about `3 (n - depth)` words per node) would
//! keep an undo record for each change along the whole path: quadratic memory. Instead,
//! the search may drop the records of its oldest levels from the trail's front; the
//! store then keeps a copy of the domains at the root, and a level below the dropped
//! records is rebuilt from that copy by replaying the decisions above it
//! (`search/recompute.rs`). The copy costs one store's worth of memory, and nothing
//! is paid by a search that never drops anything.

use super::words::Words;
use super::{Mark, Store};

/// Every domain as it was at one mark: the root of a search.
#[derive(Clone, Debug)]
pub(super) enum RootDomains {
    /// The domains the store was built with (those of the search's network): nothing
    /// to copy.
    Initial { mark: Mark },
    /// A copy.
    Copy {
        mark: Mark,
        words: Words,
        size: Vec<u32>,
    },
}

impl RootDomains {
    fn mark(&self) -> Mark {
        match self {
            RootDomains::Initial { mark } | RootDomains::Copy { mark, .. } => *mark,
        }
    }
}

impl Store {
    /// The number of undo records held.
    #[inline]
    pub(crate) fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// The lowest mark [`Store::undo_to`] can restore: records below it were dropped.
    #[inline]
    pub(crate) fn floor(&self) -> Mark {
        self.dropped
    }

    /// Keeps the domains at `root` (a mark at or above [`Store::floor`]) unless they are
    /// kept already: what [`Store::drop_below`] and [`Store::restore_root`] need. When
    /// they are the domains the store was built with, nothing is copied.
    pub(crate) fn keep_root(&mut self, root: Mark) {
        if self.root.as_ref().is_some_and(|kept| kept.mark() == root) {
            return;
        }
        if self.initial_at == Some(root) {
            self.root = Some(RootDomains::Initial { mark: root });
            return;
        }
        let mut words = self.words.clone();
        let mut size = self.size.clone();
        let entries = &self.trail[root - self.dropped..];
        super::undo_entries(entries, self.layout, &self.owner, &mut words, &mut size);
        self.root = Some(RootDomains::Copy {
            mark: root,
            words,
            size,
        });
    }

    /// The mark of the kept root, if any.
    pub(crate) fn kept_root(&self) -> Option<Mark> {
        self.root.as_ref().map(RootDomains::mark)
    }

    /// Drops the records below `mark` (at or above the kept root): the domains stay as
    /// they are, but no mark below `mark` can be undone to any more.
    pub(crate) fn drop_below(&mut self, mark: Mark) {
        debug_assert!(self.kept_root().is_some_and(|root| root <= mark));
        if mark <= self.dropped {
            return;
        }
        self.trail.drain(..mark - self.dropped);
        self.dropped = mark;
    }

    /// Restores every domain as it was at the kept root ([`Store::keep_root`]), whatever
    /// was dropped since; the trail is then empty at the root's mark. `initial` gives
    /// each variable's base and words as the store was built with them, read only when
    /// the root is those.
    pub(crate) fn restore_root<W: AsRef<[u64]>>(&mut self, initial: impl Iterator<Item = (i32, W)>) {
        let root = self.root.as_ref().expect("a kept root");
        let mark = root.mark();
        match root {
            RootDomains::Initial { .. } => {
                for (v, (_, bits)) in initial.enumerate() {
                    let bits = bits.as_ref();
                    let span = self.span(v);
                    for (k, &word) in bits.iter().enumerate() {
                        self.words[span.word(k)] = word;
                    }
                    self.size[v] = bits.iter().map(|w| w.count_ones()).sum();
                }
                self.initial_at = Some(mark);
            }
            RootDomains::Copy { words, size, .. } => {
                self.words.copy_from_slice(words);
                self.size.copy_from_slice(size);
            }
        }
        self.trail.clear();
        self.dropped = mark;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Layout;
    use crate::var::VarId;

    #[test]
    fn dropped_levels_come_back_from_the_root_copy() {
        for layout in [Layout::ByVariable, Layout::ByWord { width: 2 }] {
            let (x, y) = (VarId(0), VarId(1));
            let words = [[!0u64, !0], [!0, !0]];
            let mut store = Store::new(words.iter().map(|w| (0, &w[..])), 4, layout);
            assert!(store.remove(x, 3));
            // Not the initial domains any more: the root is copied.
            let root = store.mark();
            store.keep_root(root);
            assert!(store.remove(x, 70));
            let level = store.mark();
            assert!(store.remove(y, 1));
            assert!(store.remove(y, 100));
            store.drop_below(level);
            assert_eq!((store.floor(), store.trail_len()), (level, 2));
            store.undo_to(level);
            assert!(store.contains(y, 1) && !store.contains(x, 70));
            store.restore_root(words.iter().map(|w| (0, &w[..])));
            assert_eq!(store.mark(), root);
            assert!(store.contains(x, 70) && !store.contains(x, 3));
            assert_eq!((store.size(x), store.size(y)), (127, 128));
            // The initial domains come back in the same layout.
            let mut store = Store::new(words.iter().map(|w| (0, &w[..])), 4, layout);
            store.keep_root(0);
            assert!(store.remove(y, 64) && store.remove(x, 127));
            store.drop_below(store.mark());
            store.restore_root(words.iter().map(|w| (0, &w[..])));
            assert!(store.contains(y, 64) && store.contains(x, 127));
            assert_eq!((store.size(x), store.size(y)), (128, 128));
        }
    }

    #[test]
    fn an_unchanged_root_comes_back_from_the_initial_domains() {
        let x = VarId(0);
        let words = [[!0u64, !0]];
        let mut store = Store::new(words.iter().map(|w| (0, &w[..])), 0, Layout::ByVariable);
        store.keep_root(0);
        assert!(matches!(store.root, Some(RootDomains::Initial { mark: 0 })));
        assert!(store.remove(x, 5));
        store.drop_below(store.mark());
        store.restore_root(words.iter().map(|w| (0, &w[..])));
        assert_eq!((store.mark(), store.size(x)), (0, 128));
        assert!(store.contains(x, 5));
    }
}
