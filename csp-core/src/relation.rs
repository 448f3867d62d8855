//! Binary relations: the built-in ones with fast paths and user predicates.

use std::fmt;
use std::sync::Arc;

/// A user predicate on a pair of values `(x, y)`.
pub type PairPredicate = Arc<dyn Fn(i32, i32) -> bool + Send + Sync>;

/// A relation between the values of two variables `x` and `y`, posted with
/// [`crate::Model::post`]. Several relations on the same pair form a conjunction.
///
/// The built-in relations are revised by fast paths on the bitset domains; a
/// [`Relation::Predicate`] is revised by testing pairs of values.
#[derive(Clone)]
pub enum Relation {
    /// `x != y`.
    NotEqual,
    /// `x == y`.
    Equal,
    /// `x < y`.
    Less,
    /// `x <= y`.
    LessEq,
    /// `x != y + c`.
    NotEqualOffset(i32),
    /// `x == y + c`.
    EqualOffset(i32),
    /// `|x - y| != c`.
    AbsDiffNotEqual(i32),
    /// Only these `(x, y)` pairs are allowed.
    Table(Arc<[(i32, i32)]>),
    /// An arbitrary predicate `f(x, y)`.
    Predicate(PairPredicate),
}

impl Relation {
    /// A table constraint from a list of allowed `(x, y)` pairs.
    pub fn table(pairs: impl IntoIterator<Item = (i32, i32)>) -> Relation {
        Relation::Table(pairs.into_iter().collect())
    }

    /// A predicate constraint.
    pub fn predicate(f: impl Fn(i32, i32) -> bool + Send + Sync + 'static) -> Relation {
        Relation::Predicate(Arc::new(f))
    }

    /// Whether `x = a, y = b` satisfies the relation.
    pub fn holds(&self, a: i32, b: i32) -> bool {
        let (a, b) = (i64::from(a), i64::from(b));
        match self {
            Relation::NotEqual => a != b,
            Relation::Equal => a == b,
            Relation::Less => a < b,
            Relation::LessEq => a <= b,
            Relation::NotEqualOffset(c) => a != b + i64::from(*c),
            Relation::EqualOffset(c) => a == b + i64::from(*c),
            Relation::AbsDiffNotEqual(c) => (a - b).abs() != i64::from(*c),
            Relation::Table(pairs) => pairs.iter().any(|&(x, y)| i64::from(x) == a && i64::from(y) == b),
            Relation::Predicate(f) => f(a as i32, b as i32),
        }
    }

    /// The same relation seen from `y`'s side: `r.reversed().holds(b, a) == r.holds(a, b)`.
    pub(crate) fn oriented(&self, reversed: bool) -> Oriented {
        use Oriented as O;
        // Offsets are widened so that negating i32::MIN stays exact.
        let flip = |c: i32| if reversed { -i64::from(c) } else { i64::from(c) };
        match self {
            Relation::NotEqual => O::Exclude(0),
            Relation::NotEqualOffset(c) => O::Exclude(flip(*c)),
            Relation::AbsDiffNotEqual(c) => O::AbsExclude(i64::from(*c)),
            Relation::Equal => O::Equal(0),
            Relation::EqualOffset(c) => O::Equal(flip(*c)),
            // x < y  is  x <= y - 1;  seen from y: y >= x + 1.
            Relation::Less if reversed => O::GreaterEq(1),
            Relation::Less => O::LessEq(-1),
            Relation::LessEq if reversed => O::GreaterEq(0),
            Relation::LessEq => O::LessEq(0),
            Relation::Table(pairs) => {
                // Sorted, so that a table too wide for a support matrix is searched in
                // O(log pairs) per test (see `Oriented::holds`).
                let mut oriented: Vec<(i32, i32)> = if reversed {
                    pairs.iter().map(|&(a, b)| (b, a)).collect()
                } else {
                    pairs.to_vec()
                };
                oriented.sort_unstable();
                oriented.dedup();
                O::Table(oriented.into())
            }
            Relation::Predicate(f) => O::Predicate(f.clone(), reversed),
        }
    }
}

impl fmt::Debug for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Relation::NotEqual => write!(f, "x != y"),
            Relation::Equal => write!(f, "x == y"),
            Relation::Less => write!(f, "x < y"),
            Relation::LessEq => write!(f, "x <= y"),
            Relation::NotEqualOffset(c) => write!(f, "x != y + {c}"),
            Relation::EqualOffset(c) => write!(f, "x == y + {c}"),
            Relation::AbsDiffNotEqual(c) => write!(f, "|x - y| != {c}"),
            Relation::Table(pairs) => write!(f, "table({} pairs)", pairs.len()),
            Relation::Predicate(_) => write!(f, "predicate"),
        }
    }
}

/// A relation oriented for revising one variable (`a`, the revised side) against another (`b`).
#[derive(Clone)]
pub(crate) enum Oriented {
    /// `a != b + offset`.
    Exclude(i64),
    /// `|a - b| != c` (always true for `c < 0`).
    AbsExclude(i64),
    /// `a == b + c`.
    Equal(i64),
    /// `a <= b + c`.
    LessEq(i32),
    /// `a >= b + c`.
    GreaterEq(i32),
    /// Allowed `(a, b)` pairs, sorted and distinct.
    Table(Arc<[(i32, i32)]>),
    /// `f(a, b)`, or `f(b, a)` when reversed.
    Predicate(PairPredicate, bool),
}

impl Oriented {
    #[inline]
    pub(crate) fn holds(&self, a: i32, b: i32) -> bool {
        let (wa, wb) = (i64::from(a), i64::from(b));
        match self {
            Oriented::Exclude(o) => wa != wb + *o,
            Oriented::AbsExclude(c) => (wa - wb).abs() != *c,
            Oriented::Equal(c) => wa == wb + *c,
            Oriented::LessEq(c) => wa <= wb + i64::from(*c),
            Oriented::GreaterEq(c) => wa >= wb + i64::from(*c),
            Oriented::Table(pairs) => pairs.binary_search(&(a, b)).is_ok(),
            Oriented::Predicate(f, false) => f(a, b),
            Oriented::Predicate(f, true) => f(b, a),
        }
    }
}
