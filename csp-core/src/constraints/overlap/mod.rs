//! Reasoning between two overlapping permutation constraints.
//!
//! Two all-different constraints `A` and `B` share the variables `S`. When `A` is a
//! permutation (its variables have exactly as many values between them as there are
//! variables, so every value must be used), a value that `A` can place only inside `S`
//! will be taken inside `S`, so no variable of `B` outside `S` can take it. The same
//! holds the other way round. In Sudoku this is "pointing" and "box-line reduction"
//! (locked candidates); the propagator itself knows nothing about Sudoku.

use crate::var::VarId;

mod many;
mod pair;

pub use many::PermutationOverlaps;
pub use pair::PermutationOverlap;

/// A set of variables as a sorted list: built and searched without the allocations of
/// a tree, for the scopes (a few dozen variables) the constructors compare.
struct SortedVars(Vec<VarId>);

impl SortedVars {
    fn of(vars: &[VarId]) -> SortedVars {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        SortedVars(sorted)
    }

    fn contains(&self, var: &VarId) -> bool {
        self.0.binary_search(var).is_ok()
    }
}
/// Whether the values are pairwise distinct: one bit mask when they lie within 64 of each
/// other (every Sudoku up to 64x64), a sort otherwise. Checked on every solution, so it
/// allocates nothing in the common case.
fn all_distinct(values: impl Iterator<Item = i32> + Clone) -> bool {
    let (low, high) = values
        .clone()
        .fold((i32::MAX, i32::MIN), |(low, high), v| (low.min(v), high.max(v)));
    if low > high {
        return true;
    }
    if i64::from(high) - i64::from(low) < 64 {
        let mut seen = 0u64;
        for v in values {
            let bit = 1u64 << (v - low);
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        return true;
    }
    let mut sorted: Vec<i32> = values.collect();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use super::all_distinct;

    #[test]
    fn all_distinct_by_mask_and_by_sort() {
        let cases: [(&[i32], bool); 8] = [
            (&[], true),
            (&[7], true),
            (&[1, 2, 3, 9], true),
            (&[1, 2, 3, 2], false),
            (&[-5, 58, 0], true),          // a span of 63: the mask
            (&[-5, 59, 0, 59], false),     // a span of 64: the sort
            (&[i32::MIN, i32::MAX], true), // no overflow in the span
            (&[i32::MAX, 0, i32::MAX], false),
        ];
        for (values, expected) in cases {
            assert_eq!(all_distinct(values.iter().copied()), expected, "{values:?}");
        }
    }
}
