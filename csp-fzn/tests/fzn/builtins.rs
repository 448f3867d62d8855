//! Every FlatZinc builtin on integers and Booleans, plain, `_reif` and `_imp`, against
//! brute force on small random instances.

use crate::random::{A, Gen, blist, check_counts, ints, list, t, tb, val, vals};

const ROUNDS: u64 = 25;

fn holds(op: &str, a: i64, b: i64) -> bool {
    match op {
        "eq" => a == b,
        "ne" => a != b,
        "le" => a <= b,
        "lt" => a < b,
        "ge" => a >= b,
        _ => a > b,
    }
}

/// `r <-> test` or `r -> test` by the suffix.
fn link(suffix: &str, r: i64, test: bool) -> bool {
    match suffix {
        "" => test,
        "_reif" => (r != 0) == test,
        _ => r == 0 || test,
    }
}

/// Adds the reification argument a suffix needs.
fn reif_arg(g: &mut Gen, suffix: &str) -> Option<A> {
    (!suffix.is_empty()).then(|| g.bool_arg())
}

fn with_r(args: String, r: Option<A>) -> String {
    match r {
        Some(r) => format!("{args}, {}", tb(r)),
        None => args,
    }
}

#[test]
fn int_comparisons() {
    for op in ["eq", "ne", "le", "lt"] {
        for suffix in ["", "_reif", "_imp"] {
            let name = format!("int_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let (a, b) = (g.int_arg(), g.int_arg());
                let r = reif_arg(g, suffix);
                let text = format!("{name}({})", with_r(format!("{}, {}", t(a), t(b)), r));
                let op = op.to_string();
                let suffix = suffix.to_string();
                g.add(text, move |x| {
                    link(
                        &suffix,
                        r.map_or(1, |r| val(r, x)),
                        holds(&op, val(a, x), val(b, x)),
                    )
                });
            });
        }
    }
}

#[test]
fn int_linear() {
    for op in ["eq", "ne", "le"] {
        for suffix in ["", "_reif", "_imp"] {
            let name = format!("int_lin_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let n = g.range(1, 4) as usize;
                let c = g.consts(n, -3, 3);
                let xs = g.int_args(n);
                let k = g.range(-4, 4);
                let r = reif_arg(g, suffix);
                let text = format!(
                    "{name}({})",
                    with_r(format!("{}, {}, {k}", ints(&c), list(&xs)), r)
                );
                let (op, suffix) = (op.to_string(), suffix.to_string());
                g.add(text, move |x| {
                    let sum: i64 = c.iter().zip(vals(&xs, x)).map(|(c, v)| c * v).sum();
                    link(&suffix, r.map_or(1, |r| val(r, x)), holds(&op, sum, k))
                });
            });
        }
    }
}

/// A linear equation with wide domains: the big-M reification path, not a table.
#[test]
fn int_linear_reified_wide() {
    for op in ["eq", "ne", "le"] {
        for suffix in ["_reif", "_imp"] {
            let name = format!("int_lin_{op}{suffix}");
            check_counts(&format!("{name} wide"), 10, |g| {
                let xs: Vec<A> = (0..3).map(|_| A::V(g.int_var_in(-20, 20, 40))).collect();
                let c = g.consts(3, -3, 3);
                let k = g.range(-10, 10);
                let r = A::V(g.bool_var());
                let text = format!("{name}({}, {}, {k}, {})", ints(&c), list(&xs), tb(r));
                let (op, suffix) = (op.to_string(), suffix.to_string());
                g.add(text, move |x| {
                    let sum: i64 = c.iter().zip(vals(&xs, x)).map(|(c, v)| c * v).sum();
                    link(&suffix, val(r, x), holds(&op, sum, k))
                });
            });
        }
    }
}

#[test]
fn int_arithmetic() {
    type F = fn(i64, i64) -> Option<i64>;
    let ops: [(&str, F); 7] = [
        ("int_plus", |a, b| Some(a + b)),
        ("int_minus", |a, b| Some(a - b)),
        ("int_times", |a, b| Some(a * b)),
        ("int_div", |a, b| (b != 0).then(|| a / b)),
        ("int_mod", |a, b| (b != 0).then(|| a % b)),
        ("int_min", |a, b| Some(a.min(b))),
        ("int_max", |a, b| Some(a.max(b))),
    ];
    for (name, f) in ops {
        check_counts(name, ROUNDS, |g| {
            let (a, b, c) = (g.int_arg(), g.int_arg(), g.int_arg());
            g.add(format!("{name}({}, {}, {})", t(a), t(b), t(c)), move |x| {
                f(val(a, x), val(b, x)) == Some(val(c, x))
            });
        });
    }
    check_counts("int_pow", ROUNDS, |g| {
        let (a, b, c) = (g.int_arg(), g.int_arg(), g.int_arg());
        g.add(format!("int_pow({}, {}, {})", t(a), t(b), t(c)), move |x| {
            let (a, b, c) = (val(a, x), val(b, x), val(c, x));
            if b >= 0 {
                a.pow(b as u32) == c
            } else {
                a != 0 && 1 / a.pow((-b) as u32) == c
            }
        });
    });
    for name in ["int_abs", "int_negate"] {
        check_counts(name, ROUNDS, |g| {
            let (a, b) = (g.int_arg(), g.int_arg());
            let abs = name == "int_abs";
            g.add(format!("{name}({}, {})", t(a), t(b)), move |x| {
                let v = val(a, x);
                val(b, x) == if abs { v.abs() } else { -v }
            });
        });
    }
}

#[test]
fn element_minimum_maximum() {
    check_counts("array_int_element", ROUNDS, |g| {
        let n = g.range(1, 5) as usize;
        let c = g.consts(n, -3, 3);
        let (i, v) = (g.int_arg(), g.int_arg());
        g.add(
            format!("array_int_element({}, {}, {})", t(i), ints(&c), t(v)),
            move |x| {
                let i = val(i, x);
                i >= 1 && i <= c.len() as i64 && c[(i - 1) as usize] == val(v, x)
            },
        );
    });
    check_counts("array_var_int_element", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = g.int_args(n);
        let (i, v) = (g.int_arg(), g.int_arg());
        g.add(
            format!("array_var_int_element({}, {}, {})", t(i), list(&xs), t(v)),
            move |x| {
                let i = val(i, x);
                i >= 1 && i <= xs.len() as i64 && val(xs[(i - 1) as usize], x) == val(v, x)
            },
        );
    });
    for name in ["array_bool_element", "array_var_bool_element"] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(1, 4) as usize;
            let xs: Vec<A> = if name == "array_bool_element" {
                (0..n).map(|_| A::C(g.range(0, 1))).collect()
            } else {
                g.bool_args(n)
            };
            let (i, v) = (g.int_arg(), g.bool_arg());
            g.add(format!("{name}({}, {}, {})", t(i), blist(&xs), tb(v)), move |x| {
                let i = val(i, x);
                i >= 1 && i <= xs.len() as i64 && val(xs[(i - 1) as usize], x) == val(v, x)
            });
        });
    }
    for name in ["array_int_maximum", "array_int_minimum"] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(1, 4) as usize;
            let xs = g.int_args(n);
            let m = g.int_arg();
            let max = name == "array_int_maximum";
            g.add(format!("{name}({}, {})", t(m), list(&xs)), move |x| {
                let v = vals(&xs, x);
                let e = if max { v.iter().max() } else { v.iter().min() };
                Some(&val(m, x)) == e
            });
        });
    }
}

#[test]
fn bool_comparisons() {
    for op in ["eq", "ne", "le", "lt"] {
        for suffix in ["", "_reif", "_imp"] {
            let name = format!("bool_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let (a, b) = (g.bool_arg(), g.bool_arg());
                let r = reif_arg(g, suffix);
                let text = format!("{name}({})", with_r(format!("{}, {}", tb(a), tb(b)), r));
                let (op, suffix) = (op.to_string(), suffix.to_string());
                g.add(text, move |x| {
                    link(
                        &suffix,
                        r.map_or(1, |r| val(r, x)),
                        holds(&op, val(a, x), val(b, x)),
                    )
                });
            });
        }
    }
    check_counts("bool_not", ROUNDS, |g| {
        let (a, b) = (g.bool_arg(), g.bool_arg());
        g.add(format!("bool_not({}, {})", tb(a), tb(b)), move |x| {
            val(a, x) != val(b, x)
        });
    });
    check_counts("bool2int", ROUNDS, |g| {
        let (a, b) = (g.bool_arg(), g.int_arg());
        g.add(format!("bool2int({}, {})", tb(a), t(b)), move |x| {
            val(a, x) == val(b, x)
        });
    });
}

#[test]
fn bool_connectives() {
    type F = fn(i64, i64) -> bool;
    let ops: [(&str, F); 3] = [
        ("and", |a, b| a & b != 0),
        ("or", |a, b| a | b != 0),
        ("xor", |a, b| a != b),
    ];
    for (op, f) in ops {
        for suffix in ["", "_imp"] {
            let name = format!("bool_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let (a, b, r) = (g.bool_arg(), g.bool_arg(), g.bool_arg());
                let suffix_r = if suffix.is_empty() { "_reif" } else { suffix };
                g.add(format!("{name}({}, {}, {})", tb(a), tb(b), tb(r)), move |x| {
                    link(suffix_r, val(r, x), f(val(a, x), val(b, x)))
                });
            });
        }
    }
    for op in ["and", "or"] {
        for suffix in ["", "_imp"] {
            let name = format!("array_bool_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let n = g.range(0, 4) as usize;
                let xs = g.bool_args(n);
                let r = g.bool_arg();
                let and = op == "and";
                let suffix_r = if suffix.is_empty() { "_reif" } else { suffix };
                g.add(format!("{name}({}, {})", blist(&xs), tb(r)), move |x| {
                    let v = vals(&xs, x);
                    let test = if and {
                        v.iter().all(|&b| b != 0)
                    } else {
                        v.iter().any(|&b| b != 0)
                    };
                    link(suffix_r, val(r, x), test)
                });
            });
        }
    }
    check_counts("array_bool_xor", ROUNDS, |g| {
        let n = g.range(1, 5) as usize;
        let xs = g.bool_args(n);
        g.add(format!("array_bool_xor({})", blist(&xs)), move |x| {
            vals(&xs, x).iter().filter(|&&b| b != 0).count() % 2 == 1
        });
    });
    for suffix in ["", "_reif", "_imp"] {
        let name = format!("bool_clause{suffix}");
        check_counts(&name, ROUNDS, |g| {
            let (n, m) = (g.range(0, 3) as usize, g.range(0, 3) as usize);
            let (pos, neg) = (g.bool_args(n), g.bool_args(m));
            let r = reif_arg(g, suffix);
            let text = format!(
                "{name}({})",
                with_r(format!("{}, {}", blist(&pos), blist(&neg)), r)
            );
            let suffix = suffix.to_string();
            g.add(text, move |x| {
                let clause = vals(&pos, x).iter().any(|&b| b != 0) || vals(&neg, x).contains(&0);
                link(&suffix, r.map_or(1, |r| val(r, x)), clause)
            });
        });
    }
}

#[test]
fn bool_linear() {
    for (op, suffixes) in [
        ("eq", &["", "_reif", "_imp"][..]),
        ("le", &["", "_reif", "_imp"][..]),
    ] {
        for &suffix in suffixes {
            let name = format!("bool_lin_{op}{suffix}");
            check_counts(&name, ROUNDS, |g| {
                let n = g.range(1, 4) as usize;
                let c = g.consts(n, -2, 3);
                let bs = g.bool_args(n);
                let k = g.int_arg();
                let r = reif_arg(g, suffix);
                let text = format!(
                    "{name}({})",
                    with_r(format!("{}, {}, {}", ints(&c), blist(&bs), t(k)), r)
                );
                let (op, suffix) = (op.to_string(), suffix.to_string());
                g.add(text, move |x| {
                    let sum: i64 = c.iter().zip(vals(&bs, x)).map(|(c, v)| c * v).sum();
                    link(&suffix, r.map_or(1, |r| val(r, x)), holds(&op, sum, val(k, x)))
                });
            });
        }
    }
}

#[test]
fn set_membership() {
    for suffix in ["", "_reif", "_imp"] {
        let name = format!("set_in{suffix}");
        check_counts(&name, ROUNDS, |g| {
            let a = g.int_arg();
            let k = g.range(0, 4) as usize;
            let mut values = g.consts(k, -4, 4);
            values.sort_unstable();
            values.dedup();
            let set = if g.chance(0.3) && !values.is_empty() {
                // A range.
                let (lo, hi) = (values[0], values[values.len() - 1]);
                values = (lo..=hi).collect();
                format!("{lo}..{hi}")
            } else {
                format!(
                    "{{{}}}",
                    values
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let r = reif_arg(g, suffix);
            let text = format!("{name}({})", with_r(format!("{}, {set}", t(a)), r));
            let suffix = suffix.to_string();
            g.add(text, move |x| {
                link(&suffix, r.map_or(1, |r| val(r, x)), values.contains(&val(a, x)))
            });
        });
    }
}

/// Several builtins in one instance, sharing variables.
#[test]
fn mixtures() {
    check_counts("mixture", 60, |g| {
        for _ in 0..3 {
            match g.range(0, 5) {
                0 => {
                    let (a, b, r) = (g.int_arg(), g.int_arg(), g.bool_arg());
                    g.add(format!("int_le_reif({}, {}, {})", t(a), t(b), tb(r)), move |x| {
                        (val(r, x) != 0) == (val(a, x) <= val(b, x))
                    });
                }
                1 => {
                    let (a, b, c) = (g.int_arg(), g.int_arg(), g.int_arg());
                    g.add(format!("int_times({}, {}, {})", t(a), t(b), t(c)), move |x| {
                        val(a, x) * val(b, x) == val(c, x)
                    });
                }
                2 => {
                    let (p, n) = (g.bool_args(2), g.bool_args(1));
                    g.add(format!("bool_clause({}, {})", blist(&p), blist(&n)), move |x| {
                        vals(&p, x).contains(&1) || vals(&n, x).contains(&0)
                    });
                }
                3 => {
                    let (a, b) = (g.bool_arg(), g.int_arg());
                    g.add(format!("bool2int({}, {})", tb(a), t(b)), move |x| {
                        val(a, x) == val(b, x)
                    });
                }
                4 => {
                    let (a, b) = (g.int_arg(), g.int_arg());
                    g.add(format!("int_eq({}, {})", t(a), t(b)), move |x| {
                        val(a, x) == val(b, x)
                    });
                }
                _ => {
                    let xs = g.int_args(3);
                    let k = g.range(-3, 3);
                    g.add(format!("int_lin_ne([1, 2, -1], {}, {k})", list(&xs)), move |x| {
                        let v = vals(&xs, x);
                        v[0] + 2 * v[1] - v[2] != k
                    });
                }
            }
        }
    });
}
