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
