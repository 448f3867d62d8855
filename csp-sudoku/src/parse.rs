//! Reading puzzles from text, with errors that say where and what was expected.
//!
//! Three formats are recognized, for a single puzzle, by [`parse_puzzle`]:
//!
//! * **Line format**: the `N * N` cells on one line, row-major. Blanks are `.` `0` `_` `?` `*`;
//!   values are `1`-`9`, then `A` = 10, `B` = 11 ... `Z` = 35, case-insensitive. The order is
//!   inferred from the length: 16 (4x4), 81 (9x9), 256 (16x16), 625, 1296, 2401, 4096.
//! * **Grid format**: one row per line, as single symbols or whitespace-separated tokens.
//!   `|`, `-`, `+` and `,` are separators, blank lines and lines starting with `#` are ignored,
//!   e.g. `? ? 8 | ? ? ? | 1 5 ?`.
//! * **Numbers**: whitespace-separated decimal numbers, `0`, `.` or `nil` for blanks, laid out
//!   freely; the only way to write values past 35. If there is one number more than a board
//!   has cells and the first number is the order, it is taken as the order (`2 1 nil 3 ...`).
//!   A Lisp list such as `(2 1 nil 3 ...)`, `'(3 1 nil 9 ...)` or `(sudoku-board ? ? 8 ...)` is
//!   read the same way: parentheses and quotes are dropped, leading symbols such as
//!   `setq s2` or `sudoku-board` are skipped.
//!
//! When tokens are longer than one character, they are read as numbers if that gives a valid
//! board, else character by character (so `534 678 912` rows are nine digits each).
//!
//! Files with one puzzle per line are read by [`PuzzleReader`] (and [`CountedReader`] for the
//! `puzzle:count[:solution]` lines), which report a bad line and go on.
//! A file holding one multi-line grid is read whole with [`parse_puzzle`].

use thiserror::Error;

use crate::grid::Grid;
use crate::units::{MAX_ORDER, MIN_ORDER};

/// The longest line a puzzle can take, in bytes: a 64x64 board in the numbers format
/// (`64 ` for every cell) is under 20 KB, so a longer line is no puzzle. Readers of puzzle
/// files can stop keeping a line once it is this long ([`ParseError::TooLong`]).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Errors from reading a puzzle. Lines and columns are 1-based; columns count characters.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The input holds no cells (empty, blank, or only comments).
    #[error("no puzzle found: the input is empty or holds only comments")]
    Empty,
    /// A line longer than any puzzle can be ([`MAX_LINE_BYTES`]), or a grid longer than
    /// any grid can be.
    #[error("line {line}: longer than any puzzle (more than {max} bytes)")]
    TooLong {
        /// The line (for a grid, its first line).
        line: usize,
        /// The most bytes a puzzle can take.
        max: usize,
    },
    /// A line of a file of puzzles that holds separators only (such as `|||---+++`).
    #[error("line {line}: no cells on this line")]
    NoCells {
        /// The line.
        line: usize,
    },
    /// A number with a sign in front (`-4`): no cell value is negative.
    #[error(
        "line {line}, column {col}: `{symbol}` is read as a negative number, which is no cell \
         value (a `-` right before a number is its sign; elsewhere it separates cells)"
    )]
    Negative {
        /// The number with its sign.
        symbol: String,
        /// Line of the number.
        line: usize,
        /// Column of the sign.
        col: usize,
    },
    /// A character or token that is no cell symbol.
    #[error(
        "line {line}, column {col}: `{}` is not a cell symbol \
         (expected 1-9, A-Z, a decimal number, or a blank: . 0 _ ? * nil)",
        visible(.symbol)
    )]
    InvalidSymbol {
        /// The offending character or token.
        symbol: String,
        /// Line of the symbol.
        line: usize,
        /// Column of the symbol.
        col: usize,
    },
    /// A valid symbol whose value exceeds the board side.
    #[error(
        "line {line}, column {col}: `{symbol}` is out of range for a {size}x{size} board \
         (expected a value in 1..={size} or a blank)"
    )]
    OutOfRange {
        /// The offending symbol.
        symbol: String,
        /// Line of the symbol.
        line: usize,
        /// Column of the symbol.
        col: usize,
        /// Side of the board.
        size: usize,
    },
    /// The number of cells is not the cell count of any board.
    #[error(
        "line {line}: found {found} cells, expected 16, 81, 256, 625, 1296, 2401 or 4096 \
         (a board of side 4, 9, 16, 25, 36, 49 or 64)"
    )]
    WrongLength {
        /// Number of cells found.
        found: usize,
        /// First line of the puzzle.
        line: usize,
    },
    /// The cells form a square whose side is not a square number, so it has no boxes.
    #[error(
        "line {line}: {found} cells make a {side}x{side} board, but the side must be a square \
         (4, 9, 16, 25, 36, 49 or 64) to have boxes"
    )]
    NotSquare {
        /// Number of cells found.
        found: usize,
        /// Side of the would-be board.
        side: usize,
        /// First line of the puzzle.
        line: usize,
    },
    /// In a multi-line grid, a row with the wrong number of cells.
    #[error("line {line}: a row of {found} cells, expected {expected}")]
    RowLength {
        /// The line of the row.
        line: usize,
        /// Cells on that line.
        found: usize,
        /// Cells expected on every row.
        expected: usize,
    },
    /// The same value twice in a row, column or box.
    #[error(
        "line {line}, column {col}: {value} appears twice in {unit}, \
         at r{first_row}c{first_col} and r{second_row}c{second_col}"
    )]
    Conflict {
        /// The repeated value.
        value: u8,
        /// The unit holding both, such as `row 3`.
        unit: String,
        /// 1-based row of the first cell.
        first_row: usize,
        /// 1-based column of the first cell.
        first_col: usize,
        /// 1-based row of the second cell.
        second_row: usize,
        /// 1-based column of the second cell.
        second_col: usize,
        /// Line of the second cell's symbol.
        line: usize,
        /// Column of the second cell's symbol.
        col: usize,
    },
    /// A bad extra field of a `puzzle:count[:solution]` line.
    #[error("line {line}, column {col}: invalid {field} field `{text}`")]
    InvalidField {
        /// Which field: `count`, `solution` or `extra`.
        field: &'static str,
        /// The field's text.
        text: String,
        /// Line of the field.
        line: usize,
        /// Column where the field starts.
        col: usize,
    },
    /// The solution field of a `puzzle:count:solution` line is not a solution of the puzzle.
    #[error("line {line}, column {col}: the solution does not solve the puzzle")]
    WrongSolution {
        /// Line of the field.
        line: usize,
        /// Column where the field starts.
        col: usize,
    },
}

/// `symbol` with invisible characters (controls, a byte-order mark, zero-width spaces)
/// escaped as `\u{..}`, so that an error message shows what it is about.
fn visible(symbol: &str) -> String {
    symbol
        .chars()
        .map(|c| match c {
            '\\' | '\'' | '"' => c.to_string(),
            _ => c.escape_debug().to_string(),
        })
        .collect()
}

/// Parses one puzzle in any of the formats of the module docs (auto-detected), rejecting
/// givens that repeat a value in a unit ([`ParseError::Conflict`]).
///
/// ```
/// let g = csp_sudoku::parse_puzzle("1.3.\n..1.\n.1..\n4..1")?;
/// assert_eq!(g.size(), 4);
/// assert_eq!(g.get(3, 0), 4);
/// # Ok::<(), csp_sudoku::ParseError>(())
/// ```
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    parse_at(text, 1, true)
}

/// [`parse_puzzle`] on a text whose first line is line `first_line` of a file, so that
/// errors name the file's lines.
///
/// ```
/// let err = csp_sudoku::parse_puzzle_from("1.3.\n..1.\n.1..\n4..x", 10).unwrap_err();
/// assert!(err.to_string().starts_with("line 13, column 4"));
/// ```
pub fn parse_puzzle_from(text: &str, first_line: usize) -> Result<Grid, ParseError> {
    parse_at(text, first_line, true)
}

/// Like [`parse_puzzle`], but accepts givens that conflict (for puzzles that are meant to be
/// shown unsolvable, or for testing checkers).
pub fn parse_puzzle_unchecked(text: &str) -> Result<Grid, ParseError> {
    parse_at(text, 1, false)
}

impl std::str::FromStr for Grid {
    type Err = ParseError;

    /// Same as [`parse_puzzle`].
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        parse_puzzle(s)
    }
}

/// A token: a run of non-separator characters, with its 1-based position.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    col: usize,
}

/// A cell read from the text, before the board size is known.
#[derive(Clone, Copy, Debug)]
struct RawCell<'a> {
    /// The value, `0` for blank, `u32::MAX` if too large to represent.
    value: u32,
    symbol: &'a str,
    line: usize,
    col: usize,
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// Whether `c` separates cells: a space, a tab, `|`, `-`, `+` or `,` (and in a Lisp list
/// the parentheses and the quote). Other white space (a vertical tab, a form feed, a
/// no-break space) is no separator, so that a cell written as one is reported at its
/// column instead of making a line one cell short.
fn is_separator(c: char, lisp: bool) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '|' | '-' | '+' | ',') || (lisp && matches!(c, '(' | ')' | '\''))
}

/// Whether the text at `rest` (just after a `-` or `+`) is a number ending at a separator
/// or at the end of the line: then the sign belongs to it (`-1` is no cell value, not a
/// separator and a 1). In `-4....8.5` the `-` separates: a digit run that goes on with
/// cells is no signed number.
fn signed_number(rest: &str, lisp: bool) -> bool {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && rest[digits..]
            .chars()
            .next()
            .is_none_or(|c| is_separator(c, lisp))
}

/// Splits the text into tokens; `first_line` is the number of its first line.
/// Returns the tokens and whether the text is a Lisp list.
fn tokenize(text: &str, first_line: usize) -> (Vec<Token<'_>>, bool) {
    let lisp = text
        .lines()
        .filter(|l| !is_comment(l))
        .flat_map(str::chars)
        .find(|c| !c.is_whitespace())
        .is_some_and(|c| c == '(' || c == '\'');
    let mut tokens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_comment(line) {
            continue;
        }
        let mut start: Option<(usize, usize)> = None; // (byte offset, column)
        for (col, (offset, c)) in line.char_indices().enumerate() {
            // A sign starts a token; within one (`4.....-8`) it separates.
            let sign = start.is_none() && matches!(c, '-' | '+') && signed_number(&line[offset + 1..], lisp);
            if is_separator(c, lisp) && !sign {
                if let Some((s, scol)) = start.take() {
                    tokens.push(Token {
                        text: &line[s..offset],
                        line: first_line + i,
                        col: scol,
                    });
                }
            } else if start.is_none() {
                start = Some((offset, col + 1));
            }
        }
        if let Some((s, scol)) = start {
            tokens.push(Token {
                text: &line[s..],
                line: first_line + i,
                col: scol,
            });
        }
    }
    (tokens, lisp)
}

/// The value of a one-character symbol: `Some(0)` for blanks, `None` if not a symbol.
fn char_value(c: char) -> Option<u32> {
    match c {
        '.' | '0' | '_' | '?' | '*' => Some(0),
        '1'..='9' => c.to_digit(10),
        'a'..='z' | 'A'..='Z' => Some(u32::from(c.to_ascii_uppercase() as u8 - b'A') + 10),
        _ => None,
    }
}

/// The value of a whole token in number mode.
fn token_value(t: &str) -> Option<u32> {
    if t.eq_ignore_ascii_case("nil") {
        return Some(0);
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return Some(t.parse().unwrap_or(u32::MAX));
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => char_value(c),
        _ => None,
    }
}

/// A Lisp symbol such as `setq`, `s2` or `sudoku`, skipped at the start of a Lisp list.
fn is_lisp_symbol(t: &str) -> bool {
    t.len() >= 2 && t.starts_with(|c: char| c.is_ascii_alphabetic()) && !t.eq_ignore_ascii_case("nil")
}

/// The box side of a board with `cells` cells.
fn order_of(cells: usize) -> Option<usize> {
    (MIN_ORDER..=MAX_ORDER).find(|&n| n.pow(4) == cells)
}

/// Reads the cells of one puzzle from its tokens, in number mode or character mode.
fn read_cells<'a>(tokens: &[Token<'a>], lisp: bool) -> Result<Vec<RawCell<'a>>, ParseError> {
    let multi = tokens.iter().any(|t| t.text.chars().nth(1).is_some());
    let numbers_ok = tokens.iter().all(|t| token_value(t.text).is_some());
    let char_count: usize = tokens.iter().map(|t| t.text.chars().count()).sum();
    let numbers_fit = order_of(tokens.len()).is_some() || prefixed_order(tokens).is_some();
    // When neither reading gives a board, report errors on numbers only if they look like
    // cell values (so a long run of digits is read as digits).
    let plausible = tokens
        .iter()
        .all(|t| token_value(t.text).is_some_and(|v| v <= 64));
    let chars_fit = order_of(char_count).is_some();
    // Tokens that make a board by their count while their characters do not were meant as
    // numbers, so a bad one is reported as a whole (`x2`, `1.5`, `-1`).
    let use_numbers = lisp
        || (multi && numbers_ok && (numbers_fit || (plausible && !chars_fit)))
        || (multi && numbers_fit && !chars_fit);
    if use_numbers {
        tokens
            .iter()
            .map(|t| match token_value(t.text) {
                Some(value) => Ok(RawCell {
                    value,
                    symbol: t.text,
                    line: t.line,
                    col: t.col,
                }),
                None => Err(symbol_error(t.text, t.line, t.col)),
            })
            .collect()
    } else {
        let mut cells = Vec::with_capacity(char_count);
        for t in tokens {
            // No cell is two characters long: the sign the tokens gave a digit (`-8` in
            // `...-8-...`) separates, as a `-` does everywhere else in a line.
            let (text, col) = match t.text.strip_prefix(['-', '+']) {
                Some(rest) => (rest, t.col + 1),
                None => (t.text, t.col),
            };
            for (k, (offset, c)) in text.char_indices().enumerate() {
                let symbol = &text[offset..offset + c.len_utf8()];
                let value = char_value(c).ok_or_else(|| ParseError::InvalidSymbol {
                    symbol: symbol.to_string(),
                    line: t.line,
                    col: col + k,
                })?;
                cells.push(RawCell {
                    value,
                    symbol,
                    line: t.line,
                    col: col + k,
                });
            }
        }
        Ok(cells)
    }
}

/// The error of a token that is no cell symbol: a negative number says so.
fn symbol_error(text: &str, line: usize, col: usize) -> ParseError {
    let negative = text
        .strip_prefix('-')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if negative {
        ParseError::Negative {
            symbol: text.to_string(),
            line,
            col,
        }
    } else {
        ParseError::InvalidSymbol {
            symbol: text.to_string(),
            line,
            col,
        }
    }
}

/// If the tokens are an order followed by that order's cells, the order.
fn prefixed_order(tokens: &[Token<'_>]) -> Option<usize> {
    let n = order_of(tokens.len().checked_sub(1)?)?;
    (tokens[0].text.parse::<usize>().ok()? == n).then_some(n)
}

/// Parses one puzzle whose first line is line `first_line` of a file.
/// Parses one line of a puzzle file, reporting positions on line `line_number`.
/// A `:count[:solution]` suffix after a line-format puzzle (as in files of puzzles with
/// their solution counts) is ignored.
///
/// ```
/// use csp_sudoku::parse_line;
/// let grid = parse_line("1.34.4...32.2.4.:1", 7).unwrap();
/// assert_eq!(grid.givens(), 8);
/// let err = parse_line("1.34.4....3.2.4", 7).unwrap_err();
/// assert!(err.to_string().starts_with("line 7"));
/// ```
pub fn parse_line(line: &str, line_number: usize) -> Result<Grid, ParseError> {
    let puzzle = match line.split_once(':') {
        Some((cells, _)) if order_of(cells.trim().chars().count()).is_some() => cells,
        _ => line,
    };
    match parse_at(puzzle, line_number, true) {
        Err(ParseError::Empty) => Err(ParseError::NoCells { line: line_number }),
        parsed => parsed,
    }
}

fn parse_at(text: &str, first_line: usize, check: bool) -> Result<Grid, ParseError> {
    // `is_consistent` is a bitmask test; `conflicts` lists them all (for the error path).
    if let Some(grid) = plain_line(text).filter(|g| !check || g.is_consistent()) {
        return Ok(grid);
    }
    let (mut tokens, lisp) = tokenize(text, first_line);
    if lisp {
        let skip = tokens.iter().take_while(|t| is_lisp_symbol(t.text)).count();
        tokens.drain(..skip);
    }
    let Some(first) = tokens.first() else {
        return Err(ParseError::Empty);
    };
    let first_line = first.line;
    let mut cells = read_cells(&tokens, lisp)?;
    if order_of(cells.len()).is_none() && prefixed_order(&tokens).is_some() {
        cells.remove(0);
    }
    let order = match order_of(cells.len()) {
        Some(order) => order,
        None => return Err(length_error(&cells, first_line)),
    };
    let size = order * order;
    let values = cells
        .iter()
        .map(|c| match u8::try_from(c.value) {
            Ok(v) if usize::from(v) <= size => Ok(v),
            _ => Err(ParseError::OutOfRange {
                symbol: c.symbol.to_string(),
                line: c.line,
                col: c.col,
                size,
            }),
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let grid = Grid::from_cells(order, values).expect("order and values were checked");
    if check {
        if let Some(k) = grid.conflicts().first() {
            let at = cells[k.second];
            return Err(ParseError::Conflict {
                value: k.value,
                unit: k.unit.to_string(),
                first_row: k.first / size + 1,
                first_col: k.first % size + 1,
                second_row: k.second / size + 1,
                second_col: k.second % size + 1,
                line: at.line,
                col: at.col,
            });
        }
    }
    Ok(grid)
}

/// The common line format read directly: one character per cell, digits with `.` or `0`
/// for blanks. Anything else (and any error, to be reported in full) takes the general path.
fn plain_line(text: &str) -> Option<Grid> {
    let bytes = text.trim().as_bytes();
    let order = order_of(bytes.len())?;
    let size = (order * order) as u8;
    let mut cells = Vec::with_capacity(bytes.len());
    for &b in bytes {
        let v = match b {
            b'.' | b'0' => 0,
            b'1'..=b'9' if b - b'0' <= size => b - b'0',
            _ => return None,
        };
        cells.push(v);
    }
    Grid::from_cells(order, cells).ok()
}

/// Whether `line` could be one row of a multi-line grid rather than a whole puzzle: it holds
/// at most 64 cells (the side of the largest board) when read one symbol per character or one
/// number per token, or no cells at all (a separator line such as `------+------`).
///
/// ```
/// use csp_sudoku::looks_like_row;
/// assert!(looks_like_row("? ? 8 | ? ? ? | 1 5 ?"));
/// assert!(looks_like_row("------+-------+------"));
/// assert!(!looks_like_row(&".".repeat(81)));
/// ```
pub fn looks_like_row(line: &str) -> bool {
    let side = MAX_ORDER * MAX_ORDER;
    let (tokens, _) = tokenize(line, 1);
    let chars: usize = tokens.iter().map(|t| t.text.chars().count()).sum();
    tokens.len() <= side && (tokens.len() >= 2 || chars <= side)
}

/// The most helpful error for a cell count that is no board's.
fn length_error(cells: &[RawCell<'_>], first_line: usize) -> ParseError {
    let found = cells.len();
    // Multi-line grids: if the line count is a board side, point at the first ragged row.
    let mut rows: Vec<(usize, usize)> = Vec::new(); // (line, cells on it)
    for c in cells {
        match rows.last_mut() {
            Some((line, count)) if *line == c.line => *count += 1,
            _ => rows.push((c.line, 1)),
        }
    }
    if rows.len() > 1 && order_of(rows.len() * rows.len()).is_some() {
        let expected = rows.len();
        if let Some(&(line, count)) = rows.iter().find(|r| r.1 != expected) {
            return ParseError::RowLength {
                line,
                found: count,
                expected,
            };
        }
    }
    let side = found.isqrt();
    if side >= 2 && side * side == found && side <= 64 {
        ParseError::NotSquare {
            found,
            side,
            line: first_line,
        }
    } else {
        ParseError::WrongLength {
            found,
            line: first_line,
        }
    }
}

/// Iterates over the puzzles of a file with one puzzle per line, yielding
/// `(line number, result)`: blank lines and lines starting with `#` are skipped, and a bad line
/// yields its error without stopping the iteration. Each line may be in any single-line format
/// (line format, or numbers on one line).
///
/// ```
/// use csp_sudoku::PuzzleReader;
/// let text = "# two puzzles\n1...\n\n...1..3..2..4...\n";
/// let results: Vec<_> = PuzzleReader::new(text).collect();
/// assert_eq!(results.len(), 2);
/// assert_eq!(results[0].0, 2);
/// assert!(results[0].1.is_err());
/// assert_eq!(results[1].1.as_ref().unwrap().givens(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct PuzzleReader<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> PuzzleReader<'a> {
    /// A reader over the text of a whole file.
    pub fn new(text: &'a str) -> PuzzleReader<'a> {
        PuzzleReader {
            lines: text.lines().enumerate(),
        }
    }
}

/// Whether a line of a file of puzzles holds one (or a mistake): blank lines and
/// comments (lines starting with `#`) do not.
///
/// ```
/// use csp_sudoku::is_puzzle_line;
/// assert!(is_puzzle_line("1...4......3..1."));
/// assert!(!is_puzzle_line("  # a comment"));
/// assert!(!is_puzzle_line("   "));
/// ```
pub fn is_puzzle_line(line: &str) -> bool {
    !line.trim().is_empty() && !is_comment(line)
}

/// The next line with content, as (1-based line number, line).
fn next_content<'a>(lines: &mut std::iter::Enumerate<std::str::Lines<'a>>) -> Option<(usize, &'a str)> {
    lines.find(|(_, l)| is_puzzle_line(l)).map(|(i, l)| (i + 1, l))
}

impl Iterator for PuzzleReader<'_> {
    type Item = (usize, Result<Grid, ParseError>);

    fn next(&mut self) -> Option<Self::Item> {
        let (number, line) = next_content(&mut self.lines)?;
        Some((number, parse_line(line, number)))
    }
}

/// One line of a `puzzle:count[:solution]` file: a puzzle with its number of solutions and,
/// optionally, its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedPuzzle {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its number of solutions.
    pub count: u64,
    /// A solution, checked to solve the puzzle, when the line gives one.
    pub solution: Option<Grid>,
}

/// Parses one `puzzle:count[:solution]` line (as in `with-solution-counts.txt`). The puzzle and
/// solution are in line format; the solution must solve the puzzle.
///
/// ```
/// let c = csp_sudoku::parse_counted_line("...1..3..2..4...:12")?;
/// assert_eq!(c.count, 12);
/// assert!(c.solution.is_none());
/// # Ok::<(), csp_sudoku::ParseError>(())
/// ```
pub fn parse_counted_line(line: &str) -> Result<CountedPuzzle, ParseError> {
    parse_counted_at(line, 1)
}

/// [`parse_counted_line`] on line `number` of a file, so that errors name it.
pub fn parse_counted_at(line: &str, number: usize) -> Result<CountedPuzzle, ParseError> {
    let mut fields = Vec::new(); // (column, text)
    let mut col = 1;
    for field in line.split(':') {
        fields.push((col, field));
        col += field.chars().count() + 1;
    }
    let bad = |field: &'static str, (col, text): (usize, &str)| ParseError::InvalidField {
        field,
        text: text.to_string(),
        line: number,
        col,
    };
    let (_, puzzle_text) = fields[0];
    let puzzle = parse_at(puzzle_text, number, true)?;
    let count_field = *fields.get(1).ok_or_else(|| bad("count", (col, "")))?;
    let count = count_field
        .1
        .trim()
        .parse::<u64>()
        .map_err(|_| bad("count", count_field))?;
    let solution = match fields.get(2) {
        None => None,
        Some(&(scol, stext)) => {
            let solution = parse_at(stext, number, false).map_err(|_| bad("solution", (scol, stext)))?;
            if !solution.is_solution_of(&puzzle) {
                return Err(ParseError::WrongSolution {
                    line: number,
                    col: scol,
                });
            }
            Some(solution)
        }
    };
    if let Some(&extra) = fields.get(3) {
        return Err(bad("extra", extra));
    }
    Ok(CountedPuzzle {
        puzzle,
        count,
        solution,
    })
}

/// Iterates over a file of `puzzle:count[:solution]` lines like [`PuzzleReader`]: yields
/// `(line number, result)`, skipping blank lines and `#` comments.
#[derive(Clone, Debug)]
pub struct CountedReader<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> CountedReader<'a> {
    /// A reader over the text of a whole file.
    pub fn new(text: &'a str) -> CountedReader<'a> {
        CountedReader {
            lines: text.lines().enumerate(),
        }
    }
}

impl Iterator for CountedReader<'_> {
    type Item = (usize, Result<CountedPuzzle, ParseError>);

    fn next(&mut self) -> Option<Self::Item> {
        let (number, line) = next_content(&mut self.lines)?;
        Some((number, parse_counted_at(line, number)))
    }
}
