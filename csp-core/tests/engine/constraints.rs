//! The n-ary constraint families (tables, linear sums, element, intension) against brute
//! force: small random models of each kind are solved, enumerated and counted under every
//! textbook strategy, dom/wdeg and restarts, and must give exactly the assignments that an
//! independent evaluation of the constraints accepts. Plus the XCSP3 semantics of the
//! expression language, input validation, and node counts on queens posted as intensions.

use csp_core::{
    Cmp, Expr, ExprOp, Model, ModelError, Outcome, SearchConfig, Solver, Strategy as SearchStrategy,
    TableCell, Tuples, VarId,
};
use proptest::prelude::*;

use crate::all_strategies::{Oracle, check_all_strategies, solver};

// ----- constraints as data, with an evaluation of their own -----

#[derive(Clone, Debug)]
enum Term {
    Var(usize),
    Const(i64),
}

#[derive(Clone, Debug)]
enum LinOp {
    Cmp(Cmp, i64),
    CmpVar(Cmp, usize),
    In(Vec<i64>, bool),
    Range(i64, i64, bool),
}

#[derive(Clone, Debug)]
enum Ex {
    C(i64),
    V(usize),
    Op(ExprOp, Vec<Ex>),
}

#[derive(Clone, Debug)]
enum Con {
    Table {
        scope: Vec<usize>,
        tuples: Vec<Vec<Option<i32>>>,
        supports: bool,
        /// Posted through `Model::table_shared`.
        shared: bool,
    },
    Linear {
        terms: Vec<(i64, usize)>,
        op: LinOp,
    },
    Element {
        list: Vec<Term>,
        index: usize,
        start: i64,
        value: Term,
    },
    Intension(Ex),
}

fn cmp_holds(cmp: Cmp, a: i64, b: i64) -> bool {
    match cmp {
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Ge => a >= b,
        Cmp::Gt => a > b,
        Cmp::Eq => a == b,
        _ => a != b,
    }
}

/// The XCSP3 semantics, written out again (the oracle does not use the engine's evaluator).
/// The value of `e` in exact integers (i128 holds every value the generated expressions
/// reach); `None` where it is undefined. `and`, `or` and `imp` are decided by a defined
/// operand even when another is undefined, and `if` evaluates the branch it takes.
fn ev(e: &Ex, s: &[i32]) -> Option<i128> {
    use ExprOp::*;
    let args = match e {
        Ex::C(c) => return Some(i128::from(*c)),
        Ex::V(i) => return Some(i128::from(s[*i])),
        Ex::Op(_, args) => args,
    };
    let Ex::Op(op, _) = e else { unreachable!() };
    if *op == If {
        let c = ev(&args[0], s)?;
        return if c != 0 { ev(&args[1], s) } else { ev(&args[2], s) };
    }
    if matches!(op, In | NotIn) {
        let x = ev(&args[0], s)?;
        let Ex::Op(Set, set) = &args[1] else { return None };
        let values: Option<Vec<i128>> = set.iter().map(|a| ev(a, s)).collect();
        let found = values?.contains(&x);
        return Some(i128::from(found == (*op == In)));
    }
    let parts: Vec<Option<i128>> = args.iter().map(|a| ev(a, s)).collect();
    let b = |x: bool| Some(i128::from(x));
    match op {
        And if parts.contains(&Some(0)) => return b(false),
        Or if parts.iter().any(|p| p.is_some_and(|x| x != 0)) => return b(true),
        Imp if parts[0] == Some(0) || parts[1].is_some_and(|x| x != 0) => return b(true),
        _ => {}
    }
    let v: Vec<i128> = parts.into_iter().collect::<Option<_>>()?;
    match op {
        Neg => Some(-v[0]),
        Abs => Some(v[0].abs()),
        Sqr => Some(v[0] * v[0]),
        Not => b(v[0] == 0),
        Add => Some(v.iter().sum()),
        Mul => Some(v.iter().product()),
        Sub => Some(v[0] - v[1]),
        // Truncation toward zero; the remainder has the dividend's sign.
        Div => (v[1] != 0).then(|| v[0] / v[1]),
        Mod => (v[1] != 0).then(|| v[0] - v[1] * (v[0] / v[1])),
        Pow => {
            if v[1] < 0 {
                None
            } else {
                (0..v[1]).try_fold(1i128, |acc, _| acc.checked_mul(v[0]))
            }
        }
        Min => v.iter().copied().min(),
        Max => v.iter().copied().max(),
        Dist => Some((v[0] - v[1]).abs()),
        Lt => b(v[0] < v[1]),
        Le => b(v[0] <= v[1]),
        Ge => b(v[0] >= v[1]),
        Gt => b(v[0] > v[1]),
        Ne => b(v[0] != v[1]),
        Eq => b(v.iter().all(|&x| x == v[0])),
        And => b(v.iter().all(|&x| x != 0)),
        Or => b(v.iter().any(|&x| x != 0)),
        Xor => b(v.iter().filter(|&&x| x != 0).count() % 2 == 1),
        Iff => b(v.iter().all(|&x| (x != 0) == (v[0] != 0))),
        Imp => b(v[0] == 0 || v[1] != 0),
        _ => None,
    }
}

impl Oracle for Con {
    fn holds(&self, s: &[i32]) -> bool {
        match self {
            Con::Table {
                scope,
                tuples,
                supports,
                ..
            } => {
                let listed = tuples
                    .iter()
                    .any(|t| t.iter().zip(scope).all(|(c, &x)| c.is_none_or(|c| c == s[x])));
                listed == *supports
            }
            Con::Linear { terms, op } => {
                let sum: i64 = terms.iter().map(|&(c, x)| c * i64::from(s[x])).sum();
                match op {
                    LinOp::Cmp(cmp, rhs) => cmp_holds(*cmp, sum, *rhs),
                    LinOp::CmpVar(cmp, x) => cmp_holds(*cmp, sum, i64::from(s[*x])),
                    LinOp::In(values, inside) => values.contains(&sum) == *inside,
                    LinOp::Range(lo, hi, inside) => (*lo <= sum && sum <= *hi) == *inside,
                }
            }
            Con::Element {
                list,
                index,
                start,
                value,
            } => {
                let get = |t: &Term| match t {
                    Term::Var(x) => i64::from(s[*x]),
                    Term::Const(c) => *c,
                };
                let p = i64::from(s[*index]) - start;
                (0..list.len() as i64).contains(&p) && get(&list[p as usize]) == get(value)
            }
            Con::Intension(e) => ev(e, s).is_some_and(|v| v != 0),
        }
    }

    fn post(&self, m: &mut Model, v: &[VarId]) -> Result<(), ModelError> {
        match self {
            Con::Table {
                scope,
                tuples,
                supports,
                shared,
            } => {
                let vars: Vec<VarId> = scope.iter().map(|&x| v[x]).collect();
                let tuples: Vec<Vec<TableCell>> = tuples
                    .iter()
                    .map(|t| {
                        t.iter()
                            .map(|c| c.map_or(TableCell::Any, TableCell::Value))
                            .collect()
                    })
                    .collect();
                if *shared {
                    let tuples = Tuples::new(vars.len(), tuples)?;
                    // Twice: two constraints on the same data.
                    m.table_shared(&vars, &tuples, *supports)?;
                    m.table_shared(&vars, &tuples, *supports)
                } else {
                    m.table(&vars, tuples, *supports)
                }
            }
            Con::Linear { terms, op } => {
                let terms: Vec<(i64, VarId)> = terms.iter().map(|&(c, x)| (c, v[x])).collect();
                match op {
                    LinOp::Cmp(cmp, rhs) => m.linear(&terms, *cmp, *rhs),
                    LinOp::CmpVar(cmp, x) => m.linear_var(&terms, *cmp, v[*x]),
                    LinOp::In(values, inside) => m.linear_in(&terms, values, *inside),
                    LinOp::Range(lo, hi, inside) => m.linear_range(&terms, *lo, *hi, *inside),
                }
            }
            Con::Element {
                list,
                index,
                start,
                value,
            } => {
                let expr = |t: &Term| match t {
                    Term::Var(x) => Expr::Var(v[*x]),
                    Term::Const(c) => Expr::Const(*c),
                };
                let list: Vec<Expr> = list.iter().map(expr).collect();
                m.element(&list, v[*index], *start, expr(value))
            }
            Con::Intension(e) => m.intension(&to_expr(e, v)),
        }
    }
}

fn to_expr(e: &Ex, v: &[VarId]) -> Expr {
    match e {
        Ex::C(c) => Expr::Const(*c),
        Ex::V(i) => Expr::Var(v[*i]),
        Ex::Op(op, args) => Expr::call(*op, args.iter().map(|a| to_expr(a, v)).collect()),
    }
}

// ----- random models -----

type Spec = crate::all_strategies::Spec<Con>;

fn domain() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(-3i32..=4, 1..=4).prop_map(|s| s.into_iter().collect())
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop::sample::select(vec![Cmp::Lt, Cmp::Le, Cmp::Ge, Cmp::Gt, Cmp::Eq, Cmp::Ne])
}

fn table(n: usize) -> impl Strategy<Value = Con> {
    // Half of the tables are short (with `*`), and then one cell in eight is a star.
    (1..=4usize, any::<bool>()).prop_flat_map(move |(arity, short)| {
        let cell = (prop::option::weighted(0.875, -3i32..=4), -3i32..=4)
            .prop_map(move |(cell, value)| if short { cell } else { Some(value) });
        (
            prop::collection::vec(0..n, arity),
            prop::collection::vec(prop::collection::vec(cell, arity), 0..16),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(scope, tuples, supports, shared)| Con::Table {
                scope,
                tuples,
                supports,
                shared,
            })
    })
}

fn linear(n: usize) -> impl Strategy<Value = Con> {
    let terms = prop::collection::vec((prop::sample::select(vec![-3i64, -2, -1, 1, 2, 3]), 0..n), 1..=5);
    let op = prop_oneof![
        (cmp(), -8i64..=8).prop_map(|(c, r)| LinOp::Cmp(c, r)),
        (cmp(), 0..n).prop_map(|(c, x)| LinOp::CmpVar(c, x)),
        (prop::collection::vec(-8i64..=8, 0..5), any::<bool>()).prop_map(|(v, i)| LinOp::In(v, i)),
        (-8i64..=8, 0i64..=6, any::<bool>()).prop_map(|(lo, w, i)| LinOp::Range(lo, lo + w, i)),
    ];
    (terms, op).prop_map(|(terms, op)| Con::Linear { terms, op })
}

fn element(n: usize) -> impl Strategy<Value = Con> {
    let term = prop_oneof![(0..n).prop_map(Term::Var), (-3i64..=4).prop_map(Term::Const)];
    (prop::collection::vec(term.clone(), 1..=4), 0..n, -1i64..=1, term).prop_map(
        |(list, index, start, value)| Con::Element {
            list,
            index,
            start,
            value,
        },
    )
}

fn expr(n: usize) -> impl Strategy<Value = Ex> {
    use ExprOp::*;
    let leaf = prop_oneof![2 => (0..n).prop_map(Ex::V), 1 => (-3i64..=3).prop_map(Ex::C)];
    leaf.prop_recursive(3, 12, 3, |inner| {
        let unary = prop::sample::select(vec![Neg, Abs, Sqr, Not]);
        let binary = prop::sample::select(vec![Sub, Div, Mod, Pow, Dist, Lt, Le, Ge, Gt, Ne, Imp]);
        let nary = prop::sample::select(vec![Add, Mul, Min, Max, And, Or, Xor, Eq, Iff]);
        prop_oneof![
            (unary, inner.clone()).prop_map(|(op, a)| Ex::Op(op, vec![a])),
            (binary, inner.clone(), inner.clone()).prop_map(|(op, a, b)| Ex::Op(op, vec![a, b])),
            (nary, prop::collection::vec(inner.clone(), 2..=3)).prop_map(|(op, a)| Ex::Op(op, a)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Ex::Op(If, vec![c, a, b])),
            (
                prop::sample::select(vec![In, NotIn]),
                inner.clone(),
                prop::collection::vec((-3i64..=3).prop_map(Ex::C), 0..4)
            )
                .prop_map(|(op, a, set)| Ex::Op(op, vec![a, Ex::Op(Set, set)])),
        ]
    })
}

/// Shapes the compiler treats apart: relations, linear forms, unary filters.
fn shaped(n: usize) -> impl Strategy<Value = Ex> {
    use ExprOp::*;
    let var = (0..n).prop_map(Ex::V);
    let c = (-3i64..=3).prop_map(Ex::C);
    let rel = prop::sample::select(vec![Lt, Le, Ge, Gt, Ne, Eq]);
    prop_oneof![
        (rel.clone(), var.clone(), var.clone()).prop_map(|(op, a, b)| Ex::Op(op, vec![a, b])),
        (rel.clone(), var.clone(), var.clone(), c.clone())
            .prop_map(|(op, a, b, c)| Ex::Op(op, vec![a, Ex::Op(Add, vec![b, c])])),
        (var.clone(), var.clone(), c.clone())
            .prop_map(|(a, b, c)| Ex::Op(Ne, vec![Ex::Op(Dist, vec![a, b]), c])),
        (var.clone(), var.clone(), c.clone())
            .prop_map(|(a, b, c)| Ex::Op(Ne, vec![c, Ex::Op(Abs, vec![Ex::Op(Sub, vec![a, b])])])),
        (rel.clone(), prop::collection::vec(var.clone(), 2..=5), -6i64..=6)
            .prop_map(|(op, xs, c)| Ex::Op(op, vec![Ex::Op(Add, xs), Ex::C(c)])),
        (rel, var.clone(), prop::collection::vec(var.clone(), 2..=4))
            .prop_map(|(op, x, ys)| Ex::Op(op, vec![x, Ex::Op(Sub, vec![Ex::Op(Add, ys), Ex::C(1)])])),
        (var.clone(), prop::collection::vec(c.clone(), 0..4))
            .prop_map(|(x, set)| Ex::Op(In, vec![x, Ex::Op(Set, set)])),
        separable(n),
        // Four or five variables: a checker.
        prop::collection::vec(var, 4..=5).prop_map(|xs| Ex::Op(
            Ne,
            vec![
                Ex::Op(Mul, vec![xs[0].clone(), xs[1].clone()]),
                Ex::Op(Add, xs[2..].to_vec())
            ]
        )),
    ]
}

/// Sums of functions of one variable each (over four variables or more: a separable sum).
fn separable(n: usize) -> impl Strategy<Value = Ex> {
    use ExprOp::*;
    (
        prop::sample::select(vec![Lt, Le, Ge, Gt, Ne, Eq, In, NotIn]),
        prop::collection::vec((0..n, 0..6usize, -2i64..=2), 3..=6),
        -4i64..=4,
    )
        .prop_map(move |(op, parts, c)| {
            // Part i on variable i or i + 1 (mod n), so that most sums span four variables.
            let part = |(i, &(x, f, k)): (usize, &(usize, usize, i64))| {
                let x = Ex::V((i + x % 2) % n);
                match f {
                    0 => Ex::Op(Ge, vec![x, Ex::C(k)]),
                    1 => Ex::Op(Mul, vec![Ex::C(k), Ex::Op(Sqr, vec![x])]),
                    2 => Ex::Op(Div, vec![Ex::C(6), x]),
                    3 => Ex::Op(Abs, vec![Ex::Op(Sub, vec![x, Ex::C(k)])]),
                    4 => Ex::Op(Neg, vec![Ex::Op(Mod, vec![x, Ex::C(k)])]),
                    _ => x,
                }
            };
            let sum = Ex::Op(Add, parts.iter().enumerate().map(part).collect());
            match op {
                In | NotIn => Ex::Op(op, vec![sum, Ex::Op(Set, vec![Ex::C(c), Ex::C(c + 2)])]),
                _ => Ex::Op(
                    op,
                    vec![
                        Ex::Op(Sub, vec![sum, Ex::C(1)]),
                        Ex::Op(Add, vec![Ex::C(c), Ex::C(1)]),
                    ],
                ),
            }
        })
}

fn spec_with(cons: impl Fn(usize) -> BoxedStrategy<Con>) -> impl Strategy<Value = Spec> {
    spec_over(2..=5, cons)
}

fn spec_over(
    sizes: std::ops::RangeInclusive<usize>,
    cons: impl Fn(usize) -> BoxedStrategy<Con>,
) -> impl Strategy<Value = Spec> {
    sizes.prop_flat_map(move |n| {
        (
            prop::collection::vec(domain(), n),
            prop::collection::vec(prop::option::weighted(0.1, any::<prop::sample::Index>()), n),
            prop::collection::vec(cons(n), 1..=3),
        )
            .prop_map(|(domains, givens, mut cons)| {
                // Table values mostly from the domains (else few tuples would survive); a
                // value 4 stays as it is, often outside.
                for c in &mut cons {
                    if let Con::Table { scope, tuples, .. } = c {
                        for t in tuples.iter_mut() {
                            for (cell, &x) in t.iter_mut().zip(scope.iter()) {
                                if let Some(a) = cell.filter(|&a| a != 4) {
                                    let d = &domains[x];
                                    *cell = Some(d[(a + 3) as usize % d.len()]);
                                }
                            }
                        }
                    }
                }
                Spec::new(domains, givens, cons)
            })
    })
}

// ----- checks -----

/// A bound on `|e|` over the domains, by magnitudes alone: looser than any interval
/// analysis, so a model that refuses an expression whose bound here stays far inside the
/// 128-bit integers refuses it wrongly.
fn magnitude(e: &Ex, domains: &[Vec<i32>]) -> f64 {
    use ExprOp::*;
    let args = match e {
        Ex::C(c) => return (*c as f64).abs(),
        Ex::V(i) => {
            return domains[*i]
                .iter()
                .map(|&v| f64::from(v).abs())
                .fold(0.0, f64::max);
        }
        Ex::Op(_, args) => args,
    };
    let Ex::Op(op, _) = e else { unreachable!() };
    let m: Vec<f64> = args.iter().map(|a| magnitude(a, domains)).collect();
    let largest = m.iter().copied().fold(0.0, f64::max);
    match op {
        Sqr => m[0] * m[0],
        Add | Sub | Dist => m.iter().sum(),
        Mul => m.iter().product(),
        Pow => m[0].max(1.0).powf(m[1]),
        Neg | Abs | Div | Mod | Min | Max | If | Set => largest,
        _ => 1.0,
    }
}

fn check_spec(spec: &Spec) -> Result<(), TestCaseError> {
    let model = match spec.try_model() {
        Ok(model) => model,
        Err(ModelError::Arithmetic { .. })
            if spec
                .cons
                .iter()
                .any(|c| matches!(c, Con::Intension(e) if magnitude(e, &spec.domains) > 2f64.powi(100))) =>
        {
            // Refused as too wide: the generator can nest powers (`pow(-2, pow(4, 4))`).
            return Err(TestCaseError::reject("an expression too wide for 128 bits"));
        }
        Err(e) => return Err(TestCaseError::fail(format!("refused: {e}"))),
    };
    let expected = spec.brute_force();
    // is_solution is exact: it accepts the brute-force solutions (and search checks the rest).
    for s in &expected {
        prop_assert!(model.is_solution(s), "{s:?}: {:?}", model.violation(s));
    }
    check_all_strategies(&model, &expected)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn tables(spec in spec_with(|n| table(n).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn linear_sums(spec in spec_with(|n| linear(n).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn elements(spec in spec_with(|n| element(n).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn intensions(spec in spec_with(|n| expr(n).prop_map(Con::Intension).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn shaped_intensions(spec in spec_with(|n| shaped(n).prop_map(Con::Intension).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn separable_sums(spec in spec_over(4..=5, |n| separable(n).prop_map(Con::Intension).boxed())) {
        check_spec(&spec)?;
    }

    #[test]
    fn mixed(spec in spec_with(|n| prop_oneof![table(n), linear(n), element(n), shaped(n).prop_map(Con::Intension)].boxed())) {
        check_spec(&spec)?;
    }

    /// Generalised arc consistency: under MAC, a model of one table or one element (over
    /// distinct variables) that has a solution is solved without a single failure.
    #[test]
    fn gac_never_fails(spec in spec_with(|n| prop_oneof![table(n), element(n)].boxed())) {
        let con = &spec.cons[0];
        let distinct = |xs: &mut Vec<usize>| { let k = xs.len(); xs.sort(); xs.dedup(); xs.len() == k };
        let ok = match con {
            Con::Table { scope, .. } => distinct(&mut scope.clone()),
            Con::Element { list, index, value, .. } => {
                let mut xs: Vec<usize> = list.iter().chain([value]).filter_map(|t| match t {
                    Term::Var(x) => Some(*x),
                    Term::Const(_) => None,
                }).collect();
                xs.push(*index);
                distinct(&mut xs)
            }
            _ => false,
        };
        let single = Spec { cons: vec![con.clone()], givens: vec![None; spec.domains.len()], ..spec.clone() };
        if ok && !single.brute_force().is_empty() {
            let model = single.model();
            for name in ["static/asc/mac", "mrv/desc/mac", "dom-wdeg/lcv/mac"] {
                let mut s = solver(&model, SearchConfig::with_strategy(name.parse().unwrap()));
                prop_assert!(matches!(s.solve(), Outcome::Solved(_)));
                prop_assert_eq!(s.stats().backtracks, 0, "{}", name);
            }
        }
    }

    /// The engine's evaluator agrees with the oracle's on random expressions.
    #[test]
    fn evaluator(e in expr(3), values in prop::collection::vec(-3i32..=4, 3)) {
        let mut m = Model::new();
        let v: Vec<VarId> = (0..3).map(|_| m.int_var(-3, 4).unwrap()).collect();
        let expr = to_expr(&e, &v);
        let got = expr.eval(&|x| i64::from(values[x.index()]));
        prop_assert_eq!(got, ev(&e, &values), "{}", expr);
    }
}

// ----- exact arithmetic at the edges of 32 and 64 bits -----

/// A domain of one to three values at one end of the 32-bit integers (a domain spans at most
/// 2^26 values, so not both ends at once).
fn edge_domain() -> impl Strategy<Value = Vec<i32>> {
    let high = prop::collection::btree_set(i32::MAX - 2..=i32::MAX, 1..=3);
    let low = prop::collection::btree_set(i32::MIN..=i32::MIN + 2, 1..=3);
    let middle = prop::collection::btree_set(-2i32..=2, 1..=3);
    prop_oneof![high, low, middle].prop_map(|s| s.into_iter().collect())
}

/// A constant at the edges of the 64-bit integers (or small).
fn edge_constant() -> impl Strategy<Value = i64> + Clone {
    prop::sample::select(vec![
        i64::MIN,
        i64::MIN + 1,
        -(1 << 62),
        i64::from(i32::MIN),
        -1,
        0,
        1,
        2,
        i64::from(i32::MAX),
        1 << 62,
        i64::MAX - 1,
        i64::MAX,
    ])
}

/// Comparisons of expressions whose values reach far past 64 bits but stay within 128
/// (products of three 32-bit values, sums of 64-bit coefficients times 32-bit values...):
/// csp must accept every one and count it exactly.
fn edge_expr(n: usize) -> impl Strategy<Value = Ex> {
    use ExprOp::*;
    let var = (0..n).prop_map(Ex::V);
    let c = edge_constant().prop_map(Ex::C);
    let scaled = (c.clone(), var.clone()).prop_map(|(c, v)| Ex::Op(Mul, vec![c, v]));
    let lhs = prop_oneof![
        prop::collection::vec(scaled.clone(), 2..=3).prop_map(|t| Ex::Op(Add, t)),
        (scaled.clone(), scaled.clone()).prop_map(|(a, b)| Ex::Op(Sub, vec![a, b])),
        (var.clone(), var.clone()).prop_map(|(a, b)| Ex::Op(Mul, vec![a, b])),
        (var.clone(), var.clone(), var.clone()).prop_map(|(a, b, c)| Ex::Op(Mul, vec![a, b, c])),
        (var.clone(), var.clone(), var.clone()).prop_map(|(a, b, c)| {
            let m = |x: &Ex, y: &Ex| Ex::Op(Mul, vec![x.clone(), y.clone()]);
            Ex::Op(Add, vec![m(&a, &b), m(&b, &c), m(&a, &c)])
        }),
        (var.clone(), 0i64..=3).prop_map(|(a, k)| Ex::Op(Pow, vec![a, Ex::C(k)])),
        var.clone().prop_map(|a| Ex::Op(Sqr, vec![a])),
        (var.clone(), var.clone()).prop_map(|(a, b)| Ex::Op(Dist, vec![a, b])),
        (scaled.clone(), var.clone()).prop_map(|(a, b)| Ex::Op(Div, vec![a, b])),
        (scaled.clone(), var.clone()).prop_map(|(a, b)| Ex::Op(Mod, vec![a, b])),
        var.clone().prop_map(|a| Ex::Op(Neg, vec![Ex::Op(Abs, vec![a])])),
    ];
    let rel = prop::sample::select(vec![Lt, Le, Ge, Gt, Ne, Eq]);
    let comparison = (rel, lhs, c).prop_map(|(op, l, r)| Ex::Op(op, vec![l, r]));
    let connective = prop::sample::select(vec![And, Or, Imp]);
    prop_oneof![
        3 => comparison.clone(),
        1 => (connective, comparison.clone(), comparison).prop_map(|(op, a, b)| Ex::Op(op, vec![a, b])),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    /// Values and coefficients at the 32- and 64-bit limits: every count equals brute force
    /// in exact integers, under every strategy.
    #[test]
    fn intensions_at_the_edges_of_64_bits(
        domains in prop::collection::vec(edge_domain(), 2..=4)
            .prop_flat_map(|d| { let n = d.len(); (Just(d), edge_expr(n)) })
    ) {
        let (domains, e) = domains;
        let n = domains.len();
        let spec = Spec { domains, givens: vec![None; n], cons: vec![Con::Intension(e)] };
        check_spec(&spec)?;
    }
}

#[test]
fn expressions_past_128_bits_are_refused() {
    use ExprOp::*;
    let mut m = Model::new();
    let x: Vec<VarId> = (0..5)
        .map(|_| m.int_var(i32::MAX - 1, i32::MAX).unwrap())
        .collect();
    let product = Expr::call(Mul, x.iter().map(|&v| Expr::var(v)).collect());
    let e = Expr::call(Gt, vec![product, Expr::constant(0)]);
    assert!(matches!(m.intension(&e), Err(ModelError::Arithmetic { .. })));
    let y = m.int_var(0, 200).unwrap();
    let e = Expr::call(
        Gt,
        vec![
            Expr::call(Pow, vec![Expr::var(x[0]), Expr::var(y)]),
            Expr::constant(0),
        ],
    );
    assert!(matches!(m.intension(&e), Err(ModelError::Arithmetic { .. })));
    // The same with the exponent bounded: accepted, and exact.
    let z = m.int_var(0, 3).unwrap();
    let e = Expr::call(
        Eq,
        vec![
            Expr::call(Pow, vec![Expr::var(x[0]), Expr::var(z)]),
            Expr::var(x[1]),
        ],
    );
    assert!(m.intension(&e).is_ok());
}

// ----- the expression language -----

fn eval(op: ExprOp, args: &[i64]) -> Option<i128> {
    Expr::call(op, args.iter().map(|&a| Expr::Const(a)).collect()).eval(&|_| 0)
}

#[test]
fn division_truncates_and_modulo_has_the_dividend_sign() {
    use ExprOp::{Div, Mod};
    assert_eq!(eval(Div, &[7, 2]), Some(3));
    assert_eq!(eval(Div, &[-7, 2]), Some(-3));
    assert_eq!(eval(Div, &[7, -2]), Some(-3));
    assert_eq!(eval(Div, &[-7, -2]), Some(3));
    assert_eq!(eval(Mod, &[7, 2]), Some(1));
    assert_eq!(eval(Mod, &[-7, 2]), Some(-1));
    assert_eq!(eval(Mod, &[7, -2]), Some(1));
    assert_eq!(eval(Mod, &[-7, -2]), Some(-1));
    assert_eq!(eval(Div, &[1, 0]), None);
    assert_eq!(eval(Mod, &[1, 0]), None);
    assert_eq!(eval(Div, &[i64::MIN, -1]), Some(1 << 63), "exact beyond 64 bits");
}

#[test]
fn arithmetic() {
    use ExprOp::*;
    assert_eq!(eval(Pow, &[2, 10]), Some(1024));
    assert_eq!(eval(Pow, &[-2, 3]), Some(-8));
    assert_eq!(eval(Pow, &[0, 0]), Some(1));
    assert_eq!(eval(Pow, &[2, -1]), None);
    assert_eq!(eval(Pow, &[-1, i64::MAX]), Some(-1));
    assert_eq!(eval(Pow, &[3, 70]), Some(3i128.pow(70)), "exact beyond 64 bits");
    assert_eq!(
        eval(Pow, &[3, 100]),
        None,
        "beyond 128 bits (refused when posted)"
    );
    assert_eq!(eval(Sqr, &[-5]), Some(25));
    assert_eq!(eval(Abs, &[-5]), Some(5));
    assert_eq!(eval(Neg, &[5]), Some(-5));
    assert_eq!(eval(Neg, &[i64::MIN]), Some(1 << 63));
    assert_eq!(eval(Dist, &[2, 9]), Some(7));
    assert_eq!(eval(Add, &[1, 2, 3]), Some(6));
    assert_eq!(eval(Add, &[i64::MAX, 1]), Some(1 << 63));
    assert_eq!(eval(Mul, &[2, 3, 4]), Some(24));
    assert_eq!(eval(Min, &[4, -1, 3]), Some(-1));
    assert_eq!(eval(Max, &[4, -1, 3]), Some(4));
    assert_eq!(eval(Sub, &[4, 6]), Some(-2));
}

#[test]
fn logic() {
    use ExprOp::*;
    assert_eq!(eval(Xor, &[1, 1, 1]), Some(1), "odd parity");
    assert_eq!(eval(Xor, &[1, 0, 1]), Some(0));
    assert_eq!(eval(Iff, &[1, 1, 1]), Some(1));
    assert_eq!(eval(Iff, &[0, 0]), Some(1));
    assert_eq!(eval(Iff, &[1, 0, 1]), Some(0));
    assert_eq!(eval(Eq, &[2, 2, 2]), Some(1));
    assert_eq!(eval(Eq, &[2, 2, 3]), Some(0));
    assert_eq!(eval(Imp, &[0, 0]), Some(1));
    assert_eq!(eval(Imp, &[1, 0]), Some(0));
    assert_eq!(eval(Not, &[0]), Some(1));
    assert_eq!(eval(Not, &[3]), Some(0));
    assert_eq!(eval(And, &[1, 2]), Some(1));
    assert_eq!(eval(Or, &[0, 0]), Some(0));
    assert_eq!(eval(Lt, &[1, 2]), Some(1));
    assert_eq!(eval(Ge, &[1, 2]), Some(0));
}

#[test]
fn if_evaluates_the_branch_taken_only() {
    use ExprOp::*;
    let c = Expr::Const;
    let guarded = Expr::call(If, vec![c(0), Expr::call(Div, vec![c(1), c(0)]), c(7)]);
    assert_eq!(guarded.eval(&|_| 0), Some(7));
    let taken = Expr::call(If, vec![c(1), Expr::call(Div, vec![c(1), c(0)]), c(7)]);
    assert_eq!(taken.eval(&|_| 0), None);
}

#[test]
fn and_or_imp_are_decided_by_a_defined_operand() {
    use ExprOp::*;
    let c = Expr::Const;
    let undefined = || Expr::call(Div, vec![c(1), c(0)]);
    let e = |op, args| Expr::call(op, args);
    assert_eq!(
        e(Imp, vec![c(0), undefined()]).eval(&|_| 0),
        Some(1),
        "guard false"
    );
    assert_eq!(
        e(Imp, vec![undefined(), c(1)]).eval(&|_| 0),
        Some(1),
        "conclusion true"
    );
    assert_eq!(e(Imp, vec![c(1), undefined()]).eval(&|_| 0), None);
    assert_eq!(e(And, vec![undefined(), c(0)]).eval(&|_| 0), Some(0));
    assert_eq!(e(And, vec![undefined(), c(1)]).eval(&|_| 0), None);
    assert_eq!(e(Or, vec![undefined(), c(2)]).eval(&|_| 0), Some(1));
    assert_eq!(e(Or, vec![c(0), undefined()]).eval(&|_| 0), None);
    assert_eq!(
        e(Xor, vec![c(1), undefined()]).eval(&|_| 0),
        None,
        "xor needs every operand"
    );
}

#[test]
fn membership() {
    use ExprOp::*;
    let c = Expr::Const;
    let set = Expr::call(Set, vec![c(1), c(2), c(3)]);
    assert_eq!(Expr::call(In, vec![c(2), set.clone()]).eval(&|_| 0), Some(1));
    assert_eq!(Expr::call(In, vec![c(5), set.clone()]).eval(&|_| 0), Some(0));
    assert_eq!(Expr::call(NotIn, vec![c(5), set]).eval(&|_| 0), Some(1));
    assert_eq!(
        Expr::call(In, vec![c(5), Expr::call(Set, vec![])]).eval(&|_| 0),
        Some(0)
    );
}

#[test]
fn operator_names() {
    for op in ExprOp::ALL {
        assert_eq!(ExprOp::from_name(op.name()), Some(op));
    }
    assert_eq!(ExprOp::from_name("notin"), Some(ExprOp::NotIn));
    assert_eq!(ExprOp::from_name("plus"), None);
}

// ----- validation -----

#[test]
fn bad_input_is_an_error() {
    use ExprOp::*;
    let mut m = Model::new();
    let x = m.int_var(0, 3).unwrap();
    let y = m.int_var(0, 3).unwrap();
    let mut other = Model::new();
    let foreign = {
        other.int_vars(5, 0, 1).unwrap();
        other.var(4).unwrap()
    };
    assert!(matches!(
        m.table(&[], vec![], true),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.table(&[x, foreign], vec![], true),
        Err(ModelError::UnknownVariable { index: 4, .. })
    ));
    assert!(matches!(
        m.table(&[x, y], vec![vec![TableCell::Value(1)]], true),
        Err(ModelError::LengthMismatch { .. })
    ));
    assert!(matches!(
        m.linear(&[], Cmp::Eq, 1),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.linear(&[(1, foreign)], Cmp::Eq, 1),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert!(matches!(
        m.element(&[], x, 0, Expr::Var(y)),
        Err(ModelError::InvalidConstraint { .. })
    ));
    let sum = Expr::call(Add, vec![Expr::Var(x), Expr::Var(y)]);
    assert!(matches!(
        m.element(std::slice::from_ref(&sum), x, 0, Expr::Var(y)),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.element(&[Expr::Var(y)], foreign, 0, Expr::Var(y)),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert!(matches!(
        m.intension(&Expr::call(Mod, vec![Expr::Var(x)])),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.intension(&Expr::call(In, vec![Expr::Var(x), Expr::Var(y)])),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.intension(&Expr::call(Add, vec![Expr::call(Set, vec![]), Expr::Var(y)])),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        m.intension(&Expr::call(Eq, vec![Expr::Var(foreign), Expr::Var(y)])),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert!(matches!(
        Tuples::new(0, vec![]),
        Err(ModelError::InvalidConstraint { .. })
    ));
    assert!(matches!(
        Tuples::new(2, vec![vec![TableCell::Value(1)]]),
        Err(ModelError::LengthMismatch { .. })
    ));
    let pairs = Tuples::new(2, vec![vec![TableCell::Value(1), TableCell::Any]]).unwrap();
    assert_eq!((pairs.arity(), pairs.len()), (2, 1));
    assert!(matches!(
        m.table_shared(&[x], &pairs, true),
        Err(ModelError::LengthMismatch { .. })
    ));
    assert!(matches!(
        m.table_shared(&[x, foreign], &pairs, true),
        Err(ModelError::UnknownVariable { .. })
    ));
    // Nothing was posted: every assignment is still a solution.
    assert_eq!(
        Solver::new(&m, SearchConfig::default())
            .unwrap()
            .count()
            .solutions,
        16
    );
}

#[test]
fn constant_constraints() {
    let mut m = Model::new();
    let x = m.int_var(0, 3).unwrap();
    m.intension(&Expr::call(ExprOp::Lt, vec![Expr::Const(1), Expr::Const(2)]))
        .unwrap();
    m.linear(&[(1, x), (-1, x)], Cmp::Eq, 0).unwrap();
    assert_eq!(
        Solver::new(&m, SearchConfig::default())
            .unwrap()
            .count()
            .solutions,
        4
    );
    m.intension(&Expr::call(ExprOp::Gt, vec![Expr::Const(1), Expr::Const(2)]))
        .unwrap();
    for strategy in SearchStrategy::textbook() {
        let mut s = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
        assert_eq!(s.count().solutions, 0, "{strategy}");
    }
    let mut empty = Model::new();
    assert!(empty.intension(&Expr::Const(0)).is_err());
    assert!(empty.intension(&Expr::Const(1)).is_ok());
}

#[test]
fn large_domains_stay_small() {
    // A sum over wide domains goes to the linear propagator, not to a table.
    let mut m = Model::new();
    let v = m.int_vars(3, -1_000_000, 1_000_000).unwrap();
    m.linear(&[(1, v[0]), (1, v[1]), (1, v[2])], Cmp::Eq, 2_999_999)
        .unwrap();
    let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
    assert_eq!(s.count().solutions, 3);
    // A table over wide domains: bitsets over its tuples only.
    let mut m = Model::new();
    let v = m.int_vars(3, 0, 10_000_000).unwrap();
    let tuples = [[1, 2, 3], [9_999_999, 2, 3], [1, 5, 10_000_000]]
        .iter()
        .map(|t| t.iter().map(|&a| TableCell::Value(a)).collect())
        .collect();
    m.table(&v, tuples, true).unwrap();
    let mut s = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/fc".parse().unwrap())).unwrap();
    assert_eq!(s.count().solutions, 3);
    // An intension over wide domains: a checker.
    let mut m = Model::new();
    let v = m.int_vars(2, 0, 100_000).unwrap();
    let e = Expr::call(
        ExprOp::Eq,
        vec![
            Expr::call(ExprOp::Mul, vec![Expr::Var(v[0]), Expr::Var(v[1])]),
            Expr::Const(99_999 * 7),
        ],
    );
    m.intension(&e).unwrap();
    m.fix(v[0], 7).unwrap();
    let mut s = Solver::new(&m, SearchConfig::default()).unwrap();
    assert_eq!(s.solve(), Outcome::Solved(vec![7, 99_999]));
}

// ----- node counts -----

/// 8-queens posted as intensions (`ne(x, y)`, `ne(dist(x, y), d)`) compiles to the binary
/// relations, with the node counts of the README.
#[test]
fn queens_as_intensions_keep_their_node_counts() {
    use ExprOp::*;
    let mut m = Model::new();
    let q = m.int_vars(8, 0, 7).unwrap();
    for i in 0..8 {
        for j in i + 1..8 {
            let (x, y) = (Expr::Var(q[i]), Expr::Var(q[j]));
            m.intension(&Expr::call(Ne, vec![x.clone(), y.clone()])).unwrap();
            let d = Expr::Const((j - i) as i64);
            m.intension(&Expr::call(Ne, vec![Expr::call(Dist, vec![x, y]), d]))
                .unwrap();
        }
    }
    assert_eq!(m.propagators().len(), 0, "all binary relations");
    let strategy: SearchStrategy = "static/asc/none".parse().unwrap();
    let mut s = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
    assert_eq!(s.solve(), Outcome::Solved(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(s.stats().nodes, 113);
    let mut all = Solver::new(&m, SearchConfig::with_strategy(strategy)).unwrap();
    assert_eq!(all.count().solutions, 92);
    assert_eq!(all.stats().nodes, 2056);
    let mut fc = Solver::new(&m, SearchConfig::with_strategy("static/asc/fc".parse().unwrap())).unwrap();
    fc.solve();
    assert_eq!(fc.stats().nodes, 88);
}

/// The same queens as one table per pair of columns, and with checkers (as a sum that
/// cannot be a relation): the same solutions.
#[test]
fn queens_as_tables_and_sums() {
    let n = 6;
    let mut tables = Model::new();
    let q = tables.int_vars(n, 0, n as i32 - 1).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i32;
            let tuples = (0..n as i32)
                .flat_map(|a| (0..n as i32).map(move |b| (a, b)))
                .filter(|&(a, b)| a != b && (a - b).abs() != d)
                .map(|(a, b)| vec![TableCell::Value(a), TableCell::Value(b)])
                .collect();
            tables.table(&[q[i], q[j]], tuples, true).unwrap();
        }
    }
    let mut sums = Model::new();
    let q = sums.int_vars(n, 0, n as i32 - 1).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            sums.linear_in(&[(1, q[i]), (-1, q[j])], &[0, d, -d], false)
                .unwrap();
        }
    }
    for strategy in SearchStrategy::textbook() {
        let a = Solver::new(&tables, SearchConfig::with_strategy(strategy))
            .unwrap()
            .count();
        let b = Solver::new(&sums, SearchConfig::with_strategy(strategy))
            .unwrap()
            .count();
        assert_eq!((a.solutions, b.solutions), (4, 4), "{strategy}");
    }
}
