//! Random small instances of every constraint kind, written as XCSP3 text, counted under
//! several strategies and compared with brute force over the constraints as read: checks
//! the posting (unary filtering, binary merging, fast relations, tables, linear sums,
//! auxiliary variables, element, all-different) against the semantics.

use std::collections::BTreeSet;

use csp_core::{SearchConfig, Solver, Strategy};
use csp_xcsp::Instance;

use crate::rng::Rng;

fn var(r: &mut Rng, n: usize) -> String {
    format!("x[{}]", r.below(n as u64))
}

fn term(r: &mut Rng, n: usize, depth: u32) -> String {
    match if depth == 0 { r.below(2) } else { r.below(8) } {
        0 => var(r, n),
        1 => r.range(-2, 3).to_string(),
        2 => format!(
            "{}({},{})",
            r.pick(&["add", "sub", "mul", "min", "max", "dist"]),
            term(r, n, depth - 1),
            term(r, n, depth - 1)
        ),
        3 => format!("{}({})", r.pick(&["neg", "abs", "sqr"]), term(r, n, depth - 1)),
        4 => format!(
            "{}({},{})",
            r.pick(&["div", "mod"]),
            term(r, n, depth - 1),
            r.range(1, 3)
        ),
        5 => format!(
            "if({},{},{})",
            boolean(r, n, depth - 1),
            term(r, n, depth - 1),
            term(r, n, depth - 1)
        ),
        6 => format!(
            "add({},{},{})",
            term(r, n, depth - 1),
            term(r, n, depth - 1),
            boolean(r, n, depth - 1)
        ),
        _ => boolean(r, n, depth - 1),
    }
}

fn boolean(r: &mut Rng, n: usize, depth: u32) -> String {
    match if depth == 0 { 0 } else { r.below(5) } {
        0 | 1 => format!(
            "{}({},{})",
            r.pick(&["lt", "le", "ge", "gt", "ne", "eq"]),
            term(r, n, depth.saturating_sub(1)),
            term(r, n, depth.saturating_sub(1))
        ),
        2 => format!(
            "{}({},{})",
            r.pick(&["and", "or", "xor", "iff", "imp"]),
            boolean(r, n, depth - 1),
            boolean(r, n, depth - 1)
        ),
        3 => format!("not({})", boolean(r, n, depth - 1)),
        _ => format!(
            "{}({},set({},{}))",
            r.pick(&["in", "notin"]),
            term(r, n, depth - 1),
            r.range(-1, 3),
            r.range(0, 4)
        ),
    }
}

/// A function of two variables: a comparison (0 or 1) or an arithmetic one, for the sums of
/// functions that are posted as linear constraints over auxiliary variables.
fn function_of_two(r: &mut Rng, n: usize) -> String {
    let f = r.pick(&["eq", "ne", "lt", "mul", "dist", "max"]);
    let g = format!("{f}({},{})", var(r, n), var(r, n));
    match r.below(4) {
        0 => format!("and(ne({},{}),{g})", var(r, n), r.range(0, 2)),
        1 => format!("mul({},{g})", r.range(-2, 3)),
        _ => g,
    }
}

fn constraint(r: &mut Rng, n: usize) -> String {
    match r.below(11) {
        0 | 1 => format!("<intension> {} </intension>", boolean(r, n, 2)),
        2 => {
            // a binary fast-path shape
            let (a, b) = (var(r, n), var(r, n));
            let c = r.range(-2, 2);
            let f = r.pick(&[
                "ne(%a,add(%b,%c))",
                "eq(%a,sub(%b,%c))",
                "ne(dist(%a,%b),%c)",
                "lt(%a,%b)",
                "le(%b,%a)",
                "gt(%a,%b)",
            ]);
            format!(
                "<intension> {} </intension>",
                f.replace("%a", &a)
                    .replace("%b", &b)
                    .replace("%c", &c.abs().to_string())
            )
        }
        3 => {
            let arity = r.range(1, 3) as usize;
            let scope: Vec<String> = (0..arity).map(|_| var(r, n)).collect();
            let tuples: Vec<String> = (0..r.range(0, 8))
                .map(|_| {
                    let cells: Vec<String> = (0..arity)
                        .map(|_| {
                            if r.below(6) == 0 {
                                "*".to_string()
                            } else {
                                r.range(0, 3).to_string()
                            }
                        })
                        .collect();
                    format!("({})", cells.join(","))
                })
                .collect();
            let kind = r.pick(&["supports", "conflicts"]);
            format!(
                "<extension> <list> {} </list> <{kind}> {} </{kind}> </extension>",
                scope.join(" "),
                tuples.join("")
            )
        }
        4 => {
            let k = r.range(2, 4) as usize;
            let items: Vec<String> = (0..k)
                .map(|_| {
                    if r.below(3) == 0 {
                        format!("add({},{})", var(r, n), r.range(-1, 2))
                    } else {
                        var(r, n)
                    }
                })
                .collect();
            if r.below(3) == 0 {
                format!(
                    "<allDifferent> <list> {} </list> <except> 0 </except> </allDifferent>",
                    items.join(" ")
                )
            } else {
                format!("<allDifferent> {} </allDifferent>", items.join(" "))
            }
        }
        5 | 6 => {
            let k = r.range(1, 4) as usize;
            let items: Vec<String> = (0..k).map(|_| var(r, n)).collect();
            let coeffs: Vec<String> = (0..k).map(|_| r.range(-2, 3).to_string()).collect();
            let cond = match r.below(4) {
                0 => format!(
                    "({},{})",
                    r.pick(&["lt", "le", "ge", "gt", "eq", "ne"]),
                    r.range(-2, 6)
                ),
                1 => format!("({},{})", r.pick(&["le", "eq", "ne", "ge"]), var(r, n)),
                2 => {
                    let lo = r.range(-2, 4);
                    format!("({},{}..{})", r.pick(&["in", "notin"]), lo, lo + r.range(0, 3))
                }
                _ => format!(
                    "({},{{{},{}}})",
                    r.pick(&["in", "notin"]),
                    r.range(-1, 4),
                    r.range(0, 6)
                ),
            };
            format!(
                "<sum> <list> {} </list> <coeffs> {} </coeffs> <condition> {cond} </condition> </sum>",
                items.join(" "),
                coeffs.join(" ")
            )
        }
        7 => {
            let k = r.range(1, 4) as usize;
            let items: Vec<String> = (0..k)
                .map(|_| {
                    if r.below(4) == 0 {
                        r.range(0, 3).to_string()
                    } else {
                        var(r, n)
                    }
                })
                .collect();
            let value = if r.below(2) == 0 {
                var(r, n)
            } else {
                r.range(0, 3).to_string()
            };
            format!(
                "<element> <list startIndex=\"{}\"> {} </list> <index> {} </index> <value> {value} </value> </element>",
                r.range(0, 1),
                items.join(" "),
                var(r, n)
            )
        }
        8 => {
            let terms: Vec<String> = (0..r.range(2, 4)).map(|_| function_of_two(r, n)).collect();
            let rhs = if r.below(2) == 0 {
                var(r, n)
            } else {
                r.range(-1, 4).to_string()
            };
            format!(
                "<intension> {}(add({}),{rhs}) </intension>",
                r.pick(&["lt", "le", "ge", "gt", "eq", "ne"]),
                terms.join(",")
            )
        }
        9 => {
            // Constant bounds (no counter variable) and the other conditions.
            let items: Vec<String> = (0..r.range(2, 4)).map(|_| var(r, n)).collect();
            let cond = match r.below(4) {
                0 => format!(
                    "({},{})",
                    r.pick(&["lt", "le", "ge", "gt", "eq", "ne"]),
                    r.range(0, 4)
                ),
                1 => {
                    let lo = r.range(0, 3);
                    format!("({},{}..{})", r.pick(&["in", "notin"]), lo, lo + r.range(0, 2))
                }
                2 => format!("({},{})", r.pick(&["le", "eq", "gt"]), var(r, n)),
                _ => "(gt,1)".to_string(),
            };
            let except = if r.below(3) == 0 {
                " <except> 0 </except>"
            } else {
                ""
            };
            format!(
                "<nValues> <list> {} </list>{except} <condition> {cond} </condition> </nValues>",
                items.join(" ")
            )
        }
        _ => format!(
            "<intension> eq(add({},{},{}),{}) </intension>",
            boolean(r, n, 0),
            boolean(r, n, 0),
            var(r, n),
            r.range(0, 3)
        ),
    }
}

fn brute_force(instance: &Instance) -> BTreeSet<Vec<i32>> {
    let model = &instance.model;
    let n = instance.declared;
    let domains: Vec<Vec<i32>> = model
        .vars()
        .take(n)
        .map(|v| model.domain(v).values().collect())
        .collect();
    let mut out = BTreeSet::new();
    let mut idx = vec![0usize; n];
    loop {
        let values: Vec<i32> = idx.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
        if instance.constraints.iter().all(|c| c.constraint.holds(&values)) {
            out.insert(values);
        }
        let mut k = 0;
        loop {
            if k == n {
                return out;
            }
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn random_instances_against_brute_force() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let strategies: Vec<Strategy> = [
        "static/asc/none",
        "mrv/lcv/fc",
        "mrv-degree/asc/mac",
        "dom-wdeg/asc/mac",
        "dom-wdeg-fixed/desc/mac",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    for case in 0..300 {
        let n = r.range(2, 5) as usize;
        let constraints: Vec<String> = (0..r.range(1, 4)).map(|_| constraint(&mut r, n)).collect();
        let domain = if r.below(2) == 0 {
            "0..3".to_string()
        } else {
            format!("{}..{}", r.range(-2, 0), r.range(1, 3))
        };
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[{n}]\"> {domain} </array></variables><constraints>\n{}\n</constraints></instance>",
            constraints.join("\n")
        );
        let instance = Instance::from_str(&xml).unwrap_or_else(|e| panic!("case {case}: {e}\n{xml}"));
        // Variables in no constraint are fixed (as XCSP3 solvers count): brute force over
        // the model's domains after that.
        let mut expected = brute_force(&instance);
        for v in instance.model.vars().take(instance.declared) {
            if let Some(k) = instance.model.fixed(v) {
                expected.retain(|s| s[v.index()] == k);
            }
        }
        for &strategy in &strategies {
            let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
            let found: BTreeSet<Vec<i32>> = solver
                .solutions()
                .map(|s| s[..instance.declared].to_vec())
                .collect();
            assert_eq!(found, expected, "case {case} under {strategy}\n{xml}");
            let mut counter = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
            assert_eq!(
                counter.count().solutions,
                expected.len() as u64,
                "case {case} under {strategy}\n{xml}"
            );
        }
    }
}

/// What a random objective computes, for the oracle: the function, the indices `i` of its
/// items `x[i]` and their coefficients (1 when the file gives none).
enum ObjectiveSpec {
    /// An expression: its value is the reader's evaluation of it.
    Expression,
    /// `sum`, `product`, `minimum`, `maximum`, `nValues` or `lex` of `c_i * x[i]`.
    List {
        kind: &'static str,
        items: Vec<usize>,
        coeffs: Vec<i128>,
    },
}

impl ObjectiveSpec {
    /// The objective's key under a solution, computed here from the drawn items and
    /// coefficients (never from the reader): one value, or the list of values for `lex`.
    fn key(&self, instance: &Instance, s: &[i32]) -> Option<Vec<i128>> {
        let ObjectiveSpec::List { kind, items, coeffs } = self else {
            return instance.objective_value(s).map(|v| vec![v]);
        };
        let terms: Vec<i128> = items
            .iter()
            .zip(coeffs)
            .map(|(&i, &c)| c * i128::from(s[i]))
            .collect();
        Some(match *kind {
            "sum" => vec![terms.iter().sum()],
            "product" => vec![terms.iter().product()],
            "minimum" => vec![*terms.iter().min()?],
            "maximum" => vec![*terms.iter().max()?],
            "nValues" => vec![terms.iter().collect::<BTreeSet<_>>().len() as i128],
            _ => terms,
        })
    }
}

/// A random `<objectives>` over `x[0..n]`: every function type, minimised or maximised,
/// each list type with or without `<coeffs>`.
fn objective(r: &mut Rng, n: usize) -> (String, ObjectiveSpec) {
    let goal = r.pick(&["minimize", "maximize"]);
    let k = r.range(1, 4) as usize;
    let items: Vec<usize> = (0..k).map(|_| r.below(n as u64) as usize).collect();
    let list = items
        .iter()
        .map(|i| format!("x[{i}]"))
        .collect::<Vec<_>>()
        .join(" ");
    let kind = match r.below(8) {
        0 => {
            let body = format!("<{goal}> {} </{goal}>", term(r, n, 2));
            return (
                format!("<objectives> {body} </objectives>"),
                ObjectiveSpec::Expression,
            );
        }
        6 => {
            // A sum of functions of several variables (RoadefPlanning2's objective): its
            // value is the reader's evaluation, as for an expression.
            let terms: Vec<String> = (0..r.range(2, 4)).map(|_| function_of_two(r, n)).collect();
            let body = format!("<{goal} type=\"sum\"> {} </{goal}>", terms.join(" "));
            return (
                format!("<objectives> {body} </objectives>"),
                ObjectiveSpec::Expression,
            );
        }
        1 => "sum",
        2 => "product",
        3 => "minimum",
        4 => "maximum",
        5 => "nValues",
        _ => "lex",
    };
    let (coeffs, written) = if r.below(2) == 0 {
        (vec![1; k], String::new())
    } else {
        let coeffs: Vec<i128> = (0..k).map(|_| i128::from(r.range(-3, 4))).collect();
        let text = coeffs.iter().map(i128::to_string).collect::<Vec<_>>().join(" ");
        (coeffs, format!(" <coeffs> {text} </coeffs>"))
    };
    let body = format!("<{goal} type=\"{kind}\"> <list> {list} </list>{written} </{goal}>");
    (
        format!("<objectives> {body} </objectives>"),
        ObjectiveSpec::List { kind, items, coeffs },
    )
}

#[test]
fn random_objectives_against_brute_force() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let strategies: Vec<Strategy> = ["static/asc/none", "mrv/lcv/fc", "dom-wdeg/asc/mac"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    for case in 0..300 {
        let n = r.range(2, 4) as usize;
        let constraints: Vec<String> = (0..r.range(0, 2)).map(|_| constraint(&mut r, n)).collect();
        let domain = format!("{}..{}", r.range(-2, 0), r.range(1, 3));
        let (objectives, spec) = objective(&mut r, n);
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"COP\"><variables><array id=\"x\" size=\"[{n}]\"> {domain} </array></variables><constraints>\n{}\n</constraints>{objectives}</instance>",
            constraints.join("\n"),
        );
        let instance = Instance::from_str(&xml).unwrap_or_else(|e| panic!("case {case}: {e}\n{xml}"));
        let mut solutions = brute_force(&instance);
        for v in instance.model.vars().take(instance.declared) {
            if let Some(k) = instance.model.fixed(v) {
                solutions.retain(|s| s[v.index()] == k);
            }
        }
        let maximising = xml.contains("<maximize");
        // The best by the objective's definition: a list of values compared in order for
        // `lex`, its value otherwise (a solution whose objective is undefined is no solution).
        let key = |s: &[i32]| spec.key(&instance, s);
        let keys = solutions.iter().filter_map(|s| key(s));
        let best = if maximising { keys.max() } else { keys.min() };
        for &strategy in &strategies {
            let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
            let optimum = solver.optimize().unwrap();
            assert!(optimum.proved, "case {case} under {strategy}\n{xml}");
            let found = optimum.best.as_deref().map(|s| {
                assert!(instance.satisfies(s), "case {case} under {strategy}\n{xml}");
                assert_eq!(
                    instance.objective_value(s).and_then(|v| i64::try_from(v).ok()),
                    optimum.objective,
                    "case {case} under {strategy}: the reported objective is the reader's value\n{xml}"
                );
                let independent = key(s).expect("defined");
                if let [value] = independent[..] {
                    assert_eq!(
                        optimum.objective.map(i128::from),
                        Some(value),
                        "case {case} under {strategy}: the reported objective is the definition's\n{xml}"
                    );
                }
                independent
            });
            assert_eq!(found, best, "case {case} under {strategy}\n{xml}");
        }
    }
}
