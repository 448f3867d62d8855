//! DIMACS graph colouring (`.col`): `c` comments, `p edge N M`, `e U V` with vertices
//! numbered from 1. With K colours, the CSP has one variable per vertex (`v1` .. `vN`,
//! domain `0..K-1`) and `!=` on every edge.

use std::path::Path;

use csp_core::{Domain, Model, VarId, check_model_memory, domain_words};

use crate::error::{Error, Position, Result};
use crate::limits::ReadLimits;

/// The most vertices a graph may have.
pub const MAX_VERTICES: usize = 10_000_000;

/// A graph read from a DIMACS file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// The number of vertices.
    pub vertices: usize,
    /// The edges, with vertices numbered from 0, each once (`u < v`), in file order.
    pub edges: Vec<(usize, usize)>,
}

fn syntax(line: usize, message: String) -> Error {
    Error::Syntax {
        position: Position {
            line: line as u32,
            column: 1,
        },
        message,
    }
}

/// Reads a graph from DIMACS text. Repeated edges (either direction) are kept once; a loop
/// (`e 3 3`) is an error, as no colouring exists.
pub fn parse(text: &str) -> Result<Graph> {
    let mut graph: Option<Graph> = None;
    let mut seen = std::collections::HashSet::new();
    // A byte-order mark is not part of the first line (editors on Windows write one).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(at) = line.find(|c: char| c == '\0' || (c.is_control() && !c.is_ascii_whitespace())) {
            let c = line[at..].chars().next().expect("found");
            return Err(Error::Syntax {
                position: Position {
                    line: n as u32,
                    column: line[..at].chars().count() as u32 + 1,
                },
                message: format!("a control character U+{:04X} (DIMACS files are text)", c as u32),
            });
        }
        let mut parts = line.split_whitespace();
        match parts.next() {
            None | Some("c") => {}
            Some("p") => {
                if graph.is_some() {
                    return Err(syntax(n, "a second `p` line".into()));
                }
                let kind = parts.next().unwrap_or("");
                if kind != "edge" && kind != "col" {
                    return Err(syntax(n, format!("expected `p edge N M`, found `{line}`")));
                }
                let vertices: usize = parts
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| syntax(n, format!("expected `p edge N M`, found `{line}`")))?;
                if vertices > MAX_VERTICES {
                    return Err(Error::ValueOutOfRange {
                        position: Position {
                            line: n as u32,
                            column: 1,
                        },
                        message: format!("{vertices} vertices (at most {MAX_VERTICES})"),
                    });
                }
                graph = Some(Graph {
                    vertices,
                    edges: Vec::new(),
                });
            }
            Some("e") => {
                let g = graph
                    .as_mut()
                    .ok_or_else(|| syntax(n, "an edge before the `p edge N M` line".into()))?;
                let mut vertex = || -> Result<usize> {
                    let s = parts
                        .next()
                        .ok_or_else(|| syntax(n, format!("expected `e U V`, found `{line}`")))?;
                    let v: usize = s
                        .parse()
                        .map_err(|_| syntax(n, format!("`{s}` is not a vertex number")))?;
                    if v == 0 || v > g.vertices {
                        return Err(Error::ValueOutOfRange {
                            position: Position {
                                line: n as u32,
                                column: 1,
                            },
                            message: format!("vertex {v} is not in 1..{}", g.vertices),
                        });
                    }
                    Ok(v - 1)
                };
                let (u, v) = (vertex()?, vertex()?);
                if let Some(extra) = parts.next() {
                    return Err(syntax(n, format!("`{extra}` after the edge `e U V`")));
                }
                if u == v {
                    return Err(syntax(
                        n,
                        format!("a loop on vertex {}: no colouring exists", u + 1),
                    ));
                }
                let key = (u.min(v), u.max(v));
                if seen.insert(key) {
                    g.edges.push(key);
                }
            }
            // Vertex weights: not part of colouring.
            Some("n") => {}
            Some(other) => {
                return Err(syntax(
                    n,
                    format!("unknown line type `{other}` (expected c, p, e or n)"),
                ));
            }
        }
    }
    graph.ok_or_else(|| syntax(text.lines().count().max(1), "no `p edge N M` line".into()))
}

impl Graph {
    /// The K-colouring CSP: variables `v1` .. `vN` over `0..K-1`, `!=` on every edge.
    /// Refused ([`Error::Memory`]) before anything is built when its variables and
    /// domains would take more memory than csp allows ([`csp_core::MAX_MODEL_MEMORY`]).
    pub fn colouring(&self, colours: u32) -> Result<Model> {
        let mut model = Model::new();
        let domain = Domain::range(0, colours as i32 - 1).map_err(|e| Error::ValueOutOfRange {
            position: Position::default(),
            message: format!("{colours} colours: {e}"),
        })?;
        let vertices = self.vertices as u64;
        let words = vertices.saturating_mul(domain_words(u64::from(colours)));
        check_model_memory(vertices, words).map_err(|source| Error::Memory {
            what: format!("{vertices} vertices with {colours} colours"),
            source,
        })?;
        model.reserve_vars(self.vertices, names_length(self.vertices));
        let vars: Vec<VarId> = (1..=self.vertices)
            .map(|i| model.add_named_var(format!("v{i}"), domain.clone()))
            .collect();
        for &(u, v) in &self.edges {
            model.not_equal(vars[u], vars[v]).map_err(|source| Error::Model {
                position: Position::default(),
                source,
            })?;
        }
        Ok(model)
    }

    /// The Mycielski graph M_k (M_2 is an edge; M_3, the 5-cycle's construction, has 11
    /// vertices; chromatic number k), as in the DIMACS files `myciel{k}.col` (`myciel3` =
    /// M_4 there, chromatic number 4).
    pub fn mycielski(k: u32) -> Graph {
        let mut g = Graph {
            vertices: 2,
            edges: vec![(0, 1)],
        };
        for _ in 2..k {
            let n = g.vertices;
            let mut edges = g.edges.clone();
            for &(u, v) in &g.edges {
                edges.push((u, n + v));
                edges.push((v, n + u));
            }
            for i in 0..n {
                edges.push((n + i, 2 * n));
            }
            g = Graph {
                vertices: 2 * n + 1,
                edges,
            };
        }
        g
    }

    /// DIMACS text for the graph.
    pub fn to_dimacs(&self) -> String {
        let mut s = format!("p edge {} {}\n", self.vertices, self.edges.len());
        for (u, v) in &self.edges {
            s.push_str(&format!("e {} {}\n", u + 1, v + 1));
        }
        s
    }
}

/// The bytes of the names `v1` .. `vN` together: one `v` each and the digits of 1..=N.
fn names_length(vertices: usize) -> usize {
    let digits: usize = (1..=vertices.max(1).ilog10() + 1)
        .map(|d| {
            let first = 10usize.pow(d - 1);
            vertices.min(first * 10 - 1).saturating_sub(first - 1) * d as usize
        })
        .sum();
    vertices + digits
}

/// Reads a DIMACS file and builds its K-colouring CSP.
pub fn read(path: impl AsRef<Path>, colours: u32) -> Result<Model> {
    read_with(path, colours, &ReadLimits::default())
}

/// [`read`] within limits (input size, deadline, cancel flag).
pub fn read_with(path: impl AsRef<Path>, colours: u32, limits: &ReadLimits) -> Result<Model> {
    let text = crate::source::read_plain_text(path.as_ref(), limits)?;
    let graph = parse(&text)?;
    limits.check()?;
    let model = graph.colouring(colours)?;
    limits.check()?;
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_length_counts_every_name() {
        let mut total = 0;
        for n in 0..=12_000 {
            assert_eq!(names_length(n), total, "{n} vertices");
            total += format!("v{}", n + 1).len();
        }
    }

    #[test]
    fn mycielski_sizes() {
        // DIMACS myciel3 = M_4: 11 vertices, 20 edges; myciel4: 23, 71; myciel5: 47, 236.
        for (k, n, m) in [(4, 11, 20), (5, 23, 71), (6, 47, 236)] {
            let g = Graph::mycielski(k);
            assert_eq!((g.vertices, g.edges.len()), (n, m));
            assert_eq!(parse(&g.to_dimacs()).unwrap(), g);
        }
    }

    #[test]
    fn colourings_past_the_memory_cap_are_refused_before_building() {
        // Ten million vertices: 25,000 colours take 391 words each (31 GB of domains).
        let graph = Graph {
            vertices: 10_000_000,
            edges: vec![(0, 1)],
        };
        let message = graph.colouring(25_000).unwrap_err().to_string();
        assert!(
            message.starts_with("10000000 vertices with 25000 colours: "),
            "{message}"
        );
        assert!(message.contains("2147483648 bytes"), "{message}");
        // Below the cap, the same graph is built.
        let small = Graph {
            vertices: 1_000,
            edges: vec![(0, 1)],
        };
        assert_eq!(small.colouring(25_000).unwrap().num_vars(), 1_000);
    }

    #[test]
    fn bad_lines() {
        assert!(parse("e 1 2\n").unwrap_err().to_string().starts_with("line 1"));
        assert!(
            parse("p edge 2 1\ne 1 3\n")
                .unwrap_err()
                .to_string()
                .contains("line 2")
        );
        assert!(parse("c only\n").is_err());
    }
}
