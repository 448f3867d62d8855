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

/// What a search keeps per n-ary constraint (a propagator), besides its variables and its
/// own data ([`crate::Propagator::heap_bytes`]): the shared pointer, the scheduling
/// flags, the queue's slot: a measured figure, rounded up (`docs/performance.md`, "Limits
/// and memory").
pub const BYTES_PER_PROPAGATOR: u64 = 400;

/// What a search keeps per variable of an n-ary constraint: the propagator's own list,
/// the variable's watch and wake entries, the dom/wdeg scopes: a measured figure, rounded
/// up (`docs/performance.md`, "Limits and memory").
pub const BYTES_PER_SCOPE_ENTRY: u64 = 150;

/// The estimated bytes of an n-ary constraint over `arity` variables that keeps
/// `heap_bytes` of data of its own ([`crate::Propagator::heap_bytes`]); saturates.
pub fn propagator_bytes(arity: usize, heap_bytes: usize) -> u64 {
    BYTES_PER_PROPAGATOR
        .saturating_add((arity as u64).saturating_mul(BYTES_PER_SCOPE_ENTRY))
        .saturating_add(heap_bytes as u64)
}

/// The estimated bytes of a binary table of `pairs` allowed pairs whose support matrices
/// take `matrix_words` words each way (0 when they would be too wide and the pairs are
/// searched instead): the model's list and the two sorted lists of its arcs, 8 bytes a
/// pair each, and the two matrices.
pub fn binary_table_bytes(pairs: usize, matrix_words: u64) -> u64 {
    (pairs as u64)
        .saturating_mul(24)
        .saturating_add(matrix_words.saturating_mul(16))
}

/// The most words of a binary table's support matrix between two variables (512 KiB):
/// wider tables are tested by search in their sorted pairs.
pub(crate) const MAX_SUPPORT_WORDS: u64 = 1 << 16;

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
    /// The estimated bytes of the n-ary constraints ([`propagator_bytes`]) and of the
    /// tables of binary ones ([`binary_table_bytes`]), all together.
    pub data_bytes: u64,
}

impl ModelSize {
    /// The estimated bytes of a search on such a model (see [`BYTES_PER_VARIABLE`],
    /// [`BYTES_PER_DOMAIN_WORD`], [`BYTES_PER_CONSTRAINED_PAIR`], [`propagator_bytes`]);
    /// saturates.
    pub fn bytes(&self) -> u64 {
        self.variables
            .saturating_mul(BYTES_PER_VARIABLE)
            .saturating_add(self.words.saturating_mul(BYTES_PER_DOMAIN_WORD))
            .saturating_add(self.constraint_bytes())
    }

    /// The estimated bytes of the constraints alone, binary and n-ary.
    pub fn constraint_bytes(&self) -> u64 {
        self.constrained_pairs
            .saturating_mul(BYTES_PER_CONSTRAINED_PAIR)
            .saturating_add(self.data_bytes)
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
            data_bytes: self.data_bytes,
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
        // Just under and just over the cap, in each part alone.
        let size = |variables, words, constrained_pairs| ModelSize {
            variables,
            words,
            constrained_pairs,
            data_bytes: 0,
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
        let n_ary = |data_bytes| ModelSize {
            data_bytes,
            ..ModelSize::default()
        };
        assert_eq!(n_ary(MAX_MODEL_MEMORY).check(), Ok(()));
        assert!(n_ary(MAX_MODEL_MEMORY + 1).check().is_err());
        // The four add up.
        assert!(size(vars / 2 + 1, words / 2 + 1, 0).check().is_err());
        assert!(
            size(0, words / 2 + 1, MAX_CONSTRAINED_PAIRS / 2 + 1)
                .check()
                .is_err()
        );
        let half_pairs = ModelSize {
            data_bytes: MAX_MODEL_MEMORY / 2 + 1,
            ..size(0, 0, MAX_CONSTRAINED_PAIRS / 2 + 1)
        };
        assert!(half_pairs.check().is_err());
        // No overflow on absurd counts.
        let absurd = ModelSize {
            data_bytes: u64::MAX,
            ..size(u64::MAX, u64::MAX, u64::MAX)
        };
        assert!(absurd.check().is_err());
        assert_eq!(propagator_bytes(usize::MAX, usize::MAX), u64::MAX);
        assert_eq!(
            propagator_bytes(3, 1000),
            BYTES_PER_PROPAGATOR + 3 * BYTES_PER_SCOPE_ENTRY + 1000
        );
    }

    #[test]
    fn the_refusal_names_the_cap_and_the_need() {
        let message = ModelSize {
            variables: 10_000_000,
            words: 3_910_000_000,
            constrained_pairs: 5_000_000,
            data_bytes: 7_000_000,
        }
        .check()
        .unwrap_err()
        .to_string();
        for part in [
            "10000000 variables",
            "3910000000 words",
            "5000000 pairs under binary constraints",
            "constraint data of about 7000000 bytes",
            "2147483648",
        ] {
            assert!(message.contains(part), "{message}");
        }
    }
}
