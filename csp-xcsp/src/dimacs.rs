//! DIMACS graph colouring (`.col`): `c` comments, `p edge N M`, `e U V` with vertices
//! numbered from 1. With K colours, the CSP has one variable per vertex (`v1` .. `vN`,
//! domain `0..K-1`) and `!=` on every edge.

use std::path::Path;

use csp_core::{Domain, MAX_CONSTRAINED_PAIRS, Model, ModelSize, domain_words};

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
///
/// A graph of more than [`MAX_CONSTRAINED_PAIRS`] edges is refused at the line of the
/// first one too many: no colouring of it could be searched within csp's memory cap.
pub fn parse(text: &str) -> Result<Graph> {
    parse_with_at_most(text, MAX_CONSTRAINED_PAIRS)
}

/// [`parse`], refusing the graph past `max_edges` distinct edges.
fn parse_with_at_most(text: &str, max_edges: u64) -> Result<Graph> {
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
                    // No colouring of more edges could be built: the reading stops here,
                    // before its own tables outgrow the cap.
                    if g.edges.len() as u64 >= max_edges {
                        return Err(Error::ValueOutOfRange {
                            position: Position {
                                line: n as u32,
                                column: 1,
                            },
                            message: format!(
                                "more than {max_edges} edges: a colouring model of them would \
                                 take more than 2 GiB (about 600 bytes an edge)"
                            ),
                        });
                    }
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
    /// Refused ([`Error::Memory`]) before anything is built when its variables, domains
    /// and edges would take more memory than csp allows ([`csp_core::MAX_MODEL_MEMORY`]).
    pub fn colouring(&self, colours: u32) -> Result<Model> {
        self.colouring_over(&VertexSet::every(self.vertices), colours)
    }

    /// The K-colouring CSP with the isolated vertices (those without an edge) set apart:
    /// see [`Colouring`].
    pub fn colouring_of_linked(&self, colours: u32) -> Result<Colouring> {
        let mut linked = VertexSet::none(self.vertices);
        for &(u, v) in &self.edges {
            linked.insert(u);
            linked.insert(v);
        }
        linked.rank_blocks();
        let model = self.colouring_over(&linked, colours)?;
        Ok(Colouring {
            model,
            vertices: self.vertices,
            linked,
            colours,
        })
    }

    /// The colouring CSP over the vertices of `kept` (each edge's ends among them), in
    /// vertex order, each named `v` and its number in the file.
    fn colouring_over(&self, kept: &VertexSet, colours: u32) -> Result<Model> {
        let mut model = Model::new();
        let domain = Domain::range(0, colours as i32 - 1).map_err(|e| Error::ValueOutOfRange {
            position: Position::default(),
            message: format!("{colours} colours: {e}"),
        })?;
        let vertices = kept.len() as u64;
        let words = vertices.saturating_mul(domain_words(u64::from(colours)));
        let size = ModelSize {
            variables: vertices,
            words,
            constrained_pairs: self.edges.len() as u64,
            data_bytes: 0,
        };
        size.check().map_err(|source| Error::Memory {
            what: format!(
                "{vertices} vertices with {colours} colours and {} edge{}",
                self.edges.len(),
                if self.edges.len() == 1 { "" } else { "s" }
            ),
            source,
        })?;
        model.reserve_vars(kept.len(), kept.iter().map(name_length).sum());
        for i in kept.iter() {
            model.add_named_var(format!("v{}", i + 1), domain.clone());
        }
        for &(u, v) in &self.edges {
            let var = |vertex| model.var(kept.rank(vertex)).expect("an end of an edge is kept");
            let (x, y) = (var(u), var(v));
            model.not_equal(x, y).map_err(|source| Error::Model {
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

/// A set of vertices as bits, with the count of members before each block of 64 once
/// [`VertexSet::rank_blocks`] has run: a vertex's place among the members in constant time,
/// at about a bit and a half per vertex.
#[derive(Clone, Debug)]
struct VertexSet {
    bits: Vec<u64>,
    /// Members before each block (filled by `rank_blocks`).
    before: Vec<u32>,
    len: usize,
}

impl VertexSet {
    /// No vertex of `vertices`.
    fn none(vertices: usize) -> VertexSet {
        VertexSet {
            bits: vec![0; vertices.div_ceil(64)],
            before: Vec::new(),
            len: 0,
        }
    }

    /// Every vertex of `vertices`.
    fn every(vertices: usize) -> VertexSet {
        let mut set = VertexSet::none(vertices);
        set.bits.fill(!0);
        if !vertices.is_multiple_of(64) {
            if let Some(last) = set.bits.last_mut() {
                *last = (1 << (vertices % 64)) - 1;
            }
        }
        set.len = vertices;
        set.rank_blocks();
        set
    }

    fn insert(&mut self, vertex: usize) {
        let (block, bit) = (vertex / 64, 1u64 << (vertex % 64));
        if self.bits[block] & bit == 0 {
            self.bits[block] |= bit;
            self.len += 1;
        }
    }

    fn contains(&self, vertex: usize) -> bool {
        self.bits[vertex / 64] >> (vertex % 64) & 1 == 1
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Counts the members before each block (after the last insertion).
    fn rank_blocks(&mut self) {
        let mut count = 0u32;
        self.before = self
            .bits
            .iter()
            .map(|b| {
                let before = count;
                count += b.count_ones();
                before
            })
            .collect();
    }

    /// How many members come before `vertex`.
    fn rank(&self, vertex: usize) -> usize {
        let below = self.bits[vertex / 64] & ((1u64 << (vertex % 64)) - 1);
        self.before[vertex / 64] as usize + below.count_ones() as usize
    }

    /// The members, in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    }
}

/// A graph's K-colouring CSP with its isolated vertices set apart. A vertex without an
/// edge takes any of the K colours whatever the others take, so it is no variable of the
/// search: [`Colouring::model`] holds the vertices with an edge only, and each of its
/// solutions stands for K^i colourings of the graph (i isolated vertices). The search
/// neither stores nor branches on an isolated vertex; it costs a bit and a half.
#[derive(Clone, Debug)]
pub struct Colouring {
    /// The CSP over the vertices with an edge, in vertex order, each named `v` and its
    /// number in the file; `!=` on every edge.
    pub model: Model,
    vertices: usize,
    linked: VertexSet,
    colours: u32,
}

impl Colouring {
    /// The vertices of the graph, isolated ones included.
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// The vertices without an edge.
    pub fn isolated(&self) -> usize {
        self.vertices - self.linked.len()
    }

    /// The number of colours.
    pub fn colours(&self) -> u32 {
        self.colours
    }

    /// How many colourings of the graph each solution of [`Colouring::model`] stands for:
    /// K to the power of the isolated vertices, `None` past `u64::MAX`.
    pub fn colourings_per_solution(&self) -> Option<u64> {
        let isolated = u32::try_from(self.isolated()).ok()?;
        u64::from(self.colours).checked_pow(isolated)
    }

    /// Every vertex's name and colour, in vertex order, for `values` (a solution of
    /// [`Colouring::model`]) and the `index`-th colouring of the isolated vertices: its
    /// digits in base K, the last isolated vertex's the lowest (0 colours them all 0).
    /// `index` is below [`Colouring::colourings_per_solution`].
    pub fn for_each_colour(&self, values: &[i32], index: u64, mut f: impl FnMut(&str, i32)) {
        // Base K >= 2 has at most 64 digits in a u64; with one colour, index is 0.
        let mut digits = [0u32; 64];
        let (mut rest, base) = (index, u64::from(self.colours.max(2)));
        for d in &mut digits {
            *d = (rest % base) as u32;
            rest /= base;
        }
        let isolated = self.isolated();
        let (mut searched, mut apart) = (values.iter(), 0usize);
        let mut name = String::from("v");
        for vertex in 0..self.vertices {
            name.truncate(1);
            // Writing to a String cannot fail.
            let _ = std::fmt::Write::write_fmt(&mut name, format_args!("{}", vertex + 1));
            let colour = if self.linked.contains(vertex) {
                *searched.next().expect("a value per searched vertex")
            } else {
                let from_last = isolated - 1 - apart;
                apart += 1;
                digits.get(from_last).map_or(0, |&d| d as i32)
            };
            f(&name, colour);
        }
    }
}

/// The bytes of vertex `vertex`'s name (from 0): `v` and the digits of `vertex + 1`.
fn name_length(vertex: usize) -> usize {
    1 + (vertex + 1).ilog10() as usize + 1
}

/// Reads a DIMACS file and builds its K-colouring CSP.
pub fn read(path: impl AsRef<Path>, colours: u32) -> Result<Model> {
    read_with(path, colours, &ReadLimits::default())
}

/// [`read`] within limits (input size, deadline, cancel flag).
pub fn read_with(path: impl AsRef<Path>, colours: u32, limits: &ReadLimits) -> Result<Model> {
    let graph = read_graph(path.as_ref(), limits)?;
    let model = graph.colouring(colours)?;
    limits.check()?;
    Ok(model)
}

/// Reads a DIMACS file within limits and builds its K-colouring CSP with the isolated
/// vertices set apart ([`Colouring`]).
pub fn read_colouring_with(path: impl AsRef<Path>, colours: u32, limits: &ReadLimits) -> Result<Colouring> {
    let graph = read_graph(path.as_ref(), limits)?;
    let colouring = graph.colouring_of_linked(colours)?;
    limits.check()?;
    Ok(colouring)
}

/// Reads a DIMACS graph within limits (input size, deadline, cancel flag).
pub fn read_graph_with(path: impl AsRef<Path>, limits: &ReadLimits) -> Result<Graph> {
    read_graph(path.as_ref(), limits)
}

/// Reads a DIMACS graph within limits.
fn read_graph(path: &Path, limits: &ReadLimits) -> Result<Graph> {
    let text = crate::source::read_plain_text(path, limits)?;
    let graph = parse(&text)?;
    limits.check()?;
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_length_counts_every_name() {
        for vertex in (0..=12_000).chain([99_999, 9_999_999, usize::MAX - 1]) {
            assert_eq!(name_length(vertex), format!("v{}", vertex + 1).len(), "{vertex}");
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
            message.starts_with("10000000 vertices with 25000 colours and 1 edge: "),
            "{message}"
        );
        assert!(message.contains("2147483648 bytes"), "{message}");
        // Edges count too: 3,000,000 of them and 5,000,000 vertices are over the cap
        // (checked on the numbers; 2.4 GB by the estimate), 2,000,000 vertices not.
        let dense = |vertices| Graph {
            vertices,
            edges: vec![(0, 1); 3_000_000],
        };
        let message = dense(5_000_000).colouring(2).unwrap_err().to_string();
        assert!(
            message.contains("and 3000000 edges: ")
                && message.contains("would take about 2420000000 bytes")
                && message
                    .contains("3000000 pairs under binary constraints and constraint data of about 0 bytes"),
            "{message}"
        );
        let size = csp_core::ModelSize {
            variables: 2_000_000,
            words: 2_000_000,
            constrained_pairs: 3_000_000,
            data_bytes: 0,
        };
        assert!(size.check().is_ok());
        // Below the cap, the same graph is built.
        let small = Graph {
            vertices: 1_000,
            edges: vec![(0, 1)],
        };
        assert_eq!(small.colouring(25_000).unwrap().num_vars(), 1_000);
    }

    #[test]
    fn the_edge_past_the_cap_is_refused_at_its_line() {
        // Repeated edges are one edge: the fourth distinct one, on line 6, is one too many.
        let text = "p edge 5 9\ne 1 2\ne 2 1\ne 2 3\ne 3 4\ne 4 5\n";
        let message = parse_with_at_most(text, 3).unwrap_err().to_string();
        assert!(
            message.starts_with("line 6, column 1: ") && message.contains("more than 3 edges"),
            "{message}"
        );
        assert_eq!(parse_with_at_most(text, 4).unwrap().edges.len(), 4);
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
