//! Fixing a neighbourhood: decision variables set to the incumbent's values one at a time,
//! each propagated, until few enough are left free. A neighbourhood kind decides the order;
//! the fixer applies it and tells what each fixing implied, for the kinds that follow
//! propagation.

use crate::search::Solver;
use crate::var::VarId;

/// What the fixer keeps from one neighbourhood to the next, so that none allocates.
#[derive(Default)]
pub(super) struct FixerScratch {
    /// Whether each variable is a decision variable.
    is_decision: Vec<bool>,
    /// Whether each decision variable is counted free (unassigned, two values or more).
    counted: Vec<bool>,
    /// Each variable's domain size after the last fixing.
    last_size: Vec<u32>,
    /// The decision variables the last fixing reduced, with the share of values it took.
    touched: Vec<(VarId, f32)>,
}

impl FixerScratch {
    pub(super) fn new(num_vars: usize, decision: &[VarId]) -> FixerScratch {
        let mut is_decision = vec![false; num_vars];
        for v in decision {
            is_decision[v.index()] = true;
        }
        FixerScratch {
            is_decision,
            counted: vec![false; num_vars],
            last_size: vec![0; num_vars],
            touched: Vec::new(),
        }
    }
}

/// A neighbourhood being fixed.
pub(super) struct Fixer<'a, 'm> {
    solver: &'a mut Solver<'m>,
    scratch: &'a mut FixerScratch,
    decision: &'a [VarId],
    incumbent: &'a [i32],
    /// How many decision variables should stay free.
    target: usize,
    /// How many are free now.
    free: usize,
    fixed: usize,
}

impl<'a, 'm> Fixer<'a, 'm> {
    /// A fixer over `solver`, whose neighbourhood is open, to leave `target` of the
    /// `decision` variables free.
    pub(super) fn new(
        solver: &'a mut Solver<'m>,
        scratch: &'a mut FixerScratch,
        decision: &'a [VarId],
        incumbent: &'a [i32],
        target: usize,
    ) -> Fixer<'a, 'm> {
        let mut free = 0;
        for &v in decision {
            let size = solver.domain_size(v);
            let open = !solver.is_assigned(v) && size > 1;
            scratch.counted[v.index()] = open;
            scratch.last_size[v.index()] = size;
            free += usize::from(open);
        }
        scratch.touched.clear();
        Fixer {
            solver,
            scratch,
            decision,
            incumbent,
            target,
            free,
            fixed: 0,
        }
    }

    /// Whether few enough decision variables are free.
    pub(super) fn done(&self) -> bool {
        self.free <= self.target
    }

    /// The decision variables.
    pub(super) fn decision(&self) -> &'a [VarId] {
        self.decision
    }

    /// How many decision variables should stay free.
    pub(super) fn target(&self) -> usize {
        self.target
    }

    /// Whether `var` is still free: unassigned, with two values or more.
    pub(super) fn is_free(&self, var: VarId) -> bool {
        self.scratch.counted[var.index()]
    }

    /// Whether `var` is a decision variable.
    pub(super) fn is_decision(&self, var: VarId) -> bool {
        self.scratch.is_decision[var.index()]
    }

    /// The number of variables of the model.
    pub(super) fn num_vars(&self) -> usize {
        self.scratch.is_decision.len()
    }

    /// `var`'s value in the incumbent.
    pub(super) fn incumbent(&self, var: VarId) -> i32 {
        self.incumbent[var.index()]
    }

    /// How many fixings held.
    pub(super) fn fixed(&self) -> usize {
        self.fixed
    }

    /// Fixes the free decision variable `var` to its incumbent value and propagates.
    /// Returns whether that held; a fixing that fails is undone and `var` stays free
    /// (to improve, it must change). After a fixing that held, [`Fixer::touched`] lists
    /// the other decision variables it reduced.
    pub(super) fn fix(&mut self, var: VarId) -> bool {
        self.scratch.touched.clear();
        if !self.is_free(var) {
            return false;
        }
        let mark = self.solver.store_mark();
        if !self.solver.fix_in_neighbourhood(var, self.incumbent[var.index()]) {
            return false;
        }
        self.fixed += 1;
        let (solver, scratch) = (&*self.solver, &mut *self.scratch);
        let mut freed_up = 0;
        solver.changed_since(mark, |i| {
            let v = VarId(i as u32);
            let (before, now) = (scratch.last_size[i], solver.domain_size(v));
            if now >= before {
                return;
            }
            scratch.last_size[i] = now;
            if !scratch.is_decision[i] || !scratch.counted[i] {
                return;
            }
            if now <= 1 || solver.is_assigned(v) {
                scratch.counted[i] = false;
                freed_up += 1;
            } else {
                scratch.touched.push((v, 1.0 - now as f32 / before as f32));
            }
        });
        if scratch.counted[var.index()] {
            // The fixed variable had one value already in none of the records above.
            scratch.counted[var.index()] = false;
            freed_up += 1;
        }
        self.free -= freed_up;
        true
    }

    /// The decision variables the last fixing reduced without fixing them, each with the
    /// share of its values it removed.
    pub(super) fn touched(&self) -> &[(VarId, f32)] {
        &self.scratch.touched
    }
}
