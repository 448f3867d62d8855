//! A recursive-descent parser for FlatZinc (the grammar of the MiniZinc documentation,
//! `docs/en/fzn-grammar.mzn`), lenient where MiniZinc 2.6 to 2.9 write more than the
//! grammar says: items in any order, annotations on parameters, `a[i]` accesses. Every
//! error names the line and column of the token where it was found.

use crate::ast::{Ast, BaseType, Constraint, Decl, Expr, Goal, Solve, Type};
use std::collections::VecDeque;

use crate::error::{Error, Pos, Result};
use crate::lexer::{Lexer, Tok};
use crate::limits::{Budget, MAX_SYNTAX_MEMORY, ReadLimits};
use crate::set::IntSet;

/// The deepest nesting of arrays and annotation calls read (FlatZinc itself nests two
/// levels; the cap keeps a hostile file from exhausting the stack).
const MAX_DEPTH: usize = 64;

/// Parses a FlatZinc model.
pub fn parse(text: &str) -> Result<Ast> {
    parse_within(text, &ReadLimits::default())
}

/// Parses a FlatZinc model within `limits` (the deadline, the cancel flag and
/// [`MAX_SYNTAX_MEMORY`]).
pub fn parse_within(text: &str, limits: &ReadLimits) -> Result<Ast> {
    let mut p = Parser {
        lexer: Lexer::new(text),
        ahead: VecDeque::with_capacity(3),
        stop: None,
        budget: Budget::new(limits),
        syntax_bytes: 0,
        depth: 0,
    };
    p.fill();
    let ast = p.model();
    // What stopped the tokens (a bad character, a limit) comes first: the parser saw
    // only the end of the file there.
    match p.stop.take() {
        Some(e) => Err(e),
        None => ast,
    }
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The next tokens: always two or more (the end of the file repeats).
    ahead: VecDeque<(Tok, Pos)>,
    /// Why the tokens ended early: the lexer's error or a limit. The parser then sees
    /// the end of the file.
    stop: Option<Error>,
    budget: Budget<'a>,
    /// The estimated bytes of the syntax tree: a node per token, with its text.
    syntax_bytes: u64,
    depth: usize,
}

impl Parser<'_> {
    /// Reads tokens until two are ahead.
    fn fill(&mut self) {
        while self.ahead.len() < 2 {
            let eof_at = self.ahead.back().map_or(self.lexer.pos(), |t| t.1);
            if self.stop.is_some() || self.ahead.back().is_some_and(|t| t.0 == Tok::Eof) {
                self.ahead.push_back((Tok::Eof, eof_at));
                continue;
            }
            match self.lexer.token().and_then(|t| self.count(t)) {
                Ok(t) => self.ahead.push_back(t),
                Err(e) => {
                    self.stop = Some(e);
                    self.ahead.push_back((Tok::Eof, eof_at));
                }
            }
        }
    }

    /// Counts a token against the limits.
    fn count(&mut self, (tok, pos): (Tok, Pos)) -> Result<(Tok, Pos)> {
        self.budget.step()?;
        let text = match &tok {
            Tok::Ident(s) | Tok::Str(s) => s.len(),
            _ => 0,
        };
        self.syntax_bytes += (std::mem::size_of::<Expr>() + text) as u64;
        if self.syntax_bytes > MAX_SYNTAX_MEMORY {
            return Err(Error::TooLarge(format!(
                "{pos}: the model takes more than {} GiB to hold as read",
                MAX_SYNTAX_MEMORY >> 30
            )));
        }
        Ok((tok, pos))
    }

    fn peek(&self) -> &Tok {
        &self.ahead[0].0
    }

    fn peek2(&self) -> &Tok {
        &self.ahead[1].0
    }

    fn pos(&self) -> Pos {
        self.ahead[0].1
    }

    fn next(&mut self) -> Tok {
        let t = self.ahead.pop_front().map_or(Tok::Eof, |t| t.0);
        self.fill();
        t
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.next();
        }
        yes
    }

    fn expected(&self, what: &str) -> Error {
        Error::syntax(self.pos(), format!("expected {what}, found {}", self.peek()))
    }

    fn punct(&mut self, p: &str) -> Result<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    fn word(&mut self, w: &str) -> Result<()> {
        if self.is_word(w) {
            self.next();
            Ok(())
        } else {
            Err(self.expected(&format!("`{w}`")))
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                self.next();
                Ok(s)
            }
            _ => Err(self.expected("a name")),
        }
    }

    fn int(&mut self) -> Result<i64> {
        match *self.peek() {
            Tok::Int(i) => {
                self.next();
                Ok(i)
            }
            _ => Err(self.expected("an integer")),
        }
    }

    fn model(&mut self) -> Result<Ast> {
        let mut decls = Vec::new();
        let mut constraints = Vec::new();
        let mut solve = None;
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(w) if w == "predicate" => self.skip_item()?,
                Tok::Ident(w) if w == "constraint" => constraints.push(self.constraint()?),
                Tok::Ident(w) if w == "solve" => {
                    if solve.is_some() {
                        return Err(Error::syntax(pos, "a second solve item"));
                    }
                    solve = Some(self.solve()?);
                }
                Tok::Ident(w) if w == "output" || w == "include" => {
                    return Err(Error::syntax(
                        pos,
                        format!(
                            "`{w}` items are MiniZinc, not FlatZinc: compile the model with `minizinc -c` first"
                        ),
                    ));
                }
                _ => decls.push(self.decl()?),
            }
        }
        let solve = solve.ok_or_else(|| Error::syntax(self.pos(), "the model has no solve item"))?;
        Ok(Ast {
            decls,
            constraints,
            solve,
        })
    }

    /// Skips a predicate declaration (its parameters' types hold no `;`).
    fn skip_item(&mut self) -> Result<()> {
        let start = self.pos();
        loop {
            match self.next() {
                Tok::Punct(";") => return Ok(()),
                Tok::Eof => return Err(Error::syntax(start, "a predicate declaration without `;`")),
                _ => {}
            }
        }
    }

    fn decl(&mut self) -> Result<Decl> {
        let pos = self.pos();
        let ty = self.ty()?;
        self.punct(":")?;
        let name = self.ident()?;
        let anns = self.annotations()?;
        let value = if self.eat_punct("=") {
            Some(self.expr()?)
        } else {
            None
        };
        self.punct(";")?;
        Ok(Decl {
            name,
            pos,
            ty,
            anns,
            value,
        })
    }

    fn ty(&mut self) -> Result<Type> {
        let mut array = None;
        if self.is_word("array") {
            self.next();
            self.punct("[")?;
            array = Some(if self.is_word("int") {
                self.next();
                (1, 0)
            } else {
                let lo = self.int()?;
                self.punct("..")?;
                (lo, self.int()?)
            });
            self.punct("]")?;
            self.word("of")?;
        }
        let is_var = self.is_word("var");
        if is_var {
            self.next();
        }
        let base = self.base_type()?;
        Ok(Type { is_var, array, base })
    }

    fn base_type(&mut self) -> Result<BaseType> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(w) if w == "bool" => {
                self.next();
                Ok(BaseType::Bool)
            }
            Tok::Ident(w) if w == "int" => {
                self.next();
                Ok(BaseType::Int)
            }
            Tok::Ident(w) if w == "float" => {
                self.next();
                Ok(BaseType::Float)
            }
            Tok::Ident(w) if w == "set" => {
                self.next();
                self.word("of")?;
                if self.is_word("int") {
                    self.next();
                } else {
                    self.expr()?;
                }
                Ok(BaseType::Set)
            }
            Tok::Int(_) | Tok::Float(_) | Tok::Punct("{") => match self.expr()? {
                Expr::Set(s) => Ok(BaseType::IntIn(s)),
                Expr::FloatSet => Ok(BaseType::Float),
                _ => Err(Error::syntax(pos, "expected a range or a set as a type")),
            },
            _ => Err(self.expected("a type")),
        }
    }

    fn constraint(&mut self) -> Result<Constraint> {
        let pos = self.pos();
        self.word("constraint")?;
        let name = self.ident()?;
        self.punct("(")?;
        let args = self.list(")")?;
        let anns = self.annotations()?;
        self.punct(";")?;
        Ok(Constraint {
            name,
            pos,
            args,
            anns,
        })
    }

    fn solve(&mut self) -> Result<Solve> {
        let pos = self.pos();
        self.word("solve")?;
        let anns = self.annotations()?;
        let goal = match self.ident()?.as_str() {
            "satisfy" => Goal::Satisfy,
            "minimize" => Goal::Minimize(self.expr()?),
            "maximize" => Goal::Maximize(self.expr()?),
            other => {
                return Err(Error::syntax(
                    pos,
                    format!("expected satisfy, minimize or maximize, found `{other}`"),
                ));
            }
        };
        self.punct(";")?;
        Ok(Solve { pos, anns, goal })
    }

    fn annotations(&mut self) -> Result<Vec<Expr>> {
        let mut anns = Vec::new();
        while self.eat_punct("::") {
            anns.push(self.expr()?);
        }
        Ok(anns)
    }

    /// Comma-separated expressions up to `close` (a trailing comma is allowed).
    fn list(&mut self, close: &str) -> Result<Vec<Expr>> {
        let mut items = Vec::new();
        while !self.eat_punct(close) {
            items.push(self.expr()?);
            if !self.eat_punct(",") {
                self.punct(close)?;
                break;
            }
        }
        Ok(items)
    }

    fn expr(&mut self) -> Result<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::syntax(self.pos(), "expressions nested too deep"));
        }
        let e = self.expr_inner();
        self.depth -= 1;
        e
    }

    fn expr_inner(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.next() {
            Tok::Int(lo) => {
                if self.eat_punct("..") {
                    let hi = self.int()?;
                    Ok(Expr::Set(IntSet::range(lo, hi)))
                } else {
                    Ok(Expr::Int(lo))
                }
            }
            Tok::Float(x) => {
                if self.eat_punct("..") {
                    match self.next() {
                        Tok::Float(_) | Tok::Int(_) => Ok(Expr::FloatSet),
                        _ => Err(Error::syntax(pos, "a float range without an upper bound")),
                    }
                } else {
                    Ok(Expr::Float(x))
                }
            }
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Punct("[") => Ok(Expr::Array(self.list("]")?)),
            Tok::Punct("{") => {
                let items = self.list("}")?;
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Expr::Int(v) => values.push(v),
                        Expr::Float(_) => return Ok(Expr::FloatSet),
                        _ => return Err(Error::syntax(pos, "a set literal may hold only numbers")),
                    }
                }
                Ok(Expr::Set(IntSet::from_values(values)))
            }
            Tok::Ident(w) if w == "true" => Ok(Expr::Bool(true)),
            Tok::Ident(w) if w == "false" => Ok(Expr::Bool(false)),
            Tok::Ident(name) => {
                if self.is_punct("(") {
                    self.next();
                    Ok(Expr::Call(name, self.list(")")?))
                } else if self.is_punct("[") && matches!(self.peek2(), Tok::Int(_)) {
                    self.next();
                    let i = self.int()?;
                    self.punct("]")?;
                    Ok(Expr::Access(name, i))
                } else {
                    Ok(Expr::Ident(name))
                }
            }
            t => Err(Error::syntax(pos, format!("expected an expression, found {t}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_model() {
        let ast = parse(
            "predicate my(var int: x);\narray [1..2] of int: c = [1, -2];\nvar 1..3: x :: output_var;\n\
             var {1, 5}: y;\narray [1..2] of var int: a :: output_array([1..2]) = [x, y];\n\
             constraint int_lin_le(c, a, 0) :: domain;\nsolve :: int_search(a, input_order, indomain_min, complete) minimize x;",
        )
        .unwrap();
        assert_eq!(ast.decls.len(), 4);
        assert_eq!(ast.decls[2].ty.base, BaseType::IntIn(IntSet::from_values([1, 5])));
        assert_eq!(ast.constraints[0].name, "int_lin_le");
        assert_eq!(ast.constraints[0].pos, Pos { line: 6, column: 1 });
        assert!(matches!(ast.solve.goal, Goal::Minimize(Expr::Ident(_))));
    }

    #[test]
    fn errors_have_places() {
        let err = parse("var 1..3: x;\nconstraint int_le(x 3);\nsolve satisfy;").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 21: syntax error: expected `)`, found `3`"
        );
        let err = parse("var 1..3: x;\n").unwrap_err();
        assert!(err.to_string().contains("no solve item"), "{err}");
    }
}
