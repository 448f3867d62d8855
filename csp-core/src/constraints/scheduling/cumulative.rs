//! `cumulative`: at every time `t`, the heights of the tasks running at `t`
//! (`o_i <= t < o_i + l_i`) add up to at most `peak`; `exact`: and the largest such sum is
//! `peak`.
//!
//! Time-tabling: the compulsory parts make a profile (sorted once per run); the profile
//! bounds the peak from below, and a task whose height would take a segment of the
//! profile (others' parts only) above the peak's maximum cannot start where it would
//! cover that segment. Two tasks whose heights together exceed the peak's maximum get the
//! pairwise disjunctive rule. An energy check after ACE's: the tasks' smallest volume
//! must fit under the capacity between the earliest start and the latest end, less the
//! room the profile leaves too low for any task still to place. O(n^2) per run, O(n log n)
//! for the profile.

use super::task::{Bounds, Task, disjunctive_pair, with_bounds};
use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::Term;
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

/// Tasks sharing a resource of capacity `peak`.
#[derive(Clone, Debug)]
pub(crate) struct Cumulative {
    scope: Vec<VarId>,
    tasks: Vec<Task>,
    peak: Term,
    exact: bool,
}

impl Cumulative {
    pub(crate) fn new(scope: Vec<VarId>, tasks: Vec<Task>, peak: Term, exact: bool) -> Cumulative {
        Cumulative {
            scope,
            tasks,
            peak,
            exact,
        }
    }

    /// The largest load over time, from the events `(time, +height or -height)` of
    /// placed tasks.
    fn max_load(placed: &mut [(i64, i64)]) -> i64 {
        placed.sort_unstable();
        let mut load = 0;
        let mut best = 0;
        for &(_, delta) in placed.iter() {
            load += delta;
            best = best.max(load);
        }
        best
    }

    /// The time-tabling pass, and the energy check.
    fn time_table(&self, ctx: &mut PropagationContext<'_>, bounds: &[Bounds]) -> Result<(), Conflict> {
        with_scratch(|s| {
            // Events (time, delta) of the compulsory parts; at equal times ends go first.
            let events = &mut s.pairs;
            events.clear();
            for b in bounds {
                if let Some((from, to)) = b.compulsory().filter(|_| b.height > 0) {
                    events.push((from, b.height));
                    events.push((to, -b.height));
                }
            }
            events.sort_unstable();
            // The segments [time, next time) with their loads, in `segments`.
            let segments = &mut s.ints;
            segments.clear();
            let mut load = 0;
            let mut highest = 0;
            let mut k = 0;
            while k < events.len() {
                let time = events[k].0;
                while k < events.len() && events[k].0 == time {
                    load += events[k].1;
                    k += 1;
                }
                if k < events.len() && load > 0 {
                    segments.extend([time, events[k].0, load]);
                    highest = highest.max(load);
                }
            }
            let capacity = self.peak.max(ctx)?;
            if highest > capacity {
                return Err(Conflict);
            }
            self.peak.restrict(ctx, highest, i64::MAX)?;
            self.energy(ctx, bounds, segments, capacity)?;
            for (t, b) in self.tasks.iter().zip(bounds) {
                if b.len == 0 || b.height == 0 {
                    continue;
                }
                let own = b.compulsory();
                for seg in segments.chunks_exact(3) {
                    let (from, to, load) = (seg[0], seg[1], seg[2]);
                    let mine = own.is_some_and(|(a, z)| a <= from && to <= z);
                    let others = load - if mine { b.height } else { 0 };
                    if others + b.height > capacity {
                        t.forbid_starts(ctx, b, from - b.len + 1, to - 1)?;
                    }
                }
            }
            Ok(())
        })
    }

    /// The energy check (after ACE's): the tasks' smallest volume must fit in the
    /// capacity over the span from the earliest start to the latest end, less the room
    /// that the profile's `segments` leave too low for any task still to be placed.
    fn energy(
        &self,
        ctx: &PropagationContext<'_>,
        bounds: &[Bounds],
        segments: &[i64],
        capacity: i64,
    ) -> Result<(), Conflict> {
        let (mut first, mut last) = (i64::MAX, i64::MIN);
        let mut volume = 0i128;
        let mut smallest = i64::MAX;
        for (t, b) in self.tasks.iter().zip(bounds) {
            if b.len == 0 || b.height == 0 {
                continue;
            }
            first = first.min(b.est);
            last = last.max(b.lst + b.len_max);
            volume += i128::from(b.len) * i128::from(b.height);
            if ctx.size(t.origin.var) > 1 {
                smallest = smallest.min(b.height);
            }
        }
        if first > last {
            return Ok(());
        }
        let mut margin = i128::from(last - first) * i128::from(capacity) - volume;
        for seg in segments.chunks_exact(3) {
            let gap = capacity - seg[2];
            if gap > 0 && gap < smallest {
                margin -= i128::from(seg[1] - seg[0]) * i128::from(gap);
            }
        }
        if margin < 0 { Err(Conflict) } else { Ok(()) }
    }
}

impl Propagator for Cumulative {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let mut events: Vec<(i64, i64)> = Vec::with_capacity(2 * self.tasks.len());
        for t in &self.tasks {
            let (o, l, h) = t.values(values);
            if l > 0 && h != 0 {
                events.push((o, h));
                events.push((o + l, -h));
            }
        }
        let highest = Cumulative::max_load(&mut events);
        let peak = self.peak.value(values);
        if self.exact {
            highest == peak
        } else {
            highest <= peak
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        with_bounds(ctx, &self.tasks, |ctx, bounds| {
            self.time_table(ctx, bounds)?;
            let capacity = self.peak.max(ctx)?;
            for (i, s) in self.tasks.iter().enumerate() {
                for (j, t) in self.tasks.iter().enumerate().skip(i + 1) {
                    if bounds[i].height + bounds[j].height > capacity {
                        disjunctive_pair(ctx, (s, &bounds[i]), (t, &bounds[j]), true)?;
                    }
                }
            }
            Ok(())
        })?;
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "cumulative"
    }
}
