//! `cumulative` and `binPacking`, whose conditions bound loads, against definitions written
//! here from the XCSP3 specification: a load over time is evaluated at every integer time
//! of a window that covers every task and a time on either side, and the bins of
//! `binPacking` with `<condition>` are the values of the items' domains. Random small
//! instances with every condition operator (`lt le ge gt eq ne`, `in` and `notin` with a set
//! and with a range, a variable operand), task lengths and heights 0 included, negative
//! origins, and expressions as items. Both the search (under four strategies) and the
//! instance's own solution check must agree with the definitions, assignment by assignment.

use std::collections::BTreeSet;

use csp_core::{SearchConfig, Solver, Strategy};
use csp_xcsp::Instance;

use crate::rng::Rng;

/// A condition `(op, operand)` with its meaning.
enum Cond {
    /// `lt le ge gt eq ne` against an integer.
    Cmp(&'static str, i64),
    /// The same against the variable of this index.
    CmpVar(&'static str, usize),
    /// `in` (true) or `notin` an interval.
    Range(bool, i64, i64),
    /// `in` (true) or `notin` a set.
    Set(bool, Vec<i64>),
}

fn compare(op: &str, a: i64, b: i64) -> bool {
    match op {
        "lt" => a < b,
        "le" => a <= b,
        "ge" => a >= b,
        "gt" => a > b,
        "eq" => a == b,
        _ => a != b,
    }
}

impl Cond {
    fn random(r: &mut Rng, vars: usize, hi: i64) -> Cond {
        let ops = ["lt", "le", "ge", "gt", "eq", "ne"];
        match r.below(6) {
            0 | 1 => Cond::Cmp(r.pick(&ops), r.range(-1, hi)),
            2 if vars > 0 => Cond::CmpVar(r.pick(&ops), r.below(vars as u64) as usize),
            2 | 3 => {
                let lo = r.range(-1, hi);
                Cond::Range(r.below(2) == 0, lo, lo + r.range(0, 3))
            }
            _ => {
                let set = (0..r.range(1, 3)).map(|_| r.range(-1, hi)).collect();
                Cond::Set(r.below(2) == 0, set)
            }
        }
    }

    fn text(&self, names: &[String]) -> String {
        let op = |inside: bool| if inside { "in" } else { "notin" };
        match self {
            Cond::Cmp(o, k) => format!("({o},{k})"),
            Cond::CmpVar(o, v) => format!("({o},{})", names[*v]),
            Cond::Range(inside, lo, hi) => format!("({},{lo}..{hi})", op(*inside)),
            Cond::Set(inside, set) => {
                let set: Vec<String> = set.iter().map(i64::to_string).collect();
                format!("({},{{{}}})", op(*inside), set.join(","))
            }
        }
    }

    fn holds(&self, load: i64, values: &[i32]) -> bool {
        match self {
            Cond::Cmp(o, k) => compare(o, load, *k),
            Cond::CmpVar(o, v) => compare(o, load, i64::from(values[*v])),
            Cond::Range(inside, lo, hi) => (*lo <= load && load <= *hi) == *inside,
            Cond::Set(inside, set) => set.contains(&load) == *inside,
        }
    }
}

/// A length, height, load or limit: a constant or a variable (by index).
#[derive(Clone, Copy)]
enum Term {
    Int(i64),
    Var(usize),
}

impl Term {
    fn value(self, values: &[i32]) -> i64 {
        match self {
            Term::Int(k) => k,
            Term::Var(v) => i64::from(values[v]),
        }
    }

    fn text(self, names: &[String]) -> String {
        match self {
            Term::Int(k) => k.to_string(),
            Term::Var(v) => names[v].clone(),
        }
    }
}

/// Variables `v0, v1, ...`, each over its own values.
struct Vars {
    domains: Vec<Vec<i32>>,
    names: Vec<String>,
}

impl Vars {
    fn new() -> Vars {
        Vars {
            domains: Vec::new(),
            names: Vec::new(),
        }
    }

    /// A new variable over a random non-empty subset of `lo..=hi`.
    fn add(&mut self, r: &mut Rng, lo: i32, hi: i32) -> usize {
        let mut values: Vec<i32> = (lo..=hi).filter(|_| r.below(3) != 0).collect();
        if values.is_empty() {
            values.push(r.range(i64::from(lo), i64::from(hi)) as i32);
        }
        self.domains.push(values);
        self.names.push(format!("v{}", self.names.len()));
        self.names.len() - 1
    }

    /// A length or height: a constant in `0..=hi` or a new variable over such values.
    fn term(&mut self, r: &mut Rng, hi: i32) -> Term {
        if r.below(3) == 0 {
            Term::Var(self.add(r, 0, hi))
        } else {
            Term::Int(r.range(0, i64::from(hi)))
        }
    }

    fn xml(&self, constraint: &str) -> String {
        let vars: String = self
            .names
            .iter()
            .zip(&self.domains)
            .map(|(name, d)| {
                let values: Vec<String> = d.iter().map(i32::to_string).collect();
                format!("<var id=\"{name}\"> {} </var>", values.join(" "))
            })
            .collect();
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables>{vars}</variables>\
             <constraints>{constraint}</constraints></instance>"
        )
    }

    /// Every assignment, in declaration order.
    fn assignments(&self) -> Vec<Vec<i32>> {
        let mut all = vec![Vec::new()];
        for d in &self.domains {
            all = all
                .into_iter()
                .flat_map(|a| {
                    d.iter().map(move |&x| {
                        let mut b = a.clone();
                        b.push(x);
                        b
                    })
                })
                .collect();
        }
        all
    }
}

/// Whether an assignment (one value per variable, in order) satisfies a definition.
type Definition = Box<dyn Fn(&[i32]) -> bool>;

/// A constraint drawn at random: its XCSP3 text and its definition.
struct Drawn {
    vars: Vars,
    xml: String,
    definition: Definition,
}

fn cumulative(r: &mut Rng) -> Drawn {
    let mut v = Vars::new();
    let tasks = r.range(1, 3) as usize;
    let origins: Vec<usize> = (0..tasks).map(|_| v.add(r, -2, 2)).collect();
    let lengths: Vec<Term> = (0..tasks).map(|_| v.term(r, 3)).collect();
    let heights: Vec<Term> = (0..tasks).map(|_| v.term(r, 3)).collect();
    let condition = Cond::random(r, v.names.len(), 5);
    let list = |terms: &mut dyn Iterator<Item = String>| terms.collect::<Vec<_>>().join(" ");
    let xml = format!(
        "<cumulative><origins> {} </origins><lengths> {} </lengths><heights> {} </heights>\
         <condition> {} </condition></cumulative>",
        list(&mut origins.iter().map(|&o| v.names[o].clone())),
        list(&mut lengths.iter().map(|l| l.text(&v.names))),
        list(&mut heights.iter().map(|h| h.text(&v.names))),
        condition.text(&v.names)
    );
    let definition = move |s: &[i32]| {
        // Every time from before the first origin to after the last end.
        (-4..=8).all(|t: i64| {
            let load: i64 = (0..tasks)
                .filter(|&i| {
                    let o = i64::from(s[origins[i]]);
                    o <= t && t < o + lengths[i].value(s)
                })
                .map(|i| heights[i].value(s))
                .sum();
            condition.holds(load, s)
        })
    };
    Drawn {
        xml: v.xml(&xml),
        vars: v,
        definition: Box::new(definition),
    }
}

/// How the drawn `binPacking` bounds its loads.
enum Bound {
    Each(Cond),
    Loads(Vec<Term>),
    Limits(Vec<Term>),
    Conditions(Vec<Cond>),
}

fn bin_packing(r: &mut Rng) -> Drawn {
    let mut v = Vars::new();
    let items = r.range(1, 4) as usize;
    // Item `i` is `x + shift`: the bin of a variable, or of an expression.
    let bins: Vec<(usize, i64)> = (0..items)
        .map(|_| (v.add(r, -1, 2), if r.below(4) == 0 { r.range(-1, 1) } else { 0 }))
        .collect();
    let sizes: Vec<i64> = (0..items).map(|_| r.range(0, 3)).collect();
    let first = r.range(-1, 1);
    let count = r.range(1, 3) as usize;
    let total: i32 = sizes.iter().sum::<i64>() as i32;
    let bound = match r.below(4) {
        0 => Bound::Each(Cond::random(r, 0, 4)),
        1 => Bound::Loads((0..count).map(|_| v.term(r, total.min(4))).collect()),
        2 => Bound::Limits((0..count).map(|_| v.term(r, 3)).collect()),
        _ => Bound::Conditions((0..count).map(|_| Cond::random(r, 0, 4)).collect()),
    };
    let item_text = |&(x, shift): &(usize, i64)| match shift {
        0 => v.names[x].clone(),
        k => format!("add({},{k})", v.names[x]),
    };
    let items_text: Vec<String> = bins.iter().map(item_text).collect();
    let sizes_text: Vec<String> = sizes.iter().map(i64::to_string).collect();
    let terms = |ts: &[Term]| ts.iter().map(|t| t.text(&v.names)).collect::<Vec<_>>().join(" ");
    let (start, tail) = match &bound {
        Bound::Each(c) => (
            String::new(),
            format!("<condition> {} </condition>", c.text(&v.names)),
        ),
        Bound::Loads(ls) => (
            format!(" startIndex=\"{first}\""),
            format!("<loads> {} </loads>", terms(ls)),
        ),
        Bound::Limits(ls) => (
            format!(" startIndex=\"{first}\""),
            format!("<limits> {} </limits>", terms(ls)),
        ),
        Bound::Conditions(cs) => {
            let cs: Vec<String> = cs.iter().map(|c| c.text(&v.names)).collect();
            (
                format!(" startIndex=\"{first}\""),
                format!("<conditions> {} </conditions>", cs.join(" ")),
            )
        }
    };
    let xml = format!(
        "<binPacking><list{start}> {} </list><sizes> {} </sizes>{tail}</binPacking>",
        items_text.join(" "),
        sizes_text.join(" ")
    );
    // The bins: with <condition>, every value an item can take; else first, first + 1, ...
    let bin_values: Vec<i64> = match &bound {
        Bound::Each(_) => bins
            .iter()
            .flat_map(|&(x, shift)| v.domains[x].iter().map(move |&a| i64::from(a) + shift))
            .collect::<BTreeSet<i64>>()
            .into_iter()
            .collect(),
        _ => (0..count as i64).map(|k| first + k).collect(),
    };
    let definition = move |s: &[i32]| {
        let placed: Vec<i64> = bins.iter().map(|&(x, shift)| i64::from(s[x]) + shift).collect();
        if placed.iter().any(|b| !bin_values.contains(b)) {
            return false;
        }
        bin_values.iter().enumerate().all(|(k, b)| {
            let load: i64 = placed
                .iter()
                .zip(&sizes)
                .filter(|(p, _)| *p == b)
                .map(|(_, z)| z)
                .sum();
            match &bound {
                Bound::Each(c) => c.holds(load, s),
                Bound::Loads(ls) => load == ls[k].value(s),
                Bound::Limits(ls) => load <= ls[k].value(s),
                Bound::Conditions(cs) => cs[k].holds(load, s),
            }
        })
    };
    Drawn {
        xml: v.xml(&xml),
        vars: v,
        definition: Box::new(definition),
    }
}

/// The search under four strategies and the instance's check agree with the definition.
fn check(case: usize, drawn: &Drawn) {
    let instance =
        Instance::from_str(&drawn.xml).unwrap_or_else(|e| panic!("case {case}: {e}\n{}", drawn.xml));
    let mut expected = BTreeSet::new();
    for values in drawn.vars.assignments() {
        let defined = (drawn.definition)(&values);
        assert_eq!(
            instance.satisfies(&values),
            defined,
            "case {case}: the check of {values:?}\n{}",
            drawn.xml
        );
        if defined {
            expected.insert(values);
        }
    }
    for strategy in [
        "static/asc/none",
        "mrv/lcv/fc",
        "dom-wdeg/asc/mac",
        "mrv-degree/desc/mac",
    ] {
        let strategy: Strategy = strategy.parse().unwrap();
        let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
        let found: BTreeSet<Vec<i32>> = solver
            .solutions()
            .map(|s| s[..instance.declared].to_vec())
            .collect();
        assert_eq!(found, expected, "case {case} under {strategy}\n{}", drawn.xml);
        let mut counter = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
        assert_eq!(
            counter.count().solutions,
            expected.len() as u64,
            "case {case} under {strategy}: the count\n{}",
            drawn.xml
        );
    }
}

#[test]
fn cumulative_loads_under_every_condition_against_their_definition() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    for case in 0..400 {
        check(case, &cumulative(&mut r));
    }
}

#[test]
fn bin_packing_loads_under_every_bound_against_their_definition() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..400 {
        check(case, &bin_packing(&mut r));
    }
}

/// Thousands more of each, on other seeds: `cargo test --release -p csp-xcsp --test xcsp
/// loads -- --ignored`.
#[test]
#[ignore = "thousands of instances: run on demand"]
fn loads_thousands() {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    for case in 0..20_000 {
        check(case, &cumulative(&mut r));
        check(case, &bin_packing(&mut r));
    }
}

/// The two cases of the hostile run, with the answers their definitions give.
#[test]
fn the_reported_cumulative_and_bin_packing_cases() {
    // Loads 1, 3, 2, 2 at t = -1, 0, 1, 2: the load 2 after the second task ends is
    // forbidden.
    for condition in ["(ne,2)", "(in,{0,1,3})", "(notin,2..2)"] {
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"a\"> 0 </var>\
             <var id=\"b\"> -1 </var></variables><constraints><cumulative><origins> a b </origins>\
             <lengths> 3 2 </lengths><heights> 2 1 </heights><condition> {condition} </condition>\
             </cumulative></constraints></instance>"
        );
        let instance = Instance::from_str(&xml).unwrap();
        assert!(!instance.satisfies(&[0, -1]), "{condition}");
        let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
        assert_eq!(solver.count().solutions, 0, "{condition}");
    }
    // Items over {0, 2}: bins 0 and 2, no bin 1; each holds one item.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"x\"> 0 2 </var>\
               <var id=\"y\"> 0 2 </var></variables><constraints><binPacking><list> x y </list>\
               <sizes> 1 1 </sizes><condition> (ge,1) </condition></binPacking></constraints></instance>";
    let instance = Instance::from_str(xml).unwrap();
    let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
    assert_eq!(solver.count().solutions, 2);
}

/// Constant bounds on the loads make no load variables: a search without inference
/// branches on the items alone, so its nodes are those of the items' tree.
#[test]
fn bin_packing_with_constant_bounds_adds_no_variables() {
    for tail in [
        "<condition> (le,3) </condition>",
        "<limits> 3 3 3 3 3 </limits>",
        "<conditions> (le,3) (ne,2) (in,0..3) (notin,{1}) (lt,4) </conditions>",
    ] {
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[4]\"> 0..4 </array>\
             </variables><constraints><binPacking><list> x[] </list><sizes> 1 1 1 1 </sizes>{tail}\
             </binPacking></constraints></instance>"
        );
        let instance = Instance::from_str(&xml).unwrap();
        assert_eq!(instance.model.num_vars(), instance.declared, "{tail}");
        let strategy: Strategy = "static/asc/none".parse().unwrap();
        let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
        let count = solver.count();
        assert!(solver.stats().max_depth <= 4, "{tail}: {:?}", solver.stats());
        // The items' tree has 5 + 25 + 125 + 625 nodes at most.
        assert!(solver.stats().nodes <= 780, "{tail}: {:?}", solver.stats());
        assert!(count.solutions > 0, "{tail}");
    }
}
