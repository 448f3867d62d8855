//! Conflict sets as bitsets of levels: one row of bits per decision level, in one flat
//! vector that grows to the deepest level reached and is then reused (no allocation per
//! node). Bit `h` of row `i` says that some value of level `i` was ruled out by the
//! assignment made at level `h < i`.

/// The conflict set of each level, and whether it holds every level above it.
pub(super) struct ConflictSets {
    /// Words per row: one bit per level a search can reach (one per variable).
    words: usize,
    bits: Vec<u64>,
    /// Row `i` holds every level below `i`: backtracking from `i` is chronological. Set by
    /// a solution below it, by a failure whose reasons are not recorded, and under BJ by
    /// any value of the level that passed its test.
    every: Vec<bool>,
}

impl ConflictSets {
    /// Rows of `levels` bits.
    pub(super) fn new(levels: usize) -> ConflictSets {
        ConflictSets {
            words: levels.div_ceil(64).max(1),
            bits: Vec::new(),
            every: Vec::new(),
        }
    }

    /// Makes room for `level` (rows grow with the deepest level reached, and are cleared
    /// when their level is left: a new row is empty).
    #[inline]
    pub(super) fn reach(&mut self, level: usize) {
        if self.every.len() <= level {
            self.bits.resize((level + 1) * self.words, 0);
            self.every.resize(level + 1, false);
        }
    }

    #[inline]
    fn row(&self, level: usize) -> &[u64] {
        &self.bits[level * self.words..(level + 1) * self.words]
    }

    #[inline]
    fn row_mut(&mut self, level: usize) -> &mut [u64] {
        &mut self.bits[level * self.words..(level + 1) * self.words]
    }

    /// Adds `culprit` (a level below `level`) to `level`'s set.
    #[inline]
    pub(super) fn add(&mut self, level: usize, culprit: usize) {
        debug_assert!(culprit < level, "a culprit lies above its level");
        self.row_mut(level)[culprit / 64] |= 1 << (culprit % 64);
    }

    /// Adds every level from 0 to `through` (below `level`) to `level`'s set.
    pub(super) fn add_through(&mut self, level: usize, through: usize) {
        debug_assert!(through < level, "culprits lie above their level");
        let row = self.row_mut(level);
        let full = (through + 1) / 64;
        row[..full].fill(!0);
        let rest = (through + 1) % 64;
        if rest > 0 {
            row[full] |= (1u64 << rest) - 1;
        }
    }

    /// `level`'s set now holds every level above it.
    #[inline]
    pub(super) fn add_every(&mut self, level: usize) {
        self.every[level] = true;
    }

    /// Where backtracking from `level` goes: the level just above if the set holds every
    /// level, else the deepest level in the set; `None`: back to the root, past every level.
    pub(super) fn target(&self, level: usize) -> Option<usize> {
        if self.every[level] {
            return level.checked_sub(1);
        }
        let row = self.row(level);
        row.iter()
            .enumerate()
            .rev()
            .find(|&(_, &w)| w != 0)
            .map(|(k, &w)| k * 64 + 63 - w.leading_zeros() as usize)
    }

    /// CBJ: `to`, where backtracking from `from` goes, inherits the rest of `from`'s set
    /// (every level of it lies at or above `to`).
    pub(super) fn pass_on(&mut self, from: usize, to: usize) {
        debug_assert!(to < from);
        if self.every[from] {
            self.every[to] = true;
            return;
        }
        let words = self.words;
        let (head, tail) = self.bits.split_at_mut(from * words);
        let into = &mut head[to * words..(to + 1) * words];
        for (a, b) in into.iter_mut().zip(&tail[..words]) {
            *a |= b;
        }
        into[to / 64] &= !(1 << (to % 64));
    }

    /// Empties `level`'s set, for the next frame at that level.
    #[inline]
    pub(super) fn clear(&mut self, level: usize) {
        self.row_mut(level).fill(0);
        self.every[level] = false;
    }
}

#[cfg(test)]
mod tests {
    use super::ConflictSets;

    #[test]
    fn targets_follow_the_deepest_culprit_and_inherit_the_rest() {
        let mut sets = ConflictSets::new(200);
        sets.reach(150);
        assert_eq!(sets.target(150), None, "an empty set goes back to the root");
        sets.add(150, 3);
        sets.add(150, 130);
        assert_eq!(sets.target(150), Some(130));
        sets.pass_on(150, 130);
        assert_eq!(sets.target(130), Some(3), "130 inherits 3 but not itself");
        sets.add_through(100, 70);
        assert_eq!(sets.target(100), Some(70));
        sets.clear(100);
        sets.add_through(100, 63);
        assert_eq!(sets.target(100), Some(63));
        sets.add_every(120);
        assert_eq!(sets.target(120), Some(119));
        sets.pass_on(120, 119);
        assert_eq!(sets.target(119), Some(118), "every level passes on");
        sets.clear(119);
        assert_eq!(sets.target(119), None);
    }
}
