//! Nogoods recorded at restarts, after Lecoutre, Sais, Tabary and Vidal, "Recording and
//! minimizing nogoods from restarts" (JSAT 2007).
//!
//! When a run is cut off, every subtree it finished is turned into a nogood: the
//! decisions on the path to it plus the value it refuted. Later runs never enter those
//! subtrees again, so restarts lose no work, a search with restarts stays complete, and
//! solutions are counted exactly once (a finished subtree's solutions were counted).
//!
//! A nogood `{x1 = a1, ..., xk = ak}` forbids that conjunction. It is propagated with two
//! watched literals, as a SAT clause `x1 != a1 or ... or xk != ak`: a literal is *true*
//! when its variable is fixed to its value, *false* once the value is gone. Nothing here
//! is undone on backtracking: a watch only moves to a literal that is not true, and
//! backtracking makes literals "less true", so the watches stay valid.

use crate::store::Store;
use crate::var::VarId;

/// The most literals stored (128 MiB). Past it the solver stops restarting: the run in
/// progress goes on without a cutoff, which keeps the search complete.
pub(crate) const MAX_LITERALS: usize = 1 << 24;

/// A nogood is violated: all its literals hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Violated;

/// What adding a nogood at the root did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Added {
    /// Stored (two or more open literals), or already satisfied at the root (dropped).
    Kept,
    /// One open literal: its value was removed at the root.
    Pruned(VarId),
    /// Every literal holds at the root: no solution is left.
    Violated,
}

/// The recorded nogoods and their watches.
#[derive(Debug, Default)]
pub(crate) struct Nogoods {
    /// The literals of every nogood, one after another.
    lits: Vec<(VarId, i32)>,
    /// Each nogood's `(start, len)` in `lits`; its first two literals are watched.
    spans: Vec<(u32, u32)>,
    /// For each variable, the nogoods with a watched literal on it (empty until the first
    /// nogood is stored).
    watches: Vec<Vec<u32>>,
}

impl Nogoods {
    /// Whether a nogood watches `var` (the engine then calls [`Nogoods::on_fixed`]).
    #[inline]
    pub(crate) fn watching(&self, var: VarId) -> bool {
        self.watches.get(var.index()).is_some_and(|w| !w.is_empty())
    }

    /// Whether the store has room for more nogoods: at most [`MAX_LITERALS`] literals.
    pub(crate) fn has_room(&self) -> bool {
        self.lits.len() < MAX_LITERALS
    }

    /// Adds the nogood `lits` at the root state of `store`, over `num_vars` variables.
    /// Literals that hold at the root are left out; one that fails there satisfies it.
    pub(crate) fn add(&mut self, lits: &[(VarId, i32)], store: &mut Store, num_vars: usize) -> Added {
        if lits.iter().any(|&(var, value)| !store.contains(var, value)) {
            return Added::Kept;
        }
        let start = self.lits.len();
        self.lits.extend(
            lits.iter()
                .copied()
                .filter(|&(var, value)| !holds(store, var, value)),
        );
        let len = self.lits.len() - start;
        match len {
            0 => Added::Violated,
            1 => {
                let (var, value) = self.lits.pop().expect("one literal");
                store.remove(var, value);
                if store.size(var) == 0 {
                    Added::Violated
                } else {
                    Added::Pruned(var)
                }
            }
            _ => {
                if self.watches.is_empty() {
                    self.watches = vec![Vec::new(); num_vars];
                }
                let id = self.spans.len() as u32;
                self.spans.push((start as u32, len as u32));
                for &(var, _) in &self.lits[start..start + 2] {
                    self.watches[var.index()].push(id);
                }
                Added::Kept
            }
        }
    }

    /// `var` was just fixed: visits the nogoods watching it. A nogood with one open literal
    /// left loses that literal's value; each variable that lost one is pushed onto
    /// `pruned`. `Err` if a nogood is violated or a domain becomes empty.
    pub(crate) fn on_fixed(
        &mut self,
        var: VarId,
        store: &mut Store,
        pruned: &mut Vec<VarId>,
    ) -> Result<(), Violated> {
        let Some(value) = store.min(var).filter(|_| store.size(var) == 1) else {
            return Ok(());
        };
        // Taken out while other variables' lists grow (no allocation: the list returns).
        let mut list = std::mem::take(&mut self.watches[var.index()]);
        let mut result = Ok(());
        let mut i = 0;
        while i < list.len() {
            let id = list[i];
            let (start, len) = self.spans[id as usize];
            let lits = &mut self.lits[start as usize..(start + len) as usize];
            if lits[0].0 != var {
                lits.swap(0, 1);
            }
            if lits[0].1 != value {
                // That literal is false: the nogood cannot be violated.
                i += 1;
                continue;
            }
            if let Some(k) = (2..lits.len()).find(|&k| !holds(store, lits[k].0, lits[k].1)) {
                lits.swap(0, k);
                self.watches[lits[0].0.index()].push(id);
                list.swap_remove(i);
                continue;
            }
            let (other, other_value) = lits[1];
            if holds(store, other, other_value) {
                result = Err(Violated);
                break;
            }
            if store.remove(other, other_value) {
                pruned.push(other);
                if store.size(other) == 0 {
                    result = Err(Violated);
                    break;
                }
            }
            i += 1;
        }
        self.watches[var.index()] = list;
        result
    }
}

/// Whether the literal `var = value` holds: `var` is fixed to `value`.
#[inline]
fn holds(store: &Store, var: VarId, value: i32) -> bool {
    store.size(var) == 1 && store.contains(var, value)
}
