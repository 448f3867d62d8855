//! The human solving techniques and the deductions they make.

use std::fmt;

use serde::Serialize;

use super::{Candidates, box_line, hidden_single, hidden_subset, naked_single, naked_subset, pointing};

/// A human solving technique, in the order [`rate_logic`](crate::rate_logic) tries them.
///
/// Serializes as its kebab-case [`name`](Technique::name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    /// A blank cell with a single candidate takes it.
    NakedSingle,
    /// A value with a single possible cell in a unit goes there.
    HiddenSingle,
    /// Two cells of a unit with the same two candidates: no other cell of the unit takes them.
    NakedPair,
    /// Two values confined to the same two cells of a unit: those cells take nothing else.
    HiddenPair,
    /// A value confined, inside a box, to one row or column: the rest of that line loses it.
    Pointing,
    /// A value confined, inside a row or column, to one box: the rest of that box loses it.
    /// Also called claiming.
    BoxLine,
    /// Three cells of a unit whose candidates are three values: no other cell takes them.
    NakedTriple,
    /// Three values confined to the same three cells of a unit: those cells take nothing else.
    HiddenTriple,
}

impl Technique {
    /// Every technique, easiest first (the order in which they are tried).
    pub const ALL: [Technique; 8] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::Pointing,
        Technique::BoxLine,
        Technique::NakedTriple,
        Technique::HiddenTriple,
    ];

    /// The kebab-case name, e.g. `naked-single`.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked-single",
            Technique::HiddenSingle => "hidden-single",
            Technique::NakedPair => "naked-pair",
            Technique::HiddenPair => "hidden-pair",
            Technique::Pointing => "pointing",
            Technique::BoxLine => "box-line",
            Technique::NakedTriple => "naked-triple",
            Technique::HiddenTriple => "hidden-triple",
        }
    }

    /// A difficulty weight, increasing along [`Technique::ALL`]:
    ///
    /// | technique | weight |
    /// | --- | ---: |
    /// | naked-single | 10 |
    /// | hidden-single | 12 |
    /// | naked-pair | 30 |
    /// | hidden-pair | 34 |
    /// | pointing | 36 |
    /// | box-line | 38 |
    /// | naked-triple | 40 |
    /// | hidden-triple | 44 |
    ///
    /// Singles are an order of magnitude below the rest; the others are close to each other, as
    /// on the Sudoku Explainer scale (times ten), but kept in the order the techniques are tried.
    pub fn difficulty(self) -> u32 {
        match self {
            Technique::NakedSingle => 10,
            Technique::HiddenSingle => 12,
            Technique::NakedPair => 30,
            Technique::HiddenPair => 34,
            Technique::Pointing => 36,
            Technique::BoxLine => 38,
            Technique::NakedTriple => 40,
            Technique::HiddenTriple => 44,
        }
    }

    /// Whether the technique places values (singles) rather than eliminating candidates.
    pub fn places(self) -> bool {
        matches!(self, Technique::NakedSingle | Technique::HiddenSingle)
    }

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

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value in a cell: a placement, or a candidate to remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellValue {
    /// Row-major index of the cell.
    pub cell: usize,
    /// The value.
    pub value: u8,
}

/// One step of human reasoning: the technique, the pattern it found (cells and values), what it
/// concludes, and why in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// The technique.
    pub technique: Technique,
    /// The cells of the pattern (row-major indices), e.g. the two cells of a naked pair.
    pub cells: Vec<usize>,
    /// The values of the pattern, e.g. the two values of a naked pair.
    pub values: Vec<u8>,
    /// Values to place (singles place one).
    pub placements: Vec<CellValue>,
    /// Candidates to remove.
    pub eliminations: Vec<CellValue>,
    /// A human-readable reason, e.g. `r3c5: 7 is the only place for 7 in row 3`.
    pub reason: String,
}

impl Deduction {
    /// A deduction that only removes candidates (pairs, triples, pointing, box-line).
    pub(crate) fn eliminating(
        technique: Technique,
        cells: Vec<usize>,
        values: Vec<u8>,
        eliminations: Vec<CellValue>,
        reason: String,
    ) -> Deduction {
        Deduction {
            technique,
            cells,
            values,
            placements: Vec::new(),
            eliminations,
            reason,
        }
    }
}

/// Formats eliminations as `r1c2 -3, r1c4 -3 -5`.
pub(crate) fn describe_eliminations(candidates: &Candidates, eliminations: &[CellValue]) -> String {
    let mut out = String::new();
    let mut last = usize::MAX;
    for e in eliminations {
        if e.cell != last {
            if last != usize::MAX {
                out.push_str(", ");
            }
            out.push_str(&candidates.name(e.cell));
            last = e.cell;
        }
        out.push_str(&format!(" -{}", e.value));
    }
    out
}

/// Formats values as `3 and 8`, `1, 4 and 7`.
pub(crate) fn describe_values(values: &[u8]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == values.len() { " and " } else { ", " });
        }
        out.push_str(&v.to_string());
    }
    out
}

/// Formats cells as `r1c2 and r1c7`.
pub(crate) fn describe_cells(candidates: &Candidates, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| candidates.name(c)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}
