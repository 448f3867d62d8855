//! Placements as rows: independent verification, the eight board symmetries, printing.

use std::io::{self, Write};

/// The largest board [`board`] draws.
pub const MAX_DRAWN_N: usize = 40;

/// Rechecks a placement without any solver: `rows[c]` is the row of column `c`'s queen.
/// It must hold one queen per column (implied), rows in `0..n`, and no two queens on the
/// same row or diagonal. Runs in O(n) time with bitsets.
///
/// ```
/// use csp_queens::verify;
/// assert_eq!(verify(&[1, 3, 0, 2]), Ok(()));
/// assert!(verify(&[0, 2, 1, 3]).unwrap_err().contains("diagonal"));
/// assert!(verify(&[]).is_err());
/// ```
pub fn verify(rows: &[u32]) -> Result<(), String> {
    let n = rows.len();
    if n == 0 {
        return Err("an empty board has no queens".to_string());
    }
    let mut row_used = BitSet::new(n);
    let mut down_used = BitSet::new(2 * n - 1); // row + col
    let mut up_used = BitSet::new(2 * n - 1); // row - col + n - 1
    for (col, &row) in rows.iter().enumerate() {
        let r = row as usize;
        if r >= n {
            return Err(format!("the queen of column {col} is on row {r}, outside 0..{n}"));
        }
        if !row_used.insert(r) {
            let other = rows.iter().position(|&x| x == row).unwrap_or(0);
            return Err(format!("the queens of columns {other} and {col} share row {r}"));
        }
        if !down_used.insert(r + col) {
            let other = (0..col).find(|&c| rows[c] as usize + c == r + col).unwrap_or(0);
            return Err(format!(
                "the queens of columns {other} and {col} share a diagonal"
            ));
        }
        if !up_used.insert(r + n - 1 - col) {
            let other = (0..col).find(|&c| rows[c] as usize + col == r + c).unwrap_or(0);
            return Err(format!(
                "the queens of columns {other} and {col} share a diagonal"
            ));
        }
    }
    Ok(())
}

/// A plain fixed-size bitset (verification must not depend on the solver's code).
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(len: usize) -> Self {
        BitSet(vec![0; len.div_ceil(64)])
    }

    /// Sets bit `i`; `false` if it was already set.
    fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}

/// The eight symmetries of the square board, applied to placements without allocating
/// (one scratch buffer, reused).
#[derive(Clone, Debug)]
pub struct Symmetries {
    scratch: Vec<u32>,
}

impl Symmetries {
    /// Scratch space for boards of size `n`.
    pub fn new(n: usize) -> Self {
        Symmetries { scratch: vec![0; n] }
    }

    /// Writes image number `k` (0..8; 0 is the identity) of `rows` into the scratch
    /// buffer and returns it. Images 1..4 reflect or rotate by 180°, 4..8 transpose.
    pub fn image(&mut self, rows: &[u32], k: usize) -> &[u32] {
        let n = rows.len();
        self.scratch.resize(n, 0);
        let last = n as u32 - 1;
        let out = &mut self.scratch;
        for (c, &r) in rows.iter().enumerate() {
            let c32 = c as u32;
            match k {
                0 => out[c] = r,
                1 => out[c] = last - r,                     // mirror top/bottom
                2 => out[n - 1 - c] = r,                    // mirror left/right
                3 => out[n - 1 - c] = last - r,             // rotate 180°
                4 => out[r as usize] = c32,                 // transpose
                5 => out[(last - r) as usize] = last - c32, // anti-transpose
                6 => out[r as usize] = last - c32,          // rotate 90°
                _ => out[(last - r) as usize] = c32,        // rotate 270°
            }
        }
        &self.scratch
    }

    /// Whether `rows` is the lexicographically smallest of its eight images (the
    /// canonical member of its symmetry class). `rows` must be a solution (a permutation).
    pub fn is_canonical(&mut self, rows: &[u32]) -> bool {
        (1..8).all(|k| self.image(rows, k) >= rows)
    }

    /// The canonical member of `rows`' symmetry class.
    pub fn canonical(&mut self, rows: &[u32]) -> Vec<u32> {
        let mut best = rows.to_vec();
        for k in 1..8 {
            let image = self.image(rows, k);
            if image < best.as_slice() {
                best.copy_from_slice(image);
            }
        }
        best
    }
}

/// The rows as one line of numbers separated by spaces.
pub fn rows_line(rows: &[u32]) -> String {
    let mut out = Vec::with_capacity(rows.len() * 8);
    write_rows(&mut out, rows).expect("writing to memory does not fail");
    String::from_utf8(out).expect("digits and spaces are UTF-8")
}

/// Writes [`rows_line`] to `out` (without a line end) as it goes, so that the text of a
/// large board (about 8 bytes per queen) is not first built in memory. Give it a buffered
/// writer.
///
/// ```
/// let mut out = Vec::new();
/// csp_queens::write_rows(&mut out, &[1, 3, 0, 2])?;
/// assert_eq!(out, b"1 3 0 2");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_rows<W: Write + ?Sized>(out: &mut W, rows: &[u32]) -> io::Result<()> {
    for (i, r) in rows.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{r}")?;
    }
    Ok(())
}

/// The board as text, row 0 on top: `Q` for a queen, `.` for an empty square, one line
/// per row. `None` when `n` exceeds [`MAX_DRAWN_N`].
///
/// ```
/// assert_eq!(csp_queens::board(&[1, 3, 0, 2]).unwrap(), ". . Q .\nQ . . .\n. . . Q\n. Q . .\n");
/// ```
pub fn board(rows: &[u32]) -> Option<String> {
    let n = rows.len();
    if n > MAX_DRAWN_N {
        return None;
    }
    let mut out = String::with_capacity(n * 2 * n);
    for r in 0..n as u32 {
        for (c, &q) in rows.iter().enumerate() {
            if c > 0 {
                out.push(' ');
            }
            out.push(if q == r { 'Q' } else { '.' });
        }
        out.push('\n');
    }
    Some(out)
}
