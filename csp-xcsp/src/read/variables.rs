//! Variables and arrays: `<var>`, `<array>` (with `<domain for="...">`), domains, and the
//! names that select variables (`x`, `x[3]`, `x[]`, `x[1..2][]`).

use std::sync::Arc;

use csp_core::{Domain, ModelSize, VarId, domain_words};

use super::{Named, Reader};
use crate::error::{Error, Result};
use crate::limits::MAX_VARIABLES;
use crate::xml::Node;

/// The widest span a domain may have (`max - min + 1`): csp-core's limit.
const MAX_SPAN: i64 = csp_core::MAX_DOMAIN_SPAN;

/// A domain may always span this many values; beyond, at most [`BITS_PER_VALUE`] times its
/// number of values.
const FREE_SPAN: i64 = 1 << 20;

/// The most bits of its span a domain may spend per value it holds: csp stores a domain as
/// one bit per integer from its smallest value to its largest, and operations such as
/// finding the smallest value scan those bits, so a domain of a few values spread far apart
/// would cost memory and time out of proportion with what it holds.
const BITS_PER_VALUE: i64 = 64;

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

/// The values from a domain's smallest to its largest: what its bits cover.
fn span_of(domain: &Domain) -> u64 {
    (i64::from(domain.max()) - i64::from(domain.min()) + 1) as u64
}

/// Whether `id` is an XCSP3 identifier: a letter or `_`, then letters, digits and `_`.
fn is_identifier(id: &str) -> bool {
    let mut bytes = id.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `x[2][]` -> (`x`, `[2][]`).
pub(crate) fn split_name(tok: &str) -> (&str, &str) {
    match tok.find('[') {
        Some(i) => (&tok[..i], &tok[i..]),
        None => (tok, ""),
    }
}

impl<'d, 'a> Reader<'d, 'a, '_> {
    fn declare(&mut self, node: Node, id: &str, named: Named) -> Result<()> {
        self.check_id(node, id)?;
        self.names.insert(id.to_string(), named);
        Ok(())
    }

    /// Refuses an id that is not an identifier or is declared already.
    fn check_id(&self, node: Node, id: &str) -> Result<()> {
        if !is_identifier(id) {
            return Err(self.syntax(
                "",
                node,
                format!(
                    "`{id}` is not an identifier (XCSP3 ids are a letter or `_` followed by \
                     letters, digits and `_`)"
                ),
            ));
        }
        if self.names.contains_key(id) {
            return Err(self.syntax("", node, format!("the id `{id}` is declared twice")));
        }
        Ok(())
    }

    /// Adds a variable, within the limit on their number.
    fn add_var(&mut self, node: Node, name: &str, domain: Domain) -> Result<VarId> {
        if self.model.num_vars() >= MAX_VARIABLES {
            return Err(self.out_of_range(
                "",
                node,
                format!("more than {MAX_VARIABLES} variables (csp's limit)"),
            ));
        }
        self.budget.step()?;
        Ok(self.model.add_named_var(name, domain))
    }

    /// Checks that `variables` more variables whose domains take `words` words keep the
    /// model within csp's memory cap, and counts their words when `commit`. `what` names
    /// them in the error.
    fn reserve_memory(
        &mut self,
        node: Node,
        what: &str,
        variables: u64,
        words: u64,
        commit: bool,
    ) -> Result<()> {
        let all_vars = self.model.num_vars() as u64 + variables;
        let all_words = self.domain_words.saturating_add(words);
        ModelSize {
            variables: all_vars,
            words: all_words,
            ..self.model.size()
        }
        .check()
        .map_err(|e| self.out_of_range("", node, format!("{what}: with it, {e}")))?;
        if commit {
            self.domain_words = all_words;
        }
        Ok(())
    }

    /// The children of `<variables>`.
    pub(crate) fn variables(&mut self, node: Node<'d, 'a>) -> Result<()> {
        for child in node.children() {
            if let Some(t) = child.attribute("type") {
                if t != "integer" {
                    return Err(self.unsupported(child, format!("variable type `{t}` (only integer)")));
                }
            }
            let Some(id) = child.attribute("id") else {
                return Err(self.syntax("", child, "a variable without an id"));
            };
            match child.name() {
                "var" => {
                    let domain = if let Some(other) = child.attribute("as") {
                        match self.names.get(other) {
                            Some(Named::Var(v)) => self.model.domain(*v).clone(),
                            _ => return Err(self.unknown(other, child)),
                        }
                    } else {
                        let text = self.content(child)?;
                        self.domain(text, child)?
                    };
                    self.check_id(child, id)?;
                    let words = domain_words(span_of(&domain));
                    self.reserve_memory(child, &format!("variable `{id}`"), 1, words, true)?;
                    let v = self.add_var(child, id, domain)?;
                    self.names.insert(id.to_string(), Named::Var(v));
                }
                "array" => self.array(child, id)?,
                other => return Err(self.unsupported(child, format!("element <{other}>"))),
            }
        }
        Ok(())
    }

    /// A domain: values and intervals (`0..3 5 8..9`).
    pub(crate) fn domain(&self, text: &str, node: Node) -> Result<Domain> {
        let toks = super::tokens(text);
        if toks.is_empty() {
            return Err(self.syntax(text, node, "an empty domain"));
        }
        let mut pieces: Vec<(i32, i32)> = Vec::with_capacity(toks.len());
        for t in &toks {
            let piece = match t.split_once("..") {
                Some((a, b)) => {
                    let (lo, hi) = (self.int32(a, node)?, self.int32(b, node)?);
                    if lo > hi {
                        return Err(self.syntax(t, node, format!("the interval `{t}` is empty")));
                    }
                    (lo, hi)
                }
                None => {
                    let v = self.int32(t, node)?;
                    (v, v)
                }
            };
            pieces.push(piece);
        }
        let lo = pieces.iter().map(|p| p.0).min().expect("not empty");
        let hi = pieces.iter().map(|p| p.1).max().expect("not empty");
        let span = i64::from(hi) - i64::from(lo) + 1;
        if span > MAX_SPAN {
            return Err(self.out_of_range(
                text,
                node,
                format!(
                    "the domain spans {span} values from {lo} to {hi}; csp stores a domain as one bit \
                     per value between its smallest and largest, and allows at most {MAX_SPAN}"
                ),
            ));
        }
        if span > FREE_SPAN {
            let count: i64 = pieces.iter().map(|p| i64::from(p.1) - i64::from(p.0) + 1).sum();
            if span > BITS_PER_VALUE.saturating_mul(count) {
                return Err(self.out_of_range(
                    text,
                    node,
                    format!(
                        "the domain has at most {count} values spread over {span} (from {lo} to {hi}); \
                         csp stores a domain as one bit per value between its smallest and largest, \
                         and allows a domain wider than {FREE_SPAN} only if it spans at most \
                         {BITS_PER_VALUE} times its number of values"
                    ),
                ));
            }
        }
        if pieces.len() == 1 {
            return Domain::range(lo, hi).map_err(|e| self.out_of_range(text, node, e.to_string()));
        }
        let mut values = Vec::new();
        for (a, b) in pieces {
            values.extend(a..=b);
        }
        Domain::from_values(values).map_err(|e| self.out_of_range(text, node, e.to_string()))
    }

    fn array(&mut self, node: Node<'d, 'a>, id: &str) -> Result<()> {
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
        let Some(total) = total.filter(|&t| t <= MAX_VARIABLES) else {
            return Err(self.out_of_range(
                "",
                node,
                format!("array size `{size}` is too large (at most {MAX_VARIABLES} cells)"),
            ));
        };
        // The cells' tables are made before their domains are known: at least one word each.
        let what = format!("array `{id}` of {total} cells");
        self.reserve_memory(node, &what, total as u64, total as u64, false)?;
        let index = self.arrays.len();
        self.declare(node, id, Named::Array(index))?;
        self.arrays.push(Array {
            name: id.to_string(),
            dims: dims.clone(),
            cells: vec![None; total],
        });
        let mut domains: Vec<Option<Arc<Domain>>> = vec![None; total];
        if node.has_children() {
            for d in node.children() {
                if d.name() != "domain" {
                    return Err(self.unsupported(d, format!("element <{}> in an array", d.name())));
                }
                let domain = Arc::new(match d.attribute("as") {
                    Some(other) => match self.names.get(other) {
                        Some(Named::Var(v)) => self.model.domain(*v).clone(),
                        _ => return Err(self.unknown(other, d)),
                    },
                    None => self.domain(self.content(d)?, d)?,
                });
                let Some(target) = d.attribute("for") else {
                    return Err(self.syntax("", d, "<domain> without `for`"));
                };
                if target.trim() == "others" {
                    for slot in domains.iter_mut().filter(|s| s.is_none()) {
                        *slot = Some(domain.clone());
                    }
                    continue;
                }
                for t in super::tokens(target) {
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
        let (mut defined, mut words) = (0u64, 0u64);
        for dom in domains.iter().flatten() {
            self.budget.step()?;
            defined += 1;
            words += domain_words(span_of(dom));
        }
        self.reserve_memory(node, &what, defined, words, true)?;
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
                let v = self.add_var(node, &name, (*dom).clone())?;
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
    pub(crate) fn select(&self, index: usize, tok: &str, node: Node) -> Result<Vec<usize>> {
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
        let outside = || self.out_of_range(tok, node, format!("index out of the array in `{tok}`"));
        let mut bounds = Vec::with_capacity(ranges.len());
        for (k, r) in ranges.iter().enumerate() {
            let n = array.dims[k];
            let r = r.trim();
            if n == 0 && r.is_empty() {
                return Ok(Vec::new());
            }
            let (lo, hi) = if r.is_empty() {
                (0, n - 1)
            } else if let Some((a, b)) = r.split_once("..") {
                let lo = usize::try_from(self.int(a.trim(), node)?).map_err(|_| outside())?;
                let hi = usize::try_from(self.int(b.trim(), node)?).map_err(|_| outside())?;
                (lo, hi)
            } else {
                let i = usize::try_from(self.int(r, node)?).map_err(|_| outside())?;
                (i, i)
            };
            if lo > hi || hi >= n {
                return Err(self.unknown(tok, node));
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

    /// The sizes of the dimensions `tok` ranges over (`x[][2]` on a 3x4 array: `[3]`).
    pub(crate) fn shape_of(&self, tok: &str, dims: &[usize]) -> Vec<usize> {
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

    /// The variables `tok` names (`x`, `x[3]`, `x[]`, `x[1..2][]`), with the sizes of the
    /// dimensions it ranges over.
    pub(crate) fn vars_of(&self, tok: &str, node: Node) -> Result<(Vec<VarId>, Vec<usize>)> {
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
                        None => Err(self.unknown(tok, node)),
                    };
                }
                let shape = self.shape_of(tok, &array.dims);
                Ok((cells.iter().filter_map(|&c| array.cells[c]).collect(), shape))
            }
            _ => Err(Error::UnknownVariable {
                position: self.pos_str(tok, node),
                name: tok.to_string(),
            }),
        }
    }

    /// The one variable `tok` names.
    pub(crate) fn single_var(&self, tok: &str, node: Node) -> Result<VarId> {
        let (vars, shape) = self.vars_of(tok, node)?;
        if !shape.is_empty() || vars.len() != 1 {
            return Err(self.syntax(tok, node, format!("expected one variable, found `{tok}`")));
        }
        Ok(vars[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        for ok in ["x", "_a1", "Queens_8"] {
            assert!(is_identifier(ok), "{ok}");
        }
        for bad in ["", "1x", "x[0]", "a b", "xé", "x-y"] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }
}
