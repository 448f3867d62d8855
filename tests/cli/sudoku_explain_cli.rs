//! `csp sudoku explain` against brute force: puzzles with a unique solution made unsolvable
//! by one extra clue (a value other than the solution's in a blank cell); the clues printed
//! must have no solution, and removing any one of them must give a puzzle with one. The
//! solver here is a plain backtracking written apart from csp. The default test explains 28
//! puzzles; `sudoku_explain_hundred` (ignored) 112.

use crate::common::{TempDir, code, csp, data, json_lines, stderr, stdout};

/// Whether the 9x9 puzzle `cells` (0 for blanks) has a solution; its first one.
fn solve(cells: &[u8]) -> Option<Vec<u8>> {
    let mut s = Search {
        grid: cells.to_vec(),
        used: [[0; 9]; 3],
    };
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let bit = 1 << v;
            // Clashing givens: no solution.
            if s.taken(i) & bit != 0 {
                return None;
            }
            s.mark(i, bit);
        }
    }
    s.fill().then_some(s.grid)
}

/// Backtracking with the values each row, column and box holds as bit sets.
struct Search {
    grid: Vec<u8>,
    /// Rows, columns, boxes: bit `v` set when `v` is placed there.
    used: [[u16; 9]; 3],
}

impl Search {
    fn units(i: usize) -> [usize; 3] {
        let (r, c) = (i / 9, i % 9);
        [r, c, r / 3 * 3 + c / 3]
    }

    fn taken(&self, i: usize) -> u16 {
        let [r, c, b] = Self::units(i);
        self.used[0][r] | self.used[1][c] | self.used[2][b]
    }

    fn mark(&mut self, i: usize, bit: u16) {
        let [r, c, b] = Self::units(i);
        self.used[0][r] ^= bit;
        self.used[1][c] ^= bit;
        self.used[2][b] ^= bit;
    }

    /// The cells of unit `u`: rows 0..9, columns 9..18, boxes 18..27.
    fn cells(u: usize) -> [usize; 9] {
        std::array::from_fn(|k| match u {
            0..9 => u * 9 + k,
            9..18 => k * 9 + (u - 9),
            _ => ((u - 18) / 3 * 3 + k / 3) * 9 + (u - 18) % 3 * 3 + k % 3,
        })
    }

    /// Branches on the blank cell with the fewest values, or on the places left to a value
    /// in a unit when they are fewer (a value with no place left is a dead end).
    fn fill(&mut self) -> bool {
        let mut best: Option<(u32, Vec<(usize, u8)>)> = None;
        for i in (0..81).filter(|&i| self.grid[i] == 0) {
            let free = !self.taken(i) & 0b11_1111_1110;
            if best.as_ref().is_none_or(|(n, _)| free.count_ones() < *n) {
                let choices = (1..=9u8)
                    .filter(|v| free & (1 << v) != 0)
                    .map(|v| (i, v))
                    .collect();
                best = Some((free.count_ones(), choices));
            }
        }
        let Some(_) = best else {
            return true;
        };
        for u in 0..27 {
            let cells = Self::cells(u);
            for v in 1..=9u8 {
                let bit = 1 << v;
                if cells.iter().any(|&c| self.grid[c] == v) {
                    continue;
                }
                let places: Vec<(usize, u8)> = cells
                    .iter()
                    .filter(|&&c| self.grid[c] == 0 && self.taken(c) & bit == 0)
                    .map(|&c| (c, v))
                    .collect();
                if best.as_ref().is_some_and(|(n, _)| (places.len() as u32) < *n) {
                    best = Some((places.len() as u32, places));
                }
            }
        }
        let (_, choices) = best.expect("some blank cell");
        for (i, v) in choices {
            let bit = 1 << v;
            self.grid[i] = v;
            self.mark(i, bit);
            if self.fill() {
                return true;
            }
            self.mark(i, bit);
            self.grid[i] = 0;
        }
        false
    }
}

fn cells_of(line: &str) -> Vec<u8> {
    line.chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect()
}

/// The unique puzzles of the samples, each made unsolvable `per_puzzle` ways.
fn unsolvable(per_puzzle: usize) -> Vec<(Vec<u8>, String)> {
    let mut out = Vec::new();
    for file in ["top95-sample.txt", "17-clue-sample.txt"] {
        let text = std::fs::read_to_string(data(file)).unwrap();
        for (p, line) in text.lines().filter(|l| l.len() >= 81).enumerate() {
            let cells = cells_of(&line[..81]);
            let solution = solve(&cells).expect("a sample puzzle has a solution");
            let blanks: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
            for k in 0..per_puzzle {
                let cell = blanks[(p * 7 + k * 13) % blanks.len()];
                let value = (solution[cell] + 1 + (k as u8 % 8)) % 9 + 1;
                assert_ne!(value, solution[cell]);
                let mut wrong = cells.clone();
                wrong[cell] = value;
                let text: String = wrong
                    .iter()
                    .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
                    .collect();
                out.push((wrong, text));
            }
        }
    }
    out
}

fn check(per_puzzle: usize) {
    let puzzles = unsolvable(per_puzzle);
    let dir = TempDir::new("sudoku-explain");
    let file = dir.file(
        "wrong.txt",
        &puzzles.iter().map(|(_, t)| format!("{t}\n")).collect::<String>(),
    );
    let out = csp(&["sudoku", "explain", &file, "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answers = json_lines(&out);
    assert_eq!(answers.len(), puzzles.len());
    for ((wrong, text), answer) in puzzles.iter().zip(&answers) {
        assert_eq!(answer["status"], "unsatisfiable", "{text}: {answer}");
        assert_eq!(answer["minimal"], true, "{text}");
        let clues = cells_of(answer["clues"].as_str().unwrap());
        assert_eq!(clues.len(), 81);
        // Only givens of the puzzle, which have no solution, and each is needed.
        assert!((0..81).all(|i| clues[i] == 0 || clues[i] == wrong[i]), "{text}");
        assert!(solve(&clues).is_none(), "{text}: the clues have a solution");
        for i in (0..81).filter(|&i| clues[i] != 0) {
            let mut less = clues.clone();
            less[i] = 0;
            assert!(solve(&less).is_some(), "{text}: the clue at {i} is not needed");
        }
    }
}

#[test]
fn unsolvable_puzzles_get_a_minimal_set_of_givens() {
    check(1);
}

#[test]
#[ignore = "112 puzzles: run with --release --ignored"]
fn sudoku_explain_hundred() {
    check(4);
}

#[test]
fn several_solutions_are_shown_two_that_differ() {
    // The empty 4x4 grid, and a puzzle with one solution.
    let dir = TempDir::new("sudoku-explain-several");
    let file = dir.file("empty.txt", "................\n1.34.4...32.2.4.\n");
    let out = csp(&["sudoku", "explain", &file, "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answers = json_lines(&out);
    assert_eq!(answers[0]["status"], "several");
    let two = answers[0]["solutions"].as_array().unwrap();
    assert_ne!(two[0], two[1]);
    assert_eq!(answers[1]["status"], "unique");
    let text = stdout(&csp(&["sudoku", "explain", &file]));
    assert!(
        text.starts_with("# line 1: several solutions; two that differ:"),
        "{text}"
    );
}
