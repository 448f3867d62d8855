//! Parsing and formatting: every format, every seed puzzle as printed, errors with positions,
//! round trips.

use crate::common::{data, puzzles};
use csp_sudoku::{
    CountedReader, Grid, ParseError, PuzzleReader, parse_counted_line, parse_line, parse_puzzle,
    parse_puzzle_from, parse_puzzle_unchecked,
};
use proptest::prelude::*;

/// Seed 000's example call, as printed.
const SEED000_CALL: &str = "  (write-sudoku-board
   (solve
    (sudoku-board
     ? ? 8 ? ? ? 1 5 ?
     ? ? ? ? ? 1 8 ? ? 
     3 ? 5 4 ? ? ? ? 9
     5 ? ? ? ? 9 ? ? ?
     ? 9 ? 2 3 4 ? 7 ?
     ? ? ? 1 ? ? ? ? 8
     4 ? ? ? ? 5 9 ? 1
     ? ? 6 7 ? ? ? ? ?
     ? 5 3 ? ? ? 2 ? ?)))";

/// Seed 000's printed solution.
const SEED000_SOLUTION: &str = "  (sudoku-board
   7 4 8 3 9 2 1 5 6
   2 6 9 5 7 1 8 4 3
   3 1 5 4 8 6 7 2 9
   5 7 4 8 6 9 3 1 2
   8 9 1 2 3 4 6 7 5
   6 3 2 1 5 7 4 9 8
   4 8 7 6 2 5 9 3 1
   9 2 6 7 1 3 5 8 4
   1 5 3 9 4 8 2 6 7)";

/// Seed 001's test puzzles, as printed (with their quotes).
const SEED001: &str = r#""700100000020000015000006390200018000040090070000750003078500000560000040000001002"
"003020600900305001001806400008102900700000008006708200002609500800203009005010300"
"200080300060070084030500209000105408000000000402706000301007040720040060004010003"
"000000907000420180000705026100904000050000040000507009920108000034059000507000000"
"030050040008010500460000012070502080000603000040109030250000098001020600080060020"
"020810740700003100090002805009040087400208003160030200302700060005600008076051090"
"100920000524010000000000070050008102000000000402700090060000000000030945000071006"
"043080250600000000000001094900004070000608000010200003820500000000000005034090710"
"480006902002008001900370060840010200003704100001060049020085007700900600609200018"
"000900002050123400030000160908000000070000090000000205091000050007439020400007000""#;

/// Seed 003's drivers, as printed.
const S2: &str = "(setq s2 '(2 1 nil 3 4 nil 4 nil nil nil 3 2 nil 2 nil 4 nil))  ";
const S3: &str = "(setq s3 '(3  
 1 nil 9 nil 6 8 3 nil nil  
 nil 3 5 nil 7 1 nil nil nil  
 8 nil 7 nil 2 nil nil 5 nil  
  
 nil nil 6 4 nil nil nil nil 7  
 3 nil nil nil 1 nil nil nil 8  
 4 nil nil nil nil 6 5 nil nil  
  
 nil 5 nil nil 4 nil 9 nil 6  
 nil nil nil 6 5 nil 8 4 nil  
 nil nil 4 8 3 nil 7 nil 5  
))  ";
/// s4 as printed has only 65 cells after the order: not a board.
const S4: &str = "(setq s4 '(3 nil nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil  
 nil nil nil nil nil nil nil nil))  ";

fn seeds() -> Vec<Grid> {
    puzzles("seeds.txt")
}

#[test]
fn seed000_every_written_form() {
    let seeds = seeds();
    let from_file = parse_puzzle(&data("seed000.txt")).unwrap();
    assert_eq!(from_file, seeds[0]);
    assert_eq!(from_file.givens(), 27);
    assert_eq!(parse_puzzle(SEED000_CALL).unwrap(), seeds[0]);
    let solution = parse_puzzle(SEED000_SOLUTION).unwrap();
    assert!(solution.is_solution_of(&seeds[0]));
    assert_eq!(solution, puzzles("seeds-solutions.txt")[0]);
}

#[test]
fn seed001_strings() {
    let seeds = seeds();
    for (i, line) in SEED001.lines().enumerate() {
        let g = parse_puzzle(line.trim_matches('"')).unwrap();
        assert_eq!(g, seeds[1 + i], "puzzle {}", i + 1);
        assert_eq!(g.size(), 9);
    }
}

#[test]
fn seed003_lisp_lists() {
    let seeds = seeds();
    let s2 = parse_puzzle(S2).unwrap();
    assert_eq!(s2.order(), 2);
    assert_eq!(s2, seeds[11]);
    assert_eq!(s2.to_string(), "1.34.4...32.2.4.");
    let inner = "(2 1 nil 3 4 nil 4 nil nil nil 3 2 nil 2 nil 4 nil)";
    assert_eq!(parse_puzzle(inner).unwrap(), s2);
    // The same numbers without the list: the leading order is recognized.
    assert_eq!(parse_puzzle(&inner[1..inner.len() - 1]).unwrap(), s2);
    let s3 = parse_puzzle(S3).unwrap();
    assert_eq!((s3.order(), s3.givens()), (3, 35));
    assert_eq!(s3, seeds[12]);
    assert_eq!(
        parse_puzzle(S4),
        Err(ParseError::WrongLength { found: 66, line: 1 })
    );
    assert_eq!(seeds[13], Grid::empty(3).unwrap());
    assert_eq!(seeds.len(), 14);
}

#[test]
fn line_format_variants() {
    let g = parse_puzzle("1.34.4...32.2.4.").unwrap();
    for text in [
        "1034040003202040",
        "1_34_4___32_2_4_",
        "1?34?4???32?2?4?",
        "1*34*4***32*2*4*  \t",
        "\n\n1.34.4...32.2.4.\r\n",
        "# a comment\n1.34.4...32.2.4.",
    ] {
        assert_eq!(parse_puzzle(text).unwrap(), g, "{text:?}");
    }
    // Letters, case-insensitive, for 16x16.
    let janko = puzzles("janko-16x16-sample.txt");
    assert_eq!(janko.len(), 3);
    let lower = janko[0].to_string().to_lowercase();
    assert_eq!(parse_puzzle(&lower).unwrap(), janko[0]);
    assert!(janko[0].cells().contains(&16));
    let big = puzzles("generated-25x25-375-sample.txt");
    assert_eq!(big.len(), 2);
    assert!(big.iter().all(|g| g.size() == 25 && g.givens() == 375));
}

#[test]
fn grid_format_with_separators() {
    let text = "
        +-------+-------+-------+
        | . . 8 | . . . | 1 5 . |
        | . . . | . . 1 | 8 . . |
        | 3 . 5 | 4 . . | . . 9 |
        +-------+-------+-------+
        | 5 . . | . . 9 | . . . |
        | . 9 . | 2 3 4 | . 7 . |
        | . . . | 1 . . | . . 8 |
        +-------+-------+-------+
        | 4 . . | . . 5 | 9 . 1 |
        | . . 6 | 7 . . | . . . |
        | . 5 3 | . . . | 2 . . |
        +-------+-------+-------+";
    assert_eq!(parse_puzzle(text).unwrap(), seeds()[0]);
    // Rows of symbols grouped by box.
    let grouped = "..8 ... 15.\n... ..1 8..\n3.5 4.. ..9\n5.. ..9 ...\n.9. 234 .7.\n... 1.. ..8\n4.. ..5 9.1\n..6 7.. ...\n.53 ... 2..";
    assert_eq!(parse_puzzle(grouped).unwrap(), seeds()[0]);
    // A solved grid grouped by box: tokens are numbers, but read digit by digit.
    let solution = puzzles("seeds-solutions.txt")[0].clone();
    let rows: Vec<String> = solution
        .cells()
        .chunks(9)
        .map(|r| {
            let s: String = r.iter().map(|v| char::from(b'0' + v)).collect();
            format!("{} {} {}", &s[..3], &s[3..6], &s[6..])
        })
        .collect();
    assert_eq!(parse_puzzle(&rows.join("\n")).unwrap(), solution);
}

#[test]
fn numbers_format_any_size() {
    let g = parse_puzzle("1 0 3 4\n0 4 0 0\n0 3 2 0\n2 0 4 0").unwrap();
    assert_eq!(g.to_string(), "1.34.4...32.2.4.");
    // 36x36 and 64x64 only exist as numbers.
    for order in [6, 8] {
        let size = order * order;
        let mut g = Grid::empty(order).unwrap();
        for i in 0..size {
            // A diagonal of distinct values, one per row, column and box.
            let (r, c) = (i, (i % order) * order + i / order);
            g.set(r, c, (i + 1) as u8).unwrap();
        }
        assert!(g.is_consistent());
        let text = g.to_numbers();
        assert_eq!(parse_puzzle(&text).unwrap(), g);
        assert_eq!(parse_puzzle(&g.pretty().to_string()).unwrap(), g);
        assert_eq!(parse_puzzle(&g.to_string()).unwrap(), g);
        let one_line = text.replace('\n', " ");
        assert_eq!(parse_puzzle(&one_line).unwrap(), g);
    }
}

#[test]
fn counted_lines() {
    let rows: Vec<_> = CountedReader::new(&data("counts-sample.txt"))
        .map(|(line, r)| r.unwrap_or_else(|e| panic!("line {line}: {e}")))
        .collect();
    assert_eq!(rows.len(), 15);
    assert_eq!(rows.iter().filter(|c| c.count == 0).count(), 3);
    assert_eq!(rows.iter().filter(|c| c.count == 1).count(), 8);
    assert!(rows.iter().any(|c| c.count > 100));
    for c in &rows {
        assert_eq!(c.solution.is_some(), c.count == 1);
    }
    let line = "...1..3..2..4...:7";
    let c = parse_counted_line(line).unwrap();
    assert_eq!((c.count, c.puzzle.givens()), (7, 4));
    assert_eq!(
        parse_counted_line("...1..3..2..4...:x7"),
        Err(ParseError::InvalidField {
            field: "count",
            text: "x7".into(),
            line: 1,
            col: 18
        })
    );
    assert!(matches!(
        parse_counted_line("...1..3..2..4..."),
        Err(ParseError::InvalidField { field: "count", .. })
    ));
    // A solution that breaks a given.
    assert_eq!(
        parse_counted_line("1...............:1:2143341243212134"),
        Err(ParseError::WrongSolution { line: 1, col: 20 })
    );
    assert!(parse_counted_line("1...............:1:1234341221434321").is_ok());
    assert!(matches!(
        parse_counted_line("1...............:1:1234341221434321:9"),
        Err(ParseError::InvalidField {
            field: "extra",
            col: 37,
            ..
        })
    ));
}

#[test]
fn batch_reports_bad_lines_and_goes_on() {
    let results: Vec<_> = PuzzleReader::new(&data("bad.txt")).collect();
    let lines: Vec<usize> = results.iter().map(|r| r.0).collect();
    assert_eq!(lines, [2, 3, 4, 6, 7, 8, 9, 10, 12, 13]);
    let good: Vec<usize> = results.iter().filter(|r| r.1.is_ok()).map(|r| r.0).collect();
    assert_eq!(good, [2, 8, 12]);
    let err = |line: usize| {
        results
            .iter()
            .find(|r| r.0 == line)
            .unwrap()
            .1
            .clone()
            .unwrap_err()
    };
    assert_eq!(err(3), ParseError::WrongLength { found: 15, line: 3 });
    assert_eq!(
        err(4),
        ParseError::InvalidSymbol {
            symbol: "!".into(),
            line: 4,
            col: 9
        }
    );
    assert_eq!(
        err(6),
        ParseError::OutOfRange {
            symbol: "9".into(),
            line: 6,
            col: 16,
            size: 4
        }
    );
    assert_eq!(
        err(7),
        ParseError::Conflict {
            value: 1,
            unit: "row 1".into(),
            first_row: 1,
            first_col: 1,
            second_row: 1,
            second_col: 2,
            line: 7,
            col: 2
        }
    );
    assert_eq!(
        err(9),
        ParseError::NotSquare {
            found: 36,
            side: 6,
            line: 9
        }
    );
    assert_eq!(
        err(10),
        ParseError::InvalidSymbol {
            symbol: "é".into(),
            line: 10,
            col: 16
        }
    );
    assert_eq!(
        err(13),
        ParseError::InvalidSymbol {
            symbol: ":".into(),
            line: 13,
            col: 4
        }
    );
    // Messages name what was expected.
    assert!(err(3).to_string().contains("expected 16, 81, 256"));
    assert!(err(6).to_string().contains("1..=4"));
    assert!(err(7).to_string().contains("r1c1 and r1c2"));
}

#[test]
fn multi_line_errors_have_positions() {
    assert_eq!(parse_puzzle(""), Err(ParseError::Empty));
    assert_eq!(parse_puzzle("  \n\t\n# only a comment\n"), Err(ParseError::Empty));
    assert_eq!(parse_puzzle("()"), Err(ParseError::Empty));
    // A ragged row in a 4-line grid.
    assert_eq!(
        parse_puzzle("1 2 3 4\n3 4 1\n2 1 4 3\n4 3 2 1"),
        Err(ParseError::RowLength {
            line: 2,
            found: 3,
            expected: 4
        })
    );
    // Out of range in a grid: line and column of the token.
    assert_eq!(
        parse_puzzle("1 . . .\n. . 5 .\n. . . .\n. . . ."),
        Err(ParseError::OutOfRange {
            symbol: "5".into(),
            line: 2,
            col: 5,
            size: 4
        })
    );
    let mut bad = data("seed000.txt");
    bad = bad.replacen("? ? 8", "? ? x", 1);
    assert_eq!(
        parse_puzzle(&bad),
        Err(ParseError::OutOfRange {
            symbol: "x".into(),
            line: 1,
            col: 10,
            size: 9
        })
    );
    let dup = data("seed000.txt").replacen("3 ? 5 4", "3 ? 5 3", 1);
    assert_eq!(
        parse_puzzle(&dup),
        Err(ParseError::Conflict {
            value: 3,
            unit: "row 3".into(),
            first_row: 3,
            first_col: 1,
            second_row: 3,
            second_col: 4,
            line: 3,
            col: 12
        })
    );
    assert!(parse_puzzle_unchecked(&dup).is_ok());
    assert_eq!(
        parse_puzzle("1 2 foo 4"),
        Err(ParseError::WrongLength { found: 6, line: 1 })
    );
    assert_eq!(
        parse_puzzle("1 2 f#o 4"),
        Err(ParseError::InvalidSymbol {
            symbol: "#".into(),
            line: 1,
            col: 6
        })
    );
    assert_eq!(
        parse_puzzle("(1 2 foo 4)"),
        Err(ParseError::InvalidSymbol {
            symbol: "foo".into(),
            line: 1,
            col: 6
        })
    );
    assert!(matches!(
        parse_puzzle("99999999999999999999 . . . . . . . . . . . . . . ."),
        Err(ParseError::OutOfRange { col: 1, .. })
    ));
    assert!(matches!(parse_puzzle("é"), Err(ParseError::InvalidSymbol { .. })));
    assert!(matches!(
        parse_puzzle("1"),
        Err(ParseError::WrongLength { found: 1, .. })
    ));
    assert!(matches!(
        parse_puzzle(&".".repeat(6561)),
        Err(ParseError::WrongLength { found: 6561, .. })
    ));
}

#[test]
fn shipped_files_parse() {
    assert_eq!(puzzles("4x4.txt").len(), 4);
    assert_eq!(puzzles("empty-4x4.txt"), [Grid::empty(2).unwrap()]);
    assert_eq!(puzzles("top95-sample.txt").len(), 20);
    assert_eq!(puzzles("no-solution-9x9.txt").len(), 1);
}

#[test]
fn pretty_parses_back() {
    for g in seeds().iter().chain(&puzzles("janko-16x16-sample.txt")) {
        assert_eq!(&parse_puzzle(&g.pretty().to_string()).unwrap(), g);
        assert_eq!(&parse_puzzle(&g.to_numbers()).unwrap(), g);
        let json = serde_json::to_string(g).unwrap();
        assert_eq!(&serde_json::from_str::<Grid>(&json).unwrap(), g);
    }
    let pretty = seeds()[0].pretty().to_string();
    assert!(pretty.starts_with("+-------+-------+-------+\n| . . 8 | . . . | 1 5 . |\n"));
}

/// A consistent grid: a relabelled pattern solution with some cells blanked.
fn consistent_grid() -> impl Strategy<Value = Grid> {
    (2usize..=5)
        .prop_flat_map(|order| {
            let size = order * order;
            (
                Just(order),
                Just((1..=size as u8).collect::<Vec<u8>>()).prop_shuffle(),
                proptest::collection::vec(any::<bool>(), size * size),
            )
        })
        .prop_map(|(order, labels, keep)| {
            let size = order * order;
            let cells = (0..size * size)
                .map(|i| {
                    let (r, c) = (i / size, i % size);
                    let v = labels[(order * (r % order) + r / order + c) % size];
                    if keep[i] { v } else { 0 }
                })
                .collect();
            Grid::from_cells(order, cells).unwrap()
        })
}

/// Any grid, conflicts allowed.
fn any_grid() -> impl Strategy<Value = Grid> {
    (2usize..=5).prop_flat_map(|order| {
        let size = order * order;
        proptest::collection::vec(0..=size as u8, size * size)
            .prop_map(move |cells| Grid::from_cells(order, cells).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn round_trip_every_format(g in consistent_grid()) {
        prop_assert!(g.is_consistent());
        prop_assert_eq!(&parse_puzzle(&g.to_string())?, &g);
        prop_assert_eq!(&parse_puzzle(&g.to_numbers())?, &g);
        prop_assert_eq!(&parse_puzzle(&g.pretty().to_string())?, &g);
        let batch: Vec<_> = PuzzleReader::new(&format!("# c\n{g}\n\n{g}\n")).collect();
        prop_assert_eq!(batch.len(), 2);
        prop_assert_eq!(batch[1].0, 4);
        prop_assert_eq!(batch[1].1.as_ref().ok(), Some(&g));
    }

    #[test]
    fn round_trip_unchecked(g in any_grid()) {
        prop_assert_eq!(&parse_puzzle_unchecked(&g.to_string())?, &g);
        prop_assert_eq!(&parse_puzzle_unchecked(&g.pretty().to_string())?, &g);
        prop_assert_eq!(parse_puzzle(&g.to_string()).is_ok(), g.is_consistent());
    }

    #[test]
    fn parsing_never_panics(text in "\\PC{0,100}|[0-9a-z.?()' \n|+-]{0,300}") {
        let _ = parse_puzzle(&text);
        let _ = parse_counted_line(&text);
        let _ = PuzzleReader::new(&text).count();
    }

    #[test]
    fn a_bad_line_names_its_line(line in "[^\n\r]{0,120}|[0-9.|+ -]{0,120}", number in 1usize..1_000_000) {
        if let Err(e) = parse_line(&line, number) {
            let text = e.to_string();
            prop_assert!(
                text.starts_with(&format!("line {number}:")) || text.starts_with(&format!("line {number}, column ")),
                "{}", text
            );
        }
    }

    #[test]
    fn a_bad_grid_names_a_line_of_its_own(text in "[0-9.| \n-]{0,200}", first in 1usize..1000) {
        if let Err(e) = parse_puzzle_from(&text, first) {
            let lines = text.lines().count().max(1);
            let message = e.to_string();
            let named: usize = message
                .strip_prefix("line ")
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(first);
            prop_assert!((first..first + lines).contains(&named), "{}", message);
        }
    }
}
