//! Models shared by the integration tests.

use csp_core::{Model, Relation};

/// n-queens, one variable per column, values = rows, `x != y` and `|x - y| != distance`
/// (the textbook binary model; csp-queens builds the same one, but csp-core's tests
/// cannot depend on it).
pub fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.int_vars(n, 0, n as i32 - 1).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            m.post(q[i], q[j], Relation::NotEqual).unwrap();
            m.post(q[i], q[j], Relation::AbsDiffNotEqual((j - i) as i32))
                .unwrap();
        }
    }
    m
}
