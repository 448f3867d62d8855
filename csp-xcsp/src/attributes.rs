//! The attributes csp reads, element by element: any other attribute is refused with its
//! element's line and column, because an attribute the reader ignored could change what the
//! file means (`reifiedBy="b"` makes a constraint optional; `startIndex` on a list where it
//! is not read would shift every index). Only `id`, `class` and `note` (names and comments)
//! and XML namespace declarations are allowed everywhere; `<annotations>` (search hints, which
//! csp does not follow) are not looked into.

use crate::error::{Error, Result};
use crate::xml::Node;

/// The attributes that mean nothing to a solution, allowed on every element.
const EVERYWHERE: [&str; 3] = ["id", "class", "note"];

/// The attributes the reader reads on `element` when it is a child of `parent`.
fn read_on(element: &str, parent: &str) -> &'static [&'static str] {
    match (element, parent) {
        ("instance", _) => &["format", "type"],
        ("var", _) => &["type", "as"],
        ("array", _) => &["size", "type", "as"],
        ("domain", "array") => &["for", "as"],
        // Several objectives are refused, so their combination does not matter.
        ("objectives", _) => &["combination"],
        ("minimize" | "maximize", _) => &["type"],
        ("slide", _) => &["circular"],
        ("list", "slide") => &["offset", "collect"],
        ("list", "element" | "channel" | "minimum" | "maximum" | "circuit" | "binPacking") => &["startIndex"],
        ("matrix", "element") => &["startRowIndex", "startColIndex"],
        ("index", "element" | "minimum" | "maximum") => &["rank"],
        ("values", "cardinality") => &["closed"],
        ("values", "precedence") => &["covered"],
        ("noOverlap", _) => &["zeroIgnored"],
        _ => &[],
    }
}

/// Whether an attribute is a namespace declaration or a qualified name (`xmlns:xsi`,
/// `xsi:noNamespaceSchemaLocation`): XML bookkeeping, not XCSP3.
fn is_namespaced(name: &str) -> bool {
    name == "xmlns" || name.contains(':')
}

/// Refuses, in the whole document under `node` (a child of `parent`), any attribute csp
/// does not read.
pub(crate) fn check(node: Node, parent: &str) -> Result<()> {
    if node.name() == "annotations" {
        return Ok(());
    }
    let known = read_on(node.name(), parent);
    for name in node.attribute_names() {
        if !(EVERYWHERE.contains(&name) || known.contains(&name) || is_namespaced(name)) {
            return Err(Error::Unsupported {
                position: node.position(),
                what: format!(
                    "attribute `{name}` on <{}> (csp would ignore it, and it may change what the instance means)",
                    node.name()
                ),
            });
        }
    }
    node.children().try_for_each(|c| check(c, node.name()))
}

#[cfg(test)]
mod tests {
    use crate::Instance;

    fn read(constraints: &str) -> Result<Instance, crate::Error> {
        Instance::from_str(&format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"x\"> 0..2 </var><var id=\"y\"> 0..2 </var><var id=\"b\"> 0 1 </var></variables><constraints>{constraints}</constraints></instance>"
        ))
    }

    #[test]
    fn unread_attributes_are_refused_with_their_place() {
        for c in [
            "<intension reifiedBy=\"b\"> lt(x,y) </intension>",
            "<sum hreifiedFrom=\"b\"><list> x y </list><condition> (eq,1) </condition></sum>",
            "<allDifferent><list startIndex=\"1\"> x y </list></allDifferent>",
            "<intension violable=\"true\"> lt(x,y) </intension>",
        ] {
            let err = read(c).expect_err(c).to_string();
            assert!(err.contains("attribute") && err.contains("line 1"), "{c}: {err}");
        }
    }

    #[test]
    fn names_notes_and_read_attributes_are_accepted() {
        for c in [
            "<intension id=\"c1\" note=\"x before y\" class=\"order\"> lt(x,y) </intension>",
            "<element><list startIndex=\"1\"> x y </list><index> b </index><value> 1 </value></element>",
            "<block class=\"symmetryBreaking\"><intension> lt(x,y) </intension></block>",
        ] {
            read(c).unwrap_or_else(|e| panic!("{c}: {e}"));
        }
    }
}
