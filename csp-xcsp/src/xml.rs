//! The XML of an instance as a small tree of elements over the source text, built in one pass
//! with `quick-xml`: element names, attributes and texts are slices of the source (so that
//! an error inside a text can give its line and column), nesting is bounded, and the time
//! limit is checked while the tree is built.

use std::borrow::Cow;

use quick_xml::events::Event;

use crate::error::{Error, Position, Result};
use crate::limits::{Budget, MAX_ELEMENT_DEPTH};

/// No element: the end of a chain of children or siblings (index 0 is the root, which is
/// nobody's child or sibling).
const NONE: u32 = 0;

/// A parsed document.
pub(crate) struct Document<'a> {
    src: &'a str,
    elements: Vec<Element<'a>>,
    /// The byte offset at which each line starts.
    lines: Vec<u32>,
}

struct Element<'a> {
    name: &'a str,
    /// Where its `<` is.
    offset: u32,
    attributes: Box<[(&'a str, Cow<'a, str>)]>,
    first_child: u32,
    next_sibling: u32,
    text: Text<'a>,
}

/// The character data of an element.
enum Text<'a> {
    None,
    /// One piece, a slice of the source.
    Source(&'a str),
    /// Several pieces (around comments), or text with entity references: joined.
    Owned(String),
}

impl<'a> Text<'a> {
    fn push(&mut self, piece: &'a str) {
        *self = match std::mem::replace(self, Text::None) {
            Text::None => Text::Source(piece),
            Text::Source(s) => Text::Owned(format!("{s}{piece}")),
            Text::Owned(mut s) => {
                s.push_str(piece);
                Text::Owned(s)
            }
        };
    }

    fn push_char(&mut self, c: char) {
        let mut s = match std::mem::replace(self, Text::None) {
            Text::None => String::new(),
            Text::Source(s) => s.to_string(),
            Text::Owned(s) => s,
        };
        s.push(c);
        *self = Text::Owned(s);
    }
}

/// An element of a [`Document`].
#[derive(Clone, Copy)]
pub(crate) struct Node<'d, 'a> {
    doc: &'d Document<'a>,
    index: u32,
}

impl<'a> Document<'a> {
    /// Parses `src`, checking the limits every few thousand events.
    pub(crate) fn parse(src: &'a str, budget: &mut Budget<'_>) -> Result<Document<'a>> {
        let mut lines = vec![0u32];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                lines.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
            }
        }
        let mut doc = Document {
            src,
            elements: Vec::new(),
            lines,
        };
        doc.build(budget)?;
        Ok(doc)
    }

    /// The root element.
    pub(crate) fn root(&self) -> Node<'_, 'a> {
        Node { doc: self, index: 0 }
    }

    /// The line and column of a byte offset.
    pub(crate) fn position(&self, offset: usize) -> Position {
        let offset32 = u32::try_from(offset).unwrap_or(u32::MAX);
        let line = self.lines.partition_point(|&start| start <= offset32).max(1);
        let start = self.lines[line - 1] as usize;
        let column = self.src.get(start..offset).map_or(1, |s| s.chars().count() + 1);
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }

    /// The byte offset of `s` if it is a slice of the source.
    pub(crate) fn offset_of(&self, s: &str) -> Option<usize> {
        let base = self.src.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + self.src.len()).then(|| p - base)
    }

    /// `bytes` as a slice of the source (every slice quick-xml hands out of a `&str` is one).
    fn source_str(&self, bytes: &[u8]) -> Option<&'a str> {
        let base = self.src.as_ptr() as usize;
        let p = bytes.as_ptr() as usize;
        if p < base || p + bytes.len() > base + self.src.len() {
            return None;
        }
        self.src.get(p - base..p - base + bytes.len())
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> Error {
        Error::Xml {
            position: self.position(offset),
            message: message.into(),
        }
    }

    fn build(&mut self, budget: &mut Budget<'_>) -> Result<()> {
        let mut reader = quick_xml::Reader::from_str(self.src);
        let config = reader.config_mut();
        config.trim_text(false);
        config.check_end_names = true;
        config.expand_empty_elements = false;
        // The open elements, with their last child so far.
        let mut open: Vec<(u32, u32)> = Vec::new();
        let mut rooted = false;
        loop {
            let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let event = match reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    let offset = usize::try_from(reader.error_position()).unwrap_or(at);
                    return Err(self.error(offset, e.to_string()));
                }
            };
            budget.step()?;
            match event {
                Event::Start(ref e) | Event::Empty(ref e) => {
                    if open.is_empty() && rooted {
                        return Err(self.error(at, "a second root element"));
                    }
                    if open.len() >= MAX_ELEMENT_DEPTH {
                        return Err(Error::TooDeep {
                            position: self.position(at),
                            what: "XML elements",
                            limit: MAX_ELEMENT_DEPTH,
                        });
                    }
                    rooted = true;
                    let name = self
                        .source_str(e.name().as_ref())
                        .ok_or_else(|| self.error(at, "an element name outside the text"))?;
                    let mut attributes = Vec::new();
                    for attr in e.attributes() {
                        let attr = attr.map_err(|err| self.error(at, err.to_string()))?;
                        let key = self
                            .source_str(attr.key.as_ref())
                            .ok_or_else(|| self.error(at, "an attribute outside the text"))?;
                        let raw = self
                            .source_str(&attr.value)
                            .ok_or_else(|| self.error(at, "an attribute outside the text"))?;
                        let value = if raw.contains('&') {
                            Cow::Owned(
                                attr.unescape_value()
                                    .map_err(|err| self.error(at, err.to_string()))?
                                    .into_owned(),
                            )
                        } else {
                            Cow::Borrowed(raw)
                        };
                        attributes.push((key, value));
                    }
                    let index = u32::try_from(self.elements.len())
                        .map_err(|_| self.error(at, "more than 2^32 elements"))?;
                    self.elements.push(Element {
                        name,
                        offset: u32::try_from(at).unwrap_or(u32::MAX),
                        attributes: attributes.into_boxed_slice(),
                        first_child: NONE,
                        next_sibling: NONE,
                        text: Text::None,
                    });
                    if let Some((parent, last)) = open.last_mut() {
                        if *last == NONE {
                            self.elements[*parent as usize].first_child = index;
                        } else {
                            self.elements[*last as usize].next_sibling = index;
                        }
                        *last = index;
                    }
                    if matches!(event, Event::Start(_)) {
                        open.push((index, NONE));
                    }
                }
                Event::End(_) => {
                    open.pop();
                }
                Event::Text(ref t) => {
                    let piece = self
                        .source_str(t)
                        .ok_or_else(|| self.error(at, "text outside the source"))?;
                    self.add_text(&open, piece, at)?;
                }
                Event::CData(ref t) => {
                    let piece = self
                        .source_str(t)
                        .ok_or_else(|| self.error(at, "text outside the source"))?;
                    self.add_text(&open, piece, at)?;
                }
                Event::GeneralRef(ref r) => {
                    let c = match r.resolve_char_ref() {
                        Ok(Some(c)) => c,
                        Ok(None) => match r.as_ref() {
                            b"lt" => '<',
                            b"gt" => '>',
                            b"amp" => '&',
                            b"apos" => '\'',
                            b"quot" => '"',
                            other => {
                                return Err(self.error(
                                    at,
                                    format!("unknown entity `&{};`", String::from_utf8_lossy(other)),
                                ));
                            }
                        },
                        Err(e) => return Err(self.error(at, e.to_string())),
                    };
                    match open.last() {
                        Some(&(index, _)) => self.elements[index as usize].text.push_char(c),
                        None => return Err(self.error(at, "text outside the root element")),
                    }
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
                Event::Eof => {
                    if let Some(&(index, _)) = open.last() {
                        let e = &self.elements[index as usize];
                        return Err(
                            self.error(self.src.len(), format!("the element <{}> is not closed", e.name))
                        );
                    }
                    if !rooted {
                        return Err(self.error(0, "no root element"));
                    }
                    return Ok(());
                }
            }
        }
    }

    fn add_text(&mut self, open: &[(u32, u32)], piece: &'a str, at: usize) -> Result<()> {
        match open.last() {
            Some(&(index, _)) => {
                let text = &mut self.elements[index as usize].text;
                // Whitespace between child elements is no text.
                if !piece.bytes().all(|b| b.is_ascii_whitespace()) || !matches!(text, Text::None) {
                    text.push(piece);
                }
                Ok(())
            }
            None if piece.bytes().all(|b| b.is_ascii_whitespace()) => Ok(()),
            None => Err(self.error(at, "text outside the root element")),
        }
    }
}

impl<'d, 'a> Node<'d, 'a> {
    fn element(&self) -> &'d Element<'a> {
        &self.doc.elements[self.index as usize]
    }

    /// The element's name.
    pub(crate) fn name(&self) -> &'a str {
        self.element().name
    }

    /// Where its `<` is.
    pub(crate) fn offset(&self) -> usize {
        self.element().offset as usize
    }

    /// The line and column of its `<`.
    pub(crate) fn position(&self) -> Position {
        self.doc.position(self.offset())
    }

    /// The value of an attribute.
    pub(crate) fn attribute(&self, name: &str) -> Option<&'d str> {
        self.element()
            .attributes
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_ref())
    }

    /// The names of its attributes, in order.
    pub(crate) fn attribute_names(&self) -> impl Iterator<Item = &'a str> + 'd {
        self.element().attributes.iter().map(|(k, _)| *k)
    }

    /// Its child elements, in order.
    pub(crate) fn children(&self) -> Children<'d, 'a> {
        Children {
            doc: self.doc,
            next: self.element().first_child,
        }
    }

    /// Whether it has child elements.
    pub(crate) fn has_children(&self) -> bool {
        self.element().first_child != NONE
    }

    /// Its character data (empty if none): a slice of the source unless it came in several
    /// pieces or with entity references.
    pub(crate) fn text(&self) -> &'d str {
        match &self.element().text {
            Text::None => "",
            Text::Source(s) => s,
            Text::Owned(s) => s,
        }
    }
}

/// The child elements of a node.
pub(crate) struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: u32,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = Node<'d, 'a>;

    fn next(&mut self) -> Option<Node<'d, 'a>> {
        if self.next == NONE {
            return None;
        }
        let node = Node {
            doc: self.doc,
            index: self.next,
        };
        self.next = self.doc.elements[self.next as usize].next_sibling;
        Some(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::ReadLimits;

    fn parse(src: &str) -> Result<Document<'_>> {
        let limits = ReadLimits::default();
        Document::parse(src, &mut Budget::new(&limits))
    }

    #[test]
    fn elements_attributes_and_texts() {
        let doc = parse("<a x=\"1\">\n <b> t &lt; u </b><c/><!-- c --><d>p<!-- q -->r</d></a>").unwrap();
        let root = doc.root();
        assert_eq!(root.name(), "a");
        assert_eq!(root.attribute("x"), Some("1"));
        let kids: Vec<_> = root.children().map(|n| n.name()).collect();
        assert_eq!(kids, ["b", "c", "d"]);
        let b = root.children().next().unwrap();
        assert_eq!(b.text(), " t < u ");
        assert_eq!(b.position(), Position { line: 2, column: 2 });
        assert_eq!(root.children().nth(2).unwrap().text(), "pr");
    }

    #[test]
    fn malformed_documents_are_placed() {
        for (src, line) in [
            ("<a>\n<b></a>", 2),
            ("<a>", 1),
            ("<a/><b/>", 1),
            ("<a/> text", 1),
            ("", 1),
        ] {
            let err = parse(src).map(|_| ()).unwrap_err();
            assert_eq!(err.position().map(|p| p.line), Some(line), "{src}: {err}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "<b>".repeat(MAX_ELEMENT_DEPTH + 1);
        let err = parse(&deep).map(|_| ()).unwrap_err();
        assert!(matches!(err, Error::TooDeep { .. }), "{err}");
    }
}
