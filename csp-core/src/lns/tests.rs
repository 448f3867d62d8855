use super::fixer::{Fixer, FixerScratch};
use super::*;
use crate::Cmp;

/// A knapsack of `n` items (weights and values made up, capacity a third of the weight):
/// the take variables, and the value maximised.
fn knapsack(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let take = m.int_vars(n, 0, 1).unwrap();
    let weights: Vec<i64> = (0..n as i64).map(|i| 3 + (i * 7) % 11).collect();
    let values: Vec<i64> = (0..n as i64).map(|i| 2 + (i * 5) % 13).collect();
    let total: i64 = values.iter().sum();
    let value = m.int_var(0, total as i32).unwrap();
    let w: Vec<_> = weights.iter().zip(&take).map(|(&w, &x)| (w, x)).collect();
    let v: Vec<_> = values.iter().zip(&take).map(|(&v, &x)| (v, x)).collect();
    m.linear(&w, Cmp::Le, weights.iter().sum::<i64>() / 3).unwrap();
    m.linear_var(&v, Cmp::Eq, value).unwrap();
    m.maximize(value).unwrap();
    (m, take)
}

fn mac() -> SearchConfig {
    SearchConfig::with_strategy("dom-wdeg/asc/mac".parse().unwrap())
}

#[test]
fn neighbourhoods_are_searched_and_the_optimum_is_branch_and_bound_s() {
    let (m, take) = knapsack(18);
    let exact = Solver::new(&m, mac()).unwrap().optimize().unwrap();
    for kind in NeighbourhoodKind::ALL {
        let config = LnsConfig {
            decision_vars: Some(take.clone()),
            kinds: vec![kind],
            neighbourhood_failures: 20,
            complete_nodes: 10,
            seed: 3,
        };
        let mut lns = LnsSolver::new(&m, mac(), config).unwrap();
        let optimum = lns.optimize().unwrap();
        assert!(optimum.proved, "{kind}");
        assert_eq!(optimum.objective, exact.objective, "{kind}");
        let stats = lns.stats();
        assert!(
            stats.neighbourhoods > 0 && stats.lns_nodes > 0,
            "{kind}: {stats:?}"
        );
        let report = lns.report();
        assert_eq!(report.kinds.len(), 1);
        assert_eq!(report.kinds[0].1, stats.neighbourhoods, "{kind}");
        assert!(m.is_solution(optimum.best.as_ref().unwrap()));
    }
}

#[test]
fn a_neighbourhood_closed_leaves_the_root_as_it_was() {
    let (m, take) = knapsack(12);
    let objective = m.objective().unwrap();
    let mut first = Solver::new(&m, mac()).unwrap();
    let incumbent = match first.solve() {
        crate::Outcome::Solved(values) => values,
        other => panic!("{other:?}"),
    };
    let value = i64::from(incumbent[objective.var().index()]);
    let mut solver = Solver::new(&m, neighbourhood_config(mac())).unwrap();
    let mut scratch = FixerScratch::new(m.num_vars(), &take);
    for round in 0..3 {
        assert!(solver.open_neighbourhood(&objective, &incumbent, value));
        let sizes: Vec<u32> = m.vars().map(|v| solver.domain_size(v)).collect();
        let mut fixer = Fixer::new(&mut solver, &mut scratch, &take, &incumbent, 4);
        for &v in &take {
            if fixer.done() {
                break;
            }
            fixer.fix(v);
        }
        assert!(fixer.done(), "round {round}");
        assert!(fixer.fixed() > 0);
        let free = take.iter().filter(|&&v| solver.domain_size(v) > 1).count();
        assert!(free <= 4, "round {round}: {free} free");
        let _ = solver.search_neighbourhood(50, 5);
        solver.close_neighbourhood();
        let after: Vec<u32> = m.vars().map(|v| solver.domain_size(v)).collect();
        assert!(
            after.iter().zip(&sizes).all(|(a, s)| a >= s),
            "round {round}: {after:?} {sizes:?}"
        );
        assert!(take.iter().all(|&v| !solver.is_assigned(v)), "round {round}");
    }
}

#[test]
fn the_objective_s_terms_follow_its_definition() {
    let (m, take) = knapsack(5);
    let objective = m.objective().unwrap().var();
    let terms = neighbourhoods::objective_terms(&m, objective, &take);
    let vars: Vec<VarId> = terms.iter().map(|&(_, v)| v).collect();
    assert_eq!(vars, take);
    assert!(
        terms.iter().all(|&(w, _)| w > 0),
        "the value grows with each item: {terms:?}"
    );
}

#[test]
fn branch_and_bound_in_turns_is_the_same_search() {
    let (m, _) = knapsack(16);
    let objective = m.objective().unwrap();
    let geometric = crate::Restarts::Geometric {
        first: 10,
        factor: 1.5,
    };
    for name in ["dom-wdeg/asc/mac", "run-robin/asc/mac", "mrv/asc/fc"] {
        let config = SearchConfig {
            restarts: Some(geometric),
            ..SearchConfig::with_strategy(name.parse().unwrap())
        };
        let mut whole = Solver::new(&m, config.clone()).unwrap();
        let mut all = Vec::new();
        let exact = whole
            .optimize_with(|_, v| {
                all.push(v);
                true
            })
            .unwrap();
        let mut sliced = Solver::new(&m, config).unwrap();
        let mut seen = Vec::new();
        let last = loop {
            let optimum = sliced
                .branch_and_bound_for(objective.clone(), Some(7), |_, v| {
                    seen.push(v);
                    true
                })
                .unwrap();
            if optimum.limit != Some(crate::LimitKind::Nodes) {
                break optimum;
            }
        };
        assert_eq!(last, exact, "{name}");
        assert_eq!(seen, all, "{name}");
        let mut a = whole.stats().clone();
        let mut b = sliced.stats().clone();
        a.elapsed = Default::default();
        b.elapsed = Default::default();
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn a_decision_variable_the_model_lacks_is_an_error() {
    let (m, _) = knapsack(3);
    let config = LnsConfig {
        decision_vars: Some(vec![VarId(99)]),
        ..LnsConfig::default()
    };
    let err = LnsSolver::new(&m, mac(), config).err();
    assert_eq!(
        err,
        Some(ConfigError::UnknownDecisionVariable { index: 99, count: 4 })
    );
    let mut bare = Model::new();
    bare.int_var(0, 1).unwrap();
    assert_eq!(
        LnsSolver::new(&bare, mac(), LnsConfig::default()).err(),
        Some(ConfigError::NoObjective)
    );
}
