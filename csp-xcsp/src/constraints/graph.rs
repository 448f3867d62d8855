//! Graph constraints: `circuit`.

use csp_core::{Expr, IntOrVar, VarId};

use crate::error::Result;
use crate::ir::{Constraint, expr_vars, value, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// `<circuit>`: the items are successors (numbered from `start`); a vertex that is its own
/// successor is off the circuit, and the others form exactly one cycle of two vertices or
/// more (as ACE reads it), of `size` vertices when a size is given.
#[derive(Debug)]
pub struct Circuit {
    /// The successors.
    pub items: Vec<Expr>,
    /// The number of the first vertex.
    pub start: i64,
    /// The cycle's number of vertices (an integer or a variable).
    pub size: Option<Expr>,
}

impl Constraint for Circuit {
    fn kind(&self) -> &'static str {
        "circuit"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items
            .iter()
            .chain(self.size.iter())
            .for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(succ) = values_of(&self.items, values) else {
            return false;
        };
        let n = succ.len();
        let Some(next) = succ
            .iter()
            .map(|&s| {
                usize::try_from(s - i128::from(self.start))
                    .ok()
                    .filter(|&j| j < n)
            })
            .collect::<Option<Vec<usize>>>()
        else {
            return false;
        };
        let on: Vec<usize> = (0..n).filter(|&i| next[i] != i).collect();
        if on.len() < 2 {
            return false;
        }
        // Following the successors from one vertex of the cycle visits every one of them.
        let mut seen = 0;
        let mut at = on[0];
        loop {
            seen += 1;
            at = next[at];
            if at == on[0] || seen > n {
                break;
            }
            if next[at] == at {
                return false;
            }
        }
        if at != on[0] || seen != on.len() {
            return false;
        }
        match &self.size {
            Some(s) => value(s, values) == Some(on.len() as i128),
            None => true,
        }
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        let start = i32::try_from(self.start).map_err(|_| p.invalid("startIndex does not fit 32 bits"))?;
        let size = match &self.size {
            None => None,
            Some(Expr::Const(k)) => Some(IntOrVar::Int(*k)),
            Some(e) => Some(IntOrVar::Var(p.var_of(e)?)),
        };
        p.model.circuit(&vars, start, size).map_err(|e| p.err(e))
    }
}

pub(crate) fn circuit<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "size"])?;
    let (items, start) = match r.child(node, "list") {
        Some(l) => (r.list(l, ctx)?, r.attr_int(l, "startIndex", 0)?),
        None => (r.list(node, ctx)?, 0),
    };
    let size = match r.child(node, "size") {
        Some(s) => match <[Expr; 1]>::try_from(r.list(s, ctx)?) {
            Ok([e]) => Some(e),
            Err(_) => return Err(r.syntax("", s, "<size> must be one integer or variable")),
        },
        None => None,
    };
    r.push(node, Circuit { items, start, size })
}
