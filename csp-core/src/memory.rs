//! The cap on a model's size in memory, estimated from its variables and domains before
//! anything of the search is allocated.
//!
//! A file of a few hundred bytes can declare millions of variables (an XCSP3 array of
//! 2^25 cells, a DIMACS graph of ten million vertices with thousands of colours): without
//! a cap, a search would try to allocate tens of gigabytes and the process would abort.
//! Every front end (the XCSP3 and DIMACS readers, the CLI's puzzle models, the Python
//! bindings) is checked against the same estimate: the readers before they declare the
//! variables, and [`crate::Solver::new`] before it builds anything.

use crate::config::ConfigError;

/// What a search keeps per variable, besides its domain's words: the name and domain
/// index of the model, the store's base and size, the network's rows, the heuristic's
/// weights: a measured figure, rounded up (`docs/performance.md`, "Limits and memory").
pub const BYTES_PER_VARIABLE: u64 = 100;

/// What a search keeps per 64-bit word of the initial domains: the store's word, the
/// copy of the root domains it restarts from, and the index of the word's owner: a
/// measured figure, rounded up (`docs/performance.md`, "Limits and memory").
pub const BYTES_PER_DOMAIN_WORD: u64 = 24;

/// The most memory [`model_memory`] may estimate for one model: 2 GiB. Two searches run
/// side by side (`-j 2`) on a machine of 8 GB then leave room for everything else.
pub const MAX_MODEL_MEMORY: u64 = 2 << 30;

/// The 64-bit words of a domain spanning `span` values (from its smallest to its largest).
pub fn domain_words(span: u64) -> u64 {
    span.div_ceil(64).max(1)
}

/// The estimated bytes a search takes for `variables` variables whose domains take
/// `words` 64-bit words in all (see [`BYTES_PER_VARIABLE`], [`BYTES_PER_DOMAIN_WORD`]).
pub fn model_memory(variables: u64, words: u64) -> u64 {
    variables
        .saturating_mul(BYTES_PER_VARIABLE)
        .saturating_add(words.saturating_mul(BYTES_PER_DOMAIN_WORD))
}

/// `Err` ([`ConfigError::ModelTooLarge`]) when `variables` variables with `words` words of
/// domains would take more than [`MAX_MODEL_MEMORY`].
pub fn check_model_memory(variables: u64, words: u64) -> Result<(), ConfigError> {
    let bytes = model_memory(variables, words);
    if bytes <= MAX_MODEL_MEMORY {
        return Ok(());
    }
    Err(ConfigError::ModelTooLarge {
        variables,
        words,
        bytes,
        max: MAX_MODEL_MEMORY,
    })
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
        let vars = MAX_MODEL_MEMORY / BYTES_PER_VARIABLE;
        assert_eq!(check_model_memory(vars, 0), Ok(()));
        assert!(matches!(
            check_model_memory(vars + 1, 0),
            Err(ConfigError::ModelTooLarge {
                max: MAX_MODEL_MEMORY,
                ..
            })
        ));
        let words = MAX_MODEL_MEMORY / BYTES_PER_DOMAIN_WORD;
        assert_eq!(check_model_memory(0, words), Ok(()));
        assert!(check_model_memory(0, words + 1).is_err());
        // No overflow on absurd counts.
        assert!(check_model_memory(u64::MAX, u64::MAX).is_err());
    }

    #[test]
    fn the_refusal_names_the_cap_and_the_need() {
        let message = check_model_memory(10_000_000, 3_910_000_000)
            .unwrap_err()
            .to_string();
        for part in ["10000000 variables", "3910000000 words", "2147483648"] {
            assert!(message.contains(part), "{message}");
        }
    }
}
