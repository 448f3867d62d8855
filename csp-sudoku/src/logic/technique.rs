//! The human solving techniques: names, order and difficulty.

use std::fmt;

use serde::Serialize;

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
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
