//! Whether the few loops that run over every variable of a large model at every node
//! may use the processor's 256-bit vector instructions.
//!
//! The x86-64 level that csp builds for (x86-64-v2, in `.cargo/config.toml`, so that a
//! binary runs on any x86-64 processor of the last fifteen years) has only 128-bit
//! vectors. The functions that gain from wider ones are compiled a second time, for AVX2
//! with BMI1, BMI2, LZCNT and POPCNT (which processors with AVX2 have too; each is
//! checked), and chosen at run time, so one binary runs everywhere and at full width where it can. Both versions
//! are the same source, an `#[inline(always)]` function that a plain caller and one
//! marked `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` both call: they
//! give the same answers, node for node. The caller of the second calls it only when
//! [`detected`] says so.
//!
//! Setting `CSP_NO_WIDE_VECTORS` (to anything) keeps the baseline code: for comparing
//! the two, and for testing the baseline on a processor that has the features.

use std::sync::OnceLock;

/// The environment variable that keeps the baseline code.
const OPT_OUT: &str = "CSP_NO_WIDE_VECTORS";

/// Whether this processor has the wider features and they were not declined: read once
/// per process.
#[inline]
pub(crate) fn detected() -> bool {
    static CHOICE: OnceLock<bool> = OnceLock::new();
    *CHOICE.get_or_init(|| {
        std::env::var_os(OPT_OUT).is_none()
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    })
}
