//! csp's globals, as the MiniZinc library passes them (`csp_*`), against brute force by
//! MiniZinc's definitions.

use crate::random::{A, Gen, blist, check_counts, ints, list, t, val, vals};

const ROUNDS: u64 = 20;

fn distinct(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

fn small_vars(g: &mut Gen, n: usize, lo: i64, hi: i64) -> Vec<A> {
    (0..n)
        .map(|_| {
            if g.chance(0.15) {
                A::C(g.range(lo, hi))
            } else {
                A::V(g.int_var_in(lo, hi, hi - lo + 1))
            }
        })
        .collect()
}

#[test]
fn all_different_and_all_equal() {
    check_counts("csp_all_different_int", ROUNDS, |g| {
        let n = g.range(1, 5) as usize;
        let xs = small_vars(g, n, 0, 3);
        g.add(format!("csp_all_different_int({})", list(&xs)), move |x| {
            distinct(&vals(&xs, x))
        });
    });
    check_counts("csp_alldifferent_except", ROUNDS, |g| {
        let n = g.range(1, 5) as usize;
        let xs = small_vars(g, n, 0, 3);
        let except = g.range(0, 2);
        g.add(
            format!("csp_alldifferent_except({}, {{{except}}})", list(&xs)),
            move |x| {
                let v: Vec<i64> = vals(&xs, x).into_iter().filter(|&v| v != except).collect();
                distinct(&v)
            },
        );
    });
    check_counts("csp_all_equal_int", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        g.add(format!("csp_all_equal_int({})", list(&xs)), move |x| {
            vals(&xs, x).windows(2).all(|w| w[0] == w[1])
        });
    });
}

#[test]
fn tables_and_automata() {
    check_counts("csp_table_int", ROUNDS, |g| {
        let n = g.range(1, 3) as usize;
        let xs = small_vars(g, n, 0, 3);
        let rows = g.range(0, 6) as usize;
        let flat = g.consts(rows * n, 0, 4);
        let tuples: Vec<Vec<i64>> = flat.chunks(n).map(|c| c.to_vec()).collect();
        g.add(
            format!("csp_table_int({}, {})", list(&xs), ints(&flat)),
            move |x| tuples.contains(&vals(&xs, x)),
        );
    });
    check_counts("csp_table_bool", ROUNDS, |g| {
        let n = g.range(1, 3) as usize;
        let xs = g.bool_args(n);
        let rows = g.range(1, 4) as usize;
        let flat: Vec<A> = (0..rows * n).map(|_| A::C(g.range(0, 1))).collect();
        let tuples: Vec<Vec<i64>> = flat
            .chunks(n)
            .map(|c| c.iter().map(|&a| val(a, &[])).collect())
            .collect();
        g.add(
            format!("csp_table_bool({}, {})", blist(&xs), blist(&flat)),
            move |x| tuples.contains(&vals(&xs, x)),
        );
    });
    check_counts("csp_regular", ROUNDS, |g| {
        let n = g.range(0, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let (q, s) = (g.range(1, 3), g.range(1, 2));
        let d = g.consts((q * s) as usize, 0, q);
        let q0 = g.range(1, q);
        let finals: Vec<i64> = (1..=q).filter(|_| g.chance(0.5)).collect();
        let text = format!(
            "csp_regular({}, {q}, {s}, {}, {q0}, {{{}}})",
            list(&xs),
            ints(&d),
            finals
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        g.add(text, move |x| {
            let mut state = q0;
            for v in vals(&xs, x) {
                if v < 1 || v > s {
                    return false;
                }
                state = d[((state - 1) * s + v - 1) as usize];
                if state == 0 {
                    return false;
                }
            }
            finals.contains(&state)
        });
    });
}

/// Whether `succ` (values from `first`) is one cycle through the vertices that do not
/// loop (`sub`: or no vertex at all), every vertex on it when not `sub`.
fn is_circuit(succ: &[i64], first: i64, sub: bool) -> bool {
    let n = succ.len();
    let next: Vec<Option<usize>> = succ
        .iter()
        .map(|&v| usize::try_from(v - first).ok().filter(|&j| j < n))
        .collect();
    if next.iter().any(|j| j.is_none()) {
        return false;
    }
    let next: Vec<usize> = next.into_iter().flatten().collect();
    let on: Vec<usize> = (0..n).filter(|&i| next[i] != i).collect();
    if !sub && on.len() != n {
        return false;
    }
    let Some(&start) = on.first() else { return sub };
    let mut seen = 1;
    let mut at = next[start];
    while at != start {
        if next[at] == at || seen > n {
            return false;
        }
        seen += 1;
        at = next[at];
    }
    seen == on.len()
}

#[test]
fn circuits() {
    for name in ["csp_circuit", "csp_subcircuit"] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(1, 5) as usize;
            let first = g.range(-1, 2);
            let xs = small_vars(g, n, first, first + n as i64 - 1);
            let sub = name == "csp_subcircuit";
            g.add(format!("{name}({}, {first})", list(&xs)), move |x| {
                is_circuit(&vals(&xs, x), first, sub)
            });
        });
    }
}

#[test]
fn scheduling() {
    check_counts("csp_cumulative", ROUNDS, |g| {
        let n = g.range(1, 3) as usize;
        let s = small_vars(g, n, 0, 3);
        let d = small_vars(g, n, 0, 2);
        let r = small_vars(g, n, 0, 2);
        let b = if g.chance(0.5) {
            A::C(g.range(0, 3))
        } else {
            A::V(g.int_var_in(0, 3, 3))
        };
        g.add(
            format!(
                "csp_cumulative({}, {}, {}, {})",
                list(&s),
                list(&d),
                list(&r),
                t(b)
            ),
            move |x| {
                let (s, d, r, b) = (vals(&s, x), vals(&d, x), vals(&r, x), val(b, x));
                (-1..8).all(|time| {
                    (0..s.len())
                        .filter(|&i| s[i] <= time && time < s[i] + d[i])
                        .map(|i| r[i])
                        .sum::<i64>()
                        <= b
                })
            },
        );
    });
    for name in ["csp_disjunctive", "csp_disjunctive_strict"] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(1, 3) as usize;
            let s = small_vars(g, n, 0, 3);
            let d = small_vars(g, n, 0, 2);
            let strict = name == "csp_disjunctive_strict";
            g.add(format!("{name}({}, {})", list(&s), list(&d)), move |x| {
                let (s, d) = (vals(&s, x), vals(&d, x));
                (0..s.len()).all(|i| {
                    (i + 1..s.len()).all(|j| {
                        (!strict && (d[i] == 0 || d[j] == 0)) || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]
                    })
                })
            });
        });
    }
    for name in ["csp_diffn", "csp_diffn_nonstrict"] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(1, 3) as usize;
            let (x0, y0) = (small_vars(g, n, 0, 2), small_vars(g, n, 0, 2));
            let (dx, dy) = (small_vars(g, n, 0, 2), small_vars(g, n, 0, 1));
            let strict = name == "csp_diffn";
            g.add(
                format!(
                    "{name}({}, {}, {}, {})",
                    list(&x0),
                    list(&y0),
                    list(&dx),
                    list(&dy)
                ),
                move |x| {
                    let (a, b, w, h) = (vals(&x0, x), vals(&y0, x), vals(&dx, x), vals(&dy, x));
                    (0..a.len()).all(|i| {
                        (i + 1..a.len()).all(|j| {
                            (!strict && (w[i] == 0 || w[j] == 0 || h[i] == 0 || h[j] == 0))
                                || a[i] + w[i] <= a[j]
                                || a[j] + w[j] <= a[i]
                                || b[i] + h[i] <= b[j]
                                || b[j] + h[j] <= b[i]
                        })
                    })
                },
            );
        });
    }
}

#[test]
fn packing() {
    check_counts("csp_bin_packing_load", ROUNDS, |g| {
        let (items, bins) = (g.range(1, 3) as usize, g.range(1, 3) as usize);
        let first = g.range(0, 2);
        let bin = small_vars(g, items, first - 1, first + bins as i64);
        let w = g.consts(items, 0, 3);
        let load = small_vars(g, bins, 0, 4);
        g.add(
            format!(
                "csp_bin_packing_load({}, {}, {}, {first})",
                list(&load),
                list(&bin),
                ints(&w)
            ),
            move |x| {
                let (bin, load) = (vals(&bin, x), vals(&load, x));
                bin.iter().all(|&b| b >= first && b < first + load.len() as i64)
                    && (0..load.len()).all(|k| {
                        let b = first + k as i64;
                        (0..bin.len()).filter(|&i| bin[i] == b).map(|i| w[i]).sum::<i64>() == load[k]
                    })
            },
        );
    });
    check_counts("csp_bin_packing_capa", ROUNDS, |g| {
        let (items, bins) = (g.range(1, 4) as usize, g.range(1, 3) as usize);
        let first = g.range(0, 2);
        let bin = small_vars(g, items, first - 1, first + bins as i64);
        let w = g.consts(items, 0, 3);
        let capa = g.consts(bins, 0, 4);
        g.add(
            format!(
                "csp_bin_packing_capa({}, {}, {}, {first})",
                ints(&capa),
                list(&bin),
                ints(&w)
            ),
            move |x| {
                let bin = vals(&bin, x);
                bin.iter().all(|&b| b >= first && b < first + capa.len() as i64)
                    && (0..capa.len()).all(|k| {
                        let b = first + k as i64;
                        (0..bin.len()).filter(|&i| bin[i] == b).map(|i| w[i]).sum::<i64>() <= capa[k]
                    })
            },
        );
    });
}

fn occurrences(v: &[i64], value: i64) -> i64 {
    v.iter().filter(|&&x| x == value).count() as i64
}

#[test]
fn counting() {
    check_counts("csp_global_cardinality", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let k = g.range(1, 3) as usize;
        let cover = g.consts(k, 0, 3);
        let counts = small_vars(g, k, 0, 3);
        let closed = g.chance(0.5);
        g.add(
            format!(
                "csp_global_cardinality({}, {}, {}, {closed})",
                list(&xs),
                ints(&cover),
                list(&counts)
            ),
            move |x| {
                let (v, c) = (vals(&xs, x), vals(&counts, x));
                cover
                    .iter()
                    .zip(&c)
                    .all(|(&value, &k)| occurrences(&v, value) == k)
                    && c.iter().sum::<i64>() <= v.len() as i64
                    && (!closed || v.iter().all(|x| cover.contains(x)))
            },
        );
    });
    check_counts("csp_global_cardinality_low_up", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let k = g.range(1, 3) as usize;
        let cover = g.consts(k, 0, 3);
        let lo = g.consts(k, 0, 2);
        let hi: Vec<i64> = lo.iter().map(|&l| l + g.range(0, 2)).collect();
        let closed = g.chance(0.5);
        let text = format!(
            "csp_global_cardinality_low_up({}, {}, {}, {}, {closed})",
            list(&xs),
            ints(&cover),
            ints(&lo),
            ints(&hi)
        );
        g.add(text, move |x| {
            let v = vals(&xs, x);
            (0..cover.len()).all(|j| (lo[j]..=hi[j]).contains(&occurrences(&v, cover[j])))
                && (!closed || v.iter().all(|x| cover.contains(x)))
        });
    });
    check_counts("csp_count_eq", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 2);
        let (y, c) = (g.int_arg(), g.int_arg());
        g.add(
            format!("csp_count_eq({}, {}, {})", list(&xs), t(y), t(c)),
            move |x| occurrences(&vals(&xs, x), val(y, x)) == val(c, x),
        );
    });
    check_counts("csp_count_in", ROUNDS, |g| {
        let n = g.range(0, 4) as usize;
        let xs = small_vars(g, n, 0, 2);
        let value = g.range(0, 2);
        let (lo, hi) = (g.range(-1, 3), g.range(-1, 4));
        let hole = g.range(0, 4);
        let allowed = move |k: i64| (lo..=hi).contains(&k) && k != hole;
        let set: Vec<String> = (-1..=5).filter(|&k| allowed(k)).map(|k| k.to_string()).collect();
        g.add(
            format!("csp_count_in({}, {value}, {{{}}})", list(&xs), set.join(", ")),
            move |x| allowed(occurrences(&vals(&xs, x), value)),
        );
    });
    check_counts("csp_among", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let values = g.consts(2, 0, 3);
        let c = g.int_arg();
        g.add(
            format!(
                "csp_among({}, {}, {{{}, {}}})",
                t(c),
                list(&xs),
                values[0],
                values[1]
            ),
            move |x| vals(&xs, x).iter().filter(|v| values.contains(v)).count() as i64 == val(c, x),
        );
    });
    check_counts("csp_nvalue", ROUNDS, |g| {
        let n = g.range(1, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let c = g.int_arg();
        g.add(format!("csp_nvalue({}, {})", t(c), list(&xs)), move |x| {
            let mut v = vals(&xs, x);
            v.sort_unstable();
            v.dedup();
            v.len() as i64 == val(c, x)
        });
    });
}

#[test]
fn orders() {
    for name in [
        "csp_lex_less_int",
        "csp_lex_lesseq_int",
        "csp_lex_less_bool",
        "csp_lex_lesseq_bool",
    ] {
        check_counts(name, ROUNDS, |g| {
            let (n, m) = (g.range(0, 3) as usize, g.range(0, 3) as usize);
            let bools = name.ends_with("bool");
            let (xs, ys) = if bools {
                (g.bool_args(n), g.bool_args(m))
            } else {
                (small_vars(g, n, 0, 2), small_vars(g, m, 0, 2))
            };
            let strict = name.starts_with("csp_lex_less_");
            let text = if bools {
                format!("{name}({}, {})", blist(&xs), blist(&ys))
            } else {
                format!("{name}({}, {})", list(&xs), list(&ys))
            };
            // Slices compare lexicographically, a proper prefix first: MiniZinc's order.
            g.add(text, move |x| {
                let (a, b) = (vals(&xs, x), vals(&ys, x));
                if strict { a < b } else { a <= b }
            });
        });
    }
    for name in [
        "csp_increasing_int",
        "csp_decreasing_int",
        "csp_strictly_increasing_int",
        "csp_strictly_decreasing_int",
        "csp_increasing_bool",
        "csp_decreasing_bool",
    ] {
        check_counts(name, ROUNDS, |g| {
            let n = g.range(0, 4) as usize;
            let bools = name.ends_with("bool");
            let xs = if bools {
                g.bool_args(n)
            } else {
                small_vars(g, n, 0, 3)
            };
            let text = if bools {
                format!("{name}({})", blist(&xs))
            } else {
                format!("{name}({})", list(&xs))
            };
            let name = name.to_string();
            g.add(text, move |x| {
                vals(&xs, x).windows(2).all(|w| match name.as_str() {
                    "csp_increasing_int" | "csp_increasing_bool" => w[0] <= w[1],
                    "csp_decreasing_int" | "csp_decreasing_bool" => w[0] >= w[1],
                    "csp_strictly_increasing_int" => w[0] < w[1],
                    _ => w[0] > w[1],
                })
            });
        });
    }
    check_counts("csp_inverse", ROUNDS, |g| {
        let n = g.range(1, 3) as usize;
        let (f0, g0) = (g.range(0, 2), g.range(0, 2));
        let f = small_vars(g, n, g0, g0 + n as i64 - 1);
        let inv = small_vars(g, n, f0, f0 + n as i64 - 1);
        g.add(
            format!("csp_inverse({}, {f0}, {}, {g0})", list(&f), list(&inv)),
            move |x| {
                let (f, inv) = (vals(&f, x), vals(&inv, x));
                let ok = |a: &[i64], a0: i64, b: &[i64], b0: i64| {
                    (0..a.len()).all(|i| {
                        let j = a[i] - b0;
                        j >= 0 && (j as usize) < b.len() && b[j as usize] == i as i64 + a0
                    })
                };
                ok(&f, f0, &inv, g0) && ok(&inv, g0, &f, f0)
            },
        );
    });
}

/// Whether, in order, each value of `values` first occurs after the one before it.
fn precedes(v: &[i64], values: &[i64]) -> bool {
    values.windows(2).all(|w| {
        let first = |a: i64| v.iter().position(|&x| x == a);
        match (first(w[0]), first(w[1])) {
            (_, None) => true,
            (Some(i), Some(j)) => i < j,
            (None, Some(_)) => false,
        }
    })
}

#[test]
fn precedence() {
    check_counts("csp_value_precede_int", ROUNDS, |g| {
        let n = g.range(0, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let (s, u) = (g.range(0, 3), g.range(0, 3));
        g.add(
            format!("csp_value_precede_int({s}, {u}, {})", list(&xs)),
            move |x| precedes(&vals(&xs, x), &[s, u]),
        );
    });
    check_counts("csp_value_precede_chain_int", ROUNDS, |g| {
        let n = g.range(0, 4) as usize;
        let xs = small_vars(g, n, 0, 3);
        let k = g.range(0, 3) as usize;
        let values = g.consts(k, 0, 3);
        g.add(
            format!("csp_value_precede_chain_int({}, {})", ints(&values), list(&xs)),
            move |x| precedes(&vals(&xs, x), &values),
        );
    });
}
