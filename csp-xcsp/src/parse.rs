//! XCSP3 XML to variables (in a csp-core [`Model`]) and constraints ([`Located`]).

use std::collections::HashMap;
use std::sync::Arc;

use csp_core::{Domain, Model, VarId};
use roxmltree::{Document, Node};

use crate::error::{Error, Position, Result};
use crate::ir::{Cell, CmpOp, Condition, Constraint, Ex, Located, Op, Operand, Table, operand_count};

/// The widest interval expanded value by value (the span csp-core domains allow).
const MAX_SPAN: i64 = 1 << 26;

/// What a declared name stands for.
#[derive(Clone, Copy, Debug)]
enum Named {
    Var(VarId),
    Array(usize),
}

/// A declared array: its shape and its cells in row-major order (`None`: no domain, the
/// cell does not exist).
#[derive(Clone, Debug)]
pub struct Array {
    /// The array's name.
    pub name: String,
    /// The size of each dimension.
    pub dims: Vec<usize>,
    /// The variables, row-major; `None` for cells that were given no domain.
    pub cells: Vec<Option<VarId>>,
}

/// The arguments a `group` or `slide` hands its template (`%0`, `%1`, ..., `%...`).
struct Ctx<'c> {
    args: &'c [Ex],
    /// Where `%...` starts: one past the largest `%i` of the template.
    rest: usize,
}

/// What the reader produced.
pub(crate) struct Parsed {
    pub model: Model,
    pub arrays: Vec<Array>,
    pub constraints: Vec<Located>,
}

pub(crate) struct Reader<'d, 'input> {
    doc: &'d Document<'input>,
    src: &'input str,
    model: Model,
    names: HashMap<String, Named>,
    arrays: Vec<Array>,
    constraints: Vec<Located>,
    tables: HashMap<usize, Arc<Table>>,
    /// The byte offset where each line starts.
    lines: Vec<usize>,
}

fn is_blank(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_whitespace())
}

/// Splits `text` on whitespace outside parentheses; the pieces are slices of `text`.
fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start: Option<usize> = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        if b.is_ascii_whitespace() && depth <= 0 {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The largest `%i` in the template's text, if any.
fn max_percent(node: Node) -> Option<usize> {
    let mut best: Option<usize> = None;
    for d in node.descendants() {
        if let Some(t) = d.is_text().then(|| d.text()).flatten() {
            let b = t.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'%' {
                    let mut j = i + 1;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j > i + 1 {
                        if let Ok(k) = t[i + 1..j].parse::<usize>() {
                            best = Some(best.map_or(k, |x| x.max(k)));
                        }
                    }
                    i = j;
                } else {
                    i += 1;
                }
            }
        }
    }
    best
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    s.parse::<i64>().ok()
}

fn looks_numeric(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl<'d, 'input> Reader<'d, 'input> {
    pub(crate) fn new(doc: &'d Document<'input>, src: &'input str) -> Self {
        Reader {
            doc,
            src,
            model: Model::new(),
            names: HashMap::new(),
            arrays: Vec::new(),
            constraints: Vec::new(),
            tables: HashMap::new(),
            lines: std::iter::once(0)
                .chain(
                    src.bytes()
                        .enumerate()
                        .filter(|&(_, b)| b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect(),
        }
    }

    // ----- positions and errors -----

    fn pos_at(&self, offset: usize) -> Position {
        let line = self.lines.partition_point(|&start| start <= offset).max(1);
        let start = self.lines[line - 1];
        let column = self.src.get(start..offset).map_or(1, |s| s.chars().count() + 1);
        Position {
            line: line as u32,
            column: column as u32,
        }
    }

    fn pos_node(&self, node: Node) -> Position {
        self.pos_at(node.range().start)
    }

    /// Where `s` is, if it is a slice of the input; otherwise where `node` is.
    fn pos_str(&self, s: &str, node: Node) -> Position {
        let base = self.src.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        if p >= base && p <= base + self.src.len() {
            self.pos_at(p - base)
        } else {
            self.pos_node(node)
        }
    }

    fn syntax(&self, s: &str, node: Node, message: impl Into<String>) -> Error {
        Error::Syntax {
            position: self.pos_str(s, node),
            message: message.into(),
        }
    }

    fn unsupported(&self, node: Node, what: impl Into<String>) -> Error {
        Error::Unsupported {
            position: self.pos_node(node),
            what: what.into(),
        }
    }

    fn out_of_range(&self, s: &str, node: Node, message: impl Into<String>) -> Error {
        Error::ValueOutOfRange {
            position: self.pos_str(s, node),
            message: message.into(),
        }
    }

    /// The text of an element that holds only text (comments allowed).
    fn content(&self, node: Node<'d, 'input>) -> Result<&'d str> {
        let mut found: Option<&'d str> = None;
        for c in node.children() {
            if c.is_element() {
                return Err(self.syntax(
                    "",
                    c,
                    format!(
                        "<{}> cannot hold an element <{}> here",
                        node.tag_name().name(),
                        c.tag_name().name()
                    ),
                ));
            }
            if let Some(t) = c.is_text().then(|| c.text()).flatten() {
                if !is_blank(t) {
                    if found.is_some() {
                        return Err(self.syntax("", node, "text in several pieces"));
                    }
                    found = Some(t);
                }
            }
        }
        Ok(found.unwrap_or(""))
    }

    fn int(&self, s: &str, node: Node) -> Result<i64> {
        if looks_numeric(s) {
            parse_int(s).ok_or_else(|| self.out_of_range(s, node, format!("`{s}` does not fit 64 bits")))
        } else {
            Err(self.syntax(s, node, format!("expected an integer, found `{s}`")))
        }
    }

    fn int32(&self, s: &str, node: Node) -> Result<i32> {
        let v = self.int(s, node)?;
        i32::try_from(v).map_err(|_| self.out_of_range(s, node, format!("{v} does not fit 32 bits")))
    }

    // ----- the document -----

    pub(crate) fn read(mut self) -> Result<Parsed> {
        let root = self.doc.root_element();
        if root.tag_name().name() != "instance" {
            return Err(self.unsupported(
                root,
                format!("root element <{}> (expected <instance>)", root.tag_name().name()),
            ));
        }
        match root.attribute("type") {
            Some("CSP") | None => {}
            Some(t) => {
                return Err(self.unsupported(
                    root,
                    format!("instance type `{t}` (only CSP; optimisation is outside the subset)"),
                ));
            }
        }
        for child in root.children().filter(|c| c.is_element()) {
            match child.tag_name().name() {
                "variables" => self.variables(child)?,
                "constraints" => {
                    for c in child.children().filter(|c| c.is_element()) {
                        self.constraint(c, None)?;
                    }
                }
                "annotations" => {}
                other => return Err(self.unsupported(child, format!("element <{other}>"))),
            }
        }
        Ok(Parsed {
            model: self.model,
            arrays: self.arrays,
            constraints: self.constraints,
        })
    }

    // ----- variables -----

    fn declare(&mut self, node: Node, id: &str, named: Named) -> Result<()> {
        if id.is_empty() || self.names.contains_key(id) {
            return Err(self.syntax("", node, format!("the id `{id}` is empty or declared twice")));
        }
        self.names.insert(id.to_string(), named);
        Ok(())
    }

    fn variables(&mut self, node: Node<'d, 'input>) -> Result<()> {
        for child in node.children().filter(|c| c.is_element()) {
            if let Some(t) = child.attribute("type") {
                if t != "integer" {
                    return Err(self.unsupported(child, format!("variable type `{t}` (only integer)")));
                }
            }
            let Some(id) = child.attribute("id") else {
                return Err(self.syntax("", child, "a variable without an id"));
            };
            match child.tag_name().name() {
                "var" => {
                    let domain = if let Some(other) = child.attribute("as") {
                        match self.names.get(other) {
                            Some(Named::Var(v)) => self.model.domain(*v).clone(),
                            _ => {
                                return Err(Error::UnknownVariable {
                                    position: self.pos_node(child),
                                    name: other.to_string(),
                                });
                            }
                        }
                    } else {
                        let text = self.content(child)?;
                        self.domain(text, child)?
                    };
                    let v = self.model.add_named_var(id, domain);
                    self.declare(child, id, Named::Var(v))?;
                }
                "array" => self.array(child, id)?,
                other => return Err(self.unsupported(child, format!("element <{other}>"))),
            }
        }
        Ok(())
    }

    fn domain(&self, text: &str, node: Node) -> Result<Domain> {
        let toks = tokens(text);
        if toks.is_empty() {
            return Err(self.syntax(text, node, "an empty domain"));
        }
        if toks.len() == 1 {
            if let Some((a, b)) = toks[0].split_once("..") {
                let (lo, hi) = (self.int32(a, node)?, self.int32(b, node)?);
                return Domain::range(lo, hi).map_err(|e| self.out_of_range(toks[0], node, e.to_string()));
            }
        }
        let mut values = Vec::new();
        for t in &toks {
            if let Some((a, b)) = t.split_once("..") {
                let (lo, hi) = (self.int32(a, node)?, self.int32(b, node)?);
                if i64::from(hi) - i64::from(lo) > MAX_SPAN {
                    return Err(self.out_of_range(t, node, "the interval is too wide"));
                }
                values.extend(lo..=hi);
            } else {
                values.push(self.int32(t, node)?);
            }
        }
        Domain::from_values(values).map_err(|e| self.out_of_range(text, node, e.to_string()))
    }

    fn array(&mut self, node: Node<'d, 'input>, id: &str) -> Result<()> {
        let size = node.attribute("size").unwrap_or("");
        let mut dims = Vec::new();
        let mut rest = size.trim();
        while let Some(r) = rest.strip_prefix('[') {
            let Some((n, r2)) = r.split_once(']') else { break };
            let n: usize = n
                .trim()
                .parse()
                .map_err(|_| self.syntax("", node, format!("bad array size `{size}`")))?;
            dims.push(n);
            rest = r2.trim_start();
        }
        if dims.is_empty() || !rest.is_empty() {
            return Err(self.syntax("", node, format!("bad array size `{size}`")));
        }
        let total = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
        let Some(total) = total.filter(|&t| t <= 50_000_000) else {
            return Err(self.out_of_range("", node, format!("array size `{size}` is too large")));
        };
        let index = self.arrays.len();
        self.arrays.push(Array {
            name: id.to_string(),
            dims: dims.clone(),
            cells: vec![None; total],
        });
        self.declare(node, id, Named::Array(index))?;
        let mut domains: Vec<Option<Arc<Domain>>> = vec![None; total];
        let has_domain_children = node.children().any(|c| c.is_element());
        if has_domain_children {
            for d in node.children().filter(|c| c.is_element()) {
                if d.tag_name().name() != "domain" {
                    return Err(self.unsupported(d, format!("element <{}> in an array", d.tag_name().name())));
                }
                let domain = Arc::new(self.domain(self.content(d)?, d)?);
                let Some(target) = d.attribute("for") else {
                    return Err(self.syntax("", d, "<domain> without `for`"));
                };
                if target.trim() == "others" {
                    for slot in domains.iter_mut().filter(|s| s.is_none()) {
                        *slot = Some(domain.clone());
                    }
                    continue;
                }
                for t in tokens(target) {
                    let (name, _) = split_name(t);
                    if name != id {
                        return Err(self.syntax(t, d, format!("`{t}` is not a cell of array `{id}`")));
                    }
                    for cell in self.select(index, t, d)? {
                        domains[cell] = Some(domain.clone());
                    }
                }
            }
        } else {
            let domain = Arc::new(self.domain(self.content(node)?, node)?);
            domains.iter_mut().for_each(|s| *s = Some(domain.clone()));
        }
        let mut name = String::new();
        let mut idx = vec![0usize; dims.len()];
        for (cell, dom) in domains.into_iter().enumerate() {
            if let Some(dom) = dom {
                name.clear();
                name.push_str(id);
                for i in &idx {
                    name.push('[');
                    name.push_str(&i.to_string());
                    name.push(']');
                }
                let v = self.model.add_named_var(name.as_str(), (*dom).clone());
                self.arrays[index].cells[cell] = Some(v);
            }
            for k in (0..dims.len()).rev() {
                idx[k] += 1;
                if idx[k] < dims[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
        Ok(())
    }

    /// The cells (row-major indices) of array `index` that `tok` (`x[2][]`, `x[0..3][1]`)
    /// selects, defined or not.
    fn select(&self, index: usize, tok: &str, node: Node) -> Result<Vec<usize>> {
        let array = &self.arrays[index];
        let (_, mut rest) = split_name(tok);
        let mut ranges = Vec::new();
        while let Some(r) = rest.strip_prefix('[') {
            let Some((inner, r2)) = r.split_once(']') else {
                return Err(self.syntax(tok, node, format!("unclosed `[` in `{tok}`")));
            };
            ranges.push(inner);
            rest = r2;
        }
        if !rest.is_empty() {
            return Err(self.syntax(tok, node, format!("bad variable reference `{tok}`")));
        }
        if ranges.len() != array.dims.len() {
            return Err(self.syntax(
                tok,
                node,
                format!(
                    "`{tok}`: array `{}` has {} dimensions",
                    array.name,
                    array.dims.len()
                ),
            ));
        }
        let mut bounds = Vec::with_capacity(ranges.len());
        for (k, r) in ranges.iter().enumerate() {
            let n = array.dims[k];
            let r = r.trim();
            let (lo, hi) = if r.is_empty() {
                (0, n.saturating_sub(1))
            } else if let Some((a, b)) = r.split_once("..") {
                (self.int(a, node)?, self.int(b, node)?)
                    .try_into_usize()
                    .ok_or_else(|| {
                        self.out_of_range(tok, node, format!("index out of the array in `{tok}`"))
                    })?
            } else {
                let i = self.int(r, node)?;
                let i = usize::try_from(i).map_err(|_| {
                    self.out_of_range(tok, node, format!("index out of the array in `{tok}`"))
                })?;
                (i, i)
            };
            if n == 0 && r.is_empty() {
                return Ok(Vec::new());
            }
            if lo > hi || hi >= n {
                return Err(Error::UnknownVariable {
                    position: self.pos_str(tok, node),
                    name: tok.to_string(),
                });
            }
            bounds.push((lo, hi));
        }
        let mut out = Vec::new();
        let mut idx: Vec<usize> = bounds.iter().map(|b| b.0).collect();
        loop {
            let mut flat = 0;
            for (k, &i) in idx.iter().enumerate() {
                flat = flat * array.dims[k] + i;
            }
            out.push(flat);
            let mut k = idx.len();
            loop {
                if k == 0 {
                    return Ok(out);
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] <= bounds[k].1 {
                    break;
                }
                idx[k] = bounds[k].0;
            }
        }
    }

    /// The variables `tok` names (`x`, `x[3]`, `x[]`, `x[1..2][]`), with the sizes of the
    /// dimensions it ranges over.
    fn vars_of(&self, tok: &str, node: Node) -> Result<(Vec<VarId>, Vec<usize>)> {
        let (name, rest) = split_name(tok);
        match self.names.get(name) {
            Some(Named::Var(v)) if rest.is_empty() => Ok((vec![*v], Vec::new())),
            Some(Named::Array(a)) if !rest.is_empty() => {
                let cells = self.select(*a, tok, node)?;
                let array = &self.arrays[*a];
                let single = !tok.contains("[]") && !tok.contains("..");
                if single {
                    return match array.cells[cells[0]] {
                        Some(v) => Ok((vec![v], Vec::new())),
                        None => Err(Error::UnknownVariable {
                            position: self.pos_str(tok, node),
                            name: tok.to_string(),
                        }),
                    };
                }
                let shape = shape_of(tok, &array.dims);
                Ok((cells.iter().filter_map(|&c| array.cells[c]).collect(), shape))
            }
            _ => Err(Error::UnknownVariable {
                position: self.pos_str(tok, node),
                name: tok.to_string(),
            }),
        }
    }

    fn single_var(&self, tok: &str, node: Node) -> Result<VarId> {
        let (vars, shape) = self.vars_of(tok, node)?;
        if !shape.is_empty() || vars.len() != 1 {
            return Err(self.syntax(tok, node, format!("expected one variable, found `{tok}`")));
        }
        Ok(vars[0])
    }

    // ----- lists and expressions -----

    /// The items of a list: variables (compact forms expanded), integers, expressions, and
    /// the template's arguments.
    fn list(&self, text: &str, node: Node, ctx: Option<&Ctx>) -> Result<Vec<Ex>> {
        let mut out = Vec::new();
        for t in tokens(text) {
            self.item(t, node, ctx, &mut out)?;
        }
        Ok(out)
    }

    fn item(&self, t: &str, node: Node, ctx: Option<&Ctx>, out: &mut Vec<Ex>) -> Result<()> {
        if let Some(p) = t.strip_prefix('%') {
            let Some(ctx) = ctx else {
                return Err(self.syntax(t, node, format!("`{t}` outside a group or slide")));
            };
            if p == "..." {
                out.extend(ctx.args.iter().skip(ctx.rest).cloned());
            } else {
                let i: usize = p
                    .parse()
                    .map_err(|_| self.syntax(t, node, format!("bad parameter `{t}`")))?;
                let a = ctx.args.get(i).ok_or_else(|| {
                    self.syntax(
                        t,
                        node,
                        format!("`{t}` but only {} arguments are given", ctx.args.len()),
                    )
                })?;
                out.push(a.clone());
            }
        } else if looks_numeric(t) {
            out.push(Ex::Int(self.int(t, node)?));
        } else if t.contains('(') {
            out.push(self.expr(t, node, ctx)?);
        } else {
            let (vars, _) = self.vars_of(t, node)?;
            out.extend(vars.into_iter().map(Ex::Var));
        }
        Ok(())
    }

    fn list_vars(&self, text: &str, node: Node, ctx: Option<&Ctx>) -> Result<Vec<VarId>> {
        self.list(text, node, ctx)?
            .into_iter()
            .map(|e| match e {
                Ex::Var(v) => Ok(v),
                other => Err(self.unsupported(
                    node,
                    format!("a non-variable item `{}` in this list", show(&other, &self.model)),
                )),
            })
            .collect()
    }

    fn expr(&self, text: &str, node: Node, ctx: Option<&Ctx>) -> Result<Ex> {
        let mut p = ExprParser {
            r: self,
            text,
            at: 0,
            node,
            ctx,
        };
        let e = p.expr()?;
        p.skip_ws();
        if p.at != text.len() {
            return Err(self.syntax(
                &text[p.at..],
                node,
                format!("unexpected `{}` after the expression", &text[p.at..]),
            ));
        }
        Ok(e)
    }

    fn condition(&self, text: &str, node: Node, ctx: Option<&Ctx>) -> Result<Condition> {
        let t = text.trim();
        let inner = t
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .ok_or_else(|| {
                self.syntax(
                    t,
                    node,
                    format!("expected a condition `(op,operand)`, found `{t}`"),
                )
            })?;
        let (op, operand) = inner.split_once(',').ok_or_else(|| {
            self.syntax(
                t,
                node,
                format!("expected a condition `(op,operand)`, found `{t}`"),
            )
        })?;
        let (op, operand) = (op.trim(), operand.trim());
        let op = match op {
            "lt" => CmpOp::Lt,
            "le" => CmpOp::Le,
            "ge" => CmpOp::Ge,
            "gt" => CmpOp::Gt,
            "eq" => CmpOp::Eq,
            "ne" => CmpOp::Ne,
            "in" => CmpOp::In,
            "notin" => CmpOp::NotIn,
            _ => return Err(self.unsupported(node, format!("condition operator `{op}`"))),
        };
        let set_like = matches!(op, CmpOp::In | CmpOp::NotIn);
        let operand = if let Some((a, b)) = operand.split_once("..").filter(|_| !operand.starts_with('%')) {
            Operand::Range(self.int(a.trim(), node)?, self.int(b.trim(), node)?)
        } else if let Some(body) = operand
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .or_else(|| operand.strip_prefix("set(").and_then(|s| s.strip_suffix(')')))
        {
            let mut values = Vec::new();
            for v in body.split([',', ' ', '\t', '\n', '\r']).filter(|s| !s.is_empty()) {
                values.push(self.int(v, node)?);
            }
            Operand::Set(values)
        } else {
            let mut items = Vec::new();
            self.item(operand, node, ctx, &mut items)?;
            match items.as_slice() {
                [Ex::Int(k)] => Operand::Int(*k),
                [Ex::Var(v)] => Operand::Var(*v),
                _ => return Err(self.syntax(operand, node, format!("bad operand `{operand}`"))),
            }
        };
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

    // ----- constraints -----

    fn push(&mut self, node: Node, constraint: Constraint) {
        let position = self.pos_node(node);
        self.constraints.push(Located { constraint, position });
    }

    fn child<'a>(&self, node: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
        node.children()
            .find(|c| c.is_element() && c.tag_name().name() == name)
    }

    fn require<'a>(&self, node: Node<'a, 'input>, name: &str) -> Result<Node<'a, 'input>> {
        self.child(node, name).ok_or_else(|| {
            self.syntax(
                "",
                node,
                format!("<{}> needs a <{name}> element", node.tag_name().name()),
            )
        })
    }

    fn check_children(&self, node: Node, allowed: &[&str]) -> Result<()> {
        for c in node.children().filter(|c| c.is_element()) {
            let name = c.tag_name().name();
            if !allowed.contains(&name) {
                return Err(self.unsupported(c, format!("element <{name}> in <{}>", node.tag_name().name())));
            }
        }
        Ok(())
    }

    fn constraint(&mut self, node: Node<'d, 'input>, ctx: Option<&Ctx>) -> Result<()> {
        let tag = node.tag_name().name();
        match tag {
            "group" => {
                let mut elems = node.children().filter(|c| c.is_element());
                let Some(template) = elems.next() else {
                    return Err(self.syntax("", node, "an empty <group>"));
                };
                let rest = max_percent(template).map_or(0, |m| m + 1);
                for a in elems {
                    if a.tag_name().name() != "args" {
                        return Err(
                            self.unsupported(a, format!("element <{}> in <group>", a.tag_name().name()))
                        );
                    }
                    let args = self.list(self.content(a)?, a, ctx)?;
                    self.constraint(template, Some(&Ctx { args: &args, rest }))?;
                }
                Ok(())
            }
            "block" => {
                for c in node.children().filter(|c| c.is_element()) {
                    self.constraint(c, ctx)?;
                }
                Ok(())
            }
            "slide" => self.slide(node, ctx),
            "intension" => {
                let text = match self.child(node, "function") {
                    Some(f) => self.content(f)?,
                    None => self.content(node)?,
                };
                let e = self.expr(text, node, ctx)?;
                self.push(node, Constraint::Intension(e));
                Ok(())
            }
            "extension" => self.extension(node, ctx),
            "allDifferent" => self.all_different(node, ctx),
            "sum" => {
                self.check_children(node, &["list", "coeffs", "condition"])?;
                let list_node = self.require(node, "list")?;
                let items = self.list(self.content(list_node)?, list_node, ctx)?;
                let coeffs = match self.child(node, "coeffs") {
                    Some(c) => self.list(self.content(c)?, c, ctx)?,
                    None => vec![Ex::Int(1); items.len()],
                };
                if coeffs.len() != items.len() {
                    return Err(self.syntax(
                        "",
                        node,
                        format!("{} coefficients for {} terms", coeffs.len(), items.len()),
                    ));
                }
                let cond = self.require(node, "condition")?;
                let condition = self.condition(self.content(cond)?, cond, ctx)?;
                self.push(
                    node,
                    Constraint::Sum {
                        terms: coeffs.into_iter().zip(items).collect(),
                        condition,
                    },
                );
                Ok(())
            }
            "element" => self.element(node, ctx),
            "instantiation" => {
                self.check_children(node, &["list", "values"])?;
                let l = self.require(node, "list")?;
                let vars = self.list_vars(self.content(l)?, l, ctx)?;
                let vn = self.require(node, "values")?;
                let text = self.content(vn)?;
                // `vxk` stands for k times v (as in solutions), `*` for any value.
                let mut toks: Vec<&str> = Vec::new();
                for t in tokens(text) {
                    match t.split_once('x') {
                        Some((v, k)) if !v.is_empty() => {
                            let k = self.int(k, vn)?;
                            if !(0..=1 << 26).contains(&k) {
                                return Err(self.out_of_range(t, vn, format!("`{t}`: a bad repeat count")));
                            }
                            toks.extend(std::iter::repeat_n(v, k as usize));
                        }
                        _ => toks.push(t),
                    }
                }
                if toks.len() != vars.len() {
                    return Err(self.syntax(
                        text,
                        vn,
                        format!("{} values for {} variables", toks.len(), vars.len()),
                    ));
                }
                let mut values = Vec::with_capacity(toks.len());
                let mut fixed = Vec::with_capacity(toks.len());
                for (t, &v) in toks.iter().zip(&vars) {
                    if *t == "*" {
                        continue;
                    }
                    fixed.push(v);
                    let k = self.int(t, vn)?;
                    if i32::try_from(k).map_or(true, |k| !self.model.domain(v).contains(k)) {
                        return Err(self.out_of_range(
                            t,
                            vn,
                            format!("{k} is not in the domain of {}", self.model.name(v)),
                        ));
                    }
                    values.push(k);
                }
                self.push(node, Constraint::Instantiation { vars: fixed, values });
                Ok(())
            }
            _ => Err(self.unsupported(node, format!("constraint <{tag}>"))),
        }
    }

    fn slide(&mut self, node: Node<'d, 'input>, ctx: Option<&Ctx>) -> Result<()> {
        let circular = match node.attribute("circular") {
            None | Some("false") => false,
            Some("true") => true,
            Some(x) => return Err(self.syntax("", node, format!("circular=\"{x}\""))),
        };
        let lists: Vec<_> = node
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "list")
            .collect();
        let templates: Vec<_> = node
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() != "list")
            .collect();
        if lists.len() != 1 || templates.len() != 1 {
            return Err(self.unsupported(node, "<slide> with other than one <list> and one constraint"));
        }
        let (list, template) = (lists[0], templates[0]);
        let items = self.list(self.content(list)?, list, ctx)?;
        let arity = max_percent(template).map_or(0, |m| m + 1);
        let attr = |name: &str, default: usize| -> Result<usize> {
            match list.attribute(name) {
                None => Ok(default),
                Some(s) => s.trim().parse::<usize>().ok().filter(|&k| k > 0).ok_or_else(|| {
                    self.syntax("", list, format!("{name}=\"{s}\" is not a positive integer"))
                }),
            }
        };
        let collect = attr("collect", arity)?;
        let offset = attr("offset", 1)?;
        let n = items.len();
        if collect == 0 || n == 0 {
            return Ok(());
        }
        let mut start = 0;
        let mut window = Vec::with_capacity(collect);
        while if circular { start < n } else { start + collect <= n } {
            window.clear();
            window.extend((0..collect).map(|j| items[(start + j) % n].clone()));
            self.constraint(
                template,
                Some(&Ctx {
                    args: &window,
                    rest: arity,
                }),
            )?;
            start += offset;
        }
        Ok(())
    }

    fn extension(&mut self, node: Node<'d, 'input>, ctx: Option<&Ctx>) -> Result<()> {
        self.check_children(node, &["list", "supports", "conflicts"])?;
        let l = self.require(node, "list")?;
        let scope = self.list_vars(self.content(l)?, l, ctx)?;
        let (tnode, supports) = match (self.child(node, "supports"), self.child(node, "conflicts")) {
            (Some(s), None) => (s, true),
            (None, Some(c)) => (c, false),
            _ => return Err(self.syntax("", node, "<extension> needs one <supports> or <conflicts>")),
        };
        let key = tnode.range().start;
        let table = match self.tables.get(&key) {
            Some(t) if t.arity == scope.len() => t.clone(),
            _ => {
                let t = Arc::new(self.table(self.content(tnode)?, tnode, scope.len())?);
                self.tables.insert(key, t.clone());
                t
            }
        };
        self.push(
            node,
            Constraint::Extension {
                scope,
                table,
                supports,
            },
        );
        Ok(())
    }

    fn table(&self, text: &str, node: Node, arity: usize) -> Result<Table> {
        let b = text.as_bytes();
        let mut cells = Vec::new();
        let mut i = 0;
        let skip = |i: &mut usize| {
            while *i < b.len() && b[*i].is_ascii_whitespace() {
                *i += 1;
            }
        };
        if arity == 0 {
            return Err(self.syntax(text, node, "a table over no variable"));
        }
        if arity == 1 && !text.trim_start().starts_with('(') {
            // A unary table: values and intervals.
            for t in tokens(text) {
                if let Some((a, bb)) = t.split_once("..") {
                    let (lo, hi) = (self.int(a, node)?, self.int(bb, node)?);
                    if hi - lo > MAX_SPAN {
                        return Err(self.out_of_range(t, node, "the interval is too wide"));
                    }
                    for v in lo..=hi {
                        if let Ok(v) = i32::try_from(v) {
                            cells.push(Cell::Value(v));
                        }
                    }
                } else if t == "*" {
                    cells.push(Cell::Any);
                } else {
                    cells.push(Cell::Value(self.int32(t, node)?));
                }
            }
            return Ok(Table { arity, cells });
        }
        loop {
            skip(&mut i);
            if i >= b.len() {
                break;
            }
            if b[i] != b'(' {
                return Err(self.syntax(&text[i..], node, "expected `(` to open a tuple"));
            }
            let open = i;
            i += 1;
            let mut count = 0;
            loop {
                skip(&mut i);
                let s = i;
                while i < b.len() && !matches!(b[i], b',' | b')') && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                let tok = &text[s..i];
                if tok == "*" {
                    cells.push(Cell::Any);
                } else if tok.is_empty() && i < b.len() && b[i] == b')' && count == 0 {
                    // `()`: a tuple of no value
                } else {
                    cells.push(Cell::Value(self.int32(tok, node)?));
                }
                count += 1;
                skip(&mut i);
                if i >= b.len() {
                    return Err(self.syntax(&text[open..], node, "unclosed tuple"));
                }
                if b[i] == b')' {
                    i += 1;
                    break;
                }
                if b[i] != b',' {
                    return Err(self.syntax(&text[i..], node, "expected `,` or `)` in a tuple"));
                }
                i += 1;
            }
            if count != arity {
                let end = i.min(text.len());
                return Err(self.syntax(
                    &text[open..end],
                    node,
                    format!(
                        "a tuple of {count} values for {arity} variables: `{}`",
                        &text[open..end]
                    ),
                ));
            }
        }
        Ok(Table { arity, cells })
    }

    fn all_different(&mut self, node: Node<'d, 'input>, ctx: Option<&Ctx>) -> Result<()> {
        self.check_children(node, &["list", "matrix", "except"])?;
        let except_of = |r: &Self| -> Result<Vec<i64>> {
            match r.child(node, "except") {
                None => Ok(Vec::new()),
                Some(e) => {
                    let text = r.content(e)?;
                    if text.trim_start().starts_with('(') {
                        return Err(r.unsupported(e, "<except> with tuples"));
                    }
                    tokens(text).iter().map(|t| r.int(t, e)).collect()
                }
            }
        };
        let except = except_of(self)?;
        let lists: Vec<_> = node
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "list")
            .collect();
        if let Some(m) = self.child(node, "matrix") {
            let rows = self.matrix(self.content(m)?, m, ctx)?;
            let ncols = rows.first().map_or(0, |r| r.len());
            for r in &rows {
                self.push(
                    node,
                    Constraint::AllDifferent {
                        items: r.clone(),
                        except: except.clone(),
                    },
                );
            }
            for j in 0..ncols {
                let col: Vec<Ex> = rows.iter().filter_map(|r| r.get(j).cloned()).collect();
                self.push(
                    node,
                    Constraint::AllDifferent {
                        items: col,
                        except: except.clone(),
                    },
                );
            }
            return Ok(());
        }
        match lists.len() {
            0 => {
                let items = self.list(self.content(node)?, node, ctx)?;
                self.push(node, Constraint::AllDifferent { items, except });
            }
            1 => {
                let items = self.list(self.content(lists[0])?, lists[0], ctx)?;
                self.push(node, Constraint::AllDifferent { items, except });
            }
            _ => {
                let mut ls = Vec::new();
                for l in &lists {
                    ls.push(self.list(self.content(*l)?, *l, ctx)?);
                }
                if ls.iter().any(|l| l.len() != ls[0].len()) {
                    return Err(self.syntax("", node, "lists of different lengths in <allDifferent>"));
                }
                if !except.is_empty() {
                    return Err(self.unsupported(node, "<except> over several lists"));
                }
                self.push(
                    node,
                    Constraint::AllDifferentLists {
                        lists: ls,
                        except: Vec::new(),
                    },
                );
            }
        }
        Ok(())
    }

    /// A matrix: `x[][]` (a two-dimensional selection) or rows `(a,b,c)(d,e,f)`.
    fn matrix(&self, text: &str, node: Node, ctx: Option<&Ctx>) -> Result<Vec<Vec<Ex>>> {
        let t = text.trim();
        if t.starts_with('(') {
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
            return Ok(rows);
        }
        let toks = tokens(t);
        if toks.len() != 1 {
            return Err(self.unsupported(node, "a matrix given other than as `x[][]` or rows `(..)(..)`"));
        }
        let (_, rest) = split_name(toks[0]);
        let (name, _) = split_name(toks[0]);
        let Some(Named::Array(a)) = self.names.get(name) else {
            return Err(Error::UnknownVariable {
                position: self.pos_str(toks[0], node),
                name: toks[0].to_string(),
            });
        };
        let array = &self.arrays[*a];
        let shape = shape_of(toks[0], &array.dims);
        if shape.len() != 2 || rest.is_empty() {
            return Err(self.syntax(
                toks[0],
                node,
                format!("`{}` is not a two-dimensional selection", toks[0]),
            ));
        }
        let cells = self.select(*a, toks[0], node)?;
        let mut rows = Vec::new();
        for chunk in cells.chunks(shape[1]) {
            rows.push(
                chunk
                    .iter()
                    .filter_map(|&c| array.cells[c])
                    .map(Ex::Var)
                    .collect(),
            );
        }
        Ok(rows)
    }

    fn element(&mut self, node: Node<'d, 'input>, ctx: Option<&Ctx>) -> Result<()> {
        self.check_children(node, &["list", "index", "value", "condition"])?;
        if self.child(node, "list").is_none() {
            return Err(self.unsupported(node, "<element> without <list> (matrix form)"));
        }
        let l = self.require(node, "list")?;
        let list = self.list(self.content(l)?, l, ctx)?;
        if list.iter().any(|e| !matches!(e, Ex::Var(_) | Ex::Int(_))) {
            return Err(self.unsupported(l, "expressions in the list of <element>"));
        }
        let start = match l.attribute("startIndex") {
            None => 0,
            Some(s) => self.int(s.trim(), l)?,
        };
        let index = match self.child(node, "index") {
            None => None,
            Some(i) => {
                if let Some(rank) = i.attribute("rank") {
                    if rank != "any" {
                        return Err(self.unsupported(i, format!("rank=\"{rank}\" on <index>")));
                    }
                }
                let items = self.list(self.content(i)?, i, ctx)?;
                match items.as_slice() {
                    [e @ (Ex::Var(_) | Ex::Int(_))] => Some(e.clone()),
                    _ => return Err(self.syntax("", i, "<index> must be one variable")),
                }
            }
        };
        let condition = match (self.child(node, "value"), self.child(node, "condition")) {
            (Some(v), None) => {
                let items = self.list(self.content(v)?, v, ctx)?;
                let operand = match items.as_slice() {
                    [Ex::Var(x)] => Operand::Var(*x),
                    [Ex::Int(k)] => Operand::Int(*k),
                    _ => return Err(self.syntax("", v, "<value> must be one variable or integer")),
                };
                Condition {
                    op: CmpOp::Eq,
                    operand,
                }
            }
            (None, Some(c)) => self.condition(self.content(c)?, c, ctx)?,
            _ => return Err(self.syntax("", node, "<element> needs one <value> or <condition>")),
        };
        self.push(
            node,
            Constraint::Element {
                list,
                index,
                start,
                condition,
            },
        );
        Ok(())
    }
}

trait TryIntoUsize {
    fn try_into_usize(self) -> Option<(usize, usize)>;
}

impl TryIntoUsize for (i64, i64) {
    fn try_into_usize(self) -> Option<(usize, usize)> {
        Some((usize::try_from(self.0).ok()?, usize::try_from(self.1).ok()?))
    }
}

/// `x[2][]` -> (`x`, `[2][]`).
fn split_name(tok: &str) -> (&str, &str) {
    match tok.find('[') {
        Some(i) => (&tok[..i], &tok[i..]),
        None => (tok, ""),
    }
}

/// The sizes of the dimensions a reference ranges over (`x[][2]` on a 3x4 array: `[3]`).
fn shape_of(tok: &str, dims: &[usize]) -> Vec<usize> {
    let (_, mut rest) = split_name(tok);
    let mut shape = Vec::new();
    let mut k = 0;
    while let Some(r) = rest.strip_prefix('[') {
        let Some((inner, r2)) = r.split_once(']') else {
            break;
        };
        let inner = inner.trim();
        if inner.is_empty() {
            shape.push(dims.get(k).copied().unwrap_or(0));
        } else if let Some((a, b)) = inner.split_once("..") {
            let (a, b) = (
                a.trim().parse::<usize>().unwrap_or(0),
                b.trim().parse::<usize>().unwrap_or(0),
            );
            shape.push(b.saturating_sub(a) + 1);
        }
        rest = r2;
        k += 1;
    }
    shape
}

/// An expression in XCSP3 notation, for messages.
pub(crate) fn show(e: &Ex, model: &Model) -> String {
    match e {
        Ex::Int(k) => k.to_string(),
        Ex::Var(v) => model.name(*v).to_string(),
        Ex::Call(op, args) => {
            let inner: Vec<String> = args.iter().map(|a| show(a, model)).collect();
            format!("{}({})", op.name(), inner.join(","))
        }
    }
}

struct ExprParser<'r, 'd, 'input, 't, 'c> {
    r: &'r Reader<'d, 'input>,
    text: &'t str,
    at: usize,
    node: Node<'d, 'input>,
    ctx: Option<&'c Ctx<'c>>,
}

impl ExprParser<'_, '_, '_, '_, '_> {
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

    fn expr(&mut self) -> Result<Ex> {
        self.skip_ws();
        let b = self.text.as_bytes();
        let start = self.at;
        match self.peek() {
            None => Err(self.err("an expression is missing".into())),
            Some(b'%') => {
                self.at += 1;
                while self.at < b.len() && b[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                let tok = &self.text[start..self.at];
                let mut out = Vec::new();
                self.r.item(tok, self.node, self.ctx, &mut out)?;
                Ok(out.pop().expect("one argument"))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => {
                self.at += 1;
                while self.at < b.len() && b[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                Ok(Ex::Int(self.r.int(&self.text[start..self.at], self.node)?))
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                while self.at < b.len() && (b[self.at].is_ascii_alphanumeric() || b[self.at] == b'_') {
                    self.at += 1;
                }
                let name = &self.text[start..self.at];
                self.skip_ws();
                if self.peek() == Some(b'(') {
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
                            args.push(self.expr()?);
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
                        return Err(self.r.syntax(
                            name,
                            self.node,
                            format!(
                                "{name} takes {} operands, got {}",
                                if lo == hi {
                                    lo.to_string()
                                } else {
                                    format!("at least {lo}")
                                },
                                args.len()
                            ),
                        ));
                    }
                    if matches!(op, Op::In | Op::NotIn) && !matches!(&args[1], Ex::Call(Op::Set, _)) {
                        return Err(self.r.syntax(
                            name,
                            self.node,
                            format!("the second operand of {name} must be set(...)"),
                        ));
                    }
                    if name == "eq" && args.len() > 2 {
                        // fine: eq is n-ary
                    }
                    Ok(Ex::Call(op, args))
                } else {
                    if name == "true" || name == "false" {
                        return Ok(Ex::Int(i64::from(name == "true")));
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
                    let tok_trim: String = tok.chars().filter(|c| !c.is_whitespace()).collect();
                    let v = if tok_trim.len() == tok.len() {
                        self.r.single_var(tok, self.node)?
                    } else {
                        self.r.single_var(&tok_trim, self.node)?
                    };
                    Ok(Ex::Var(v))
                }
            }
            Some(_) => Err(self.err(format!("unexpected `{}` in an expression", &self.text[start..]))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_outside_parentheses() {
        assert_eq!(tokens("  a b[1]  add(x, 1) "), vec!["a", "b[1]", "add(x, 1)"]);
    }
}
