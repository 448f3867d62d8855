//! The all-different constraint over views `x_i + c_i`, at three strengths.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::alldiff_gac;
use crate::error::ParseNameError;
use crate::model::VarId;
use crate::propagator::{Conflict, Event, PropagationContext, Propagator, Wake};

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
        Strength::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| ParseNameError {
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
        for (j, (&other, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
            if j != local {
                if let Ok(v) = i32::try_from(view - i64::from(offset)) {
                    ctx.remove(other, v)?;
                }
            }
        }
        Ok(())
    }

    /// Whether every variable is a plain view with one domain word at one base.
    fn single_word(&self, ctx: &PropagationContext<'_>) -> bool {
        let base = ctx.base(self.vars[0]);
        self.plain && self.vars.iter().all(|&v| ctx.bits(v).len() == 1 && ctx.base(v) == base)
    }

    /// Hidden singles under the pigeonhole condition, with bit-parallel counting.
    fn hidden_singles(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if self.vars.is_empty() {
            return Ok(());
        }
        if !self.single_word(ctx) {
            return alldiff_gac::hidden_singles_general(&self.vars, &self.offsets, ctx);
        }
        let k = self.vars.len() as u32;
        let (mut once, mut twice) = (0u64, 0u64);
        for &v in &self.vars {
            let d = ctx.bits(v)[0];
            twice |= once & d;
            once |= d;
        }
        let count = once.count_ones();
        if count < k {
            return Err(Conflict);
        }
        if count > k {
            return Ok(());
        }
        let mut unique = once & !twice;
        let base = ctx.base(self.vars[0]);
        while unique != 0 {
            let bit = unique.trailing_zeros();
            unique &= unique - 1;
            let holder = self.vars.iter().copied().find(|&v| ctx.bits(v)[0] >> bit & 1 == 1);
            if let Some(v) = holder {
                ctx.fix(v, base + bit as i32)?;
            }
        }
        Ok(())
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
            (Event::Changed, Strength::Hidden) => self.hidden_singles(ctx),
            (Event::Changed, Strength::Gac) => alldiff_gac::filter(&self.vars, &self.offsets, ctx),
        }
    }

    fn wake(&self) -> Wake {
        match self.strength {
            Strength::Value => Wake::OnFixed,
            Strength::Hidden | Strength::Gac => Wake::OnFixedAndChange,
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
