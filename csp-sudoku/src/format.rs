//! Writing grids: line format, numbers, a pretty grid with box separators, and JSON.
//!
//! * **Line format** ([`Grid`]'s `Display`, [`Grid::to_line`]): the `N * N` cells on one line,
//!   row-major, `.` for blanks, `1`-`9` then `A` = 10 ... `Z` = 35.
//! * **Numbers** ([`Grid::to_numbers`]): one row per line, whitespace-separated decimal values,
//!   `.` for blanks. Works for every size.
//! * **Pretty** ([`Grid::pretty`]): rows with `|` between boxes and `+---+` rule lines; tokens
//!   are digits up to 9x9 and right-aligned decimal numbers beyond.
//! * **JSON** (`serde`): `{"order":3,"size":9,"cells":[[0,0,8,...],...]}` — `cells` is a list of
//!   rows, `0` for blanks. Deserializing checks the order, the shape and the value range.
//!
//! Every output parses back with [`parse_puzzle`](crate::parse_puzzle) to the same grid.
//! Values above 35 have no line-format symbol: [`Grid::to_line`] returns an error for them,
//! and `Display` falls back to the numbers format, on one line, so printing never fails.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::grid::Grid;

/// Largest value with a line-format symbol (`Z`).
pub const MAX_SYMBOL_VALUE: u8 = 35;

/// Errors from writing a grid.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FormatError {
    /// A value has no single-character symbol (only `1..=35` do).
    #[error("r{row}c{col} holds {value}, which has no line-format symbol (only 1..=35 do)")]
    NoSymbol {
        /// 1-based row of the cell.
        row: usize,
        /// 1-based column of the cell.
        col: usize,
        /// The value.
        value: u8,
    },
}

/// The line-format symbol of `value` (`.` for 0), or `None` past 35.
pub fn symbol(value: u8) -> Option<char> {
    match value {
        0 => Some('.'),
        1..=9 => Some(char::from(b'0' + value)),
        10..=MAX_SYMBOL_VALUE => Some(char::from(b'A' + value - 10)),
        _ => None,
    }
}

impl Grid {
    /// The line format: `N * N` symbols, `.` for blanks. Fails if a value exceeds 35.
    pub fn to_line(&self) -> Result<String, FormatError> {
        let size = self.size();
        self.cells()
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                symbol(v).ok_or(FormatError::NoSymbol {
                    row: i / size + 1,
                    col: i % size + 1,
                    value: v,
                })
            })
            .collect()
    }

    /// The numbers format: one row per line, values separated by single spaces, `.` for blanks.
    pub fn to_numbers(&self) -> String {
        let mut out = String::with_capacity(self.cells().len() * 3);
        for row in self.cells().chunks_exact(self.size()) {
            for (j, &v) in row.iter().enumerate() {
                if j > 0 {
                    out.push(' ');
                }
                if v == 0 {
                    out.push('.');
                } else {
                    // Writing to a String cannot fail.
                    let _ = write!(out, "{v}");
                }
            }
            out.push('\n');
        }
        out
    }

    /// A multi-line pretty grid with box separators; see [`Pretty`].
    pub fn pretty(&self) -> Pretty<'_> {
        Pretty(self)
    }
}

/// Line format when every value has a symbol, else the numbers format on one line (the
/// values row after row, separated by single spaces): either way one line per grid, so a
/// file of printed grids reads back as a file of puzzles.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_line() {
            Ok(line) => f.write_str(&line),
            Err(_) => {
                for (i, &v) in self.cells().iter().enumerate() {
                    if i > 0 {
                        f.write_char(' ')?;
                    }
                    match v {
                        0 => f.write_char('.')?,
                        _ => write!(f, "{v}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// Displays a grid over several lines with `|` and `+-------+` separators between boxes:
///
/// ```text
/// +-------+-------+-------+
/// | . . 8 | . . . | 1 5 . |
/// ...
/// ```
///
/// Up to 9x9 a cell is one digit; larger grids use decimal numbers padded to a common width.
#[derive(Clone, Copy, Debug)]
pub struct Pretty<'a>(&'a Grid);

impl fmt::Display for Pretty<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = self.0;
        let (n, size) = (grid.order(), grid.size());
        let width = if size <= 9 { 1 } else { 2 };
        let segment = "-".repeat(n * (width + 1) + 1);
        let mut rule = String::from("+");
        for _ in 0..n {
            rule.push_str(&segment);
            rule.push('+');
        }
        for (r, row) in grid.cells().chunks_exact(size).enumerate() {
            if r % n == 0 {
                writeln!(f, "{rule}")?;
            }
            for (c, &v) in row.iter().enumerate() {
                if c % n == 0 {
                    f.write_str("| ")?;
                }
                if v == 0 {
                    write!(f, "{:>width$} ", '.')?;
                } else {
                    write!(f, "{v:>width$} ")?;
                }
            }
            writeln!(f, "|")?;
        }
        writeln!(f, "{rule}")
    }
}

/// The JSON shape of a grid.
#[derive(Serialize, Deserialize)]
struct GridJson {
    order: usize,
    size: usize,
    cells: Vec<Vec<u8>>,
}

impl Serialize for Grid {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GridJson {
            order: self.order(),
            size: self.size(),
            cells: self
                .cells()
                .chunks_exact(self.size())
                .map(<[u8]>::to_vec)
                .collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Grid {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Grid, D::Error> {
        use serde::de::Error;
        let json = GridJson::deserialize(deserializer)?;
        if json.size != json.order * json.order {
            return Err(D::Error::custom(format!(
                "size {} does not match order {}",
                json.size, json.order
            )));
        }
        if json.cells.len() != json.size || json.cells.iter().any(|r| r.len() != json.size) {
            return Err(D::Error::custom(format!(
                "cells must be {0} rows of {0} values",
                json.size
            )));
        }
        Grid::from_cells(json.order, json.cells.concat()).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols() {
        assert_eq!(symbol(0), Some('.'));
        assert_eq!(symbol(9), Some('9'));
        assert_eq!(symbol(10), Some('A'));
        assert_eq!(symbol(35), Some('Z'));
        assert_eq!(symbol(36), None);
    }

    #[test]
    fn pretty_4x4() {
        let g = Grid::from_cells(2, vec![1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 4, 0, 0, 0]).unwrap();
        let expected = "\
+-----+-----+
| 1 . | . . |
| . . | . 2 |
+-----+-----+
| . . | 3 . |
| 4 . | . . |
+-----+-----+
";
        assert_eq!(g.pretty().to_string(), expected);
        assert_eq!(g.to_string(), "1......2..3.4...");
        assert_eq!(g.to_numbers(), "1 . . .\n. . . 2\n. . 3 .\n4 . . .\n");
    }

    #[test]
    fn large_values_fall_back_to_numbers() {
        let mut g = Grid::empty(6).unwrap();
        g.set(0, 1, 36).unwrap();
        assert_eq!(
            g.to_line(),
            Err(FormatError::NoSymbol {
                row: 1,
                col: 2,
                value: 36
            })
        );
        assert!(g.to_string().starts_with(". 36 . "));
    }

    #[test]
    fn json() {
        let g = Grid::from_cells(2, vec![1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 4, 0, 0, 0]).unwrap();
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(
            text,
            r#"{"order":2,"size":4,"cells":[[1,0,0,0],[0,0,0,2],[0,0,3,0],[4,0,0,0]]}"#
        );
        let back: Grid = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g);
        assert!(serde_json::from_str::<Grid>(r#"{"order":2,"size":4,"cells":[[1]]}"#).is_err());
        assert!(serde_json::from_str::<Grid>(r#"{"order":2,"size":9,"cells":[]}"#).is_err());
    }
}
