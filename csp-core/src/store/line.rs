//! Removing a value from every variable of a block along a line: variable `first + j`
//! loses `value0 - step * j`. All-different at value strength does this at every
//! assignment (with `step` 0 for plain variables and ±1 for the diagonals of n-queens),
//! over every unassigned variable of its block, so on a large board it is nearly all the
//! work of a search.
//!
//! Two things make it cheaper than a removal per variable:
//! - **One trail record per 64 variables.** The record holds which variables of an
//!   aligned group of 64 lost their value (a mask), and the line, from which each one's
//!   bit follows. Undoing it puts those bits back and adds one to each size. A record per
//!   removal would write 16 bytes for each of the `n` variables a node reaches.
//! - **Two passes per group.** The first reads the group's words and gathers which of
//!   them hold their value, with nothing to write; the second clears those bits in order,
//!   stopping at a domain it empties exactly where a removal per variable would. The
//!   words of a group lie side by side in one or two rows of the interleaved layout
//!   ([`super::Layout::ByWord`]); on a diagonal the next group's lie in another row, far
//!   away, which the hardware does not fetch ahead by itself, so the first pass asks for
//!   them a few groups early. When at least a quarter of a run's lanes are unassigned,
//!   the first pass reads every word from its first lane to its last in one branch-free
//!   loop that the compiler vectorises, instead of scanning the unassigned lanes' bits
//!   one by one.
//!
//! It applies to stores laid out by word whose domains share one base: each variable's
//! bit is then the same function of its index.

use std::ops::Range;

use prefetch_index::prefetch_index;

use super::{Layout, Store, TrailEntry};
use crate::var::VarId;

/// The `word` of a record's first entry: its `old_size` is the group (variables
/// `64 g..64 g + 64`) and its `old_bits` the mask of the variables that lost a value.
pub(super) const LINE_MASK: u32 = u32::MAX;
/// The `word` of a record's second entry: its `old_size` is the step (an `i32`) and its
/// `old_bits` the bit of variable `64 g` on the line (an `i64`, which may lie outside
/// the domain: only the masked variables' bits are read).
pub(super) const LINE_HEAD: u32 = u32::MAX - 1;
/// Word indices from here up are tags: a store has fewer words.
pub(super) const FIRST_TAG: u32 = LINE_HEAD;

/// How many groups ahead the first pass asks for a group's words.
const PREFETCH_GROUPS: usize = 4;

/// A removal along a line: variable `first + j`, for `j` in `reach` but `except`, loses
/// `value0 - step * j` if it is unassigned (a bit of the search's `open`). `reach` holds
/// the indices whose value lies within the domains' span ([`Store::line_reach`]).
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub(crate) first: usize,
    pub(crate) reach: Range<usize>,
    pub(crate) except: usize,
    pub(crate) value0: i64,
    pub(crate) step: i32,
}

impl Store {
    /// For a line over a block of `len` variables (`value0 - step * j` for block index
    /// `j`): the indices whose value lies within the domains' span, if the store can
    /// remove lines ([`Store::remove_line`]): when it lays its domains out by word (all of
    /// one width) with one base, so that each variable's bit is the same function of its
    /// index. Outside those indices no variable can hold its value.
    pub(crate) fn line_reach(&self, value0: i64, step: i32, len: usize) -> Option<Range<usize>> {
        let (Some(base), Layout::ByWord { width }) = (self.line_base, self.layout) else {
            return None;
        };
        let bit0 = value0 - i64::from(base);
        Some(within_span(bit0, i64::from(step), i64::from(width) * 64, len))
    }

    /// Removes the values of `line` from its unassigned variables (the bits of `open`);
    /// calls `removed(var)`, if given, for each change. Returns the number of values removed, and
    /// the variable left empty, at which it stops (having removed the values of the
    /// variables before it only), if any: what [`Store::remove_from_each`] returns.
    ///
    /// `line.reach` comes from [`Store::line_reach`].
    #[inline]
    pub(crate) fn remove_line(
        &mut self,
        line: Line,
        open: &[u64],
        removed: Option<impl FnMut(VarId)>,
    ) -> (u64, Option<VarId>) {
        let Some(base) = self.line_base else {
            unreachable!("a line removal needs a store laid out by word with one base");
        };
        if line.reach.is_empty() {
            return (0, None);
        }
        let span = LineSpan {
            from: line.first + line.reach.start,
            to: line.first + line.reach.end,
            except: line.first + line.except,
            // The bit of block variable `j` is `value0 - base - step * j`.
            bit_of_first: line.value0 - i64::from(base),
            first: line.first,
        };
        let parts = Parts {
            words: &mut self.words,
            size: &mut self.size,
            trail: &mut self.trail,
        };
        // The step as a constant in each common case: one multiplication fewer for
        // each variable.
        match line.step {
            0 => parts.remove(span, 0, open, removed),
            1 => parts.remove(span, 1, open, removed),
            -1 => parts.remove(span, -1, open, removed),
            step => parts.remove(span, step, open, removed),
        }
    }
}

/// The variables of a line removal whose bits lie in their domains: `from..to` but
/// `except`; variable `v` has bit `bit_of_first - step * (v - first)`.
#[derive(Clone, Copy)]
struct LineSpan {
    from: usize,
    to: usize,
    except: usize,
    bit_of_first: i64,
    first: usize,
}

/// What [`Store::remove_line`] changes.
struct Parts<'a> {
    words: &'a mut [u64],
    size: &'a mut [u32],
    trail: &'a mut Vec<TrailEntry>,
}

impl Parts<'_> {
    /// [`Store::remove_line`] over `span`, group by group.
    #[inline(always)]
    fn remove(
        self,
        span: LineSpan,
        step: i32,
        open: &[u64],
        mut removed: Option<impl FnMut(VarId)>,
    ) -> (u64, Option<VarId>) {
        let Parts { words, size, trail } = self;
        let (vars, step_bits) = (size.len(), i64::from(step));
        let groups = span.from / 64..(span.to - 1) / 64 + 1;
        // Two entries per group at most: no reallocation inside the loop.
        trail.reserve(2 * groups.len());
        let bit_of = |v: usize| span.bit_of_first - step_bits * (v as i64 - span.first as i64);
        let mut count = 0;
        for g in groups {
            let ahead = g + PREFETCH_GROUPS;
            if step != 0 && ahead * 64 < span.to {
                // The words of that group's unassigned variables, a cache line (eight
                // variables of a row) at a time: the lines of assigned ones would only
                // take memory bandwidth. (A plain all-different reads one row in order,
                // which the hardware fetches ahead by itself.)
                let mut pending = open[ahead] & within_group(ahead, span.from, span.to);
                while pending != 0 {
                    let v = ahead * 64 + pending.trailing_zeros() as usize;
                    pending &= !(0xFF << (v % 64 / 8 * 8));
                    prefetch_index(&*words, v + (bit_of(v) / 64) as usize * vars);
                }
            }
            let mut open = open[g] & within_group(g, span.from, span.to);
            if span.except / 64 == g {
                open &= !(1 << (span.except % 64));
            }
            // Variable `64 g + i` has bit `group_bit - step * i`.
            let group_bit = bit_of(g * 64);
            let mut hits = 0u64;
            for (run, row) in Rows::new(open, group_bit, step_bits, vars) {
                let at = Lanes {
                    word: g * 64 + row,
                    var: g * 64,
                };
                let lo = run.trailing_zeros();
                // Within the row, lane `lo`'s bit is `group_bit - step * lo` modulo 64.
                let first_shift = ((group_bit - step_bits * i64::from(lo)) as u32 % 64) as i32;
                let run = Run {
                    lanes: run,
                    lo,
                    shift0: first_shift + step * lo as i32,
                    step,
                };
                let (cleared, emptied) = clear(words, size, at, run, gather(words, at, run));
                hits |= cleared;
                if let Some(removed) = removed.as_mut() {
                    let mut rest = cleared;
                    while rest != 0 {
                        removed(VarId((g * 64 + rest.trailing_zeros() as usize) as u32));
                        rest &= rest - 1;
                    }
                }
                if let Some(v) = emptied {
                    push_record(trail, g, hits, group_bit, step);
                    return (count + u64::from(hits.count_ones()), Some(VarId(v as u32)));
                }
            }
            if hits != 0 {
                push_record(trail, g, hits, group_bit, step);
                count += u64::from(hits.count_ones());
            }
        }
        (count, None)
    }
}

/// `LANE[i]` is bit `i`: the lane of variable `64 g + i` in a group's masks.
static LANE: [u64; 64] = lane_table(false);
/// `LANE_REVERSED[i]` is bit `63 - i`.
static LANE_REVERSED: [u64; 64] = lane_table(true);

const fn lane_table(reversed: bool) -> [u64; 64] {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = 1 << if reversed { 63 - i } else { i };
        i += 1;
    }
    table
}

/// Where a run's lanes are: lane `i` has its word at `word + i` and its size at `var + i`.
#[derive(Clone, Copy)]
struct Lanes {
    word: usize,
    var: usize,
}

/// The lanes of a group whose bits lie in one row of words ([`Rows`]), `lo` the first:
/// lane `i` has bit `shift0 - step * i` of its word.
#[derive(Clone, Copy)]
struct Run {
    lanes: u64,
    lo: u32,
    shift0: i32,
    step: i32,
}

impl Run {
    /// The bit within its word of lane `i` (of the run).
    #[inline(always)]
    fn shift(self, i: u32) -> u32 {
        (self.shift0 - self.step * i as i32) as u32
    }
}

/// The lanes of `run` whose bit is set, with nothing written.
#[inline(always)]
fn gather(words: &[u64], at: Lanes, run: Run) -> u64 {
    let extent = 64 - run.lanes.leading_zeros() - run.lo;
    if (-1..=1).contains(&run.step) && 4 * run.lanes.count_ones() >= extent {
        gather_dense(words, at, run)
    } else {
        let mut hits = 0u64;
        let mut rest = run.lanes;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            hits |= (words[at.word + i as usize] >> run.shift(i) & 1) << i;
        }
        hits
    }
}

/// [`gather`] for a step of -1, 0 or 1 over every lane from the run's first to its
/// last, those outside the run masked off at the end: without a branch or a scan of
/// bits, which the compiler vectorises. It pays when the run is not too sparse
/// (assigned variables lie scattered among the unassigned ones, and the words between
/// are mostly in cache lines read anyway).
///
/// Each lane's bit is moved to the lane's own position by shifts that are the same for
/// the whole run: along a diagonal the bit and the lane go up together (step -1) or
/// one up as the other goes down (step 1, gathered in reversed order).
#[inline(always)]
fn gather_dense(words: &[u64], at: Lanes, run: Run) -> u64 {
    let (lo, end) = (run.lo as usize, 64 - run.lanes.leading_zeros() as usize);
    let lane_words = &words[at.word + lo..at.word + end];
    let first_shift = run.shift(run.lo) as i32;
    // Shifts that take lane `i`'s bit to bit `i` (to bit `63 - i` for step 1).
    let to_lane = |offset: i32| (offset.max(0) as u32, (-offset).max(0) as u32);
    let gathered = match run.step {
        0 => lane_words
            .iter()
            .zip(&LANE[lo..])
            .fold(0, |hits, (&word, &lane)| {
                hits | (word >> first_shift & 1).wrapping_neg() & lane
            }),
        -1 => {
            // Lane `i` has bit `first_shift + i - lo`.
            let (right, left) = to_lane(first_shift - lo as i32);
            lane_words
                .iter()
                .zip(&LANE[lo..])
                .fold(0, |hits, (&word, &lane)| hits | (word >> right << left) & lane)
        }
        1 => {
            // Lane `i` has bit `first_shift + lo - i`, to go to bit `63 - i`.
            let (right, left) = to_lane(first_shift + lo as i32 - 63);
            let reversed = lane_words
                .iter()
                .zip(&LANE_REVERSED[lo..])
                .fold(0u64, |hits, (&word, &lane)| hits | (word >> right << left) & lane);
            reversed.reverse_bits()
        }
        _ => unreachable!("dense gathering only for steps -1, 0 and 1"),
    };
    gathered & run.lanes
}

/// Clears the bits of the lanes in `hits` (gathered from `run`), in order, stopping at
/// a domain emptied. Returns the lanes cleared and the variable emptied, if any.
#[inline(always)]
fn clear(words: &mut [u64], size: &mut [u32], at: Lanes, run: Run, hits: u64) -> (u64, Option<usize>) {
    // A window of all 64 lanes where the store has them (every group but the last):
    // a lane index masked to six bits then needs no bounds check.
    let lanes = at.word.checked_add(64).zip(at.var.checked_add(64));
    if let Some((lane_words, lane_sizes)) = lanes.and_then(|(words_end, sizes_end)| {
        Some((
            words.get_mut(at.word..words_end)?,
            size.get_mut(at.var..sizes_end)?,
        ))
    }) {
        return clear_in(lane_words, lane_sizes, at, run, hits);
    }
    let end = 64 - hits.leading_zeros() as usize;
    clear_in(
        &mut words[at.word..at.word + end],
        &mut size[at.var..at.var + end],
        at,
        run,
        hits,
    )
}

/// [`clear`] on the lanes' words and sizes from lane 0, which hold every lane of `hits`.
#[inline(always)]
fn clear_in(
    lane_words: &mut [u64],
    lane_sizes: &mut [u32],
    at: Lanes,
    run: Run,
    hits: u64,
) -> (u64, Option<usize>) {
    let mut rest = hits;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize & 63;
        rest &= rest - 1;
        lane_words[i] &= !(1 << run.shift(i as u32));
        lane_sizes[i] -= 1;
        if lane_sizes[i] == 0 {
            // The lanes up to `i`: those cleared so far.
            return (hits & (!0 >> (63 - i)), Some(at.var + i));
        }
    }
    (hits, None)
}

/// The runs of a group's variables (bits of a mask; variable `64 g + i` has bit
/// `group_bit - step * i`) whose bits lie in one row of words, in increasing order,
/// each with the row's offset: the word of variable `v` of the run is `v + offset`.
/// A step of -1, 0 or 1 gives at most two runs.
struct Rows {
    rest: u64,
    group_bit: i64,
    step: i64,
    vars: usize,
}

impl Rows {
    #[inline(always)]
    fn new(mask: u64, group_bit: i64, step: i64, vars: usize) -> Rows {
        Rows {
            rest: mask,
            group_bit,
            step,
            vars,
        }
    }
}

impl Iterator for Rows {
    type Item = (u64, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(u64, usize)> {
        if self.rest == 0 {
            return None;
        }
        let i = self.rest.trailing_zeros() as i64;
        let bit = self.group_bit - self.step * i;
        let low = bit % 64;
        // The last index whose bit is in the row of `i`'s.
        let last = match self.step {
            0 => 63,
            1 => i + low,
            -1 => i + 63 - low,
            step if step > 0 => i + low / step,
            step => i + (63 - low) / -step,
        };
        let run = if last >= 63 {
            self.rest
        } else {
            self.rest & !(!0 << (last + 1))
        };
        self.rest &= !run;
        Some((run, (bit / 64) as usize * self.vars))
    }
}

/// Records that the variables of group `g` in `mask` lost the bit `group_bit - step * i`
/// (variable `64 g + i`).
#[inline(always)]
fn push_record(trail: &mut Vec<TrailEntry>, g: usize, mask: u64, group_bit: i64, step: i32) {
    trail.push(TrailEntry {
        word: LINE_MASK,
        old_size: g as u32,
        old_bits: mask,
    });
    trail.push(TrailEntry {
        word: LINE_HEAD,
        old_size: step as u32,
        old_bits: group_bit as u64,
    });
}

/// Undoes a line record (its two entries, `mask` then `head`) on words laid out by
/// word for `vars` variables.
#[inline]
pub(super) fn undo_record(mask: TrailEntry, head: TrailEntry, words: &mut [u64], size: &mut [u32]) {
    debug_assert_eq!((mask.word, head.word), (LINE_MASK, LINE_HEAD));
    let vars = size.len();
    let first = mask.old_size as usize * 64;
    let (group_bit, step) = (head.old_bits as i64, i64::from(head.old_size as i32));
    let mut rest = mask.old_bits;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let bit = (group_bit - step * i as i64) as usize;
        words[first + i + bit / 64 * vars] |= 1 << (bit % 64);
        size[first + i] += 1;
    }
}

/// The block indices (within `0..len`) of the variables whose bit `bit0 - step * j`
/// lies in `0..span`.
fn within_span(bit0: i64, step: i64, span: i64, len: usize) -> Range<usize> {
    let (bit0, step, span, len) = (i128::from(bit0), i128::from(step), i128::from(span), len as i128);
    let (lo, hi) = match step.signum() {
        0 if (0..span).contains(&bit0) => (0, len),
        0 => (0, 0),
        // bit0 - step j >= 0 and bit0 - step j < span, for a positive step:
        // (bit0 - span) / step < j <= bit0 / step.
        1 => ((bit0 - span).div_euclid(step) + 1, bit0.div_euclid(step) + 1),
        // With s = -step > 0: -bit0 / s <= j < (span - bit0) / s.
        _ => (ceil_div(-bit0, -step), ceil_div(span - bit0, -step)),
    };
    let (lo, hi) = (lo.clamp(0, len), hi.clamp(0, len));
    lo as usize..hi.max(lo) as usize
}

/// `a / b` rounded up, for `b > 0`.
fn ceil_div(a: i128, b: i128) -> i128 {
    -(-a).div_euclid(b)
}

/// The bits of group `g` (variables `64 g..64 g + 64`) that stand for variables in
/// `from..to`.
#[inline(always)]
fn within_group(g: usize, from: usize, to: usize) -> u64 {
    let start = g * 64;
    let low = if from > start { !0u64 << (from - start) } else { !0 };
    let high = if to < start + 64 {
        !(!0u64 << (to - start))
    } else {
        !0
    };
    low & high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_span_keeps_exactly_the_indices_whose_bit_fits() {
        for bit0 in -300i64..300 {
            for step in [-70i64, -3, -1, 0, 1, 2, 64, 65] {
                for span in [64i64, 128, 192] {
                    for len in [0usize, 1, 5, 130] {
                        let fits = |j: usize| (0..span).contains(&(bit0 - step * j as i64));
                        let expected: Vec<usize> = (0..len).filter(|&j| fits(j)).collect();
                        let got: Vec<usize> = within_span(bit0, step, span, len).collect();
                        assert_eq!(got, expected, "bit0 {bit0} step {step} span {span} len {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn within_group_masks_the_range() {
        assert_eq!(within_group(0, 0, 64), !0);
        assert_eq!(within_group(1, 70, 200), !0 << 6);
        assert_eq!(within_group(1, 0, 66), 0b11);
        assert_eq!(within_group(2, 130, 131), 1 << 2);
    }

    /// A line removal and its undo against removals one value at a time.
    #[test]
    fn a_line_removes_and_restores_what_single_removals_would() {
        let vars = 150;
        let domains: Vec<[u64; 3]> = (0..vars as u64)
            .map(|v| {
                [
                    !0 ^ (1 << (v % 64)),
                    !v.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    !0 >> (v % 7),
                ]
            })
            .collect();
        let build = || {
            Store::new(
                domains.iter().map(|w| (-10, &w[..])),
                vars * 3,
                Layout::ByWord { width: 3 },
            )
        };
        // Dense runs (most variables unassigned) and sparse ones take different loops.
        let unassigned: [fn(usize) -> bool; 2] = [|v| v % 5 != 3, |v| v % 7 == 2];
        for is_open in unassigned {
            let mut open = vec![0u64; 3];
            for v in (0..vars).filter(|&v| is_open(v)) {
                open[v / 64] |= 1 << (v % 64);
            }
            for (first, len, except, value0, step) in [
                (0, 150, 4, 70, 0),
                (3, 140, 0, 150, 1),
                (10, 100, 99, -5, -1),
                (1, 149, 7, 300, 2),
            ] {
                let mut lined = build();
                let line = Line {
                    first,
                    reach: lined
                        .line_reach(value0, step, len)
                        .expect("laid out by word, one base"),
                    except,
                    value0,
                    step,
                };
                let mut single = build();
                let mark = lined.mark();
                let mut changed = Vec::new();
                let (removed, emptied) = lined.remove_line(line, &open, Some(|v| changed.push(v)));
                let mut expected = Vec::new();
                for j in (0..len).filter(|&j| j != except) {
                    let v = first + j;
                    let value = value0 - i64::from(step) * j as i64;
                    if open[v / 64] >> (v % 64) & 1 == 1
                        && let Ok(value) = i32::try_from(value)
                        && single.remove(VarId(v as u32), value)
                    {
                        expected.push(VarId(v as u32));
                    }
                }
                assert_eq!((removed, emptied), (expected.len() as u64, None));
                assert_eq!(changed, expected);
                for v in 0..vars {
                    let var = VarId(v as u32);
                    assert_eq!(
                        lined.bits(var).to_vec(),
                        single.bits(var).to_vec(),
                        "variable {v}"
                    );
                    assert_eq!(lined.size(var), single.size(var));
                }
                lined.undo_to(mark);
                let fresh = build();
                for v in 0..vars {
                    let var = VarId(v as u32);
                    assert_eq!(lined.bits(var).to_vec(), fresh.bits(var).to_vec());
                    assert_eq!(lined.size(var), fresh.size(var));
                }
            }
        }
    }

    /// A domain emptied in the middle of a dense run along a diagonal: the variables
    /// before it lose their value, those after keep it.
    #[test]
    fn a_diagonal_stops_at_the_domain_it_empties() {
        let vars = 130;
        for step in [-1i32, 1] {
            // Variable `j` is on the line at bit `value0 - step * j`.
            let value0 = if step == 1 { 140 } else { 3 };
            let bit = |j: usize| (value0 - i64::from(step) * j as i64) as usize;
            let mut domains = vec![[!0u64; 3]; vars];
            domains[70] = [0; 3];
            domains[70][bit(70) / 64] = 1 << (bit(70) % 64);
            let mut store = Store::new(
                domains.iter().map(|w| (0, &w[..])),
                vars * 3,
                Layout::ByWord { width: 3 },
            );
            let line = Line {
                first: 0,
                reach: store.line_reach(value0, step, vars).expect("by word, one base"),
                except: 0,
                value0,
                step,
            };
            let before: Vec<usize> = line.reach.clone().filter(|&j| j != 0 && j < 70).collect();
            let mark = store.mark();
            let (removed, emptied) = store.remove_line(line.clone(), &[!0, !0, !0], None::<fn(VarId)>);
            assert_eq!(
                (removed, emptied),
                (before.len() as u64 + 1, Some(VarId(70))),
                "step {step}"
            );
            for j in line.reach.clone().filter(|&j| j != 0 && j != 70) {
                let value = value0 as i32 - step * j as i32;
                assert_eq!(
                    store.contains(VarId(j as u32), value),
                    j > 70,
                    "step {step}, variable {j}"
                );
            }
            store.undo_to(mark);
            assert!((0..vars).all(|j| store.size(VarId(j as u32)) == if j == 70 { 1 } else { 192 }));
        }
    }

    #[test]
    fn a_line_stops_at_the_domain_it_empties() {
        // Variable 2 holds only value 5; the line removes 5 from every variable.
        let mut domains = [[!0u64, !0]; 6];
        domains[2] = [1 << 5, 0];
        let mut store = Store::new(
            domains.iter().map(|w| (0, &w[..])),
            12,
            Layout::ByWord { width: 2 },
        );
        let line = Line {
            first: 0,
            reach: 0..6,
            except: 0,
            value0: 5,
            step: 0,
        };
        let mark = store.mark();
        let (removed, emptied) = store.remove_line(line, &[!0], None::<fn(VarId)>);
        assert_eq!((removed, emptied), (2, Some(VarId(2))));
        assert!(store.contains(VarId(3), 5) && !store.contains(VarId(1), 5));
        store.undo_to(mark);
        assert_eq!(store.size(VarId(2)), 1);
        assert_eq!(store.size(VarId(1)), 128);
    }
}
