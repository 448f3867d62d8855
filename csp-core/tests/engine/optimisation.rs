//! Branch and bound (`Solver::optimize`) against brute force. Small random models
//! (binary relations, all-different, linear sums, tables; givens) with an objective that
//! is one of their variables or a new variable equal to a sum of others, minimised and
//! maximised, are solved by enumeration, which checks every constraint itself. Every
//! strategy must reach the same optimum, with solutions that check out, strictly better
//! each time; repeat itself exactly; stop at a node limit with a prefix of the same
//! improvements; and give the same search when every level is rebuilt by replay. (That the
//! compiled forward-checking loop optimises as the general one is in `compiled_fc.rs`.)

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use csp_core::{
    Branching, Cmp, ConfigError, LimitKind, Limits, LnsConfig, LnsSolver, Model, NeighbourhoodKind,
    Objective, Optimum, ParallelSolver, Relation, Restarts, SearchConfig, Solver, Stats,
    Strategy as SearchStrategy, Strength, TableCell, TieBreak, VarId,
};
use proptest::prelude::*;

use crate::relations::{Rel, relation};
use crate::variables::add_vars;

// ----- random models -----

/// `sum(c * x) cmp rhs` over variable indices.
#[derive(Clone, Debug)]
struct Sum {
    terms: Vec<(i64, usize)>,
    cmp: Cmp,
    rhs: i64,
}

impl Sum {
    fn value(terms: &[(i64, usize)], values: &[i32]) -> i64 {
        terms.iter().map(|&(c, x)| c * i64::from(values[x])).sum()
    }

    fn holds(&self, values: &[i32]) -> bool {
        let s = Sum::value(&self.terms, values);
        match self.cmp {
            Cmp::Lt => s < self.rhs,
            Cmp::Le => s <= self.rhs,
            Cmp::Ge => s >= self.rhs,
            Cmp::Gt => s > self.rhs,
            Cmp::Eq => s == self.rhs,
            _ => s != self.rhs,
        }
    }
}

/// A table constraint over variable indices: the tuples allowed (`supports`) or not.
#[derive(Clone, Debug)]
struct Table {
    scope: Vec<usize>,
    tuples: Vec<Vec<i32>>,
    supports: bool,
}

impl Table {
    fn holds(&self, values: &[i32]) -> bool {
        let listed = self
            .tuples
            .iter()
            .any(|t| t.iter().zip(&self.scope).all(|(&a, &i)| values[i] == a));
        listed == self.supports
    }
}

/// Whether the variables of `scope` have distinct values.
fn distinct(scope: &[usize], values: &[i32]) -> bool {
    let mut seen: Vec<i32> = scope.iter().map(|&i| values[i]).collect();
    seen.sort_unstable();
    seen.windows(2).all(|w| w[0] != w[1])
}

/// What is optimised.
#[derive(Clone, Debug)]
enum Target {
    /// One of the variables.
    Var(usize),
    /// A new variable over `lo..=hi`, equal to the sum.
    Sum {
        terms: Vec<(i64, usize)>,
        lo: i64,
        hi: i64,
    },
}

/// A random optimisation problem.
#[derive(Clone, Debug)]
struct Cop {
    domains: Vec<Vec<i32>>,
    givens: Vec<Option<i32>>,
    binary: Vec<(usize, usize, Rel)>,
    all_different: Vec<(Vec<usize>, Strength)>,
    sums: Vec<Sum>,
    tables: Vec<Table>,
    target: Target,
    maximise: bool,
}

impl Cop {
    /// The model and its objective variable, the objective set on the model.
    fn model(&self) -> (Model, VarId) {
        let mut m = self.constraints_only();
        let objective = match &self.target {
            Target::Var(i) => m.var(*i).expect("a variable"),
            Target::Sum { terms, lo, hi } => {
                let obj = m.int_var(*lo as i32, *hi as i32).unwrap();
                m.linear_var(&terms_of(&m, terms), Cmp::Eq, obj).unwrap();
                obj
            }
        };
        if self.maximise {
            m.maximize(objective).unwrap();
        } else {
            m.minimize(objective).unwrap();
        }
        (m, objective)
    }

    /// The variables and constraints but the objective's.
    fn constraints_only(&self) -> Model {
        let mut m = Model::new();
        let vars = add_vars(&mut m, &self.domains, &self.givens);
        for (x, y, rel) in &self.binary {
            m.post(vars[*x], vars[*y], rel.relation()).unwrap();
        }
        for (scope, strength) in &self.all_different {
            let scope: Vec<VarId> = scope.iter().map(|&i| vars[i]).collect();
            m.all_different_nary(&scope, *strength).unwrap();
        }
        for sum in &self.sums {
            m.linear(&terms_of(&m, &sum.terms), sum.cmp, sum.rhs).unwrap();
        }
        for table in &self.tables {
            let scope: Vec<VarId> = table.scope.iter().map(|&i| vars[i]).collect();
            let tuples = table
                .tuples
                .iter()
                .map(|t| t.iter().map(|&a| TableCell::Value(a)).collect())
                .collect();
            m.table(&scope, tuples, table.supports).unwrap();
        }
        m
    }

    /// Whether `values` (of the first variables) satisfies every constraint, each
    /// tested here.
    fn holds(&self, values: &[i32]) -> bool {
        self.binary
            .iter()
            .all(|(x, y, rel)| rel.holds(values[*x], values[*y]))
            && self
                .all_different
                .iter()
                .all(|(scope, _)| distinct(scope, values))
            && self.sums.iter().all(|sum| sum.holds(values))
            && self.tables.iter().all(|table| table.holds(values))
    }

    /// Every solution (all variables, the objective's last if it is new) with its
    /// objective value, by enumeration.
    fn brute_force(&self) -> Vec<(Vec<i32>, i64)> {
        let mut out = Vec::new();
        let mut values = Vec::new();
        self.enumerate(&mut values, &mut out);
        out
    }

    fn enumerate(&self, values: &mut Vec<i32>, out: &mut Vec<(Vec<i32>, i64)>) {
        let i = values.len();
        if i == self.domains.len() {
            if !self.holds(values) {
                return;
            }
            match &self.target {
                Target::Var(x) => out.push((values.clone(), i64::from(values[*x]))),
                Target::Sum { terms, lo, hi } => {
                    let s = Sum::value(terms, values);
                    if (*lo..=*hi).contains(&s) {
                        let mut full = values.clone();
                        full.push(s as i32);
                        out.push((full, s));
                    }
                }
            }
            return;
        }
        let candidates = match self.givens[i] {
            Some(g) => vec![g],
            None => self.domains[i].clone(),
        };
        for a in candidates {
            values.push(a);
            self.enumerate(values, out);
            values.pop();
        }
    }

    /// The optimal objective value, if there is a solution.
    fn optimum(&self) -> Option<i64> {
        let values = self.brute_force().into_iter().map(|(_, v)| v);
        if self.maximise { values.max() } else { values.min() }
    }

    /// Whether `a` is strictly better than `b`.
    fn better(&self, a: i64, b: i64) -> bool {
        if self.maximise { a > b } else { a < b }
    }
}

/// Terms over variable indices as terms over `m`'s variables.
fn terms_of(m: &Model, terms: &[(i64, usize)]) -> Vec<(i64, VarId)> {
    terms
        .iter()
        .map(|&(c, i)| (c, m.var(i).expect("a variable")))
        .collect()
}

/// Mostly inequalities: an equality with a random right-hand side rarely holds.
fn cmp() -> impl Strategy<Value = Cmp> {
    prop::sample::select(vec![
        Cmp::Lt,
        Cmp::Le,
        Cmp::Le,
        Cmp::Ge,
        Cmp::Ge,
        Cmp::Gt,
        Cmp::Eq,
        Cmp::Ne,
    ])
}

/// `terms` over distinct variables of `0..n`, with coefficients -3..=3 but 0.
fn terms(n: usize) -> impl Strategy<Value = Vec<(i64, usize)>> {
    prop::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n).prop_flat_map(|vars| {
        let k = vars.len();
        prop::collection::vec(prop::sample::select(vec![-3i64, -2, -1, 1, 2, 3]), k)
            .prop_map(move |cs| cs.into_iter().zip(vars.clone()).collect::<Vec<_>>())
    })
}

fn cop() -> impl Strategy<Value = Cop> {
    (2usize..=6).prop_flat_map(|n| {
        let domains =
            prop::collection::vec(prop::collection::btree_set(-3i32..=5, 1..=6), n).prop_map(|ds| {
                ds.into_iter()
                    .map(|d| d.into_iter().collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            });
        let givens = prop::collection::vec(prop::option::weighted(0.1, any::<prop::sample::Index>()), n);
        let binary =
            prop::collection::vec((0..n, 1..n, relation(-3..=5, 10..=40)), 0..=5).prop_map(move |cs| {
                cs.into_iter()
                    .map(|(x, d, r)| (x, (x + d) % n, r))
                    .collect::<Vec<_>>()
            });
        let all_different = prop::collection::vec(
            (
                prop::sample::subsequence((0..n).collect::<Vec<_>>(), 2..=n),
                prop::sample::select(Strength::ALL.to_vec()),
            ),
            0..=1,
        );
        let sums = prop::collection::vec(
            (terms(n), cmp(), -6i64..=6).prop_map(|(terms, cmp, rhs)| Sum { terms, cmp, rhs }),
            0..=2,
        );
        // Tables of supports over three values a variable, or of conflicts (which leave
        // most combinations).
        let tables = prop::collection::vec(
            prop::sample::subsequence((0..n).collect::<Vec<_>>(), 2..=n.min(3)).prop_flat_map(|scope| {
                let k = scope.len();
                let supports = prop::collection::vec(prop::collection::vec(-1i32..=1, k), 5..=20);
                let conflicts = prop::collection::vec(prop::collection::vec(-3i32..=5, k), 0..=20);
                (prop_oneof![
                    supports.prop_map(|t| (t, true)),
                    conflicts.prop_map(|t| (t, false))
                ])
                .prop_map(move |(tuples, supports)| Table {
                    scope: scope.clone(),
                    tuples,
                    supports,
                })
            }),
            0..=1,
        );
        // The objective: a variable, or a new one equal to a sum (its domain cut at
        // either end now and then, which removes solutions).
        let target = prop_oneof![
            (0..n).prop_map(Target::Var),
            (terms(n), 0i64..=3, 0i64..=3).prop_map(|(terms, cut_lo, cut_hi)| Target::Sum {
                terms,
                lo: cut_lo,
                hi: -cut_hi,
            }),
        ];
        let drawn = (
            domains,
            givens,
            binary,
            all_different,
            sums,
            tables,
            target,
            any::<bool>(),
        )
            .prop_map(
                |(domains, givens, binary, all_different, sums, tables, target, maximise)| Cop {
                    givens: values_at(&givens, &domains),
                    domains,
                    binary,
                    all_different,
                    sums,
                    tables,
                    target,
                    maximise,
                },
            );
        // Most models keep only the constraints a planted assignment satisfies: they have
        // solutions. The others may have none.
        let planted = prop::option::weighted(0.85, prop::collection::vec(any::<prop::sample::Index>(), n));
        (drawn, planted).prop_map(|(mut cop, planted)| {
            let planted: Option<Vec<i32>> = planted.map(|ixs| {
                let ixs: Vec<_> = ixs.into_iter().map(Some).collect();
                values_at(&ixs, &cop.domains).into_iter().flatten().collect()
            });
            if let Some(p) = &planted {
                cop.keep_satisfied_by(p);
            }
            cop.size_target(planted.as_deref());
            cop
        })
    })
}

/// The values the drawn indices pick in each domain.
fn values_at(indices: &[Option<prop::sample::Index>], domains: &[Vec<i32>]) -> Vec<Option<i32>> {
    indices
        .iter()
        .zip(domains)
        .map(|(ix, d)| ix.map(|ix| d[ix.index(d.len())]))
        .collect()
}

impl Cop {
    /// Keeps the constraints that `p` satisfies, and makes `p` agree with the givens.
    fn keep_satisfied_by(&mut self, p: &[i32]) {
        for (given, &value) in self.givens.iter_mut().zip(p) {
            if given.is_some() {
                *given = Some(value);
            }
        }
        self.binary.retain(|(x, y, rel)| rel.holds(p[*x], p[*y]));
        self.all_different.retain(|(scope, _)| distinct(scope, p));
        self.sums.retain(|sum| sum.holds(p));
        self.tables.retain(|table| table.holds(p));
    }

    /// A new objective's domain: the sum's range over the domains, cut as drawn (`lo` and
    /// `hi` carry the cuts), but not past the sum of the `planted` assignment.
    fn size_target(&mut self, planted: Option<&[i32]>) {
        let Target::Sum { terms, lo, hi } = &mut self.target else {
            return;
        };
        let (mut min, mut max) = (0i64, 0i64);
        for &(c, x) in terms.iter() {
            let d = &self.domains[x];
            let (a, b) = (i64::from(d[0]), i64::from(d[d.len() - 1]));
            min += (c * a).min(c * b);
            max += (c * a).max(c * b);
        }
        let (mut low, mut high) = (min + *lo, max + *hi);
        if let Some(p) = planted {
            let s = Sum::value(terms, p);
            (low, high) = (low.min(s), high.max(s));
        }
        (*lo, *hi) = (low.min(high), high);
    }
}

// ----- the strategies -----

/// The 18 textbook strategies, dom/wdeg, other value orders, restarts, probing and
/// branching on places.
fn configs() -> Vec<(String, SearchConfig)> {
    let plain = |name: &str| SearchConfig::with_strategy(name.parse::<SearchStrategy>().expect("a strategy"));
    let mut all: Vec<(String, SearchConfig)> = SearchStrategy::textbook()
        .into_iter()
        .map(|s| (s.to_string(), SearchConfig::with_strategy(s)))
        .collect();
    for name in [
        "dom-wdeg/asc/mac",
        "dom-wdeg/asc/fc",
        "dom-wdeg-fixed/lcv/mac",
        "dom-wdeg/desc/fc",
        "mrv/desc/mac",
    ] {
        all.push((name.to_string(), plain(name)));
    }
    for (name, seed) in [
        ("mrv/random/fc", 7),
        ("static/random/none", 3),
        ("dom-wdeg/random/mac", 11),
    ] {
        all.push((
            format!("{name} seed {seed}"),
            SearchConfig { seed, ..plain(name) },
        ));
    }
    all.push((
        "mrv/asc/fc random ties".to_string(),
        SearchConfig {
            tie_break: TieBreak::Random,
            seed: 5,
            ..plain("mrv/asc/fc")
        },
    ));
    let luby = Some(Restarts::Luby { scale: 1 });
    let geometric = Some(Restarts::Geometric {
        first: 2,
        factor: 1.5,
    });
    for (name, restarts) in [
        ("dom-wdeg/asc/mac", luby),
        ("mrv/asc/fc", luby),
        ("static/asc/none", luby),
        ("mrv/random/mac", luby),
        ("mrv-degree/lcv/fc", geometric),
        ("dom-wdeg/asc/mac", geometric),
    ] {
        let policy = restarts.expect("a policy");
        all.push((
            format!("{name} restarts {policy}"),
            SearchConfig {
                restarts,
                seed: 2,
                ..plain(name)
            },
        ));
    }
    for (name, restarts) in [("mrv/asc/mac", None), ("dom-wdeg/asc/mac", luby)] {
        all.push((
            format!("{name} probing, restarts {restarts:?}"),
            SearchConfig {
                probing: true,
                restarts,
                ..plain(name)
            },
        ));
    }
    for name in ["dom-wdeg/asc/mac", "mrv/asc/fc"] {
        all.push((
            format!("{name} places"),
            SearchConfig {
                branching: Branching::Places,
                ..plain(name)
            },
        ));
    }
    all
}

// ----- checks -----

fn without_time(stats: &Stats) -> Stats {
    Stats {
        elapsed: Duration::ZERO,
        ..stats.clone()
    }
}

/// One optimisation: the optimum, each improvement as it came, and the statistics.
struct Run {
    optimum: Optimum,
    improvements: Vec<(Vec<i32>, i64)>,
    stats: Stats,
}

fn optimise(model: &Model, config: SearchConfig) -> Run {
    let mut solver = Solver::new(model, config).unwrap();
    record_run(|on| solver.optimize_with(on)).with_stats(solver.stats())
}

/// An optimisation run by `optimize_with`, each improvement recorded (the statistics are
/// the caller's to add).
fn record_run(
    optimize_with: impl FnOnce(&mut dyn FnMut(&[i32], i64) -> bool) -> Result<Optimum, ConfigError>,
) -> Run {
    let mut improvements = Vec::new();
    let optimum = optimize_with(&mut |solution: &[i32], value: i64| {
        improvements.push((solution.to_vec(), value));
        true
    })
    .expect("the model has an objective");
    Run {
        optimum,
        improvements,
        stats: Stats::default(),
    }
}

impl Run {
    fn with_stats(mut self, stats: &Stats) -> Run {
        self.stats = stats.clone();
        self
    }
}

/// Everything a complete optimisation must satisfy, whatever the strategy.
fn check_complete(
    cop: &Cop,
    model: &Model,
    objective: VarId,
    optimum: Option<i64>,
    run: &Run,
    what: &str,
) -> Result<(), TestCaseError> {
    let Run {
        optimum: found,
        improvements,
        stats,
    } = run;
    prop_assert!(found.proved && found.limit.is_none(), "{}: {:?}", what, found);
    prop_assert_eq!(found.objective, optimum, "{}: optimum", what);
    prop_assert_eq!(found.best.is_some(), optimum.is_some(), "{}", what);
    if let Some(best) = &found.best {
        prop_assert!(
            model.is_solution(best),
            "{}: {:?} {:?}",
            what,
            best,
            model.violation(best)
        );
        prop_assert!(cop.holds(best), "{}: {:?} fails the oracle", what, best);
        prop_assert_eq!(
            Some(i64::from(best[objective.index()])),
            found.objective,
            "{}",
            what
        );
    }
    check_improvements(cop, model, objective, improvements, what)?;
    prop_assert_eq!(
        improvements.last().map(|(s, v)| (s.clone(), *v)),
        found.best.clone().zip(found.objective),
        "{}: the last improvement is the optimum",
        what
    );
    prop_assert_eq!(stats.objective, found.objective, "{}", what);
    prop_assert_eq!(stats.solutions, improvements.len() as u64, "{}", what);
    prop_assert_eq!(stats.nodes_to_proof, Some(stats.nodes), "{}", what);
    prop_assert!(stats.nodes_to_best.unwrap_or(0) <= stats.nodes, "{}", what);
    prop_assert_eq!(stats.nodes_to_best.is_some(), found.best.is_some(), "{}", what);
    Ok(())
}

/// Each improvement is a solution whose objective has the value reported, strictly
/// better than the one before.
fn check_improvements(
    cop: &Cop,
    model: &Model,
    objective: VarId,
    improvements: &[(Vec<i32>, i64)],
    what: &str,
) -> Result<(), TestCaseError> {
    for (solution, value) in improvements {
        prop_assert!(model.is_solution(solution), "{}: {:?}", what, solution);
        prop_assert_eq!(i64::from(solution[objective.index()]), *value, "{}", what);
    }
    for pair in improvements.windows(2) {
        prop_assert!(
            cop.better(pair[1].1, pair[0].1),
            "{}: {} after {}",
            what,
            pair[1].1,
            pair[0].1
        );
    }
    Ok(())
}

/// Two runs that must be the same search: the same improvements and statistics.
fn same_search(a: &Run, b: &Run, what: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(&a.improvements, &b.improvements, "{}", what);
    prop_assert_eq!(without_time(&a.stats), without_time(&b.stats), "{}", what);
    Ok(())
}

fn with_limits(config: &SearchConfig, limits: Limits) -> SearchConfig {
    SearchConfig {
        limits,
        ..config.clone()
    }
}

fn check_all_configs(cop: &Cop) -> Result<(), TestCaseError> {
    let (model, objective) = cop.model();
    let optimum = cop.optimum();
    for (name, config) in configs() {
        let run = optimise(&model, config.clone());
        check_complete(cop, &model, objective, optimum, &run, &name)?;

        // Determinism.
        same_search(&optimise(&model, config.clone()), &run, &format!("{name} again"))?;

        // Every level rebuilt by replay, each under the bound its decision had: the same
        // search (restarts then rebuild their runs differently: the same optimum).
        let replayed = optimise(
            &model,
            SearchConfig {
                max_trail: 0,
                ..config.clone()
            },
        );
        check_complete(
            cop,
            &model,
            objective,
            optimum,
            &replayed,
            &format!("{name} max_trail 0"),
        )?;
        if config.restarts.is_none() {
            same_search(&replayed, &run, &format!("{name} replayed"))?;
        }

        // Until the first solution no bound is set: the search is `solve`'s, node for node.
        let one = Limits {
            solutions: Some(1),
            ..Limits::default()
        };
        let capped = optimise(&model, with_limits(&config, one));
        let mut plain = Solver::new(&model, config.clone()).unwrap();
        let first = plain.solve();
        prop_assert_eq!(
            first.solution(),
            capped.improvements.first().map(|(s, _)| &s[..]),
            "{}: first solution",
            name
        );
        let unset = |stats: &Stats| Stats {
            objective: None,
            nodes_to_best: None,
            nodes_to_proof: None,
            ..without_time(stats)
        };
        prop_assert_eq!(
            unset(&capped.stats),
            unset(plain.stats()),
            "{}: first solution",
            name
        );

        // Node limits: a prefix of the same improvements, not proved; or the whole search.
        for limit in [1, 3, run.stats.nodes / 2] {
            let nodes = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let limited = optimise(&model, with_limits(&config, nodes));
            let what = format!("{name} node limit {limit}");
            if limited.optimum.limit.is_none() {
                prop_assert_eq!(&limited.optimum, &run.optimum, "{}", what);
                continue;
            }
            prop_assert_eq!(limited.optimum.limit, Some(LimitKind::Nodes), "{}", what);
            prop_assert!(!limited.optimum.proved, "{}", what);
            prop_assert_eq!(limited.stats.nodes_to_proof, None, "{}", what);
            let n = limited.improvements.len();
            prop_assert!(n <= run.improvements.len(), "{}", what);
            prop_assert_eq!(&limited.improvements[..], &run.improvements[..n], "{}", what);
            if let (Some(value), Some(best)) = (limited.optimum.objective, optimum) {
                prop_assert!(!cop.better(value, best), "{}: better than the optimum", what);
            }
            if let (Some(bound), Some(best)) = (limited.optimum.bound, optimum) {
                prop_assert!(
                    !cop.better(best, bound),
                    "{}: bound {} past the optimum {}",
                    what,
                    bound,
                    best
                );
            }
        }
    }

    // The objective given to the solver instead of the model: the same search.
    if let Target::Var(_) = cop.target {
        let bare = cop.constraints_only();
        let mut solver = Solver::new(&bare, SearchConfig::default()).unwrap();
        let found = if cop.maximise {
            solver.maximize(objective)
        } else {
            solver.minimize(objective)
        };
        let run = optimise(&model, SearchConfig::default());
        prop_assert_eq!(found.ok(), Some(run.optimum), "minimize/maximize");
    }
    // Counting ignores the objective: the solutions of the constraints.
    let count = Solver::new(&model, SearchConfig::default()).unwrap().count();
    prop_assert_eq!(count.solutions, cop.brute_force().len() as u64, "count");
    Ok(())
}

/// Large neighbourhood search, on complete searches of every kind of inference, with
/// turns and neighbourhoods of a few nodes (so that neighbourhoods are searched even on
/// these small models), each kind of neighbourhood alone and all together: the same
/// optimum, proved; improvements strictly better, solutions that check out; under a node
/// limit, nothing better than the optimum and a bound that holds.
fn check_lns(cop: &Cop) -> Result<(), TestCaseError> {
    let (model, objective) = cop.model();
    let optimum = cop.optimum();
    let plain = |name: &str| SearchConfig::with_strategy(name.parse::<SearchStrategy>().expect("a strategy"));
    let geometric = Some(Restarts::Geometric {
        first: 2,
        factor: 1.5,
    });
    let searches = [
        (
            "dom-wdeg/asc/mac geometric",
            SearchConfig {
                restarts: geometric,
                ..plain("dom-wdeg/asc/mac")
            },
        ),
        ("mrv/asc/fc", plain("mrv/asc/fc")),
        ("static/asc/none", plain("static/asc/none")),
        (
            "run-robin/asc/mac",
            SearchConfig {
                restarts: geometric,
                ..plain("run-robin/asc/mac")
            },
        ),
    ];
    let kinds: Vec<Vec<NeighbourhoodKind>> = std::iter::once(NeighbourhoodKind::ALL.to_vec())
        .chain(NeighbourhoodKind::ALL.iter().map(|&k| vec![k]))
        .collect();
    for (name, config) in searches {
        for (i, kinds) in kinds.iter().enumerate() {
            let lns = LnsConfig {
                kinds: kinds.clone(),
                neighbourhood_failures: 1 + i as u64 * 3,
                complete_nodes: 1 + i as u64 % 2,
                seed: i as u64,
                ..LnsConfig::default()
            };
            let what = format!("{name} LNS {kinds:?}");
            let run = optimise_lns(&model, config.clone(), lns.clone());
            check_complete(cop, &model, objective, optimum, &run, &what)?;
            prop_assert_eq!(run.optimum.bound, optimum, "{}: bound", what);
            prop_assert!(run.stats.lns_nodes <= run.stats.nodes, "{}", what);
            for limit in [1, 2, run.stats.nodes / 2] {
                let nodes = Limits {
                    nodes: Some(limit),
                    ..Limits::default()
                };
                let limited = optimise_lns(&model, with_limits(&config, nodes), lns.clone());
                let what = format!("{what} node limit {limit}");
                check_improvements(cop, &model, objective, &limited.improvements, &what)?;
                prop_assert!(limited.stats.nodes <= limit.max(run.stats.nodes), "{}", what);
                if limited.optimum.proved {
                    prop_assert_eq!(limited.optimum.objective, optimum, "{}", what);
                    continue;
                }
                prop_assert_eq!(limited.optimum.limit, Some(LimitKind::Nodes), "{}", what);
                prop_assert!(
                    limited.stats.nodes <= limit,
                    "{}: {} nodes",
                    what,
                    limited.stats.nodes
                );
                if let (Some(value), Some(best)) = (limited.optimum.objective, optimum) {
                    prop_assert!(!cop.better(value, best), "{}: better than the optimum", what);
                }
                if let (Some(bound), Some(best)) = (limited.optimum.bound, optimum) {
                    prop_assert!(
                        !cop.better(best, bound),
                        "{}: bound {} past the optimum {}",
                        what,
                        bound,
                        best
                    );
                }
            }
        }
    }
    Ok(())
}

fn optimise_lns(model: &Model, config: SearchConfig, lns: LnsConfig) -> Run {
    let mut solver = LnsSolver::new(model, config, lns).unwrap();
    record_run(|on| solver.optimize_with(on)).with_stats(solver.stats())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_strategy_finds_the_optimum_of_brute_force(cop in cop()) {
        check_all_configs(&cop)?;
    }

    #[test]
    fn large_neighbourhood_search_finds_the_optimum_of_brute_force(cop in cop()) {
        check_lns(&cop)?;
    }

    #[test]
    fn parallel_search_finds_the_optimum_of_brute_force(
        cop in cop(),
        threads in 2usize..=8,
        per_thread in 1usize..=4,
        node_limit in 0u64..=30,
    ) {
        check_parallel(&cop, threads, per_thread, node_limit)?;
    }
}

/// Parallel branch and bound (`ParallelSolver`), the bound shared between threads: the
/// optimum of brute force, proved, each improvement a solution strictly better than the
/// one before; under a node limit, at most that many nodes over all threads together.
fn check_parallel(
    cop: &Cop,
    threads: usize,
    per_thread: usize,
    node_limit: u64,
) -> Result<(), TestCaseError> {
    let (model, objective) = cop.model();
    let optimum = cop.optimum();
    let plain = |name: &str| SearchConfig::with_strategy(name.parse::<SearchStrategy>().expect("a strategy"));
    let searches = [
        ("mrv/asc/fc", plain("mrv/asc/fc")),
        ("static/asc/none", plain("static/asc/none")),
        (
            "dom-wdeg/asc/mac luby:1",
            SearchConfig {
                restarts: Some(Restarts::Luby { scale: 1 }),
                ..plain("dom-wdeg/asc/mac")
            },
        ),
    ];
    for (name, config) in searches {
        for limit in [None, Some(node_limit)] {
            let what = format!("{name}, {threads} threads, {per_thread} a thread, node limit {limit:?}");
            let config = SearchConfig {
                limits: Limits {
                    nodes: limit,
                    ..Limits::default()
                },
                ..config.clone()
            };
            let mut solver = ParallelSolver::new(&model, config, threads)
                .unwrap()
                .subproblems_per_thread(per_thread);
            let mut improvements: Vec<(Vec<i32>, i64)> = Vec::new();
            let found = solver
                .optimize_with(|solution, value| {
                    improvements.push((solution.to_vec(), value));
                    true
                })
                .unwrap();
            check_improvements(cop, &model, objective, &improvements, &what)?;
            prop_assert_eq!(
                improvements.last().map(|(s, v)| (s.clone(), *v)),
                found.best.clone().zip(found.objective),
                "{}: the last improvement is the best",
                what
            );
            if let Some(limit) = limit {
                prop_assert!(
                    solver.stats().nodes <= limit,
                    "{}: {} nodes",
                    what,
                    solver.stats().nodes
                );
            }
            if found.proved {
                prop_assert_eq!(found.objective, optimum, "{}: optimum", what);
                prop_assert_eq!(found.bound, optimum, "{}: bound", what);
            } else {
                prop_assert!(
                    limit.is_some(),
                    "{}: not proved without a limit: {:?}",
                    what,
                    found
                );
                prop_assert_eq!(found.limit, Some(LimitKind::Nodes), "{}", what);
                if let (Some(v), Some(best)) = (found.objective, optimum) {
                    prop_assert!(!cop.better(v, best), "{}: {} beats the optimum {}", what, v, best);
                }
            }
        }
    }
    Ok(())
}

// ----- single cases -----

#[test]
fn an_unsatisfiable_cop_has_no_best_and_is_proved() {
    let mut m = Model::new();
    let v = m.int_vars(3, 1, 2).unwrap();
    m.all_different(&v).unwrap();
    m.minimize(v[0]).unwrap();
    for (name, config) in configs() {
        let mut solver = Solver::new(&m, config).unwrap();
        let optimum = solver.optimize().unwrap();
        assert_eq!(
            optimum,
            Optimum {
                best: None,
                objective: None,
                proved: true,
                limit: None,
                bound: None,
            },
            "{name}"
        );
        let stats = solver.stats();
        assert_eq!(stats.objective, None);
        assert_eq!(stats.nodes_to_proof, Some(stats.nodes), "{name}");
    }
}

#[test]
fn misuse_is_an_error_not_a_panic() {
    let mut m = Model::new();
    let x = m.int_var(1, 3).unwrap();
    let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    assert_eq!(solver.optimize(), Err(ConfigError::NoObjective));
    let far = Model::new().int_vars(8, 0, 1).unwrap()[7];
    assert_eq!(
        solver.minimize(far),
        Err(ConfigError::UnknownObjectiveVariable { index: 7, count: 1 })
    );
    assert!(m.minimize(far).is_err(), "the model checks its variable");
    assert_eq!(m.objective(), None);

    m.maximize(x).unwrap();
    let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    assert!(solver.solve().solution().is_some());
    assert_eq!(solver.optimize(), Err(ConfigError::SearchStarted), "after solve");
    let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    assert_eq!(solver.optimize().unwrap().objective, Some(3));
    assert_eq!(
        solver.minimize(x),
        Err(ConfigError::SearchStarted),
        "another objective"
    );
    assert_eq!(solver.optimize().unwrap().objective, Some(3), "again: the same");
}

#[test]
fn a_callback_that_says_stop_and_a_resumed_search() {
    // Maximise x + y with x, y in 0..=9 and x != y: improvements come one by one.
    let mut m = Model::new();
    let v = m.int_vars(2, 0, 9).unwrap();
    let sum = m.int_var(0, 18).unwrap();
    m.not_equal(v[0], v[1]).unwrap();
    m.linear_var(&[(1, v[0]), (1, v[1])], Cmp::Eq, sum).unwrap();
    m.maximize(sum).unwrap();
    let config = SearchConfig::with_strategy("static/asc/mac".parse().unwrap());
    let full = optimise(&m, config.clone());
    assert_eq!(full.optimum.objective, Some(17));
    assert!(full.improvements.len() > 2, "{:?}", full.improvements);

    let mut solver = Solver::new(&m, config).unwrap();
    let mut seen = Vec::new();
    let first = solver
        .optimize_with(|_, value| {
            seen.push(value);
            false
        })
        .unwrap();
    assert!(!first.proved && first.limit.is_none());
    assert_eq!(first.objective, Some(full.improvements[0].1));
    let rest = solver.optimize().unwrap();
    assert_eq!(rest, full.optimum);
    assert_eq!(without_time(solver.stats()), without_time(&full.stats));
}

#[test]
fn limits_return_the_best_so_far_unproved() {
    let mut m = Model::new();
    let v = m.int_vars(6, 0, 5).unwrap();
    m.all_different(&v).unwrap();
    m.minimize(v[5]).unwrap();
    let cancel = Arc::new(AtomicBool::new(true));
    let config = SearchConfig {
        limits: Limits {
            cancel: Some(cancel),
            ..Limits::default()
        },
        ..SearchConfig::default()
    };
    let optimum = Solver::new(&m, config).unwrap().optimize().unwrap();
    assert_eq!(optimum.limit, Some(LimitKind::Cancelled));
    assert!(!optimum.proved && optimum.best.is_none());

    // A cap on solutions counts improvements.
    let capped = SearchConfig {
        limits: Limits {
            solutions: Some(1),
            ..Limits::default()
        },
        ..SearchConfig::with_strategy("static/desc/fc".parse().unwrap())
    };
    let mut solver = Solver::new(&m, capped).unwrap();
    let optimum = solver.optimize().unwrap();
    assert_eq!(optimum.limit, Some(LimitKind::Solutions));
    assert_eq!(optimum.objective, Some(0), "descending values put 0 last");
    assert!(!optimum.proved);
}

#[test]
fn a_given_objective_is_its_own_optimum() {
    let mut m = Model::new();
    let v = m.int_vars(3, 0, 4).unwrap();
    m.all_different(&v).unwrap();
    m.fix(v[1], 2).unwrap();
    m.maximize(v[1]).unwrap();
    for (name, config) in configs() {
        let optimum = Solver::new(&m, config).unwrap().optimize().unwrap();
        assert_eq!(optimum.objective, Some(2), "{name}");
        assert!(optimum.proved, "{name}");
    }
}

#[test]
fn the_new_statistics_are_written_and_serialised() {
    let mut m = Model::new();
    let x = m.int_var(1, 3).unwrap();
    m.minimize(x).unwrap();
    let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    let text = solver.stats().to_string();
    assert!(
        text.contains("\nobjective=none\nnodes_to_best=none\nnodes_to_proof=none\n"),
        "{text}"
    );
    solver.optimize().unwrap();
    let stats = solver.stats();
    let text = stats.to_string();
    assert!(
        text.contains("\nobjective=1\nnodes_to_best=1\nnodes_to_proof=1\n"),
        "{text}"
    );
    let json = serde_json::to_value(stats).unwrap();
    assert_eq!(json["objective"], 1);
    assert_eq!(json["nodes_to_best"], 1);
    assert_eq!(json["nodes_to_proof"], 1);
    assert_eq!(
        serde_json::to_value(Stats::default()).unwrap()["objective"],
        serde_json::Value::Null
    );
    // Read back; a record written before these fields existed reads them as none.
    let back: Stats = serde_json::from_value(json).unwrap();
    assert_eq!(without_time(&back), without_time(stats));
    let old: Stats = serde_json::from_str(r#"{"nodes": 3, "elapsed_ms": 1.5}"#).unwrap();
    assert_eq!(
        (old.objective, old.nodes_to_best, old.nodes_to_proof),
        (None, None, None)
    );
    assert_eq!(m.objective(), Some(Objective::Minimize(x)));
}

// ----- Golomb rulers: optima published (OEIS A003022) -----

/// A Golomb ruler of `marks` marks up to `longest`: marks `x_0 = 0 < x_1 < ...`, all
/// the differences `x_j - x_i` distinct (one variable each, linked by a sum), the first
/// difference shorter than the last (mirror images); the last mark is minimised.
fn golomb(marks: usize, longest: i32) -> (Model, VarId) {
    let mut m = Model::new();
    let x = m.int_vars(marks, 0, longest).unwrap();
    m.fix(x[0], 0).unwrap();
    for pair in x.windows(2) {
        m.post(pair[0], pair[1], Relation::Less).unwrap();
    }
    let mut differences = Vec::new();
    for i in 0..marks {
        for j in i + 1..marks {
            let d = m.int_var(1, longest).unwrap();
            m.linear_var(&[(1, x[j]), (-1, x[i])], Cmp::Eq, d).unwrap();
            differences.push(d);
        }
    }
    m.all_different_nary(&differences, Strength::Gac).unwrap();
    let last_gap = *differences.last().unwrap();
    m.post(differences[0], last_gap, Relation::Less).unwrap();
    m.minimize(x[marks - 1]).unwrap();
    (m, x[marks - 1])
}

/// The shortest Golomb rulers of 1 to 11 marks (OEIS A003022, with 0 for one mark).
const GOLOMB: [i64; 11] = [0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72];

#[test]
fn golomb_rulers_of_up_to_six_marks_reach_their_published_optima() {
    let plain = |name: &str| SearchConfig::with_strategy(name.parse().unwrap());
    // Deeper searches than the random models': restarts and replays under a bound.
    let restarting = SearchConfig {
        restarts: Some(Restarts::Luby { scale: 4 }),
        max_trail: 0,
        ..plain("dom-wdeg/asc/mac")
    };
    for marks in 3..=6 {
        let (m, _) = golomb(marks, 20);
        let configs = [
            plain("dom-wdeg/asc/mac"),
            plain("mrv/asc/fc"),
            plain("static/asc/mac"),
            restarting.clone(),
        ];
        for config in configs {
            let what = format!("{marks} marks, {} {:?}", config.strategy, config.restarts);
            let optimum = Solver::new(&m, config).unwrap().optimize().unwrap();
            assert!(optimum.proved, "{what}");
            assert_eq!(optimum.objective, Some(GOLOMB[marks - 1]), "{what}");
            assert!(m.is_solution(optimum.best.as_deref().unwrap()), "{what}");
        }
    }
}

/// The measurement in `docs/performance.md`:
/// `cargo test --release -p csp-core --test engine optimisation golomb_rulers_measured -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement: seconds in release"]
fn golomb_rulers_measured() {
    for marks in 7..=9 {
        let (m, _) = golomb(marks, GOLOMB[marks - 1] as i32 + 10);
        for strategy in ["dom-wdeg/asc/mac", "mrv/asc/mac"] {
            let config = SearchConfig::with_strategy(strategy.parse().unwrap());
            let mut solver = Solver::new(&m, config).unwrap();
            let optimum = solver.optimize().unwrap();
            assert_eq!(optimum.objective, Some(GOLOMB[marks - 1]));
            let stats = solver.stats();
            println!(
                "{marks} marks, {strategy}: {} improvements, nodes to best {:?}, to proof {:?}, {:.3} s",
                stats.solutions,
                stats.nodes_to_best,
                stats.nodes_to_proof,
                stats.elapsed.as_secs_f64()
            );
        }
    }
}
