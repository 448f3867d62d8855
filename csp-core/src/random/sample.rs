//! Drawing distinct items and decoding them: the sampling shared by the generators.

use std::collections::BTreeSet;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// `count` distinct numbers from `0..total`, in increasing order, uniformly among all such
/// sets (Floyd's algorithm: `count` draws, whatever `total` is). `count <= total`.
pub(super) fn distinct(rng: &mut ChaCha8Rng, total: u64, count: u64) -> Vec<u64> {
    debug_assert!(count <= total);
    let mut chosen = BTreeSet::new();
    for j in total - count..total {
        let t = rng.random_range(0..=j);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen.into_iter().collect()
}

/// The tuple of `arity` values from `0..d` numbered `index` (base-`d` digits, the first
/// value most significant), so that increasing numbers give tuples in increasing order.
pub(super) fn tuple(index: u64, arity: usize, d: u64) -> Vec<i32> {
    let mut values = vec![0; arity];
    let mut rest = index;
    for slot in values.iter_mut().rev() {
        *slot = (rest % d) as i32;
        rest /= d;
    }
    values
}

/// The number of a tuple: the inverse of [`tuple`].
pub(super) fn tuple_index(values: &[i32], d: u64) -> u64 {
    values.iter().fold(0, |acc, &v| acc * d + v as u64)
}

/// `count` distinct tuples of `arity` values from `0..d`, in increasing order, leaving out
/// the tuple numbered `avoid` if any.
pub(super) fn tuples(
    rng: &mut ChaCha8Rng,
    arity: usize,
    d: u64,
    count: u64,
    avoid: Option<u64>,
) -> Vec<Vec<i32>> {
    let all = d.pow(arity as u32);
    let total = all - u64::from(avoid.is_some());
    distinct(rng, total, count)
        .into_iter()
        .map(|i| match avoid {
            Some(a) if i >= a => i + 1,
            _ => i,
        })
        .map(|i| tuple(i, arity, d))
        .collect()
}

/// The pairs `(i, j)`, `i < j < n`, numbered in lexicographic order, for increasing
/// numbers (one pass over the rows).
pub(super) fn pairs(n: usize, sorted: &[u64]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(sorted.len());
    // `first` numbers the pair (row, row + 1).
    let (mut row, mut first) = (0usize, 0u64);
    for &k in sorted {
        while k >= first + (n - 1 - row) as u64 {
            first += (n - 1 - row) as u64;
            row += 1;
        }
        out.push((row, row + 1 + (k - first) as usize));
    }
    out
}

/// `k` distinct variables of `0..n`, in increasing order.
pub(super) fn scope(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<usize> {
    distinct(rng, n as u64, k as u64)
        .into_iter()
        .map(|i| i as usize)
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn pairs_are_numbered_in_order() {
        let n = 6;
        let all: Vec<u64> = (0..(n * (n - 1) / 2) as u64).collect();
        let mut expected = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                expected.push((i, j));
            }
        }
        assert_eq!(pairs(n, &all), expected);
    }

    #[test]
    fn draws_are_distinct_and_cover_the_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [0u32; 10];
        for _ in 0..2000 {
            let d = distinct(&mut rng, 10, 3);
            assert_eq!(d.len(), 3);
            assert!(d.windows(2).all(|w| w[0] < w[1]) && d[2] < 10);
            for x in d {
                seen[x as usize] += 1;
            }
        }
        // Each number is drawn about 600 times; a biased draw would leave some far off.
        assert!(seen.iter().all(|&s| (450..750).contains(&s)), "{seen:?}");
        assert_eq!(distinct(&mut rng, 5, 5), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn tuples_round_trip_and_avoid() {
        for i in 0..27 {
            assert_eq!(tuple_index(&tuple(i, 3, 3), 3), i);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let t = tuples(&mut rng, 2, 3, 8, Some(4));
        assert_eq!(t.len(), 8);
        assert!(!t.contains(&vec![1, 1]));
    }
}
