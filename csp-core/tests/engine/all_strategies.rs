//! Solving one model under every strategy and comparing with the expected solutions (the
//! brute-force oracle of the property tests of n-ary constraints).

// Each test crate that includes this module uses part of it.

use csp_core::{
    Domain, Model, ModelError, Outcome, Restarts, SearchConfig, Solver, Stats, Strategy as SearchStrategy,
    VarId,
};
use proptest::prelude::*;

/// A solver for `model` (the configurations are all valid).
pub fn solver(model: &Model, config: SearchConfig) -> Solver<'_> {
    Solver::new(model, config).unwrap()
}

/// The configurations compared: the 18 textbook strategies, the weighted orders, and
/// restarts under three of them.
pub fn configs() -> Vec<SearchConfig> {
    let weighted = [
        "dom-wdeg/asc/mac",
        "dom-wdeg-fixed/asc/fc",
        "dom-wdeg-fixed/lcv/mac",
    ]
    .map(|name| name.parse::<SearchStrategy>().expect("a strategy"));
    let mut configs: Vec<SearchConfig> = SearchStrategy::textbook()
        .into_iter()
        .chain(weighted)
        .map(SearchConfig::with_strategy)
        .collect();
    for name in ["dom-wdeg/asc/mac", "mrv/asc/fc", "static/asc/none"] {
        configs.push(SearchConfig {
            restarts: Some(Restarts::Luby { scale: 1 }),
            ..SearchConfig::with_strategy(name.parse().unwrap())
        });
    }
    configs
}

/// Every configuration of [`configs`] enumerates, counts and solves exactly `expected`
/// (sorted), and each solution passes the model's own check.
pub fn check_all_strategies(model: &Model, expected: &[Vec<i32>]) -> Result<(), TestCaseError> {
    for config in configs() {
        let what = format!("{} restarts {:?}", config.strategy, config.restarts);
        let mut s = solver(model, config.clone());
        let mut found: Vec<Vec<i32>> = s.solutions().collect();
        for sol in &found {
            prop_assert!(
                model.is_solution(sol),
                "{what}: {sol:?}: {:?}",
                model.violation(sol)
            );
        }
        let first = found.first().cloned();
        found.sort();
        prop_assert_eq!(&found, &expected.to_vec(), "{}: solution set", what);
        let count = solver(model, config.clone()).count();
        prop_assert_eq!(count.solutions, expected.len() as u64, "{}: count", what);
        prop_assert!(count.complete);
        match solver(model, config.clone()).solve() {
            Outcome::Solved(sol) => {
                prop_assert!(model.is_solution(&sol));
                if config.restarts.is_none() {
                    prop_assert_eq!(Some(sol), first, "{}: first solution", what);
                }
            }
            Outcome::Unsatisfiable => prop_assert!(expected.is_empty(), "{}: unsatisfiable", what),
            Outcome::Limit(kind) => prop_assert!(false, "{what}: limit {kind}"),
        }
    }
    Ok(())
}

/// The statistics of a full enumeration, without the time.
pub fn enumeration_stats(model: &Model, config: SearchConfig) -> Stats {
    let mut s = solver(model, config);
    s.count();
    Stats {
        elapsed: Default::default(),
        ..s.stats().clone()
    }
}

/// A constraint of a test, with a definition of its own (the oracle) and its posting.
pub trait Oracle {
    /// Whether the complete assignment `s` (one value per variable) satisfies it.
    fn holds(&self, s: &[i32]) -> bool;
    /// Posts it on the variables `v`.
    fn post(&self, m: &mut Model, v: &[VarId]) -> Result<(), ModelError>;
}

/// A random model: domains, givens and constraints.
#[derive(Clone, Debug)]
pub struct Spec<C> {
    pub domains: Vec<Vec<i32>>,
    pub givens: Vec<Option<i32>>,
    pub cons: Vec<C>,
}

impl<C: Oracle> Spec<C> {
    /// A spec whose givens are drawn as indices into the domains.
    pub fn new(
        domains: Vec<Vec<i32>>,
        givens: Vec<Option<proptest::sample::Index>>,
        cons: Vec<C>,
    ) -> Spec<C> {
        let givens = givens
            .iter()
            .zip(&domains)
            .map(|(g, d)| g.map(|i| d[i.index(d.len())]))
            .collect();
        Spec {
            domains,
            givens,
            cons,
        }
    }

    /// The model, every constraint posted.
    pub fn model(&self) -> Model {
        self.try_model().expect("a valid constraint")
    }

    /// The model, or why posting a constraint was refused.
    pub fn try_model(&self) -> Result<Model, ModelError> {
        let mut m = Model::new();
        let v: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.add_var(Domain::from_values(d.iter().copied()).unwrap()))
            .collect();
        for (&x, g) in v.iter().zip(&self.givens) {
            if let Some(g) = *g {
                m.fix(x, g).unwrap();
            }
        }
        for c in &self.cons {
            c.post(&mut m, &v)?;
        }
        Ok(m)
    }

    /// Every assignment of the domains that the givens and the oracles accept, sorted.
    pub fn brute_force(&self) -> Vec<Vec<i32>> {
        let n = self.domains.len();
        let mut out = Vec::new();
        let mut at = vec![0usize; n];
        loop {
            let s: Vec<i32> = (0..n).map(|i| self.domains[i][at[i]]).collect();
            let givens_ok = s.iter().zip(&self.givens).all(|(a, g)| g.is_none_or(|g| g == *a));
            if givens_ok && self.cons.iter().all(|c| c.holds(&s)) {
                out.push(s);
            }
            let mut i = n;
            loop {
                if i == 0 {
                    out.sort();
                    return out;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < self.domains[i].len() {
                    break;
                }
                at[i] = 0;
            }
        }
    }
}
