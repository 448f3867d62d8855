//! AIMA's tree-structured algorithm against brute force on random forests, and its
//! refusals: a cycle (named) and a constraint on three variables.

use csp_core::{Domain, Model, NotATree, Outcome, Relation, SearchConfig, Strength, TreeSolver};
use proptest::prelude::*;

/// An edge `(child, parent, kind, pairs)`: kind 0 a table of `pairs`, 1 `!=` with
/// offset, 2 a two-variable all-different, 3 both a table and an all-different.
type Edge = (usize, usize, u8, Vec<(i32, i32)>);

/// A random forest: each variable after the first may hang from an earlier one, through a
/// table, an offset relation or a two-variable all-different.
#[derive(Clone, Debug)]
struct Forest {
    domains: Vec<Vec<i32>>,
    givens: Vec<Option<usize>>,
    edges: Vec<Edge>,
}

fn forest() -> impl Strategy<Value = Forest> {
    (1usize..=7).prop_flat_map(|n| {
        let domains = prop::collection::vec(prop::collection::btree_set(-2i32..=3, 1..=4), n);
        let givens = prop::collection::vec(prop::option::weighted(0.1, 0usize..4), n);
        let edges = prop::collection::vec(
            (
                prop::option::weighted(0.8, any::<prop::sample::Index>()),
                0u8..4,
                prop::collection::vec((-2i32..=3, -2i32..=3), 0..=14),
            ),
            n,
        );
        (domains, givens, edges).prop_map(|(domains, givens, edges)| Forest {
            domains: domains.into_iter().map(|d| d.into_iter().collect()).collect(),
            givens,
            edges: edges
                .into_iter()
                .enumerate()
                .skip(1)
                .filter_map(|(child, (parent, kind, pairs))| {
                    parent.map(|p| (child, p.index(child), kind, pairs))
                })
                .collect(),
        })
    })
}

impl Forest {
    fn model(&self) -> Model {
        let mut m = Model::new();
        let vars: Vec<_> = self
            .domains
            .iter()
            .enumerate()
            .map(|(i, d)| m.add_named_var(format!("v{i}"), Domain::from_values(d.iter().copied()).unwrap()))
            .collect();
        for (i, g) in self.givens.iter().enumerate() {
            if let Some(k) = g {
                m.fix(vars[i], self.domains[i][k % self.domains[i].len()])
                    .unwrap();
            }
        }
        for (child, parent, kind, pairs) in &self.edges {
            let (x, y) = (vars[*child], vars[*parent]);
            match kind {
                0 => m.post(x, y, Relation::table(pairs.iter().copied())).unwrap(),
                1 => m
                    .post(x, y, Relation::NotEqualOffset(pairs.len() as i32 % 3 - 1))
                    .unwrap(),
                2 => m.all_different_nary(&[x, y], Strength::Value).unwrap(),
                _ => {
                    m.post(y, x, Relation::table(pairs.iter().copied())).unwrap();
                    m.all_different_nary(&[y, x], Strength::Gac).unwrap();
                }
            }
        }
        m
    }
}

/// Every solution of `model`, by enumeration of its domains.
fn brute_force(model: &Model) -> Vec<Vec<i32>> {
    let domains: Vec<Vec<i32>> = model
        .vars()
        .map(|v| match model.fixed(v) {
            Some(g) => vec![g],
            None => model.domain(v).values().collect(),
        })
        .collect();
    let mut out = Vec::new();
    let mut at = vec![0usize; domains.len()];
    loop {
        let values: Vec<i32> = at.iter().zip(&domains).map(|(&k, d)| d[k]).collect();
        if model.is_solution(&values) {
            out.push(values);
        }
        let mut i = 0;
        loop {
            if i == at.len() {
                return out;
            }
            at[i] += 1;
            if at[i] < domains[i].len() {
                break;
            }
            at[i] = 0;
            i += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_tree_algorithm_matches_brute_force_on_forests(forest in forest()) {
        let model = forest.model();
        let expected = brute_force(&model);
        let config = SearchConfig::default();
        let mut tree = TreeSolver::new(&model, &config).expect("a forest");
        match tree.solve() {
            Outcome::Solved(values) => {
                prop_assert!(expected.contains(&values), "{:?} is no solution", values);
                let free = model.vars().filter(|&v| model.fixed(v).is_none()).count() as u64;
                prop_assert_eq!(tree.stats().nodes, free, "a node per variable, givens aside");
                prop_assert_eq!(tree.stats().backtracks, 0);
            }
            Outcome::Unsatisfiable => {
                prop_assert!(expected.is_empty(), "{} solutions missed", expected.len());
                prop_assert_eq!(tree.stats().nodes, 0, "found in the first pass");
            }
            Outcome::Limit(kind) => prop_assert!(false, "a limit without limits: {}", kind),
        }
        let count = TreeSolver::new(&model, &config).expect("a forest").count();
        prop_assert_eq!(count, Ok(expected.len() as u64));
    }
}

#[test]
fn a_cycle_is_refused_and_named() {
    let mut m = Model::new();
    let v: Vec<_> = (0..5)
        .map(|i| m.add_named_var(format!("v{i}"), Domain::range(0, 2).unwrap()))
        .collect();
    for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
        m.not_equal(v[a], v[b]).unwrap();
    }
    assert!(TreeSolver::new(&m, &SearchConfig::default()).is_ok(), "a path");
    m.not_equal(v[3], v[1]).unwrap();
    match TreeSolver::new(&m, &SearchConfig::default()) {
        Err(NotATree::Cycle(names)) => {
            // The triangle v1, v2, v3, closed where it starts.
            assert_eq!(names.len(), 4);
            assert_eq!(names.first(), names.last());
            let mut three = names[..3].to_vec();
            three.sort();
            assert_eq!(three, ["v1", "v2", "v3"]);
            let message = NotATree::Cycle(names.clone()).to_string();
            assert_eq!(
                message,
                format!("the constraint graph has a cycle: {}", names.join(" - "))
            );
        }
        Err(e) => panic!("another reason: {e}"),
        Ok(_) => panic!("a cycle accepted"),
    }
}

#[test]
fn a_constraint_on_three_variables_is_refused() {
    let mut m = Model::new();
    let v = m.int_vars(3, 0, 2).unwrap();
    m.all_different_nary(&v, Strength::Value).unwrap();
    match TreeSolver::new(&m, &SearchConfig::default()) {
        Err(e @ NotATree::NAry { arity: 3, .. }) => {
            assert!(e.to_string().contains("binary constraints only"))
        }
        Err(e) => panic!("another reason: {e}"),
        Ok(_) => panic!("accepted"),
    }
}
