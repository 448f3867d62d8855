//! Which technique finds what: the dispatch from [`Technique`] to its file.

use super::candidates::Candidates;
use super::deduction::Deduction;
use super::technique::Technique;
use super::{box_line, hidden_single, hidden_subset, naked_single, naked_subset, pointing};

impl Technique {
    /// The first deduction this technique makes on `candidates`, scanning in a fixed order,
    /// or `None`. A returned deduction always makes progress (places a value or removes at least
    /// one candidate).
    pub fn find(self, candidates: &Candidates) -> Option<Deduction> {
        match self {
            Technique::NakedSingle => naked_single::find(candidates),
            Technique::HiddenSingle => hidden_single::find(candidates),
            Technique::NakedPair => naked_subset::find(candidates, 2),
            Technique::HiddenPair => hidden_subset::find(candidates, 2),
            Technique::Pointing => pointing::find(candidates),
            Technique::BoxLine => box_line::find(candidates),
            Technique::NakedTriple => naked_subset::find(candidates, 3),
            Technique::HiddenTriple => hidden_subset::find(candidates, 3),
        }
    }
}
