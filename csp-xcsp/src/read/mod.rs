//! What every part of the reader shares: the document, the model being built (variables and
//! their names), the constraints read so far, and errors placed by line and column.
//!
//! - [`variables`]: `<var>`, `<array>`, domains, and names such as `x[2][]`;
//! - [`lists`]: lists of variables, integers and expressions, conditions, matrices, and the
//!   arguments of `<group>` and `<slide>`;
//! - [`expr`]: the functional expressions of `<intension>`.
//!
//! The constraints themselves are read by their families (the `constraints` module), and
//! the document is walked by the `walk` module.

pub(crate) mod expr;
pub(crate) mod lists;
pub(crate) mod variables;

use std::collections::HashMap;
use std::sync::Arc;

use csp_core::{Model, VarId};

use crate::error::{Error, Position, Result};
use crate::ir::{Constraint, Located, Top, Unit};
use crate::limits::Budget;
use crate::table::Table;
use crate::xml::{Document, Node};

pub use variables::Array;

/// What a declared name stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Named {
    Var(VarId),
    Array(usize),
}

/// The reader's state while it walks a document.
pub(crate) struct Reader<'d, 'a, 'l> {
    pub(crate) doc: &'d Document<'a>,
    pub(crate) model: Model,
    pub(crate) names: HashMap<String, Named>,
    pub(crate) arrays: Vec<Array>,
    pub(crate) constraints: Vec<Located>,
    /// The constraints as the file states them, and the children of `<constraints>`.
    pub(crate) units: Vec<Unit>,
    pub(crate) tops: Vec<Top>,
    /// The tables read, by the offset of their `<supports>` or `<conflicts>` element: a
    /// `<group>` reads its template's table once for all its scopes.
    pub(crate) tables: HashMap<usize, Arc<Table>>,
    pub(crate) budget: Budget<'l>,
    /// The 64-bit words the domains of the declared variables take, all together (see
    /// [`Reader::reserve_memory`]).
    pub(crate) domain_words: u64,
}

impl<'d, 'a, 'l> Reader<'d, 'a, 'l> {
    pub(crate) fn new(doc: &'d Document<'a>, budget: Budget<'l>) -> Self {
        Reader {
            doc,
            model: Model::new(),
            names: HashMap::new(),
            arrays: Vec::new(),
            constraints: Vec::new(),
            units: Vec::new(),
            tops: Vec::new(),
            tables: HashMap::new(),
            budget,
            domain_words: 0,
        }
    }

    // ----- positions and errors -----

    /// Where `s` is, if it is a slice of the input; otherwise where `node` is.
    pub(crate) fn pos_str(&self, s: &str, node: Node) -> Position {
        match self.doc.offset_of(s) {
            Some(offset) => self.doc.position(offset),
            None => node.position(),
        }
    }

    pub(crate) fn syntax(&self, s: &str, node: Node, message: impl Into<String>) -> Error {
        Error::Syntax {
            position: self.pos_str(s, node),
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(&self, node: Node, what: impl Into<String>) -> Error {
        Error::Unsupported {
            position: node.position(),
            what: what.into(),
        }
    }

    pub(crate) fn out_of_range(&self, s: &str, node: Node, message: impl Into<String>) -> Error {
        Error::ValueOutOfRange {
            position: self.pos_str(s, node),
            message: message.into(),
        }
    }

    pub(crate) fn unknown(&self, s: &str, node: Node) -> Error {
        Error::UnknownVariable {
            position: self.pos_str(s, node),
            name: s.to_string(),
        }
    }

    // ----- elements -----

    /// The text of an element that holds only text (comments allowed).
    pub(crate) fn content(&self, node: Node<'d, 'a>) -> Result<&'d str> {
        if let Some(c) = node.children().next() {
            return Err(self.syntax(
                "",
                c,
                format!("<{}> cannot hold an element <{}> here", node.name(), c.name()),
            ));
        }
        Ok(node.text())
    }

    /// The first child element with this name.
    pub(crate) fn child(&self, node: Node<'d, 'a>, name: &str) -> Option<Node<'d, 'a>> {
        node.children().find(|c| c.name() == name)
    }

    /// The child elements with this name.
    pub(crate) fn children_named(&self, node: Node<'d, 'a>, name: &str) -> Vec<Node<'d, 'a>> {
        node.children().filter(|c| c.name() == name).collect()
    }

    /// The child element with this name, which must be there.
    pub(crate) fn require(&self, node: Node<'d, 'a>, name: &str) -> Result<Node<'d, 'a>> {
        self.child(node, name)
            .ok_or_else(|| self.syntax("", node, format!("<{}> needs a <{name}> element", node.name())))
    }

    /// Refuses child elements other than `allowed`.
    pub(crate) fn check_children(&self, node: Node, allowed: &[&str]) -> Result<()> {
        for c in node.children() {
            if !allowed.contains(&c.name()) {
                return Err(self.unsupported(c, format!("element <{}> in <{}>", c.name(), node.name())));
            }
        }
        Ok(())
    }

    /// Records a constraint read at `node`.
    pub(crate) fn push(&mut self, node: Node, constraint: impl Constraint + 'static) -> Result<()> {
        self.budget.step()?;
        // Four `<slide>`s of 330 bytes state 32 million constraints: their records alone
        // would take gigabytes before the first is posted and counted by the model.
        let max = self.budget.limits().max_constraints;
        if self.constraints.len() >= max {
            return Err(self.out_of_range(
                "",
                node,
                format!(
                    "more than {max} constraints (csp's model holds at most {} pairs of variables \
                     under binary constraints, or about 3 million n-ary constraints, within its \
                     2 GiB cap)",
                    csp_core::MAX_CONSTRAINED_PAIRS
                ),
            ));
        }
        self.constraints.push(Located {
            constraint: Box::new(constraint),
            position: node.position(),
            unit: self.units.len().saturating_sub(1),
        });
        Ok(())
    }

    /// Starts a child of `<constraints>`: the constraints read next are inside it.
    pub(crate) fn begin_top(&mut self, node: Node) {
        self.tops.push(Top {
            element: node.name().to_string(),
            id: node.attribute("id").map(str::to_string),
            position: node.position(),
        });
    }

    /// Starts a constraint as the file states it (`element` at `at`; `index` in a group or
    /// slide `parent`): the constraints pushed next belong to it.
    pub(crate) fn begin_unit(&mut self, element: Node, at: Node, parent: Option<Node>, index: Option<usize>) {
        let id = parent.unwrap_or(element).attribute("id").map(str::to_string);
        self.units.push(Unit {
            element: element.name().to_string(),
            id,
            index,
            position: at.position(),
            window: parent.is_some_and(|p| p.name() == "slide"),
            top: self.tops.len().saturating_sub(1),
        });
    }

    // ----- numbers -----

    /// An integer written in `s` (64 bits).
    pub(crate) fn int(&self, s: &str, node: Node) -> Result<i64> {
        if looks_numeric(s) {
            let digits = s.strip_prefix('+').unwrap_or(s);
            digits
                .parse::<i64>()
                .map_err(|_| self.out_of_range(s, node, format!("`{s}` does not fit 64 bits")))
        } else {
            Err(self.syntax(s, node, format!("expected an integer, found `{s}`")))
        }
    }

    /// An integer written in `s` that must fit 32 bits (a value of a variable).
    pub(crate) fn int32(&self, s: &str, node: Node) -> Result<i32> {
        let v = self.int(s, node)?;
        i32::try_from(v).map_err(|_| self.out_of_range(s, node, format!("{v} does not fit 32 bits")))
    }

    /// A non-negative integer attribute (`startIndex`, `offset`...), `default` when absent.
    pub(crate) fn attr_int(&self, node: Node, name: &str, default: i64) -> Result<i64> {
        match node.attribute(name) {
            None => Ok(default),
            Some(s) => self.int(s.trim(), node),
        }
    }
}

/// Splits `text` on whitespace outside parentheses; the pieces are slices of `text`.
pub(crate) fn tokens(text: &str) -> Vec<&str> {
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

/// Whether `s` is written as an integer: an optional sign, then digits.
pub(crate) fn looks_numeric(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}
