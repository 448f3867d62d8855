//! # csp-xcsp: XCSP3 instances (and DIMACS graph colouring) as csp-core models
//!
//! Reads a constraint-satisfaction instance in [XCSP3](https://xcsp.org) into a
//! [`csp_core::Model`] whose variables keep their XCSP3 names (`x`, `q[3]`, `m[0][1]`), in
//! declaration order. Files may be plain (`.xml`), xz (`.xml.xz`) or legacy lzma
//! (`.xml.lzma`). Anything outside what csp reads is refused with an [`Error`] that names
//! the element and gives its line and column; so is anything beyond csp's limits (the size
//! of the input, the nesting of elements and expressions, arithmetic beyond 128 bits), and a
//! deadline or a cancel flag ([`ReadLimits`]) stops the reading as it stops a search.
//!
//! ```
//! use csp_core::{SearchConfig, Solver};
//!
//! let xml = r#"<instance format="XCSP3" type="CSP">
//!   <variables> <array id="q" size="[4]"> 0..3 </array> </variables>
//!   <constraints>
//!     <allDifferent> q[] </allDifferent>
//!     <group>
//!       <intension> ne(dist(%0,%1),%2) </intension>
//!       <args> q[0] q[1] 1 </args> <args> q[0] q[2] 2 </args> <args> q[0] q[3] 3 </args>
//!       <args> q[1] q[2] 1 </args> <args> q[1] q[3] 2 </args> <args> q[2] q[3] 1 </args>
//!     </group>
//!   </constraints>
//! </instance>"#;
//! let instance = csp_xcsp::Instance::from_str(xml).unwrap();
//! assert_eq!(instance.model.name(instance.model.var(2).unwrap()), "q[2]");
//! let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
//! assert_eq!(solver.count().solutions, 2); // four queens
//!
//! let err = csp_xcsp::Instance::from_str("<instance type=\"CSP\">\n<variables> <var id=\"x\"> 0..2 </var> </variables>\n<constraints> <stretch/> </constraints></instance>").unwrap_err();
//! assert_eq!(err.to_string(), "line 3, column 15: unsupported constraint <stretch> (outside XCSP3-core)");
//! ```

mod attributes;
mod condition;
mod constraints;
pub mod dimacs;
mod error;
pub mod explain;
pub mod ir;
mod limits;
pub mod objective;
mod post;
mod read;
mod source;
pub mod table;
mod walk;
pub mod write;
mod xml;

use std::path::Path;

use csp_core::{Model, VarId};

pub use error::{Error, Position, Result};
pub use limits::{DEFAULT_MAX_INPUT, MAX_CONSTRAINTS, MAX_ELEMENT_DEPTH, MAX_EXPRESSION_DEPTH, ReadLimits};
pub use post::{PAIR_TABLE_LIMIT, PostOptions};
pub use read::Array;
pub use source::{read_bytes, read_text};

/// How an instance is read: the posting options and the limits.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// How constraints are posted.
    pub post: PostOptions,
    /// The limits that hold while reading and posting.
    pub limits: ReadLimits,
    /// Keep a copy of the model before any constraint is posted ([`Instance::variables`]),
    /// so that models of some of the constraints can be made ([`Instance::model_of`]).
    /// Default: false.
    pub keep_variables: bool,
}

/// An instance read from a file: the model, and what is needed to report solutions.
pub struct Instance {
    /// The variables (named as in the file, in declaration order) and the constraints.
    /// Auxiliary variables the posting adds (named `aux#0`, ...) come after the declared
    /// ones: see [`Instance::declared`].
    pub model: Model,
    /// How many of the model's variables the file declares (the first ones); the others
    /// are auxiliary, determined by them, and left out of solutions.
    pub declared: usize,
    /// The arrays as declared, with their cells' variables.
    pub arrays: Vec<Array>,
    /// The constraints as read, with their places in the file (to check a solution
    /// independently of the propagators).
    pub constraints: Vec<ir::Located>,
    /// The constraints as the file states them (each `Located` names its unit), in the
    /// order of the file.
    pub units: Vec<ir::Unit>,
    /// The children of `<constraints>` (each unit names its own).
    pub tops: Vec<ir::Top>,
    /// The declared variables without any constraint, when
    /// [`ReadOptions::keep_variables`] asked for them.
    pub variables: Option<Box<Model>>,
    /// The objective of an optimisation instance (`type="COP"`), as read.
    pub objective: Option<objective::Objective>,
    /// The model's variable equal to the objective, which the model optimises
    /// ([`csp_core::Model::objective`]).
    pub objective_var: Option<VarId>,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("variables", &self.model.num_vars())
            .field("arrays", &self.arrays.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Instance {
    /// Reads an instance from a file: `.xml`, `.xml.xz` or `.xml.lzma` (the compression is
    /// recognised from the content and the name; `-` is standard input); DIMACS files are
    /// read by [`dimacs::read`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Instance> {
        Instance::from_path_with(path, &ReadOptions::default())
    }

    /// [`Instance::from_path`] with options and limits.
    pub fn from_path_with(path: impl AsRef<Path>, options: &ReadOptions) -> Result<Instance> {
        let text = read_text(path.as_ref(), &options.limits)?;
        Instance::from_str_with(&text, options)
    }

    /// Reads an instance from XCSP3 text.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Instance> {
        Instance::from_str_with(text, &ReadOptions::default())
    }

    /// [`Instance::from_str`] with options and limits.
    pub fn from_str_with(text: &str, options: &ReadOptions) -> Result<Instance> {
        let limits = &options.limits;
        if text.len() as u64 > limits.max_input {
            return Err(Error::TooLarge {
                path: "the text".into(),
                limit: limits.max_input,
            });
        }
        let doc = xml::Document::parse(text, &mut limits::Budget::new(limits))?;
        let mut parsed = walk::read(&doc, limits::Budget::new(limits))?;
        drop(doc);
        let mut model = parsed.model;
        let declared = model.num_vars();
        let variables = options.keep_variables.then(|| Box::new(model.clone()));
        let mut poster = post::Poster::new(&mut model, options.post, limits::Budget::new(limits));
        for c in &parsed.constraints {
            poster.position = c.position;
            c.constraint.post(&mut poster)?;
        }
        let objective_var = match &mut parsed.objective {
            Some(o) if options.post.objective => Some(o.post(&mut poster)?),
            _ => None,
        };
        poster.finish()?;
        drop(poster);
        if options.post.fix_free {
            fix_free(
                &mut model,
                declared,
                &parsed.constraints,
                parsed.objective.as_ref(),
            )?;
        }
        limits.check()?;
        Ok(Instance {
            model,
            declared,
            arrays: parsed.arrays,
            constraints: parsed.constraints,
            units: parsed.units,
            tops: parsed.tops,
            variables,
            objective: parsed.objective,
            objective_var,
        })
    }

    /// The model of the constraints of the chosen units only (`keep[u]` for unit `u`), without
    /// the objective, within `options`' limits. Needs the instance to have been read with
    /// [`ReadOptions::keep_variables`]; its declared variables are the same, in the same order.
    pub fn model_of(&self, keep: &[bool], options: &ReadOptions) -> Result<Model> {
        let Some(variables) = &self.variables else {
            return Err(Error::Syntax {
                position: Position::default(),
                message: "the instance was read without keeping its variables (ReadOptions::keep_variables)"
                    .into(),
            });
        };
        let limits = &options.limits;
        let mut model = Model::clone(variables);
        let mut poster = post::Poster::new(&mut model, options.post, limits::Budget::new(limits));
        for c in self
            .constraints
            .iter()
            .filter(|c| keep.get(c.unit) == Some(&true))
        {
            poster.position = c.position;
            c.constraint.post(&mut poster)?;
        }
        poster.finish()?;
        drop(poster);
        limits.check()?;
        Ok(model)
    }

    /// Whether an assignment of the declared variables (auxiliary ones may follow) satisfies
    /// every constraint of the chosen units (`keep[u]`), as read.
    pub fn satisfies_units(&self, values: &[i32], keep: &[bool]) -> bool {
        values.len() >= self.declared
            && self
                .constraints
                .iter()
                .filter(|c| keep.get(c.unit) == Some(&true))
                .all(|c| c.constraint.holds(values))
    }

    /// Whether an assignment of the declared variables (`values[i]` for the `i`-th declared
    /// variable; auxiliary ones may follow, and are ignored) satisfies every constraint as
    /// read. Unlike [`Instance::check`], the values' domains are not checked.
    pub fn satisfies(&self, values: &[i32]) -> bool {
        values.len() >= self.declared && self.constraints.iter().all(|c| c.constraint.holds(values))
    }

    /// The objective's value under a complete assignment, by its definition (`None`: no
    /// objective, or undefined).
    pub fn objective_value(&self, values: &[i32]) -> Option<i128> {
        self.objective.as_ref().and_then(|o| o.value(values))
    }

    /// Whether a complete assignment (one value per variable, in model order) satisfies
    /// every constraint as read from the file; `Err` names the first one it violates.
    pub fn check(&self, values: &[i32]) -> Result<(), &ir::Located> {
        let outside = values.len() != self.model.num_vars()
            || self
                .model
                .vars()
                .zip(values)
                .any(|(v, a)| !self.model.domain(v).contains(*a));
        if outside {
            return self.constraints.first().map_or(Ok(()), Err);
        }
        match self.constraints.iter().find(|c| !c.constraint.holds(values)) {
            Some(c) => Err(c),
            None => Ok(()),
        }
    }
}

/// Fixes every declared variable that appears in no constraint (nor the objective) to its
/// smallest value, so that solutions are counted over the constrained variables, as the
/// XCSP3 solvers count them.
fn fix_free(
    model: &mut Model,
    declared: usize,
    constraints: &[ir::Located],
    objective: Option<&objective::Objective>,
) -> Result<()> {
    let mut used = vec![false; model.num_vars()];
    for c in constraints {
        c.constraint.for_each_var(&mut |v| used[v.index()] = true);
    }
    if let Some(o) = objective {
        o.for_each_var(&mut |v| used[v.index()] = true);
    }
    let free: Vec<VarId> = model
        .vars()
        .take(declared)
        .filter(|v| !used[v.index()] && model.fixed(*v).is_none())
        .collect();
    for v in free {
        let lo = model.domain(v).min();
        model.fix(v, lo).map_err(|source| Error::Model {
            position: Position::default(),
            source,
        })?;
    }
    Ok(())
}
