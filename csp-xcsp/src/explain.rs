//! What an explanation of an instance is made of: its constraints as the file states them
//! ([`crate::ir::Unit`]), gathered into [`Part`]s by a [`Grouping`], and the oracle that
//! csp-core's MUS algorithms ask ("are these parts satisfiable together?"), which posts the
//! chosen parts' constraints on the declared variables and searches.

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

use csp_core::explain::{Check, SubsetOracle};
use csp_core::{Model, Outcome, SearchConfig, Solver};

use crate::dimacs::Graph;
use crate::error::Position;
use crate::{Instance, ReadOptions};

/// How the constraints are gathered into the parts an explanation names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grouping {
    /// Each constraint as stated: an element, one `<args>` of a group, one window of a
    /// slide. Default.
    #[default]
    None,
    /// Each child of `<constraints>`: a constraint element, or a whole `<group>`, `<block>`
    /// or `<slide>`.
    Blocks,
    /// The constraints over the same arrays (and variables outside arrays) together: all
    /// those whose scope is in `x[]`, all those linking `x[]` and `y`, ...
    Arrays,
}

/// A set of units that an explanation keeps or drops together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// How it is named: an `id`, an element and its place, or the arrays it is on.
    pub name: String,
    /// Its `id` (`g[2]` for the third `<args>` of the group `g`), if it has one.
    pub id: Option<String>,
    /// The element (`intension`, `group`, ...; `arrays` for a part of `Grouping::Arrays`).
    pub element: String,
    /// Where its first unit starts.
    pub position: Position,
    /// Its units (indices into [`Instance::units`]), ascending.
    pub units: Vec<usize>,
}

/// The instance's units gathered by `grouping`, in the order of the file.
pub fn parts(instance: &Instance, grouping: Grouping) -> Vec<Part> {
    match grouping {
        Grouping::None => instance
            .units
            .iter()
            .enumerate()
            .map(|(u, unit)| Part {
                name: unit.to_string(),
                id: unit.id.as_ref().map(|id| match unit.index {
                    Some(k) => format!("{id}[{k}]"),
                    None => id.clone(),
                }),
                element: unit.element.clone(),
                position: unit.position,
                units: vec![u],
            })
            .collect(),
        Grouping::Blocks => {
            let mut parts: Vec<Part> = instance
                .tops
                .iter()
                .map(|top| Part {
                    name: top.to_string(),
                    id: top.id.clone(),
                    element: top.element.clone(),
                    position: top.position,
                    units: Vec::new(),
                })
                .collect();
            for (u, unit) in instance.units.iter().enumerate() {
                parts[unit.top].units.push(u);
            }
            parts.retain(|p| !p.units.is_empty());
            parts
        }
        Grouping::Arrays => by_arrays(instance),
    }
}

/// [`Grouping::Arrays`]: units keyed by the arrays (or single variables) of their scope.
fn by_arrays(instance: &Instance) -> Vec<Part> {
    let mut array_of: HashMap<usize, usize> = HashMap::new();
    for (a, array) in instance.arrays.iter().enumerate() {
        for v in array.cells.iter().flatten() {
            array_of.insert(v.index(), a);
        }
    }
    let mut scopes: Vec<BTreeSet<String>> = vec![BTreeSet::new(); instance.units.len()];
    for c in &instance.constraints {
        c.constraint.for_each_var(&mut |v| {
            let name = match array_of.get(&v.index()) {
                Some(&a) => format!("{}[]", instance.arrays[a].name),
                None => instance.model.name(v).to_string(),
            };
            scopes[c.unit].insert(name);
        });
    }
    let mut index: HashMap<&BTreeSet<String>, usize> = HashMap::new();
    let mut parts: Vec<Part> = Vec::new();
    for (u, scope) in scopes.iter().enumerate() {
        let p = *index.entry(scope).or_insert_with(|| {
            let on: Vec<&str> = scope.iter().map(String::as_str).collect();
            parts.push(Part {
                name: if on.is_empty() {
                    "constraints without variables".into()
                } else {
                    format!("constraints on {}", on.join(", "))
                },
                id: None,
                element: "arrays".into(),
                position: instance.units[u].position,
                units: Vec::new(),
            });
            parts.len() - 1
        });
        parts[p].units.push(u);
    }
    parts
}

/// "Are these parts satisfiable together?": their constraints posted on the declared
/// variables (the objective left out), then a search. A solution is checked against the
/// constraints as read before it counts; a limit, an error or a solution that fails the
/// check is an undecided answer, never "unsatisfiable".
pub struct PartOracle<'i> {
    instance: &'i Instance,
    parts: &'i [Part],
    options: ReadOptions,
    config: SearchConfig,
    deadline: Option<Instant>,
    /// What went wrong in a call, other than a limit: the explanation is then not to be
    /// trusted as complete, and the caller reports it.
    pub error: Option<String>,
    /// The search nodes of every call, together.
    pub nodes: u64,
}

impl<'i> PartOracle<'i> {
    /// An oracle over `parts` of `instance` (read with [`ReadOptions::keep_variables`]): each
    /// call posts with `options` (their limits hold while posting) and searches with
    /// `config` (its node limit holds per call), until `deadline`.
    pub fn new(
        instance: &'i Instance,
        parts: &'i [Part],
        options: ReadOptions,
        config: SearchConfig,
        deadline: Option<Instant>,
    ) -> Self {
        PartOracle {
            instance,
            parts,
            options,
            config,
            deadline,
            error: None,
            nodes: 0,
        }
    }

    /// The units of the parts in `subset`, as flags.
    fn keep(&self, subset: &[usize]) -> Vec<bool> {
        let mut keep = vec![false; self.instance.units.len()];
        for &p in subset {
            for &u in &self.parts[p].units {
                keep[u] = true;
            }
        }
        keep
    }
}

impl SubsetOracle for PartOracle<'_> {
    fn check(&mut self, subset: &[usize]) -> Check {
        // An undecided answer for what is not a limit; `error` says what it was.
        let failed = Check::Unknown(csp_core::LimitKind::Cancelled);
        let keep = self.keep(subset);
        let mut options = self.options.clone();
        options.limits.deadline = self.deadline;
        let model = match self.instance.model_of(&keep, &options) {
            Ok(model) => model,
            Err(e) => {
                if let Some(kind) = e.limit() {
                    return Check::Unknown(kind);
                }
                self.error.get_or_insert_with(|| e.to_string());
                return failed;
            }
        };
        let (outcome, nodes) = match search_within(&model, &self.config, self.deadline) {
            Ok(searched) => searched,
            Err(e) => {
                self.error.get_or_insert(e);
                return failed;
            }
        };
        self.nodes += nodes;
        match outcome {
            Outcome::Solved(values) if self.instance.satisfies_units(&values, &keep) => Check::Sat,
            Outcome::Solved(_) => {
                self.error.get_or_insert_with(|| {
                    "internal error: a solution of some constraints violates them as read".into()
                });
                failed
            }
            Outcome::Unsatisfiable => Check::Unsat,
            Outcome::Limit(kind) => Check::Unknown(kind),
        }
    }
}

/// "Can the graph be coloured with these edges only?": the K-colouring of every vertex with
/// `!=` on the chosen edges, then a search. As [`PartOracle`], a solution is checked and
/// anything but a proof is undecided.
pub struct EdgeOracle<'g> {
    graph: &'g Graph,
    colours: u32,
    config: SearchConfig,
    deadline: Option<Instant>,
    /// What went wrong in a call, other than a limit.
    pub error: Option<String>,
}

impl<'g> EdgeOracle<'g> {
    /// An oracle over the edges of `graph` (in the file's order) with `colours` colours;
    /// each call searches with `config` until `deadline`.
    pub fn new(graph: &'g Graph, colours: u32, config: SearchConfig, deadline: Option<Instant>) -> Self {
        EdgeOracle {
            graph,
            colours,
            config,
            deadline,
            error: None,
        }
    }
}

impl SubsetOracle for EdgeOracle<'_> {
    fn check(&mut self, subset: &[usize]) -> Check {
        let failed = Check::Unknown(csp_core::LimitKind::Cancelled);
        let part = Graph {
            vertices: self.graph.vertices,
            edges: subset.iter().map(|&e| self.graph.edges[e]).collect(),
        };
        let model = match part.colouring(self.colours) {
            Ok(m) => m,
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                return failed;
            }
        };
        let outcome = match search_within(&model, &self.config, self.deadline) {
            Ok((outcome, _)) => outcome,
            Err(e) => {
                self.error.get_or_insert(e);
                return failed;
            }
        };
        match outcome {
            Outcome::Solved(c) if part.edges.iter().all(|&(u, v)| c[u] != c[v]) => Check::Sat,
            Outcome::Solved(_) => {
                self.error.get_or_insert_with(|| {
                    "internal error: a colouring gives two ends of an edge one colour".into()
                });
                failed
            }
            Outcome::Unsatisfiable => Check::Unsat,
            Outcome::Limit(kind) => Check::Unknown(kind),
        }
    }
}

/// One search of `model` for a solution under `config`, within `deadline` (a deadline passed
/// is a time limit reached): the outcome and the nodes it took, or the message of a
/// configuration the solver refuses.
fn search_within(
    model: &Model,
    config: &SearchConfig,
    deadline: Option<Instant>,
) -> Result<(Outcome, u64), String> {
    let mut config = config.clone();
    if let Some(d) = deadline {
        let left = d.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok((Outcome::Limit(csp_core::LimitKind::Time), 0));
        }
        config.limits.time = Some(config.limits.time.map_or(left, |t| t.min(left)));
    }
    let mut solver = Solver::new(model, config).map_err(|e| e.to_string())?;
    let outcome = solver.solve();
    Ok((outcome, solver.stats().nodes))
}
