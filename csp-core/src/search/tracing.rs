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

/// Writes a search's nodes to its trace. It holds no borrow of the model (names are
/// looked up as lines are written), so that a solver stays free to drop at any point.
pub(super) struct TraceRecorder {
    trace: Trace,
    /// The id of the open node at each level of the current path.
    path: Vec<u64>,
    /// A node made and not written yet: it passed its inference, and what comes below it
    /// decides whether it is a branch or a dead end.
    held: Option<Line>,
}

impl TraceRecorder {
    pub(super) fn new(trace: Trace) -> TraceRecorder {
        TraceRecorder {
            trace,
            path: Vec::new(),
            held: None,
        }
    }

    fn emit(&self, model: &Model, line: Line, status: NodeStatus) {
        self.trace.emit(&TraceNode {
            id: line.id,
            parent: line.parent,
            depth: line.level as u32 + 1,
            name: model.name(line.var),
            var: line.var,
            value: line.value,
            status,
            restart: line.restart,
        });
    }

    /// Writes the node held back, as `status`.
    fn settle(&mut self, model: &Model, status: NodeStatus) {
        if let Some(line) = self.held.take() {
            self.emit(model, line, status);
        }
    }

    /// A node `var = value` at `level` of run `restart`; `ok`: its inference held.
    fn node(&mut self, model: &Model, level: usize, (var, value): (VarId, i32), restart: u32, ok: bool) {
        // The node held back is this one's parent: a branch.
        self.settle(model, NodeStatus::Branch);
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
            self.emit(model, line, NodeStatus::Failure);
        }
    }

    /// A level backjumping went over: a line of its own, not a node.
    fn skipped(&mut self, model: &Model, level: usize, var: VarId, restart: u32) {
        let line = Line {
            id: self.trace.next_id(),
            parent: level.checked_sub(1).and_then(|l| self.path.get(l).copied()),
            level,
            var,
            value: None,
            restart,
        };
        self.emit(model, line, NodeStatus::Skipped);
    }
}

impl Solver<'_> {
    /// After the node `var = value` at `level` (`ok`: its inference held).
    #[inline]
    pub(super) fn trace_node(&mut self, var: VarId, value: i32, level: usize, ok: bool) {
        if let Some(recorder) = &mut self.tracer {
            recorder.node(self.model, level, (var, value), self.runs.run(), ok);
        }
    }

    /// A complete assignment: the node that made it is a solution if it `holds`.
    #[inline]
    pub(super) fn trace_complete_assignment(&mut self, holds: bool) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(
                self.model,
                if holds {
                    NodeStatus::Solution
                } else {
                    NodeStatus::Failure
                },
            );
        }
    }

    /// The top frame ran out of values: a node held back (the one above it) had no child.
    #[inline]
    pub(super) fn trace_dead_end(&mut self) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(self.model, NodeStatus::Failure);
        }
    }

    /// A restart abandons the path, or a limit stops the search: a node held back is left
    /// open (if the search goes on after a limit, the line stays as written).
    #[inline]
    pub(super) fn trace_left_open(&mut self) {
        if let Some(recorder) = &mut self.tracer {
            recorder.settle(self.model, NodeStatus::Branch);
        }
    }

    /// Backjumping goes over the levels `lowest..level`, deepest first.
    pub(super) fn trace_skipped_levels(&mut self, lowest: usize, level: usize) {
        let restart = self.runs.run();
        if let Some(recorder) = &mut self.tracer {
            for jumped in (lowest..level).rev() {
                recorder.skipped(self.model, jumped, self.state.frames[jumped].var, restart);
            }
        }
    }
}
