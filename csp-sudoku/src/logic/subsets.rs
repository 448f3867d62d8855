//! Enumerating small subsets (pairs, triples) for the subset techniques.

/// Calls `visit` on every `k`-subset of `0..n` in lexicographic order, as sorted indices,
/// until it returns `Some`. Allocation-free apart from the index buffer of size `k`.
pub(crate) fn first_subset<T>(n: usize, k: usize, mut visit: impl FnMut(&[usize]) -> Option<T>) -> Option<T> {
    if k == 0 || k > n {
        return None;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        if let Some(found) = visit(&idx) {
            return Some(found);
        }
        // Advance to the next combination.
        let mut i = k;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        for (n, k, expected) in [(5, 2, 10), (6, 3, 20), (3, 3, 1), (2, 3, 0), (4, 1, 4)] {
            let mut seen = Vec::new();
            let none: Option<()> = first_subset(n, k, |s| {
                assert!(s.windows(2).all(|w| w[0] < w[1]));
                seen.push(s.to_vec());
                None
            });
            assert!(none.is_none());
            assert_eq!(seen.len(), expected, "C({n},{k})");
        }
        assert_eq!(first_subset(5, 2, |s| (s == [1, 3]).then_some(7)), Some(7));
    }
}
