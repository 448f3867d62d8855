//! The generators' flags, shared by `csp random` and `csp sweep`: model B and model RB,
//! whose tightness is one number for `random` and may be a range for `sweep`.

use clap::{Args, Subcommand};
use csp_core::random::{ModelB, ModelRb};

use crate::error::{CliError, usage};

/// The most points a range may have.
const MAX_POINTS: usize = 10_000;

/// A number, or a range `FROM:TO:STEP` (both ends included) for `csp sweep`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    /// One value.
    Value(f64),
    /// Evenly spaced values.
    Range {
        /// The first value.
        from: f64,
        /// The last value (included when the steps land on it).
        to: f64,
        /// The distance between values.
        step: f64,
    },
}

/// Parses a number or `FROM:TO:STEP`.
pub fn parse_span(text: &str) -> Result<Span, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`{t}` is not a number"))
    };
    let parts: Vec<&str> = text.split(':').collect();
    match parts[..] {
        [one] => Ok(Span::Value(number(one)?)),
        [from, to, step] => {
            let (from, to, step) = (number(from)?, number(to)?, number(step)?);
            if step <= 0.0 || to < from {
                return Err(format!(
                    "`{text}`: expected FROM:TO:STEP with FROM <= TO and STEP > 0"
                ));
            }
            if (to - from) / step >= MAX_POINTS as f64 {
                return Err(format!("`{text}` has more than {MAX_POINTS} points"));
            }
            Ok(Span::Range { from, to, step })
        }
        _ => Err(format!("`{text}`: expected a number or FROM:TO:STEP")),
    }
}

impl Span {
    /// The values, in increasing order, each rounded to 12 decimals (so that 0.05 + 3 x
    /// 0.01 prints as 0.08).
    pub fn values(self) -> Vec<f64> {
        match self {
            Span::Value(v) => vec![v],
            Span::Range { from, to, step } => {
                let count = ((to - from) / step + 1e-9).floor() as usize + 1;
                (0..count)
                    .map(|i| ((from + i as f64 * step) * 1e12).round() / 1e12)
                    .collect()
            }
        }
    }

    /// The one value, or a usage error naming `flag`.
    pub fn single(self, flag: &str) -> Result<f64, CliError> {
        match self {
            Span::Value(v) => Ok(v),
            Span::Range { .. } => Err(usage(format!(
                "{flag} takes one number here (ranges are for csp sweep)"
            ))),
        }
    }
}

/// The random model and its parameters.
#[derive(Subcommand, Clone, Debug)]
pub enum Generator {
    /// Model B <n, d, p1, p2>: exactly round(p1 n(n-1)/2) binary constraints on distinct
    /// pairs, each forbidding exactly round(p2 d²) pairs of values.
    #[command(
        override_usage = "csp random model-b --n <N> --d <D> --p1 <P1> --p2 <P2> [OPTIONS]\n       \
                       csp sweep model-b --n <N> --d <D> --p1 <P1> (--p2 <FROM:TO:STEP> | --kappa <FROM:TO:STEP>) [OPTIONS]"
    )]
    ModelB(ModelBFlags),
    /// Model RB <k, n, alpha, r, p>: d = round(n^alpha) values, round(r n ln n) k-ary
    /// constraints on random scopes, each forbidding round(p d^k) tuples.
    #[command(
        override_usage = "csp random rb --k <K> --n <N> --alpha <ALPHA> --r <R> --p <P> [OPTIONS]\n       \
                       csp sweep rb --k <K> --n <N> --alpha <ALPHA> --r <R> (--p <FROM:TO:STEP> | --kappa <FROM:TO:STEP>) [OPTIONS]"
    )]
    Rb(RbFlags),
}

/// Model B's flags.
#[derive(Args, Clone, Debug)]
pub struct ModelBFlags {
    /// Variables.
    #[arg(long, value_parser = crate::args::parse_count)]
    pub n: usize,
    /// Values per domain (0..d-1).
    #[arg(long, value_parser = crate::args::parse_count)]
    pub d: usize,
    /// Density: the fraction of pairs of variables constrained.
    #[arg(long, allow_negative_numbers = true)]
    pub p1: f64,
    /// Tightness: the fraction of pairs of values each constraint forbids (FROM:TO:STEP
    /// for csp sweep).
    #[arg(long, value_parser = parse_span, allow_negative_numbers = true)]
    pub p2: Option<Span>,
}

/// Model RB's flags.
#[derive(Args, Clone, Debug)]
pub struct RbFlags {
    /// Arity of the constraints.
    #[arg(long, value_parser = crate::args::parse_count)]
    pub k: usize,
    /// Variables.
    #[arg(long, value_parser = crate::args::parse_count)]
    pub n: usize,
    /// Domain growth: d = round(n^alpha).
    #[arg(long, allow_negative_numbers = true)]
    pub alpha: f64,
    /// Constraint growth: m = round(r n ln n).
    #[arg(long, allow_negative_numbers = true)]
    pub r: f64,
    /// Tightness: the fraction of tuples each constraint forbids (FROM:TO:STEP for csp sweep).
    #[arg(long, value_parser = parse_span, allow_negative_numbers = true)]
    pub p: Option<Span>,
    /// Draw a hidden solution first and forbid none of its tuples: every instance is
    /// satisfiable.
    #[arg(long)]
    pub forced: bool,
}

/// A generator with its tightness set.
#[derive(Clone, Copy, Debug)]
pub enum Params {
    /// Model B.
    B(ModelB),
    /// Model RB.
    Rb(ModelRb),
}

impl Params {
    /// Draws the instance of `seed`.
    pub fn generate(&self, seed: u64) -> Result<csp_core::random::RandomCsp, CliError> {
        let drawn = match self {
            Params::B(b) => b.generate(seed),
            Params::Rb(rb) => rb.generate(seed),
        };
        drawn.map_err(|e| usage(e.to_string()))
    }

    /// The model's name in file names and records: `model-b`, `rb` or `rb-forced`.
    pub fn name(&self) -> &'static str {
        match self {
            Params::B(_) => "model-b",
            Params::Rb(rb) if rb.forced => "rb-forced",
            Params::Rb(_) => "rb",
        }
    }

    /// A file name for the instance of `seed`: the model, its parameters and the seed.
    pub fn file_name(&self, seed: u64) -> String {
        match self {
            Params::B(b) => format!("model-b-{}-{}-{}-{}-s{seed}.xml", b.n, b.d, b.p1, b.p2),
            Params::Rb(rb) => format!(
                "{}-{}-{}-{}-{}-{}-s{seed}.xml",
                self.name(),
                rb.k,
                rb.n,
                rb.alpha,
                rb.r,
                rb.p
            ),
        }
    }
}

impl Generator {
    /// The parameters with tightness `tightness` (the flag's own value when `None`).
    pub fn params(&self, tightness: Option<f64>) -> Result<Params, CliError> {
        let missing = |flag: &str| usage(format!("{flag} is required"));
        let params = match self {
            Generator::ModelB(f) => {
                let p2 = match tightness {
                    Some(t) => t,
                    None => f.p2.ok_or_else(|| missing("--p2"))?.single("--p2")?,
                };
                Params::B(ModelB {
                    n: f.n,
                    d: f.d,
                    p1: f.p1,
                    p2,
                })
            }
            Generator::Rb(f) => {
                let p = match tightness {
                    Some(t) => t,
                    None => f.p.ok_or_else(|| missing("--p"))?.single("--p")?,
                };
                Params::Rb(ModelRb {
                    k: f.k,
                    n: f.n,
                    alpha: f.alpha,
                    r: f.r,
                    p,
                    forced: f.forced,
                })
            }
        };
        // The parameters are checked before anything is drawn or written.
        match &params {
            Params::B(b) => b.check(),
            Params::Rb(rb) => rb.check(),
        }
        .map_err(|e| usage(e.to_string()))?;
        Ok(params)
    }

    /// The tightness flag's value as given (`--p2` or `--p`), if any.
    pub fn tightness(&self) -> Option<Span> {
        match self {
            Generator::ModelB(f) => f.p2,
            Generator::Rb(f) => f.p,
        }
    }

    /// The tightness flag's name.
    pub fn tightness_name(&self) -> &'static str {
        match self {
            Generator::ModelB(_) => "p2",
            Generator::Rb(_) => "p",
        }
    }

    /// The tightness at which κ is `kappa`, for a sweep over κ.
    pub fn tightness_for_kappa(&self, kappa: f64) -> Result<f64, CliError> {
        match self.params(Some(0.0))? {
            Params::B(b) => b
                .p2_for_kappa(kappa)
                .ok_or_else(|| usage("--kappa needs at least one constraint and two values per domain")),
            Params::Rb(rb) => Ok(rb.p_for_kappa(kappa)),
        }
    }

    /// The predicted crossover's tightness and its name: κ = 1 for model B, p_cr for RB.
    pub fn crossover(&self) -> Result<Option<(f64, &'static str)>, CliError> {
        Ok(match self.params(Some(0.0))? {
            Params::B(b) => b.crossover_p2().map(|p| (p, "κ = 1")),
            Params::Rb(rb) => Some((rb.crossover_p(), "p_cr = 1 - e^(-α/r)")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_parse_and_list_their_values() {
        assert_eq!(parse_span("0.3").unwrap(), Span::Value(0.3));
        let values = parse_span("0.05:0.60:0.01").unwrap().values();
        assert_eq!(values.len(), 56);
        assert_eq!((values[3], values[55]), (0.08, 0.6));
        assert!(parse_span("1:0:0.1").is_err() && parse_span("0:1:0").is_err() && parse_span("a:b").is_err());
        assert!(parse_span("0:1:0.00001").is_err(), "too many points");
    }
}
