//! Language-based constraints: `regular` (a finite automaton, deterministic or not) and `mdd`
//! (a multi-valued decision diagram).

use std::collections::HashMap;

use csp_core::{Automaton, Mdd, VarId};

use crate::error::Result;
use crate::ir::{Constraint, expr_vars, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::read::lists::{Ctx, tokens};
use crate::xml::Node;

/// `<regular>`: the items, in order, spell a word the automaton accepts.
#[derive(Debug)]
pub struct Regular {
    /// The items.
    pub items: Vec<csp_core::Expr>,
    /// The automaton, its states numbered in the order of first mention.
    pub automaton: Automaton,
}

impl Constraint for Regular {
    fn kind(&self) -> &'static str {
        "regular"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(word) = values_of(&self.items, values) else {
            return false;
        };
        let a = &self.automaton;
        // The set of states the prefix reaches, as a plain simulation of the automaton.
        let mut current = vec![false; a.states];
        current[a.start] = true;
        for &letter in &word {
            let mut next = vec![false; a.states];
            for &(from, value, to) in &a.transitions {
                if current[from] && i128::from(value) == letter {
                    next[to] = true;
                }
            }
            current = next;
        }
        a.finals.iter().any(|&f| current[f])
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        p.model.regular(&vars, &self.automaton).map_err(|e| p.err(e))
    }
}

/// The transitions `(from, value, to)` of `node`'s text, with the states numbered by
/// `states` (in order of first mention).
fn transitions<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    states: &mut HashMap<String, usize>,
) -> Result<Vec<(usize, i32, usize)>> {
    let text = r.content(node)?;
    let mut out = Vec::new();
    for piece in text.split(')') {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        let Some(body) = piece.strip_prefix('(') else {
            return Err(r.syntax(piece, node, "expected `(` to open a transition"));
        };
        let parts: Vec<&str> = body.split(',').map(str::trim).collect();
        let [from, value, to] = parts[..] else {
            return Err(r.syntax(
                piece,
                node,
                format!("a transition `({body})` must be (from,value,to)"),
            ));
        };
        let value = r.int32(value, node)?;
        let (from, to) = (state(r, states, from, node)?, state(r, states, to, node)?);
        out.push((from, value, to));
        r.budget.step()?;
    }
    Ok(out)
}

/// The number of the state `name`, a new one if it has none yet.
fn state(r: &Reader<'_, '_, '_>, states: &mut HashMap<String, usize>, name: &str, at: Node) -> Result<usize> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(r.syntax(name, at, format!("`{name}` is not a state name")));
    }
    let next = states.len();
    Ok(*states.entry(name.to_string()).or_insert(next))
}

pub(crate) fn regular<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "transitions", "start", "final"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let t = r.require(node, "transitions")?;
    let mut states = HashMap::new();
    let transitions = transitions(r, t, &mut states)?;
    // A start or final state no transition names is still a state (pycsp3 writes them): a
    // final state with no way in is unreachable, a start state with no way out accepts only
    // the empty word.
    let s = r.require(node, "start")?;
    let start_name = r.content(s)?.trim();
    let start = state(r, &mut states, start_name, s)?;
    let f = r.require(node, "final")?;
    let mut finals = Vec::new();
    for name in tokens(r.content(f)?) {
        finals.push(state(r, &mut states, name, f)?);
    }
    let automaton =
        Automaton::new(states.len(), start, finals, transitions).map_err(|e| crate::error::Error::Model {
            position: node.position(),
            source: e,
        })?;
    r.push(node, Regular { items, automaton })
}

/// `<mdd>`: the items, in order, label a path from the root of the diagram to its terminal.
#[derive(Debug)]
pub struct MddConstraint {
    /// The items.
    pub items: Vec<csp_core::Expr>,
    /// The diagram.
    pub mdd: Mdd,
}

impl Constraint for MddConstraint {
    fn kind(&self) -> &'static str {
        "mdd"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(word) = values_of(&self.items, values) else {
            return false;
        };
        let m = &self.mdd;
        let mut current = vec![false; m.nodes];
        current[m.root] = true;
        for &letter in &word {
            let mut next = vec![false; m.nodes];
            for &(from, value, to) in &m.transitions {
                if current[from] && i128::from(value) == letter {
                    next[to] = true;
                }
            }
            current = next;
        }
        current[m.terminal]
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        p.model.mdd(&vars, &self.mdd).map_err(|e| p.err(e))
    }
}

pub(crate) fn mdd<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    r.check_children(node, &["list", "transitions"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let t = r.require(node, "transitions")?;
    let mut nodes = HashMap::new();
    let transitions = transitions(r, t, &mut nodes)?;
    // The root is the node no edge enters; the terminal, the one no edge leaves.
    let mut entered = vec![false; nodes.len()];
    let mut left = vec![false; nodes.len()];
    for &(from, _, to) in &transitions {
        left[from] = true;
        entered[to] = true;
    }
    let roots: Vec<usize> = (0..nodes.len()).filter(|&n| !entered[n]).collect();
    let terminals: Vec<usize> = (0..nodes.len()).filter(|&n| !left[n]).collect();
    let ([root], [terminal]) = (&roots[..], &terminals[..]) else {
        return Err(r.syntax(
            "",
            t,
            format!(
                "an MDD needs one root (a node no edge enters) and one terminal (a node no edge leaves); \
                 this one has {} and {}",
                roots.len(),
                terminals.len()
            ),
        ));
    };
    let mdd =
        Mdd::new(nodes.len(), *root, *terminal, transitions).map_err(|e| crate::error::Error::Model {
            position: node.position(),
            source: e,
        })?;
    if mdd.depth().ok() != Some(items.len()) {
        return Err(r.syntax(
            "",
            t,
            format!(
                "the MDD's paths have another length than the list's {} items",
                items.len()
            ),
        ));
    }
    r.push(node, MddConstraint { items, mdd })
}
