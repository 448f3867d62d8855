//! The functional expressions of XCSP3 (`eq(add(x,y),z)`), parsed by recursive descent to a
//! bounded depth ([`MAX_EXPRESSION_DEPTH`]): deeper expressions are refused with their
//! place, on every thread alike, before any recursive pass could overflow a stack.

use csp_core::Expr;

use super::Reader;
use super::lists::Ctx;
use crate::error::{Error, Result};
use crate::ir::Op;
use crate::limits::MAX_EXPRESSION_DEPTH;
use crate::xml::Node;

/// The number of operands XCSP3 allows an operator: `(min, max)`.
pub(crate) fn operand_count(op: Op) -> (usize, usize) {
    match op {
        Op::Neg | Op::Abs | Op::Sqr | Op::Not => (1, 1),
        Op::If => (3, 3),
        Op::Set => (0, usize::MAX),
        Op::Add | Op::Mul | Op::Min | Op::Max | Op::And | Op::Or | Op::Xor | Op::Iff | Op::Eq => {
            (2, usize::MAX)
        }
        _ => (2, 2),
    }
}

/// Whether an operator's value is a truth value (0 or 1).
pub(crate) fn is_boolean(e: &Expr) -> bool {
    match e {
        Expr::Const(k) => *k == 0 || *k == 1,
        Expr::Var(_) => false,
        Expr::Call(op, args) => match op {
            Op::Lt | Op::Le | Op::Ge | Op::Gt | Op::Ne | Op::Eq | Op::In | Op::NotIn => true,
            Op::Not | Op::And | Op::Or | Op::Xor | Op::Iff | Op::Imp => true,
            Op::If => is_boolean(&args[1]) && is_boolean(&args[2]),
            _ => false,
        },
    }
}

struct Parser<'r, 'd, 'a, 'l, 't, 'c> {
    r: &'r mut Reader<'d, 'a, 'l>,
    text: &'t str,
    at: usize,
    node: Node<'d, 'a>,
    ctx: Option<&'c Ctx<'c>>,
}

impl Parser<'_, '_, '_, '_, '_, '_> {
    fn skip_ws(&mut self) {
        let b = self.text.as_bytes();
        while self.at < b.len() && b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn err(&self, message: String) -> Error {
        self.r
            .syntax(&self.text[self.at.min(self.text.len())..], self.node, message)
    }

    fn expr(&mut self, depth: usize) -> Result<Expr> {
        if depth > MAX_EXPRESSION_DEPTH {
            return Err(Error::TooDeep {
                position: self.r.pos_str(&self.text[self.at..], self.node),
                what: "expressions",
                limit: MAX_EXPRESSION_DEPTH,
            });
        }
        self.r.budget.step()?;
        self.skip_ws();
        let b = self.text.as_bytes();
        let start = self.at;
        match self.peek() {
            None => Err(self.err("an expression is missing".into())),
            Some(b'%') => {
                self.at += 1;
                while self.at < b.len() && (b[self.at].is_ascii_digit() || b[self.at] == b'.') {
                    self.at += 1;
                }
                let tok = &self.text[start..self.at];
                let mut out = Vec::new();
                self.r.item(tok, self.node, self.ctx, &mut out)?;
                match <[Expr; 1]>::try_from(out) {
                    Ok([e]) => Ok(e),
                    Err(_) => {
                        Err(self
                            .r
                            .syntax(tok, self.node, format!("`{tok}` must stand for one operand here")))
                    }
                }
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => {
                self.at += 1;
                while self.at < b.len() && b[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                Ok(Expr::Const(self.r.int(&self.text[start..self.at], self.node)?))
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                while self.at < b.len() && (b[self.at].is_ascii_alphanumeric() || b[self.at] == b'_') {
                    self.at += 1;
                }
                let name = &self.text[start..self.at];
                self.skip_ws();
                if self.peek() == Some(b'(') {
                    self.call(name, depth)
                } else {
                    if name == "true" || name == "false" {
                        return Ok(Expr::Const(i64::from(name == "true")));
                    }
                    while self.peek() == Some(b'[') {
                        while self.at < b.len() && b[self.at] != b']' {
                            self.at += 1;
                        }
                        if self.at < b.len() {
                            self.at += 1;
                        }
                    }
                    let tok = &self.text[start..self.at];
                    let v = if tok.bytes().any(|c| c.is_ascii_whitespace()) {
                        let compact: String = tok.chars().filter(|c| !c.is_whitespace()).collect();
                        self.r.single_var(&compact, self.node)?
                    } else {
                        self.r.single_var(tok, self.node)?
                    };
                    Ok(Expr::Var(v))
                }
            }
            Some(_) => {
                let rest: String = self.text[start..].chars().take(20).collect();
                Err(self.err(format!("unexpected `{rest}` in an expression")))
            }
        }
    }

    /// `name(args...)`, the opening parenthesis next.
    fn call(&mut self, name: &str, depth: usize) -> Result<Expr> {
        let op = Op::from_name(name).ok_or_else(|| Error::Unsupported {
            position: self.r.pos_str(name, self.node),
            what: format!("operator `{name}`"),
        })?;
        self.at += 1;
        let mut args = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.at += 1;
        } else {
            loop {
                args.push(self.expr(depth + 1)?);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b')') => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(self.err(format!("expected `,` or `)` in {name}(...)"))),
                }
            }
        }
        let (lo, hi) = operand_count(op);
        if args.len() < lo || args.len() > hi {
            let count = if lo == hi {
                lo.to_string()
            } else {
                format!("at least {lo}")
            };
            return Err(self.r.syntax(
                name,
                self.node,
                format!("{name} takes {count} operands, got {}", args.len()),
            ));
        }
        for (i, a) in args.iter().enumerate() {
            let set_here = matches!(op, Op::In | Op::NotIn) && i == 1;
            let is_set = matches!(a, Expr::Call(Op::Set, _));
            if set_here != is_set {
                let message = if set_here {
                    format!("the second operand of {name} must be set(...)")
                } else {
                    format!("set(...) may only be the second operand of in or notin, not of {name}")
                };
                return Err(self.r.syntax(name, self.node, message));
            }
        }
        Ok(Expr::Call(op, args))
    }
}

impl<'d, 'a> Reader<'d, 'a, '_> {
    /// The expression written in `text`.
    pub(crate) fn expr(&mut self, text: &str, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<Expr> {
        let mut p = Parser {
            r: self,
            text,
            at: 0,
            node,
            ctx,
        };
        let e = p.expr(1)?;
        p.skip_ws();
        let at = p.at;
        if at != text.len() {
            let rest: String = text[at..].chars().take(20).collect();
            return Err(self.syntax(
                &text[at..],
                node,
                format!("unexpected `{rest}` after the expression"),
            ));
        }
        Ok(e)
    }
}
