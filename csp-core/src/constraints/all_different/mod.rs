//! The all-different constraint over views `x_i + c_i`, at three strengths.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ParseNameError;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator, Wake};
use crate::var::VarId;

mod gac;
mod singles;

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

/// The most (variable, value) pairs, summed over its initial domains, an all-different
/// constraint may have at the hidden or GAC strength. Both passes list every pair of the
/// views on wide domains (hidden singles to count the values, the matching to build its
/// graph), in 12 bytes a pair, and a pass is as long as the list. A
/// constraint with more pairs is posted at [`Strength::Value`], with a warning in the log.
pub const MAX_MATCHING_PAIRS: u64 = 1 << 24;

/// The strength an all-different constraint is posted at, given the one asked for and
/// its `pairs` (see [`MAX_MATCHING_PAIRS`]; a count past the cap need not be exact).
pub(crate) fn bounded_strength(strength: Strength, pairs: u64) -> Strength {
    if strength == Strength::Value || pairs <= MAX_MATCHING_PAIRS {
        return strength;
    }
    log::warn!(
        "an all-different constraint whose domains hold more than {MAX_MATCHING_PAIRS} \
         (variable, value) pairs is posted at strength value, not {strength}: the {strength} \
         strength lists every pair, and csp allows it at most {MAX_MATCHING_PAIRS}"
    );
    Strength::Value
}

/// All-different over `vars[i] + offsets[i]`.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i32>,
    strength: Strength,
    /// All offsets are zero: views are the variables themselves (bitset fast paths apply).
    plain: bool,
    /// `Some(first)` when `vars[i]` is variable `first + i` (the variables were made one
    /// after another, as for a board's rows): removals then visit the unassigned ones
    /// from the search's bitset of them.
    first: Option<VarId>,
    /// `Some(step)` when the offsets go up by `step` from each variable to the next
    /// (zero for plain variables, one or minus one for the diagonals of n-queens): the
    /// value to remove from `vars[j]` is then a line in `j`, which a store laid out by
    /// word removes and records in one go.
    step: Option<i32>,
    /// The hidden-singles stage of a GAC constraint ([`AllDifferent::gac_stage`]).
    gac_stage: bool,
}

impl AllDifferent {
    /// All-different over the views `vars[i] + offsets[i]` (lengths must match).
    pub fn new(vars: Vec<VarId>, offsets: Vec<i32>, strength: Strength) -> Self {
        assert_eq!(vars.len(), offsets.len(), "one offset per variable");
        let plain = offsets.iter().all(|&o| o == 0);
        let first = vars.first().copied().filter(|first| {
            vars.iter()
                .enumerate()
                .all(|(i, v)| v.index() == first.index() + i)
        });
        let step = match offsets.as_slice() {
            [] => None,
            [_] => Some(0),
            [o0, o1, ..] => i32::try_from(i64::from(*o1) - i64::from(*o0))
                .ok()
                .filter(|&step| {
                    (offsets.iter().enumerate())
                        .all(|(j, &o)| i64::from(o) == i64::from(*o0) + i64::from(step) * j as i64)
                }),
        };
        AllDifferent {
            vars,
            offsets,
            strength,
            plain,
            first,
            step,
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
        // An assigned variable's value is known: a wide domain's words need not be read.
        let Some(value) = ctx.assigned_value(var).or_else(|| ctx.min(var)) else {
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
        ctx.remove_from_open(&self.vars, self.first, self.step, local, |j| {
            view - i64::from(self.offsets[j])
        })
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
