//! The learning variable orders (`wdeg-cacd`, `chs`, `frb-dom`, `frba-dom`, `pick-dom`,
//! `activity`, `impact`, `run-robin`, and `dom-wdeg` with its unassigned-variable rule)
//! and the modifiers (last-conflict reasoning, saved values) against brute force: on small
//! random CSPs (binary relations, tables, givens, n-ary all-different, an objective), every
//! order under every inference, with and without restarts, enumerates exactly the
//! solutions of brute-force enumeration, counts them, finds the optimum, and repeats
//! itself node for node for a seed; a search without a trail (every level rebuilt by
//! replay) is the same search.

use csp_core::{
    Inference, Limits, Model, Outcome, Restarts, SearchConfig, Solver, Stats, Strategy as Search, Strength,
    TieBreak, ValueOrder, VarId, VarOrder,
};
use proptest::prelude::*;

use crate::relations::{Rel, relation};
use crate::variables::add_vars;

/// A small random CSP.
#[derive(Clone, Debug)]
struct Spec {
    domains: Vec<Vec<i32>>,
    givens: Vec<Option<i32>>,
    binary: Vec<(usize, usize, Rel)>,
    all_different: Option<(Vec<usize>, Strength)>,
    /// Minimise this variable (optimisation only).
    objective: usize,
}

impl Spec {
    fn model(&self) -> Model {
        let mut m = Model::new();
        let vars = add_vars(&mut m, &self.domains, &self.givens);
        for (x, y, rel) in &self.binary {
            m.post(vars[*x], vars[*y], rel.relation()).unwrap();
        }
        if let Some((scope, strength)) = &self.all_different {
            let scope: Vec<VarId> = scope.iter().map(|&i| vars[i]).collect();
            m.all_different_nary(&scope, *strength).unwrap();
        }
        m
    }

    /// Every solution, sorted, by enumeration checked with the model's own test.
    fn brute_force(&self, model: &Model) -> Vec<Vec<i32>> {
        let choices: Vec<Vec<i32>> = (0..self.domains.len())
            .map(|i| match self.givens[i] {
                Some(g) => vec![g],
                None => self.domains[i].clone(),
            })
            .collect();
        let mut out = Vec::new();
        let mut values = vec![0; choices.len()];
        fn go(i: usize, choices: &[Vec<i32>], values: &mut Vec<i32>, model: &Model, out: &mut Vec<Vec<i32>>) {
            if i == choices.len() {
                if model.is_solution(values) {
                    out.push(values.clone());
                }
                return;
            }
            for &a in &choices[i] {
                values[i] = a;
                go(i + 1, choices, values, model, out);
            }
        }
        go(0, &choices, &mut values, model, &mut out);
        out.sort();
        out
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    (2usize..=6).prop_flat_map(|n| {
        let domain =
            prop::collection::btree_set(0i32..=4, 1..=4).prop_map(|s| s.into_iter().collect::<Vec<_>>());
        (
            prop::collection::vec(domain, n),
            prop::collection::vec(prop::option::weighted(0.1, any::<prop::sample::Index>()), n),
            prop::collection::vec((0..n, 0..n, relation(0..=4, 0..=10)), 0..=2 * n),
            prop::option::weighted(
                0.5,
                (
                    prop::collection::btree_set(0..n, 2..=n),
                    prop::sample::select(Strength::ALL.to_vec()),
                ),
            ),
            0..n,
        )
            .prop_map(|(domains, givens, binary, all_different, objective)| {
                let givens = givens
                    .iter()
                    .zip(&domains)
                    .map(|(g, d)| g.map(|ix| d[ix.index(d.len())]))
                    .collect();
                Spec {
                    domains,
                    givens,
                    binary: binary.into_iter().filter(|(x, y, _)| x != y).collect(),
                    all_different: all_different
                        .map(|(scope, strength)| (scope.into_iter().collect(), strength)),
                    objective,
                }
            })
    })
}

/// The new variable orders.
const ORDERS: [VarOrder; 10] = [
    VarOrder::DomWdeg,
    VarOrder::DomWdegAll,
    VarOrder::WdegCacd,
    VarOrder::Chs,
    VarOrder::FrbDom,
    VarOrder::FrbaDom,
    VarOrder::PickDom,
    VarOrder::Activity,
    VarOrder::Impact,
    VarOrder::RunRobin,
];

/// The configurations compared: every new order under every inference, without and with
/// restarts after every node or two; then the modifiers (saved values, last-conflict
/// reasoning, random ties) over a few orders, old and new.
fn configs() -> Vec<SearchConfig> {
    let restarts = [
        None,
        Some(Restarts::Luby { scale: 1 }),
        Some(Restarts::Luby { scale: 2 }),
    ];
    let mut out = Vec::new();
    for order in ORDERS {
        for &inference in Inference::ALL {
            for restarts in restarts {
                out.push(SearchConfig {
                    restarts,
                    ..SearchConfig::with_strategy(Search::new(order, ValueOrder::Asc, inference))
                });
            }
        }
    }
    for order in [
        VarOrder::Static,
        VarOrder::Mrv,
        VarOrder::DomWdeg,
        VarOrder::Chs,
        VarOrder::RunRobin,
    ] {
        for &inference in Inference::ALL {
            for restarts in [None, Some(Restarts::Luby { scale: 1 })] {
                for (value_order, last_conflict, tie_break) in [
                    (ValueOrder::Saved, 0, TieBreak::Lowest),
                    (ValueOrder::Asc, 1, TieBreak::Lowest),
                    (ValueOrder::Saved, 2, TieBreak::Random),
                    (ValueOrder::Lcv, 3, TieBreak::Lowest),
                ] {
                    out.push(SearchConfig {
                        restarts,
                        last_conflict,
                        tie_break,
                        seed: 7,
                        ..SearchConfig::with_strategy(Search::new(order, value_order, inference))
                    });
                }
            }
        }
    }
    out
}

fn what(config: &SearchConfig) -> String {
    format!(
        "{} restarts {:?} lc {} ties {}",
        config.strategy, config.restarts, config.last_conflict, config.tie_break
    )
}

fn without_time(stats: &Stats) -> Stats {
    Stats {
        elapsed: Default::default(),
        ..stats.clone()
    }
}

/// Every solution in the order found, and the statistics.
fn enumerate(model: &Model, config: &SearchConfig) -> (Vec<Vec<i32>>, Stats) {
    let mut solver = Solver::new(model, config.clone()).unwrap();
    let found: Vec<Vec<i32>> = solver.solutions().collect();
    (found, without_time(solver.stats()))
}

fn check(spec: &Spec) -> Result<(), TestCaseError> {
    let model = spec.model();
    let expected = spec.brute_force(&model);
    let optimum = expected.iter().map(|s| s[spec.objective]).min();
    let mut optimising = model.clone();
    let objective = optimising.vars().nth(spec.objective).unwrap();
    optimising.minimize(objective).unwrap();
    for config in configs() {
        let what = what(&config);
        let (found, stats) = enumerate(&model, &config);
        let mut sorted = found.clone();
        sorted.sort();
        prop_assert_eq!(&sorted, &expected, "{}: solution set", what);
        prop_assert_eq!(stats.solutions, expected.len() as u64, "{}", what);

        // The same seed, the same search, node for node; and without a trail.
        prop_assert_eq!(
            enumerate(&model, &config),
            (found.clone(), stats.clone()),
            "{}: again",
            what
        );
        let untrailed = SearchConfig {
            max_trail: 0,
            ..config.clone()
        };
        let (mut rebuilt, rebuilt_stats) = enumerate(&model, &untrailed);
        if config.restarts.is_none() {
            prop_assert_eq!((&rebuilt, &rebuilt_stats), (&found, &stats), "{}: no trail", what);
        } else {
            // A restart that rebuilt its run from the root does not search as one that
            // kept its trail (under every order, the textbook ones too): the solutions are
            // the same.
            rebuilt.sort();
            prop_assert_eq!(&rebuilt, &expected, "{}: no trail", what);
        }

        let count = Solver::new(&model, config.clone()).unwrap().count();
        prop_assert_eq!(count.solutions, expected.len() as u64, "{}: count", what);
        prop_assert!(count.complete, "{}", what);
        match Solver::new(&model, config.clone()).unwrap().solve() {
            Outcome::Solved(sol) => prop_assert_eq!(Some(&sol), found.first(), "{}: first", what),
            Outcome::Unsatisfiable => prop_assert!(expected.is_empty(), "{}: unsatisfiable", what),
            Outcome::Limit(kind) => prop_assert!(false, "{}: limit {}", what, kind),
        }

        // A node limit stops the enumeration there, with the solutions found before it.
        if stats.nodes > 1 {
            let cap = stats.nodes / 2;
            let limited = SearchConfig {
                limits: Limits {
                    nodes: Some(cap),
                    ..Limits::default()
                },
                ..config.clone()
            };
            let (some, limited) = enumerate(&model, &limited);
            prop_assert_eq!(limited.nodes, cap, "{}: node limit", what);
            prop_assert!(found.starts_with(&some), "{}: solutions before the limit", what);
        }

        let best = Solver::new(&optimising, config.clone())
            .unwrap()
            .optimize()
            .unwrap();
        prop_assert!(best.proved, "{}: optimum proved", what);
        prop_assert_eq!(best.objective, optimum.map(i64::from), "{}: optimum", what);
        if let Some(sol) = &best.best {
            prop_assert!(expected.contains(sol), "{}: the best is a solution", what);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn learning_orders_and_modifiers_match_brute_force(spec in spec()) {
        check(&spec)?;
    }
}

/// Random ties are drawn from the seed: the same seed gives the same nodes, under every
/// new order.
#[test]
fn random_ties_repeat_for_a_seed() {
    let m = crate::common::queens(7);
    for order in ORDERS {
        for seed in [1, 2] {
            let config = SearchConfig {
                tie_break: TieBreak::Random,
                seed,
                restarts: Some(Restarts::Luby { scale: 4 }),
                ..SearchConfig::with_strategy(Search::new(order, ValueOrder::Saved, Inference::Fc))
            };
            let (a, b) = (enumerate(&m, &config), enumerate(&m, &config));
            assert_eq!(a, b, "{order} seed {seed}");
            assert_eq!(a.0.len(), 40, "{order}: the 40 solutions of 7-queens");
        }
    }
}
