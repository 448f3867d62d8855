//! Failure rate with ageing over domain size (frba/dom; Li, Yin and Li, CP 2021): the
//! failure rate of `frb-dom` (`frb_dom.rs`, whose counts it reads) plus
//! `1 / (failed assignments since the variable's last failure + 1)`, so that the variables
//! that failed lately come first. The order takes the largest sum over `|dom|`.

use super::frb_dom::FailureRates;
use crate::var::VarId;

/// `var`'s aged failure rate.
#[inline]
pub(in crate::search) fn aged_rate(rates: &FailureRates, var: VarId) -> f64 {
    let since = rates.total_failures - rates.last_failure[var.index()];
    rates.rate(var) + 1.0 / (since + 1) as f64
}
