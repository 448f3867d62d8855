//! Table (extension) constraints with generalised arc consistency by bitsets over the
//! tuples, after compact-table (Demeulenaere et al., CP 2016).
//!
//! For each variable and value, the tuples that hold that value are a bitset (short tables:
//! tuples with `*` at a variable are a bitset of their own). A run computes the tuples still
//! valid — the intersection, over the variables, of the tuples whose value is in the
//! domain — and then keeps a value only if it has a valid tuple. The engine keeps no state
//! but the domains, so the valid tuples are computed afresh on each run: per variable from
//! its present values, or from its removed ones when those are fewer. Each value remembers
//! the word where it last found a support (a residue: a hint, right or wrong, never state).
//!
//! A position with many distinct values (more than 128) keeps, per value, the list of its
//! tuples instead of a bitset: bitsets there would take `values * tuples / 64` words, more
//! than the tuples themselves.
//!
//! Tables of conflicts (forbidden tuples, without `*`) count instead: a value is supported
//! as long as fewer valid conflicts hold it than there are combinations of the other
//! variables' values.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::constraints::TableCell;
use crate::error::ModelError;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// The tuples holding each value of a position, as lists.
#[derive(Debug)]
struct Sparse {
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl Sparse {
    fn list(&self, k: usize) -> &[u32] {
        &self.ids[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// The bytes `v` has allocated (its capacity, not its length).
fn allocated<T>(v: &Vec<T>) -> usize {
    v.capacity() * size_of::<T>()
}

/// Positions with more distinct values than this keep lists of tuples, not bitsets.
const DENSE_VALUES: usize = 128;

/// The tuples of a table as bitsets: what constraints with the same tuples share.
#[derive(Debug)]
pub(crate) struct TableData {
    arity: usize,
    /// Number of tuples.
    tuples: usize,
    /// Words per bitset over the tuples.
    words: usize,
    /// The valid bits of the last word.
    last_mask: u64,
    /// Per position, the distinct values its tuples hold (not `*`), increasing.
    values: Vec<Vec<i32>>,
    /// Per position, the index of its first value's row (rows are `words` long in `rows`
    /// for dense positions; every value has a residue either way).
    first_row: Vec<usize>,
    rows: Vec<u64>,
    /// Per position with many distinct values, the tuples of each value as lists instead of
    /// bitsets (`starts[k]..starts[k + 1]` in `ids`): `values * tuples / 64` words of bitsets
    /// would outgrow the tuples themselves. `None`: dense rows.
    sparse: Vec<Option<Sparse>>,
    /// Per dense position, the index of its first value's row in `rows`.
    dense_start: Vec<usize>,
    /// Per position, the tuples with `*` there (empty when there are none).
    stars: Vec<Vec<u64>>,
    /// The tuples themselves, `arity` cells each (`None` for `*`), sorted and distinct.
    cells: Vec<Option<i32>>,
}

impl TableData {
    /// The bytes of its lists, as allocated.
    fn heap_bytes(&self) -> usize {
        let sparse: usize = (self.sparse.iter().flatten())
            .map(|s| allocated(&s.starts) + allocated(&s.ids))
            .sum();
        let values: usize = self.values.iter().map(allocated).sum();
        let stars: usize = self.stars.iter().map(allocated).sum();
        sparse
            + values
            + stars
            + allocated(&self.values)
            + allocated(&self.sparse)
            + allocated(&self.stars)
            + allocated(&self.first_row)
            + allocated(&self.rows)
            + allocated(&self.dense_start)
            + allocated(&self.cells)
    }

    /// The bitsets of `tuples` (one cell per position, `None` for `*`); duplicates are
    /// removed here.
    pub(crate) fn new(arity: usize, tuples: Vec<Vec<Option<i32>>>) -> TableData {
        let cells = tuples.into_iter().flatten().collect();
        TableData::build(arity, cells, &mut || false).expect("never stopped")
    }

    /// Whether a position with `values` distinct values over `words` words of tuples keeps
    /// bitsets: one word of tuples makes a bitset row no larger than a list.
    fn dense(values: usize, words: usize) -> bool {
        values <= DENSE_VALUES || words == 1
    }

    /// [`TableData::new`] over the tuples one after the other (`arity` cells each), giving up
    /// (`None`) when `expired` says so: it is asked every few thousand tuples, so that a
    /// table of millions of tuples is built within a time limit.
    pub(crate) fn build(
        arity: usize,
        cells: Vec<Option<i32>>,
        expired: &mut dyn FnMut() -> bool,
    ) -> Option<TableData> {
        TableData::build_with(arity, cells, TableData::dense, expired)
    }

    /// [`TableData::build`], with `dense(values, words)` choosing bitsets for a position.
    fn build_with(
        arity: usize,
        cells: Vec<Option<i32>>,
        dense: impl Fn(usize, usize) -> bool,
        expired: &mut dyn FnMut() -> bool,
    ) -> Option<TableData> {
        const CHECK_EVERY: usize = 1 << 14;
        let arity1 = arity.max(1);
        let row = |i: usize| &cells[i * arity1..(i + 1) * arity1];
        // Sorted and distinct, by an order on row numbers (a vector per tuple would cost an
        // allocation each, and a table may hold millions).
        let mut order = sorted_rows(&cells, arity1, expired)?;
        order.dedup_by(|a, b| row(*a as usize) == row(*b as usize));
        let mut sorted: Vec<Option<i32>> = Vec::with_capacity(order.len() * arity1);
        for (n, &i) in order.iter().enumerate() {
            if n % CHECK_EVERY == 0 && expired() {
                return None;
            }
            sorted.extend_from_slice(row(i as usize));
        }
        drop(order);
        drop(cells);
        let tuples: Vec<&[Option<i32>]> = sorted.chunks(arity1).collect();
        let count = tuples.len();
        let words = count.div_ceil(64).max(1);
        let last_mask = match count % 64 {
            0 if count > 0 => !0,
            0 => 0,
            r => (1u64 << r) - 1,
        };
        let mut values: Vec<Vec<i32>> = (0..arity)
            .map(|p| tuples.iter().filter_map(|t| t[p]).collect())
            .collect();
        for v in &mut values {
            v.sort_unstable();
            v.dedup();
        }
        if expired() {
            return None;
        }
        let dense: Vec<bool> = values.iter().map(|v| dense(v.len(), words)).collect();
        let mut first_row = Vec::with_capacity(arity);
        let mut dense_start = Vec::with_capacity(arity);
        let (mut total, mut dense_total) = (0, 0);
        for (v, &d) in values.iter().zip(&dense) {
            first_row.push(total);
            dense_start.push(dense_total);
            total += v.len();
            if d {
                dense_total += v.len();
            }
        }
        let mut rows = vec![0u64; dense_total * words];
        let mut stars = vec![Vec::new(); arity];
        let mut lists: Vec<Vec<Vec<u32>>> = (0..arity)
            .map(|p| {
                if dense[p] {
                    Vec::new()
                } else {
                    vec![Vec::new(); values[p].len()]
                }
            })
            .collect();
        for (t, tuple) in tuples.iter().enumerate() {
            if t % CHECK_EVERY == 0 && expired() {
                return None;
            }
            for (p, cell) in tuple.iter().enumerate() {
                match cell {
                    Some(a) => {
                        let k = values[p].binary_search(a).expect("a listed value");
                        if dense[p] {
                            rows[(dense_start[p] + k) * words + t / 64] |= 1 << (t % 64);
                        } else {
                            lists[p][k].push(t as u32);
                        }
                    }
                    None => {
                        if stars[p].is_empty() {
                            stars[p] = vec![0u64; words];
                        }
                        stars[p][t / 64] |= 1 << (t % 64);
                    }
                }
            }
        }
        let sparse = lists
            .into_iter()
            .zip(&dense)
            .map(|(lists, &d)| {
                (!d).then(|| {
                    let mut starts = vec![0u32];
                    let mut ids = Vec::new();
                    for l in lists {
                        ids.extend(l);
                        starts.push(ids.len() as u32);
                    }
                    Sparse { starts, ids }
                })
            })
            .collect();
        drop(tuples);
        Some(TableData {
            arity,
            tuples: count,
            words,
            last_mask,
            values,
            first_row,
            dense_start,
            rows,
            sparse,
            stars,
            cells: sorted,
        })
    }

    /// The number of positions.
    pub(crate) fn arity(&self) -> usize {
        self.arity
    }

    /// The number of distinct tuples.
    pub(crate) fn len(&self) -> usize {
        self.tuples
    }

    /// Whether some tuple has `*`.
    pub(crate) fn has_star(&self) -> bool {
        self.stars.iter().any(|s| !s.is_empty())
    }

    /// The tuples, `None` for `*`.
    pub(crate) fn tuples(&self) -> impl Iterator<Item = &[Option<i32>]> {
        self.cells.chunks(self.arity.max(1)).take(self.tuples)
    }

    /// The bitset row of value `k` at a dense position.
    fn row(&self, pos: usize, k: usize) -> &[u64] {
        let start = (self.dense_start[pos] + k) * self.words;
        &self.rows[start..start + self.words]
    }

    /// Whether tuple `t` agrees with the cells.
    fn tuple_matches(&self, t: usize, cells: &[(usize, i32)]) -> bool {
        let tuple = &self.cells[t * self.arity..(t + 1) * self.arity];
        cells.iter().all(|&(p, a)| tuple[p].is_none_or(|b| b == a))
    }

    /// The number of rows (one per position and value).
    fn num_rows(&self) -> usize {
        self.values.iter().map(Vec::len).sum()
    }

    /// Whether some tuple agrees with the given `(position, value)` cells.
    fn any_tuple_matches(&self, cells: &[(usize, i32)]) -> bool {
        if cells.iter().any(|&(p, _)| self.sparse[p].is_some()) {
            // A list of candidates where one has no `*`, else every tuple.
            for &(p, a) in cells {
                if let (Some(sparse), true) = (&self.sparse[p], self.stars[p].is_empty()) {
                    return match self.values[p].binary_search(&a) {
                        Ok(k) => sparse
                            .list(k)
                            .iter()
                            .any(|&t| self.tuple_matches(t as usize, cells)),
                        Err(_) => false,
                    };
                }
            }
            return (0..self.tuples).any(|t| self.tuple_matches(t, cells));
        }
        // Per cell: the row of its value (if any tuple holds it) and the stars.
        type Cell<'a> = (Option<&'a [u64]>, Option<&'a [u64]>);
        let mut rows: smallvec::SmallVec<[Cell<'_>; 16]> = smallvec::SmallVec::new();
        for &(p, a) in cells {
            let row = self.values[p].binary_search(&a).ok().map(|k| self.row(p, k));
            let star = (!self.stars[p].is_empty()).then(|| &self.stars[p][..]);
            if row.is_none() && star.is_none() {
                return false;
            }
            rows.push((row, star));
        }
        (0..self.words).any(|w| {
            let mut acc = if w + 1 == self.words { self.last_mask } else { !0 };
            for (row, star) in &rows {
                acc &= row.map_or(0, |r| r[w]) | star.map_or(0, |s| s[w]);
                if acc == 0 {
                    break;
                }
            }
            acc != 0
        })
    }
}

/// The row numbers of the tuples (`arity` cells each, one after the other), in the
/// lexicographic order of the tuples (`*` first); `None` when `expired` says to stop.
///
/// A large table is sorted by radix, position by position from the last, 16 bits of a cell
/// at a time: each pass is linear and the clock is read between chunks of it, where a
/// comparison sort of millions of tuples would run for seconds without a pause.
fn sorted_rows(cells: &[Option<i32>], arity: usize, expired: &mut dyn FnMut() -> bool) -> Option<Vec<u32>> {
    const CHECK_EVERY: usize = 1 << 16;
    let rows = cells.len() / arity;
    let mut order: Vec<u32> = (0..rows as u32).collect();
    let row = |i: u32| &cells[i as usize * arity..(i as usize + 1) * arity];
    if rows < 1 << 17 {
        order.sort_unstable_by(|&a, &b| row(a).cmp(row(b)));
        return (!expired()).then_some(order);
    }
    // The cell as an unsigned key in the order of `Option<i32>`: `*` (None) first.
    let key = |c: Option<i32>| c.map_or(0u64, |a| (i64::from(a) - i64::from(i32::MIN) + 1) as u64);
    let mut scratch = vec![0u32; rows];
    let mut counts = vec![0usize; 1 << 16];
    for p in (0..arity).rev() {
        let top = (0..rows).map(|r| key(cells[r * arity + p])).max().unwrap_or(0);
        let mut shift = 0;
        while shift == 0 || top >> shift != 0 {
            if expired() {
                return None;
            }
            let digit = |r: u32| ((key(cells[r as usize * arity + p]) >> shift) & 0xFFFF) as usize;
            counts.fill(0);
            for &r in &order {
                counts[digit(r)] += 1;
            }
            let mut total = 0;
            for c in counts.iter_mut() {
                let n = *c;
                *c = total;
                total += n;
            }
            for (n, &r) in order.iter().enumerate() {
                if n % CHECK_EVERY == 0 && n > 0 && expired() {
                    return None;
                }
                let d = digit(r);
                scratch[counts[d]] = r;
                counts[d] += 1;
            }
            std::mem::swap(&mut order, &mut scratch);
            shift += 16;
        }
    }
    Some(order)
}

/// The tuples of a table, prepared once for several table constraints: an XCSP3 `group`
/// of `extension` constraints posts the same tuples on many scopes, and
/// [`crate::Model::table_shared`] then shares one copy of their bitsets. Cloning is cheap.
///
/// ```
/// use csp_core::{Model, SearchConfig, Solver, TableCell::Value, Tuples};
/// let mut m = Model::new();
/// let x = m.int_vars(5, 0, 1).unwrap();
/// // Odd parity of three neighbours, on a ring of five.
/// let odd: Vec<Vec<_>> = (0..8)
///     .filter(|t: &i32| t.count_ones() % 2 == 1)
///     .map(|t| (0..3).map(|i| Value(t >> i & 1)).collect())
///     .collect();
/// let odd = Tuples::new(3, odd).unwrap();
/// for i in 0..5 {
///     m.table_shared(&[x[i], x[(i + 1) % 5], x[(i + 2) % 5]], &odd, true).unwrap();
/// }
/// assert_eq!(Solver::new(&m, SearchConfig::default()).unwrap().count().solutions, 1);
/// ```
#[derive(Clone, Debug)]
pub struct Tuples {
    pub(crate) data: Arc<TableData>,
}

impl Tuples {
    /// Tuples of `arity` cells each (duplicates are dropped).
    pub fn new(arity: usize, tuples: Vec<Vec<TableCell>>) -> Result<Tuples, ModelError> {
        if arity == 0 {
            return Err(ModelError::InvalidConstraint {
                constraint: "table",
                reason: "the scope is empty".to_string(),
            });
        }
        if let Some(t) = tuples.iter().find(|t| t.len() != arity) {
            return Err(ModelError::LengthMismatch {
                what: "table tuple",
                expected: arity,
                found: t.len(),
            });
        }
        let rows = tuples
            .into_iter()
            .map(|t| {
                t.into_iter()
                    .map(|c| match c {
                        TableCell::Value(a) => Some(a),
                        TableCell::Any => None,
                    })
                    .collect()
            })
            .collect();
        Ok(Tuples {
            data: Arc::new(TableData::new(arity, rows)),
        })
    }

    /// Tuples given one after the other (`arity` cells each; duplicates are dropped), built
    /// unless `expired` says to stop (`Ok(None)`): it is asked every few thousand tuples, so
    /// that a table of millions of tuples is built within a time limit.
    pub fn from_flat_until(
        arity: usize,
        cells: Vec<TableCell>,
        expired: &mut dyn FnMut() -> bool,
    ) -> Result<Option<Tuples>, ModelError> {
        if arity == 0 {
            return Err(ModelError::InvalidConstraint {
                constraint: "table",
                reason: "the scope is empty".to_string(),
            });
        }
        if !cells.len().is_multiple_of(arity) {
            return Err(ModelError::LengthMismatch {
                what: "table cells",
                expected: cells.len().next_multiple_of(arity),
                found: cells.len(),
            });
        }
        let cells = cells
            .into_iter()
            .map(|c| match c {
                TableCell::Value(a) => Some(a),
                TableCell::Any => None,
            })
            .collect();
        Ok(TableData::build(arity, cells, expired).map(|data| Tuples { data: Arc::new(data) }))
    }

    /// The number of cells of each tuple.
    pub fn arity(&self) -> usize {
        self.data.arity()
    }

    /// The number of distinct tuples.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there is no tuple.
    pub fn is_empty(&self) -> bool {
        self.data.len() == 0
    }

    /// The tuples, in increasing order (`*` first).
    pub fn iter(&self) -> impl Iterator<Item = Vec<TableCell>> + '_ {
        self.data.tuples().map(|t| {
            t.iter()
                .map(|c| c.map_or(TableCell::Any, TableCell::Value))
                .collect()
        })
    }
}

/// A table constraint over distinct variables: supports or conflicts, with tuples that
/// other constraints may share.
#[derive(Debug)]
pub(crate) struct Table {
    vars: Vec<VarId>,
    /// Conflicts (forbidden tuples) instead of supports.
    negative: bool,
    data: Arc<TableData>,
    /// Per row of `data`, the word where its value last found a valid tuple.
    residues: Vec<AtomicU32>,
    /// Per position, whether the variable's domain holds only values of the tuples there
    /// (the model restricted it at posting): then its size counts its present values.
    within: Vec<bool>,
}

/// Scratch space of the propagation, one per thread (propagators are shared).
#[derive(Default)]
struct Scratch {
    valid: Vec<u64>,
    mask: Vec<u64>,
    nonzero: Vec<u32>,
    doomed: Vec<i32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Table {
    /// A table over the distinct `vars`; `tuples` hold one cell per variable, `None` for
    /// `*` (`negative` tables: no `*`). Duplicates are removed here.
    pub(crate) fn new(vars: Vec<VarId>, tuples: Vec<Vec<Option<i32>>>, negative: bool) -> Table {
        let data = Arc::new(TableData::new(vars.len(), tuples));
        Table::shared(vars, data, negative)
    }

    /// A table over the distinct `vars` with tuples built already. Conflicts with `*` are
    /// checked exactly but not propagated exactly (counting needs disjoint conflicts): wrap
    /// them (see [`Table::check_values`]).
    pub(crate) fn shared(vars: Vec<VarId>, data: Arc<TableData>, negative: bool) -> Table {
        debug_assert_eq!(vars.len(), data.arity);
        Table {
            vars,
            negative,
            residues: (0..data.num_rows()).map(|_| AtomicU32::new(0)).collect(),
            within: vec![false; data.arity],
            data,
        }
    }

    /// Declares that the domain of the variable at position `p` holds only values of the
    /// tuples there (as [`Table::held_values`] lists them), in every model this table is in.
    pub(crate) fn declare_within(&mut self, p: usize) {
        self.within[p] = true;
    }

    /// For supports: the values the tuples hold at position `p`, increasing; `None` when any
    /// value fits there (a tuple has `*`) or for conflicts.
    pub(crate) fn held_values(&self, p: usize) -> Option<&[i32]> {
        (!self.negative && self.data.stars[p].is_empty()).then(|| &self.data.values[p][..])
    }

    /// [`Propagator::check`], for wrappers.
    pub(crate) fn check_values(&self, values: &[i32]) -> bool {
        self.check(values)
    }

    /// The tuples valid in the current domains, into `s.valid`; `s.nonzero` lists its
    /// non-zero words. Returns `false` when none is valid.
    fn valid_tuples(&self, ctx: &PropagationContext<'_>, s: &mut Scratch) -> bool {
        let w = self.data.words;
        s.valid.clear();
        s.valid.resize(w, !0);
        s.valid[w - 1] = self.data.last_mask;
        s.mask.clear();
        s.mask.resize(w, 0);
        for (p, &var) in self.vars.iter().enumerate() {
            let values = &self.data.values[p];
            let present = if self.within[p] {
                ctx.size(var) as usize
            } else {
                values.iter().filter(|&&a| ctx.contains(var, a)).count()
            };
            if present == values.len() {
                // Every tuple holds a present value or `*` here.
                continue;
            }
            let sparse = self.data.sparse[p].as_ref();
            if present <= values.len() - present {
                // Union of the present values' rows (and the stars).
                if self.data.stars[p].is_empty() {
                    s.mask.fill(0);
                } else {
                    s.mask.copy_from_slice(&self.data.stars[p]);
                }
                for (k, &a) in values.iter().enumerate() {
                    if ctx.contains(var, a) {
                        match sparse {
                            Some(sparse) => {
                                for &t in sparse.list(k) {
                                    s.mask[t as usize / 64] |= 1 << (t % 64);
                                }
                            }
                            None => {
                                for (m, r) in s.mask.iter_mut().zip(self.data.row(p, k)) {
                                    *m |= r;
                                }
                            }
                        }
                    }
                }
                for (v, m) in s.valid.iter_mut().zip(&s.mask) {
                    *v &= m;
                }
            } else {
                // Minus the removed values' rows.
                for (k, &a) in values.iter().enumerate() {
                    if !ctx.contains(var, a) {
                        match sparse {
                            Some(sparse) => {
                                for &t in sparse.list(k) {
                                    s.valid[t as usize / 64] &= !(1 << (t % 64));
                                }
                            }
                            None => {
                                for (v, r) in s.valid.iter_mut().zip(self.data.row(p, k)) {
                                    *v &= !r;
                                }
                            }
                        }
                    }
                }
            }
        }
        s.nonzero.clear();
        s.nonzero
            .extend((0..w as u32).filter(|&i| s.valid[i as usize] != 0));
        !s.nonzero.is_empty()
    }

    /// Whether value `k` of position `p` has a valid tuple; updates its residue.
    #[inline]
    fn supported(&self, p: usize, k: usize, s: &Scratch) -> bool {
        let residue = &self.residues[self.data.first_row[p] + k];
        let r = residue.load(Ordering::Relaxed) as usize;
        if let Some(sparse) = &self.data.sparse[p] {
            // The residue is a position in the value's list.
            let list = sparse.list(k);
            let valid = |t: u32| s.valid[t as usize / 64] >> (t % 64) & 1 == 1;
            if r < list.len() && valid(list[r]) {
                return true;
            }
            if let Some(i) = list.iter().position(|&t| valid(t)) {
                residue.store(i as u32, Ordering::Relaxed);
                return true;
            }
            return false;
        }
        let row = self.data.row(p, k);
        if r < self.data.words && row[r] & s.valid[r] != 0 {
            return true;
        }
        for &i in &s.nonzero {
            if row[i as usize] & s.valid[i as usize] != 0 {
                residue.store(i, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// How many valid tuples hold value `k` of position `p`.
    fn held(&self, p: usize, k: usize, s: &Scratch) -> u64 {
        match &self.data.sparse[p] {
            Some(sparse) => sparse
                .list(k)
                .iter()
                .filter(|&&t| s.valid[t as usize / 64] >> (t % 64) & 1 == 1)
                .count() as u64,
            None => {
                let row = self.data.row(p, k);
                s.nonzero
                    .iter()
                    .map(|&i| u64::from((row[i as usize] & s.valid[i as usize]).count_ones()))
                    .sum()
            }
        }
    }

    fn propagate_supports(&self, ctx: &mut PropagationContext<'_>, s: &mut Scratch) -> Result<(), Conflict> {
        if !self.valid_tuples(ctx, s) {
            return Err(Conflict);
        }
        for (p, &var) in self.vars.iter().enumerate() {
            let size = ctx.size(var);
            if size == 1 {
                // Its one value is in every valid tuple (or `*` is).
                continue;
            }
            if !self.data.stars[p].is_empty()
                && s.nonzero
                    .iter()
                    .any(|&i| self.data.stars[p][i as usize] & s.valid[i as usize] != 0)
            {
                continue;
            }
            s.doomed.clear();
            let mut supported = 0u32;
            for (k, &a) in self.data.values[p].iter().enumerate() {
                if ctx.contains(var, a) {
                    if self.supported(p, k, s) {
                        supported += 1;
                    } else {
                        s.doomed.push(a);
                    }
                }
            }
            if supported + s.doomed.len() as u32 != size {
                // Values no tuple holds (left in by an inference that never ran us).
                let values = &self.data.values[p];
                s.doomed
                    .extend(ctx.values(var).filter(|a| values.binary_search(a).is_err()));
            }
            for &a in &s.doomed {
                ctx.remove(var, a)?;
            }
        }
        Ok(())
    }

    fn propagate_conflicts(&self, ctx: &mut PropagationContext<'_>, s: &mut Scratch) -> Result<(), Conflict> {
        if !self.valid_tuples(ctx, s) {
            return Ok(());
        }
        let alive: u64 = s
            .nonzero
            .iter()
            .map(|&i| u64::from(s.valid[i as usize].count_ones()))
            .sum();
        // The sizes the valid conflicts were counted in (removals below leave both as they
        // were: a value all of whose combinations were conflicts then stays without support).
        let sizes: smallvec::SmallVec<[u64; 16]> =
            self.vars.iter().map(|&v| u64::from(ctx.size(v))).collect();
        for (p, &var) in self.vars.iter().enumerate() {
            // The combinations of the other variables' values, up to `alive + 1`.
            let mut others = 1u64;
            for (q, &size) in sizes.iter().enumerate() {
                if q != p {
                    others = others.saturating_mul(size);
                    if others > alive {
                        break;
                    }
                }
            }
            if others > alive {
                continue;
            }
            s.doomed.clear();
            for (k, &a) in self.data.values[p].iter().enumerate() {
                if ctx.contains(var, a) && self.held(p, k, s) >= others {
                    s.doomed.push(a);
                }
            }
            for &a in &s.doomed {
                ctx.remove(var, a)?;
            }
        }
        Ok(())
    }
}

impl Propagator for Table {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    /// Tuples built for this constraint alone count (a table generated from a sum or an
    /// expression); tuples shared through [`Tuples`] are their owner's, proportional to
    /// what it read.
    fn heap_bytes(&self) -> usize {
        let own = allocated(&self.residues) + allocated(&self.within) + allocated(&self.vars);
        if Arc::strong_count(&self.data) == 1 {
            own + self.data.heap_bytes()
        } else {
            own
        }
    }

    fn check(&self, values: &[i32]) -> bool {
        let cells: smallvec::SmallVec<[(usize, i32); 16]> = values.iter().copied().enumerate().collect();
        self.data.any_tuple_matches(&cells) != self.negative
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        if self.data.tuples == 0 {
            // No support: nothing is allowed. No conflict: everything is.
            return if self.negative { Ok(()) } else { Err(Conflict) };
        }
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            if self.negative {
                self.propagate_conflicts(ctx, s)
            } else {
                self.propagate_supports(ctx, s)
            }
        })
    }

    fn wake(&self) -> Wake {
        Wake::OnChange
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        let mut cells: smallvec::SmallVec<[(usize, i32); 16]> = smallvec::SmallVec::new();
        for p in 0..self.vars.len() {
            match (p == local).then_some(value).or_else(|| assigned(p)) {
                Some(a) => cells.push((p, a)),
                // Conflicts: only a complete assignment is judged.
                None if self.negative => return true,
                None => {}
            }
        }
        self.data.any_tuple_matches(&cells) != self.negative
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        if self.data.words > 16 {
            Priority::Slow
        } else {
            Priority::Fast
        }
    }

    fn is_idempotent(&self) -> bool {
        // Removing unsupported values leaves the valid tuples as they were; conflicts
        // change the others' counts.
        !self.negative
    }

    fn name(&self) -> &str {
        if self.negative { "conflicts table" } else { "table" }
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::{Domain, Model, SearchConfig, Solver};

    /// Lists of tuples (sparse positions) give the same solutions as bitsets, under
    /// forward checking and MAC, for supports with `*` and for conflicts.
    #[test]
    fn sparse_rows_agree_with_dense_rows() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..400 {
            let n = rng.random_range(3..=4);
            let mut m = Model::new();
            let vars: Vec<VarId> = (0..n)
                .map(|_| {
                    let values: Vec<i32> = (0..5).filter(|_| rng.random_bool(0.7)).collect();
                    m.add_var(Domain::from_values(if values.is_empty() { vec![0] } else { values }).unwrap())
                })
                .collect();
            let negative = rng.random_bool(0.5);
            let count = rng.random_range(0..150);
            let tuples: Vec<Vec<Option<i32>>> = (0..count)
                .map(|_| {
                    (0..n)
                        .map(|_| (negative || rng.random_bool(0.9)).then(|| rng.random_range(0..5)))
                        .collect()
                })
                .collect();
            let flat = |t: &Vec<Vec<Option<i32>>>| t.iter().flatten().copied().collect();
            let dense =
                Arc::new(TableData::build_with(n, flat(&tuples), |_, _| true, &mut || false).unwrap());
            let sparse =
                Arc::new(TableData::build_with(n, flat(&tuples), |v, _| v < 3, &mut || false).unwrap());
            let brute: u64 = {
                let table = Table::shared(vars.clone(), dense.clone(), negative);
                let mut total = 0;
                let mut at = vec![0usize; n];
                let domains: Vec<Vec<i32>> = vars.iter().map(|&v| m.domain(v).values().collect()).collect();
                'all: loop {
                    let values: Vec<i32> = (0..n).map(|i| domains[i][at[i]]).collect();
                    let listed = tuples
                        .iter()
                        .any(|t| t.iter().zip(&values).all(|(c, &a)| c.is_none_or(|c| c == a)));
                    assert_eq!(table.check(&values), listed != negative, "case {case}");
                    total += u64::from(listed != negative);
                    for i in (0..n).rev() {
                        at[i] += 1;
                        if at[i] < domains[i].len() {
                            continue 'all;
                        }
                        at[i] = 0;
                    }
                    break total;
                }
            };
            for data in [dense, sparse] {
                let mut model = m.clone();
                model
                    .add_propagator(Table::shared(vars.clone(), data, negative))
                    .expect("variables of this model");
                for strategy in [
                    "static/asc/none",
                    "mrv/asc/fc",
                    "dom-wdeg/asc/mac",
                    "mrv-degree/lcv/mac",
                ] {
                    let config = SearchConfig::with_strategy(strategy.parse().unwrap());
                    let got = Solver::new(&model, config).unwrap().count().solutions;
                    assert_eq!(got, brute, "case {case} {strategy}");
                }
                // Generalised arc consistency: one table alone is solved without a failure.
                let config = SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap());
                let mut solver = Solver::new(&model, config).unwrap();
                solver.solve();
                assert!(
                    brute == 0 || solver.stats().backtracks == 0,
                    "case {case}: a failure under MAC"
                );
            }
        }
    }
}
