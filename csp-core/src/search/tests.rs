//! Unit tests of the search internals: the dom/wdeg weights, and forced runs against
//! the general loop.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Solver;
use crate::{Domain, LimitKind, Model, Outcome, SearchConfig, Stats, Strength};

/// A small random model: all-different constraints at random strengths and `!=`
/// pairs over few values, so that propagation leaves many variables forced.
fn random_model(rng: &mut ChaCha8Rng) -> Model {
    let n = rng.random_range(4..=8);
    let k = rng.random_range(2..=4);
    let mut m = Model::new();
    let vars = m.int_vars(n, 1, k).expect("a non-empty range");
    for _ in 0..rng.random_range(1..=3) {
        let mut scope = vars.clone();
        scope.shuffle(rng);
        scope.truncate(rng.random_range(2..=n.min(k as usize)));
        let strength = Strength::ALL[rng.random_range(0..3)];
        m.all_different_nary(&scope, strength)
            .expect("variables of this model");
    }
    for _ in 0..rng.random_range(0..=n) {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        if a != b {
            m.not_equal(vars[a], vars[b]).expect("distinct variables");
        }
    }
    m
}

/// Every solution in order, then the statistics (without the time) and the limit.
fn run(model: &Model, config: &SearchConfig, forced_runs: bool) -> (Vec<Vec<i32>>, Stats, Option<LimitKind>) {
    let mut solver = Solver::new(model, config.clone()).expect("a valid configuration");
    solver.plan.forced_runs &= forced_runs;
    let mut solutions = solver.solutions();
    let found: Vec<Vec<i32>> = solutions.by_ref().collect();
    let limit = solutions.limit();
    let mut stats = solver.stats().clone();
    stats.elapsed = Default::default();
    (found, stats, limit)
}

#[test]
fn dom_wdeg_fixed_weighs_the_variables_in_conflict_and_the_decision() {
    // x in 1..=2 is the first choice (the largest degree). Either value fixes p to the
    // other, which fixes q and r to the value x took, and they clash in the
    // all-different over p, q, r, s; s keeps a choice. t and u only add to x's degree.
    let mut model = Model::new();
    let x = model.add_var(Domain::range(1, 2).expect("a range"));
    let pqr = model.int_vars(3, 1, 2).expect("a non-empty range");
    let s = model.add_var(Domain::range(1, 4).expect("a range"));
    let tu = model.int_vars(2, 1, 5).expect("a non-empty range");
    for other in [pqr[0], tu[0], tu[1]] {
        model
            .all_different_nary(&[x, other], Strength::Value)
            .expect("variables of this model");
    }
    model
        .all_different_nary(&[pqr[0], pqr[1], pqr[2], s], Strength::Value)
        .expect("variables of this model");
    // Weights in the order x, p, q, r, s, t, u: the degree plus what the two failures
    // added.
    for (name, weights) in [
        // Each failure weighs every variable of the failing all-different (at the end
        // every variable is unassigned again, so the rules on unassigned variables agree).
        ("dom-wdeg/asc/mac", [3, 4, 3, 3, 3, 1, 1]),
        ("dom-wdeg-all/asc/mac", [3, 4, 3, 3, 3, 1, 1]),
        // Only its fixed or emptied p, q, r (not s), and the decision x.
        ("dom-wdeg-fixed/asc/mac", [5, 4, 3, 3, 1, 1, 1]),
    ] {
        let config = SearchConfig::with_strategy(name.parse().expect("a strategy"));
        let mut solver = Solver::new(&model, config).expect("a valid configuration");
        assert_eq!(solver.solve(), Outcome::Unsatisfiable, "{name}");
        assert_eq!(solver.stats().nodes, 2, "{name}");
        assert_eq!(solver.weights.var_weight, weights, "{name}");
    }
}

#[test]
fn forced_runs_change_no_solution_count_or_limit() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut runs = 0;
    for _ in 0..300 {
        let model = random_model(&mut rng);
        for name in [
            "mrv/asc/mac",
            "dom-wdeg/asc/mac",
            "dom-wdeg/desc/mac",
            "dom-wdeg-fixed/asc/mac",
        ] {
            let mut config = SearchConfig::with_strategy(name.parse().expect("a strategy"));
            let whole = run(&model, &config, false);
            assert_eq!(run(&model, &config, true), whole, "{name}");
            // Node limits stop both at the same node, with the same solutions: each of
            // the first 200 nodes as the limit.
            for cap in 1..whole.1.nodes.min(200) {
                config.limits.nodes = Some(cap);
                let stopped = run(&model, &config, true);
                assert_eq!(stopped, run(&model, &config, false), "{name}, {cap} nodes");
                assert_eq!(stopped.1.nodes, cap);
                runs += 1;
            }
        }
    }
    assert!(runs > 1000, "the models make search trees: {runs} limited runs");
}

#[test]
fn domains_past_what_a_store_indexes_are_refused() {
    // The memory cap refuses every model whose words a store could not index: checked on
    // the numbers alone (building such a model takes gigabytes).
    let most_words = crate::MAX_MODEL_MEMORY / crate::BYTES_PER_DOMAIN_WORD;
    assert!(most_words < crate::store::MAX_WORDS as u64);
    let size = crate::ModelSize {
        words: crate::store::MAX_WORDS as u64,
        ..crate::ModelSize::default()
    };
    assert!(size.check().is_err());
}

#[test]
fn a_model_past_the_memory_cap_is_refused_before_the_search_is_built() {
    // 1,000 variables over 2^26 values: 1,048,576 words each, about 25 GB by the estimate.
    let mut model = Model::new();
    let domain = crate::Domain::range(0, (1 << 26) - 1).unwrap();
    for _ in 0..1000 {
        model.add_var(domain.clone());
    }
    let refused = Solver::new(&model, SearchConfig::default()).err();
    assert!(
        matches!(
            refused,
            Some(crate::ConfigError::ModelTooLarge {
                variables: 1000,
                words: 1_048_576_000,
                ..
            })
        ),
        "{refused:?}"
    );
}

/// A restart cuts a run at a backtrack, never a descent: colouring a path with three
/// colours under forward checking or MAC never fails, so however small the cutoffs, the
/// one run finds the solution in one node a vertex (before, a run was cut every few nodes
/// and each next one descended the same path again).
#[test]
fn restarts_never_cut_a_descent() {
    let mut model = Model::new();
    let vars: Vec<_> = (0..500)
        .map(|_| model.add_var(Domain::range(0, 2).unwrap()))
        .collect();
    for pair in vars.windows(2) {
        model.not_equal(pair[0], pair[1]).unwrap();
    }
    for name in ["dom-wdeg/asc/mac", "run-robin/asc/fc", "mrv/lcv/mac"] {
        for restarts in [
            crate::Restarts::Luby { scale: 1 },
            crate::Restarts::Geometric {
                first: 2,
                factor: 1.5,
            },
        ] {
            let config = SearchConfig {
                restarts: Some(restarts),
                ..SearchConfig::with_strategy(name.parse().expect("a strategy"))
            };
            let mut solver = Solver::new(&model, config).expect("a valid configuration");
            assert!(matches!(solver.solve(), Outcome::Solved(_)), "{name}");
            let stats = solver.stats();
            assert_eq!((stats.nodes, stats.restarts), (500, 0), "{name}, {restarts}");
        }
    }
}

/// Under `dom-wdeg` each unassigned variable's weighted degree, kept up to date as search
/// assigns, unassigns, fails and restarts, is the paper's sum: the weights of its
/// constraints that have another unassigned variable. Checked wherever a node limit stops
/// the search, under every inference, with and without restarts, and likewise the
/// unassigned counts of the constraints.
#[test]
fn dom_wdeg_weighted_degrees_follow_the_unassigned_variables() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    for _ in 0..100 {
        let model = random_model(&mut rng);
        for name in [
            "dom-wdeg/asc/mac",
            "dom-wdeg/asc/fc",
            "dom-wdeg/lcv/none",
            "run-robin/asc/mac",
        ] {
            for restarts in [None, Some(crate::Restarts::Luby { scale: 1 })] {
                let mut config = SearchConfig {
                    restarts,
                    ..SearchConfig::with_strategy(name.parse().expect("a strategy"))
                };
                let total = run(&model, &config, true).1.nodes;
                for cap in 1..=total.min(60) {
                    config.limits.nodes = Some(cap);
                    let mut solver = Solver::new(&model, config.clone()).expect("a valid configuration");
                    solver.solutions().for_each(drop);
                    let scopes = solver.orders.scopes.as_ref().expect("scopes under dom-wdeg");
                    let assigned = &solver.state.assigned;
                    for c in 0..scopes.unassigned.len() {
                        let open = scopes.vars.row(c).iter().filter(|v| !assigned[v.index()]).count();
                        assert_eq!(scopes.unassigned[c] as usize, open, "{name}: constraint {c}");
                    }
                    for (v, _) in assigned.iter().enumerate().filter(|(_, a)| !**a) {
                        let expected: u64 = scopes
                            .of_var
                            .row(v)
                            .iter()
                            .filter(|m| scopes.counts(m.constraint as usize))
                            .map(|m| solver.weights.weight_of(m.constraint as usize))
                            .sum();
                        assert_eq!(
                            solver.weights.var_weight[v], expected,
                            "{name}, {cap} nodes: x{v}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked} weighted degrees checked");
}
