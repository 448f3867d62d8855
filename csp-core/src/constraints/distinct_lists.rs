//! `allDifferent` over lists: the lists, all of one length, are pairwise distinct as
//! tuples. For each pair of lists, the positions where they may still differ are counted:
//! none fails, and a single one must differ, so a fixed side's value leaves the other side
//! (generalised arc consistency on each pair; the pairs are not reasoned about together).

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::Arg;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// The lists (of [`Arg`]s into `scope`) are pairwise distinct.
#[derive(Clone, Debug)]
pub(crate) struct DistinctLists {
    scope: Vec<VarId>,
    lists: Vec<Vec<Arg>>,
}

/// Where two lists may still differ.
enum Differ {
    Nowhere,
    /// At exactly this position.
    Once(usize),
    /// At two positions or more (or they already differ).
    Enough,
}

impl DistinctLists {
    pub(crate) fn new(scope: Vec<VarId>, lists: Vec<Vec<Arg>>) -> DistinctLists {
        DistinctLists { scope, lists }
    }

    fn differ(ctx: &PropagationContext<'_>, a: &[Arg], b: &[Arg]) -> Result<Differ, Conflict> {
        let mut found = None;
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            if x.var == y.var {
                continue;
            }
            let (sx, sy) = (ctx.size(x.var), ctx.size(y.var));
            if sx == 1 && sy == 1 {
                if ctx.min(x.var) != ctx.min(y.var) {
                    return Ok(Differ::Enough);
                }
                continue;
            }
            if found.is_some() {
                return Ok(Differ::Enough);
            }
            found = Some(k);
        }
        Ok(found.map_or(Differ::Nowhere, Differ::Once))
    }
}

impl Propagator for DistinctLists {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let row = |l: &[Arg], k: usize| l[k].value(values);
        (0..self.lists.len()).all(|p| {
            (p + 1..self.lists.len()).all(|q| {
                let (a, b) = (&self.lists[p], &self.lists[q]);
                (0..a.len()).any(|k| row(a, k) != row(b, k))
            })
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        for p in 0..self.lists.len() {
            for q in p + 1..self.lists.len() {
                let (a, b) = (&self.lists[p], &self.lists[q]);
                match Self::differ(ctx, a, b)? {
                    Differ::Nowhere => return Err(Conflict),
                    Differ::Enough => {}
                    Differ::Once(k) => {
                        let (x, y) = (a[k].var, b[k].var);
                        if ctx.size(x) == 1 {
                            ctx.remove(y, ctx.min(x).ok_or(Conflict)?)?;
                        } else if ctx.size(y) == 1 {
                            ctx.remove(x, ctx.min(y).ok_or(Conflict)?)?;
                        }
                    }
                }
            }
        }
        // A variable in several places may decide a pair alone: exact when it is the last.
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "allDifferent(lists)"
    }
}
