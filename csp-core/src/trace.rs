//! Search trees, node by node: a [`Trace`] in [`crate::SearchConfig::trace`] receives one
//! [`TraceNode`] per node of the node-count contract, as the search makes them, and hands
//! each to its [`TraceSink`]. Nothing is kept but the path to the current node, so a trace
//! of any length takes the memory of one path.
//!
//! Lines come in the order of their ids, and a node's parent always comes before it. A
//! node's status is known once the search has looked below it: a node that passed its
//! inference is held back until its first child (it is then a `branch`) or until search
//! leaves it without one (a `failure`, a dead end), so the one node held back is the last
//! one made. When a limit stops the search (or a restart abandons its path), the node held
//! back is written as a `branch`: every node is written by the time the solver returns.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use csp_core::{Model, NodeStatus, SearchConfig, Solver, Trace};
//!
//! let mut m = Model::new();
//! let v = m.int_vars(3, 1, 3).unwrap();
//! m.all_different(&v).unwrap();
//! let seen = Arc::new(Mutex::new(Vec::new()));
//! let into = Arc::clone(&seen);
//! let config = SearchConfig {
//!     trace: Some(Trace::new(move |node: &csp_core::TraceNode<'_>| {
//!         into.lock().unwrap().push(node.to_owned())
//!     })),
//!     ..SearchConfig::with_strategy("static/asc/fc".parse().unwrap())
//! };
//! let mut solver = Solver::new(&m, config).unwrap();
//! assert_eq!(solver.count().solutions, 6);
//! let nodes = solver.stats().nodes;
//! let seen = seen.lock().unwrap();
//! assert_eq!(seen.len() as u64, nodes, "one line per node");
//! assert_eq!(seen.iter().filter(|n| n.status == NodeStatus::Solution).count(), 6);
//! assert_eq!(seen[0].parent, None, "a first-level node");
//! ```

use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::var::VarId;

/// What a traced node turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum NodeStatus {
    /// Search went below it: it has a child, or it was left open when a limit stopped the
    /// search or a restart abandoned its path.
    Branch,
    /// A complete assignment that satisfies every constraint.
    Solution,
    /// A dead end: its inference failed, or no value of the next variable could follow it
    /// (under `none`, none agreed), or its complete assignment failed the final check.
    Failure,
    /// Not a node: a level that backjumping went over. Its variable's values that were not
    /// tried yet are never tried; `value` is absent. Such lines are the only ones that are
    /// not nodes, and there are `levels_skipped` of them.
    Skipped,
}

impl NodeStatus {
    /// The name written in traces.
    pub fn name(self) -> &'static str {
        match self {
            NodeStatus::Branch => "branch",
            NodeStatus::Solution => "solution",
            NodeStatus::Failure => "failure",
            NodeStatus::Skipped => "skipped",
        }
    }
}

impl fmt::Display for NodeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One node as the search reports it. Serialised, it is one line of a trace file:
/// `{"id":3,"parent":2,"depth":2,"var":"q1","value":3,"status":"branch","restart":0}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TraceNode<'a> {
    /// The node's number: 1, 2, 3... in the order the search made them (shared by the
    /// solvers that write to one [`Trace`]).
    pub id: u64,
    /// The node above it; `None` for a first-level node (the root is no node).
    pub parent: Option<u64>,
    /// Assignments on its path, itself included: 1 at the first level.
    pub depth: u32,
    /// The variable's name.
    #[serde(rename = "var")]
    pub name: &'a str,
    /// The variable.
    #[serde(skip)]
    pub var: VarId,
    /// The value assigned (`None` for a skipped level).
    pub value: Option<i32>,
    /// What the node turned out to be.
    pub status: NodeStatus,
    /// The run it belongs to: 0 before the first restart.
    pub restart: u32,
}

impl TraceNode<'_> {
    /// The node with its own copy of the name.
    pub fn to_owned(&self) -> TracedNode {
        TracedNode {
            id: self.id,
            parent: self.parent,
            depth: self.depth,
            var: self.name.to_string(),
            value: self.value,
            status: self.status,
            restart: self.restart,
        }
    }
}

/// A trace line read back (or a [`TraceNode`] kept): the same fields, owned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TracedNode {
    /// See [`TraceNode::id`].
    pub id: u64,
    /// See [`TraceNode::parent`].
    pub parent: Option<u64>,
    /// See [`TraceNode::depth`].
    pub depth: u32,
    /// The variable's name.
    pub var: String,
    /// See [`TraceNode::value`].
    pub value: Option<i32>,
    /// See [`TraceNode::status`].
    pub status: NodeStatus,
    /// See [`TraceNode::restart`].
    #[serde(default)]
    pub restart: u32,
}

/// What receives a trace's nodes. Any `FnMut(&TraceNode)` is one.
pub trait TraceSink: Send {
    /// One node.
    fn node(&mut self, node: &TraceNode<'_>);

    /// Called by [`Trace::finish`]: writes out what is buffered and reports the first
    /// error met. The default has nothing to do.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<F: FnMut(&TraceNode<'_>) + Send> TraceSink for F {
    fn node(&mut self, node: &TraceNode<'_>) {
        self(node)
    }
}

/// A sink that writes one JSON line per node (the format of `csp ... --trace FILE`). A
/// write error stops the writing; [`TraceSink::finish`] reports it.
pub struct JsonLines<W: Write + Send> {
    out: W,
    error: Option<io::Error>,
}

impl<W: Write + Send> JsonLines<W> {
    /// Lines into `out` (buffer it: one write per node otherwise).
    pub fn new(out: W) -> Self {
        JsonLines { out, error: None }
    }
}

impl<W: Write + Send> TraceSink for JsonLines<W> {
    fn node(&mut self, node: &TraceNode<'_>) {
        if self.error.is_some() {
            return;
        }
        self.error = write_line(&mut self.out, node).err();
    }

    fn finish(&mut self) -> io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// Writes `node` as one JSON line (by hand: the fields are few and fixed, and nothing is
/// allocated per node).
fn write_line(out: &mut impl Write, node: &TraceNode<'_>) -> io::Result<()> {
    write!(out, "{{\"id\":{},\"parent\":", node.id)?;
    match node.parent {
        Some(p) => write!(out, "{p}")?,
        None => out.write_all(b"null")?,
    }
    write!(out, ",\"depth\":{},\"var\":\"", node.depth)?;
    write_escaped(out, node.name)?;
    out.write_all(b"\",\"value\":")?;
    match node.value {
        Some(v) => write!(out, "{v}")?,
        None => out.write_all(b"null")?,
    }
    writeln!(
        out,
        ",\"status\":\"{}\",\"restart\":{}}}",
        node.status.name(),
        node.restart
    )
}

/// `text` inside a JSON string.
fn write_escaped(out: &mut impl Write, text: &str) -> io::Result<()> {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let escaped = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            c if (c as u32) < 0x20 => "",
            _ => continue,
        };
        out.write_all(&text.as_bytes()[start..i])?;
        if escaped.is_empty() {
            write!(out, "\\u{:04x}", c as u32)?;
        } else {
            out.write_all(escaped.as_bytes())?;
        }
        start = i + c.len_utf8();
    }
    out.write_all(&text.as_bytes()[start..])
}

/// A search tree's destination: a [`TraceSink`] and the numbering of nodes. Clones share
/// both, so the solvers of several runs (a count in two halves) number their nodes on.
#[derive(Clone)]
pub struct Trace {
    shared: Arc<Mutex<Shared>>,
}

struct Shared {
    sink: Box<dyn TraceSink>,
    /// The id of the last line handed out.
    last_id: u64,
}

impl Trace {
    /// A trace into `sink`.
    pub fn new(sink: impl TraceSink + 'static) -> Trace {
        Trace {
            shared: Arc::new(Mutex::new(Shared {
                sink: Box::new(sink),
                last_id: 0,
            })),
        }
    }

    /// A trace written as JSON lines into `out` ([`JsonLines`]).
    pub fn json_lines(out: impl Write + Send + 'static) -> Trace {
        Trace::new(JsonLines::new(out))
    }

    /// The number of lines handed out so far (nodes and skipped levels).
    pub fn lines(&self) -> u64 {
        self.lock().last_id
    }

    /// Writes out what the sink buffers; the first error the sink met, if any. Call it
    /// once the searches writing to this trace are done.
    pub fn finish(&self) -> io::Result<()> {
        self.lock().sink.finish()
    }

    /// The next id.
    pub(crate) fn next_id(&self) -> u64 {
        let mut shared = self.lock();
        shared.last_id += 1;
        shared.last_id
    }

    /// Hands `node` to the sink.
    pub(crate) fn emit(&self, node: &TraceNode<'_>) {
        self.lock().sink.node(node);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        // A sink that panicked leaves its state as it was: keep writing.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trace").field("lines", &self.lines()).finish()
    }
}
