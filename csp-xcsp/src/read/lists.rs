//! Lists (of variables, integers and expressions), conditions and matrices, with the
//! arguments `<group>` and `<slide>` hand their template (`%0`, `%1`, ..., `%...`).
//!
//! Every list of integers takes XCSP3's compact forms: `vxk` stands for `k` times the value
//! `v` (`0x5`, `-1x3`).

use csp_core::{Expr, VarId};

pub(crate) use super::tokens;
use super::{Reader, looks_numeric};
use crate::error::Result;
use crate::ir::{CmpOp, Condition, Operand};
use crate::limits::MAX_VARIABLES;
use crate::xml::Node;

/// The arguments a `group` or `slide` hands its template.
pub(crate) struct Ctx<'c> {
    pub(crate) args: &'c [Expr],
    /// Where `%...` starts: one past the largest `%i` of the template.
    pub(crate) rest: usize,
}

/// The largest `%i` in the text of `node` and its descendants, if any.
pub(crate) fn max_percent(node: Node) -> Option<usize> {
    let mut best = scan_percent(node.text());
    for c in node.children() {
        if let Some(k) = max_percent(c) {
            best = Some(best.map_or(k, |b: usize| b.max(k)));
        }
    }
    best
}

fn scan_percent(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let mut best: Option<usize> = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if let Ok(k) = t[i + 1..j].parse::<usize>() {
                best = Some(best.map_or(k, |x| x.max(k)));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    best
}

/// `vxk`: the value and the repeat count, if `t` is written so.
fn repetition(t: &str) -> Option<(&str, &str)> {
    let (v, k) = t.split_once('x')?;
    (looks_numeric(v) && !k.is_empty()).then_some((v, k))
}

impl<'d, 'a> Reader<'d, 'a, '_> {
    /// The items of the list in `node`'s text.
    pub(crate) fn list(&mut self, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Vec<Expr>> {
        let text = self.content(node)?;
        self.list_text(text, node, ctx)
    }

    /// The items of a list: variables (compact forms expanded), integers (with `vxk`),
    /// expressions, and the template's arguments.
    pub(crate) fn list_text(
        &mut self,
        text: &str,
        node: Node<'d, 'a>,
        ctx: Option<&Ctx>,
    ) -> Result<Vec<Expr>> {
        let mut out = Vec::new();
        for t in tokens(text) {
            self.item(t, node, ctx, &mut out)?;
            self.budget.step()?;
        }
        Ok(out)
    }

    /// One token of a list, appended to `out`.
    pub(crate) fn item(
        &mut self,
        t: &str,
        node: Node<'d, 'a>,
        ctx: Option<&Ctx>,
        out: &mut Vec<Expr>,
    ) -> Result<()> {
        if let Some(p) = t.strip_prefix('%') {
            let Some(ctx) = ctx else {
                return Err(self.syntax(t, node, format!("`{t}` outside a group or slide")));
            };
            if p == "..." {
                out.extend(ctx.args.iter().skip(ctx.rest).cloned());
            } else {
                let i: usize = p
                    .parse()
                    .ok()
                    .filter(|_| p == "0" || !p.starts_with('0'))
                    .ok_or_else(|| self.syntax(t, node, format!("bad parameter `{t}`")))?;
                let a = ctx.args.get(i).ok_or_else(|| {
                    self.syntax(
                        t,
                        node,
                        format!("`{t}` but only {} arguments are given", ctx.args.len()),
                    )
                })?;
                out.push(a.clone());
            }
        } else if let Some((v, k)) = repetition(t) {
            let value = self.int(v, node)?;
            let count = self.int(k, node)?;
            let count = usize::try_from(count).map_err(|_| {
                self.out_of_range(t, node, format!("`{t}`: a repeat count cannot be negative"))
            })?;
            // The cap is on the whole list, which this item would take past it.
            if out.len().saturating_add(count) > MAX_VARIABLES {
                return Err(self.out_of_range(
                    t,
                    node,
                    format!(
                        "`{t}`: the list would have {} items, more than {MAX_VARIABLES} (csp's limit on a list)",
                        out.len() as u128 + count as u128
                    ),
                ));
            }
            // In slices, so that the time limit holds inside a repetition of millions.
            let mut left = count;
            while left > 0 {
                let slice = left.min(1 << 16);
                self.budget.steps(slice)?;
                out.extend(std::iter::repeat_n(Expr::Const(value), slice));
                left -= slice;
            }
        } else if looks_numeric(t) {
            out.push(Expr::Const(self.int(t, node)?));
        } else if t.contains('(') {
            out.push(self.expr(t, node, ctx)?);
        } else if t.contains("..") && t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            return Err(self.syntax(
                t,
                node,
                format!("an interval `{t}` where a list item is expected"),
            ));
        } else {
            let (vars, _) = self.vars_of(t, node)?;
            out.extend(vars.into_iter().map(Expr::Var));
        }
        Ok(())
    }

    /// A list of variables only.
    pub(crate) fn vars(&mut self, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Vec<VarId>> {
        let items = self.list(node, ctx)?;
        items
            .into_iter()
            .map(|e| match e {
                Expr::Var(v) => Ok(v),
                other => Err(self.syntax(
                    "",
                    node,
                    format!("`{}` in a list of variables", self.show(&other)),
                )),
            })
            .collect()
    }

    /// A list of integers only.
    pub(crate) fn ints(&mut self, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Vec<i64>> {
        let items = self.list(node, ctx)?;
        items
            .into_iter()
            .map(|e| match e {
                Expr::Const(k) => Ok(k),
                other => Err(self.syntax("", node, format!("`{}` in a list of integers", self.show(&other)))),
            })
            .collect()
    }

    /// An expression in XCSP3 notation, with the variables' names, for messages.
    pub(crate) fn show(&self, e: &Expr) -> String {
        crate::condition::show(&self.model, e)
    }

    /// The `(op, operand)` of a `<condition>` element.
    pub(crate) fn condition(&mut self, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Condition> {
        let text = self.content(node)?;
        self.condition_text(text, node, ctx)
    }

    /// A condition `(op, operand)`: an integer, a variable, an interval `a..b` or a set
    /// `{a,b,...}` (the last two for `in` and `notin`).
    pub(crate) fn condition_text(
        &mut self,
        text: &str,
        node: Node<'d, 'a>,
        ctx: Option<&Ctx>,
    ) -> Result<Condition> {
        let t = text.trim();
        let bad = |r: &Self| {
            r.syntax(
                t,
                node,
                format!("expected a condition `(op,operand)`, found `{t}`"),
            )
        };
        let inner = t
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .ok_or_else(|| bad(self))?;
        let (op_text, operand) = inner.split_once(',').ok_or_else(|| bad(self))?;
        let (op_text, operand) = (op_text.trim(), operand.trim());
        let op = CmpOp::from_name(op_text)
            .ok_or_else(|| self.syntax(op_text, node, format!("unknown condition operator `{op_text}`")))?;
        let operand = if let Some(body) = operand.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            let mut values = Vec::new();
            for v in body.split([',', ' ', '\t', '\n', '\r']).filter(|s| !s.is_empty()) {
                values.push(self.int(v, node)?);
            }
            Operand::Set(values)
        } else if let Some((a, b)) = operand.split_once("..").filter(|_| !operand.starts_with('%')) {
            let (lo, hi) = (self.int(a.trim(), node)?, self.int(b.trim(), node)?);
            if lo > hi {
                return Err(self.syntax(operand, node, format!("the interval `{operand}` is empty")));
            }
            Operand::Range(lo, hi)
        } else {
            let mut items = Vec::new();
            self.item(operand, node, ctx, &mut items)?;
            match items.as_slice() {
                [Expr::Const(k)] => Operand::Int(*k),
                [Expr::Var(v)] => Operand::Var(*v),
                _ => return Err(self.syntax(operand, node, format!("bad operand `{operand}`"))),
            }
        };
        let set_like = matches!(op, CmpOp::In | CmpOp::NotIn);
        let operand = match (set_like, operand) {
            (true, Operand::Int(k)) => Operand::Set(vec![k]),
            (true, Operand::Var(_)) => {
                return Err(self.unsupported(node, "a variable as the operand of in/notin"));
            }
            (false, Operand::Range(..) | Operand::Set(_)) => {
                return Err(self.syntax(t, node, "an interval or set needs the operator in or notin"));
            }
            (_, o) => o,
        };
        Ok(Condition { op, operand })
    }

    /// A matrix: `x[][]` (a two-dimensional selection) or rows `(a,b,c)(d,e,f)`; rows must
    /// have the same length.
    pub(crate) fn matrix(&mut self, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Vec<Vec<Expr>>> {
        let text = self.content(node)?;
        let t = text.trim();
        let rows = if t.starts_with('(') {
            let mut rows = Vec::new();
            for row in t.split(')') {
                let row = row.trim();
                if row.is_empty() {
                    continue;
                }
                let Some(body) = row.strip_prefix('(') else {
                    return Err(self.syntax(row, node, "expected `(` to open a row"));
                };
                let mut items = Vec::new();
                for tok in body.split(',') {
                    self.item(tok.trim(), node, ctx, &mut items)?;
                }
                rows.push(items);
            }
            rows
        } else {
            let toks = tokens(t);
            let [tok] = toks[..] else {
                return Err(self.unsupported(node, "a matrix given other than as `x[][]` or rows `(..)(..)`"));
            };
            let (name, rest) = super::variables::split_name(tok);
            let Some(super::Named::Array(a)) = self.names.get(name).copied() else {
                return Err(self.unknown(tok, node));
            };
            let shape = self.shape_of(tok, &self.arrays[a].dims);
            if shape.len() != 2 || rest.is_empty() {
                return Err(self.syntax(tok, node, format!("`{tok}` is not a two-dimensional selection")));
            }
            let cells = self.select(a, tok, node)?;
            let array = &self.arrays[a];
            cells
                .chunks(shape[1].max(1))
                .map(|chunk| {
                    chunk
                        .iter()
                        .filter_map(|&c| array.cells[c])
                        .map(Expr::Var)
                        .collect()
                })
                .collect()
        };
        if rows.iter().any(|r: &Vec<Expr>| r.len() != rows[0].len()) {
            return Err(self.syntax(t, node, "the rows of a matrix must have the same length"));
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_outside_parentheses() {
        assert_eq!(tokens("  a b[1]  add(x, 1) "), vec!["a", "b[1]", "add(x, 1)"]);
    }

    #[test]
    fn repetitions() {
        assert_eq!(repetition("3x4"), Some(("3", "4")));
        assert_eq!(repetition("-1x2"), Some(("-1", "2")));
        assert_eq!(repetition("x"), None);
        assert_eq!(repetition("x[2]"), None);
        assert_eq!(repetition("max(x,y)"), None);
    }
}
