//! Node counts that must match the textbook definitions exactly.

use csp_core::{Inference, Model, Outcome, SearchConfig, Solver, Strategy, ValueOrder, VarOrder};

use crate::common::queens;

fn solver<'m>(m: &'m Model, s: &str) -> Solver<'m> {
    Solver::new(m, SearchConfig::with_strategy(s.parse().unwrap())).unwrap()
}

#[test]
fn eight_queens_static_asc_none_first_solution_after_113_nodes() {
    let m = queens(8);
    let mut s = solver(&m, "static/asc/none");
    assert_eq!(s.solve(), Outcome::Solved(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(s.stats().nodes, 113);
    assert_eq!(s.stats().backtracks, 113 - 8);
}

#[test]
fn eight_queens_static_asc_none_enumerates_92_in_2056_nodes() {
    let m = queens(8);
    let mut s = solver(&m, "static/asc/none");
    let all: Vec<Vec<i32>> = s.solutions().collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|sol| m.is_solution(sol)));
    assert_eq!(s.stats().nodes, 2056);
    assert_eq!(s.stats().backtracks, 2056);
}

#[test]
fn eight_queens_static_asc_fc_first_solution_after_88_nodes() {
    let m = queens(8);
    let mut s = solver(&m, "static/asc/fc");
    assert_eq!(s.solve(), Outcome::Solved(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(s.stats().nodes, 88);
}

#[test]
fn every_strategy_finds_all_92_solutions_of_eight_queens() {
    let m = queens(8);
    let mut reference: Option<Vec<Vec<i32>>> = None;
    for strategy in Strategy::textbook() {
        let mut s = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
        let mut all: Vec<Vec<i32>> = s.solutions().collect();
        assert!(all.iter().all(|sol| m.is_solution(sol)), "{strategy}");
        all.sort();
        match &reference {
            None => reference = Some(all),
            Some(r) => assert_eq!(&all, r, "{strategy}"),
        }
    }
    assert_eq!(reference.unwrap().len(), 92);
}

#[test]
fn nary_all_different_model_matches_pairwise_node_counts_under_fc() {
    let n = 8;
    let pairwise = queens(n);
    for strength in csp_core::Strength::ALL {
        let mut m = Model::new();
        let q = m.int_vars(n, 0, n as i32 - 1).unwrap();
        let zero = vec![0; n];
        let up: Vec<i32> = (0..n as i32).collect();
        let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
        m.all_different_offsets(&q, &zero, strength).unwrap();
        m.all_different_offsets(&q, &up, strength).unwrap();
        m.all_different_offsets(&q, &down, strength).unwrap();
        for var in [VarOrder::Static, VarOrder::Mrv] {
            for inference in [Inference::None, Inference::Fc] {
                let strategy = Strategy::new(var, ValueOrder::Asc, inference);
                let mut a = Solver::new(&pairwise, SearchConfig::with_strategy(strategy)).unwrap();
                let mut b = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
                assert_eq!(a.count().solutions, 92);
                assert_eq!(b.count().solutions, 92, "{strength} {strategy}");
                if strength == csp_core::Strength::Value {
                    assert_eq!(a.stats().nodes, b.stats().nodes, "{strategy}");
                }
            }
        }
    }
}
