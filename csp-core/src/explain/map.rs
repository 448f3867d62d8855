//! MARCO's map: the subsets of groups not yet explored, as clauses over one boolean per group
//! (true: in the subset). A found MUS blocks its supersets ("one of these out"), a found
//! maximal satisfiable subset its subsets ("one of the others in").
//!
//! The models are found by a small DPLL that tries "in" first, so that seeds are large. It
//! is meant for the small models `--all` is for; the explanation's limits are checked at
//! every decision.

/// A clause: at least one of `groups` has the value `value`.
struct Clause {
    groups: Vec<usize>,
    value: bool,
}

/// The unexplored part of the power set of `0..n`.
pub(crate) struct Map {
    n: usize,
    clauses: Vec<Clause>,
}

/// Why no model was returned.
pub(crate) enum NoModel {
    /// Every subset is explored.
    Explored,
    /// `stop` said so.
    Stopped,
}

impl Map {
    pub(crate) fn new(n: usize) -> Self {
        Map {
            n,
            clauses: Vec::new(),
        }
    }

    /// Blocks `mus` and every superset of it.
    pub(crate) fn block_up(&mut self, mus: &[usize]) {
        self.clauses.push(Clause {
            groups: mus.to_vec(),
            value: false,
        });
    }

    /// Blocks `mss` and every subset of it.
    pub(crate) fn block_down(&mut self, mss: &[usize]) {
        let mut inside = vec![false; self.n];
        for &g in mss {
            inside[g] = true;
        }
        self.clauses.push(Clause {
            groups: (0..self.n).filter(|&g| !inside[g]).collect(),
            value: true,
        });
    }

    /// An unexplored subset, ascending.
    pub(crate) fn seed(&self, stop: &mut dyn FnMut() -> bool) -> Result<Vec<usize>, NoModel> {
        let mut values = vec![None; self.n];
        if !self.propagate(&mut values) {
            return Err(NoModel::Explored);
        }
        if self.search(&mut values, stop)? {
            Ok((0..self.n).filter(|&g| values[g] == Some(true)).collect())
        } else {
            Err(NoModel::Explored)
        }
    }

    /// Depth-first search over the unset groups, "in" first.
    fn search(
        &self,
        values: &mut Vec<Option<bool>>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<bool, NoModel> {
        if stop() {
            return Err(NoModel::Stopped);
        }
        let Some(g) = values.iter().position(Option::is_none) else {
            return Ok(true);
        };
        for value in [true, false] {
            let mut tried = values.clone();
            tried[g] = Some(value);
            if self.propagate(&mut tried) && self.search(&mut tried, stop)? {
                *values = tried;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Unit propagation to a fixpoint; false on a clause that cannot hold.
    fn propagate(&self, values: &mut [Option<bool>]) -> bool {
        loop {
            let mut changed = false;
            for c in &self.clauses {
                let mut open = None;
                let mut open_count = 0;
                let mut holds = false;
                for &g in &c.groups {
                    match values[g] {
                        Some(v) if v == c.value => {
                            holds = true;
                            break;
                        }
                        Some(_) => {}
                        None => {
                            open = Some(g);
                            open_count += 1;
                        }
                    }
                }
                if holds {
                    continue;
                }
                match (open_count, open) {
                    (0, _) => return false,
                    (1, Some(g)) => {
                        values[g] = Some(c.value);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return true;
            }
        }
    }
}
