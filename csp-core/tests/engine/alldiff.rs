//! All-different propagation checked against brute force: generalised arc consistency
//! keeps exactly the values that appear in some all-different assignment, on both the
//! bit-parallel path (views within one 64-value window, single-word domains) and the
//! general path (wide or multi-word domains, far-apart views).

use std::collections::BTreeSet;

use csp_core::{
    Domain, Model, Outcome, Relation, SearchConfig, Solver, Strategy as SearchStrategy, Strength, ac3,
};
use proptest::prelude::*;

/// One all-different constraint over views `x_i + offsets[i]`.
#[derive(Clone, Debug)]
struct Instance {
    domains: Vec<Vec<i32>>,
    offsets: Vec<i32>,
}

impl Instance {
    /// The same constraint with every value and offset multiplied by `k` (same
    /// structure, views spread `k` times wider).
    fn scaled(&self, k: i32) -> Instance {
        Instance {
            domains: self
                .domains
                .iter()
                .map(|d| d.iter().map(|&a| a * k).collect())
                .collect(),
            offsets: self.offsets.iter().map(|&o| o * k).collect(),
        }
    }

    /// For each variable, the values used by some all-different assignment
    /// (all empty when there is none).
    fn supports(&self) -> Vec<BTreeSet<i32>> {
        fn go(
            inst: &Instance,
            i: usize,
            views: &mut Vec<i64>,
            values: &mut Vec<i32>,
            out: &mut Vec<BTreeSet<i32>>,
        ) {
            if i == inst.domains.len() {
                for (set, &a) in out.iter_mut().zip(values.iter()) {
                    set.insert(a);
                }
                return;
            }
            for &a in &inst.domains[i] {
                let view = i64::from(a) + i64::from(inst.offsets[i]);
                if views.contains(&view) {
                    continue;
                }
                views.push(view);
                values.push(a);
                go(inst, i + 1, views, values, out);
                views.pop();
                values.pop();
            }
        }
        let mut out = vec![BTreeSet::new(); self.domains.len()];
        go(self, 0, &mut Vec::new(), &mut Vec::new(), &mut out);
        out
    }

    /// A model with this constraint at `strength`, plus (optionally) an extra variable
    /// in the constraint whose values are far from every other view: it never competes
    /// for a value, but it forces the general (wide) path.
    fn model(&self, strength: Strength, far_var: bool) -> (Model, Vec<csp_core::VarId>) {
        let mut m = Model::new();
        let mut vars: Vec<_> = self
            .domains
            .iter()
            .map(|d| m.add_var(Domain::from_values(d.iter().copied()).unwrap()))
            .collect();
        let mut offsets = self.offsets.clone();
        if far_var {
            vars.push(m.add_var(Domain::from_values([5_000, 5_200]).unwrap()));
            offsets.push(0);
        }
        m.all_different_offsets(&vars, &offsets, strength).unwrap();
        (m, vars)
    }
}

/// The domains after [`ac3`], or `None` when it reports a wipe-out.
fn propagated(inst: &Instance, strength: Strength, far_var: bool) -> Option<Vec<BTreeSet<i32>>> {
    let (m, vars) = inst.model(strength, far_var);
    let report = ac3(&m);
    if !report.consistent {
        return None;
    }
    Some(
        vars.iter()
            .take(inst.domains.len())
            .map(|v| {
                report.domains[v.index()]
                    .as_ref()
                    .expect("consistent")
                    .values()
                    .collect()
            })
            .collect(),
    )
}

fn instance(values: std::ops::RangeInclusive<i32>, max_size: usize) -> impl Strategy<Value = Instance> {
    (2usize..=6).prop_flat_map(move |n| {
        (
            prop::collection::vec(prop::collection::btree_set(values.clone(), 1..=max_size), n),
            prop::collection::vec(-3i32..=3, n),
        )
            .prop_map(|(domains, offsets)| Instance {
                domains: domains.into_iter().map(|d| d.into_iter().collect()).collect(),
                offsets,
            })
    })
}

fn tight() -> impl Strategy<Value = Instance> {
    (2usize..=6, 0i32..=1).prop_flat_map(|(n, extra)| {
        let values = n as i32 + extra;
        (
            prop::collection::vec(prop::collection::btree_set(0..values, 1..=3), n),
            prop::collection::vec(prop::sample::select(vec![0, 0, 1, -2]), n),
        )
            .prop_map(|(domains, offsets)| Instance {
                domains: domains.into_iter().map(|d| d.into_iter().collect()).collect(),
                offsets,
            })
    })
}

/// Checks GAC against the oracle; `None` from propagation must mean "no assignment".
fn assert_gac(inst: &Instance, got: Option<Vec<BTreeSet<i32>>>, what: &str) {
    let expected = inst.supports();
    let satisfiable = expected.iter().all(|s| !s.is_empty());
    match got {
        None => assert!(!satisfiable, "{what}: wiped out, but {expected:?} are supported"),
        Some(domains) => {
            assert!(
                satisfiable,
                "{what}: consistent {domains:?}, but no all-different assignment exists"
            );
            assert_eq!(domains, expected, "{what}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every remaining value has a support and every supported value remains, on the
    /// one-word path, on the same instance spread 40 times wider (multi-word domains,
    /// general path), and with a far-away extra variable (general path, same domains).
    #[test]
    fn gac_keeps_exactly_the_supported_values(inst in instance(-3..=8, 5)) {
        let narrow = propagated(&inst, Strength::Gac, false);
        assert_gac(&inst, narrow.clone(), "one word");

        let wide_inst = inst.scaled(40);
        let wide = propagated(&wide_inst, Strength::Gac, false);
        assert_gac(&wide_inst, wide.clone(), "scaled by 40");

        let far = propagated(&inst, Strength::Gac, true);
        assert_gac(&inst, far.clone(), "with a far variable");
        prop_assert_eq!(&narrow, &far);
        let unscaled = wide.map(|ds| ds.into_iter().map(|d| d.into_iter().map(|a| a / 40).collect()).collect());
        prop_assert_eq!(&narrow, &unscaled);
    }

    /// Tight instances (as many values as variables, or one more): no free value or
    /// just one, so pruning rests on alternating cycles and Hall sets.
    #[test]
    fn gac_on_tight_instances(inst in tight()) {
        assert_gac(&inst, propagated(&inst, Strength::Gac, false), "one word");
        let wide = inst.scaled(70);
        assert_gac(&wide, propagated(&wide, Strength::Gac, false), "scaled by 70");
    }

    /// The weaker strengths never remove a supported value, and GAC prunes at least as
    /// much as they do.
    #[test]
    fn weaker_strengths_are_sound(inst in instance(-3..=8, 5), scale in prop::sample::select(vec![1, 40])) {
        let inst = inst.scaled(scale);
        let expected = inst.supports();
        let gac = propagated(&inst, Strength::Gac, false);
        for strength in [Strength::Value, Strength::Hidden] {
            match propagated(&inst, strength, false) {
                None => prop_assert!(expected.iter().any(BTreeSet::is_empty), "{strength} wiped out a satisfiable instance"),
                Some(domains) => {
                    for (d, s) in domains.iter().zip(&expected) {
                        prop_assert!(s.is_subset(d), "{strength} removed a supported value: {d:?} vs {s:?}");
                    }
                    if let Some(g) = &gac {
                        for (d, s) in domains.iter().zip(g) {
                            prop_assert!(s.is_subset(d));
                        }
                    }
                }
            }
        }
    }
}

/// Whether the views of `domains` (plain, no offsets) admit an all-different assignment
/// with `domains[fixed.0] = fixed.1`: a bipartite matching by Kuhn's augmenting paths,
/// polynomial, so usable on instances too large to enumerate.
fn matchable(domains: &[Vec<i32>], fixed: (usize, i32)) -> bool {
    fn augment(
        x: usize,
        domains: &[Vec<i32>],
        owner: &mut std::collections::HashMap<i32, usize>,
        seen: &mut BTreeSet<i32>,
    ) -> bool {
        for &a in &domains[x] {
            if seen.insert(a) {
                let free = match owner.get(&a) {
                    None => true,
                    Some(&y) => augment(y, domains, owner, seen),
                };
                if free {
                    owner.insert(a, x);
                    return true;
                }
            }
        }
        false
    }
    let mut domains = domains.to_vec();
    domains[fixed.0] = vec![fixed.1];
    let mut owner = std::collections::HashMap::new();
    (0..domains.len()).all(|x| augment(x, &domains, &mut owner, &mut BTreeSet::new()))
}

/// Instances with 7..=40 variables, each domain a few values around a planted
/// permutation (so most are satisfiable), values within one 64-bit word.
fn planted() -> impl Strategy<Value = Instance> {
    (7usize..=40, 0usize..=3).prop_flat_map(|(n, extra)| {
        let values = (n + extra) as i32;
        (
            Just((0..values).collect::<Vec<i32>>()).prop_shuffle(),
            prop::collection::vec(prop::collection::btree_set(0..values, 0..=3), n),
        )
            .prop_map(move |(perm, others)| Instance {
                domains: others
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut d)| {
                        d.insert(perm[i]);
                        d.into_iter().collect()
                    })
                    .collect(),
                offsets: vec![0; n],
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Larger instances (up to 40 variables: both sizes of the one-word path): GAC keeps
    /// exactly the values that extend to a matching, and the one-word and general paths
    /// agree.
    #[test]
    fn gac_on_larger_instances_agrees_with_matching(inst in planted()) {
        let narrow = propagated(&inst, Strength::Gac, false);
        let far = propagated(&inst, Strength::Gac, true);
        prop_assert_eq!(&narrow, &far);
        let satisfiable = inst.domains.iter().enumerate().any(|(i, d)| matchable(&inst.domains, (i, d[0])));
        match narrow {
            None => prop_assert!(!satisfiable),
            Some(domains) => {
                for (i, d) in inst.domains.iter().enumerate() {
                    let expected: BTreeSet<i32> = d.iter().copied().filter(|&a| matchable(&inst.domains, (i, a))).collect();
                    prop_assert_eq!(&domains[i], &expected, "x{}", i);
                }
            }
        }
    }
}

fn domains_after(m: &Model) -> Option<Vec<Vec<i32>>> {
    let report = ac3(m);
    report.consistent.then(|| {
        report
            .domains
            .iter()
            .map(|d| d.as_ref().unwrap().values().collect())
            .collect()
    })
}

#[test]
fn hall_set_removes_its_values_from_the_others() {
    let mut m = Model::new();
    let a = m.add_var(Domain::from_values([1, 2]).unwrap());
    let b = m.add_var(Domain::from_values([1, 2]).unwrap());
    let c = m.add_var(Domain::from_values([1, 2, 3]).unwrap());
    let d = m.int_var(1, 9).unwrap();
    m.all_different_nary(&[a, b, c, d], Strength::Gac).unwrap();
    let ds = domains_after(&m).unwrap();
    assert_eq!(ds[2], vec![3]);
    assert_eq!(ds[3], (4..=9).collect::<Vec<_>>());
}

#[test]
fn an_assigned_value_leaves_a_unit_with_no_other_slack() {
    // After a = 1, b and c form one component over {2, 3} with no free value: GAC has
    // nothing to prune but the value a took, and must still prune that.
    let mut m = Model::new();
    let vars = m.int_vars(3, 1, 3).unwrap();
    m.all_different_nary(&vars, Strength::Gac).unwrap();
    let mut s = Solver::new(&m, SearchConfig::with_strategy("static/asc/mac".parse().unwrap())).unwrap();
    assert_eq!(s.solve(), Outcome::Solved(vec![1, 2, 3]));
    // a = 1, b = 2, c = 3: no value is tried and undone.
    assert_eq!((s.stats().nodes, s.stats().backtracks), (3, 0));
}

#[test]
fn sixty_four_variables_fill_one_word() {
    // x_i in {i, i+1} for i < 63, x_63 = {63}: the only matching is x_i = i.
    let mut m = Model::new();
    let mut vars: Vec<_> = (0..63)
        .map(|i| m.add_var(Domain::from_values([i, i + 1]).unwrap()))
        .collect();
    vars.push(m.add_var(Domain::from_values([63]).unwrap()));
    m.all_different_nary(&vars, Strength::Gac).unwrap();
    let ds = domains_after(&m).unwrap();
    assert!(ds.iter().enumerate().all(|(i, d)| d == &vec![i as i32]));

    // One more variable over the same 64 values cannot be matched.
    let extra = m.int_var(0, 63).unwrap();
    vars.push(extra);
    m.all_different_nary(&vars, Strength::Gac).unwrap();
    assert!(!ac3(&m).consistent);
}

#[test]
fn a_hundred_variables_on_multi_word_domains() {
    let n = 100;
    let mut m = Model::new();
    let mut vars: Vec<_> = (0..n - 1)
        .map(|i| m.add_var(Domain::from_values([i, i + 1]).unwrap()))
        .collect();
    vars.push(m.add_var(Domain::from_values([n - 1]).unwrap()));
    // A wide variable that takes whatever is left above n.
    vars.push(m.int_var(-5, 3 * n).unwrap());
    m.all_different_nary(&vars, Strength::Gac).unwrap();
    let ds = domains_after(&m).unwrap();
    for (i, d) in ds.iter().take(n as usize).enumerate() {
        assert_eq!(d, &vec![i as i32]);
    }
    let wide: Vec<i32> = (-5..0).chain(n..=3 * n).collect();
    assert_eq!(ds[n as usize], wide);
}

#[test]
fn hidden_strength_fails_a_view_two_values_need() {
    // a holds 1 and 2, which no other variable can take: both must go to a. No variable
    // is single, so only the hidden-single rule applied in full sees it. The word path
    // (one base, values 1..=4) and the general path (values 64 apart) agree.
    for spread in [1, 64] {
        let mut m = Model::new();
        let vars = if spread == 1 {
            let vars = m.int_vars(4, 1, 4).unwrap();
            for (i, &v) in vars.iter().enumerate() {
                let gone = if i == 0 { [3, 4] } else { [1, 2] };
                gone.iter().for_each(|&x| m.exclude(v, x).unwrap());
            }
            vars
        } else {
            let a = m.add_var(Domain::from_values([spread, 2 * spread]).unwrap());
            let mut vars = vec![a];
            vars.extend((0..3).map(|_| m.add_var(Domain::from_values([3 * spread, 4 * spread]).unwrap())));
            vars
        };
        m.all_different_nary(&vars, Strength::Hidden).unwrap();
        let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
        assert_eq!(s.solve(), Outcome::Unsatisfiable, "spread {spread}");
        assert_eq!(s.stats().nodes, 0, "spread {spread}: failed at the root");
    }
}

#[test]
fn pigeonhole_fails_at_the_root_without_nodes() {
    for n in [5, 70] {
        let mut m = Model::new();
        let vars = m.int_vars(n, 1, n as i32 - 1).unwrap();
        m.all_different_nary(&vars, Strength::Gac).unwrap();
        assert!(!ac3(&m).consistent);
        let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
        assert_eq!(s.solve(), Outcome::Unsatisfiable);
        assert_eq!(s.stats().nodes, 0);
    }
}

/// n-queens with three all-different constraints over `x_i`, `x_i + i`, `x_i - i`.
fn queens_nary(n: usize, strength: Strength) -> Model {
    let mut m = Model::new();
    let q = m.int_vars(n, 0, n as i32 - 1).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
    m.all_different_offsets(&q, &vec![0; n], strength).unwrap();
    m.all_different_offsets(&q, &up, strength).unwrap();
    m.all_different_offsets(&q, &down, strength).unwrap();
    m
}

#[test]
fn gac_queens_counts_92_under_every_strategy() {
    let m = queens_nary(8, Strength::Gac);
    for strategy in SearchStrategy::textbook() {
        let mut s = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
        let all: Vec<Vec<i32>> = s.solutions().collect();
        assert_eq!(all.len(), 92, "{strategy}");
        assert!(all.iter().all(|sol| m.is_solution(sol)), "{strategy}");
    }
}

#[test]
fn gac_prunes_at_least_as_much_as_hidden_under_mac() {
    let mut nodes = Vec::new();
    for strength in Strength::ALL {
        let m = queens_nary(10, strength);
        let mut s = Solver::new(&m, SearchConfig::with_strategy("static/asc/mac".parse().unwrap())).unwrap();
        assert_eq!(s.count().solutions, 724, "{strength}");
        nodes.push(s.stats().nodes);
    }
    assert!(nodes[2] <= nodes[1] && nodes[1] <= nodes[0], "{nodes:?}");
}

#[test]
fn gac_on_wide_views_solves_forty_queens() {
    // The diagonal views span 0..=78: more than one word, the general path.
    let m = queens_nary(40, Strength::Gac);
    let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
    let Outcome::Solved(sol) = s.solve() else {
        panic!("40 queens has solutions")
    };
    assert!(m.is_solution(&sol));
}

#[test]
fn gac_and_binary_constraints_together() {
    // 9 cells of a Sudoku unit, with x0 < x1 < x2 < x3 and x4 + 1 == x5 on top.
    let mut m = Model::new();
    let x = m.int_vars(9, 1, 9).unwrap();
    m.all_different_nary(&x, Strength::Gac).unwrap();
    for i in 0..3 {
        m.post(x[i], x[i + 1], Relation::Less).unwrap();
    }
    m.post(x[4], x[5], Relation::EqualOffset(-1)).unwrap();
    m.fix(x[8], 9).unwrap();
    let mut brute = 0;
    let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
    let found = s.count().solutions;
    // 8! orderings of 1..=8 over x0..x7 with the chain and the pair constraints.
    let mut perm: Vec<i32> = (1..=8).collect();
    permutations(&mut perm, 0, &mut |p| {
        if p[0] < p[1] && p[1] < p[2] && p[2] < p[3] && p[4] == p[5] - 1 {
            brute += 1;
        }
    });
    assert_eq!(found, brute);
}

fn permutations(p: &mut Vec<i32>, k: usize, f: &mut impl FnMut(&[i32])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, f);
        p.swap(k, i);
    }
}
