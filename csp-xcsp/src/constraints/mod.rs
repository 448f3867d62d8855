//! The constraints of XCSP3-core, one module per family as the specification groups them;
//! each module reads its elements into constraints of its own types and posts them.
//!
//! | module | constraints |
//! | --- | --- |
//! | [`generic`] | `intension`, `extension`, `instantiation` |
//! | [`comparison`] | `allDifferent`, `allEqual`, `ordered`, `lex`, `precedence` |
//! | [`counting`] | `sum`, `count`, `nValues`, `cardinality` |
//! | [`connection`] | `minimum`, `maximum`, `element`, `channel` |
//! | [`language`] | `regular`, `mdd` |
//! | [`graph`] | `circuit` |
//! | [`packing`] | `noOverlap`, `cumulative`, `binPacking`, `knapsack` |
//!
//! Adding a constraint is a type with [`crate::ir::Constraint`] in its family's module and
//! one arm in [`read`].

pub(crate) mod comparison;
pub(crate) mod connection;
pub(crate) mod counting;
pub(crate) mod generic;

use crate::error::Result;
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// Reads the constraint element `node` (not a `group`, `block` or `slide`), with the
/// arguments of the template it belongs to, if any.
pub(crate) fn read<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    match node.name() {
        "intension" => generic::intension(r, node, ctx),
        "extension" => generic::extension(r, node, ctx),
        "instantiation" => generic::instantiation(r, node, ctx),
        "allDifferent" => comparison::all_different(r, node, ctx),
        "sum" => counting::sum(r, node, ctx),
        "element" => connection::element(r, node, ctx),
        tag => Err(r.unsupported(node, format!("constraint <{tag}> (outside XCSP3-core)"))),
    }
}
