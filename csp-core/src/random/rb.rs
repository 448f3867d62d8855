//! Model RB ⟨k, n, α, r, p⟩ (Xu and Li 2000): `n` variables of `d = round(n^α)` values and
//! `m = round(r · n · ln n)` constraints, each on `k` distinct variables chosen at random
//! (scopes may repeat), each forbidding `round(p · d^k)` distinct tuples. Its threshold is
//! exact: at `p_cr = 1 - e^(-α/r)` instances go from solvable to unsolvable with
//! probability tending to 1 (for `α > 1/k` and `p_cr <= (k-1)/k`). The forced variant
//! draws a solution first and forbids no tuple of it, so that every instance is
//! satisfiable, and as hard as unforced ones near the threshold (Xu et al. 2007).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{
    Nogoods, RandomCsp, RandomError, check_at_least, check_probability, check_size, round_count, sample,
};

/// The parameters of model RB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelRb {
    /// Arity of the constraints (at least 2).
    pub k: usize,
    /// Variables (at least `k`).
    pub n: usize,
    /// Domain growth: `d = round(n^alpha)`.
    pub alpha: f64,
    /// Constraint growth: `m = round(r · n · ln n)`.
    pub r: f64,
    /// Tightness: the fraction of the `d^k` tuples each constraint forbids.
    pub p: f64,
    /// Whether a hidden solution is drawn first and kept out of every nogood.
    pub forced: bool,
}

impl ModelRb {
    /// Checks the parameters and the instance's size.
    pub fn check(&self) -> Result<(), RandomError> {
        check_at_least("k", self.k, 2, "at least 2")?;
        check_at_least("n", self.n, self.k.max(2), "at least k")?;
        for (name, value) in [("alpha", self.alpha), ("r", self.r)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(RandomError::OutOfRange {
                    name,
                    value,
                    expected: "a positive number",
                });
            }
        }
        check_probability("p", self.p)?;
        let d = self.domain_size();
        let all = (d as u64)
            .checked_pow(self.k as u32)
            .ok_or_else(|| RandomError::TooLarge {
                what: format!("{d}^{} tuples per constraint", self.k),
            })?;
        check_size(
            self.n as u64,
            self.constraint_count() as u64,
            self.nogoods_per_constraint() as u64,
            d as u64,
        )?;
        if self.forced && self.nogoods_per_constraint() as u64 == all {
            return Err(RandomError::ForcedTooTight {
                p: self.p,
                tuples: all,
                below: (all as f64 - 0.5) / all as f64,
            });
        }
        Ok(())
    }

    /// Values per domain: `round(n^alpha)`, at least 1.
    pub fn domain_size(&self) -> usize {
        round_count((self.n as f64).powf(self.alpha)).max(1) as usize
    }

    /// The number of constraints: `round(r · n · ln n)`.
    pub fn constraint_count(&self) -> usize {
        let n = self.n as f64;
        round_count(self.r * n * n.ln()) as usize
    }

    /// Forbidden tuples per constraint: `round(p · d^k)`.
    pub fn nogoods_per_constraint(&self) -> usize {
        let all = (self.domain_size() as f64).powi(self.k as i32);
        round_count(self.p * all).min(round_count(all)) as usize
    }

    /// The exact threshold `p_cr = 1 - e^(-alpha/r)`.
    pub fn crossover_p(&self) -> f64 {
        self.p_for_kappa(1.0)
    }

    /// The tightness whose κ is `kappa`: κ = `r · -ln(1-p) / alpha` in the limit, so
    /// `p = 1 - e^(-kappa · alpha / r)`.
    pub fn p_for_kappa(&self, kappa: f64) -> f64 {
        1.0 - (-kappa * self.alpha / self.r).exp()
    }

    /// Draws the instance of `seed`.
    pub fn generate(&self, seed: u64) -> Result<RandomCsp, RandomError> {
        self.check()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let d = self.domain_size() as u64;
        let hidden: Option<Vec<i32>> = self
            .forced
            .then(|| (0..self.n).map(|_| rng.random_range(0..d) as i32).collect());
        let per = self.nogoods_per_constraint() as u64;
        let constraints = (0..self.constraint_count())
            .map(|_| {
                let scope = sample::scope(&mut rng, self.n, self.k);
                let avoid = hidden.as_ref().map(|h| {
                    let values: Vec<i32> = scope.iter().map(|&x| h[x]).collect();
                    sample::tuple_index(&values, d)
                });
                let tuples = sample::tuples(&mut rng, self.k, d, per, avoid);
                Nogoods { scope, tuples }
            })
            .collect();
        Ok(RandomCsp {
            description: format!(
                "model RB{} <k={}, n={}, alpha={}, r={}, p={}>, seed {seed}",
                if self.forced { " (forced)" } else { "" },
                self.k,
                self.n,
                self.alpha,
                self.r,
                self.p
            ),
            variables: self.n,
            domain_size: d as usize,
            constraints,
            hidden,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged() -> ModelRb {
        ModelRb {
            k: 2,
            n: 30,
            alpha: 0.8,
            r: 2.7808,
            p: 0.25,
            forced: true,
        }
    }

    #[test]
    fn counts_of_the_judged_instance() {
        let csp = judged().generate(0).unwrap();
        assert_eq!((csp.variables, csp.domain_size), (30, 15));
        assert_eq!(csp.constraints.len(), 284);
        assert!(csp.constraints.iter().all(|c| c.tuples.len() == 56));
        let hidden = csp.hidden.as_ref().unwrap();
        assert_eq!(csp.violated(hidden), None);
        assert!((judged().crossover_p() - 0.25).abs() < 1e-4);
    }

    #[test]
    fn forced_instances_keep_their_solution_at_any_tightness() {
        for seed in 0..20 {
            let params = ModelRb {
                k: 3,
                n: 8,
                alpha: 0.7,
                r: 1.0,
                p: 0.9,
                forced: true,
            };
            let csp = params.generate(seed).unwrap();
            assert_eq!(csp.violated(csp.hidden.as_ref().unwrap()), None);
            for c in &csp.constraints {
                assert_eq!(c.scope.len(), 3);
                assert!(c.scope.windows(2).all(|w| w[0] < w[1]));
            }
        }
        let huge = ModelRb {
            r: 1e300,
            p: 0.0,
            forced: false,
            ..judged()
        };
        assert!(
            huge.generate(0).is_err(),
            "too many constraints, even without nogoods"
        );
        let full = ModelRb { p: 1.0, ..judged() };
        assert!(full.generate(0).is_err());
        assert!(
            ModelRb {
                forced: false,
                ..full
            }
            .generate(0)
            .is_ok()
        );
    }
}
