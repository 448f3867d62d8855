//! What a propagator sees while it runs: the current domains, and the list of the
//! variables it changed (announced to the other constraints afterwards).

use std::ops::Range;

use crate::store::{DomainBits, Line, Store, Values};
use crate::var::VarId;

/// A propagator found that no value is left for some variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// What a propagator sees and may change: the current domains.
pub struct PropagationContext<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) changed: &'a mut ChangeList,
    /// Whether changes are announced to other constraints (not under forward checking,
    /// which does not cascade).
    pub(crate) track: bool,
    pub(crate) pruned: &'a mut u64,
    pub(crate) assignment: Assignment<'a>,
}

/// The search's assignment, as propagators see it.
#[derive(Clone, Copy)]
pub(crate) struct Assignment<'a> {
    pub(crate) assigned: &'a [bool],
    /// The value of each assigned variable.
    pub(crate) values: &'a [i32],
    /// The unassigned variables as a bitset (bit `v % 64` of word `v / 64`) when the
    /// caller keeps one (search does), else empty.
    pub(crate) open: &'a [u64],
}

/// The arguments of [`PropagationContext::remove_from_open`], handed whole to the version
/// that runs.
struct Removal<'v, F> {
    vars: &'v [VarId],
    first: Option<VarId>,
    step: Option<i32>,
    except: usize,
    value_of: F,
}

impl PropagationContext<'_> {
    /// Number of values left for `var`.
    #[inline]
    pub fn size(&self, var: VarId) -> u32 {
        self.store.size(var)
    }

    /// Whether `value` is still possible for `var`.
    #[inline]
    pub fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.contains(var, value)
    }

    /// The smallest value left (`None` only for an empty domain).
    pub fn min(&self, var: VarId) -> Option<i32> {
        self.store.min(var)
    }

    /// The largest value left (`None` only for an empty domain).
    pub fn max(&self, var: VarId) -> Option<i32> {
        self.store.max(var)
    }

    /// The values left, in increasing order.
    pub fn values(&self, var: VarId) -> Values<'_> {
        self.store.values(var)
    }

    /// The domain as bit words: bit `i` stands for value [`PropagationContext::base`]` + i`.
    #[inline]
    pub fn bits(&self, var: VarId) -> DomainBits<'_> {
        self.store.bits(var)
    }

    /// The value of bit 0 in [`PropagationContext::bits`].
    #[inline]
    pub fn base(&self, var: VarId) -> i32 {
        self.store.base(var)
    }

    /// Whether search (or the model, for givens) assigned `var`.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.assignment.assigned[var.index()]
    }

    /// The value search (or the model) assigned to `var`, if it did: its domain is that
    /// value alone.
    #[inline]
    pub(crate) fn assigned_value(&self, var: VarId) -> Option<i32> {
        let v = var.index();
        self.assignment.assigned[v].then(|| self.assignment.values[v])
    }

    /// Removes `value` from `var`. `Err(Conflict)` if the domain becomes empty.
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        if !self.store.remove(var, value) {
            return Ok(false);
        }
        *self.pruned += 1;
        self.note_change(var)?;
        Ok(true)
    }

    /// Removes `value_of(j)` from every `vars[j]` but `vars[except]`. An assigned
    /// variable holds the value only if it is its own (a clash, which the removal then
    /// reports): the store uses that to spare reading a domain word that, on a large
    /// model, would come from memory. `first`: `Some(first)` when `vars[j]` is variable
    /// `first + j` for every `j`, which lets the store visit just the unassigned ones.
    /// `step`: `Some(step)` when `value_of(j)` is `value_of(0) - step * j`, which lets a
    /// store laid out by word record the removals in one go ([`Store::remove_line`]).
    #[inline]
    pub(crate) fn remove_from_open(
        &mut self,
        vars: &[VarId],
        first: Option<VarId>,
        step: Option<i32>,
        except: usize,
        value_of: impl Fn(usize) -> i64,
    ) -> Result<(), Conflict> {
        let removal = Removal {
            vars,
            first,
            step,
            except,
            value_of,
        };
        #[cfg(target_arch = "x86_64")]
        if crate::wide_vectors::detected() {
            // SAFETY: the processor has the features `remove_from_open_wide` is compiled for.
            #[allow(unsafe_code)]
            return unsafe { self.remove_from_open_wide(removal) };
        }
        self.remove_from_open_here(removal)
    }

    /// [`PropagationContext::remove_from_open`] with 256-bit vectors ([`crate::wide_vectors`]):
    /// the clash test and the store's passes along a line are loops the compiler
    /// vectorises, and a large board spends most of its search in them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn remove_from_open_wide(&mut self, removal: Removal<'_, impl Fn(usize) -> i64>) -> Result<(), Conflict> {
        self.remove_from_open_here(removal)
    }

    /// [`PropagationContext::remove_from_open`], compiled into both versions.
    #[inline(always)]
    fn remove_from_open_here(&mut self, removal: Removal<'_, impl Fn(usize) -> i64>) -> Result<(), Conflict> {
        let Removal {
            vars,
            first,
            step,
            except,
            value_of,
        } = removal;
        let Assignment {
            assigned,
            values,
            open,
        } = self.assignment;
        let known = |j: usize| {
            let v = vars[j].index();
            assigned[v].then(|| i64::from(values[v]))
        };
        let block = first.filter(|_| !open.is_empty());
        // The indices whose value can be in a domain at all, when the store removes
        // lines: no assigned variable outside them can hold its value.
        let reach = step
            .filter(|_| block.is_some())
            .and_then(|step| self.store.line_reach(value_of(0), step, vars.len()));
        // A block of variables whose assigned ones hold none of their values to remove
        // (always the case once search runs: each assignment removed its value from the
        // others) has its unassigned ones visited alone. A clash takes the general pass,
        // which reports it where it always has.
        let open_block = block.and_then(|first| {
            let block = first.index()..first.index() + vars.len();
            let (assigned, values) = (&assigned[block.clone()], &values[block]);
            // Equal values have equal low 32 bits: comparing those finds every clash (and
            // rarely a false one, which the general pass then clears) in lanes half as
            // wide. No branch and no early exit, so that the loop is vectorised.
            let holds = |j: usize| assigned[j] & (values[j] == value_of(j) as i32);
            let Range { start, end } = reach.clone().unwrap_or(0..vars.len());
            let clash = (start..except.clamp(start, end)).fold(false, |clash, j| clash | holds(j))
                | (except.saturating_add(1).clamp(start, end)..end).fold(false, |clash, j| clash | holds(j));
            (!clash).then_some((first.index(), open))
        });
        let line = match (open_block, step, reach) {
            (Some((first, open)), Some(step), Some(reach)) => Some((
                Line {
                    first,
                    reach,
                    except,
                    value0: value_of(0),
                    step,
                },
                open,
            )),
            _ => None,
        };
        let changed = &mut *self.changed;
        // Without tracking, nothing is called per removal: the store's loops stay
        // free of a branch on whether a value was removed.
        let (removed, emptied) = match (line, self.track) {
            (Some((line, open)), true) => self.store.remove_line(line, open, Some(|var| changed.push(var))),
            (Some((line, open)), false) => self.store.remove_line(line, open, None::<fn(VarId)>),
            (None, true) => self
                .store
                .remove_from_each(vars, open_block, except, value_of, known, |var| changed.push(var)),
            (None, false) => self
                .store
                .remove_from_each(vars, open_block, except, value_of, known, |_| {}),
        };
        *self.pruned += removed;
        match emptied {
            Some(_) => Err(Conflict),
            None => Ok(()),
        }
    }

    /// Keeps only the values whose bits are set in `mask` (layout of [`PropagationContext::bits`]).
    #[inline]
    pub fn retain_bits(&mut self, var: VarId, mask: &[u64]) -> Result<bool, Conflict> {
        let removed = self.store.retain_bits(var, mask);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        self.note_change(var)?;
        Ok(true)
    }

    /// Every domain word and their shared base, when each variable's domain is the one
    /// word at its index (then `words[var.index()]` is `var`'s domain).
    #[inline]
    pub(crate) fn uniform_words(&self) -> Option<(&[u64], i32)> {
        self.store.uniform_words()
    }

    /// [`PropagationContext::retain_bits`] when [`PropagationContext::uniform_words`] applies.
    #[inline(always)]
    pub(crate) fn retain_word(&mut self, var: VarId, mask: u64) -> Result<bool, Conflict> {
        let (removed, left) = self.store.retain_word(var, mask);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        if self.track {
            self.changed.push(var);
        }
        if left == 0 { Err(Conflict) } else { Ok(true) }
    }

    /// Reduces `var` to the single value `value`. `Err(Conflict)` if it was not possible.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        if !self.store.contains(var, value) {
            return Err(Conflict);
        }
        let removed = self.store.fix(var, value);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        self.note_change(var)?;
        Ok(true)
    }

    #[inline]
    fn note_change(&mut self, var: VarId) -> Result<(), Conflict> {
        if self.track {
            self.changed.push(var);
        }
        if self.store.size(var) == 0 {
            Err(Conflict)
        } else {
            Ok(())
        }
    }
}

/// The variables whose domains changed and still have to be announced, each listed once.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeList {
    vars: Vec<VarId>,
    listed: Vec<bool>,
}

impl ChangeList {
    pub(crate) fn new(num_vars: usize) -> Self {
        ChangeList {
            vars: Vec::with_capacity(num_vars),
            listed: vec![false; num_vars],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, var: VarId) {
        if !self.listed[var.index()] {
            self.listed[var.index()] = true;
            self.vars.push(var);
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<VarId> {
        let var = self.vars.pop()?;
        self.listed[var.index()] = false;
        Some(var)
    }

    pub(crate) fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}
