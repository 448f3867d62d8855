//! Search traces: one line per node of the node-count contract, for every strategy.

use csp_core::{Backjump, Limits, NodeStatus, Restarts, SearchConfig, Strategy, TieBreak};

use crate::traces::{node_paths, traced};

/// Every strategy: the textbook ones and the weighted orders, other value orders, random
/// ties, restarts, branching on places and backjumping.
fn every_strategy() -> Vec<SearchConfig> {
    let mut configs: Vec<SearchConfig> = Strategy::textbook()
        .into_iter()
        .chain(
            [
                "dom-wdeg/asc/mac",
                "dom-wdeg-fixed/desc/fc",
                "mrv/random/fc",
                "mrv-degree/lcv/none",
            ]
            .map(|s| s.parse().expect("a strategy")),
        )
        .map(SearchConfig::with_strategy)
        .collect();
    for name in ["mrv/random/fc", "dom-wdeg/asc/mac", "static/asc/none"] {
        configs.push(SearchConfig {
            restarts: Some(Restarts::Luby { scale: 4 }),
            tie_break: TieBreak::Random,
            ..SearchConfig::with_strategy(name.parse().expect("a strategy"))
        });
    }
    configs.push(SearchConfig {
        branching: csp_core::Branching::Places,
        ..SearchConfig::with_strategy("mrv/asc/mac".parse().expect("a strategy"))
    });
    for name in [
        "static/asc/none",
        "static/asc/fc",
        "mrv/lcv/fc",
        "dom-wdeg/asc/none",
    ] {
        for backjump in [Backjump::Bj, Backjump::Cbj] {
            configs.push(SearchConfig {
                backjump,
                ..SearchConfig::with_strategy(name.parse().expect("a strategy"))
            });
        }
    }
    configs
}

#[test]
fn a_trace_has_a_line_per_node_for_every_strategy_on_8_queens() {
    let model = crate::common::queens(8);
    for config in every_strategy() {
        for all in [false, true] {
            let run = traced(&model, &config, all);
            // `node_paths` checks the counts, the order and each status.
            let paths = node_paths(&run);
            let what = format!(
                "{} {:?} {:?} all={all}",
                config.strategy, config.restarts, config.backjump
            );
            assert!(paths.len() as u64 <= run.stats.nodes, "{what}");
            if all {
                assert_eq!(run.count, Some(92), "{what}");
            }
        }
    }
}

#[test]
fn the_textbook_trace_of_4_queens_is_aima_s_tree() {
    // static/asc/none on 4-queens, to the first solution: q0 = 0 fails twice below, then
    // q0 = 1 leads straight to the solution [1, 3, 0, 2].
    let run = traced(
        &crate::common::queens(4),
        &SearchConfig::with_strategy("static/asc/none".parse().expect("a strategy")),
        false,
    );
    let shape: Vec<(u64, Option<u64>, i32, &str)> = run
        .lines
        .iter()
        .map(|l| (l.id, l.parent, l.value.expect("a node"), l.status.name()))
        .collect();
    assert_eq!(
        shape,
        [
            (1, None, 0, "branch"),
            (2, Some(1), 2, "failure"),
            (3, Some(1), 3, "branch"),
            (4, Some(3), 1, "failure"),
            (5, None, 1, "branch"),
            (6, Some(5), 3, "branch"),
            (7, Some(6), 0, "branch"),
            (8, Some(7), 2, "solution"),
        ]
    );
    assert_eq!(run.stats.nodes, 8);
}

#[test]
fn a_search_stopped_by_a_limit_reports_its_open_node() {
    let model = crate::common::queens(8);
    for nodes in [1, 5, 40] {
        let config = SearchConfig {
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            ..SearchConfig::with_strategy("static/asc/fc".parse().expect("a strategy"))
        };
        let run = traced(&model, &config, false);
        assert_eq!(run.lines.len() as u64, nodes);
        // The last node is written when the solver is dropped: open (a branch) unless its
        // inference failed.
        let last = run.lines.last().expect("a node");
        assert!(
            matches!(last.status, NodeStatus::Branch | NodeStatus::Failure),
            "{last:?}"
        );
    }
}

#[test]
fn json_lines_read_back_as_the_nodes_written() {
    use std::sync::{Arc, Mutex};
    /// A writer whose bytes stay readable after the trace is done with it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut model = csp_core::Model::new();
    let d = csp_core::Domain::range(0, 2).expect("a range");
    let x = model.add_named_var("x \"quoted\" \\ \u{1}", d.clone());
    let y = model.add_named_var("y", d);
    model.not_equal(x, y).expect("a constraint");
    let bytes = Shared::default();
    let trace = csp_core::Trace::json_lines(bytes.clone());
    let config = SearchConfig {
        trace: Some(trace.clone()),
        ..SearchConfig::with_strategy("static/asc/fc".parse().expect("a strategy"))
    };
    let mut solver = csp_core::Solver::new(&model, config).expect("valid");
    assert_eq!(solver.count().solutions, 6);
    drop(solver);
    trace.finish().expect("written");
    let text = String::from_utf8(bytes.0.lock().unwrap().clone()).expect("UTF-8");
    let read: Vec<csp_core::TracedNode> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(read.len(), 9, "3 values of x, 2 of y below each");
    assert_eq!(read[0].var, "x \"quoted\" \\ \u{1}");
    assert_eq!(read[0].parent, None);
    assert_eq!(read[1].parent, Some(read[0].id));
    assert_eq!(trace.lines(), 9);
}
