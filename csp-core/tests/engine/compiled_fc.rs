//! The compiled forward-checking search must be the general search loop, node for node.
//!
//! It runs when a model has only binary constraints that compile to bit patterns (`!=`,
//! `x != y + c`, `|x - y| != c`) over one-word domains with one shared base, under
//! static or MRV order, ascending values and forward checking. Adding a propagator that
//! never prunes sends the same search through the general loop; both must give the same
//! solutions in the same order, the same first solution, the same stopping point under a
//! node limit, and the same statistics (but `propagations`, which counts the added
//! propagator's runs, and the time).

use std::ops::RangeInclusive;
use std::time::Duration;

use csp_core::{
    Domain, LimitKind, Limits, Model, Optimum, Outcome, Relation, Restarts, SearchConfig, Solver, Stats,
    VarId,
};
use proptest::prelude::*;

use crate::inert::Inert;

/// A random model of the compiled kind: variables over `0..=top`, some values excluded,
/// some givens, and exclusion constraints.
#[derive(Clone, Debug)]
struct Spec {
    top: i32,
    excluded: Vec<(usize, i32)>,
    givens: Vec<(usize, i32)>,
    /// `(x, y, kind, c)`: kind 0 is `x != y`, 1 is `x != y + c`, 2 is `|x - y| != c`.
    constraints: Vec<(usize, usize, u8, i32)>,
    n: usize,
}

impl Spec {
    fn model(&self, inert: bool) -> Model {
        let mut m = Model::new();
        let vars: Vec<VarId> = (0..self.n)
            .map(|_| m.add_var(Domain::range(0, self.top).unwrap()))
            .collect();
        for &(x, v) in &self.excluded {
            m.exclude(vars[x], v).unwrap();
        }
        for &(x, v) in &self.givens {
            m.fix(vars[x], v).unwrap();
        }
        for &(x, y, kind, c) in &self.constraints {
            let relation = match kind {
                0 => Relation::NotEqual,
                1 => Relation::NotEqualOffset(c),
                _ => Relation::AbsDiffNotEqual(c),
            };
            m.post(vars[x], vars[y], relation).unwrap();
        }
        if inert {
            m.add_propagator(Inert(vars)).expect("variables of this model");
        }
        m
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    spec_of(2..=7, 1..=7, 16)
}

/// Models of more than 64 variables: the sets of unassigned variables span words.
fn wide_spec() -> impl Strategy<Value = Spec> {
    spec_of(60..=150, 1..=4, 400)
}

fn spec_of(
    n: RangeInclusive<usize>,
    top: RangeInclusive<i32>,
    max_constraints: usize,
) -> impl Strategy<Value = Spec> {
    (n, top).prop_flat_map(move |(n, top)| {
        let value = 0..=top;
        let excluded = prop::collection::vec((0..n, value.clone()), 0..=4);
        let givens = prop::collection::vec((0..n, value), 0..=2);
        let constraints = prop::collection::vec((0..n, 1..n, 0u8..3, 0i32..=3), 0..=max_constraints)
            .prop_map(move |cs| {
                cs.into_iter()
                    .map(|(x, d, kind, c)| (x, (x + d) % n, kind, c))
                    .collect::<Vec<_>>()
            });
        (excluded, givens, constraints).prop_map(move |(excluded, givens, constraints)| Spec {
            top,
            excluded,
            givens,
            constraints,
            n,
        })
    })
}

/// The statistics both loops must share.
fn comparable(stats: &Stats) -> Stats {
    Stats {
        propagations: 0,
        elapsed: Duration::ZERO,
        ..stats.clone()
    }
}

fn solver<'m>(model: &'m Model, strategy: &str, node_limit: Option<u64>) -> Solver<'m> {
    let mut config = SearchConfig::with_strategy(strategy.parse().unwrap());
    config.limits = Limits {
        nodes: node_limit,
        ..Limits::default()
    };
    Solver::new(model, config).unwrap()
}

/// Runs both models to at most `most` solutions under the node limit, checks that they
/// agree on those and on the statistics, and returns them.
fn same_solutions(
    compiled: &Model,
    general: &Model,
    strategy: &str,
    node_limit: Option<u64>,
    most: usize,
) -> Result<Vec<Vec<i32>>, TestCaseError> {
    let mut a = solver(compiled, strategy, node_limit);
    let mut b = solver(general, strategy, node_limit);
    let found: Vec<Vec<i32>> = a.solutions().take(most).collect();
    let expected: Vec<Vec<i32>> = b.solutions().take(most).collect();
    for solution in &found {
        prop_assert!(
            compiled.is_solution(solution),
            "{}: {:?}",
            strategy,
            compiled.violation(solution)
        );
    }
    prop_assert_eq!(&found, &expected, "{}: solutions", strategy);
    prop_assert_eq!(
        comparable(a.stats()),
        comparable(b.stats()),
        "{}: statistics",
        strategy
    );
    Ok(found)
}

/// Counts on both models under a node limit: the same count, stopping point and statistics.
fn same_limited_count(
    compiled: &Model,
    general: &Model,
    strategy: &str,
    node_limit: u64,
) -> Result<(), TestCaseError> {
    let (mut a, mut b) = (
        solver(compiled, strategy, Some(node_limit)),
        solver(general, strategy, Some(node_limit)),
    );
    let (count_a, count_b) = (a.count(), b.count());
    prop_assert_eq!(
        count_a.solutions,
        count_b.solutions,
        "{}: count under a node limit",
        strategy
    );
    prop_assert_eq!(count_a.limit, count_b.limit);
    if count_a.limit == Some(LimitKind::Nodes) {
        prop_assert_eq!(a.stats().nodes, node_limit);
    }
    prop_assert_eq!(
        comparable(a.stats()),
        comparable(b.stats()),
        "{}: statistics under a node limit",
        strategy
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn compiled_forward_checking_is_the_general_loop(spec in spec(), node_limit in 1u64..40) {
        let compiled = spec.model(false);
        let general = spec.model(true);
        for strategy in ["static/asc/fc", "mrv/asc/fc"] {
            let found = same_solutions(&compiled, &general, strategy, None, usize::MAX)?;
            let (first_a, first_b) = (solver(&compiled, strategy, None).solve(), solver(&general, strategy, None).solve());
            prop_assert_eq!(&first_a, &first_b, "{}: first solution", strategy);
            if let Outcome::Solved(first) = first_a {
                prop_assert_eq!(Some(&first), found.first());
            }
            same_limited_count(&compiled, &general, strategy, node_limit)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Too many solutions to list: the first few, and the statistics under a node limit.
    #[test]
    fn compiled_forward_checking_is_the_general_loop_past_64_variables(spec in wide_spec(), node_limit in 1u64..3000) {
        let compiled = spec.model(false);
        let general = spec.model(true);
        for strategy in ["static/asc/fc", "mrv/asc/fc"] {
            same_solutions(&compiled, &general, strategy, Some(node_limit), 5)?;
            same_limited_count(&compiled, &general, strategy, node_limit)?;
        }
    }
}

/// Optimises `model` with `objective` minimised (or maximised) under the node limit: the
/// improvements as they came, the optimum and the statistics.
fn optimise(
    model: &Model,
    objective: VarId,
    maximise: bool,
    strategy: &str,
    node_limit: Option<u64>,
) -> (Vec<(Vec<i32>, i64)>, Optimum, Stats) {
    let mut model = model.clone();
    if maximise {
        model.maximize(objective).unwrap();
    } else {
        model.minimize(objective).unwrap();
    }
    let mut solver = solver(&model, strategy, node_limit);
    let mut improvements = Vec::new();
    let optimum = solver
        .optimize_with(|solution, value| {
            improvements.push((solution.to_vec(), value));
            true
        })
        .unwrap();
    (improvements, optimum, solver.stats().clone())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Optimising, the compiled loop keeps the bound's rules: the same improvements,
    /// optimum and statistics as the general loop, and the optimum of the enumeration.
    #[test]
    fn optimising_compiled_forward_checking_is_the_general_loop(
        spec in spec(),
        objective in any::<prop::sample::Index>(),
        maximise in any::<bool>(),
        node_limit in 1u64..40,
    ) {
        let compiled = spec.model(false);
        let general = spec.model(true);
        let objective = compiled.var(objective.index(spec.n)).unwrap();
        let mut enumeration = solver(&compiled, "mrv/asc/fc", None);
        let values = enumeration.solutions().map(|s| i64::from(s[objective.index()]));
        let best = if maximise { values.max() } else { values.min() };
        for strategy in ["static/asc/fc", "mrv/asc/fc"] {
            for limit in [None, Some(node_limit)] {
                let fast = optimise(&compiled, objective, maximise, strategy, limit);
                let slow = optimise(&general, objective, maximise, strategy, limit);
                prop_assert_eq!(&fast.0, &slow.0, "{} {:?}: improvements", strategy, limit);
                prop_assert_eq!(&fast.1, &slow.1, "{} {:?}: optimum", strategy, limit);
                prop_assert_eq!(comparable(&fast.2), comparable(&slow.2), "{} {:?}", strategy, limit);
                for (solution, _) in &fast.0 {
                    prop_assert!(compiled.is_solution(solution), "{}: {:?}", strategy, solution);
                }
                if limit.is_none() {
                    prop_assert!(fast.1.proved, "{}", strategy);
                    prop_assert_eq!(fast.1.objective, best, "{}: the optimum", strategy);
                }
            }
        }
    }
}

/// The n-queens model of the textbook, in the compiled setting (or, with `inert`, forced
/// through the general loop).
fn queens(n: usize, inert: bool) -> Model {
    let mut m = Model::new();
    let vars = m.int_vars(n, 0, n as i32 - 1).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            m.not_equal(vars[i], vars[j]).unwrap();
            m.post(vars[i], vars[j], Relation::AbsDiffNotEqual((j - i) as i32))
                .unwrap();
        }
    }
    if inert {
        m.add_propagator(Inert(vars)).expect("variables of this model");
    }
    m
}

/// The counts of OEIS A000170, with the node counts of the general loop.
#[test]
fn queens_counts_match_the_general_loop() {
    for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        let (compiled, general) = (queens(n, false), queens(n, true));
        for strategy in ["static/asc/fc", "mrv/asc/fc"] {
            let (mut a, mut b) = (
                solver(&compiled, strategy, None),
                solver(&general, strategy, None),
            );
            assert_eq!(a.count().solutions, count, "n = {n}, {strategy}");
            assert_eq!(b.count().solutions, count);
            assert_eq!(
                comparable(a.stats()),
                comparable(b.stats()),
                "n = {n}, {strategy}"
            );
        }
    }
}

/// A search with restarts runs in the general loop, with or without the compiled network,
/// and `count` after `solve` counts the other solutions exactly across restarts.
#[test]
fn counting_carries_on_a_search_with_restarts() {
    for (n, count) in [(5, 10), (6, 4), (8, 92)] {
        let (compiled, general) = (queens(n, false), queens(n, true));
        for strategy in ["static/asc/fc", "mrv/asc/fc"] {
            let config = || SearchConfig {
                restarts: Some(Restarts::Luby { scale: 2 }),
                ..SearchConfig::with_strategy(strategy.parse().unwrap())
            };
            let mut a = Solver::new(&compiled, config()).unwrap();
            let mut b = Solver::new(&general, config()).unwrap();
            assert_eq!(a.solve(), b.solve(), "n = {n}, {strategy}: first solution");
            let rest = a.count().solutions;
            assert_eq!(
                rest + 1,
                count,
                "n = {n}, {strategy}: the solutions after the first"
            );
            assert_eq!(b.count().solutions, rest);
            assert_eq!(
                comparable(a.stats()),
                comparable(b.stats()),
                "n = {n}, {strategy}"
            );
        }
    }
}
