//! The all-different constraint over views `x_i + c_i`, at three strengths.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ParseNameError;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator, Wake};
use crate::var::VarId;

mod gac;

/// How much an all-different constraint prunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Strength {
    /// Remove an assigned value from the other variables: the pruning of pairwise `!=`
    /// under the same inference.
    Value,
    /// Also: when the variables have exactly as many values between them as there are
    /// variables, a value that fits only one variable goes there (hidden single).
    #[default]
    Hidden,
    /// Generalised arc consistency by bipartite matching (Régin's algorithm).
    Gac,
}

impl Strength {
    /// Every strength, weakest first.
    pub const ALL: [Strength; 3] = [Strength::Value, Strength::Hidden, Strength::Gac];

    /// The name used on command lines and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Value => "value",
            Strength::Hidden => "hidden",
            Strength::Gac => "gac",
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strength {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strength::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| ParseNameError {
                kind: "all-different strength",
                found: s.to_string(),
                expected: "value, hidden, gac",
            })
    }
}

/// All-different over `vars[i] + offsets[i]`.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i32>,
    strength: Strength,
    /// All offsets are zero: views are the variables themselves (bitset fast paths apply).
    plain: bool,
    /// The hidden-singles stage of a GAC constraint ([`AllDifferent::gac_stage`]).
    gac_stage: bool,
}

impl AllDifferent {
    /// All-different over the views `vars[i] + offsets[i]` (lengths must match).
    pub fn new(vars: Vec<VarId>, offsets: Vec<i32>, strength: Strength) -> Self {
        assert_eq!(vars.len(), offsets.len(), "one offset per variable");
        let plain = offsets.iter().all(|&o| o == 0);
        AllDifferent {
            vars,
            offsets,
            strength,
            plain,
            gac_stage: false,
        }
    }

    /// The hidden-singles stage that runs before the matching of a GAC constraint: hidden
    /// strength, except that a view left with two or more values that only it can take,
    /// and nothing else, is left to the matching (which fails it) instead of failing here.
    pub(crate) fn gac_stage(vars: Vec<VarId>, offsets: Vec<i32>) -> Self {
        AllDifferent {
            gac_stage: true,
            ..AllDifferent::new(vars, offsets, Strength::Hidden)
        }
    }

    /// The strength it was built with.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// The offsets `c_i` of the views.
    pub fn offsets(&self) -> &[i32] {
        &self.offsets
    }

    /// Removes the value of the fixed view at `local` from every other view.
    fn remove_fixed_value(&self, ctx: &mut PropagationContext<'_>, local: usize) -> Result<(), Conflict> {
        let var = self.vars[local];
        if ctx.size(var) != 1 {
            return Ok(());
        }
        let Some(value) = ctx.min(var) else {
            return Err(Conflict);
        };
        let view = i64::from(value) + i64::from(self.offsets[local]);
        if let Some((_, base)) = ctx.uniform_words() {
            // One word per variable at one base: clear one bit of each other word.
            for (j, (&other, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
                let bit = view - i64::from(offset) - i64::from(base);
                if j != local && (0..64).contains(&bit) {
                    let word = ctx.bits(other)[0];
                    if word >> bit & 1 == 1 {
                        ctx.retain_word(other, word & !(1 << bit))?;
                    }
                }
            }
            return Ok(());
        }
        for (j, (&other, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
            if j != local {
                if let Ok(v) = i32::try_from(view - i64::from(offset)) {
                    ctx.remove(other, v)?;
                }
            }
        }
        Ok(())
    }

    /// Naked singles (the value of a single-value view leaves the others) and hidden
    /// singles (under the pigeonhole condition: as many values as variables, a value that
    /// fits one view only goes there), repeated until neither changes anything.
    fn singles(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if !self.plain {
            return self.singles_general(ctx);
        }
        // Scratch arrays sized to the arity: no zeroing of unused words per call. The units
        // of 9x9 boards gather and write back their nine domains in loops of a known length.
        match self.vars.len() {
            0 => Ok(()),
            9 => self.singles_words::<9, true>(ctx),
            1..=16 => self.singles_words::<16, false>(ctx),
            17..=32 => self.singles_words::<32, false>(ctx),
            33..=64 => self.singles_words::<64, false>(ctx),
            _ => self.singles_general(ctx),
        }
    }

    /// [`AllDifferent::singles`] on plain one-word domains at one base (at most `N` views,
    /// exactly `N` if `EXACT`): domains are read once, reduced locally, and written back
    /// once.
    fn singles_words<const N: usize, const EXACT: bool>(
        &self,
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        debug_assert!(!EXACT || self.vars.len() == N);
        let k = if EXACT { N } else { self.vars.len() };
        let mut doms = [0u64; N];
        // The uniform layout (every domain the word at its variable's index, all at one
        // base) needs no look at bases.
        let uniform = ctx.uniform_words().is_some();
        if let Some((words, _)) = ctx.uniform_words() {
            for (d, v) in doms.iter_mut().zip(&self.vars) {
                *d = words[v.index()];
            }
        } else {
            let base = ctx.base(self.vars[0]);
            for (d, &v) in doms.iter_mut().zip(&self.vars) {
                match ctx.bits(v) {
                    [word] if ctx.base(v) == base => *d = *word,
                    _ => return self.singles_general(ctx),
                }
            }
        }
        let mut changed = if self.gac_stage {
            singles_on_words::<false>(&mut doms[..k])?
        } else {
            singles_on_words::<true>(&mut doms[..k])?
        };
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            if uniform {
                ctx.retain_word(self.vars[i], doms[i])?;
            } else {
                ctx.retain_bits(self.vars[i], &[doms[i]])?;
            }
        }
        Ok(())
    }

    /// [`AllDifferent::singles`] for views of any width and offset.
    fn singles_general(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let total =
            |ctx: &PropagationContext<'_>| self.vars.iter().map(|&v| u64::from(ctx.size(v))).sum::<u64>();
        loop {
            let before = total(ctx);
            for local in 0..self.vars.len() {
                self.remove_fixed_value(ctx, local)?;
            }
            gac::hidden_singles_general(&self.vars, &self.offsets, ctx)?;
            if total(ctx) == before {
                return Ok(());
            }
        }
    }
}

/// Naked and hidden singles on one-word domains, to a fixpoint. Returns the positions
/// whose domains changed, as bits (at most 64 domains).
///
/// One pass gathers the single values and who holds each value; a second applies both
/// rules at once. Removing single values from the other views changes no holder count of
/// the remaining values, so the counts of the first pass stay valid for the second, and
/// only a view that becomes single can enable more work.
///
/// A view that two values need (each held by it alone) is a failure. `STRICT`: also when
/// those values are all it holds; otherwise such a view is left as it is (for the GAC
/// stage, whose matching fails it).
fn singles_on_words<const STRICT: bool>(doms: &mut [u64]) -> Result<u64, Conflict> {
    debug_assert!(doms.len() <= 64);
    let k = doms.len() as u32;
    let mut changed = 0u64;
    loop {
        // `fixed`: values of the `singles` views with at most one value; `once` and `twice`:
        // values held by at least one and two views.
        let (mut fixed, mut singles, mut once, mut twice) = (0u64, 0u32, 0u64, 0u64);
        for &d in doms.iter() {
            if d & d.wrapping_sub(1) == 0 {
                fixed |= d;
                singles += 1;
            }
            twice |= once & d;
            once |= d;
        }
        let count = once.count_ones();
        // Fewer fixed values than single views: an empty view, or two fixed to one value.
        if fixed.count_ones() != singles || count < k {
            return Err(Conflict);
        }
        // Under the pigeonhole condition, the values only one open view holds.
        let unique = if count == k { once & !twice & !fixed } else { 0 };
        // A fixed value held twice is in an open view (no two single views share one).
        if twice & fixed == 0 && unique == 0 {
            return Ok(changed);
        }
        // Without branches on the views: whether a view is open (or keeps its unique
        // values, or fails) follows no pattern a predictor could learn.
        let (mut again, mut failed) = (false, false);
        for (i, d) in doms.iter_mut().enumerate() {
            let x = *d;
            let open = x & x.wrapping_sub(1) != 0;
            let (rest, mine) = (x & !fixed, x & unique);
            let left = if mine == 0 { rest } else { mine };
            // No value left, or two that only this view can take.
            let needed_twice = (STRICT | (mine != rest)) & (mine & mine.wrapping_sub(1) != 0);
            failed |= open & ((left == 0) | needed_twice);
            let new = if open { left } else { x };
            again |= open & (new & new.wrapping_sub(1) == 0);
            changed |= u64::from(new != x) << i;
            *d = new;
        }
        if failed {
            return Err(Conflict);
        }
        if !again {
            return Ok(changed);
        }
    }
}

impl Propagator for AllDifferent {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        let mut views: Vec<i64> = values
            .iter()
            .zip(&self.offsets)
            .map(|(&v, &o)| i64::from(v) + i64::from(o))
            .collect();
        views.sort_unstable();
        views.windows(2).all(|w| w[0] != w[1])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, event: Event) -> Result<(), Conflict> {
        match (event, self.strength) {
            (Event::Fixed(local), _) => self.remove_fixed_value(ctx, local),
            (Event::Changed, Strength::Value) => Ok(()),
            (Event::Changed, Strength::Hidden) => self.singles(ctx),
            (Event::Changed, Strength::Gac) => gac::filter(&self.vars, &self.offsets, self.plain, ctx),
        }
    }

    fn wake(&self) -> Wake {
        match self.strength {
            Strength::Value => Wake::OnFixed,
            // Both passes handle fixed views themselves, all at once.
            Strength::Hidden | Strength::Gac => Wake::OnChange,
        }
    }

    fn is_idempotent(&self) -> bool {
        // Both reach their own fixpoint: singles loop until stable, and after Régin's
        // filter every remaining value has a support.
        matches!(self.strength, Strength::Hidden | Strength::Gac)
    }

    fn priority(&self) -> Priority {
        match self.strength {
            Strength::Gac => Priority::Slow,
            Strength::Value | Strength::Hidden => Priority::Fast,
        }
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        let view = i64::from(value) + i64::from(self.offsets[local]);
        (0..self.vars.len())
            .filter(|&j| j != local)
            .all(|j| assigned(j).is_none_or(|w| i64::from(w) + i64::from(self.offsets[j]) != view))
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        match self.strength {
            Strength::Value => "all-different(value)",
            Strength::Hidden => "all-different(hidden)",
            Strength::Gac => "all-different(gac)",
        }
    }
}
