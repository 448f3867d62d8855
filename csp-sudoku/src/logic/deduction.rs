//! What a technique concludes ([`Deduction`]) and how its reasons are written.

use super::candidates::Candidates;
use super::technique::Technique;

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
    /// A deduction that only removes candidates (pairs, triples, pointing, box-line), or
    /// `None` when there is nothing to remove: the pattern teaches nothing new. The reason
    /// is written, from the pattern's cells and values and the eliminations, only for a
    /// deduction.
    pub(crate) fn eliminating(
        technique: Technique,
        cells: Vec<usize>,
        values: Vec<u8>,
        eliminations: Vec<CellValue>,
        reason: impl FnOnce(&[usize], &[u8], &[CellValue]) -> String,
    ) -> Option<Deduction> {
        if eliminations.is_empty() {
            return None;
        }
        let reason = reason(&cells, &values, &eliminations);
        Some(Deduction {
            technique,
            cells,
            values,
            placements: Vec::new(),
            eliminations,
            reason,
        })
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
