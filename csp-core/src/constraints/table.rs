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
//! Tables of conflicts (forbidden tuples, without `*`) count instead: a value is supported
//! as long as fewer valid conflicts hold it than there are combinations of the other
//! variables' values.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::model::VarId;
use crate::propagator::{Conflict, Event, Priority, PropagationContext, Propagator, Wake};

/// A table over distinct variables, as bitsets over its tuples.
#[derive(Debug)]
pub(crate) struct Table {
    vars: Vec<VarId>,
    /// Conflicts (forbidden tuples) instead of supports.
    negative: bool,
    /// Number of tuples.
    tuples: usize,
    /// Words per bitset over the tuples.
    words: usize,
    /// The valid bits of the last word.
    last_mask: u64,
    /// Per position, the distinct values its tuples hold (not `*`), increasing.
    values: Vec<Vec<i32>>,
    /// Per position, the index of its first value's row in `rows` (rows are `words` long).
    first_row: Vec<usize>,
    rows: Vec<u64>,
    /// Per position, the tuples with `*` there (empty when there are none).
    stars: Vec<Vec<u64>>,
    /// Per row, the word where its value last found a valid tuple.
    residues: Vec<AtomicU32>,
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
    /// `*`, and only values of the variables' domains (`negative` tables: no `*`).
    /// Duplicates are removed here.
    pub(crate) fn new(vars: Vec<VarId>, mut tuples: Vec<Vec<Option<i32>>>, negative: bool) -> Table {
        tuples.sort_unstable();
        tuples.dedup();
        let arity = vars.len();
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
        let mut first_row = Vec::with_capacity(arity);
        let mut total = 0;
        for v in &values {
            first_row.push(total);
            total += v.len();
        }
        let mut rows = vec![0u64; total * words];
        let mut stars = vec![Vec::new(); arity];
        for (t, tuple) in tuples.iter().enumerate() {
            for (p, cell) in tuple.iter().enumerate() {
                match cell {
                    Some(a) => {
                        let k = values[p].binary_search(a).expect("a listed value");
                        rows[(first_row[p] + k) * words + t / 64] |= 1 << (t % 64);
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
        Table {
            vars,
            negative,
            tuples: count,
            words,
            last_mask,
            values,
            first_row,
            rows,
            stars,
            residues: (0..total).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// [`Propagator::check`], for wrappers.
    pub(crate) fn check_values(&self, values: &[i32]) -> bool {
        self.check(values)
    }

    fn row(&self, pos: usize, k: usize) -> &[u64] {
        let start = (self.first_row[pos] + k) * self.words;
        &self.rows[start..start + self.words]
    }

    /// Whether some tuple agrees with the given values (`None`: any value), as `matches`
    /// over `(position, value)` pairs.
    fn any_tuple_matches(&self, cells: &[(usize, i32)]) -> bool {
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

    /// The tuples valid in the current domains, into `s.valid`; `s.nonzero` lists its
    /// non-zero words. Returns `false` when none is valid.
    fn valid_tuples(&self, ctx: &PropagationContext<'_>, s: &mut Scratch) -> bool {
        let w = self.words;
        s.valid.clear();
        s.valid.resize(w, !0);
        s.valid[w - 1] = self.last_mask;
        s.mask.clear();
        s.mask.resize(w, 0);
        for (p, &var) in self.vars.iter().enumerate() {
            let values = &self.values[p];
            let present = values.iter().filter(|&&a| ctx.contains(var, a)).count();
            if present == values.len() {
                // Every tuple holds a present value or `*` here.
                continue;
            }
            if present <= values.len() - present {
                // Union of the present values' rows (and the stars).
                if self.stars[p].is_empty() {
                    s.mask.fill(0);
                } else {
                    s.mask.copy_from_slice(&self.stars[p]);
                }
                for (k, &a) in values.iter().enumerate() {
                    if ctx.contains(var, a) {
                        for (m, r) in s.mask.iter_mut().zip(self.row(p, k)) {
                            *m |= r;
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
                        for (v, r) in s.valid.iter_mut().zip(self.row(p, k)) {
                            *v &= !r;
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

    /// Whether `row` meets the valid tuples; updates the row's residue.
    #[inline]
    fn supported(&self, row_index: usize, row: &[u64], s: &Scratch) -> bool {
        let residue = &self.residues[row_index];
        let r = residue.load(Ordering::Relaxed) as usize;
        if r < self.words && row[r] & s.valid[r] != 0 {
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
            if !self.stars[p].is_empty()
                && s.nonzero
                    .iter()
                    .any(|&i| self.stars[p][i as usize] & s.valid[i as usize] != 0)
            {
                continue;
            }
            s.doomed.clear();
            let mut supported = 0u32;
            for (k, &a) in self.values[p].iter().enumerate() {
                if ctx.contains(var, a) {
                    if self.supported(self.first_row[p] + k, self.row(p, k), s) {
                        supported += 1;
                    } else {
                        s.doomed.push(a);
                    }
                }
            }
            if supported + s.doomed.len() as u32 != size {
                // Values no tuple holds (left in by an inference that never ran us).
                let values = &self.values[p];
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
            for (k, &a) in self.values[p].iter().enumerate() {
                if ctx.contains(var, a) {
                    let held: u64 = s
                        .nonzero
                        .iter()
                        .map(|&i| u64::from((self.row(p, k)[i as usize] & s.valid[i as usize]).count_ones()))
                        .sum();
                    if held >= others {
                        s.doomed.push(a);
                    }
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

    fn check(&self, values: &[i32]) -> bool {
        let cells: smallvec::SmallVec<[(usize, i32); 16]> = values.iter().copied().enumerate().collect();
        self.any_tuple_matches(&cells) != self.negative
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        if self.tuples == 0 {
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
        self.any_tuple_matches(&cells) != self.negative
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        if self.words > 16 {
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
