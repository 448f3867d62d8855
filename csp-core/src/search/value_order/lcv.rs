//! LCV (least constraining value): the values of the chosen variable ordered by how
//! many legal values of unassigned neighbours each would remove, fewest first, ties to
//! the lower value. A neighbour's value excluded by several constraints counts once.

use std::collections::BTreeMap;

use smallvec::SmallVec;

use crate::model::Model;
use crate::network::Network;
use crate::search::inference::none::Legality;
use crate::var::VarId;

/// How an unassigned neighbour is tied to a variable: the binary arc `other -> var` if
/// any, and each shared n-ary constraint as `(propagator, position of var, position of
/// other)`.
struct Link {
    other: VarId,
    arc: Option<u32>,
    props: SmallVec<[(u32, u32, u32); 2]>,
}

/// Each variable's distinct neighbours and how they are tied to it (built once per
/// search, only for LCV), and scratch for the scores.
#[derive(Default)]
pub(in crate::search) struct Lcv {
    links: Vec<Vec<Link>>,
    scores: Vec<(u64, i32)>,
}

impl Lcv {
    pub(in crate::search) fn new(model: &Model, network: &Network) -> Lcv {
        let links = model
            .vars()
            .map(|var| {
                let mut links: BTreeMap<VarId, Link> = BTreeMap::new();
                let link = |other| Link {
                    other,
                    arc: None,
                    props: SmallVec::new(),
                };
                for adj in network.adjacency.row(var.index()) {
                    links.entry(adj.other).or_insert_with(|| link(adj.other)).arc = Some(adj.in_arc);
                }
                for watch in network.watches.row(var.index()) {
                    let vars = model.propagators()[watch.prop as usize].variables();
                    for (j, &other) in vars.iter().enumerate() {
                        if other != var {
                            let entry = links.entry(other).or_insert_with(|| link(other));
                            entry.props.push((watch.prop, watch.local, j as u32));
                        }
                    }
                }
                links.into_values().collect()
            })
            .collect();
        Lcv {
            links,
            scores: Vec::new(),
        }
    }

    /// `var`'s values in LCV order, with their scores; `None` if `expired` said so (it is
    /// asked every few thousand tests: the work grows with the square of the domains). `none`: the inference is `none`, so a
    /// neighbour's value counts only if it is legal (agrees with the assigned variables).
    pub(in crate::search) fn order(
        &mut self,
        var: VarId,
        legality: &Legality<'_>,
        none: bool,
        checks: &mut u64,
        expired: &mut dyn FnMut() -> bool,
    ) -> Option<&[(u64, i32)]> {
        let mut work = 0u32;
        let (network, store) = (legality.network(), legality.store());
        self.scores.clear();
        let mut cursor = None;
        while let Some(a) = store.next_value(var, cursor) {
            cursor = Some(a);
            let mut removed = 0u64;
            for link in &self.links[var.index()] {
                if legality.is_assigned(link.other) {
                    continue;
                }
                let mut c = None;
                while let Some(b) = store.next_value(link.other, c) {
                    c = Some(b);
                    work = work.wrapping_add(1);
                    if work % 4096 == 0 && expired() {
                        return None;
                    }
                    let by_arc = link.arc.is_some_and(|arc| {
                        *checks += 1;
                        !network.arcs[arc as usize].kind.allows(b, a)
                    });
                    let excluded = by_arc
                        || link.props.iter().any(|&(p, local_var, local_other)| {
                            !legality.prop_consistent(
                                p as usize,
                                local_other as usize,
                                b,
                                Some((local_var as usize, a)),
                                checks,
                            )
                        });
                    if excluded && (!none || legality.agrees(link.other, b, checks)) {
                        removed += 1;
                    }
                }
            }
            self.scores.push((removed, a));
        }
        self.scores.sort_unstable();
        Some(&self.scores)
    }
}
