//! The search-time domain store: every variable's current domain as bit words of one
//! flat vector, with a trail that undoes changes on backtracking.
//!
//! All domains live in one `Vec<u64>` so that a search never allocates per node:
//! a change overwrites words in place and records the old word on the trail.

use crate::var::VarId;
use words::Words;

mod bits;
mod bounded;
mod line;
mod uniform;
mod values;
mod words;

pub use bits::DomainBits;
pub(crate) use bits::{transpose64, window};
pub(crate) use line::Line;
pub(crate) use uniform::UniformStore;
pub use values::Values;

/// A store holds fewer words than this: a trail entry names a word in 32 bits, and the
/// highest values are tags (`line.rs`).
pub(crate) const MAX_WORDS: usize = line::FIRST_TAG as usize;

/// One undo record: the old content of a word and the old size of its variable (16 bytes;
/// the variable is found from the word). A removal along a line (`line.rs`) is recorded in
/// two entries whose `word` is a tag instead.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrailEntry {
    pub(crate) word: u32,
    pub(crate) old_size: u32,
    pub(crate) old_bits: u64,
}

/// The bits of one domain word that an exclusion pattern (bit `o + 64` for each offset
/// `o`) excludes around the value at bit `rel` of that word (`rel` in `0..64`).
#[inline]
pub(crate) fn pattern_word(pattern: u128, rel: i64) -> u64 {
    debug_assert!((0..64).contains(&rel));
    // Bit `o + 64 + rel` lands in the high half exactly when `rel + o` is in `0..64`.
    ((pattern << rel) >> 64) as u64
}

/// See [`Store::parts_mut`]: domain words, sizes by variable and the trail.
pub(crate) struct StoreParts<'a> {
    pub(crate) words: &'a mut [u64],
    pub(crate) size: &'a mut [u32],
    pub(crate) trail: &'a mut Vec<TrailEntry>,
}

/// Where the store puts each domain's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Each domain's words in a row, one domain after another.
    ByVariable,
    /// Word `k` of variable `v` at `k * vars + v`: every domain has `width` words (two or
    /// more). Removing one value from many variables, which all-different at value
    /// strength does at every assignment, then reads words side by side instead of one
    /// cache line per variable.
    ByWord { width: u32 },
}

impl Layout {
    /// The layout for domains of these widths in words: by word when they are all equal
    /// and wider than one word, and there are at least two.
    pub(crate) fn for_widths(mut widths: impl Iterator<Item = usize>) -> Layout {
        let Some(first) = widths.next() else {
            return Layout::ByVariable;
        };
        let mut count = 1;
        for width in widths {
            if width != first {
                return Layout::ByVariable;
            }
            count += 1;
        }
        match u32::try_from(first) {
            Ok(width) if width >= 2 && count >= 2 => Layout::ByWord { width },
            _ => Layout::ByVariable,
        }
    }
}

/// Current domains of all variables, restorable to any earlier mark.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    words: Words,
    layout: Layout,
    /// By variable: `word_start[v]..word_start[v + 1]` are the words of variable `v`.
    /// Empty by word, and by variable when every variable has one word, word `v` being
    /// variable `v`'s (most models): four bytes a variable saved on millions of them.
    word_start: Vec<u32>,
    /// By variable: the variable each word belongs to. Empty by word, where word `w`
    /// belongs to variable `w % vars`, and with `word_start`, where it belongs to `w`.
    owner: Vec<u32>,
    /// The value that bit 0 of a variable's first word stands for.
    base: Vec<i32>,
    size: Vec<u32>,
    trail: Vec<TrailEntry>,
    /// The base shared by every domain when each is one word at its variable's index
    /// (`words[v]` is the domain of `v`): the layout of most models, every Sudoku among them.
    uniform: Option<i32>,
    /// The base shared by every domain when the layout is by word ([`Store::line_reach`]).
    line_base: Option<i32>,
    /// How many entries were dropped from the front of the trail (`bounded.rs`):
    /// `trail[i]` is entry `dropped + i`, and no mark below `dropped` can be undone to.
    dropped: usize,
    /// The domains at the search's root, kept once entries are dropped (`bounded.rs`).
    root: Option<bounded::RootDomains>,
    /// A mark at which the domains are those the store was built with, if any: up to it
    /// every change is on the trail (`bounded.rs` restores such a root without a copy).
    initial_at: Option<Mark>,
}

/// A position on the trail; [`Store::undo_to`] restores the domains as they were.
pub(crate) type Mark = usize;

/// Where one domain's words are: word `k` at `start + k * stride`, for `k < width`.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    width: usize,
    stride: usize,
}

impl Span {
    #[inline(always)]
    fn word(self, k: usize) -> usize {
        self.start + k * self.stride
    }
}

impl Store {
    /// Builds a store from each variable's `(base, bit words)` in `layout`.
    /// Each domain is read once, so it may be made on the fly: no second copy of a
    /// large model's domains exists while the store is built, and with `words`, the
    /// number of words they fill, none is made by growing the store either. By word,
    /// every domain must have the layout's width.
    pub(crate) fn new<W: AsRef<[u64]>>(
        domains: impl Iterator<Item = (i32, W)>,
        words: usize,
        layout: Layout,
    ) -> Self {
        let mut store = Store {
            words: Words::default(),
            layout,
            word_start: Vec::new(),
            owner: Vec::new(),
            base: Vec::new(),
            size: Vec::new(),
            trail: Vec::with_capacity(1024),
            uniform: None,
            line_base: None,
            dropped: 0,
            root: None,
            initial_at: Some(0),
        };
        // `Solver::new` refuses larger models; `ac3` would stop here rather than mix up words.
        assert!(words < MAX_WORDS, "a store holds fewer than 2^32 - 2 words");
        let vars = domains.size_hint().0;
        store.base.reserve_exact(vars);
        store.size.reserve_exact(vars);
        match layout {
            Layout::ByVariable => {
                let mut heap = Vec::with_capacity(words);
                store.owner.reserve_exact(words);
                store.word_start.reserve_exact(vars + 1);
                store.word_start.push(0);
                for (base, bits) in domains {
                    let bits = bits.as_ref();
                    store
                        .owner
                        .extend(std::iter::repeat_n(store.base.len() as u32, bits.len()));
                    heap.extend_from_slice(bits);
                    store.word_start.push(heap.len() as u32);
                    store.base.push(base);
                    store.size.push(bits.iter().map(|w| w.count_ones()).sum());
                }
                store.words = Words::from(heap);
                let one_word_each = store.word_start.iter().enumerate().all(|(v, &w)| w as usize == v);
                if one_word_each && vars > 0 {
                    store.word_start = Vec::new();
                    store.owner = Vec::new();
                }
                let first = store.base.first().copied();
                if one_word_each && store.base.iter().all(|&b| Some(b) == first) {
                    store.uniform = first;
                }
            }
            Layout::ByWord { width } => {
                // The number of variables is known once all are read: place each domain's
                // words at the hinted count of variables, which must be exact.
                assert_eq!(words, vars * width as usize, "by word, `words` is vars * width");
                store.words = Words::zeroed(words);
                for (v, (base, bits)) in domains.enumerate() {
                    let bits = bits.as_ref();
                    assert_eq!(bits.len(), width as usize, "by word, every domain has the width");
                    for (k, &word) in bits.iter().enumerate() {
                        store.words[k * vars + v] = word;
                    }
                    store.base.push(base);
                    store.size.push(bits.iter().map(|w| w.count_ones()).sum());
                }
                assert_eq!(store.size.len(), vars, "by word, the size hint is exact");
                let first = store.base.first().copied();
                if store.base.iter().all(|&b| Some(b) == first) {
                    store.line_base = first;
                }
            }
        }
        store
    }

    /// Where variable `v`'s words are.
    #[inline(always)]
    fn span(&self, v: usize) -> Span {
        match self.layout {
            Layout::ByVariable => span_by_variable(&self.word_start, v),
            Layout::ByWord { width } => Span {
                start: v,
                width: width as usize,
                stride: self.size.len(),
            },
        }
    }

    #[inline]
    pub(crate) fn size(&self, var: VarId) -> u32 {
        self.size[var.index()]
    }

    /// The number of domain words, all variables together.
    pub(crate) fn num_words(&self) -> usize {
        self.words.len()
    }

    /// Every variable's domain size, by index.
    #[inline]
    pub(crate) fn sizes(&self) -> &[u32] {
        &self.size
    }

    #[inline]
    pub(crate) fn base(&self, var: VarId) -> i32 {
        self.base[var.index()]
    }

    /// The bit words of a variable's domain (bit `i` of word `k` = value `base + 64 k + i`).
    #[inline]
    pub(crate) fn bits(&self, var: VarId) -> DomainBits<'_> {
        let span = self.span(var.index());
        DomainBits::new(&self.words, span.start, span.width, span.stride)
    }

    /// The index of `var`'s only word, if its domain fits in one.
    pub(crate) fn single_word(&self, var: VarId) -> Option<usize> {
        let span = self.span(var.index());
        (span.width == 1).then_some(span.start)
    }

    /// The bit index of `value` in `var`'s domain, if it lies inside the domain's range.
    #[inline]
    fn bit_of(&self, var: VarId, value: i32) -> Option<usize> {
        let offset = value.wrapping_sub(self.base(var)) as u32 as usize;
        let width = self.span(var.index()).width * 64;
        // Values below the base wrap around to huge offsets and fail this test too, unless
        // the subtraction overflowed i32: check that case exactly.
        let exact = i64::from(value) - i64::from(self.base(var));
        (offset < width && exact == offset as i64).then_some(offset)
    }

    #[inline]
    pub(crate) fn contains(&self, var: VarId, value: i32) -> bool {
        match self.bit_of(var, value) {
            Some(bit) => {
                let word = self.span(var.index()).word(bit / 64);
                self.words[word] >> (bit % 64) & 1 == 1
            }
            None => false,
        }
    }

    /// The smallest value, or `None` for an empty domain.
    pub(crate) fn min(&self, var: VarId) -> Option<i32> {
        let base = self.base(var);
        self.bits(var)
            .iter()
            .enumerate()
            .find(|&(_, w)| w != 0)
            .map(|(i, w)| base + (i * 64) as i32 + w.trailing_zeros() as i32)
    }

    /// The largest value, or `None` for an empty domain.
    pub(crate) fn max(&self, var: VarId) -> Option<i32> {
        let base = self.base(var);
        self.bits(var)
            .iter()
            .enumerate()
            .rev()
            .find(|&(_, w)| w != 0)
            .map(|(i, w)| base + ((i * 64) as i32 + 63 - w.leading_zeros() as i32))
    }

    /// The smallest value strictly greater than `after` (or the smallest value when `None`).
    pub(crate) fn next_value(&self, var: VarId, after: Option<i32>) -> Option<i32> {
        if let Some(base) = self.uniform {
            // One word per variable: mask off the values up to `after`, take the lowest.
            let word = self.words.heap()[var.index()];
            let rest = match after {
                None => word,
                Some(a) => match u32::try_from(i64::from(a) - i64::from(base) + 1) {
                    Ok(from) if from < 64 => word & (!0u64 << from),
                    Ok(_) => 0,
                    Err(_) => word,
                },
            };
            return (rest != 0).then(|| base + rest.trailing_zeros() as i32);
        }
        let base = self.base(var);
        let bits = self.bits(var);
        let start = match after {
            None => 0usize,
            Some(a) => {
                let offset = i64::from(a) - i64::from(base) + 1;
                if offset < 0 { 0 } else { offset as usize }
            }
        };
        let mut word_index = start / 64;
        if word_index >= bits.len() {
            return None;
        }
        let mut word = bits[word_index] & (!0u64 << (start % 64));
        loop {
            if word != 0 {
                return Some(base + (word_index * 64) as i32 + word.trailing_zeros() as i32);
            }
            word_index += 1;
            if word_index == bits.len() {
                return None;
            }
            word = bits[word_index];
        }
    }

    /// Iterates a domain's values in increasing order.
    pub(crate) fn values(&self, var: VarId) -> Values<'_> {
        let bits = self.bits(var);
        Values {
            bits,
            base: self.base(var),
            word_index: 0,
            word: bits.get(0).unwrap_or(0),
        }
    }

    #[inline(always)]
    fn set_word(&mut self, var: VarId, word: usize, bits: u64) {
        let old_bits = self.words[word];
        debug_assert_ne!(old_bits, bits);
        let v = var.index();
        self.trail.push(TrailEntry {
            word: word as u32,
            old_size: self.size[v],
            old_bits,
        });
        self.words[word] = bits;
        self.size[v] = self.size[v] + bits.count_ones() - old_bits.count_ones();
    }

    /// Removes `value`; returns whether the domain changed.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: i32) -> bool {
        // Most calls find the value gone already: that test stays small enough to inline.
        let Some(bit) = self.bit_of(var, value) else {
            return false;
        };
        let word = self.span(var.index()).word(bit / 64);
        let mask = 1u64 << (bit % 64);
        if self.words[word] & mask == 0 {
            return false;
        }
        self.clear_present(var, word, mask);
        true
    }

    /// Removes `value_of(j)` from each `vars[j]` but `vars[except]`, in one pass over
    /// plain slices: an assigned all-different view reaches every variable of its
    /// constraint. `known(j)` is the value of `vars[j]` when it is assigned: such a
    /// variable holds the value to remove only if it is that one. Calls `removed(var)`
    /// for each change. Returns the number of values removed, and the variable left
    /// empty, at which it stops, if any.
    ///
    /// With `open_block = Some((first, open))`, `vars[j]` is variable `first + j` and
    /// only the unassigned ones (bits of `open`) are visited: the caller has checked
    /// that no assigned variable holds its value to remove.
    #[inline]
    pub(crate) fn remove_from_each(
        &mut self,
        vars: &[VarId],
        open_block: Option<(usize, &[u64])>,
        except: usize,
        value_of: impl Fn(usize) -> i64,
        known: impl Fn(usize) -> Option<i64>,
        removed: impl FnMut(VarId),
    ) -> (u64, Option<VarId>) {
        let (words, size, trail, base) = (&mut self.words[..], &mut self.size, &mut self.trail, &self.base);
        // At most one entry per variable: no reallocation inside the loop.
        trail.reserve(vars.len());
        let parts = RemovalParts {
            words,
            size,
            trail,
            base,
        };
        // One loop for each layout, so that neither looks its layout up per variable.
        match self.layout {
            Layout::ByVariable => {
                let word_start = &self.word_start;
                let span = |v: usize| span_by_variable(word_start, v);
                parts.remove(vars, open_block, except, span, value_of, known, removed)
            }
            Layout::ByWord { width } => {
                let (width, stride) = (width as usize, parts.size.len());
                let span = |v: usize| Span {
                    start: v,
                    width,
                    stride,
                };
                parts.remove(vars, open_block, except, span, value_of, known, removed)
            }
        }
    }

    /// Clears the set bits `mask` of word `word`, which belongs to `var`.
    fn clear_present(&mut self, var: VarId, word: usize, mask: u64) {
        let old = self.words[word];
        self.trail.push(TrailEntry {
            word: word as u32,
            old_size: self.size[var.index()],
            old_bits: old,
        });
        self.words[word] = old & !mask;
        self.size[var.index()] -= mask.count_ones();
    }

    /// Removes the values `center + o` for each offset `o`; returns how many were present.
    /// `pattern`, if given, has bit `o + 64` for each offset (all within `-64..64`).
    /// One-word domains take a single masked write (and one trail entry).
    #[inline]
    pub(crate) fn remove_around(
        &mut self,
        var: VarId,
        center: i32,
        offsets: &[i64],
        pattern: Option<u128>,
    ) -> u32 {
        let v = var.index();
        let Span { start, width, .. } = self.span(v);
        if width == 1 {
            let rel = i64::from(center) - i64::from(self.base[v]);
            let clear = match pattern {
                Some(pattern) if (0..64).contains(&rel) => pattern_word(pattern, rel),
                _ => offsets
                    .iter()
                    .map(|&o| rel + o)
                    .filter(|bit| (0..64).contains(bit))
                    .fold(0u64, |clear, bit| clear | 1 << bit),
            };
            let old = self.words[start];
            let new = old & !clear;
            if new == old {
                return 0;
            }
            self.set_word(var, start, new);
            return (old ^ new).count_ones();
        }
        let mut removed = 0;
        for &o in offsets {
            if let Ok(value) = i32::try_from(i64::from(center) + o) {
                removed += u32::from(self.remove(var, value));
            }
        }
        removed
    }

    /// Keeps only the values whose bits are set in `mask` (same layout as [`Store::bits`]).
    /// Returns the number of values removed.
    pub(crate) fn retain_bits(&mut self, var: VarId, mask: &[u64]) -> u32 {
        let span = self.span(var.index());
        let start = span.start;
        if let (1, [m]) = (span.width, mask) {
            let old = self.words[start];
            let new = old & m;
            if new == old {
                return 0;
            }
            self.set_word(var, start, new);
            return (old ^ new).count_ones();
        }
        let mut removed = 0;
        for i in 0..span.width {
            let word = span.word(i);
            let old = self.words[word];
            let new = old & mask.get(i).copied().unwrap_or(0);
            if new != old {
                removed += (old ^ new).count_ones();
                self.set_word(var, word, new);
            }
        }
        removed
    }

    /// Keeps only values inside `lo..=hi`; returns the number of values removed.
    pub(crate) fn retain_range(&mut self, var: VarId, lo: i64, hi: i64) -> u32 {
        let base = i64::from(self.base(var));
        let span = self.span(var.index());
        let mut removed = 0;
        for i in 0..span.width {
            let word = span.word(i);
            let first = base + (i as i64) * 64;
            let mut mask = !0u64;
            if lo > first {
                let shift = lo - first;
                mask = if shift >= 64 { 0 } else { mask << shift };
            }
            if hi < first + 63 {
                let keep = hi - first + 1;
                mask &= if keep <= 0 {
                    0
                } else if keep >= 64 {
                    !0
                } else {
                    (1u64 << keep) - 1
                };
            }
            let old = self.words[word];
            let new = old & mask;
            if new != old {
                removed += (old ^ new).count_ones();
                self.set_word(var, word, new);
            }
        }
        removed
    }

    /// Reduces the domain to `{value}` (empty if `value` is not in it).
    /// Returns the number of values removed.
    #[inline(always)]
    pub(crate) fn fix(&mut self, var: VarId, value: i32) -> u32 {
        let Some(base) = self.uniform else {
            return self.fix_general(var, value);
        };
        // Word `v` is variable `v`'s (every Sudoku): most search nodes fix a variable
        // that has this one value already, which this decides without a call.
        let v = var.index();
        let old = self.words.heap()[v];
        let bit = i64::from(value) - i64::from(base);
        let new = if (0..64).contains(&bit) {
            old & (1u64 << bit)
        } else {
            0
        };
        if new == old {
            return 0;
        }
        self.set_word(var, v, new);
        (old ^ new).count_ones()
    }

    /// [`Store::fix`] for any layout.
    #[inline(never)]
    fn fix_general(&mut self, var: VarId, value: i32) -> u32 {
        let v = var.index();
        let Span { start, width, .. } = self.span(v);
        if width == 1 {
            // One-word domains (every Sudoku up to 64x64): a single masked write.
            let old = self.words[start];
            let bit = i64::from(value) - i64::from(self.base[v]);
            let new = if (0..64).contains(&bit) {
                old & (1u64 << bit)
            } else {
                0
            };
            if new == old {
                return 0;
            }
            self.set_word(var, start, new);
            return (old ^ new).count_ones();
        }
        let value = i64::from(value);
        self.retain_range(var, value, value)
    }

    /// The words, sizes and trail as plain slices, for loops that change many domains
    /// in a row and keep these in registers (forward checking through compiled steps).
    /// The caller keeps the store's rules: a changed word gets a trail entry first.
    #[inline]
    pub(crate) fn parts_mut(&mut self) -> StoreParts<'_> {
        StoreParts {
            words: &mut self.words,
            size: &mut self.size,
            trail: &mut self.trail,
        }
    }

    /// Makes room for `additional` more changes on the trail.
    pub(crate) fn reserve_trail(&mut self, additional: usize) {
        self.trail.reserve(additional);
    }

    #[inline]
    pub(crate) fn mark(&self) -> Mark {
        self.dropped + self.trail.len()
    }

    /// Calls `changed(v)` for the variable of each change recorded since `mark` (which must
    /// not lie below [`Store::floor`]): once per record, so a variable may come more than
    /// once. Backjumping reads which domains a node's forward checking pruned this way.
    pub(crate) fn for_each_changed_since(&self, mark: Mark, mut changed: impl FnMut(usize)) {
        let vars = self.size.len();
        for entry in &self.trail[mark - self.dropped..] {
            match entry.word {
                line::LINE_MASK => {
                    // A line record: its variables are group `old_size`'s masked ones.
                    let first = entry.old_size as usize * 64;
                    let mut rest = entry.old_bits;
                    while rest != 0 {
                        changed(first + rest.trailing_zeros() as usize);
                        rest &= rest - 1;
                    }
                }
                line::LINE_HEAD => {}
                word => changed(match self.layout {
                    Layout::ByVariable => owner_by_variable(&self.owner, word as usize),
                    Layout::ByWord { .. } => word as usize % vars,
                }),
            }
        }
    }

    /// Restores every domain as it was at `mark`, which must not lie below
    /// [`Store::floor`].
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        if let Some(mut uniform) = self.uniform_mut() {
            // Word `i` is variable `i`'s: no owner lookup.
            uniform.undo_to(mark);
            return;
        }
        let keep = mark - self.dropped;
        undo_entries(
            &self.trail[keep..],
            self.layout,
            &self.owner,
            &mut self.words,
            &mut self.size,
        );
        self.trail.truncate(keep);
    }
}

/// Where variable `v`'s words are by variable (`word_start` as [`Store`] keeps it).
#[inline(always)]
fn span_by_variable(word_start: &[u32], v: usize) -> Span {
    match word_start.get(v..v + 2) {
        Some(&[start, end]) => Span {
            start: start as usize,
            width: (end - start) as usize,
            stride: 1,
        },
        _ => Span {
            start: v,
            width: 1,
            stride: 1,
        },
    }
}

/// The variable whose domain word `word` is, by variable (`owner` as [`Store`] keeps it).
#[inline(always)]
fn owner_by_variable(owner: &[u32], word: usize) -> usize {
    owner.get(word).map_or(word, |&v| v as usize)
}

/// Undoes `entries`, the last first, on a store's `words` and `size` in `layout`
/// (`owner` as [`Store`] keeps it).
fn undo_entries(entries: &[TrailEntry], layout: Layout, owner: &[u32], words: &mut [u64], size: &mut [u32]) {
    match layout {
        Layout::ByVariable => {
            for entry in entries.iter().rev() {
                debug_assert!(entry.word < line::FIRST_TAG, "lines only by word");
                words[entry.word as usize] = entry.old_bits;
                size[owner_by_variable(owner, entry.word as usize)] = entry.old_size;
            }
        }
        Layout::ByWord { .. } => {
            let vars = size.len();
            let mut end = entries.len();
            while let Some(last) = end.checked_sub(1) {
                let entry = entries[last];
                if entry.word >= line::FIRST_TAG {
                    // A line record: its mask entry comes just before (marks never
                    // fall between the two).
                    line::undo_record(entries[last - 1], entry, words, size);
                    end = last - 1;
                } else {
                    words[entry.word as usize] = entry.old_bits;
                    size[entry.word as usize % vars] = entry.old_size;
                    end = last;
                }
            }
        }
    }
}

/// What [`Store::remove_from_each`] changes.
struct RemovalParts<'a> {
    words: &'a mut [u64],
    size: &'a mut [u32],
    trail: &'a mut Vec<TrailEntry>,
    base: &'a [i32],
}

impl RemovalParts<'_> {
    /// [`Store::remove_from_each`] with the layout given as `span`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn remove(
        self,
        vars: &[VarId],
        open_block: Option<(usize, &[u64])>,
        except: usize,
        span: impl Fn(usize) -> Span,
        value_of: impl Fn(usize) -> i64,
        known: impl Fn(usize) -> Option<i64>,
        removed: impl FnMut(VarId),
    ) -> (u64, Option<VarId>) {
        match open_block {
            // The unassigned variables only, found from their bits without a branch on
            // each assigned one.
            Some((first, open)) => {
                let visits = ones_in(open, first, first + vars.len()).map(|v| (v - first, VarId(v as u32)));
                self.remove_each(visits, span, |j| j == except, value_of, removed)
            }
            None => {
                // An assigned variable's word is not read unless its value is the one to
                // remove: on a large model, that word would come from memory.
                let skip = |j: usize| j == except || known(j).is_some_and(|value| value != value_of(j));
                self.remove_each(vars.iter().copied().enumerate(), span, skip, &value_of, removed)
            }
        }
    }

    /// Removes `value_of(j)` from each visited `(j, var)` unless `skip(j)`. Without a
    /// branch on whether the value is there: a visit that finds it gone pushes a trail
    /// entry and takes it back, which costs less than a mispredicted branch when about
    /// half the visits remove something (forward checking on n-queens).
    #[inline(always)]
    fn remove_each(
        self,
        visits: impl Iterator<Item = (usize, VarId)>,
        span: impl Fn(usize) -> Span,
        skip: impl Fn(usize) -> bool,
        value_of: impl Fn(usize) -> i64,
        mut removed: impl FnMut(VarId),
    ) -> (u64, Option<VarId>) {
        let RemovalParts {
            words,
            size,
            trail,
            base,
        } = self;
        let mut count = 0;
        for (j, var) in visits {
            if skip(j) {
                continue;
            }
            let v = var.index();
            let span = span(v);
            let bit = value_of(j) - i64::from(base[v]);
            if !(0..span.width as i64 * 64).contains(&bit) {
                continue;
            }
            let word = span.word((bit / 64) as usize);
            let old = words[word];
            let hit = old >> (bit % 64) & 1;
            trail.push(TrailEntry {
                word: word as u32,
                old_size: size[v],
                old_bits: old,
            });
            trail.truncate(trail.len() - (1 - hit) as usize);
            words[word] = old & !(hit << (bit % 64));
            size[v] -= hit as u32;
            count += hit;
            if hit != 0 {
                removed(var);
            }
            if size[v] == 0 {
                return (count, Some(var));
            }
        }
        (count, None)
    }
}

/// The set bits of `bits` from `from` up to `to` (exclusive), in increasing order.
#[inline(always)]
fn ones_in(bits: &[u64], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    let mut w = from / 64;
    let mut word = bits.get(w).map_or(0, |&b| b & (!0u64 << (from % 64)));
    std::iter::from_fn(move || {
        loop {
            if word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                return (i < to).then_some(i);
            }
            w += 1;
            if w * 64 >= to {
                return None;
            }
            word = *bits.get(w)?;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with(base: i32, bits: &[u64]) -> Store {
        Store::new(std::iter::once((base, bits)), 0, Layout::ByVariable)
    }

    #[test]
    fn remove_fix_and_undo_restore_domain_and_size() {
        let v = VarId(0);
        let mut store = store_with(-3, &[!0, 0b1011]);
        assert_eq!(store.size(v), 67);
        let mark = store.mark();
        assert!(store.remove(v, -3));
        assert!(!store.remove(v, -3));
        assert!(!store.remove(v, 1000));
        assert_eq!(store.min(v), Some(-2));
        assert_eq!(store.max(v), Some(-3 + 64 + 3));
        assert_eq!(store.fix(v, 10), 65);
        assert_eq!(store.values(v).collect::<Vec<_>>(), vec![10]);
        store.undo_to(mark);
        assert_eq!(store.size(v), 67);
        assert!(store.contains(v, -3));
    }

    #[test]
    fn only_equal_widths_of_two_words_or_more_are_stored_by_word() {
        assert_eq!(
            Layout::for_widths([3, 3].into_iter()),
            Layout::ByWord { width: 3 }
        );
        assert_eq!(Layout::for_widths([1, 1].into_iter()), Layout::ByVariable);
        assert_eq!(Layout::for_widths([2, 3].into_iter()), Layout::ByVariable);
        assert_eq!(Layout::for_widths([2].into_iter()), Layout::ByVariable);
        assert_eq!(Layout::for_widths(std::iter::empty()), Layout::ByVariable);
    }

    /// The same changes on both layouts: every domain must read the same after each.
    #[test]
    fn both_layouts_hold_the_same_domains_through_every_change() {
        let domains = [
            (-5, [!0u64, 0b1011, 1 << 63]),
            (0, [0xF0, !0, 0]),
            (100, [1, 2, 4]),
        ];
        let build = |layout| Store::new(domains.iter().map(|(b, w)| (*b, &w[..])), 9, layout);
        let mut stores = [build(Layout::ByVariable), build(Layout::ByWord { width: 3 })];
        let vars = [VarId(0), VarId(1), VarId(2)];
        let same = |stores: &[Store; 2]| {
            for &v in &vars {
                let [a, b] = stores;
                assert_eq!(a.bits(v).to_vec(), b.bits(v).to_vec());
                assert_eq!(a.size(v), b.size(v));
                assert_eq!(a.values(v).collect::<Vec<_>>(), b.values(v).collect::<Vec<_>>());
                assert_eq!((a.min(v), a.max(v)), (b.min(v), b.max(v)));
                assert_eq!(a.next_value(v, Some(60)), b.next_value(v, Some(60)));
            }
        };
        same(&stores);
        let marks = stores.each_ref().map(Store::mark);
        for store in &mut stores {
            assert!(store.remove(VarId(0), 59));
            assert_eq!(store.retain_range(VarId(1), 5, 70), 1 + 57);
            assert_eq!(store.retain_bits(VarId(2), &[!0, 0, !0]), 1);
            let (removed, emptied) =
                store.remove_from_each(&vars, None, 1, |j| [-5, 0, 231][j], |_| None, |_| {});
            assert_eq!((removed, emptied), (1, None));
        }
        same(&stores);
        for (store, mark) in stores.iter_mut().zip(marks) {
            assert_eq!(store.fix(VarId(2), 230), 1);
            let (removed, emptied) =
                store.remove_from_each(&vars, None, 0, |_| 230, |j| (j == 2).then_some(230), |_| {});
            assert_eq!((removed, emptied), (1, Some(VarId(2))));
            store.undo_to(mark);
        }
        same(&stores);
        assert_eq!(stores[1].size(VarId(2)), 3);
    }

    #[test]
    fn ones_in_lists_the_set_bits_of_a_range() {
        let bits = [1 << 3 | 1 << 63, 1 | 1 << 10, 1 << 5];
        let all = |from, to| ones_in(&bits, from, to).collect::<Vec<_>>();
        assert_eq!(all(0, 192), vec![3, 63, 64, 74, 133]);
        assert_eq!(all(4, 74), vec![63, 64]);
        assert_eq!(all(64, 65), vec![64]);
        assert_eq!(all(75, 133), Vec::<usize>::new());
        assert_eq!(all(130, 500), vec![133]);
    }

    #[test]
    fn next_value_and_ranges_cross_word_boundaries() {
        let v = VarId(0);
        let mut store = store_with(0, &[1 << 63, 1 | 1 << 5]);
        assert_eq!(store.next_value(v, None), Some(63));
        assert_eq!(store.next_value(v, Some(63)), Some(64));
        assert_eq!(store.next_value(v, Some(64)), Some(69));
        assert_eq!(store.next_value(v, Some(69)), None);
        assert_eq!(store.retain_range(v, 64, 100), 1);
        assert_eq!(store.values(v).collect::<Vec<_>>(), vec![64, 69]);
        assert_eq!(store.retain_range(v, 0, 63), 2);
        assert_eq!(store.size(v), 0);
        assert_eq!(store.min(v), None);
    }
}
