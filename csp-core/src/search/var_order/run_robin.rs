//! Run robin (ACE's default strategy since 2.6, "pwfc"): a different order at each run of
//! a search with restarts, in turn `pick-dom`, `dom-wdeg`, `frba-dom`, `wdeg-cacd`.
//! Every order's counters learn from every run (ACE's orders learn only in their own
//! runs), so each run starts from all that was learnt. ACE's fourth order is wdeg^ca.cd
//! alone, not over `|dom|`. Without restarts there is one run: `pick-dom`.

use crate::config::VarOrder;

/// The orders, by run.
pub(in crate::search) const CYCLE: [VarOrder; 4] = [
    VarOrder::PickDom,
    VarOrder::DomWdeg,
    VarOrder::FrbaDom,
    VarOrder::WdegCacd,
];

/// The order of run `run` (from 0).
#[inline]
pub(in crate::search) fn order_of_run(run: u32) -> VarOrder {
    CYCLE[run as usize % CYCLE.len()]
}
