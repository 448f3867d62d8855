//! `list[index - start] == value`, over a list of variables and constants, with generalised
//! arc consistency on the index and the value (and the chosen entry once the index is
//! fixed). Where one variable plays several parts (the index inside the list, say), the
//! same filtering is sound but may keep more; forward checking then keeps it exact.

use smallvec::SmallVec;

use crate::constraints::forward_check_last;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// A list entry or the value: a constant or a position in the scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    Const(i64),
    Var(usize),
}

/// `list[index - start] == value` over distinct scope variables.
#[derive(Clone, Debug)]
pub(crate) struct Element {
    vars: Vec<VarId>,
    /// Position of the index in `vars`.
    index: usize,
    start: i64,
    list: Vec<Operand>,
    value: Operand,
}

impl Element {
    pub(crate) fn new(
        vars: Vec<VarId>,
        index: usize,
        start: i64,
        list: Vec<Operand>,
        value: Operand,
    ) -> Element {
        Element {
            vars,
            index,
            start,
            list,
            value,
        }
    }

    /// The list entry an index value selects.
    fn entry(&self, i: i32) -> Option<Operand> {
        let p = i64::from(i).checked_sub(self.start)?;
        usize::try_from(p).ok().and_then(|p| self.list.get(p).copied())
    }

    /// Whether the operands can be equal in the current domains.
    fn meet(&self, ctx: &PropagationContext<'_>, a: Operand, b: Operand) -> bool {
        match (a, b) {
            (Operand::Const(x), Operand::Const(y)) => x == y,
            (Operand::Const(x), Operand::Var(p)) | (Operand::Var(p), Operand::Const(x)) => {
                i32::try_from(x).is_ok_and(|x| ctx.contains(self.vars[p], x))
            }
            (Operand::Var(p), Operand::Var(q)) => {
                let (u, w) = (self.vars[p], self.vars[q]);
                if p == q {
                    return true;
                }
                let (small, large) = if ctx.size(u) <= ctx.size(w) {
                    (u, w)
                } else {
                    (w, u)
                };
                ctx.values(small).any(|a| ctx.contains(large, a))
            }
        }
    }

    fn filter(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let index = self.vars[self.index];
        // The index: a value whose entry cannot equal the value goes.
        let doomed: SmallVec<[i32; 16]> = ctx
            .values(index)
            .filter(|&i| self.entry(i).is_none_or(|e| !self.meet(ctx, e, self.value)))
            .collect();
        for i in doomed {
            ctx.remove(index, i)?;
        }
        // The value: only what some remaining entry holds.
        if let Operand::Var(q) = self.value {
            let v = self.vars[q];
            let base = i64::from(ctx.base(v));
            let words = ctx.bits(v).len();
            let mut mask: SmallVec<[u64; 8]> = SmallVec::from_elem(0, words);
            let mut set = |a: i64| {
                let bit = a - base;
                if (0..(words * 64) as i64).contains(&bit) {
                    mask[bit as usize / 64] |= 1 << (bit % 64);
                }
            };
            for i in ctx.values(index) {
                match self.entry(i) {
                    Some(Operand::Const(c)) => set(c),
                    // (Where the entry is the value itself, that keeps all it holds.)
                    Some(Operand::Var(p)) => ctx.values(self.vars[p]).for_each(|a| set(i64::from(a))),
                    None => {}
                }
            }
            ctx.retain_bits(v, &mask)?;
        }
        // The entry of a fixed index: only what the value can be.
        if ctx.size(index) == 1 {
            let i = ctx.min(index).ok_or(Conflict)?;
            if let Some(Operand::Var(p)) = self.entry(i) {
                let l = self.vars[p];
                match self.value {
                    Operand::Const(c) => {
                        let c = i32::try_from(c).map_err(|_| Conflict)?;
                        ctx.fix(l, c)?;
                    }
                    Operand::Var(q) if q != p => {
                        let v = self.vars[q];
                        let doomed: SmallVec<[i32; 16]> =
                            ctx.values(l).filter(|&a| !ctx.contains(v, a)).collect();
                        for a in doomed {
                            ctx.remove(l, a)?;
                        }
                    }
                    Operand::Var(_) => {}
                }
            }
        }
        Ok(())
    }
}

impl Propagator for Element {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        let get = |o: Operand| match o {
            Operand::Const(c) => c,
            Operand::Var(p) => i64::from(values[p]),
        };
        self.entry(values[self.index])
            .is_some_and(|e| get(e) == get(self.value))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        self.filter(ctx)?;
        forward_check_last(ctx, &self.vars, |values| self.check(values))
    }

    fn wake(&self) -> Wake {
        Wake::OnChange
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        let get = |p: usize| if p == local { Some(value) } else { assigned(p) };
        let Some(i) = get(self.index) else {
            return true;
        };
        let Some(entry) = self.entry(i) else {
            return false;
        };
        let known = |o: Operand| match o {
            Operand::Const(c) => Some(c),
            Operand::Var(p) => get(p).map(i64::from),
        };
        match (known(entry), known(self.value)) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "element"
    }
}
