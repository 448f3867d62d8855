//! Sets of integers as sorted, disjoint, non-adjacent ranges: set literals, `var {..}`
//! domains and the domains the reader works out before the model is built.

/// A finite set of integers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IntSet {
    /// Sorted, disjoint and non-adjacent inclusive ranges.
    ranges: Vec<(i64, i64)>,
}

impl IntSet {
    /// The set of the inclusive ranges, in any order, overlapping or not (empty ranges,
    /// `lo > hi`, are dropped).
    pub fn from_ranges(ranges: impl IntoIterator<Item = (i64, i64)>) -> IntSet {
        let mut rs: Vec<(i64, i64)> = ranges.into_iter().filter(|(lo, hi)| lo <= hi).collect();
        rs.sort_unstable();
        let mut out: Vec<(i64, i64)> = Vec::with_capacity(rs.len());
        for (lo, hi) in rs {
            match out.last_mut() {
                Some(last) if i128::from(lo) <= i128::from(last.1) + 1 => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        IntSet { ranges: out }
    }

    /// The set of these values.
    pub fn from_values(values: impl IntoIterator<Item = i64>) -> IntSet {
        IntSet::from_ranges(values.into_iter().map(|v| (v, v)))
    }

    /// `lo..=hi` (empty when `lo > hi`).
    pub fn range(lo: i64, hi: i64) -> IntSet {
        IntSet::from_ranges([(lo, hi)])
    }

    /// The ranges, sorted, disjoint and non-adjacent.
    pub fn ranges(&self) -> &[(i64, i64)] {
        &self.ranges
    }

    /// Whether the set has no value.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The number of values.
    pub fn len(&self) -> u128 {
        self.ranges
            .iter()
            .map(|&(lo, hi)| (i128::from(hi) - i128::from(lo) + 1) as u128)
            .sum()
    }

    /// The smallest value.
    pub fn min(&self) -> Option<i64> {
        self.ranges.first().map(|r| r.0)
    }

    /// The largest value.
    pub fn max(&self) -> Option<i64> {
        self.ranges.last().map(|r| r.1)
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: i64) -> bool {
        let i = self.ranges.partition_point(|r| r.1 < v);
        self.ranges.get(i).is_some_and(|r| r.0 <= v)
    }

    /// The values in increasing order.
    pub fn values(&self) -> impl Iterator<Item = i64> + '_ {
        self.ranges.iter().flat_map(|&(lo, hi)| lo..=hi)
    }

    /// The values common to both sets.
    pub fn intersect(&self, other: &IntSet) -> IntSet {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a, b) = (self.ranges[i], other.ranges[j]);
            let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
            if lo <= hi {
                out.push((lo, hi));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        IntSet { ranges: out }
    }
}

impl std::fmt::Display for IntSet {
    /// As FlatZinc writes it: `lo..hi` for one range, `{a, b, ...}` otherwise.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let [(lo, hi)] = self.ranges[..] {
            return write!(f, "{lo}..{hi}");
        }
        f.write_str("{")?;
        for (i, v) in self.values().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{v}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_intersects() {
        let s = IntSet::from_ranges([(5, 7), (1, 2), (3, 3), (10, 9)]);
        assert_eq!(s.ranges(), &[(1, 3), (5, 7)]);
        assert_eq!(s.len(), 6);
        assert!(s.contains(6) && !s.contains(4));
        let t = s.intersect(&IntSet::range(3, 5));
        assert_eq!(t.values().collect::<Vec<_>>(), vec![3, 5]);
        assert_eq!(t.to_string(), "{3, 5}");
        assert_eq!(IntSet::from_values([i64::MAX, i64::MIN]).len(), 2);
    }
}
