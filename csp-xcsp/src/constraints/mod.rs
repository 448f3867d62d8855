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
//! Adding a constraint is a type with the `Constraint` trait (`ir`) in its family's module and
//! one arm in [`read`].

pub(crate) mod comparison;
pub(crate) mod connection;
pub(crate) mod counting;
pub(crate) mod generic;
pub(crate) mod graph;
pub(crate) mod language;
pub(crate) mod packing;

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
        "allEqual" => comparison::all_equal(r, node, ctx),
        "ordered" => comparison::ordered(r, node, ctx),
        "lex" => comparison::lex(r, node, ctx),
        "precedence" => comparison::precedence(r, node, ctx),
        "sum" => counting::sum(r, node, ctx),
        "count" => counting::count(r, node, ctx),
        "nValues" => counting::n_values(r, node, ctx),
        "cardinality" => counting::cardinality(r, node, ctx),
        "minimum" | "maximum" => connection::extremum(r, node, ctx),
        "element" => connection::element(r, node, ctx),
        "channel" => connection::channel(r, node, ctx),
        "regular" => language::regular(r, node, ctx),
        "mdd" => language::mdd(r, node, ctx),
        "circuit" => graph::circuit(r, node, ctx),
        "noOverlap" => packing::no_overlap(r, node, ctx),
        "cumulative" => packing::cumulative(r, node, ctx),
        "binPacking" => packing::bin_packing(r, node, ctx),
        "knapsack" => packing::knapsack(r, node, ctx),
        tag => Err(r.unsupported(node, format!("constraint <{tag}> (outside XCSP3-core)"))),
    }
}
