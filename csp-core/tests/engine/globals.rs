//! The XCSP3-core global constraints against brute force: small random models (2 to 6
//! variables, small domains with holes and negative values, random parameters, lists that
//! may repeat a variable) are solved, enumerated and counted under the 18 textbook
//! strategies, dom/wdeg and restarts, and must give exactly the assignments that an
//! independent reading of each definition accepts. Each solution passes the constraints'
//! own checks, runs are deterministic, and malformed arguments are errors, never panics.

use csp_core::{
    Automaton, Domain, IntOrVar, Mdd, Model, ModelError, Order, Outcome, SearchConfig, Solver, VarId,
};
use proptest::prelude::*;

use crate::all_strategies::{Oracle, check_all_strategies, enumeration_stats, solver};

// ----- the constraints as data, with definitions of their own -----

/// A length, height or limit: a constant or a variable (by index).
#[derive(Clone, Copy, Debug)]
enum Len {
    Int(i64),
    Var(usize),
}

impl Len {
    fn value(self, s: &[i32]) -> i64 {
        match self {
            Len::Int(c) => c,
            Len::Var(x) => i64::from(s[x]),
        }
    }

    fn post(self, v: &[VarId]) -> IntOrVar {
        match self {
            Len::Int(c) => IntOrVar::Int(c),
            Len::Var(x) => IntOrVar::Var(v[x]),
        }
    }
}

#[derive(Clone, Debug)]
enum G {
    AllEqual(Vec<usize>),
    AllDifferentExcept(Vec<usize>, Vec<i32>),
    DistinctLists(Vec<Vec<usize>>),
    Ordered(Vec<usize>, Option<Vec<Len>>, Order),
    Lex(Vec<Vec<usize>>, Order),
    LexMatrix(Vec<Vec<usize>>, Order),
    Precedence(Vec<usize>, Vec<i32>, bool),
    Count(Vec<usize>, Vec<i32>, usize),
    /// The list, the values counted, the inclusive ranges of the allowed counts.
    CountWithin(Vec<usize>, Vec<i32>, Vec<(i64, i64)>),
    CountVar(Vec<usize>, usize, usize),
    NValues(Vec<usize>, Vec<i32>, usize),
    /// The list, the values not counted, the bounds of the count.
    NValuesWithin(Vec<usize>, Vec<i32>, i64, i64),
    Cardinality(Vec<usize>, Vec<i32>, Vec<usize>, bool),
    Minimum(Vec<usize>, usize),
    Maximum(Vec<usize>, usize),
    /// The list, the inclusive ranges of the allowed extremum, maximum (else minimum).
    ExtremumWithin(Vec<usize>, Vec<(i64, i64)>, bool),
    ChannelSelf(Vec<usize>, i32),
    Channel(Vec<usize>, i32, Vec<usize>, i32),
    ChannelValue(Vec<usize>, i32, usize),
    /// States, start, accepting states, transitions.
    Regular(Vec<usize>, usize, usize, Vec<usize>, Vec<(usize, i32, usize)>),
    /// Nodes, root, terminal, edges.
    Mdd(Vec<usize>, usize, usize, usize, Vec<(usize, i32, usize)>),
    Circuit(Vec<usize>, i32, Option<Len>),
    NoOverlap(Vec<usize>, Vec<Len>, bool),
    NoOverlapBoxes(Vec<Vec<usize>>, Vec<Vec<Len>>, bool),
    /// Origins, lengths, heights, peak, exact.
    Cumulative(Vec<usize>, Vec<Len>, Vec<Len>, Len, bool),
    BinPacking(Vec<usize>, Vec<i64>, Vec<usize>, i32),
    /// Items, sizes, per bin the inclusive ranges of its allowed loads, first bin.
    BinPackingWithin(Vec<usize>, Vec<i64>, Vec<Vec<(i64, i64)>>, i32),
}

/// Lengths and heights are non-negative (a variable keeps its non-negative values).
fn non_negative(lens: &[Len], s: &[i32]) -> bool {
    lens.iter().all(|l| l.value(s) >= 0)
}

/// Whether two boxes `(origins, lengths)` overlap nowhere: some dimension separates them,
/// or (`zero_ignored`) one has a length 0.
fn apart(a: &[(i64, i64)], b: &[(i64, i64)], zero_ignored: bool) -> bool {
    let flat = a.iter().chain(b).any(|&(_, l)| l == 0);
    (zero_ignored && flat)
        || a.iter()
            .zip(b)
            .any(|(&(o1, l1), &(o2, l2))| o1 + l1 <= o2 || o2 + l2 <= o1)
}

/// The circuit of successors `next` (loops: off the circuit), as XCSP3 and ACE define it:
/// a permutation whose non-loop vertices (at least two) form one cycle.
fn is_circuit(next: &[i64], size: Option<i64>) -> bool {
    let n = next.len() as i64;
    if next.iter().any(|&j| !(0..n).contains(&j)) {
        return false;
    }
    let mut sorted = next.to_vec();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != next.len() {
        return false;
    }
    let on: Vec<usize> = (0..next.len()).filter(|&i| next[i] != i as i64).collect();
    if on.len() < 2 || size.is_some_and(|s| s != on.len() as i64) {
        return false;
    }
    // The cycle through the first vertex on it has every vertex on it.
    let mut cycle = vec![on[0]];
    let mut v = next[on[0]] as usize;
    while v != on[0] {
        cycle.push(v);
        v = next[v] as usize;
    }
    cycle.len() == on.len()
}

/// Whether the word labels a path from `start` to one of `finals` (a non-deterministic
/// simulation, the oracle of both `regular` and `mdd`).
fn spells(
    word: &[i32],
    states: usize,
    start: usize,
    finals: &[usize],
    edges: &[(usize, i32, usize)],
) -> bool {
    let mut here: Vec<usize> = vec![start];
    for &a in word {
        let mut next: Vec<usize> = edges
            .iter()
            .filter(|&&(from, value, _)| value == a && here.contains(&from))
            .map(|&(_, _, to)| to)
            .collect();
        next.sort();
        next.dedup();
        here = next;
    }
    here.iter().any(|s| *s < states && finals.contains(s))
}

fn ordered_holds(order: Order, a: i64, b: i64) -> bool {
    match order {
        Order::Lt => a < b,
        Order::Le => a <= b,
        Order::Ge => a >= b,
        Order::Gt => a > b,
    }
}

fn lex_holds(order: Order, a: &[i32], b: &[i32]) -> bool {
    // Slices compare lexicographically.
    match order {
        Order::Lt => a < b,
        Order::Le => a <= b,
        Order::Ge => a >= b,
        Order::Gt => a > b,
    }
}

/// The position of the first variable of `xs` that takes `v`.
fn first(xs: &[usize], s: &[i32], v: i32) -> Option<usize> {
    xs.iter().position(|&x| s[x] == v)
}

fn count_in(xs: &[usize], s: &[i32], values: &[i32]) -> i32 {
    xs.iter().filter(|&&x| values.contains(&s[x])).count() as i32
}

impl Oracle for G {
    fn holds(&self, s: &[i32]) -> bool {
        let vals = |xs: &[usize]| xs.iter().map(|&x| s[x]).collect::<Vec<i32>>();
        match self {
            G::AllEqual(xs) => xs.iter().all(|&x| s[x] == s[xs[0]]),
            G::AllDifferentExcept(xs, except) => (0..xs.len())
                .all(|i| (i + 1..xs.len()).all(|j| s[xs[i]] != s[xs[j]] || except.contains(&s[xs[i]]))),
            G::DistinctLists(lists) => {
                (0..lists.len()).all(|p| (p + 1..lists.len()).all(|q| vals(&lists[p]) != vals(&lists[q])))
            }
            G::Ordered(xs, lens, order) => (0..xs.len() - 1).all(|i| {
                let len = lens.as_ref().map_or(0, |l| l[i].value(s));
                ordered_holds(*order, i64::from(s[xs[i]]) + len, i64::from(s[xs[i + 1]]))
            }),
            G::Lex(lists, order) => lists
                .windows(2)
                .all(|w| lex_holds(*order, &vals(&w[0]), &vals(&w[1]))),
            G::LexMatrix(rows, order) => {
                let columns: Vec<Vec<usize>> = (0..rows[0].len())
                    .map(|j| rows.iter().map(|r| r[j]).collect())
                    .collect();
                G::Lex(rows.clone(), *order).holds(s) && G::Lex(columns, *order).holds(s)
            }
            G::Precedence(xs, values, covered) => {
                let firsts: Vec<Option<usize>> = values.iter().map(|&v| first(xs, s, v)).collect();
                let chained = (1..values.len()).all(|k| match firsts[k] {
                    None => true,
                    Some(here) => firsts[k - 1].is_some_and(|before| before < here),
                });
                chained && (!covered || firsts.iter().all(Option::is_some))
            }
            G::Count(xs, values, c) => s[*c] == count_in(xs, s, values),
            G::CountWithin(xs, values, allowed) => {
                let k = i64::from(count_in(xs, s, values));
                allowed.iter().any(|&(lo, hi)| lo <= k && k <= hi)
            }
            G::CountVar(xs, y, c) => s[*c] == count_in(xs, s, &[s[*y]]),
            G::NValues(xs, except, c) => {
                let mut taken: Vec<i32> = vals(xs).into_iter().filter(|a| !except.contains(a)).collect();
                taken.sort();
                taken.dedup();
                s[*c] == taken.len() as i32
            }
            G::NValuesWithin(xs, except, lo, hi) => {
                let mut taken: Vec<i32> = vals(xs).into_iter().filter(|a| !except.contains(a)).collect();
                taken.sort();
                taken.dedup();
                (*lo..=*hi).contains(&(taken.len() as i64))
            }
            G::Cardinality(xs, values, occurs, closed) => {
                values
                    .iter()
                    .zip(occurs)
                    .all(|(&v, &o)| s[o] == count_in(xs, s, &[v]))
                    && (!closed || xs.iter().all(|&x| values.contains(&s[x])))
            }
            G::Minimum(xs, r) => vals(xs).into_iter().min() == Some(s[*r]),
            G::Maximum(xs, r) => vals(xs).into_iter().max() == Some(s[*r]),
            G::ExtremumWithin(xs, allowed, is_max) => {
                let values = vals(xs).into_iter().map(i64::from);
                let e = if *is_max { values.max() } else { values.min() };
                e.is_some_and(|e| allowed.iter().any(|&(lo, hi)| lo <= e && e <= hi))
            }
            G::ChannelSelf(xs, start) => G::Channel(xs.clone(), *start, xs.clone(), *start).holds(s),
            G::Channel(xs, sx, ys, sy) => {
                let maps = |from: &[usize], sf: i32, to: &[usize], st: i32| {
                    from.iter().enumerate().all(|(i, &x)| {
                        let j = i64::from(s[x]) - i64::from(st);
                        (0..to.len() as i64).contains(&j)
                            && i64::from(s[to[j as usize]]) == i64::from(sf) + i as i64
                    })
                };
                maps(xs, *sx, ys, *sy) && (xs.len() < ys.len() || maps(ys, *sy, xs, *sx))
            }
            G::ChannelValue(bools, start, v) => {
                let ones: Vec<usize> = (0..bools.len()).filter(|&i| s[bools[i]] == 1).collect();
                bools.iter().all(|&b| s[b] == 0 || s[b] == 1)
                    && ones.len() == 1
                    && i64::from(s[*v]) == i64::from(*start) + ones[0] as i64
            }
            G::Regular(xs, states, start, finals, transitions) => {
                spells(&vals(xs), *states, *start, finals, transitions)
            }
            G::Mdd(xs, nodes, root, terminal, edges) => spells(&vals(xs), *nodes, *root, &[*terminal], edges),
            G::Circuit(xs, start, size) => {
                let next: Vec<i64> = xs.iter().map(|&x| i64::from(s[x]) - i64::from(*start)).collect();
                is_circuit(&next, size.map(|l| l.value(s)))
            }
            G::NoOverlap(xs, lens, zero_ignored) => {
                non_negative(lens, s)
                    && (0..xs.len()).all(|i| {
                        (i + 1..xs.len()).all(|j| {
                            apart(
                                &[(i64::from(s[xs[i]]), lens[i].value(s))],
                                &[(i64::from(s[xs[j]]), lens[j].value(s))],
                                *zero_ignored,
                            )
                        })
                    })
            }
            G::NoOverlapBoxes(origins, lens, zero_ignored) => {
                let place = |i: usize| -> Vec<(i64, i64)> {
                    origins[i]
                        .iter()
                        .zip(&lens[i])
                        .map(|(&o, l)| (i64::from(s[o]), l.value(s)))
                        .collect()
                };
                lens.iter().all(|l| non_negative(l, s))
                    && (0..origins.len())
                        .all(|i| (i + 1..origins.len()).all(|j| apart(&place(i), &place(j), *zero_ignored)))
            }
            G::Cumulative(xs, lens, heights, peak, exact) => {
                if !non_negative(lens, s) || !non_negative(heights, s) {
                    return false;
                }
                let mut highest = 0;
                for t in -10..=20 {
                    let load: i64 = (0..xs.len())
                        .filter(|&i| i64::from(s[xs[i]]) <= t && t < i64::from(s[xs[i]]) + lens[i].value(s))
                        .map(|i| heights[i].value(s))
                        .sum();
                    highest = highest.max(load);
                }
                if *exact {
                    highest == peak.value(s)
                } else {
                    highest <= peak.value(s)
                }
            }
            G::BinPacking(bins, sizes, loads, first) => {
                let mut load = vec![0i64; loads.len()];
                for (&b, &size) in bins.iter().zip(sizes) {
                    let k = i64::from(s[b]) - i64::from(*first);
                    if !(0..loads.len() as i64).contains(&k) {
                        return false;
                    }
                    load[k as usize] += size;
                }
                loads.iter().zip(&load).all(|(&l, &w)| i64::from(s[l]) == w)
            }
            G::BinPackingWithin(bins, sizes, allowed, first) => {
                let mut load = vec![0i64; allowed.len()];
                for (&b, &size) in bins.iter().zip(sizes) {
                    let k = i64::from(s[b]) - i64::from(*first);
                    if !(0..allowed.len() as i64).contains(&k) {
                        return false;
                    }
                    load[k as usize] += size;
                }
                allowed
                    .iter()
                    .zip(&load)
                    .all(|(ranges, &w)| ranges.iter().any(|&(lo, hi)| lo <= w && w <= hi))
            }
        }
    }

    fn post(&self, m: &mut Model, v: &[VarId]) -> Result<(), ModelError> {
        let vars = |xs: &[usize]| xs.iter().map(|&x| v[x]).collect::<Vec<VarId>>();
        let lists = |ls: &[Vec<usize>]| ls.iter().map(|l| vars(l)).collect::<Vec<_>>();
        match self {
            G::AllEqual(xs) => m.all_equal(&vars(xs)),
            G::AllDifferentExcept(xs, except) => m.all_different_except(&vars(xs), except),
            G::DistinctLists(ls) => m.all_different_lists(&lists(ls)),
            G::Ordered(xs, lens, order) => {
                let lens: Option<Vec<IntOrVar>> =
                    lens.as_ref().map(|l| l.iter().map(|x| x.post(v)).collect());
                m.ordered(&vars(xs), lens.as_deref(), *order)
            }
            G::Lex(ls, order) => m.lex(&lists(ls), *order),
            G::LexMatrix(rows, order) => m.lex_matrix(&lists(rows), *order),
            G::Precedence(xs, values, covered) => m.precedence(&vars(xs), values, *covered),
            G::Count(xs, values, c) => m.count(&vars(xs), values, v[*c]),
            G::CountWithin(xs, values, allowed) => m.count_within(&vars(xs), values, allowed),
            G::CountVar(xs, y, c) => m.count_var(&vars(xs), v[*y], v[*c]),
            G::NValues(xs, except, c) => m.n_values(&vars(xs), except, v[*c]),
            G::NValuesWithin(xs, except, lo, hi) => m.n_values_within(&vars(xs), except, &[(*lo, *hi)]),
            G::Cardinality(xs, values, occurs, closed) => {
                m.cardinality(&vars(xs), values, &vars(occurs), *closed)
            }
            G::Minimum(xs, r) => m.minimum(&vars(xs), v[*r]),
            G::Maximum(xs, r) => m.maximum(&vars(xs), v[*r]),
            G::ExtremumWithin(xs, allowed, true) => m.maximum_within(&vars(xs), allowed),
            G::ExtremumWithin(xs, allowed, false) => m.minimum_within(&vars(xs), allowed),
            G::ChannelSelf(xs, start) => m.channel_self(&vars(xs), *start),
            G::Channel(xs, sx, ys, sy) => m.channel(&vars(xs), *sx, &vars(ys), *sy),
            G::ChannelValue(bools, start, x) => m.channel_value(&vars(bools), *start, v[*x]),
            G::Regular(xs, states, start, finals, transitions) => {
                let automaton = Automaton::new(*states, *start, finals.clone(), transitions.clone())?;
                m.regular(&vars(xs), &automaton)
            }
            G::Mdd(xs, nodes, root, terminal, edges) => {
                let mdd = Mdd::new(*nodes, *root, *terminal, edges.clone())?;
                m.mdd(&vars(xs), &mdd)
            }
            G::Circuit(xs, start, size) => m.circuit(&vars(xs), *start, size.map(|l| l.post(v))),
            G::NoOverlap(xs, lens, zero_ignored) => {
                let lens: Vec<IntOrVar> = lens.iter().map(|l| l.post(v)).collect();
                m.no_overlap(&vars(xs), &lens, *zero_ignored)
            }
            G::NoOverlapBoxes(origins, lens, zero_ignored) => {
                let lens: Vec<Vec<IntOrVar>> = lens
                    .iter()
                    .map(|b| b.iter().map(|l| l.post(v)).collect())
                    .collect();
                m.no_overlap_boxes(&lists(origins), &lens, *zero_ignored)
            }
            G::Cumulative(xs, lens, heights, peak, exact) => {
                let post = |ls: &[Len]| ls.iter().map(|l| l.post(v)).collect::<Vec<IntOrVar>>();
                m.cumulative(&vars(xs), &post(lens), &post(heights), peak.post(v), *exact)
            }
            G::BinPacking(bins, sizes, loads, first) => {
                m.bin_packing(&vars(bins), sizes, &vars(loads), *first)
            }
            G::BinPackingWithin(bins, sizes, allowed, first) => {
                m.bin_packing_within(&vars(bins), sizes, allowed, *first)
            }
        }
    }
}

// ----- random models -----

type Spec = crate::all_strategies::Spec<G>;

/// Random specs: `sizes` variables with domains of 1 to `width` values in `values`, one
/// or two constraints from `cons(n)`, and a given now and then.
fn spec(
    sizes: std::ops::RangeInclusive<usize>,
    values: std::ops::RangeInclusive<i32>,
    width: usize,
    cons: impl Fn(usize) -> BoxedStrategy<G>,
) -> impl Strategy<Value = Spec> {
    sizes.prop_flat_map(move |n| {
        (
            prop::collection::vec(
                prop::collection::btree_set(values.clone(), 1..=width).prop_map(|s| s.into_iter().collect()),
                n,
            ),
            prop::collection::vec(prop::option::weighted(0.1, any::<prop::sample::Index>()), n),
            prop::collection::vec(cons(n), 1..=2),
        )
            .prop_map(|(domains, givens, cons): (Vec<Vec<i32>>, _, _)| Spec::new(domains, givens, cons))
    })
}

fn order() -> impl Strategy<Value = Order> {
    prop::sample::select(vec![Order::Lt, Order::Le, Order::Ge, Order::Gt])
}

fn list(n: usize, len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..n, len)
}

fn small_values(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec(-2i32..=3, len)
}

/// Distinct values in any order.
fn distinct_values(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(-2i32..=3, len)
        .prop_map(|s| s.into_iter().collect::<Vec<i32>>())
        .prop_shuffle()
}

fn len(n: usize) -> impl Strategy<Value = Len> {
    prop_oneof![(-1i64..=2).prop_map(Len::Int), (0..n).prop_map(Len::Var)]
}

fn comparisons(n: usize) -> BoxedStrategy<G> {
    prop_oneof![
        list(n, 1..=5).prop_map(G::AllEqual),
        (list(n, 1..=5), small_values(0..=2)).prop_map(|(xs, e)| G::AllDifferentExcept(xs, e)),
        (1..=3usize, 2..=3usize)
            .prop_flat_map(move |(k, m)| prop::collection::vec(list(n, k..=k), m))
            .prop_map(G::DistinctLists),
        (list(n, 1..=5), any::<bool>(), order())
            .prop_flat_map(move |(xs, with, order)| {
                let pairs = xs.len() - 1;
                let lens = if with {
                    prop::collection::vec(len(n), pairs).prop_map(Some).boxed()
                } else {
                    Just(None).boxed()
                };
                (Just(xs), lens, Just(order))
            })
            .prop_map(|(xs, lens, order)| G::Ordered(xs, lens, order)),
        (1..=3usize, 2..=3usize, order())
            .prop_flat_map(move |(k, m, order)| (prop::collection::vec(list(n, k..=k), m), Just(order)))
            .prop_map(|(ls, order)| G::Lex(ls, order)),
        (1..=3usize, 1..=3usize, order())
            .prop_flat_map(move |(k, m, order)| (prop::collection::vec(list(n, k..=k), m), Just(order)))
            .prop_map(|(ls, order)| G::LexMatrix(ls, order)),
        (list(n, 1..=5), distinct_values(0..=3), any::<bool>())
            .prop_map(|(xs, values, covered)| G::Precedence(xs, values, covered)),
    ]
    .boxed()
}

fn counting(n: usize) -> BoxedStrategy<G> {
    prop_oneof![
        (list(n, 1..=5), small_values(0..=3), 0..n).prop_map(|(xs, values, c)| G::Count(xs, values, c)),
        // The allowed counts of `ne`, `in` a set, `notin` an interval, ...
        (
            list(n, 1..=5),
            small_values(0..=3),
            prop::collection::vec((-1i64..=5, 0i64..=3), 0..=3),
        )
            .prop_map(|(xs, values, ranges)| {
                let allowed = ranges.into_iter().map(|(lo, len)| (lo, lo + len - 1)).collect();
                G::CountWithin(xs, values, allowed)
            }),
        (list(n, 1..=5), 0..n, 0..n).prop_map(|(xs, y, c)| G::CountVar(xs, y, c)),
        (list(n, 1..=5), small_values(0..=2), 0..n).prop_map(|(xs, e, c)| G::NValues(xs, e, c)),
        (list(n, 1..=5), small_values(0..=2), -1i64..=4, 0i64..=3)
            .prop_map(|(xs, e, lo, span)| G::NValuesWithin(xs, e, lo, lo + span)),
        (list(n, 1..=5), distinct_values(1..=3), any::<bool>())
            .prop_flat_map(move |(xs, values, closed)| {
                let k = values.len();
                (Just(xs), Just(values), list(n, k..=k), Just(closed))
            })
            .prop_map(|(xs, values, occurs, closed)| G::Cardinality(xs, values, occurs, closed)),
        (list(n, 1..=5), 0..n).prop_map(|(xs, r)| G::Minimum(xs, r)),
        (list(n, 1..=5), 0..n).prop_map(|(xs, r)| G::Maximum(xs, r)),
        (
            list(n, 1..=5),
            prop::collection::vec((-3i64..=4, 0i64..=3), 0..=3),
            any::<bool>(),
        )
            .prop_map(|(xs, ranges, is_max)| {
                let allowed = ranges.into_iter().map(|(lo, len)| (lo, lo + len - 1)).collect();
                G::ExtremumWithin(xs, allowed, is_max)
            }),
    ]
    .boxed()
}

fn channels(n: usize) -> BoxedStrategy<G> {
    prop_oneof![
        (list(n, 1..=4), 0i32..=1).prop_map(|(xs, s)| G::ChannelSelf(xs, s)),
        (1..=3usize, 0..=1usize, 0i32..=1, 0i32..=1)
            .prop_flat_map(move |(k, extra, sx, sy)| (
                list(n, k..=k),
                list(n, k + extra..=k + extra),
                Just(sx),
                Just(sy)
            ))
            .prop_map(|(xs, ys, sx, sy)| G::Channel(xs, sx, ys, sy)),
        (list(n, 1..=4), 0i32..=1, 0..n).prop_map(|(bools, s, v)| G::ChannelValue(bools, s, v)),
    ]
    .boxed()
}

fn regular(n: usize) -> BoxedStrategy<G> {
    regular_with(n, 0..=10)
}

fn regular_with(n: usize, transitions: std::ops::RangeInclusive<usize>) -> BoxedStrategy<G> {
    (1..=4usize)
        .prop_flat_map(move |states| {
            (
                list(n, 1..=5),
                Just(states),
                0..states,
                prop::collection::vec(0..states, 1..=2),
                prop::collection::vec((0..states, -1i32..=2, 0..states), transitions.clone()),
            )
        })
        .prop_map(|(xs, states, start, finals, transitions)| {
            G::Regular(xs, states, start, finals, transitions)
        })
        .boxed()
}

/// An MDD over `k` layers: 1 or 2 nodes per inner layer, a path through node 0 of each
/// layer, and random edges between consecutive layers.
fn mdd(n: usize) -> BoxedStrategy<G> {
    (1..=4usize)
        .prop_flat_map(move |k| {
            (
                list(n, k..=k),
                prop::collection::vec(1..=2usize, k - 1),
                prop::collection::vec(-1i32..=2, k),
                prop::collection::vec((0..k, 0..2usize, 0..2usize, -1i32..=2), 0..=8),
            )
        })
        .prop_map(|(xs, widths, spine, extra)| {
            // Layer l has nodes first[l]..first[l] + width[l]; the root and terminal one each.
            let mut width = vec![1];
            width.extend(widths);
            width.push(1);
            let first: Vec<usize> = width
                .iter()
                .scan(0, |acc, &w| {
                    let here = *acc;
                    *acc += w;
                    Some(here)
                })
                .collect();
            let nodes = first[first.len() - 1] + 1;
            let mut edges: Vec<(usize, i32, usize)> = spine
                .iter()
                .enumerate()
                .map(|(l, &a)| (first[l], a, first[l + 1]))
                .collect();
            for (l, u, w, a) in extra {
                edges.push((first[l] + u % width[l], a, first[l + 1] + w % width[l + 1]));
            }
            G::Mdd(xs, nodes, 0, nodes - 1, edges)
        })
        .boxed()
}

fn circuit(n: usize) -> BoxedStrategy<G> {
    (
        list(n, 1..=5),
        0i32..=1,
        prop::option::weighted(
            0.4,
            prop_oneof![(1i64..=4).prop_map(Len::Int), (0..n).prop_map(Len::Var)],
        ),
    )
        .prop_map(|(xs, start, size)| G::Circuit(xs, start, size))
        .boxed()
}

/// A length or height: mostly constants 0 to 2, sometimes a variable.
fn task_len(n: usize) -> impl Strategy<Value = Len> {
    prop_oneof![3 => (0i64..=2).prop_map(Len::Int), 1 => (0..n).prop_map(Len::Var)]
}

fn scheduling(n: usize) -> BoxedStrategy<G> {
    prop_oneof![
        (1..=4usize, any::<bool>())
            .prop_flat_map(move |(k, z)| (list(n, k..=k), prop::collection::vec(task_len(n), k), Just(z)))
            .prop_map(|(xs, lens, z)| G::NoOverlap(xs, lens, z)),
        (1..=3usize, 1..=2usize, any::<bool>())
            .prop_flat_map(move |(k, d, z)| {
                (
                    prop::collection::vec(list(n, d..=d), k),
                    prop::collection::vec(prop::collection::vec(task_len(n), d), k),
                    Just(z),
                )
            })
            .prop_map(|(origins, lens, z)| G::NoOverlapBoxes(origins, lens, z)),
        (1..=4usize, any::<bool>())
            .prop_flat_map(move |(k, exact)| {
                (
                    list(n, k..=k),
                    prop::collection::vec(task_len(n), k),
                    prop::collection::vec(task_len(n), k),
                    prop_oneof![(0i64..=3).prop_map(Len::Int), (0..n).prop_map(Len::Var)],
                    Just(exact),
                )
            })
            .prop_map(|(xs, lens, heights, peak, exact)| G::Cumulative(xs, lens, heights, peak, exact)),
        (1..=4usize, 1..=3usize)
            .prop_flat_map(move |(k, m)| {
                (
                    list(n, k..=k),
                    prop::collection::vec(0i64..=3, k),
                    list(n, m..=m),
                    -1i32..=1,
                )
            })
            .prop_map(|(bins, sizes, loads, first)| G::BinPacking(bins, sizes, loads, first)),
        // Allowed loads as unions of ranges, empty, overlapping or out of order at times:
        // the forms of `ne`, `in` a set and `notin` conditions.
        (1..=4usize, 1..=3usize)
            .prop_flat_map(move |(k, m)| {
                (
                    list(n, k..=k),
                    prop::collection::vec(0i64..=3, k),
                    prop::collection::vec(prop::collection::vec((-1i64..=6, 0i64..=3), 0..=3), m),
                    -1i32..=1,
                )
            })
            .prop_map(|(bins, sizes, allowed, first)| {
                let allowed = allowed
                    .into_iter()
                    .map(|ranges| ranges.into_iter().map(|(lo, len)| (lo, lo + len - 1)).collect())
                    .collect();
                G::BinPackingWithin(bins, sizes, allowed, first)
            }),
    ]
    .boxed()
}

fn check_spec(spec: &Spec) -> Result<(), TestCaseError> {
    let model = spec.model();
    let expected = spec.brute_force();
    // The constraints' own checks accept every solution of the definitions.
    for s in &expected {
        prop_assert!(model.is_solution(s), "{s:?}: {:?}", model.violation(s));
    }
    check_all_strategies(&model, &expected)?;
    // Determinism: the same statistics twice.
    for name in ["dom-wdeg/asc/mac", "mrv/lcv/fc", "static/asc/none"] {
        let config = SearchConfig::with_strategy(name.parse().unwrap());
        let first = enumeration_stats(&model, config.clone());
        prop_assert_eq!(first, enumeration_stats(&model, config), "{}", name);
    }
    Ok(())
}

/// Generalised arc consistency: under MAC, one constraint of a GAC propagator over
/// distinct variables with a solution is solved without a failure.
fn gac_never_fails(spec: &Spec) -> Result<(), TestCaseError> {
    // Sequences over the first variables, so that they are distinct.
    let n = spec.domains.len();
    let con = &match spec.cons[0].clone() {
        G::Regular(xs, a, b, c, d) if xs.len() <= n => G::Regular((0..xs.len()).collect(), a, b, c, d),
        G::Mdd(xs, a, b, c, d) if xs.len() <= n => G::Mdd((0..xs.len()).collect(), a, b, c, d),
        G::Lex(ls, order) if 2 * ls[0].len() <= n => {
            let k = ls[0].len();
            G::Lex(vec![(0..k).collect(), (k..2 * k).collect()], order)
        }
        other => other,
    };
    let distinct = |xs: Vec<usize>| {
        let mut ys = xs.clone();
        ys.sort();
        ys.dedup();
        ys.len() == xs.len()
    };
    let gac = match con {
        G::Regular(xs, ..) | G::Mdd(xs, ..) | G::AllEqual(xs) => distinct(xs.clone()),
        G::Channel(xs, _, ys, _) => xs.len() == ys.len() && distinct([xs.clone(), ys.clone()].concat()),
        G::ChannelValue(bools, _, v) => distinct([bools.clone(), vec![*v]].concat()),
        G::Lex(ls, _) => ls.len() == 2 && distinct(ls.concat()),
        _ => false,
    };
    let single = Spec {
        cons: vec![con.clone()],
        givens: vec![None; spec.domains.len()],
        ..spec.clone()
    };
    if gac && !single.brute_force().is_empty() {
        let model = single.model();
        for name in ["static/asc/mac", "mrv/desc/mac", "dom-wdeg/lcv/mac"] {
            let mut s = solver(&model, SearchConfig::with_strategy(name.parse().unwrap()));
            prop_assert!(matches!(s.solve(), Outcome::Solved(_)));
            prop_assert_eq!(s.stats().backtracks, 0, "{}", name);
        }
    }
    Ok(())
}

fn cases(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(default),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn comparison_family(spec in spec(2..=6, -2..=3, 5, comparisons)) {
        check_spec(&spec)?;
    }

    #[test]
    fn counting_family(spec in spec(2..=6, -2..=3, 5, counting)) {
        check_spec(&spec)?;
    }

    #[test]
    fn layered_family(spec in spec(2..=6, -1..=2, 4, |n| prop_oneof![regular(n), mdd(n)].boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn gac_layered(spec in spec(3..=6, -1..=2, 4, |n| prop_oneof![regular_with(n, 6..=14), mdd(n)].boxed())) {
        gac_never_fails(&spec)?;
    }

    #[test]
    fn gac_others(spec in spec(2..=6, -1..=3, 4, |n| prop_oneof![channels(n), comparisons(n)].boxed())) {
        gac_never_fails(&spec)?;
    }

    /// `allEqual` over domains of several words and different bases, which its propagator
    /// lines up a word at a time: values on both sides of word boundaries, far apart.
    #[test]
    fn all_equal_over_wide_domains(
        domains in prop::collection::vec(
            prop::collection::btree_set(prop::sample::select(vec![-130, -65, -64, -1, 0, 63, 64, 127, 128, 200]), 1..=6),
            2..=5,
        ),
        scope in prop::collection::vec(0usize..5, 1..=5),
    ) {
        let n = domains.len();
        let scope: Vec<usize> = scope.into_iter().map(|x| x % n).collect();
        let domains: Vec<Vec<i32>> = domains.into_iter().map(|d| d.into_iter().collect()).collect();
        let spec = Spec::new(domains, vec![None; n], vec![G::AllEqual(scope.clone())]);
        check_spec(&spec)?;
        gac_never_fails(&spec)?;
    }

    /// `nValues(xs) >= 2` over distinct variables (not all equal: XCSP3's `nValues` with
    /// `(gt,1)`), with a counter variable or constant bounds, is arc consistent on `xs`: a static search that decides them first never
    /// backtracks when there is a solution, and finds none when brute force finds none.
    #[test]
    fn not_all_equal_is_arc_consistent(
        domains in prop::collection::vec(prop::collection::btree_set(-1i32..=3, 1..=3), 2..=5),
        desc in any::<bool>(),
        within in any::<bool>(),
    ) {
        let mut m = Model::new();
        let xs: Vec<VarId> = domains
            .iter()
            .map(|d| m.add_var(Domain::from_values(d.iter().copied()).unwrap()))
            .collect();
        if within {
            m.n_values_within(&xs, &[], &[(2, xs.len() as i64)]).unwrap();
        } else {
            let counter = m.int_vars(1, 2, xs.len() as i32).unwrap()[0];
            m.n_values(&xs, &[], counter).unwrap();
        }
        // Some two variables can differ, unless every domain is the same single value.
        let solvable = domains.iter().any(|d| d.len() > 1) || domains.iter().any(|d| *d != domains[0]);
        let name = if desc { "static/desc/mac" } else { "static/asc/mac" };
        let mut s = solver(&m, SearchConfig::with_strategy(name.parse().unwrap()));
        match s.solve() {
            Outcome::Solved(sol) => {
                prop_assert!(solvable && m.is_solution(&sol));
                prop_assert_eq!(s.stats().backtracks, 0);
            }
            _ => prop_assert!(!solvable),
        }
    }

    #[test]
    fn circuits(spec in spec(2..=6, -1..=5, 5, circuit)) {
        check_spec(&spec)?;
    }

    #[test]
    fn scheduling_family(spec in spec(2..=6, -1..=4, 5, scheduling)) {
        check_spec(&spec)?;
    }

    #[test]
    fn channel_family(spec in spec(2..=6, -1..=4, 5, channels)) {
        check_spec(&spec)?;
    }
}

// ----- malformed arguments -----

fn model(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let v = m.int_vars(n, 0, 3).unwrap();
    (m, v)
}

fn is_invalid(r: Result<(), ModelError>) -> bool {
    matches!(
        r,
        Err(ModelError::InvalidConstraint { .. }
            | ModelError::Arithmetic { .. }
            | ModelError::LengthMismatch { .. }
            | ModelError::UnknownVariable { .. })
    )
}

#[test]
fn malformed_comparisons_are_errors() {
    let (mut m, v) = model(4);
    let mut other = Model::new();
    let foreign = other.int_vars(10, 0, 1).unwrap()[9];
    assert!(is_invalid(m.all_equal(&[])));
    assert!(is_invalid(m.all_equal(&[v[0], foreign])));
    assert!(is_invalid(m.all_different_except(&[], &[0])));
    assert!(is_invalid(m.all_different_lists(&[vec![v[0], v[1]], vec![v[2]]])));
    assert!(is_invalid(m.all_different_lists(&[vec![], vec![]])));
    assert!(is_invalid(m.all_different_lists(&[])));
    assert!(is_invalid(m.ordered(&[], None, Order::Lt)));
    assert!(is_invalid(m.ordered(&v, Some(&[IntOrVar::Int(1)]), Order::Lt)));
    assert!(is_invalid(m.ordered(
        &v[..2],
        Some(&[IntOrVar::Int(1 << 40)]),
        Order::Lt
    )));
    assert!(is_invalid(m.ordered(
        &v[..2],
        Some(&[IntOrVar::Var(foreign)]),
        Order::Lt
    )));
    assert!(is_invalid(m.lex(&[vec![v[0]], vec![v[1], v[2]]], Order::Lt)));
    assert!(is_invalid(m.lex(&[], Order::Lt)));
    assert!(is_invalid(m.lex_matrix(&[vec![v[0]], vec![]], Order::Le)));
    assert!(is_invalid(m.precedence(&v, &[1, 2, 1], false)));
    assert!(is_invalid(m.precedence(&[], &[1, 2], false)));
    assert!(is_invalid(m.count(&v, &[1], foreign)));
    assert!(is_invalid(m.count_var(&v, foreign, v[0])));
    assert!(is_invalid(m.n_values(&[], &[], v[0])));
    assert!(is_invalid(m.n_values_within(&[], &[], &[(0, 1)])));
    assert!(is_invalid(m.n_values_within(&[v[0], foreign], &[], &[(0, 1)])));
    assert!(is_invalid(m.cardinality(&v, &[0, 1], &[v[0]], false)));
    assert!(is_invalid(m.cardinality(&v, &[0, 0], &[v[0], v[1]], false)));
    assert!(is_invalid(m.minimum(&[], v[0])));
    assert!(is_invalid(m.maximum(&v, foreign)));
    assert!(is_invalid(m.channel(&v, 0, &v[..2], 0)));
    assert!(is_invalid(m.channel_self(&[], 0)));
    assert!(is_invalid(m.channel_value(&v, 0, foreign)));
    assert!(is_invalid(m.circuit(&[], 0, None)));
    assert!(is_invalid(m.circuit(&v, 0, Some(IntOrVar::Var(foreign)))));
    assert!(is_invalid(m.circuit(&v, 0, Some(IntOrVar::Int(i64::MAX)))));
}

#[test]
fn malformed_scheduling_is_an_error() {
    let (mut m, v) = model(4);
    let one = IntOrVar::Int(1);
    assert!(is_invalid(m.no_overlap(&[], &[], true)));
    assert!(is_invalid(m.no_overlap(&v, &[one], true)));
    assert!(is_invalid(m.no_overlap(&v[..1], &[IntOrVar::Int(-1)], true)));
    assert!(is_invalid(m.no_overlap(&v[..1], &[IntOrVar::Int(1 << 33)], true)));
    assert!(is_invalid(m.no_overlap_boxes(
        &[vec![v[0], v[1]], vec![v[2]]],
        &[vec![one, one], vec![one]],
        true
    )));
    assert!(is_invalid(m.no_overlap_boxes(
        &[vec![v[0]], vec![v[2]]],
        &[vec![one], vec![one, one]],
        true
    )));
    assert!(is_invalid(m.no_overlap_boxes(&[vec![v[0]]], &[], true)));
    assert!(is_invalid(m.cumulative(&v[..2], &[one, one], &[one], one, false)));
    assert!(is_invalid(m.cumulative(
        &v[..2],
        &[one, one],
        &[one, IntOrVar::Int(-2)],
        one,
        false
    )));
    assert!(is_invalid(m.cumulative(
        &v[..1],
        &[one],
        &[one],
        IntOrVar::Int(i64::MIN),
        false
    )));
    assert!(is_invalid(m.bin_packing(&v[..2], &[1], &v[2..], 0)));
    assert!(is_invalid(m.bin_packing(&v[..2], &[1, -1], &v[2..], 0)));
    assert!(is_invalid(m.bin_packing(&v[..2], &[1, 1], &[], 0)));
    assert!(is_invalid(m.bin_packing(&v[..2], &[1, i64::MAX], &v[2..], 0)));
}

/// `circuit` admits loops (ACE counts 5 solutions on three vertices 0..2: two 3-cycles
/// and three 2-cycles with one loop; `conformance-core/expected/circuit.sols` lists only the
/// two 3-cycles), and all loops is not a circuit.
#[test]
fn circuit_of_three_as_ace_counts_it() {
    let (mut m, v) = model(3);
    let mut m2 = Model::new();
    let w = m2.int_vars(3, 0, 2).unwrap();
    m2.circuit(&w, 0, None).unwrap();
    let mut s = solver(&m2, SearchConfig::default());
    let mut found: Vec<Vec<i32>> = s.solutions().collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0]
        ]
    );
    // Size 3: the Hamiltonian ones alone.
    m.circuit(&v, 0, Some(IntOrVar::Int(3))).unwrap();
    assert_eq!(solver(&m, SearchConfig::default()).count().solutions, 2);
}

#[test]
fn malformed_automata_and_diagrams_are_errors() {
    let (mut m, v) = model(3);
    assert!(Automaton::new(2, 2, vec![0], vec![]).is_err(), "start");
    assert!(Automaton::new(2, 0, vec![5], vec![]).is_err(), "final");
    assert!(Automaton::new(2, 0, vec![1], vec![(0, 1, 2)]).is_err(), "target");
    assert!(Automaton::new(0, 0, vec![], vec![]).is_err(), "no state");
    let bad = Automaton {
        states: 1,
        start: 0,
        finals: vec![0],
        transitions: vec![(0, 1, 3)],
    };
    assert!(
        is_invalid(m.regular(&v, &bad)),
        "fields set by hand are checked too"
    );
    let ok = Automaton::new(1, 0, vec![0], vec![(0, 1, 0)]).unwrap();
    assert!(is_invalid(m.regular(&[], &ok)));
    assert!(Mdd::new(3, 0, 3, vec![]).is_err(), "terminal");
    assert!(
        Mdd::new(3, 0, 2, vec![(0, 0, 1)]).is_err(),
        "terminal unreachable"
    );
    assert!(
        Mdd::new(3, 0, 2, vec![(0, 0, 1), (1, 0, 2), (0, 1, 2)]).is_err(),
        "not layered"
    );
    assert!(Mdd::new(2, 0, 1, vec![(0, 0, 1), (1, 0, 0)]).is_err(), "a cycle");
    let two = Mdd::new(3, 0, 2, vec![(0, 0, 1), (1, 0, 2)]).unwrap();
    assert!(is_invalid(m.mdd(&v, &two)), "three variables, two layers");
    assert!(m.mdd(&v[..2], &two).is_ok());
}

#[test]
fn cardinality_past_the_pair_cap_is_refused_before_posting() {
    // One count per value over every variable: 4,097 x 2,048 pairs is just past the cap.
    let mut m = Model::new();
    let xs = m.int_vars(4097, 0, 4096).unwrap();
    let occurs = m.int_vars(2048, 0, 4097).unwrap();
    let values: Vec<i32> = (0..2048).collect();
    let refused = m.cardinality(&xs, &values, &occurs, false);
    let Err(ModelError::TooLarge { size, max, .. }) = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!((*size, *max), (4097 * 2048, csp_core::MAX_CARDINALITY_PAIRS));
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("cardinality: 4097 variables and 2048 values")
    );
    assert!(m.propagators().is_empty());
    // At the cap it is posted.
    assert_eq!(m.cardinality(&xs[..4096], &values, &occurs, false), Ok(()));
}

#[test]
fn all_different_past_the_pair_cap_falls_back_to_strength_value() {
    use csp_core::{MAX_MATCHING_PAIRS, Strength};
    let names = |m: &Model| {
        m.propagators()
            .iter()
            .map(|p| p.name().to_string())
            .collect::<Vec<_>>()
    };
    // n variables over 0..n-1 hold n^2 pairs: 4,096^2 is the cap, 4,097^2 past it.
    for (n, strength, expected) in [
        (
            4096,
            Strength::Gac,
            vec!["all-different(hidden)", "all-different(gac)"],
        ),
        (4097, Strength::Gac, vec!["all-different(value)"]),
        (4096, Strength::Hidden, vec!["all-different(hidden)"]),
        (4097, Strength::Hidden, vec!["all-different(value)"]),
    ] {
        assert!((n as u64 * n as u64 > MAX_MATCHING_PAIRS) == (n == 4097));
        let mut m = Model::new();
        let xs = m.int_vars(n, 0, n as i32 - 1).unwrap();
        m.all_different_nary(&xs, strength).unwrap();
        assert_eq!(names(&m), expected, "{n} variables at {strength}");
    }
}

/// `channel` across several blocks of 64 variables and domains of several words, where
/// the count is known: `x[i]` may be `i` or its pair's other index (`i ^ 1`), free on `m`
/// pairs and fixed to `i` on the others, so there are 2^m solutions; each `x[i]` also holds
/// a third value whose image `y` cannot be `i` (the mirror must remove it, from another
/// block). Both forms, two lists with offsets and one list (an involution).
#[test]
fn channel_across_blocks_of_64() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    for round in 0..6 {
        let n = (66 + next(100) as usize) & !1;
        let (sx, sy) = (next(200) as i32 - 100, next(200) as i32 - 100);
        let free: Vec<bool> = (0..n / 2).map(|_| next(n as u64 / 2) < 4).collect();
        let m = free.iter().filter(|&&f| f).count() as u32;
        let one_list = round % 2 == 1;
        let mut model = Model::new();
        let (sy, ys_start) = if one_list { (sx, sx) } else { (sy, sx) };
        let far = |i: usize| (i + 1 + n / 3) % n;
        let xs: Vec<VarId> = (0..n)
            .map(|i| {
                let mut values = vec![i as i32 + sy, far(i) as i32 + sy];
                if free[i / 2] {
                    values.push((i ^ 1) as i32 + sy);
                }
                model.add_var(Domain::from_values(values).unwrap())
            })
            .collect();
        if one_list {
            // far(i) is no partner of i: x[far(i)] cannot be i unless far(far(i)) = i.
            model.channel_self(&xs, sx).unwrap();
        } else {
            let ys: Vec<VarId> = (0..n)
                .map(|j| {
                    // y[far(i)] cannot be i: every value but the one whose far image it is.
                    let values = (0..n).filter(|&i| far(i) != j).map(|i| i as i32 + ys_start);
                    model.add_var(Domain::from_values(values).unwrap())
                })
                .collect();
            model.channel(&xs, sx, &ys, sy).unwrap();
        }
        for strategy in ["dom-wdeg/asc/mac", "static/asc/fc"] {
            let mut solver =
                Solver::new(&model, SearchConfig::with_strategy(strategy.parse().unwrap())).unwrap();
            let mut count = 0u64;
            solver.for_each_solution(|s| {
                assert!(model.is_solution(s), "{:?}", model.violation(s));
                for i in 0..n {
                    let j = s[xs[i].index()] - sy;
                    assert!(
                        j == i as i32 || (free[i / 2] && j == (i ^ 1) as i32),
                        "x[{i}] = {j}"
                    );
                }
                count += 1;
                true
            });
            assert_eq!(
                count,
                1 << m,
                "n {n}, starts {sx} {sy}, one list {one_list}, {strategy}"
            );
        }
    }
}

#[test]
fn minimum_and_maximum_of_wide_domains_match_brute_force() {
    // A result over 0..=100000 and up to 8 variables: past the size at which only the
    // result's bounds are checked for support. Every assignment of the variables has one
    // solution, its extreme.
    let values: [&[i32]; 4] = [
        &[5, 70_000, 99_999],
        &[10, 99_999],
        &[3, 50_000],
        &[0, 1, 100_000],
    ];
    for is_max in [true, false] {
        for strategy in ["mrv/asc/mac", "dom-wdeg/desc/mac", "static/asc/fc"] {
            let mut m = Model::new();
            let xs: Vec<VarId> = values
                .iter()
                .map(|vs| m.add_var(Domain::from_values(vs.iter().copied()).unwrap()))
                .collect();
            let result = m.int_var(0, 100_000).unwrap();
            if is_max {
                m.maximum(&xs, result).unwrap();
            } else {
                m.minimum(&xs, result).unwrap();
            }
            let mut solver = Solver::new(&m, SearchConfig::with_strategy(strategy.parse().unwrap())).unwrap();
            let found: Vec<Vec<i32>> = solver.solutions().collect();
            assert_eq!(
                found.len(),
                values.iter().map(|v| v.len()).product::<usize>(),
                "{strategy} max={is_max}"
            );
            for s in &found {
                let xs = &s[..4];
                let extreme = if is_max { xs.iter().max() } else { xs.iter().min() };
                assert_eq!(Some(&s[4]), extreme, "{strategy}: {s:?}");
            }
        }
    }
}
