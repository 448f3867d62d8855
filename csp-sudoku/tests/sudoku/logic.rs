//! Human techniques: each on a hand-made position, soundness against known solutions,
//! singles propagation, rating and hints.

use crate::common::{data, puzzles, solve};
use csp_sudoku::{
    Candidates, CellValue, Contradiction, Deduction, Grid, HintError, HintKind, SinglesOutcome, Technique,
    hint_for, next_deduction, next_hint, parse_counted_line, parse_puzzle, propagate_naked_singles,
    propagate_singles, rate_logic,
};

fn empty9() -> Candidates {
    Candidates::new(&Grid::empty(3).unwrap())
}

/// Cell index of 1-based (row, col) on a 9x9 board.
fn at(row: usize, col: usize) -> usize {
    (row - 1) * 9 + col - 1
}

/// Leaves `cell` with exactly `keep` as candidates.
fn restrict(c: &mut Candidates, cell: usize, keep: &[u8]) {
    for v in 1..=9 {
        if !keep.contains(&v) {
            c.eliminate(cell, v);
        }
    }
}

fn elims(d: &Deduction) -> Vec<(usize, u8)> {
    d.eliminations.iter().map(|e| (e.cell, e.value)).collect()
}

#[test]
fn naked_single_on_hand_made_position() {
    let solution = puzzles("seeds-solutions.txt")[0].clone();
    let mut g = solution.clone();
    g.set(2, 4, 0).unwrap();
    let c = Candidates::new(&g);
    let d = Technique::NakedSingle.find(&c).unwrap();
    assert_eq!(
        d.placements,
        [CellValue {
            cell: at(3, 5),
            value: 8
        }]
    );
    assert_eq!(d.reason, "r3c5: 8 is the only candidate left in this cell");
    assert!(Technique::NakedSingle.find(&empty9()).is_none());
}

#[test]
fn hidden_single_on_hand_made_position() {
    let mut c = empty9();
    for col in 1..=9 {
        if col != 5 {
            c.eliminate(at(3, col), 7);
        }
    }
    assert!(Technique::NakedSingle.find(&c).is_none());
    let d = Technique::HiddenSingle.find(&c).unwrap();
    assert_eq!(
        d.placements,
        [CellValue {
            cell: at(3, 5),
            value: 7
        }]
    );
    assert_eq!(d.reason, "r3c5: 7 is the only place for 7 in row 3");
}

#[test]
fn naked_pair_on_hand_made_position() {
    let mut c = empty9();
    restrict(&mut c, at(1, 1), &[1, 2]);
    restrict(&mut c, at(1, 7), &[1, 2]);
    let d = Technique::NakedPair.find(&c).unwrap();
    assert_eq!(d.cells, [at(1, 1), at(1, 7)]);
    assert_eq!(d.values, [1, 2]);
    let expected: Vec<(usize, u8)> = [2, 3, 4, 5, 6, 8, 9]
        .iter()
        .flat_map(|&col| [(at(1, col), 1), (at(1, col), 2)])
        .collect();
    assert_eq!(elims(&d), expected);
    assert!(d.reason.starts_with("r1c1 and r1c7 can only hold 1 and 2 between them, so no other cell of row 1 can: r1c2 -1 -2, r1c3 -1 -2"));
    assert!(
        Technique::NakedTriple.find(&c).is_none()
            || Technique::NakedTriple.find(&c).unwrap().values.len() == 3
    );
}

#[test]
fn naked_triple_on_hand_made_position() {
    let mut c = empty9();
    restrict(&mut c, at(1, 1), &[1, 2]);
    restrict(&mut c, at(1, 5), &[2, 3]);
    restrict(&mut c, at(1, 9), &[1, 3]);
    assert!(Technique::NakedPair.find(&c).is_none());
    let d = Technique::NakedTriple.find(&c).unwrap();
    assert_eq!(d.cells, [at(1, 1), at(1, 5), at(1, 9)]);
    assert_eq!(d.values, [1, 2, 3]);
    assert_eq!(d.eliminations.len(), 6 * 3);
    assert!(d.eliminations.iter().all(|e| e.cell < 9 && e.value <= 3));
}

#[test]
fn hidden_pair_on_hand_made_position() {
    let mut c = empty9();
    for col in 1..=9 {
        if col != 2 && col != 6 {
            c.eliminate(at(4, col), 3);
            c.eliminate(at(4, col), 8);
        }
    }
    let d = Technique::HiddenPair.find(&c).unwrap();
    assert_eq!(d.cells, [at(4, 2), at(4, 6)]);
    assert_eq!(d.values, [3, 8]);
    let removed: Vec<u8> = [1, 2, 4, 5, 6, 7, 9].into();
    let expected: Vec<(usize, u8)> = [at(4, 2), at(4, 6)]
        .iter()
        .flat_map(|&cell| removed.iter().map(move |&v| (cell, v)))
        .collect();
    assert_eq!(elims(&d), expected);
    assert!(
        d.reason
            .starts_with("in row 4, 3 and 8 can only go in r4c2 and r4c6")
    );
}

#[test]
fn hidden_triple_on_hand_made_position() {
    let mut c = empty9();
    for col in 4..=9 {
        for v in [1, 2, 3] {
            c.eliminate(at(9, col), v);
        }
    }
    assert!(Technique::HiddenPair.find(&c).is_none());
    let d = Technique::HiddenTriple.find(&c).unwrap();
    assert_eq!(d.cells, [at(9, 1), at(9, 2), at(9, 3)]);
    assert_eq!(d.values, [1, 2, 3]);
    assert_eq!(d.eliminations.len(), 3 * 6);
}

#[test]
fn pointing_on_hand_made_position() {
    let mut c = empty9();
    for row in [2, 3] {
        for col in 1..=3 {
            c.eliminate(at(row, col), 5);
        }
    }
    let d = Technique::Pointing.find(&c).unwrap();
    assert_eq!(d.cells, [at(1, 1), at(1, 2), at(1, 3)]);
    assert_eq!(d.values, [5]);
    let expected: Vec<(usize, u8)> = (4..=9).map(|col| (at(1, col), 5)).collect();
    assert_eq!(elims(&d), expected);
    assert!(d.reason.starts_with(
        "in box 1, 5 can only go in row 1 (r1c1, r1c2 and r1c3), so the rest of row 1 cannot hold it: r1c4 -5"
    ));
    // Column version.
    let mut c = empty9();
    for row in 4..=6 {
        for col in [4, 5] {
            c.eliminate(at(row, col), 9);
        }
    }
    let d = Technique::Pointing.find(&c).unwrap();
    assert_eq!(d.cells, [at(4, 6), at(5, 6), at(6, 6)]);
    assert_eq!(elims(&d).len(), 6);
    assert!(elims(&d).iter().all(|&(cell, v)| cell % 9 == 5 && v == 9));
}

#[test]
fn box_line_on_hand_made_position() {
    let mut c = empty9();
    for col in 4..=9 {
        c.eliminate(at(1, col), 5);
    }
    assert!(Technique::Pointing.find(&c).is_none());
    let d = Technique::BoxLine.find(&c).unwrap();
    assert_eq!(d.cells, [at(1, 1), at(1, 2), at(1, 3)]);
    let expected: Vec<(usize, u8)> = [2, 3]
        .iter()
        .flat_map(|&row| (1..=3).map(move |col| (at(row, col), 5)))
        .collect();
    assert_eq!(elims(&d), expected);
    assert!(d.reason.starts_with("in row 1, 5 can only go in box 1"));
}

/// Checks every technique on `c` against `solution`, then walks the logic path to the end
/// checking each applied deduction. Returns the techniques seen.
fn check_soundness(puzzle: &Grid, solution: &Grid, seen: &mut [usize; 8]) {
    let mut c = Candidates::new(puzzle);
    loop {
        for (i, cell) in solution.cells().iter().enumerate() {
            if !c.is_filled(i) {
                assert!(c.has(i, *cell), "{puzzle}: solution value lost at cell {i}");
            } else {
                assert_eq!(c.grid().cells()[i], *cell);
            }
        }
        for t in Technique::ALL {
            if let Some(d) = t.find(&c) {
                seen[t as usize] += 1;
                assert_eq!(d.technique, t);
                assert!(!d.placements.is_empty() || !d.eliminations.is_empty());
                for p in &d.placements {
                    assert_eq!(solution.cells()[p.cell], p.value, "{puzzle}: {}", d.reason);
                }
                for e in &d.eliminations {
                    assert_ne!(solution.cells()[e.cell], e.value, "{puzzle}: {}", d.reason);
                    assert!(c.has(e.cell, e.value), "elimination of a non-candidate");
                }
            }
        }
        match next_deduction(&c) {
            Some(d) => c.apply(&d),
            None => break,
        }
    }
    assert!(c.contradiction().is_none());
}

#[test]
fn techniques_are_sound_on_real_puzzles() {
    let mut cases: Vec<(Grid, Grid)> = Vec::new();
    for line in data("counts-sample.txt").lines() {
        let c = parse_counted_line(line).unwrap();
        if let Some(s) = c.solution {
            cases.push((c.puzzle, s));
        }
    }
    cases.push((
        puzzles("seeds.txt")[0].clone(),
        puzzles("seeds-solutions.txt")[0].clone(),
    ));
    let more = [
        "top95-sample.txt",
        "janko-16x16-sample.txt",
        "generated-25x25-375-sample.txt",
    ];
    for p in more
        .iter()
        .flat_map(|f| puzzles(f))
        .chain(puzzles("seeds.txt")[1..13].to_vec())
    {
        let (count, s) = solve(&p, 2);
        assert_eq!(count, 1, "{p}");
        cases.push((p, s.unwrap()));
    }
    let mut seen = [0usize; 8];
    for (p, s) in &cases {
        check_soundness(p, s, &mut seen);
    }
    // Every technique was exercised on real positions.
    for t in Technique::ALL {
        assert!(seen[t as usize] > 0, "{t} never applied: {seen:?}");
    }
}

#[test]
fn singles_solve_s2_and_seed000() {
    let seeds = puzzles("seeds.txt");
    let s2 = &seeds[11];
    let out = propagate_singles(s2);
    assert!(out.is_solved(), "{out:?}");
    assert!(out.grid().is_solution_of(s2));
    assert_eq!(out.filled(), 16 - s2.givens());
    // Seed 000's example needs more than singles: propagation stops early, but what it filled
    // agrees with the printed solution, and rating with pairs and pointing finishes it.
    let solution = &puzzles("seeds-solutions.txt")[0];
    let out = propagate_singles(&seeds[0]);
    assert!(matches!(out, SinglesOutcome::Stuck { filled: 11, .. }), "{out:?}");
    assert!(solution.satisfies(out.grid()));
    let r = rate_logic(&seeds[0]);
    assert_eq!(&r.grid, solution);
    // Several seed 001 puzzles are solved by singles alone.
    let solved = seeds[1..11]
        .iter()
        .filter(|p| propagate_singles(p).is_solved())
        .count();
    assert_eq!(solved, 7);
    // Seed 002 "solves" the empty grid; propagation alone cannot start.
    assert!(matches!(
        propagate_singles(&seeds[13]),
        SinglesOutcome::Stuck { filled: 0, .. }
    ));
}

#[test]
fn naked_singles_only_gets_stuck_on_harder_puzzles() {
    let mut stuck = 0;
    for p in puzzles("seeds.txt").iter().take(13) {
        let naked = propagate_naked_singles(p);
        let both = propagate_singles(p);
        assert!(naked.filled() <= both.filled());
        assert!(naked.grid().satisfies(p));
        if let SinglesOutcome::Stuck { grid, .. } = &naked {
            assert!(!grid.is_complete());
            stuck += 1;
        }
    }
    assert!(stuck >= 1);
    let top = &puzzles("top95-sample.txt")[0];
    assert!(matches!(
        propagate_naked_singles(top),
        SinglesOutcome::Stuck { .. }
    ));
}

#[test]
fn contradictions_are_reported() {
    // The last 4x4 example has no solution.
    let last = puzzles("4x4.txt").pop().unwrap();
    assert_eq!(solve(&last, 1).0, 0);
    assert!(!propagate_singles(&last).is_solved());
    let r = rate_logic(&last);
    assert!(r.stuck);
    // A blank with no candidate: r1c1 sees 2, 3 (row) and 4 (column) and 1 is... allowed, so
    // make it see 1 too through its box.
    let dead = parse_puzzle(".23.\n41..\n....\n....").unwrap();
    assert!(matches!(
        propagate_singles(&dead),
        SinglesOutcome::Contradiction {
            contradiction: Contradiction::NoCandidates { row: 1, col: 1 },
            ..
        }
    ));
    // A value with no place in a unit: in row 1, 3 and 4 both need r1c4... 4x4: 3 is banned
    // from r1c3 (column) and r1c4 (box), so row 1 has no place for it.
    let missing = parse_puzzle("12..\n..3.\n....\n....").unwrap();
    let c = Candidates::new(&missing);
    assert_eq!(
        c.contradiction(),
        Some(Contradiction::MissingValue {
            value: 3,
            unit: "row 1".into()
        })
    );
    // Conflicting givens.
    let mut wrong = Grid::empty(2).unwrap();
    wrong.set(0, 0, 1).unwrap();
    wrong.set(1, 1, 1).unwrap();
    assert!(matches!(
        propagate_singles(&wrong),
        SinglesOutcome::Contradiction {
            contradiction: Contradiction::Conflict { value: 1, .. },
            filled: 0,
            ..
        }
    ));
    let no = puzzles("no-solution-9x9.txt").pop().unwrap();
    assert_eq!(solve(&no, 1).0, 0);
}

#[test]
fn counts_sample_agrees_with_oracle() {
    for line in data("counts-sample.txt").lines() {
        let c = parse_counted_line(line).unwrap();
        if c.count <= 200 {
            let limit = c.count as usize + 1;
            assert_eq!(solve(&c.puzzle, limit).0 as u64, c.count, "{line}");
        }
    }
}

#[test]
fn rate_logic_reports_techniques() {
    let seeds = puzzles("seeds.txt");
    let r = rate_logic(&seeds[0]);
    assert!(!r.stuck && r.grid.is_solved());
    assert_eq!(r.filled, 54);
    assert_eq!(r.steps(), 54 + 6);
    assert_eq!(r.hardest, Some(Technique::Pointing));
    assert!(r.contradiction.is_none());
    assert_eq!(r.hardest, r.techniques.iter().map(|t| t.0).max());
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["techniques"][0][0], "naked-single");
    // Hard puzzles: rating gets stuck (needs guessing), but what it filled is right.
    let mut stuck = 0;
    for top in puzzles("top95-sample.txt") {
        let r = rate_logic(&top);
        let (_, s) = solve(&top, 1);
        assert!(s.unwrap().satisfies(&r.grid));
        if r.stuck {
            assert!(r.contradiction.is_none());
            assert!(!r.grid.is_complete());
            stuck += 1;
        } else {
            assert!(r.grid.is_solution_of(&top));
        }
    }
    assert!(stuck >= 10, "{stuck}");
    // The empty grid: nothing to do.
    let r = rate_logic(&seeds[13]);
    assert!(r.stuck && r.techniques.is_empty() && r.hardest.is_none());
}

#[test]
fn technique_names_and_weights() {
    let names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "naked-single",
            "hidden-single",
            "naked-pair",
            "hidden-pair",
            "pointing",
            "box-line",
            "naked-triple",
            "hidden-triple"
        ]
    );
    assert!(
        Technique::ALL
            .windows(2)
            .all(|w| w[0].difficulty() < w[1].difficulty())
    );
    assert_eq!(
        serde_json::to_string(&Technique::BoxLine).unwrap(),
        "\"box-line\""
    );
}

#[test]
fn hints() {
    let seeds = puzzles("seeds.txt");
    let solution = &puzzles("seeds-solutions.txt")[0];
    // Follow hints to the end, applying eliminations to the pencil marks: every step is right.
    let mut c = Candidates::new(&seeds[0]);
    let (mut placements, mut eliminations) = (0, 0);
    loop {
        match hint_for(&c) {
            Ok(h) if h.kind == HintKind::Placement => {
                assert_eq!(solution.get(h.row - 1, h.col - 1), h.value, "{}", h.reason);
                assert!(h.eliminations.is_empty());
                c.place((h.row - 1) * 9 + h.col - 1, h.value);
                placements += 1;
            }
            Ok(h) => {
                for e in &h.eliminations {
                    assert_ne!(solution.get(e.row - 1, e.col - 1), e.value, "{}", h.reason);
                    assert!(c.eliminate((e.row - 1) * 9 + e.col - 1, e.value));
                }
                eliminations += 1;
            }
            Err(e) => {
                assert_eq!(e, HintError::Solved);
                break;
            }
        }
    }
    assert_eq!((placements, eliminations), (54, 6));
    assert_eq!(c.grid(), solution);
    // On a grid that singles can finish, next_hint alone leads to the solution.
    let s2 = &seeds[11];
    let mut g = s2.clone();
    while let Ok(h) = next_hint(&g) {
        assert_eq!(h.kind, HintKind::Placement);
        g.set(h.row - 1, h.col - 1, h.value).unwrap();
    }
    assert!(g.is_solution_of(s2));
    assert_eq!(next_hint(&g), Err(HintError::Solved));
    // JSON shape.
    let h = next_hint(&seeds[0]).unwrap();
    let json = serde_json::to_value(&h).unwrap();
    assert_eq!(json["kind"], "placement");
    for key in ["row", "col", "value", "technique", "reason"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert!(json.get("eliminations").is_none());
    // A wrong entry: two 7s in row 1.
    let mut wrong = seeds[0].clone();
    wrong.set(0, 0, 1).unwrap(); // r1c7 holds 1
    let err = next_hint(&wrong).unwrap_err();
    assert!(
        matches!(
            err,
            HintError::Contradiction(Contradiction::Conflict { value: 1, .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("appears twice in row 1"));
    // A wrong entry without a repeated value that leaves a cell with no candidate.
    let s2 = &seeds[11];
    let (_, s2_solution) = solve(s2, 1);
    let s2_solution = s2_solution.unwrap();
    let mut dead_found = false;
    for cell in (0..16).filter(|&i| s2.cells()[i] == 0) {
        for value in (1..=4).filter(|&v| v != s2_solution.cells()[cell]) {
            let mut wrong = s2.clone();
            wrong.set_cell(cell, value).unwrap();
            if !wrong.is_consistent() {
                assert!(matches!(
                    next_hint(&wrong),
                    Err(HintError::Contradiction(Contradiction::Conflict { .. }))
                ));
                continue;
            }
            if let Err(HintError::Contradiction(Contradiction::NoCandidates { .. })) = next_hint(&wrong) {
                dead_found = true;
            }
        }
    }
    assert!(dead_found);
    // The empty grid: no logical step.
    assert_eq!(next_hint(&seeds[13]), Err(HintError::Stuck));
}

#[test]
fn elimination_hints() {
    // Find a real position where no single applies but an elimination does.
    for p in puzzles("top95-sample.txt") {
        let (_, s) = solve(&p, 1);
        let s = s.unwrap();
        let g = match propagate_singles(&p) {
            SinglesOutcome::Stuck { grid, .. } => grid,
            _ => continue,
        };
        let Ok(h) = next_hint(&g) else { continue };
        assert_eq!(h.kind, HintKind::Elimination);
        assert!(!h.technique.places());
        let first = h.eliminations[0];
        assert_eq!((h.row, h.col, h.value), (first.row, first.col, first.value));
        for e in &h.eliminations {
            assert_ne!(s.get(e.row - 1, e.col - 1), e.value);
        }
        let json = serde_json::to_value(&h).unwrap();
        assert_eq!(json["kind"], "elimination");
        assert!(json["eliminations"].as_array().is_some_and(|a| !a.is_empty()));
        return;
    }
    panic!("no elimination hint found");
}

/// A solved grid of any order: a relabelled pattern, so boxes, rows and columns all vary.
fn pattern(order: usize, labels: &[u8]) -> Grid {
    let size = order * order;
    let cells = (0..size * size)
        .map(|i| {
            let (r, c) = (i / size, i % size);
            labels[(order * (r % order) + r / order + c) % size]
        })
        .collect();
    Grid::from_cells(order, cells).unwrap()
}

#[test]
fn largest_boards() {
    let order = 8;
    let labels: Vec<u8> = (1..=64).rev().collect();
    let solution = pattern(order, &labels);
    assert!(solution.is_solved());
    let mut puzzle = solution.clone();
    for i in (0..4096).step_by(7) {
        puzzle.set_cell(i, 0).unwrap();
    }
    let out = propagate_singles(&puzzle);
    assert_eq!(out.grid(), &solution);
    let r = rate_logic(&puzzle);
    assert!(!r.stuck && r.grid == solution);
    let h = next_hint(&puzzle).unwrap();
    assert_eq!(solution.get(h.row - 1, h.col - 1), h.value);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A deduction holds in every solution, so the pattern a puzzle was cut from is an oracle
    /// even when the puzzle has many solutions.
    #[test]
    fn deductions_hold_in_every_solution(
        order in 2usize..=4,
        seed in proptest::prelude::any::<u64>(),
        keep_percent in 20u64..70,
    ) {
        use rand::{RngExt, SeedableRng, seq::SliceRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let size = order * order;
        let mut labels: Vec<u8> = (1..=size as u8).collect();
        labels.shuffle(&mut rng);
        let solution = pattern(order, &labels);
        let mut puzzle = solution.clone();
        for i in 0..size * size {
            if rng.random_range(0..100) >= keep_percent {
                puzzle.set_cell(i, 0).unwrap();
            }
        }
        let mut seen = [0; 8];
        check_soundness(&puzzle, &solution, &mut seen);
        let out = propagate_singles(&puzzle);
        proptest::prop_assert!(solution.satisfies(out.grid()));
        let contradiction = matches!(out, SinglesOutcome::Contradiction { .. });
        proptest::prop_assert!(!contradiction, "{:?}", out);
    }
}
