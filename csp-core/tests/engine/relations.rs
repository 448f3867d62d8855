//! Binary relations of random models drawn as data (so that failing cases print readably),
//! with their own test, independent of the engine.

use csp_core::Relation;
use proptest::prelude::*;

/// A binary relation as data.
#[derive(Clone, Debug)]
pub enum Rel {
    NotEqual,
    Less,
    LessEq,
    EqualOffset(i32),
    AbsDiffNotEqual(i32),
    Table(Vec<(i32, i32)>),
}

impl Rel {
    /// The engine's relation.
    pub fn relation(&self) -> Relation {
        match *self {
            Rel::NotEqual => Relation::NotEqual,
            Rel::Less => Relation::Less,
            Rel::LessEq => Relation::LessEq,
            Rel::EqualOffset(c) => Relation::EqualOffset(c),
            Rel::AbsDiffNotEqual(c) => Relation::AbsDiffNotEqual(c),
            Rel::Table(ref pairs) => Relation::table(pairs.iter().copied()),
        }
    }

    /// Whether `(a, b)` satisfies the relation, computed here (not by the engine).
    #[allow(dead_code)]
    pub fn holds(&self, a: i32, b: i32) -> bool {
        match *self {
            Rel::NotEqual => a != b,
            Rel::Less => a < b,
            Rel::LessEq => a <= b,
            Rel::EqualOffset(c) => a == b + c,
            Rel::AbsDiffNotEqual(c) => (a - b).abs() != c,
            Rel::Table(ref pairs) => pairs.contains(&(a, b)),
        }
    }
}

/// Mostly `!=` and `<=`; tables over `values` with `tuples` pairs.
pub fn relation(
    values: std::ops::RangeInclusive<i32>,
    tuples: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Rel> {
    prop_oneof![
        3 => Just(Rel::NotEqual),
        1 => Just(Rel::Less),
        2 => Just(Rel::LessEq),
        1 => (-2i32..=2).prop_map(Rel::EqualOffset),
        2 => (1i32..=3).prop_map(Rel::AbsDiffNotEqual),
        1 => prop::collection::vec((values.clone(), values), tuples).prop_map(Rel::Table),
    ]
}
