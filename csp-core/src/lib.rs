//! # csp-core: a generic constraint-satisfaction engine
//!
//! Model a problem as variables with finite integer domains and constraints between
//! them, then solve it with backtracking search whose three parts are chosen
//! separately — variable order ([`VarOrder`]: static, MRV, MRV+degree, two kinds of
//! dom/wdeg), value order ([`ValueOrder`]: ascending, LCV, descending, random) and
//! inference ([`Inference`]: none, forward checking, MAC) — and compare strategies by the
//! [`Stats`] every run reports, above all **nodes expanded**.
//!
//! - Domains are bitsets of any size; search changes them in place and undoes the
//!   changes through a trail, so a search node allocates nothing.
//! - Binary constraints ([`Relation`]) have fast revision paths (`!=`, `==`, `<`, `<=`,
//!   `x != y + c`, `|x - y| != c`, tables); any `Fn(a, b) -> bool` works too.
//! - N-ary constraints bring their own [`Propagator`]; [`AllDifferent`] comes with
//!   three strengths ([`Strength`]), and [`PermutationOverlap`] links two all-different
//!   constraints that share variables ([`PermutationOverlaps`]: many links as one propagator).
//! - [`ac3`] makes a network arc consistent on its own.
//! - [`Solver`] finds one solution, enumerates them lazily or counts them, under
//!   [`Limits`] on nodes, time, solutions and a cancel flag, with optional
//!   [`Restarts`] (the subtrees each run finished are kept as nogoods, so counts stay
//!   exact), and decisions on variables or, in permutation constraints, on the two places
//!   left to a value ([`Branching`]).
//! - Random CSPs of the standard models for phase-transition experiments ([`random`]:
//!   model B and model RB, forced-satisfiable or not), reproducible from a seed.
//! - [`Solver::optimize`] minimises or maximises a variable ([`Model::minimize`],
//!   [`Model::maximize`]) by branch and bound, with any strategy, and returns an
//!   [`Optimum`]: the best solution, its value, and whether it is proved optimal.
//! - [`explain`]: why a model has no solution, as a minimal unsatisfiable subset of its
//!   constraints (QuickXplain, deletion) or all of them (MARCO), over any oracle.
//! - Local search over complete assignments: [`min_conflicts`] (any [`ConflictModel`],
//!   or any [`Model`] through [`ModelConflicts`]) and simulated annealing ([`anneal`]).
//!
//! ## Example: colouring the map of Australia (AIMA, chapter 6)
//!
//! ```
//! use csp_core::{Model, Outcome, SearchConfig, Solver, Strategy};
//!
//! let regions = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
//! let mut model = Model::new();
//! let colour = csp_core::Domain::range(0, 2).unwrap(); // red, green, blue
//! let v: Vec<_> = regions.iter().map(|r| model.add_named_var(*r, colour.clone())).collect();
//! let borders = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (4, 5)];
//! for (a, b) in borders {
//!     model.not_equal(v[a], v[b]).unwrap();
//! }
//!
//! let strategy: Strategy = "mrv-degree/lcv/fc".parse().unwrap();
//! let mut solver = Solver::new(&model, SearchConfig::with_strategy(strategy)).unwrap();
//! let Outcome::Solved(colours) = solver.solve() else { panic!("Australia is 3-colourable") };
//! assert!(model.is_solution(&colours));
//! // MRV+degree starts with SA (five neighbours) and never backtracks here.
//! assert_eq!(solver.stats().nodes, 7);
//! assert_eq!(solver.stats().backtracks, 0);
//!
//! // Every colouring: 6 for the mainland times 3 for Tasmania.
//! let mut all = Solver::new(&model, SearchConfig::default()).unwrap();
//! assert_eq!(all.count().solutions, 18);
//! ```

mod config;
mod constraints;
mod domain;
mod error;
pub mod explain;
pub mod lns;
mod local;
mod memory;
mod model;
mod network;
mod parallel;
mod propagation;
pub mod random;
mod relation;
mod search;
mod stats;
mod store;
mod trace;
mod tree_csp;
mod var;
#[cfg(target_arch = "x86_64")]
mod wide_vectors;

pub use config::{
    Backjump, Branching, ConfigError, Inference, Limits, Restarts, RestartsParseError, SearchConfig,
    Strategy, TieBreak, ValueOrder, VarOrder, luby,
};
pub use constraints::expression::{Bounds, Expr, ExprOp, Interval, RangeError};
pub use constraints::table::Tuples;
pub use constraints::{
    AllDifferent, Automaton, Cmp, MAX_MATCHING_PAIRS, Mdd, Order, PermutationOverlap, PermutationOverlaps,
    Strength, TableCell,
};
pub use domain::{Domain, MAX_DOMAIN_SPAN};
pub use error::{ModelError, ParseNameError};
pub use lns::{LnsConfig, LnsReport, LnsSolver, NeighbourhoodKind};
pub use local::{Annealing, AnnealingModel, AnnealingRun, AnnealingStats, anneal};
pub use local::{
    ConflictModel, LocalOutcome, LocalRun, LocalStats, MinConflicts, ModelConflicts, min_conflicts,
};
pub use memory::{
    BYTES_PER_CONSTRAINED_PAIR, BYTES_PER_DOMAIN_WORD, BYTES_PER_PROPAGATOR, BYTES_PER_SCOPE_ENTRY,
    BYTES_PER_VARIABLE, MAX_CONSTRAINED_PAIRS, MAX_MODEL_MEMORY, ModelSize, binary_table_bytes, domain_words,
    propagator_bytes,
};
pub use model::{BinaryConstraint, MAX_CARDINALITY_PAIRS, Model, Objective};
pub use parallel::{MAX_THREADS, ParallelSolver, Parallelism, SUBPROBLEMS_PER_THREAD, chooses_from_domains};
pub use propagation::{Ac3Report, Conflict, Event, Priority, PropagationContext, Propagator, Wake, ac3};
pub use relation::{PairPredicate, Relation};
pub use search::{Optimum, Solutions, Solver};
pub use stats::{Count, LimitKind, Outcome, Stats};
pub use store::{DomainBits, Values};
pub use trace::{JsonLines, NodeStatus, Trace, TraceNode, TraceSink, TracedNode};
pub use tree_csp::{NotATree, TreeCountError, TreeSolver};
pub use var::{IntOrVar, VarId};
