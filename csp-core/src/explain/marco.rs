//! MARCO (Liffiton, Previti, Malik, Marques-Silva, Constraints 2016): every minimal
//! unsatisfiable subset, by exploring the power set of the groups through a map of what is
//! left. Each unexplored seed is either unsatisfiable, and shrunk to a new MUS (its supersets
//! are then explored), or satisfiable, and grown to a maximal satisfiable subset (its
//! subsets are then explored).

use super::budget::Budget;
use super::map::{Map, NoModel};
use super::{Check, ExplainLimits, SubsetOracle, quickxplain};
use crate::stats::LimitKind;

/// What [`all_muses`] found.
#[derive(Clone, Debug, Default)]
pub struct Enumeration {
    /// The MUSes found, each ascending and proved minimal, in the order found.
    pub muses: Vec<Vec<usize>>,
    /// Whether they are all of them: the power set was explored to the end. With no MUS,
    /// the groups together are satisfiable.
    pub complete: bool,
    /// Oracle calls made.
    pub calls: u64,
    /// The limit that stopped the enumeration, or that stopped an oracle call (the
    /// enumeration stops at the first answer not decided).
    pub limit: Option<LimitKind>,
}

/// Enumerates every minimal unsatisfiable subset of the groups `0..n`, calling `found` on
/// each as it is found (so that an interrupted run has written what it found). The
/// enumeration stops at the first oracle answer that is not decided, or at a limit; the
/// MUSes found until then are all proved.
///
/// ```
/// use csp_core::explain::{Check, ExplainLimits, all_muses};
///
/// let clash = |s: &[usize]| {
///     let has = |g| s.contains(&g);
///     if (has(1) && has(3)) || (has(2) && has(4) && has(5)) { Check::Unsat } else { Check::Sat }
/// };
/// let mut all = all_muses(6, clash, &ExplainLimits::default(), |_| {});
/// all.muses.sort();
/// assert_eq!(all.muses, vec![vec![1, 3], vec![2, 4, 5]]);
/// assert!(all.complete);
/// ```
pub fn all_muses(
    n: usize,
    oracle: impl SubsetOracle,
    limits: &ExplainLimits,
    mut found: impl FnMut(&[usize]),
) -> Enumeration {
    let mut budget = Budget::new(oracle, limits);
    let mut map = Map::new(n);
    let mut out = Enumeration::default();
    loop {
        let seed = {
            let mut stop = || budget.stopped().is_some();
            match map.seed(&mut stop) {
                Ok(seed) => seed,
                Err(NoModel::Explored) => {
                    out.complete = true;
                    break;
                }
                Err(NoModel::Stopped) => {
                    if let Some(kind) = budget.stopped() {
                        budget.note_limit(kind);
                    }
                    break;
                }
            }
        };
        match budget.check(&seed) {
            Check::Unsat => {
                let mus = quickxplain::shrink(&mut budget, &[], seed);
                if budget.undecided() {
                    break;
                }
                map.block_up(&mus);
                found(&mus);
                out.muses.push(mus);
            }
            Check::Sat => match grow(&mut budget, seed, n) {
                Some(mss) => map.block_down(&mss),
                None => break,
            },
            Check::Unknown(_) => break,
        }
    }
    out.calls = budget.calls();
    out.limit = budget.limit();
    out
}

/// A maximal satisfiable superset of the satisfiable `seed`; `None` at an undecided answer.
fn grow<O: SubsetOracle>(budget: &mut Budget<'_, O>, seed: Vec<usize>, n: usize) -> Option<Vec<usize>> {
    let mut inside = vec![false; n];
    for &g in &seed {
        inside[g] = true;
    }
    let mut set = seed;
    for (g, _) in inside.iter().enumerate().filter(|(_, inside)| !**inside) {
        set.push(g);
        match budget.check(&set) {
            Check::Sat => {}
            Check::Unsat => {
                set.pop();
            }
            Check::Unknown(_) => return None,
        }
    }
    set.sort_unstable();
    Some(set)
}
