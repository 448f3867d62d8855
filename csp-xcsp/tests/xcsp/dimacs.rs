//! Graph colouring from DIMACS files: the Mycielski graphs at their chromatic number.

use std::path::Path;

use csp_core::{Outcome, SearchConfig, Solver};
use csp_xcsp::dimacs;

fn solve(name: &str, colours: u32) -> Outcome {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dimacs")
        .join(format!("{name}.col"));
    let model = dimacs::read(&path, colours).unwrap();
    let strategy = "dom-wdeg/asc/mac".parse().unwrap();
    let outcome = Solver::new(&model, SearchConfig::with_strategy(strategy))
        .unwrap()
        .solve();
    if let Outcome::Solved(values) = &outcome {
        assert!(model.is_solution(values));
        let graph = dimacs::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for &(u, v) in &graph.edges {
            assert_ne!(values[u], values[v]);
        }
        assert_eq!(model.name(model.var(0).unwrap()), "v1");
    }
    outcome
}

#[test]
fn mycielski_graphs_at_their_chromatic_number() {
    for (name, chi) in [("myciel3", 4), ("myciel4", 5), ("myciel5", 6)] {
        assert!(
            matches!(solve(name, chi), Outcome::Solved(_)),
            "{name} with {chi} colours"
        );
    }
}

#[test]
fn one_colour_fewer_is_impossible() {
    assert_eq!(solve("myciel3", 3), Outcome::Unsatisfiable);
    assert_eq!(solve("myciel4", 4), Outcome::Unsatisfiable);
}

#[test]
fn the_files_are_the_mycielski_construction() {
    for (name, k, n, m) in [
        ("myciel3", 4, 11, 20),
        ("myciel4", 5, 23, 71),
        ("myciel5", 6, 47, 236),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/dimacs")
            .join(format!("{name}.col"));
        let graph = dimacs::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!((graph.vertices, graph.edges.len()), (n, m));
        assert_eq!(graph, dimacs::Graph::mycielski(k));
    }
}

/// A small random graph: `n` vertices, each pair an edge with probability 1/`sparse`.
fn random_graph(seed: &mut u64, n: usize, sparse: u64) -> dimacs::Graph {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if next() % sparse == 0 {
                edges.push((u, v));
            }
        }
    }
    dimacs::Graph { vertices: n, edges }
}

/// Every proper colouring of `graph` with `k` colours, by brute force.
fn brute_colourings(graph: &dimacs::Graph, k: u32) -> Vec<Vec<i32>> {
    let n = graph.vertices;
    let mut found = Vec::new();
    for code in 0..u64::from(k).pow(n as u32) {
        let colours: Vec<i32> = (0..n)
            .map(|i| (code / u64::from(k).pow((n - 1 - i) as u32) % u64::from(k)) as i32)
            .collect();
        if graph.edges.iter().all(|&(u, v)| colours[u] != colours[v]) {
            found.push(colours);
        }
    }
    found
}

/// The colourings a [`dimacs::Colouring`] stands for: each solution of its model, with
/// every colouring of the isolated vertices; checked to name every vertex in order.
fn colourings_of(colouring: &dimacs::Colouring) -> Vec<Vec<i32>> {
    let per = colouring.colourings_per_solution().unwrap();
    let mut found = Vec::new();
    let mut solver = Solver::new(&colouring.model, SearchConfig::default()).unwrap();
    solver.for_each_solution(|values| {
        for index in 0..per {
            let mut colours = Vec::new();
            colouring.for_each_colour(values, index, |name, colour| {
                assert_eq!(name, format!("v{}", colours.len() + 1));
                colours.push(colour);
            });
            assert_eq!(colours.len(), colouring.vertices());
            found.push(colours);
        }
        true
    });
    found
}

#[test]
fn isolated_vertices_set_apart_keep_every_colouring() {
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for round in 0..60 {
        let n = 1 + round % 8;
        let k = 1 + (round as u32 / 8) % 3;
        let graph = random_graph(&mut seed, n, 2 + round as u64 % 4);
        let colouring = graph.colouring_of_linked(k).unwrap();
        let linked: std::collections::BTreeSet<usize> =
            graph.edges.iter().flat_map(|&(u, v)| [u, v]).collect();
        assert_eq!(colouring.model.num_vars(), linked.len(), "{graph:?}");
        assert_eq!(colouring.isolated(), n - linked.len());
        let mut ours = colourings_of(&colouring);
        ours.sort();
        assert_eq!(ours, brute_colourings(&graph, k), "{graph:?} with {k} colours");
    }
}

#[test]
fn isolated_vertices_across_many_blocks() {
    // 300 vertices (five blocks of bits), a few edges far apart: the model's variables are
    // the ends of the edges, in vertex order, and its solutions colour the graph properly.
    let edges = vec![(0, 299), (63, 64), (64, 128), (127, 200), (5, 64)];
    let graph = dimacs::Graph { vertices: 300, edges };
    let colouring = graph.colouring_of_linked(2).unwrap();
    let names: Vec<&str> = colouring.model.vars().map(|v| colouring.model.name(v)).collect();
    assert_eq!(names, ["v1", "v6", "v64", "v65", "v128", "v129", "v201", "v300"]);
    assert_eq!(colouring.colourings_per_solution(), None, "2^292 colourings each");
    let Outcome::Solved(values) = Solver::new(&colouring.model, SearchConfig::default())
        .unwrap()
        .solve()
    else {
        panic!("two colours suffice")
    };
    // The last isolated vertex takes the lowest digit of the index.
    let mut colours = Vec::new();
    colouring.for_each_colour(&values, 0b101, |_, c| colours.push(c));
    for &(u, v) in &graph.edges {
        assert_ne!(colours[u], colours[v]);
    }
    let isolated: Vec<usize> = (0..300)
        .filter(|&i| !graph.edges.iter().any(|&(u, v)| u == i || v == i))
        .collect();
    let digits: Vec<i32> = isolated.iter().rev().take(4).map(|&i| colours[i]).collect();
    assert_eq!(digits, [1, 0, 1, 0]);
    assert!(isolated.iter().rev().skip(3).all(|&i| colours[i] == 0));
}
