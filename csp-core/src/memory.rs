//! The cap on a model's size in memory, estimated from its variables, domains and the
//! pairs its binary constraints link, before anything of the search is allocated.
//!
//! A file of a few hundred bytes can declare millions of variables (an XCSP3 array of
//! 2^25 cells, a DIMACS graph of ten million vertices with thousands of colours), and a
//! line of six bytes (`e 1 2`) posts a binary constraint that costs a search hundreds:
//! without a cap, a search would try to allocate tens of gigabytes and the process would
//! abort. Every front end (the XCSP3 and DIMACS readers, the CLI's puzzle models, the
//! Python bindings) is checked against the same estimate: the readers before they declare
//! the variables, [`crate::Model::post`] at each new pair, and
//! [`crate::Solver::new`] before it builds anything.

use crate::config::ConfigError;

/// What a search keeps per variable, besides its domain's words: the name and domain
/// index of the model, the store's base and size, the network's rows, the heuristic's
/// weights: a measured figure, rounded up (`docs/performance.md`, "Limits and memory").
pub const BYTES_PER_VARIABLE: u64 = 100;

/// What a search keeps per 64-bit word of the initial domains: the store's word, the
/// copy of the root domains it restarts from, and the index of the word's owner: a
/// measured figure, rounded up (`docs/performance.md`, "Limits and memory").
pub const BYTES_PER_DOMAIN_WORD: u64 = 24;

/// What a search keeps per pair of variables under a binary constraint: the two compiled
/// arcs, their places in both variables' rows, four forward-checking steps, the model's
/// entry among the pairs and its copy of the constraint: a measured figure, rounded up
/// (`docs/performance.md`, "Limits and memory"). A second constraint on the same pair is
/// compiled into the same arcs and costs a few tens of bytes, left to the rounding.
pub const BYTES_PER_CONSTRAINED_PAIR: u64 = 600;

/// The most pairs under binary constraints one model may hold: as many as
/// [`MAX_MODEL_MEMORY`] allows with nothing else in the model.
pub const MAX_CONSTRAINED_PAIRS: u64 = MAX_MODEL_MEMORY / BYTES_PER_CONSTRAINED_PAIR;

/// The most memory [`ModelSize::bytes`] may estimate for one model: 2 GiB. Two searches run
/// side by side (`-j 2`) on a machine of 8 GB then leave room for everything else.
pub const MAX_MODEL_MEMORY: u64 = 2 << 30;

/// The 64-bit words of a domain spanning `span` values (from its smallest to its largest).
pub fn domain_words(span: u64) -> u64 {
    span.div_ceil(64).max(1)
}

/// What a model holds, as far as the memory of its search goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelSize {
    /// The variables.
    pub variables: u64,
    /// The 64-bit words of the initial domains, all variables together ([`domain_words`]).
    pub words: u64,
    /// The pairs of variables some binary constraint links (two constraints on one pair
    /// make one pair).
    pub constrained_pairs: u64,
}

impl ModelSize {
    /// The estimated bytes of a search on such a model (see [`BYTES_PER_VARIABLE`],
    /// [`BYTES_PER_DOMAIN_WORD`], [`BYTES_PER_CONSTRAINED_PAIR`]); saturates.
    pub fn bytes(&self) -> u64 {
        self.variables
            .saturating_mul(BYTES_PER_VARIABLE)
            .saturating_add(self.words.saturating_mul(BYTES_PER_DOMAIN_WORD))
            .saturating_add(self.constrained_pairs.saturating_mul(BYTES_PER_CONSTRAINED_PAIR))
    }

    /// `Err` ([`ConfigError::ModelTooLarge`]) when the estimate is over [`MAX_MODEL_MEMORY`].
    pub fn check(&self) -> Result<(), ConfigError> {
        let bytes = self.bytes();
        if bytes <= MAX_MODEL_MEMORY {
            return Ok(());
        }
        Err(ConfigError::ModelTooLarge {
            variables: self.variables,
            words: self.words,
            constrained_pairs: self.constrained_pairs,
            bytes,
            max: MAX_MODEL_MEMORY,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_up_and_hold_one_at_least() {
        assert_eq!(domain_words(1), 1);
        assert_eq!(domain_words(64), 1);
        assert_eq!(domain_words(65), 2);
        assert_eq!(domain_words(0), 1);
    }

    #[test]
    fn the_cap_holds_at_its_edge() {
        // Just under and just over the cap, in variables alone and in words alone.
        let size = |variables, words, constrained_pairs| ModelSize {
            variables,
            words,
            constrained_pairs,
        };
        let vars = MAX_MODEL_MEMORY / BYTES_PER_VARIABLE;
        assert_eq!(size(vars, 0, 0).check(), Ok(()));
        assert!(matches!(
            size(vars + 1, 0, 0).check(),
            Err(ConfigError::ModelTooLarge {
                max: MAX_MODEL_MEMORY,
                ..
            })
        ));
        let words = MAX_MODEL_MEMORY / BYTES_PER_DOMAIN_WORD;
        assert_eq!(size(0, words, 0).check(), Ok(()));
        assert!(size(0, words + 1, 0).check().is_err());
        assert_eq!(size(0, 0, MAX_CONSTRAINED_PAIRS).check(), Ok(()));
        assert!(size(0, 0, MAX_CONSTRAINED_PAIRS + 1).check().is_err());
        // The three add up.
        assert!(size(vars / 2 + 1, words / 2 + 1, 0).check().is_err());
        assert!(
            size(0, words / 2 + 1, MAX_CONSTRAINED_PAIRS / 2 + 1)
                .check()
                .is_err()
        );
        // No overflow on absurd counts.
        assert!(size(u64::MAX, u64::MAX, u64::MAX).check().is_err());
    }

    #[test]
    fn the_refusal_names_the_cap_and_the_need() {
        let message = ModelSize {
            variables: 10_000_000,
            words: 3_910_000_000,
            constrained_pairs: 5_000_000,
        }
        .check()
        .unwrap_err()
        .to_string();
        for part in [
            "10000000 variables",
            "3910000000 words",
            "5000000 pairs under binary constraints",
            "2147483648",
        ] {
            assert!(message.contains(part), "{message}");
        }
    }
}
