//! The built-in n-ary constraints, each with its own propagator, in one file (or folder)
//! per constraint:
//! - all-different at three strengths, and the links between all-different constraints
//!   that share variables (`all_different/`, `overlap/`);
//! - the families of models read from files (XCSP3): tables, linear sums, element and
//!   general expressions, with separable sums and checkers;
//! - the XCSP3-core global constraints, one file or folder per family (`all_equal.rs`,
//!   `count/`, `lex.rs`, `channel.rs`, ...), over scopes built by `scope.rs`.
//!
//! [`crate::Model`] posts them (`model/post.rs`, `model/post_nary.rs`); they see the
//! domains only through [`crate::PropagationContext`], as user propagators do.
//!
//! Every propagator here holds no search state (the engine restores domains, nothing else),
//! checks complete assignments exactly, and prunes exactly in the sense of
//! [`crate::Propagator::prunes_exactly`]: once all but one of its variables have a single
//! value, the last one keeps only the values that satisfy the constraint.

mod all_different;
mod overlap;

pub(crate) use all_different::bounded_strength;
pub use all_different::{AllDifferent, MAX_MATCHING_PAIRS, Strength};
pub use layered::{Automaton, Mdd};
pub use overlap::{PermutationOverlap, PermutationOverlaps};

pub(crate) mod all_different_except;
pub(crate) mod all_equal;
pub(crate) mod bin_packing;
pub(crate) mod channel;
pub(crate) mod checker;
pub(crate) mod circuit;
pub(crate) mod count;
pub(crate) mod distinct_lists;
pub(crate) mod element;
pub(crate) mod expression;
pub(crate) mod layered;
pub(crate) mod lex;
pub(crate) mod linear;
pub(crate) mod min_max;
pub(crate) mod precedence;
pub(crate) mod scheduling;
pub(crate) mod scope;
pub(crate) mod scratch;
pub(crate) mod separable;
pub(crate) mod table;
pub(crate) mod tally;

use smallvec::SmallVec;

use crate::propagation::{Conflict, PropagationContext, Propagator};
use crate::var::VarId;

/// A comparison operator, as in `sum(c * x) <= rhs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    /// Whether `a cmp b`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Ge => a >= b,
            Cmp::Gt => a > b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

/// The order of `ordered` and `lex`: between consecutive variables, or lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// `<`: strictly increasing.
    Lt,
    /// `<=`: increasing.
    Le,
    /// `>=`: decreasing.
    Ge,
    /// `>`: strictly decreasing.
    Gt,
}

impl Order {
    /// Whether it is strict (`<` or `>`).
    pub fn is_strict(self) -> bool {
        matches!(self, Order::Lt | Order::Gt)
    }

    /// Whether it is decreasing (`>=` or `>`).
    pub fn is_decreasing(self) -> bool {
        matches!(self, Order::Ge | Order::Gt)
    }
}

/// One cell of a table tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableCell {
    /// This value.
    Value(i32),
    /// Any value (`*` in XCSP3 short tables).
    Any,
}

/// The positions of `vars` whose variables have more than one value left: how many
/// (counted up to two) and the last one.
#[inline]
pub(crate) fn open_positions(ctx: &PropagationContext<'_>, vars: &[VarId]) -> (usize, usize) {
    let mut count = 0;
    let mut last = 0;
    for (i, &v) in vars.iter().enumerate() {
        if ctx.size(v) != 1 {
            count += 1;
            last = i;
            if count == 2 {
                break;
            }
        }
    }
    (count, last)
}

/// Forward checking on an arbitrary test: when every variable but at most one has a single
/// value, the last one keeps only the values with which `test` holds (with none open,
/// `test` must hold on the single values). `test` sees the values in the order of `vars`.
pub(crate) fn forward_check_last(
    ctx: &mut PropagationContext<'_>,
    vars: &[VarId],
    test: impl Fn(&[i32]) -> bool,
) -> Result<(), Conflict> {
    let (open, last) = open_positions(ctx, vars);
    if open > 1 {
        return Ok(());
    }
    let mut values: SmallVec<[i32; 16]> = SmallVec::with_capacity(vars.len());
    for &v in vars {
        values.push(ctx.min(v).ok_or(Conflict)?);
    }
    if open == 0 {
        return if test(&values) { Ok(()) } else { Err(Conflict) };
    }
    let var = vars[last];
    let mut doomed: SmallVec<[i32; 16]> = SmallVec::new();
    for a in ctx.values(var) {
        values[last] = a;
        if !test(&values) {
            doomed.push(a);
        }
    }
    for a in doomed {
        ctx.remove(var, a)?;
    }
    Ok(())
}

/// The smallest and largest values of `var` (a conflict for an empty domain).
#[inline]
pub(crate) fn bounds(ctx: &PropagationContext<'_>, var: VarId) -> Result<(i64, i64), Conflict> {
    match (ctx.min(var), ctx.max(var)) {
        (Some(min), Some(max)) => Ok((i64::from(min), i64::from(max))),
        _ => Err(Conflict),
    }
}

/// Keeps only the values of `var` in `lo..=hi`.
pub(crate) fn retain_range(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    lo: i64,
    hi: i64,
) -> Result<(), Conflict> {
    filter_range(ctx, var, lo, hi, true)
}

/// Removes the values of `var` in `lo..=hi`.
pub(crate) fn remove_range(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    lo: i64,
    hi: i64,
) -> Result<(), Conflict> {
    filter_range(ctx, var, lo, hi, false)
}

/// Keeps the values of `var` inside `lo..=hi` (`inside`) or outside it.
fn filter_range(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    lo: i64,
    hi: i64,
    inside: bool,
) -> Result<(), Conflict> {
    let (min, max) = bounds(ctx, var)?;
    let covers = lo <= min && max <= hi;
    let misses = lo > hi || hi < min || lo > max;
    if covers || misses {
        // All in or all out.
        return if covers == inside { Ok(()) } else { Err(Conflict) };
    }
    let mut mask = range_mask(ctx, var, lo, hi);
    if !inside {
        for word in &mut mask {
            *word = !*word;
        }
    }
    ctx.retain_bits(var, &mask)?;
    Ok(())
}

/// The bits of the values `lo..=hi` in the layout of `var`'s domain words (`lo <= max`
/// and `hi >= min` of the domain).
fn range_mask(ctx: &PropagationContext<'_>, var: VarId, lo: i64, hi: i64) -> SmallVec<[u64; 8]> {
    let base = i128::from(ctx.base(var));
    let words = ctx.bits(var).len();
    let mut mask: SmallVec<[u64; 8]> = SmallVec::from_elem(0, words);
    // Bits lo - base ..= hi - base, clipped to the domain's words.
    let from = (i128::from(lo) - base).max(0);
    let to = (i128::from(hi) - base).min(words as i128 * 64 - 1);
    if from > to {
        return mask;
    }
    let (from, to) = (from as usize, to as usize);
    for (w, word) in mask.iter_mut().enumerate() {
        let (first, last) = (w * 64, w * 64 + 63);
        if last < from || first > to {
            continue;
        }
        let a = from.max(first) - first;
        let b = to.min(last) - first;
        let width = b - a + 1;
        *word = if width == 64 {
            !0
        } else {
            ((1u64 << width) - 1) << a
        };
    }
    mask
}

/// Keeps only the values of `var` for which `keep` holds.
pub(crate) fn retain_where(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    keep: impl Fn(i32) -> bool,
) -> Result<bool, Conflict> {
    let base = ctx.base(var);
    let mut mask: SmallVec<[u64; 8]> = SmallVec::new();
    let mut any_removed = false;
    for (w, word) in ctx.bits(var).iter().enumerate() {
        let mut kept = word;
        let mut rest = word;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            if !keep(base + (w as i32) * 64 + bit as i32) {
                kept &= !(1 << bit);
                any_removed = true;
            }
        }
        mask.push(kept);
    }
    if !any_removed {
        return Ok(false);
    }
    ctx.retain_bits(var, &mask)
}

/// The [`Propagator::is_consistent`] and [`Propagator::prunes_exactly`] of a propagator
/// that checks complete assignments with [`Propagator::check`]: under inference `none`,
/// exact once the rest of the scope is assigned ([`consistent_when_complete`]); under
/// forward checking and MAC, exact because each run ends exact once one variable is left
/// (by [`forward_check_last`], or by its own strength).
macro_rules! exact_once_complete {
    () => {
        fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
            $crate::constraints::consistent_when_complete(self, local, value, assigned)
        }

        fn prunes_exactly(&self) -> bool {
            true
        }
    };
}
pub(crate) use exact_once_complete;

/// [`Propagator::is_consistent`] exact once every other variable of the scope is
/// assigned, through [`Propagator::check`].
pub(crate) fn consistent_when_complete(
    propagator: &dyn Propagator,
    local: usize,
    value: i32,
    assigned: &dyn Fn(usize) -> Option<i32>,
) -> bool {
    checker::full_assignment(propagator.variables().len(), local, value, assigned)
        .is_none_or(|values| propagator.check(&values))
}

/// Checks that every variable of a scope belongs to a model with `num_vars` variables and
/// that the scope is not empty.
pub(crate) fn check_scope(
    constraint: &'static str,
    vars: impl IntoIterator<Item = VarId>,
    num_vars: usize,
) -> Result<(), crate::ModelError> {
    let mut any = false;
    for v in vars {
        any = true;
        if v.index() >= num_vars {
            return Err(crate::ModelError::UnknownVariable {
                index: v.index(),
                count: num_vars,
            });
        }
    }
    if any {
        Ok(())
    } else {
        Err(crate::ModelError::InvalidConstraint {
            constraint,
            reason: "the scope is empty".to_string(),
        })
    }
}
