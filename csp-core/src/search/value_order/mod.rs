//! Value orders, one file per kind: [`ascending`] (walks the domain, nothing stored),
//! [`random`] (draws each value when it is needed, keeping the tried ones),
//! [`preordered`] (descending: the values are laid on the value stack when the frame is
//! made) and [`lcv`]. This module makes frames and hands out their next
//! value; under inference `none` a value that disagrees with an assigned neighbour is
//! skipped and is not a node.

pub(super) mod ascending;
pub(super) mod lcv;
pub(super) mod preordered;
pub(super) mod random;

use super::Solver;
use super::driver::clock_hit;
use super::frame::{Choice, Frame};
use super::inference::none::Legality;
use crate::config::{Inference, ValueOrder};
use crate::stats::LimitKind;
use crate::var::VarId;

impl Solver<'_> {
    /// A frame on `var`'s values, in the value order. Returns the limit that stopped the
    /// ordering (LCV on huge domains reads the clock), and then pushes nothing.
    pub(super) fn push_frame(&mut self, var: VarId) -> Option<LimitKind> {
        let start = self.state.value_stack.len() as u32;
        let stack = &mut self.state.value_stack;
        match self.config.strategy.value_order {
            ValueOrder::Asc | ValueOrder::Random => {}
            ValueOrder::Desc => preordered::push_descending(stack, &self.store, var),
            ValueOrder::Lcv => {
                let legality = Legality::new(&self.network, self.props, &self.state, &self.store);
                let none = self.config.strategy.inference == Inference::None;
                let (limits, started) = (&self.config.limits, self.started);
                let mut stopped = None;
                let mut expired = || {
                    stopped = clock_hit(limits, started);
                    stopped.is_some()
                };
                let scored = self
                    .lcv
                    .order(var, &legality, none, &mut self.stats.checks, &mut expired);
                match scored {
                    Some(scored) => self.state.value_stack.extend(scored.iter().map(|&(_, a)| a)),
                    None => return stopped,
                }
            }
        }
        let len = self.state.value_stack.len() as u32 - start;
        let untried = self
            .store
            .uniform_words()
            .map_or(0, |(words, _)| words[var.index()]);
        let mark = self.store.mark();
        self.state
            .frames
            .push(Frame::on_values(var, mark, untried, start, len));
        None
    }

    /// The top frame's next value (a frame on places moves on to its next variable),
    /// or `None` when it has none left.
    // Once per node: inlined into the search loop (optimisation calls it from a second place).
    #[inline(always)]
    pub(super) fn next_value(&mut self) -> Option<i32> {
        let top = self.state.frames.last_mut().expect("a frame");
        let mut cursor = match &mut top.choice {
            Choice::Values(cursor) => *cursor,
            Choice::Places(places) => return super::places::next_place(&mut top.var, places),
            Choice::Forced => return None,
        };
        let var = top.var;
        let check = self.config.strategy.inference == Inference::None;
        let order = self.config.strategy.value_order;
        let uniform = self.store.uniform_base();
        let found = loop {
            let candidate = match order {
                ValueOrder::Asc => ascending::next(&mut cursor, &self.store, var, uniform),
                ValueOrder::Random => {
                    let stack = &mut self.state.value_stack;
                    random::next(&mut cursor, stack, &self.store, var, &mut self.rng)
                }
                ValueOrder::Desc | ValueOrder::Lcv => preordered::next(&mut cursor, &self.state.value_stack),
            };
            let Some(candidate) = candidate else {
                break None;
            };
            if !check
                || Legality::new(&self.network, self.props, &self.state, &self.store).agrees(
                    var,
                    candidate,
                    &mut self.stats.checks,
                )
            {
                break Some(candidate);
            }
        };
        if let Some(Choice::Values(top)) = self.state.frames.last_mut().map(|f| &mut f.choice) {
            *top = cursor;
        }
        found
    }

    /// The values `frame` tried (or skipped as inconsistent), for the nogoods of a
    /// restart. Reads the store at the frame's mark.
    pub(super) fn tried_values(&self, frame: &Frame) -> Vec<i32> {
        let Choice::Values(cursor) = frame.choice else {
            return Vec::new();
        };
        if self.config.strategy.value_order != ValueOrder::Asc {
            preordered::tried(&cursor, &self.state.value_stack)
        } else {
            ascending::tried(&cursor, &self.store, frame.var)
        }
    }
}
