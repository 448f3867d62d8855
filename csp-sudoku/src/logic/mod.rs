//! Human solving: candidates, techniques (one file each), singles propagation, logic rating and
//! hints.

mod box_line;
mod candidates;
mod deduction;
mod find;
mod hidden_single;
mod hidden_subset;
mod hint;
mod naked_single;
mod naked_subset;
mod pointing;
mod rate;
mod singles;
mod subsets;
mod technique;

pub use candidates::{Candidates, Contradiction};
pub use deduction::{CellValue, Deduction};
pub use hint::{Hint, HintCell, HintError, HintKind, hint_for, next_hint};
pub use rate::{LogicReport, next_deduction, rate_logic};
pub use singles::{SinglesOutcome, propagate_naked_singles, propagate_singles};
pub use technique::Technique;
