//! Search statistics and outcomes.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a search did. Identical on every run of the same model, strategy and seed,
/// except `elapsed`.
///
/// Definitions (the contract users compare with textbook figures):
/// - `nodes`: assignments `var = value` made by search (AIMA's `nassigns`); givens
///   and the root are not nodes.
/// - `backtracks`: nodes whose subtree was exhausted without the search stopping.
/// - `checks`: tests of a value against a constraint: pair tests of binary relations
///   (consistency tests, legal-value counts, supports examined by revisions) and
///   `is_consistent` calls of n-ary constraints.
/// - `pruned`: values removed from domains by inference (not by assignments).
/// - `revisions`: calls of the arc revision of AC-3 (forward checking revises too).
/// - `propagations`: runs of n-ary propagators.
/// - `backjumps`, `levels_skipped`: under backjumping ([`crate::Backjump`]), the returns
///   that went back over at least one level, and the levels they went back over (whose
///   untried values are never tried).
/// - `objective`, `nodes_to_best`, `nodes_to_proof`: set by optimisation
///   ([`crate::Solver::optimize`]) only, `None` otherwise: the best objective value found,
///   `nodes` when it was found, and `nodes` when the search proved it optimal (or proved
///   that there is no solution).
///
/// Serialised as flat `name: value` fields; read back with missing fields as 0 (`None`
/// for the optional ones), so that records written before a field was added still read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Assignments made by search.
    pub nodes: u64,
    /// Nodes whose subtree was exhausted.
    pub backtracks: u64,
    /// Constraint checks.
    pub checks: u64,
    /// Values removed by inference.
    pub pruned: u64,
    /// Arc revisions.
    pub revisions: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Deepest search level reached (number of search assignments on the path).
    pub max_depth: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Restarts made.
    pub restarts: u64,
    /// Nogoods recorded at restarts (each subtree a run finished).
    pub nogoods: u64,
    /// Values tried by failed-value probing (see [`crate::SearchConfig::probing`]).
    pub probes: u64,
    /// Decisions that branched on the two places of a value (see
    /// [`crate::Branching::Places`]) instead of on a variable's values.
    pub place_decisions: u64,
    /// Backjumps: returns from a level that ran out of values to a level above the one
    /// just above it ([`crate::Backjump`]).
    pub backjumps: u64,
    /// The levels backjumps went over: each one's untried values are never tried.
    pub levels_skipped: u64,
    /// Under large neighbourhood search (`LnsSolver`): the part of `nodes` made
    /// in neighbourhoods, the neighbourhoods searched, and the better solutions they gave
    /// (0 otherwise).
    pub lns_nodes: u64,
    /// Neighbourhoods searched by large neighbourhood search.
    pub neighbourhoods: u64,
    /// Better solutions found by large neighbourhood search.
    pub lns_solutions: u64,
    /// Under parallel search (`ParallelSolver`): the subproblems the decomposition made
    /// (0 otherwise).
    pub subproblems: u64,
    /// Under parallel search: the part of `nodes` made by the decomposition (0 otherwise).
    pub decomposition_nodes: u64,
    /// The best objective value found by optimisation (`None`: no solution yet, or no
    /// optimisation).
    pub objective: Option<i64>,
    /// `nodes` when the best solution was found (`None`: no solution yet, or no
    /// optimisation).
    pub nodes_to_best: Option<u64>,
    /// `nodes` when optimisation proved the best solution optimal, or that there is none
    /// (`None`: not proved).
    pub nodes_to_proof: Option<u64>,
    /// Wall-clock time, serialised as `elapsed_ms` (milliseconds, fractional).
    #[serde(
        rename = "elapsed_ms",
        serialize_with = "as_millis",
        deserialize_with = "from_millis"
    )]
    pub elapsed: Duration,
}

/// Serialises a duration as fractional milliseconds (the `elapsed_ms` fields).
pub(crate) fn as_millis<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1000.0)
}

/// Reads a duration written by [`as_millis`]; a negative or unreadable figure is 0.
fn from_millis<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    let ms = f64::deserialize(d)?;
    Ok(Duration::try_from_secs_f64(ms / 1000.0).unwrap_or_default())
}

impl Stats {
    /// Adds another run's figures to these (for totals over many puzzles). The objective
    /// is not a count: the other run's, if it has one, replaces this one. `nodes_to_best`
    /// and `nodes_to_proof` add up over the runs that have them.
    pub fn accumulate(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.checks += other.checks;
        self.pruned += other.pruned;
        self.revisions += other.revisions;
        self.propagations += other.propagations;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.solutions += other.solutions;
        self.restarts += other.restarts;
        self.nogoods += other.nogoods;
        self.probes += other.probes;
        self.place_decisions += other.place_decisions;
        self.backjumps += other.backjumps;
        self.levels_skipped += other.levels_skipped;
        self.lns_nodes += other.lns_nodes;
        self.neighbourhoods += other.neighbourhoods;
        self.lns_solutions += other.lns_solutions;
        self.subproblems += other.subproblems;
        self.decomposition_nodes += other.decomposition_nodes;
        self.objective = other.objective.or(self.objective);
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.nodes_to_best = add(self.nodes_to_best, other.nodes_to_best);
        self.nodes_to_proof = add(self.nodes_to_proof, other.nodes_to_proof);
        self.elapsed += other.elapsed;
    }
}

impl fmt::Display for Stats {
    /// `name=value` lines, one per figure; a figure without a value (no objective, no
    /// proof) is written `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let objective = OrNone(self.objective);
        let nodes_to_best = OrNone(self.nodes_to_best);
        let nodes_to_proof = OrNone(self.nodes_to_proof);
        write_name_values(
            f,
            &[
                ("nodes", &self.nodes),
                ("backtracks", &self.backtracks),
                ("checks", &self.checks),
                ("pruned", &self.pruned),
                ("revisions", &self.revisions),
                ("propagations", &self.propagations),
                ("max_depth", &self.max_depth),
                ("solutions", &self.solutions),
                ("restarts", &self.restarts),
                ("nogoods", &self.nogoods),
                ("probes", &self.probes),
                ("place_decisions", &self.place_decisions),
                ("backjumps", &self.backjumps),
                ("levels_skipped", &self.levels_skipped),
                ("objective", &objective),
                ("nodes_to_best", &nodes_to_best),
                ("nodes_to_proof", &nodes_to_proof),
            ],
            self.elapsed,
        )
    }
}

/// An optional figure as the `name=value` writer shows it: the value, or `none`.
struct OrNone<T>(Option<T>);

impl<T: fmt::Display> fmt::Display for OrNone<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(value) => value.fmt(f),
            None => f.write_str("none"),
        }
    }
}

/// Writes `name=value` lines, one per figure, then `elapsed_ms` with three decimals: the
/// one statistics format of every run, search and local search alike.
pub(crate) fn write_name_values(
    f: &mut fmt::Formatter<'_>,
    figures: &[(&str, &dyn fmt::Display)],
    elapsed: Duration,
) -> fmt::Result {
    for (name, value) in figures {
        writeln!(f, "{name}={value}")?;
    }
    write!(f, "elapsed_ms={:.3}", elapsed.as_secs_f64() * 1000.0)
}

/// Which limit ended a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LimitKind {
    /// The node limit.
    Nodes,
    /// The time limit.
    Time,
    /// The solution limit.
    Solutions,
    /// The cancel flag.
    Cancelled,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitKind::Nodes => "node limit reached",
            LimitKind::Time => "time limit reached",
            LimitKind::Solutions => "solution limit reached",
            LimitKind::Cancelled => "cancelled",
        })
    }
}

/// The result of looking for one solution: the three answers a search can give (what
/// stopped it, which may grow, is the [`LimitKind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution: one value per variable, in index order.
    Solved(Vec<i32>),
    /// The search space is exhausted: no (further) solution exists.
    Unsatisfiable,
    /// A limit stopped the search before it could decide.
    Limit(LimitKind),
}

impl Outcome {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&[i32]> {
        match self {
            Outcome::Solved(values) => Some(values),
            _ => None,
        }
    }

    /// `solved`, `unsatisfiable` or `limit`.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Solved(_) => "solved",
            Outcome::Unsatisfiable => "unsatisfiable",
            Outcome::Limit(_) => "limit",
        }
    }
}

/// The result of counting solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// Whether that is all of them (`false` when a limit or the cap stopped the count).
    pub complete: bool,
    /// The limit that stopped the count, if any.
    pub limit: Option<LimitKind>,
}
