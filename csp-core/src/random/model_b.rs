//! Model B ⟨n, d, p1, p2⟩ (Smith and Dyer 1996; Gent et al. 2001): exactly
//! `round(p1 · n(n-1)/2)` binary constraints on distinct pairs of variables, each
//! forbidding exactly `round(p2 · d²)` distinct pairs of values.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{
    Nogoods, RandomCsp, RandomError, check_at_least, check_probability, check_size, round_count, sample,
};

/// The parameters of model B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelB {
    /// Variables (at least 2).
    pub n: usize,
    /// Values per domain (at least 1).
    pub d: usize,
    /// Density: the fraction of the `n(n-1)/2` pairs of variables constrained.
    pub p1: f64,
    /// Tightness: the fraction of the `d²` pairs of values each constraint forbids.
    pub p2: f64,
}

impl ModelB {
    /// Checks the parameters and the instance's size.
    pub fn check(&self) -> Result<(), RandomError> {
        check_at_least("n", self.n, 2, "at least 2")?;
        check_at_least("d", self.d, 1, "at least 1")?;
        check_probability("p1", self.p1)?;
        check_probability("p2", self.p2)?;
        let d = self.d as u64;
        check_size(
            self.n as u64,
            self.constraint_count() as u64,
            self.nogoods_per_constraint() as u64,
            d,
        )
    }

    /// The number of pairs of variables, `n(n-1)/2`.
    fn pair_count(&self) -> u64 {
        let n = self.n as u64;
        n.saturating_mul(n.saturating_sub(1)) / 2
    }

    /// The number of constraints: `round(p1 · n(n-1)/2)`.
    pub fn constraint_count(&self) -> usize {
        round_count(self.p1 * self.pair_count() as f64).min(self.pair_count()) as usize
    }

    /// The number of forbidden pairs per constraint: `round(p2 · d²)`.
    pub fn nogoods_per_constraint(&self) -> usize {
        let all = (self.d as u64).saturating_mul(self.d as u64);
        round_count(self.p2 * all as f64).min(all) as usize
    }

    /// The tightness at which κ = 1 for this density, `1 - d^(-n/m)` with `m` the number of
    /// constraints: the predicted crossover from mostly solvable to mostly unsolvable
    /// (`None` without constraints or with one value per domain).
    pub fn crossover_p2(&self) -> Option<f64> {
        self.p2_for_kappa(1.0)
    }

    /// The tightness whose κ is `kappa`: `1 - d^(-kappa · n / m)`.
    pub fn p2_for_kappa(&self, kappa: f64) -> Option<f64> {
        let m = self.constraint_count();
        (m > 0 && self.d > 1).then(|| 1.0 - (self.d as f64).powf(-kappa * self.n as f64 / m as f64))
    }

    /// Draws the instance of `seed`.
    pub fn generate(&self, seed: u64) -> Result<RandomCsp, RandomError> {
        self.check()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let d = self.d as u64;
        let picked = sample::distinct(&mut rng, self.pair_count(), self.constraint_count() as u64);
        let per = self.nogoods_per_constraint() as u64;
        let constraints = sample::pairs(self.n, &picked)
            .into_iter()
            .map(|(i, j)| Nogoods {
                scope: vec![i, j],
                tuples: sample::tuples(&mut rng, 2, d, per, None),
            })
            .collect();
        Ok(RandomCsp {
            description: format!(
                "model B <n={}, d={}, p1={}, p2={}>, seed {seed}",
                self.n, self.d, self.p1, self.p2
            ),
            variables: self.n,
            domain_size: self.d,
            constraints,
            hidden: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_counts_on_distinct_pairs() {
        let params = ModelB {
            n: 12,
            d: 5,
            p1: 0.4,
            p2: 0.32,
        };
        let csp = params.generate(3).unwrap();
        assert_eq!(csp.constraints.len(), 26); // round(0.4 * 66) = round(26.4)
        let mut scopes: Vec<_> = csp.constraints.iter().map(|c| c.scope.clone()).collect();
        scopes.sort();
        scopes.dedup();
        assert_eq!(scopes.len(), 26, "distinct pairs");
        for c in &csp.constraints {
            assert!(c.scope[0] < c.scope[1] && c.scope[1] < 12);
            assert_eq!(c.tuples.len(), 8); // 0.32 * 25
            assert!(c.tuples.windows(2).all(|w| w[0] < w[1]));
            assert!(c.tuples.iter().flatten().all(|&v| (0..5).contains(&v)));
        }
        assert_ne!(csp, params.generate(4).unwrap());
    }

    #[test]
    fn kappa_at_the_predicted_crossover_is_one() {
        let params = ModelB {
            n: 20,
            d: 10,
            p1: 0.5,
            p2: 0.0,
        };
        let p2 = params.crossover_p2().unwrap();
        assert!((p2 - 0.384).abs() < 0.001, "{p2}");
        let exact = ModelB { p2: 0.38, ..params }.generate(1).unwrap();
        let kappa = exact.kappa();
        // 95 constraints of 38 nogoods among 100, over 20 variables of 10 values.
        let expected = 95.0 * -(0.62f64.log2()) / (20.0 * 10f64.log2());
        assert!((kappa - expected).abs() < 1e-12);
    }

    #[test]
    fn bad_parameters_are_errors() {
        let bad = [
            (1, 3, 0.5, 0.5),
            (5, 3, 1.5, 0.5),
            (5, 3, 0.5, f64::NAN),
            (100_000, 100, 1.0, 1.0),
            (usize::MAX, 2, 0.0, 0.0),
        ];
        for (n, d, p1, p2) in bad {
            assert!(ModelB { n, d, p1, p2 }.generate(0).is_err(), "{n} {d} {p1} {p2}");
        }
    }
}
