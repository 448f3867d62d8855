//! Min-conflicts local search on models built with the engine's API.

use crate::common::queens;
use csp_core::{LocalOutcome, MinConflicts, Model, ModelConflicts, Relation, min_conflicts};

#[test]
fn adapter_solves_pairwise_queens_for_several_seeds() {
    let m = queens(8);
    for seed in 0..10 {
        let mut local = ModelConflicts::new(&m);
        let config = MinConflicts {
            seed,
            restart_after: Some(200),
            ..MinConflicts::default()
        };
        let run = min_conflicts(&mut local, &config);
        assert_eq!(run.outcome, LocalOutcome::Solved, "seed {seed}");
        assert!(m.is_solution(&local.solution()), "seed {seed}");
    }
}

#[test]
fn same_seed_same_run() {
    let m = queens(12);
    let run = |seed| {
        let mut local = ModelConflicts::new(&m);
        let r = min_conflicts(
            &mut local,
            &MinConflicts {
                seed,
                ..MinConflicts::default()
            },
        );
        (r.outcome, r.stats.steps, r.stats.restarts, local.solution())
    };
    assert_eq!(run(3), run(3));
}

#[test]
fn unsatisfiable_model_stops_at_the_step_limit() {
    let m = queens(3);
    let mut local = ModelConflicts::new(&m);
    let config = MinConflicts {
        max_steps: 500,
        restart_after: Some(50),
        ..MinConflicts::default()
    };
    let run = min_conflicts(&mut local, &config);
    assert_eq!(run.outcome, LocalOutcome::StepLimit);
    assert_eq!(run.stats.steps, 500);
    assert!(run.stats.restarts >= 9);
    assert!(run.stats.conflicts > 0);
}

#[test]
fn givens_and_nary_constraints_are_respected() {
    let mut m = Model::new();
    let v = m.int_vars(4, 1, 4).unwrap();
    m.all_different_nary(&v, csp_core::Strength::Value).unwrap();
    m.fix(v[2], 1).unwrap();
    m.post(v[0], v[1], Relation::Less).unwrap();
    let mut local = ModelConflicts::new(&m);
    let run = min_conflicts(&mut local, &MinConflicts::default());
    assert_eq!(run.outcome, LocalOutcome::Solved);
    let s = local.solution();
    assert!(m.is_solution(&s), "{s:?}");
    assert_eq!(s[2], 1);
}
