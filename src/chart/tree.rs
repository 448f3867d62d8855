//! A search tree as SVG: the root on top, each node below its parent, leaves left to right
//! in the order the search made them and each parent centred over its children (a tidy
//! drawing after Wetherell and Shannon). Nodes are coloured by status; small trees carry a
//! `var=value` label under each node, every node a tooltip, and each mark its id, parent
//! and status as attributes, so that a reader (or a test) can rebuild the tree from the
//! picture.

use std::fmt::Write;

use csp_core::{NodeStatus, TracedNode};

use super::plot::{self, escape};

/// Up to this many nodes, each carries its `var=value` label.
pub const LABELLED: usize = 160;

/// Vertical distance between depths, in pixels.
const LEVEL: f64 = 56.0;
/// Margins around the tree.
const MARGIN: f64 = 30.0;
/// Height of the title and legend.
const HEADER: f64 = 60.0;

/// The colour of a status (Okabe and Ito's palette, as every chart here).
pub fn status_colour(status: NodeStatus) -> &'static str {
    match status {
        NodeStatus::Branch => plot::colour(0),
        NodeStatus::Solution => plot::colour(2),
        NodeStatus::Failure => plot::colour(1),
        _ => "#999999",
    }
}

/// Where each node goes: `x` by leaf slots, `depth` from the root (0).
struct Layout {
    x: Vec<f64>,
    depth: Vec<usize>,
}

/// A tree of trace lines: index 0 is the root (the search's, which is no node), then the
/// lines in order; `children` by index.
pub struct Tree<'a> {
    lines: &'a [TracedNode],
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
}

impl<'a> Tree<'a> {
    /// The tree of `lines`, which the caller has checked: ids rise and each parent comes
    /// before its children. A parent that is not among the lines (a trace cut short at its
    /// start) hangs from the root.
    pub fn new(lines: &'a [TracedNode]) -> Tree<'a> {
        let mut index = std::collections::HashMap::with_capacity(lines.len());
        let mut parent = vec![0; lines.len() + 1];
        let mut children = vec![Vec::new(); lines.len() + 1];
        for (i, line) in lines.iter().enumerate() {
            let at = i + 1;
            index.insert(line.id, at);
            let p = line.parent.and_then(|p| index.get(&p).copied()).unwrap_or(0);
            parent[at] = p;
            children[p].push(at);
        }
        Tree {
            lines,
            parent,
            children,
        }
    }

    /// Leaves one slot each, left to right; a parent at the middle of its children.
    fn layout(&self) -> Layout {
        let n = self.children.len();
        let mut x = vec![0.0; n];
        let mut depth = vec![0; n];
        let mut next_leaf = 0.0;
        // Depth first without recursion (a trace may be thousands of levels deep): a
        // node's children are placed before it.
        let mut stack: Vec<(usize, bool)> = vec![(0, false)];
        while let Some((v, expanded)) = stack.pop() {
            let kids = &self.children[v];
            if kids.is_empty() {
                x[v] = next_leaf;
                next_leaf += 1.0;
            } else if expanded {
                x[v] = (x[kids[0]] + x[kids[kids.len() - 1]]) / 2.0;
            } else {
                stack.push((v, true));
                for &k in kids.iter().rev() {
                    depth[k] = depth[v] + 1;
                    stack.push((k, false));
                }
            }
        }
        Layout { x, depth }
    }

    /// The node's label: `var=value`, or `var` skipped.
    fn label(&self, at: usize) -> String {
        let line = &self.lines[at - 1];
        match line.value {
            Some(v) => format!("{}={v}", line.var),
            None => format!("{} skipped", line.var),
        }
    }

    /// The SVG drawing, titled `title`.
    pub fn svg(&self, title: &str) -> String {
        let layout = self.layout();
        let labelled = self.lines.len() <= LABELLED;
        let widest = if labelled {
            (1..self.children.len())
                .map(|i| self.label(i).len())
                .max()
                .unwrap_or(4)
        } else {
            0
        };
        // A slot fits a label (about 7 pixels a character), or a mark.
        let slot = if labelled {
            (widest as f64 * 7.0 + 16.0).max(28.0)
        } else {
            12.0
        };
        let leaves = layout.x.iter().copied().fold(0.0f64, f64::max) + 1.0;
        let deepest = layout.depth.iter().copied().max().unwrap_or(0) as f64;
        let width = (2.0 * MARGIN + leaves * slot).max(520.0);
        let height = HEADER + 2.0 * MARGIN + deepest * LEVEL + if labelled { 20.0 } else { 0.0 };
        // Centred when the canvas is wider than the tree.
        let left = (width - leaves * slot) / 2.0;
        let at = |v: usize| {
            (
                left + (layout.x[v] + 0.5) * slot,
                HEADER + MARGIN + layout.depth[v] as f64 * LEVEL,
            )
        };
        let mut svg = plot::start(width, height);
        plot::text(&mut svg, (10.0, 22.0), "start", 15, title);
        self.legend(&mut svg);
        let _ = writeln!(svg, r##"<g class="edges" stroke="#888888" stroke-width="1">"##);
        for v in 1..self.children.len() {
            let ((x1, y1), (x2, y2)) = (at(self.parent[v]), at(v));
            let dash = if self.lines[v - 1].status == NodeStatus::Skipped {
                r#" stroke-dasharray="3,3""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<line class="edge" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"{dash}/>"#
            );
        }
        svg.push_str("</g>\n");
        let (rx, ry) = at(0);
        let _ = writeln!(
            svg,
            r##"<circle class="root" cx="{rx:.1}" cy="{ry:.1}" r="4" fill="#000000"><title>root</title></circle>"##
        );
        for v in 1..self.children.len() {
            let line = &self.lines[v - 1];
            let (x, y) = at(v);
            let colour = status_colour(line.status);
            let parent = line.parent.map_or_else(|| "root".to_string(), |p| p.to_string());
            let tip = format!(
                "{} {}: {} (depth {})",
                line.status,
                line.id,
                self.label(v),
                line.depth
            );
            let _ = write!(
                svg,
                r#"<g class="node" data-id="{}" data-parent="{parent}" data-status="{}" data-label="{}">"#,
                line.id,
                line.status,
                escape(&self.label(v)),
            );
            if line.status == NodeStatus::Skipped {
                let _ = write!(
                    svg,
                    r#"<rect x="{:.1}" y="{:.1}" width="8" height="8" fill="white" stroke="{colour}"/>"#,
                    x - 4.0,
                    y - 4.0
                );
            } else {
                let _ = write!(svg, r#"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{colour}"/>"#);
            }
            let _ = write!(svg, "<title>{}</title>", escape(&tip));
            if labelled {
                let _ = write!(
                    svg,
                    r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="11">{}</text>"#,
                    y + 18.0,
                    escape(&self.label(v))
                );
            }
            svg.push_str("</g>\n");
        }
        plot::finish(svg)
    }

    /// The colours, each with its count.
    fn legend(&self, svg: &mut String) {
        let mut x = 10.0;
        for status in [
            NodeStatus::Branch,
            NodeStatus::Solution,
            NodeStatus::Failure,
            NodeStatus::Skipped,
        ] {
            let count = self.lines.iter().filter(|l| l.status == status).count();
            if count == 0 && status == NodeStatus::Skipped {
                continue;
            }
            let colour = status_colour(status);
            let _ = if status == NodeStatus::Skipped {
                writeln!(
                    svg,
                    r#"<rect x="{:.1}" y="40" width="8" height="8" fill="white" stroke="{colour}"/>"#,
                    x + 1.0
                )
            } else {
                writeln!(
                    svg,
                    r#"<circle cx="{:.1}" cy="44" r="5" fill="{colour}"/>"#,
                    x + 5.0
                )
            };
            let text = format!("{status} ({count})");
            plot::text(svg, (x + 14.0, 48.0), "start", 12, &text);
            x += 24.0 + text.len() as f64 * 7.0;
        }
    }

    /// The tree in Graphviz's DOT language: one node per line of the trace, an edge from
    /// each parent.
    pub fn dot(&self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph search {{");
        let _ = writeln!(out, "  label={};", quoted(title));
        let _ = writeln!(out, "  labelloc=t;");
        let _ = writeln!(
            out,
            "  node [shape=circle, style=filled, fontsize=10, width=0.25, fixedsize=false];"
        );
        let _ = writeln!(out, "  root [label=\"\", shape=point, width=0.1];");
        for v in 1..self.children.len() {
            let line = &self.lines[v - 1];
            let shape = if line.status == NodeStatus::Skipped {
                ", shape=box, style=dashed"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  n{} [label={}, fillcolor=\"{}\", tooltip={}{shape}];",
                line.id,
                quoted(&self.label(v)),
                status_colour(line.status),
                quoted(&format!("{} {}", line.status, line.id)),
            );
            let from = match self.parent[v] {
                0 => "root".to_string(),
                p => format!("n{}", self.lines[p - 1].id),
            };
            let _ = writeln!(out, "  {from} -> n{};", line.id);
        }
        let _ = writeln!(out, "}}");
        out
    }
}

/// `text` as a DOT string.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u64, parent: Option<u64>, depth: u32, value: i32, status: NodeStatus) -> TracedNode {
        TracedNode {
            id,
            parent,
            depth,
            var: format!("x{}", depth - 1),
            value: Some(value),
            status,
            restart: 0,
        }
    }

    #[test]
    fn parents_sit_over_their_children_and_leaves_keep_their_order() {
        use NodeStatus::*;
        let lines = [
            node(1, None, 1, 0, Branch),
            node(2, Some(1), 2, 0, Failure),
            node(3, Some(1), 2, 1, Failure),
            node(4, Some(1), 2, 2, Branch),
            node(5, Some(4), 3, 0, Solution),
            node(6, None, 1, 1, Failure),
        ];
        let tree = Tree::new(&lines);
        let layout = tree.layout();
        // Leaves 2, 3, 5, 6 take slots 0 to 3; 4 sits over 5; 1 between 2 and 4.
        assert_eq!(layout.x[2..=6], [0.0, 1.0, 2.0, 2.0, 3.0]);
        assert_eq!(layout.x[1], 1.0);
        assert_eq!(layout.x[0], 2.0, "the root between its first and last child");
        assert_eq!(layout.depth, [0, 1, 2, 2, 2, 3, 1]);
        let svg = tree.svg("t");
        assert_eq!(svg.matches(r#"<g class="node""#).count(), 6);
        assert_eq!(svg.matches(r#"<line class="edge""#).count(), 6);
        let dot = tree.dot("t");
        assert!(dot.contains("n4 -> n5;") && dot.contains("root -> n6;"));
    }
}
