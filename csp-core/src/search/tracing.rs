//! The search's side of a [`Trace`]: which node is whose child, and each node's status
//! once it is known (see [`crate::trace`]). It keeps the ids of the nodes on the current
//! path and the one node whose status waits on what comes below it: memory of one path,
//! however long the trace.

use super::Solver;
use crate::model::Model;
use crate::trace::{NodeStatus, Trace, TraceNode};
use crate::var::VarId;

/// A line's fields but its status: held back while a node's status waits on what comes
/// below it.
#[derive(Clone, Copy)]
struct Line {
    id: u64,
    parent: Option<u64>,
    level: usize,
    var: VarId,
    value: Option<i32>,
    restart: u32,
}

/// Writes a search's nodes to its trace.
pub(super) struct TraceRecorder<'m> {
    trace: Trace,
    model: &'m Model,
    /// The id of the open node at each level of the current path.
    path: Vec<u64>,
    /// A node made and not written yet: it passed its inference, and what comes below it
    /// decides whether it is a branch or a dead end.
    held: Option<Line>,
}

impl<'m> TraceRecorder<'m> {
    pub(super) fn new(trace: Trace, model: &'m Model) -> TraceRecorder<'m> {
        TraceRecorder {
            trace,
            model,
            path: Vec::new(),
            held: None,
        }
    }

    fn emit(&self, line: Line, status: NodeStatus) {
        self.trace.emit(&TraceNode {
            id: line.id,
            parent: line.parent,
            depth: line.level as u32 + 1,
            name: self.model.name(line.var),
            var: line.var,
            value: line.value,
            status,
            restart: line.restart,
        });
    }

    /// Writes the node held back, as `status`.
    fn settle(&mut self, status: NodeStatus) {
        if let Some(line) = self.held.take() {
            self.emit(line, status);
        }
    }

    /// A node `var = value` at `level` of run `restart`; `ok`: its inference held.
    fn node(&mut self, level: usize, var: VarId, value: i32, restart: u32, ok: bool) {
        // The node held back is this one's parent: a branch.
        self.settle(NodeStatus::Branch);
        let id = self.trace.next_id();
        self.path.truncate(level);
        let parent = level.checked_sub(1).and_then(|l| self.path.get(l).copied());
        self.path.push(id);
        let line = Line {
            id,
            parent,
            level,
            var,
            value: Some(value),
            restart,
        };
        if ok {
            self.held = Some(line);
        } else {
            self.emit(line, NodeStatus::Failure);
        }
    }

    /// A level backjumping went over: a line of its own, not a node.
    fn skipped(&mut self, level: usize, var: VarId, restart: u32) {
        let line = Line {
            id: self.trace.next_id(),
            parent: level.checked_sub(1).and_then(|l| self.path.get(l).copied()),
            level,
            var,
            value: None,
            restart,
        };
        self.emit(line, NodeStatus::Skipped);
    }
}

impl Drop for TraceRecorder<'_> {
    /// A search stopped by a limit (or dropped after a solution) leaves its last node open.
    fn drop(&mut self) {
        self.settle(NodeStatus::Branch);
    }
}

impl Solver<'_> {
    /// After the node `var = value` at `level` (`ok`: its inference held).
    #[inline]
    pub(super) fn trace_node(&mut self, var: VarId, value: i32, level: usize, ok: bool) {
        if let Some(recorder) = &mut self.tracer {
            recorder.node(level, var, value, self.runs.run(), ok);
        }
    }

    /// A complete assignment: the node that made it is a solution if it `holds`.
    #[inline]
    pub(super) fn trace_complete_assignment(&mut self, holds: bool) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(if holds {
                NodeStatus::Solution
            } else {
                NodeStatus::Failure
            });
        }
    }

    /// The top frame ran out of values: a node held back (the one above it) had no child.
    #[inline]
    pub(super) fn trace_dead_end(&mut self) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(NodeStatus::Failure);
        }
    }

    /// A restart abandons the path: a node held back was open.
    #[inline]
    pub(super) fn trace_restart(&mut self) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(NodeStatus::Branch);
        }
    }

    /// Backjumping goes over the levels `lowest..level`, deepest first.
    pub(super) fn trace_skipped_levels(&mut self, lowest: usize, level: usize) {
        let restart = self.runs.run();
        if let Some(recorder) = &mut self.tracer {
            for jumped in (lowest..level).rev() {
                recorder.skipped(jumped, self.state.frames[jumped].var, restart);
            }
        }
    }
}
