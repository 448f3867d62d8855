//! The implied constraint between two overlapping all-different constraints
//! ([`csp_core::PermutationOverlap`], posted by `Model::link_all_different`), checked
//! against brute force: it never changes the solutions, it never removes a value that
//! some solution uses, and it removes the values locked in the shared part (Sudoku's
//! "pointing" and "box-line reduction"), on one-word domains and on wide ones.

use std::collections::BTreeSet;

use csp_core::{Domain, Model, SearchConfig, Solver, Strategy as SearchStrategy, Strength, VarId, ac3};
use proptest::prelude::*;

/// Two all-different constraints: `A` over variables `0..a_len`, `B` over the last
/// `shared` variables of `A` and `b_only` more.
#[derive(Clone, Debug)]
struct Instance {
    domains: Vec<Vec<i32>>,
    a_len: usize,
    shared: usize,
}

impl Instance {
    fn a(&self) -> std::ops::Range<usize> {
        0..self.a_len
    }

    fn b(&self) -> std::ops::Range<usize> {
        self.a_len - self.shared..self.domains.len()
    }

    /// The model with both all-different constraints, linked or not; values are
    /// multiplied by `scale`. At scale 1 every variable is `1..=max` with the missing
    /// values excluded, so all domains are one word at one base (the bit-parallel path);
    /// a large scale spreads them over several words (the value-by-value path).
    fn model(&self, strength: Strength, linked: bool, scale: i32) -> Model {
        let mut m = Model::new();
        let max = self.domains.iter().flatten().copied().max().unwrap_or(1);
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| {
                if scale == 1 {
                    let var = m.int_var(1, max).expect("a range");
                    for v in (1..=max).filter(|v| !d.contains(v)) {
                        m.exclude(var, v).expect("a model variable");
                    }
                    var
                } else {
                    m.add_var(Domain::from_values(d.iter().map(|&v| v * scale)).expect("non-empty"))
                }
            })
            .collect();
        let (a, b) = (&vars[self.a()], &vars[self.b()]);
        m.all_different_nary(a, strength).expect("model variables");
        m.all_different_nary(b, strength).expect("model variables");
        if linked {
            assert!(m.link_all_different(a, b).expect("model variables"));
        }
        m
    }

    /// Every assignment with `A` and `B` all different.
    fn brute_force(&self) -> Vec<Vec<i32>> {
        fn go(inst: &Instance, values: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
            let i = values.len();
            if i == inst.domains.len() {
                out.push(values.clone());
                return;
            }
            for &v in &inst.domains[i] {
                // Earlier variables of each constraint that `i` belongs to must differ.
                let a_clash = inst.a().contains(&i) && values[inst.a().start..i].contains(&v);
                let b_clash = inst.b().contains(&i) && values[inst.b().start..i].contains(&v);
                if !a_clash && !b_clash {
                    values.push(v);
                    go(inst, values, out);
                    values.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(self, &mut Vec::new(), &mut out);
        out
    }
}

/// `A` is usually a permutation (its values are `1..=a_len`), so locking happens often.
fn instance() -> impl Strategy<Value = Instance> {
    (2usize..=5, 1usize..=3, 1usize..=3).prop_flat_map(|(a_len, shared, b_only)| {
        let shared = shared.min(a_len - 1);
        let n = a_len + b_only;
        let max_value = (a_len.max(shared + b_only) + 1) as i32;
        let domain = proptest::collection::btree_set(1..=max_value, 1..=max_value as usize)
            .prop_map(|s| s.into_iter().collect::<Vec<i32>>());
        proptest::collection::vec(domain, n).prop_map(move |domains| Instance {
            domains,
            a_len,
            shared,
        })
    })
}

fn all_solutions(model: &Model) -> BTreeSet<Vec<i32>> {
    let config = SearchConfig::with_strategy("mrv/asc/mac".parse::<SearchStrategy>().expect("a strategy"));
    let mut solver = Solver::new(model, config).expect("a valid configuration");
    solver.solutions().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn linking_keeps_solutions_and_prunes_soundly(inst in instance(), strength_index in 0usize..3) {
        let strength = Strength::ALL[strength_index];
        for scale in [1, 100] {
            let expected: BTreeSet<Vec<i32>> = inst
                .brute_force()
                .into_iter()
                .map(|s| s.into_iter().map(|v| v * scale).collect())
                .collect();
            let linked = inst.model(strength, true, scale);
            prop_assert_eq!(&all_solutions(&linked), &expected, "linked, scale {}", scale);
            prop_assert_eq!(&all_solutions(&inst.model(strength, false, scale)), &expected);
            let report = ac3(&linked);
            prop_assert_eq!(report.consistent || expected.is_empty(), true);
            if report.consistent {
                for solution in &expected {
                    for (i, &v) in solution.iter().enumerate() {
                        let domain = report.domains[i].as_ref().expect("consistent");
                        prop_assert!(domain.contains(v), "x{} lost {} used by {:?}", i, v, solution);
                    }
                }
            }
        }
    }

    #[test]
    fn word_and_value_paths_prune_alike(inst in instance()) {
        let narrow = ac3(&inst.model(Strength::Value, true, 1));
        let wide = ac3(&inst.model(Strength::Value, true, 100));
        prop_assert_eq!(narrow.consistent, wide.consistent);
        if narrow.consistent {
            for (n, w) in narrow.domains.iter().zip(&wide.domains) {
                let n: Vec<i32> = n.as_ref().expect("consistent").values().map(|v| v * 100).collect();
                let w: Vec<i32> = w.as_ref().expect("consistent").values().collect();
                prop_assert_eq!(n, w);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A lone pair as a group: apart from the shared part, its sides are single variables.
    #[test]
    fn a_lone_pair_in_a_group_prunes_as_the_pair(inst in instance()) {
        let mut grouped = inst.model(Strength::Value, false, 1);
        let vars: Vec<VarId> = grouped.vars().collect();
        let (a, b) = (&vars[inst.a()], &vars[inst.b()]);
        prop_assert_eq!(grouped.link_all_different_pairs([(a, b)]).expect("model variables"), 1);
        same_fixpoint(&inst.model(Strength::Value, true, 1), &grouped)?;
    }
}

/// Value 5 fits only the shared part of `A` (a permutation of 1..=5), so it leaves the
/// rest of `B`, which all-different on either side alone cannot see.
#[test]
fn a_value_locked_in_the_shared_part_leaves_the_other_constraint() {
    let inst = Instance {
        domains: vec![
            vec![1, 2, 3, 4],
            vec![1, 2, 3, 4],
            vec![1, 2, 3, 4],
            vec![1, 2, 3, 4, 5],
            vec![1, 2, 3, 4, 5],
            vec![4, 5],
        ],
        a_len: 5,
        shared: 2,
    };
    for scale in [1, 100] {
        let values = |m: &Model| -> Vec<i32> {
            let report = ac3(m);
            assert!(report.consistent);
            report.domains[5].as_ref().expect("consistent").values().collect()
        };
        assert_eq!(
            values(&inst.model(Strength::Gac, false, scale)),
            vec![4 * scale, 5 * scale]
        );
        assert_eq!(values(&inst.model(Strength::Gac, true, scale)), vec![4 * scale]);
    }
}

/// A Sudoku of box side `order` with the given candidate sets: rows, columns and boxes all
/// different, each box linked with the rows and columns it crosses, pair by pair or as one
/// group.
fn sudoku_model(order: usize, domains: &[Vec<i32>], grouped: bool, scale: i32) -> Model {
    let side = order * order;
    let mut m = Model::new();
    // At scale 1 every domain is `1..=side` with values excluded: one word at one base
    // (the layout where the group reads shared-part unions).
    let cells: Vec<VarId> = domains
        .iter()
        .map(|d| {
            if scale == 1 {
                let var = m.int_var(1, side as i32).expect("a range");
                for v in (1..=side as i32).filter(|v| !d.contains(v)) {
                    m.exclude(var, v).expect("a model variable");
                }
                var
            } else {
                m.add_var(Domain::from_values(d.iter().map(|&v| v * scale)).expect("non-empty"))
            }
        })
        .collect();
    let cell = |r: usize, c: usize| cells[r * side + c];
    let mut units: Vec<Vec<VarId>> = Vec::new();
    units.extend((0..side).map(|r| (0..side).map(|c| cell(r, c)).collect()));
    units.extend((0..side).map(|c| (0..side).map(|r| cell(r, c)).collect()));
    units.extend((0..side).map(|b| {
        (0..side)
            .map(|k| cell(b / order * order + k / order, b % order * order + k % order))
            .collect()
    }));
    for u in &units {
        m.all_different_nary(u, Strength::Value).expect("model variables");
    }
    let pairs: Vec<(&[VarId], &[VarId])> = (2 * side..3 * side)
        .flat_map(|b| (0..2 * side).map(move |line| (b, line)))
        .map(|(b, line)| (&units[b][..], &units[line][..]))
        .collect();
    let crossing = 2 * side * order;
    if grouped {
        assert_eq!(
            m.link_all_different_pairs(pairs).expect("model variables"),
            crossing
        );
    } else {
        let linked = pairs
            .iter()
            .filter(|(a, b)| m.link_all_different(a, b).expect("model variables"))
            .count();
        assert_eq!(
            linked, crossing,
            "each box crosses `order` rows and `order` columns"
        );
    }
    m
}

/// A solution (a pattern grid with its symbols permuted by `symbols`) plus the `extra`
/// candidates: always solvable, and rich in locked values.
fn candidates(order: usize, symbols: &[i32], extra: &[BTreeSet<i32>]) -> Vec<Vec<i32>> {
    let side = order * order;
    (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            let value = symbols[(r * order + r / order + c) % side];
            let mut d = extra[i].clone();
            d.insert(value);
            d.into_iter().collect()
        })
        .collect()
}

fn same_fixpoint(a: &Model, b: &Model) -> Result<(), TestCaseError> {
    let (a, b) = (ac3(a), ac3(b));
    prop_assert_eq!(a.consistent, b.consistent);
    if a.consistent {
        for (x, y) in a.domains.iter().zip(&b.domains) {
            let x: Vec<i32> = x.as_ref().expect("consistent").values().collect();
            let y: Vec<i32> = y.as_ref().expect("consistent").values().collect();
            prop_assert_eq!(x, y);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The group prunes exactly what its pairs prune one by one (the fixpoint is unique),
    /// on one-word domains (shared-part unions) and on wide ones (pair by pair), and keeps
    /// the same solutions.
    #[test]
    fn grouped_links_prune_as_the_pairs_do_4x4(
        symbols in Just((1..=4).collect::<Vec<i32>>()).prop_shuffle(),
        extra in proptest::collection::vec(proptest::collection::btree_set(1..=4i32, 0..=3), 16),
    ) {
        let domains = candidates(2, &symbols, &extra);
        for scale in [1, 100] {
            let single = sudoku_model(2, &domains, false, scale);
            let grouped = sudoku_model(2, &domains, true, scale);
            same_fixpoint(&single, &grouped)?;
            prop_assert_eq!(all_solutions(&single), all_solutions(&grouped), "scale {}", scale);
        }
    }

    #[test]
    fn grouped_links_prune_as_the_pairs_do_9x9(
        symbols in Just((1..=9).collect::<Vec<i32>>()).prop_shuffle(),
        extra in proptest::collection::vec(proptest::collection::btree_set(1..=9i32, 0..=4), 81),
    ) {
        let domains = candidates(3, &symbols, &extra);
        for scale in [1, 100] {
            same_fixpoint(&sudoku_model(3, &domains, false, scale), &sudoku_model(3, &domains, true, scale))?;
        }
    }
}

/// Row 1 of a 4x4 board can place 1 and 2 only in the first box, so they leave that box's
/// other row ("box-line reduction"), though no box locks anything.
#[test]
fn a_line_locks_values_in_a_box_in_a_group() {
    let full = vec![1, 2, 3, 4];
    let mut domains = vec![full; 16];
    domains[0] = vec![1, 2];
    domains[1] = vec![1, 2];
    domains[2] = vec![3, 4];
    domains[3] = vec![3, 4];
    for scale in [1, 100] {
        for grouped in [false, true] {
            let report = ac3(&sudoku_model(2, &domains, grouped, scale));
            assert!(report.consistent);
            let values =
                |i: usize| -> Vec<i32> { report.domains[i].as_ref().expect("consistent").values().collect() };
            for cell in [4, 5] {
                assert_eq!(
                    values(cell),
                    vec![3 * scale, 4 * scale],
                    "grouped {grouped}, scale {scale}"
                );
            }
            for cell in [6, 7] {
                assert_eq!(
                    values(cell),
                    vec![scale, 2 * scale],
                    "grouped {grouped}, scale {scale}"
                );
            }
        }
    }
}

#[test]
fn a_link_is_trusted_without_a_check_only_when_both_constraints_are_posted_first() {
    // Over x0, x1, x2 in 1..=2: x0 != x1 and x1 != x2 leave (1, 2, 1) and (2, 1, 2).
    let (a, b) = ([0, 1], [1, 2]);
    let expected: BTreeSet<Vec<i32>> = [vec![1, 2, 1], vec![2, 1, 2]].into();
    for grouped in [false, true] {
        for posted in ["none", "before", "after"] {
            let mut m = Model::new();
            let x: Vec<VarId> = (0..3).map(|_| m.int_var(1, 2).expect("a range")).collect();
            let scope = |ix: [usize; 2]| ix.map(|i| x[i]);
            let post = |m: &mut Model| {
                for ix in [a, b] {
                    m.all_different_nary(&scope(ix), Strength::Value)
                        .expect("model variables");
                }
            };
            if posted == "before" {
                post(&mut m);
            }
            let (sa, sb) = (scope(a), scope(b));
            if grouped {
                assert_eq!(
                    m.link_all_different_pairs([(&sa[..], &sb[..])])
                        .expect("model variables"),
                    1
                );
            } else {
                assert!(m.link_all_different(&sa, &sb).expect("model variables"));
            }
            if posted == "after" {
                post(&mut m);
            }
            let link = m
                .propagators()
                .iter()
                .find(|p| p.name().starts_with("permutation-overlap"));
            let trusted = link.expect("the link").prunes_exactly();
            assert_eq!(trusted, posted == "before", "grouped {grouped}, posted {posted}");
            // Either way, every strategy keeps exactly the assignments both constraints allow.
            for text in ["static/asc/none", "static/asc/fc", "mrv/asc/mac"] {
                let config = SearchConfig::with_strategy(text.parse::<SearchStrategy>().expect("a strategy"));
                let mut solver = Solver::new(&m, config).expect("a valid configuration");
                let found: BTreeSet<Vec<i32>> = solver.solutions().collect();
                assert_eq!(found, expected, "grouped {grouped}, posted {posted}, {text}");
            }
        }
    }
}
