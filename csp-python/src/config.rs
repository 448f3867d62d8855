//! Search options from Python: a strategy string and keyword options, one for each field
//! of csp-core's `SearchConfig`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use csp_core::{Backjump, Branching, Restarts, SearchConfig, Strategy, TieBreak};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::domain::{int, type_name};
use crate::errors::value_error;

/// The keyword options every search takes, with what they set.
pub(crate) const OPTIONS: &[&str] = &[
    "tie_break",      // TieBreak: "lowest" or "random"
    "seed",           // u64
    "restarts",       // "none", "luby[:SCALE]", "geometric[:FIRST[:FACTOR]]" or None
    "node_limit",     // nodes in all
    "time_limit",     // seconds, from the solver's creation
    "solution_limit", // solutions in all
    "probing",        // failed-value probing under MAC
    "branching",      // "variables" or "places"
    "max_trail",      // undo records kept
    "backjump",       // "none", "bj" or "cbj" (inference none or fc)
    "last_conflict",  // K: last-conflict reasoning over the last K conflict variables
];

/// A strategy from its `var/value/inference` name.
pub(crate) fn strategy(text: &str) -> PyResult<Strategy> {
    text.parse::<Strategy>().map_err(value_error)
}

/// The 18 textbook strategies, `{static, mrv, mrv-degree} x {asc, lcv} x {none, fc, mac}`,
/// as `var/value/inference` names.
#[pyfunction]
pub(crate) fn textbook_strategies() -> Vec<String> {
    Strategy::textbook().iter().map(|s| s.to_string()).collect()
}

/// A search configuration from a strategy and keyword options (`None` values leave a
/// default), with `cancel` as its cancel flag (Ctrl-C).
pub(crate) fn search_config(
    strategy: Strategy,
    options: Option<&Bound<'_, PyDict>>,
    cancel: Arc<AtomicBool>,
) -> PyResult<SearchConfig> {
    apply_options(SearchConfig::with_strategy(strategy), options, cancel)
}

/// Whether the keyword options set `key` (to something other than `None`).
pub(crate) fn given(options: Option<&Bound<'_, PyDict>>, key: &str) -> PyResult<bool> {
    match options {
        Some(options) => Ok(options.get_item(key)?.is_some_and(|v| !v.is_none())),
        None => Ok(false),
    }
}

/// `config` with the keyword options set over it, and `cancel` as its cancel flag.
pub(crate) fn apply_options(
    mut config: SearchConfig,
    options: Option<&Bound<'_, PyDict>>,
    cancel: Arc<AtomicBool>,
) -> PyResult<SearchConfig> {
    config.limits.cancel = Some(cancel);
    let Some(options) = options else {
        return Ok(config);
    };
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        if value.is_none() {
            if OPTIONS.contains(&key.as_str()) {
                continue;
            }
            return Err(unknown(&key));
        }
        match key.as_str() {
            "tie_break" => config.tie_break = name::<TieBreak>(&value, &key)?,
            "seed" => config.seed = whole(&value, &key)?,
            "restarts" => config.restarts = Restarts::parse(&text(&value, &key)?).map_err(value_error)?,
            "node_limit" => config.limits.nodes = Some(whole(&value, &key)?),
            "time_limit" => config.limits.time = Some(seconds(&value)?),
            "solution_limit" => config.limits.solutions = Some(whole(&value, &key)?),
            "probing" => config.probing = flag(&value, &key)?,
            "branching" => config.branching = name::<Branching>(&value, &key)?,
            "max_trail" => config.max_trail = usize::try_from(whole(&value, &key)?).map_err(value_error)?,
            "backjump" => config.backjump = name::<Backjump>(&value, &key)?,
            "last_conflict" => {
                config.last_conflict = u32::try_from(whole(&value, &key)?).map_err(value_error)?
            }
            _ => return Err(unknown(&key)),
        }
    }
    Ok(config)
}

/// `TypeError` for an option no search takes, as Python says it of a keyword argument.
fn unknown(key: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "unexpected option '{key}' (the options are {})",
        OPTIONS.join(", ")
    ))
}

/// A choice by its command-line name.
fn name<T: std::str::FromStr<Err = csp_core::ParseNameError>>(
    value: &Bound<'_, PyAny>,
    key: &str,
) -> PyResult<T> {
    text(value, key)?.parse::<T>().map_err(value_error)
}

fn text(value: &Bound<'_, PyAny>, key: &str) -> PyResult<String> {
    value
        .extract::<String>()
        .map_err(|_| PyTypeError::new_err(format!("{key} must be a string, not {}", type_name(value))))
}

pub(crate) fn flag(value: &Bound<'_, PyAny>, key: &str) -> PyResult<bool> {
    value
        .extract::<bool>()
        .map_err(|_| PyTypeError::new_err(format!("{key} must be True or False, not {}", type_name(value))))
}

/// A whole number (`ValueError` below 0).
pub(crate) fn whole(value: &Bound<'_, PyAny>, key: &str) -> PyResult<u64> {
    let n = int(value, key)?;
    u64::try_from(n).map_err(|_| PyValueError::new_err(format!("{key} must be 0 or more, got {n}")))
}

/// Seconds (an int or a float), not negative.
pub(crate) fn seconds(value: &Bound<'_, PyAny>) -> PyResult<Duration> {
    let secs: f64 = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "time_limit must be a number of seconds, not {}",
            type_name(value)
        ))
    })?;
    duration(secs)
}

/// A duration of `secs` seconds (`ValueError` for a negative or non-finite number).
pub(crate) fn duration(secs: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(secs).map_err(|_| {
        PyValueError::new_err(format!(
            "time_limit must be a number of seconds from 0, got {secs}"
        ))
    })
}
