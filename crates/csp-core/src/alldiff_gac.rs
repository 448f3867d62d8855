//! All-different reasoning on general domains (any width, with view offsets):
//! hidden singles by counting, and generalised arc consistency by matching.

use crate::model::VarId;
use crate::propagator::{Conflict, PropagationContext};

/// Hidden singles under the pigeonhole condition, for any domains: when the views
/// cover exactly as many values as there are variables, a value held by one view
/// only must be taken by it.
pub(crate) fn hidden_singles_general(vars: &[VarId], offsets: &[i32], ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
    let mut views: Vec<i64> = Vec::new();
    for (&v, &o) in vars.iter().zip(offsets) {
        views.extend(ctx.values(v).map(|a| i64::from(a) + i64::from(o)));
    }
    views.sort_unstable();
    let mut distinct = views.clone();
    distinct.dedup();
    if distinct.len() < vars.len() {
        return Err(Conflict);
    }
    if distinct.len() > vars.len() {
        return Ok(());
    }
    for view in distinct {
        let first = views.partition_point(|&x| x < view);
        let last = views.partition_point(|&x| x <= view);
        if last - first == 1 {
            for (&v, &o) in vars.iter().zip(offsets) {
                if let Ok(value) = i32::try_from(view - i64::from(o)) {
                    if ctx.contains(v, value) {
                        ctx.fix(v, value)?;
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Generalised arc consistency (placeholder until the matching-based filter lands):
/// hidden singles.
pub(crate) fn filter(vars: &[VarId], offsets: &[i32], ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
    hidden_singles_general(vars, offsets, ctx)
}
