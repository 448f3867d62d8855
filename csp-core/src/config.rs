//! Search configuration: the three strategy choices, tie-breaking, restarts and limits.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use thiserror::Error;

use crate::error::ParseNameError;
use crate::trace::Trace;

/// The literals joined by `, `, as one `&'static str`.
macro_rules! comma_list {
    ($first:literal $(, $rest:literal)*) => {
        concat!($first $(, ", ", $rest)*)
    };
}

/// Defines a strategy-component enum with its command-line names.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident, $kind:literal, { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every choice, in documentation order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used on command lines and in reports.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = ParseNameError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(ParseNameError {
                        kind: $kind,
                        found: s.to_string(),
                        expected: comma_list!($($text),+),
                    }),
                }
            }
        }
    };
}

named_enum!(
    /// Which unassigned variable to branch on next.
    VarOrder, "variable order", {
        /// The lowest index.
        Static => "static",
        /// Fewest legal values (minimum remaining values); ties as [`TieBreak`] says.
        Mrv => "mrv",
        /// Fewest legal values, then most unassigned neighbours (degree), then as [`TieBreak`] says.
        MrvDegree => "mrv-degree",
        /// Fewest legal values per unit of weighted degree (dom/wdeg, Boussemart, Hemery,
        /// Lecoutre and Sais 2004): each constraint starts with weight 1 and gains 1 whenever
        /// it wipes out a domain; a variable's weighted degree sums the weights of its
        /// constraints that have another unassigned variable. Variables with one legal value
        /// go first; ties as [`TieBreak`] says.
        DomWdeg => "dom-wdeg",
        /// dom/wdeg as csp had it before the rule on unassigned variables: a variable's
        /// weighted degree sums the weights of all its constraints, always.
        DomWdegAll => "dom-wdeg-all",
        /// dom/wdeg with the weight of a failure aimed at its causes: the variables of the
        /// failing constraint that propagation left with one value or none gain 1 each, and
        /// so does the variable of the search's last decision (none at the root). Variables
        /// assigned before it, and those that still have a choice, gain nothing. Weights start at the
        /// degree, as under `dom-wdeg`. Aimed weights steer search to the variables that
        /// actually clash, which pays on hard Sudoku from 16x16 up (figures in
        /// `docs/performance.md`, "Why the Sudoku defaults").
        DomWdegFixed => "dom-wdeg-fixed",
        /// dom/wdeg^ca.cd (Wattez, Lecoutre, Paparrizou and Tabary 2019): a wipe-out by a
        /// constraint with `k` unassigned variables adds `1 / (k * |dom(y)|)` to the weight of
        /// each of them, `y`, in that constraint (0.5 for an emptied domain); a variable's
        /// weight sums its weights in the constraints that have another unassigned variable.
        /// Smallest `|dom| / weight` first.
        WdegCacd => "wdeg-cacd",
        /// Conflict-history search (Habet and Terrioux 2021): each constraint's score moves
        /// towards `1 / (conflicts since its last one + 1)` at each of its wipe-outs, with a
        /// step that falls from 0.4 to 0.06, decaying by 0.995 per conflict at each restart;
        /// largest `(sum of scores + 1e-4 per constraint) / |dom|` over the constraints with
        /// another unassigned variable first.
        Chs => "chs",
        /// Failure rate over domain size (Li, Yin and Li 2021): the share of a variable's
        /// assignments whose inference failed (counted from 1 of 2), largest over `|dom|` first.
        FrbDom => "frb-dom",
        /// `frb-dom` with ageing: the failure rate plus `1 / (failures since the variable's
        /// last one + 1)`, over `|dom|`.
        FrbaDom => "frba-dom",
        /// pick/dom (Lecoutre et al. 2023): at each wipe-out under MAC, each variable whose
        /// change had pruned another domain earlier in that propagation gains 1 (under
        /// forward checking, the decision's variable); largest count over `|dom|` first.
        PickDom => "pick-dom",
        /// Activity-based search (Michel and Van Hentenryck 2012): after each node every
        /// unassigned variable with more than one value decays by 0.999 and gains 1 if the
        /// node's inference shrank its domain; largest activity over `|dom|` first.
        Activity => "activity",
        /// Impact-based search (Refalo 2004): the impact of `x = a` is `1 - P_after /
        /// P_before` over the product `P` of the domain sizes (1 on failure), averaged over
        /// its trials; smallest `sum over a in dom(x) of (1 - impact(x = a))` first.
        Impact => "impact",
        /// A different order at each restart, in turn: `pick-dom`, `dom-wdeg`, `frba-dom`,
        /// `wdeg-cacd` (ACE's run robin). Every order learns from every run. Without
        /// restarts, `pick-dom` throughout.
        RunRobin => "run-robin",
    }
);

impl VarOrder {
    /// Whether the order weighs variables by the failures of their constraints.
    pub fn weighs_failures(self) -> bool {
        matches!(
            self,
            VarOrder::DomWdeg | VarOrder::DomWdegAll | VarOrder::DomWdegFixed
        )
    }
}

named_enum!(
    /// In which order to try the values of the chosen variable.
    ValueOrder, "value order", {
        /// Increasing value.
        Asc => "asc",
        /// Least constraining value first: fewest values removed from the legal values
        /// of unassigned neighbours; ties to the lower value.
        Lcv => "lcv",
        /// Decreasing value.
        Desc => "desc",
        /// A random order drawn from the search's seeded generator.
        Random => "random",
        /// Solution saving, with phase saving before the first solution: the value the
        /// variable had in the last solution found, or, before any, the value it was last
        /// assigned, first (if still in its domain); then increasing value.
        Saved => "saved",
    }
);

named_enum!(
    /// What inference runs after each assignment.
    Inference, "inference", {
        /// Chronological backtracking: a value is tried only if it agrees with every assigned neighbour.
        None => "none",
        /// Forward checking: prune the neighbours of the assigned variable.
        Fc => "fc",
        /// Maintain arc consistency: AC-3 from the assigned variable to a fixpoint.
        Mac => "mac",
    }
);

named_enum!(
    /// How ties in the variable order are broken.
    TieBreak, "tie-break", {
        /// The lowest variable index (the textbook rule).
        Lowest => "lowest",
        /// Uniformly at random among the tied variables (seeded).
        Random => "random",
    }
);

named_enum!(
    /// What a search decision branches on. Default: variables.
    Branching, "branching", {
        /// The chosen variable: one branch per value (the textbook rule).
        Variables => "variables",
        /// The chosen variable, unless it has three values or more and a permutation
        /// constraint (an all-different whose variables hold, together, exactly as many
        /// values as it has variables, posted by [`crate::Model::all_different_nary`]) has a
        /// value left in just two of its variables: then those two places, `a = v`, then
        /// `b = v`. The value must go somewhere in the constraint, so the two branches
        /// cover every solution and no solution twice; each is one assignment, one node.
        /// Of such values, the one whose two places weigh most (their summed weighted
        /// degrees under dom/wdeg, degrees otherwise). Needs inference (fc or mac) and
        /// domains of at most 64 values at one base; otherwise it branches on variables.
        /// It pays on large Sudoku, where a value with two places is often a stronger
        /// decision than a cell with three candidates (figures in `docs/performance.md`).
        Places => "places",
    }
);

named_enum!(
    /// Backjumping (Prosser 1993): where search goes back to when a level runs out of
    /// values. Default: none (chronological backtracking). See `docs/heuristics.md`,
    /// "Backjumping", for the node-count contract.
    Backjump, "backjumping", {
        /// Chronological backtracking: back to the level just above.
        None => "none",
        /// Gaschnig's backjumping (BJ): from a dead end whose values all failed without a
        /// subtree, back to the deepest level that one of them conflicted with; from any
        /// other level, chronologically.
        Bj => "bj",
        /// Conflict-directed backjumping (CBJ): each level keeps the set of earlier levels
        /// its values conflicted with; when it runs out of values, search goes back to the
        /// deepest of them, which inherits the rest of the set.
        Cbj => "cbj",
    }
);

/// The three independent choices that make a textbook strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Strategy {
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub value_order: ValueOrder,
    /// Inference after each assignment.
    pub inference: Inference,
}

impl Strategy {
    /// A strategy from its three parts.
    pub fn new(var_order: VarOrder, value_order: ValueOrder, inference: Inference) -> Strategy {
        Strategy {
            var_order,
            value_order,
            inference,
        }
    }

    /// The 18 textbook combinations: {static, mrv, mrv-degree} x {asc, lcv} x {none, fc, mac}.
    pub fn textbook() -> Vec<Strategy> {
        let mut all = Vec::with_capacity(18);
        for var_order in [VarOrder::Static, VarOrder::Mrv, VarOrder::MrvDegree] {
            for value_order in [ValueOrder::Asc, ValueOrder::Lcv] {
                for &inference in Inference::ALL {
                    all.push(Strategy::new(var_order, value_order, inference));
                }
            }
        }
        all
    }
}

impl Default for Strategy {
    /// MRV, ascending values, forward checking.
    fn default() -> Self {
        Strategy::new(VarOrder::Mrv, ValueOrder::Asc, Inference::Fc)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.var_order, self.value_order, self.inference)
    }
}

impl FromStr for Strategy {
    type Err = ParseNameError;
    /// Parses `var/value/inference`, for example `mrv/lcv/fc`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split('/').collect();
        let [var, value, inference] = parts[..] else {
            return Err(ParseNameError {
                kind: "strategy",
                found: s.to_string(),
                expected: "var/value/inference, for example mrv/asc/fc",
            });
        };
        Ok(Strategy::new(var.parse()?, value.parse()?, inference.parse()?))
    }
}

/// Restarts with a growing node cutoff.
///
/// A run that has reached its cutoff starts again from the root at its next backtrack (a
/// descent is never cut: a run that has not failed since its cutoff has learnt nothing a
/// new run could use); the dom/wdeg weights and, with random tie-breaks or value orders,
/// the random stream carry on. The subtrees a run
/// finished are recorded as nogoods, so nothing is searched twice and counts stay exact:
///
/// ```
/// use csp_core::{Model, Restarts, SearchConfig, Solver};
/// let mut m = Model::new();
/// let v = m.int_vars(5, 1, 5).unwrap();
/// m.all_different(&v).unwrap();
/// let config = SearchConfig {
///     restarts: Some(Restarts::Luby { scale: 2 }),
///     ..SearchConfig::with_strategy("dom-wdeg/asc/mac".parse().unwrap())
/// };
/// let mut solver = Solver::new(&m, config).unwrap();
/// assert_eq!(solver.count().solutions, 120, "5! permutations, each once");
/// assert!(solver.stats().restarts > 0 && solver.stats().nogoods > 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
#[non_exhaustive]
pub enum Restarts {
    /// Cutoffs `scale * luby(i)`: 1, 1, 2, 1, 1, 2, 4, ... times `scale` nodes.
    Luby {
        /// Nodes in the unit run.
        scale: u64,
    },
    /// Cutoffs `first * factor^i`, and at least `first + i` (so that they always grow).
    Geometric {
        /// Nodes in the first run.
        first: u64,
        /// Growth per restart (> 1).
        factor: f64,
    },
}

impl Restarts {
    /// The node cutoff of run `i` (0-based).
    pub fn cutoff(&self, i: u32) -> u64 {
        match *self {
            Restarts::Luby { scale } => scale.max(1).saturating_mul(luby(u64::from(i) + 1)),
            Restarts::Geometric { first, factor } => {
                let c = first.max(1) as f64 * factor.max(1.0).powi(i as i32);
                let c = if c >= u64::MAX as f64 { u64::MAX } else { c as u64 };
                // At least one more node per run: a factor barely above 1 would otherwise
                // keep the cutoff where no run finishes a subtree for millions of runs.
                c.max(first.max(1).saturating_add(u64::from(i)))
            }
        }
    }
}

impl Restarts {
    /// Whether the cutoffs grow without bound, as a complete search with restarts needs.
    pub fn grows(&self) -> bool {
        match *self {
            Restarts::Luby { .. } => true,
            Restarts::Geometric { factor, .. } => factor > 1.0,
        }
    }
}

impl fmt::Display for Restarts {
    /// The command-line spelling: `luby:SCALE` or `geometric:FIRST:FACTOR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restarts::Luby { scale } => write!(f, "luby:{scale}"),
            Restarts::Geometric { first, factor } => write!(f, "geometric:{first}:{factor}"),
        }
    }
}

impl Restarts {
    /// Reads a policy as command lines and the Python bindings write it: `none` (no
    /// restarts: `Ok(None)`), `luby[:SCALE]` (default scale 100) or
    /// `geometric[:FIRST[:FACTOR]]` (defaults 100 and 1.5). Numbers must be positive, and a
    /// geometric factor greater than 1 (cutoffs that never grow would restart forever).
    ///
    /// ```
    /// use csp_core::Restarts;
    /// assert_eq!(Restarts::parse("luby"), Ok(Some(Restarts::Luby { scale: 100 })));
    /// assert_eq!(Restarts::parse("none"), Ok(None));
    /// assert!(Restarts::parse("geometric:10:1").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Option<Restarts>, RestartsParseError> {
        let mut parts = text.split(':');
        let kind = parts.next().unwrap_or_default();
        let num = |p: Option<&str>, default: f64| -> Result<f64, RestartsParseError> {
            match p {
                None => Ok(default),
                Some(t) => t
                    .parse::<f64>()
                    .ok()
                    .filter(|x| *x > 0.0)
                    .ok_or_else(|| RestartsParseError::NotPositive(t.to_string())),
            }
        };
        let policy = match kind {
            "none" => None,
            "luby" => Some(Restarts::Luby {
                scale: num(parts.next(), 100.0)? as u64,
            }),
            "geometric" => Some(Restarts::Geometric {
                first: num(parts.next(), 100.0)? as u64,
                factor: num(parts.next(), 1.5)?,
            }),
            _ => return Err(RestartsParseError::Unknown(text.to_string())),
        };
        if parts.next().is_some() {
            return Err(RestartsParseError::TooManyParts(text.to_string()));
        }
        // A factor of 1 or less keeps every cutoff at the first: no run could finish a subtree.
        if policy.is_some_and(|p| !p.grows()) {
            return Err(RestartsParseError::DoesNotGrow(text.to_string()));
        }
        Ok(policy)
    }
}

/// A restart policy that [`Restarts::parse`] cannot read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RestartsParseError {
    /// A scale, first cutoff or factor that is not a positive number.
    #[error("`{0}` is not a positive number")]
    NotPositive(String),
    /// A policy other than none, luby and geometric.
    #[error("unknown restart policy `{0}`, expected none, luby[:SCALE] or geometric[:FIRST[:FACTOR]]")]
    Unknown(String),
    /// More numbers than the policy takes.
    #[error("too many parts in restart policy `{0}`")]
    TooManyParts(String),
    /// A geometric factor of 1 or less.
    #[error("restart policy `{0}`: the factor must be a number greater than 1")]
    DoesNotGrow(String),
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (1-based).
pub fn luby(i: u64) -> u64 {
    let mut i = i.max(1);
    loop {
        // Find k with 2^(k-1) <= i < 2^k.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// When to stop early. Every limit is optional; an exceeded limit ends the search
/// with [`crate::Outcome::Limit`], never a panic.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many nodes (in total, over restarts).
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// Stop after this many solutions (enumeration and counting).
    pub solutions: Option<u64>,
    /// Stop when another thread sets this flag.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Everything a search needs besides the model.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// The strategy. Default: mrv/asc/fc.
    pub strategy: Strategy,
    /// Tie-breaking in the variable order. Default: lowest index.
    pub tie_break: TieBreak,
    /// Restarts: each run stops at its first backtrack past the policy's node cutoff and
    /// the next starts from the root, keeping the dom/wdeg weights. Every subtree a run finished is recorded as a
    /// nogood, so the search stays complete and enumerating or counting stays exact.
    /// Default: none.
    pub restarts: Option<Restarts>,
    /// Seed of the generator behind random tie-breaks and value orders. Default: 0.
    pub seed: u64,
    /// Limits. Default: none.
    pub limits: Limits,
    /// Failed-value probing under MAC: after each propagation, every unassigned variable
    /// with two values is tried with each value; a value whose propagation fails is
    /// removed, until nothing changes. Probes are inference, not nodes. Default: off.
    pub probing: bool,
    /// What a decision branches on. Default: variables.
    pub branching: Branching,
    /// The most undo records (16 bytes each) the trail holds. Past it, the records of
    /// the oldest decision levels are dropped and such a level is rebuilt, when search
    /// backtracks to it, from a copy of the root domains by replaying the decisions
    /// above it: memory stays bounded on deep searches whose nodes change many domains,
    /// at the price of that replay. Nodes, solutions and statistics are the same either
    /// way. Default: [`SearchConfig::DEFAULT_MAX_TRAIL`]. Under backjumping the trail is
    /// not bounded: a jump undoes several levels at once, to the mark of the lowest.
    pub max_trail: usize,
    /// Last-conflict reasoning (after Lecoutre, Sais, Tabary and Vidal 2009) over any
    /// variable order: a variable whose values all failed (its level was exhausted without
    /// a solution below) is recorded, up to this many, and the recorded variables are
    /// chosen first, in the order they were recorded, while one of them is unassigned; when
    /// all are assigned the record is emptied. 0: off. Default: 0.
    pub last_conflict: u32,
    /// Backjumping, with inference `none` or `fc` (BT-CBJ, FC-CBJ, BJ, FC-BJ). Not with
    /// `mac`, restarts or branching on places ([`ConfigError::Backjumping`]). Default: none.
    pub backjump: Backjump,
    /// Where the search tree goes, one node at a time ([`Trace`]). Default: nowhere.
    pub trace: Option<Trace>,
    /// A copy of the statistics for another thread to watch a long search: written when
    /// the limits' clock is read (every few thousand nodes, with `elapsed` so far), never
    /// waited for (a copy is skipped while a reader holds the lock). The solver's own
    /// [`crate::Solver::stats`] are the exact ones at the end. Default: none.
    pub live_stats: Option<std::sync::Arc<std::sync::Mutex<crate::Stats>>>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            strategy: Strategy::default(),
            tie_break: TieBreak::Lowest,
            restarts: None,
            seed: 0,
            limits: Limits::default(),
            probing: false,
            branching: Branching::Variables,
            max_trail: SearchConfig::DEFAULT_MAX_TRAIL,
            last_conflict: 0,
            backjump: Backjump::None,
            trace: None,
            live_stats: None,
        }
    }
}

impl SearchConfig {
    /// The default [`SearchConfig::max_trail`]: 2^20 records, 16 MB. Most searches stay far
    /// below it (a Sudoku keeps a few hundred); deep forward checking on a large board
    /// reaches it.
    pub const DEFAULT_MAX_TRAIL: usize = 1 << 20;

    /// Whether the options fit together, the model aside: the errors [`crate::Solver::new`]
    /// gives for the configuration alone, so that a front end can refuse them up front.
    pub fn check(&self) -> Result<(), ConfigError> {
        let inference = self.strategy.inference;
        if self.probing && inference != Inference::Mac {
            return Err(ConfigError::ProbingWithoutMac(inference));
        }
        if let Some(policy) = self.restarts.filter(|policy| !policy.grows()) {
            return Err(ConfigError::RestartsDoNotGrow(policy.to_string()));
        }
        let backjump = self.backjump;
        let refuse = |reason: &str| {
            Err(ConfigError::Backjumping {
                backjump,
                reason: reason.to_string(),
            })
        };
        if backjump == Backjump::None {
            Ok(())
        } else if inference == Inference::Mac {
            refuse(
                "needs inference none or fc, not mac: its pruning cascades, and the levels behind \
                 each removal are not recorded",
            )
        } else if self.restarts.is_some() {
            refuse(
                "does not run with restarts: the nogoods recorded at restarts prune without the \
                 levels behind them",
            )
        } else if self.branching == Branching::Places {
            refuse(
                "branches on variables only: a decision on the places of a value is refuted by \
                 the permutation constraint, not by a level",
            )
        } else {
            Ok(())
        }
    }

    /// A configuration with this strategy and the other defaults.
    pub fn with_strategy(strategy: Strategy) -> Self {
        SearchConfig {
            strategy,
            ..SearchConfig::default()
        }
    }
}

/// A search configuration that cannot run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// Failed-value probing runs on top of maintained arc consistency only.
    #[error("probing needs inference mac, not {0}")]
    ProbingWithoutMac(Inference),
    /// A geometric restart policy whose cutoffs would not grow (a factor of 1 or less,
    /// or not a number): every run would be cut off before it could finish a subtree, so
    /// the search would restart forever.
    #[error("restart policy {0}: the factor must be a number greater than 1")]
    RestartsDoNotGrow(String),
    /// The model's variables, domains and constraints would take more memory than csp
    /// allows ([`crate::MAX_MODEL_MEMORY`], by the estimate of [`crate::ModelSize`]).
    #[error(
        "{variables} variables with {words} words of 64 bits of domains, {constrained_pairs} pairs \
         under binary constraints and constraint data of about {data_bytes} bytes would take about \
         {bytes} bytes (about 100 bytes a variable, 24 a word and 600 a pair); csp allows at most {max} \
         bytes (2 GiB) a model"
    )]
    ModelTooLarge {
        /// The model's variables.
        variables: u64,
        /// The words the model's domains take, all variables together.
        words: u64,
        /// The pairs of variables the model's binary constraints link.
        constrained_pairs: u64,
        /// The estimated bytes of the model's n-ary constraints and binary tables.
        data_bytes: u64,
        /// The estimated bytes.
        bytes: u64,
        /// The limit, in bytes.
        max: u64,
    },
    /// A parallel search ([`crate::ParallelSolver`]) on no thread, or on more than it runs.
    #[error("a parallel search runs on 1 to {max} threads, not {threads}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// The most allowed.
        max: usize,
    },
    /// A traced search on several threads: a trace is the tree of one search.
    #[error("a search tree is traced on one thread only")]
    TracedInParallel,
    /// [`crate::Solver::optimize`] on a model without an objective.
    #[error("the model has no objective to optimise (see Model::minimize and Model::maximize)")]
    NoObjective,
    /// An objective on a variable the model does not have.
    #[error("the objective variable {index} does not exist (the model has {count} variables)")]
    UnknownObjectiveVariable {
        /// The index that was passed.
        index: usize,
        /// How many variables the model has.
        count: usize,
    },
    /// A decision variable of large neighbourhood search (`LnsConfig`) the model
    /// does not have.
    #[error("the decision variable {index} does not exist (the model has {count} variables)")]
    UnknownDecisionVariable {
        /// The index that was passed.
        index: usize,
        /// How many variables the model has.
        count: usize,
    },
    /// `impact` keeps a mean impact per value of the initial domains: more values (every
    /// value their bit words can hold, all variables together) than it can keep.
    #[error("impact keeps one figure per value: the domains hold {values} values, at most {max} allowed")]
    TooManyImpacts {
        /// The values of the domains.
        values: u64,
        /// The limit.
        max: u64,
    },
    /// Optimisation asked of a solver whose search began without that objective (with
    /// `solve`, `count`, `solutions`, or another objective): the solutions it went past
    /// would be missing from the optimum. Optimise with a fresh solver.
    #[error("optimisation needs a fresh solver: this one has searched without this objective")]
    SearchStarted,
    /// Backjumping asked with something it does not support; the message says why.
    #[error("backjumping ({backjump}) {reason}")]
    Backjumping {
        /// The backjumping asked for.
        backjump: Backjump,
        /// Why it cannot run.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_cutoffs_always_grow() {
        let barely = Restarts::Geometric {
            first: 1,
            factor: 1.000_000_1,
        };
        assert!((0..1000).all(|i| barely.cutoff(i + 1) > barely.cutoff(i)));
        let usual = Restarts::Geometric {
            first: 100,
            factor: 1.5,
        };
        assert_eq!(
            (0..4).map(|i| usual.cutoff(i)).collect::<Vec<_>>(),
            [100, 150, 225, 337]
        );
        assert!(
            !Restarts::Geometric {
                first: 1,
                factor: 1.0
            }
            .grows()
        );
        assert!(
            !Restarts::Geometric {
                first: 1,
                factor: f64::NAN
            }
            .grows()
        );
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn strategy_names_round_trip() {
        for s in Strategy::textbook() {
            assert_eq!(s.to_string().parse::<Strategy>(), Ok(s));
        }
        assert_eq!(Strategy::textbook().len(), 18);
        assert!("mrv/asc".parse::<Strategy>().is_err());
        assert!("foo".parse::<Inference>().is_err());
    }
}
