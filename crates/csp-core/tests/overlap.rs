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
    solver.solutions().expect("no restarts").collect()
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
