//! The library refuses what it cannot solve correctly and honours every limit, whatever
//! the caller asks: regression tests for the findings of the reliability report
//! (`shared/reports/reliability-findings.md`, ids P1 to P7).

use std::time::Duration;

use csp_core::{
    AllDifferent, ConfigError, Domain, LimitKind, Limits, Model, ModelError, Outcome, Relation, Restarts,
    SearchConfig, Solver, Strategy, Strength,
};

fn config(strategy: &str) -> SearchConfig {
    SearchConfig::with_strategy(strategy.parse().expect("a strategy"))
}

#[test]
fn all_different_over_a_repeated_variable_is_refused() {
    // P1: posted, it used to give "solutions" that `is_solution` rejects.
    for strength in Strength::ALL {
        let mut m = Model::new();
        let x = m.int_var(1, 3).unwrap();
        let y = m.int_var(1, 3).unwrap();
        assert_eq!(
            m.all_different_nary(&[x, x, y], strength),
            Err(ModelError::RepeatedVariable {
                what: "an all-different constraint",
                index: 0
            })
        );
        assert!(m.link_all_different(&[x, y, x], &[y]).is_err());
        assert_eq!(m.propagators().len(), 0, "nothing half-posted");
    }
}

#[test]
fn a_variable_of_another_model_is_refused_where_it_is_given() {
    // P2: it used to panic in `Solver::new`.
    let mut a = Model::new();
    let foreign = a.int_vars(5, 0, 3).unwrap()[4];
    let mut b = Model::new();
    let own = b.int_var(0, 3).unwrap();
    let posted = b.add_propagator(AllDifferent::new(vec![own, foreign], vec![0, 0], Strength::Value));
    assert_eq!(posted, Err(ModelError::UnknownVariable { index: 4, count: 1 }));
    let mut solver = Solver::new(&b, SearchConfig::default()).unwrap();
    assert_eq!(solver.count().solutions, 4);
}

#[test]
fn views_at_the_i32_limits_do_not_overflow() {
    // P3: debug builds (tests included) used to panic on an addition in the store.
    let mut m = Model::new();
    let vs: Vec<_> = (0..3)
        .map(|_| m.add_var(Domain::range(i32::MAX - 2, i32::MAX).unwrap()))
        .collect();
    m.all_different_offsets(&vs, &[0, i32::MAX, i32::MIN], Strength::Gac)
        .unwrap();
    // The three views lie in disjoint ranges: every assignment is a solution.
    for strategy in ["mrv/asc/fc", "static/desc/mac", "dom-wdeg/lcv/none"] {
        let mut solver = Solver::new(&m, config(strategy)).unwrap();
        assert_eq!(solver.count().solutions, 27, "{strategy}");
    }
}

#[test]
fn values_equal_in_their_low_32_bits_are_not_a_clash() {
    // All-different over consecutive variables tests the assigned ones for a clash on the
    // low 32 bits of each value: x0 = 50 makes the value to remove from x1 equal to 49 in
    // those bits (50 + 2^32 - 1), and x1 is given 49. The exact pass must then remove
    // nothing: every x0 is a solution.
    let mut m = Model::new();
    let x0 = m.add_var(Domain::range(1, 100).unwrap());
    let x1 = m.add_var(Domain::range(0, 99).unwrap());
    m.all_different_offsets(&[x0, x1], &[i32::MAX, i32::MIN], Strength::Value)
        .unwrap();
    m.fix(x1, 49).unwrap();
    for strategy in [
        "mrv/asc/fc",
        "static/desc/mac",
        "static/asc/fc",
        "dom-wdeg/lcv/none",
    ] {
        let mut solver = Solver::new(&m, config(strategy)).unwrap();
        assert_eq!(solver.count().solutions, 100, "{strategy}");
    }
}

#[test]
fn restart_policies_that_cannot_grow_are_refused() {
    // P4: a factor of 1 or less kept every run from finishing a subtree (a livelock).
    let mut m = Model::new();
    let v = m.int_vars(4, 0, 3).unwrap();
    m.all_different(&v).unwrap();
    for (first, factor) in [(1, 1.0), (0, 0.0), (1, f64::NAN), (100, 0.5)] {
        let config = SearchConfig {
            restarts: Some(Restarts::Geometric { first, factor }),
            ..SearchConfig::default()
        };
        assert!(
            matches!(Solver::new(&m, config), Err(ConfigError::RestartsDoNotGrow(_))),
            "geometric:{first}:{factor}"
        );
    }
    let config = SearchConfig {
        restarts: Some(Restarts::Luby { scale: 0 }),
        ..SearchConfig::default()
    };
    let mut solver = Solver::new(&m, config).expect("Luby cutoffs grow at any scale");
    assert_eq!(solver.count().solutions, 24);
}

#[test]
fn the_time_limit_holds_while_lcv_orders_a_huge_domain() {
    // P5: ordering the first variable's 16,384 values against three neighbours takes
    // seconds; the limit used to be read only between nodes.
    let mut m = Model::new();
    let v = m.int_vars(4, 0, (1 << 14) - 1).unwrap();
    m.all_different(&v).unwrap();
    let mut config = config("mrv/lcv/fc");
    config.limits = Limits {
        time: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let mut solver = Solver::new(&m, config).unwrap();
    assert_eq!(solver.solve(), Outcome::Limit(LimitKind::Time));
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn gac_all_different_on_huge_domains_skips_the_matching_when_nothing_can_go() {
    // P6: each run of the matching visited all 16M values of every variable.
    let mut m = Model::new();
    let v = m.int_vars(4, 0, (1 << 24) - 1).unwrap();
    m.all_different_nary(&v, Strength::Gac).unwrap();
    let mut solver = Solver::new(&m, config("mrv/asc/mac")).unwrap();
    assert_eq!(solver.solve(), Outcome::Solved(vec![0, 1, 2, 3]));
    let report = csp_core::ac3(&m);
    assert!(report.consistent);
    assert_eq!(report.removed, 0);
    // With as many values as variables, the matching still runs and still prunes.
    let mut tight = Model::new();
    let w = tight.int_vars(3, 0, 1).unwrap();
    tight.all_different_nary(&w, Strength::Gac).unwrap();
    assert!(!csp_core::ac3(&tight).consistent);
}

#[test]
fn a_solution_cap_of_zero_means_the_same_to_solve_and_count() {
    // P7: `count` stopped at 0 solutions, `solve` ignored the cap.
    let mut m = Model::new();
    let v = m.int_vars(3, 1, 3).unwrap();
    m.all_different(&v).unwrap();
    let mut capped = SearchConfig::with_strategy(Strategy::default());
    capped.limits.solutions = Some(0);
    let mut solver = Solver::new(&m, capped.clone()).unwrap();
    assert_eq!(solver.solve(), Outcome::Limit(LimitKind::Solutions));
    let count = Solver::new(&m, capped.clone()).unwrap().count();
    assert_eq!((count.solutions, count.complete), (0, false));
    let mut first = Solver::new(&m, capped).unwrap();
    assert_eq!(first.solutions().count(), 0);
}

#[test]
fn the_time_limit_holds_while_a_large_model_is_compiled() {
    // L4: compiling millions of binary constraints took seconds outside the clock. Here a
    // limit already passed stops `Solver::new` inside the compilation: the root
    // propagation never runs, so the given's neighbours keep their values.
    let mut m = Model::new();
    let v = m.int_vars(120, 0, 200).unwrap();
    m.all_different(&v).unwrap();
    m.fix(v[0], 7).unwrap();
    let mut config = config("mrv/asc/mac");
    config.limits.time = Some(Duration::from_nanos(1));
    let mut solver = Solver::new(&m, config.clone()).unwrap();
    assert_eq!(solver.solve(), Outcome::Limit(LimitKind::Time));
    assert!(solver.current_domain(v[1]).contains(&7));
    assert_eq!(solver.count().limit, Some(LimitKind::Time));
    // Without the limit the same model compiles and solves (the network is built anew).
    config.limits.time = None;
    let mut solver = Solver::new(&m, config).unwrap();
    assert!(matches!(solver.solve(), Outcome::Solved(_)));

    // Every variable order, with n-ary constraints beside the pairs: the orders that index
    // the constraints' scopes read none of them against the empty network a stopped
    // compilation leaves (they indexed out of bounds: a FlatZinc file read past its time
    // limit panicked).
    m.linear(&[(1, v[1]), (1, v[2]), (-1, v[3])], csp_core::Cmp::Le, 100)
        .unwrap();
    for order in [
        "dom-wdeg",
        "dom-wdeg-all",
        "dom-wdeg-fixed",
        "wdeg-cacd",
        "chs",
        "frb-dom",
        "frba-dom",
        "pick-dom",
        "activity",
        "impact",
        "run-robin",
    ] {
        let mut stopped = SearchConfig::with_strategy(format!("{order}/asc/mac").parse().unwrap());
        stopped.limits.time = Some(Duration::from_nanos(1));
        let mut solver = Solver::new(&m, stopped).unwrap();
        assert_eq!(solver.solve(), Outcome::Limit(LimitKind::Time), "{order}");
    }
}

#[test]
fn the_pair_past_the_cap_is_refused_and_the_model_stays_usable() {
    // A path over MAX_CONSTRAINED_PAIRS + 1 variables: its last edge is a pair too many.
    // A second relation on a pair the model holds is still taken at the cap.
    let max = csp_core::MAX_CONSTRAINED_PAIRS as usize;
    let mut model = Model::new();
    let vars = model.int_vars(max + 2, 0, 2).unwrap();
    for pair in vars[..=max].windows(2) {
        model.not_equal(pair[0], pair[1]).unwrap();
    }
    assert_eq!(model.num_pairs(), max);
    let refused = model.not_equal(vars[max], vars[max + 1]).unwrap_err();
    assert!(
        matches!(refused, ModelError::ConstraintsTooLarge { max: m, .. } if m == csp_core::MAX_MODEL_MEMORY),
        "{refused:?}"
    );
    assert!(refused.to_string().contains("600 bytes a"), "{refused}");
    model
        .post(vars[1], vars[0], Relation::AbsDiffNotEqual(2))
        .unwrap();
    assert_eq!((model.num_pairs(), model.constraints().len()), (max, max + 1));
}

/// A propagator that says it keeps `bytes` of data: the cap is checked on what
/// propagators declare, without allocating it.
struct Declares {
    vars: Vec<csp_core::VarId>,
    bytes: usize,
}

impl csp_core::Propagator for Declares {
    fn variables(&self) -> &[csp_core::VarId] {
        &self.vars
    }

    fn check(&self, _: &[i32]) -> bool {
        true
    }

    fn propagate(
        &self,
        _: &mut csp_core::PropagationContext<'_>,
        _: csp_core::Event,
    ) -> Result<(), csp_core::Conflict> {
        Ok(())
    }

    fn heap_bytes(&self) -> usize {
        self.bytes
    }
}

#[test]
fn n_ary_constraints_past_the_cap_are_refused_as_they_are_added() {
    let mut model = Model::new();
    let vars = model.int_vars(3, 0, 9).unwrap();
    let gib = 1 << 30;
    let declares = |bytes| Declares {
        vars: vars.clone(),
        bytes,
    };
    // 2 GiB less 300 bytes in all, with the 850 that each counts for its three variables.
    model.add_propagator(declares(gib)).unwrap();
    model.add_propagator(declares(gib - 2000)).unwrap();
    let refused = model.add_propagator(declares(0)).unwrap_err();
    assert!(
        matches!(refused, ModelError::ConstraintsTooLarge { .. }),
        "{refused:?}"
    );
    // The refused one is not in the model.
    assert_eq!(model.propagators().len(), 2);
    let both = csp_core::propagator_bytes(3, gib) + csp_core::propagator_bytes(3, gib - 2000);
    assert_eq!(model.size().data_bytes, both);
    assert_eq!(csp_core::MAX_MODEL_MEMORY - both, 300);
    // Pairs and propagators share the cap: no new pair fits beside them.
    assert!(matches!(
        model.not_equal(vars[0], vars[1]),
        Err(ModelError::ConstraintsTooLarge { .. })
    ));
    // The search counts the variables too (372 bytes): past the cap.
    assert!(matches!(
        Solver::new(&model, SearchConfig::default()).err(),
        Some(ConfigError::ModelTooLarge {
            data_bytes,
            ..
        }) if data_bytes == both
    ));
}

#[test]
fn a_generated_table_counts_its_tuples() {
    // x + y + z <= 12 over 0..9: a table generated for this constraint alone, of 350
    // tuples (those with a sum of 12 or less) and three cells each.
    let mut model = Model::new();
    let vars = model.int_vars(3, 0, 9).unwrap();
    let terms: Vec<_> = vars.iter().map(|&v| (1, v)).collect();
    model.linear(&terms, csp_core::Cmp::Le, 12).unwrap();
    assert_eq!(model.propagators().len(), 1);
    let tuples = (0..1000).filter(|i| i / 100 + i / 10 % 10 + i % 10 <= 12).count();
    let cells = tuples * 3 * 8;
    let declared = model.size().data_bytes - csp_core::propagator_bytes(3, 0);
    assert!(
        declared as usize >= cells,
        "{declared} bytes for {cells} of cells"
    );
}

#[test]
fn an_automaton_unrolled_past_the_cap_is_refused_before_it_is_unrolled() {
    // 100,000 states over 10,000 variables: three tables of a state per layer would take
    // 6 GB. The refusal comes before any is allocated; a small automaton over the same
    // variables is posted.
    let mut model = Model::new();
    let vars = model.int_vars(10_000, 0, 1).unwrap();
    let states = 100_000;
    let chain = (0..states - 1).flat_map(|q| [(q, 0, q + 1), (q, 1, q)]).collect();
    let big = csp_core::Automaton::new(states, 0, vec![states - 1], chain).unwrap();
    let refused = model.regular(&vars, &big).unwrap_err();
    assert!(
        matches!(refused, ModelError::ConstraintsTooLarge { .. }),
        "{refused:?}"
    );
    assert!(model.propagators().is_empty());
    let parity = vec![(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)];
    let small = csp_core::Automaton::new(2, 0, vec![0], parity).unwrap();
    model.regular(&vars, &small).unwrap();
    assert_eq!(model.propagators().len(), 1);
}

#[test]
fn a_binary_table_over_domains_far_apart_needs_no_support_matrix() {
    // Values 2^20 apart on both sides: a support matrix would take 128 GiB. The table is
    // searched instead, under every inference, and its solutions are its pairs.
    let mut model = Model::new();
    let wide = Domain::from_values([0, 1, 1_048_575]).unwrap();
    let x = model.add_var(wide.clone());
    let y = model.add_var(wide);
    let pairs = [(0, 0), (1, 1_048_575), (1_048_575, 1), (1, 1)];
    model.post(x, y, Relation::table(pairs)).unwrap();
    for inference in ["none", "fc", "mac"] {
        let mut solver = Solver::new(&model, config(&format!("mrv/asc/{inference}"))).unwrap();
        let mut found: Vec<(i32, i32)> = solver.solutions().map(|s| (s[0], s[1])).collect();
        found.sort_unstable();
        let mut expected = pairs.to_vec();
        expected.sort_unstable();
        assert_eq!(found, expected, "{inference}");
    }
}
