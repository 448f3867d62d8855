//! `channel`: inverse functions between lists, and a list of 0/1 variables indexed by a
//! value.
//!
//! - [`Channel`]: `xs[i] = j + start_y => ys[j] = i + start_x`, and the converse when the
//!   lists have one length; with one list, `xs[i] = j + start <=> xs[j] = i + start`. A
//!   value of one side stays only while its mirror image can hold. The posting adds a GAC
//!   all-different on `xs`: with mirrored domains, every value left is then in a perfect
//!   matching, hence in a pair of inverse functions (generalised arc consistency for two
//!   lists of one length).
//! - [`ChannelValue`]: `bools[i] = 1 <=> value = i + start` (exactly one is 1); generalised
//!   arc consistency.

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::retain_where;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::store::{transpose64, window};
use crate::var::VarId;

/// `xs[i] = j + start_y => ys[j] = i + start_x` (and `<=` when `both_ways`). One list
/// (`channel_self`) is `ys == xs`.
#[derive(Clone, Debug)]
pub(crate) struct Channel {
    scope: Vec<VarId>,
    xs: Vec<Arg>,
    start_x: i64,
    ys: Vec<Arg>,
    start_y: i64,
    both_ways: bool,
}

impl Channel {
    pub(crate) fn new(
        scope: Vec<VarId>,
        xs: Vec<Arg>,
        start_x: i64,
        ys: Vec<Arg>,
        start_y: i64,
        both_ways: bool,
    ) -> Channel {
        Channel {
            scope,
            xs,
            start_x,
            ys,
            start_y,
            both_ways,
        }
    }

    /// Removes from each of `from[i]` the values `j + start_to` for which `to[j]` cannot be
    /// `i + start_from`.
    ///
    /// The supports form a bit matrix, `to[j]` holding `i + start_from` in row `j`, column
    /// `i`; `from[i]` keeps the values of column `i`. It is read 64 x 64 at a time, each
    /// row a window of `to[j]`'s domain, and transposed into the columns of 64 `from`
    /// variables: n^2 / 64 word operations where a test per value took n^2, the whole of a
    /// time limit at 30,000 variables over 0..29999. A value removed here was unsupported
    /// when its block was read, so still is (domains only shrink).
    fn mirror(
        ctx: &mut PropagationContext<'_>,
        from: &[Arg],
        start_from: i64,
        to: &[Arg],
        start_to: i64,
    ) -> Result<(), Conflict> {
        // Within one block a transpose costs more than the tests it saves.
        if from.len() <= 64 && to.len() <= 64 {
            return Self::mirror_by_values(ctx, from, start_from, to, start_to);
        }
        with_scratch(|s| {
            // 64 columns of `to.len()` bits, one after the other.
            let words = to.len().div_ceil(64);
            let (columns, mask) = (&mut s.words, &mut s.more_words);
            for (block, block_from) in from.chunks(64).enumerate() {
                let first = start_from + 64 * block as i64;
                columns.clear();
                columns.resize(64 * words, 0);
                for (w, block_to) in to.chunks(64).enumerate() {
                    let mut rows = [0u64; 64];
                    for (row, y) in rows.iter_mut().zip(block_to) {
                        *row = ctx.bits(y.var).window(first - i64::from(ctx.base(y.var)));
                    }
                    transpose64(&mut rows);
                    for (k, &column) in rows.iter().enumerate().take(block_from.len()) {
                        columns[k * words + w] = column;
                    }
                }
                for (k, x) in block_from.iter().enumerate() {
                    let column = &columns[k * words..(k + 1) * words];
                    let shift = i64::from(ctx.base(x.var)) - start_to;
                    mask.clear();
                    mask.extend(
                        (0..ctx.bits(x.var).len())
                            .map(|w| window(|q| column.get(q).copied(), shift + 64 * w as i64)),
                    );
                    if ctx.bits(x.var).iter().zip(mask.iter()).any(|(d, m)| d & !m != 0) {
                        ctx.retain_bits(x.var, mask)?;
                    }
                }
            }
            Ok(())
        })
    }

    /// [`Channel::mirror`] a test per value, for lists of at most 64 variables.
    fn mirror_by_values(
        ctx: &mut PropagationContext<'_>,
        from: &[Arg],
        start_from: i64,
        to: &[Arg],
        start_to: i64,
    ) -> Result<(), Conflict> {
        for (i, x) in from.iter().enumerate() {
            let back = start_from + i as i64;
            let image = |ctx: &PropagationContext<'_>, a: i32| {
                let j = i64::from(a) - start_to;
                usize::try_from(j)
                    .ok()
                    .and_then(|j| to.get(j))
                    .is_some_and(|y| i32::try_from(back).is_ok_and(|back| ctx.contains(y.var, back)))
            };
            if ctx.values(x.var).any(|a| !image(ctx, a)) {
                // The test reads other domains: keep the values as computed before removing.
                let mut keep: smallvec::SmallVec<[i32; 32]> = smallvec::SmallVec::new();
                keep.extend(ctx.values(x.var).filter(|&a| image(ctx, a)));
                retain_where(ctx, x.var, |a| keep.binary_search(&a).is_ok())?;
            }
        }
        Ok(())
    }
}

impl Propagator for Channel {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let maps = |from: &[Arg], start_from: i64, to: &[Arg], start_to: i64| {
            from.iter().enumerate().all(|(i, x)| {
                let j = i64::from(x.value(values)) - start_to;
                usize::try_from(j)
                    .ok()
                    .and_then(|j| to.get(j))
                    .is_some_and(|y| i64::from(y.value(values)) == start_from + i as i64)
            })
        };
        maps(&self.xs, self.start_x, &self.ys, self.start_y)
            && (!self.both_ways || maps(&self.ys, self.start_y, &self.xs, self.start_x))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        Self::mirror(ctx, &self.xs, self.start_x, &self.ys, self.start_y)?;
        if self.both_ways {
            Self::mirror(ctx, &self.ys, self.start_y, &self.xs, self.start_x)?;
        } else {
            // A fixed x fixes its image.
            for (i, x) in self.xs.iter().enumerate() {
                if ctx.size(x.var) == 1 {
                    let j = i64::from(ctx.min(x.var).ok_or(Conflict)?) - self.start_y;
                    let y = usize::try_from(j)
                        .ok()
                        .and_then(|j| self.ys.get(j))
                        .ok_or(Conflict)?;
                    let back = i32::try_from(self.start_x + i as i64).map_err(|_| Conflict)?;
                    ctx.fix(y.var, back)?;
                }
            }
        }
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "channel"
    }
}

/// `bools[i] = 1 <=> value = i + start`, with `bools` 0/1 and `value` within the indices.
#[derive(Clone, Debug)]
pub(crate) struct ChannelValue {
    scope: Vec<VarId>,
    bools: Vec<Arg>,
    start: i64,
    value: Arg,
}

impl ChannelValue {
    pub(crate) fn new(scope: Vec<VarId>, bools: Vec<Arg>, start: i64, value: Arg) -> ChannelValue {
        ChannelValue {
            scope,
            bools,
            start,
            value,
        }
    }

    fn index_value(&self, i: usize) -> Option<i32> {
        i32::try_from(self.start + i as i64).ok()
    }
}

impl Propagator for ChannelValue {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let v = i64::from(self.value.value(values));
        self.bools
            .iter()
            .enumerate()
            .all(|(i, b)| (b.value(values) == 1) == (v == self.start + i as i64))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let v = self.value.var;
        // Twice: a fixed value or a bool fixed to 1 decides the rest on the second pass.
        for _ in 0..2 {
            for (i, b) in self.bools.iter().enumerate() {
                let Some(a) = self.index_value(i) else {
                    ctx.remove(b.var, 1)?;
                    continue;
                };
                if !ctx.contains(v, a) {
                    ctx.remove(b.var, 1)?;
                } else if !ctx.contains(b.var, 1) {
                    ctx.remove(v, a)?;
                } else if !ctx.contains(b.var, 0) {
                    ctx.fix(v, a)?;
                }
                if ctx.size(v) == 1 && ctx.contains(v, a) {
                    ctx.remove(b.var, 0)?;
                }
            }
        }
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "channel"
    }
}
