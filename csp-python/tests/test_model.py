"""Modelling, checked against brute force: every solution of small models is enumerated
by itertools and compared with what the solver finds, under several strategies."""

import itertools
import random

import pytest

import csp

STRATEGIES = ["static/asc/none", "mrv/lcv/fc", "mrv-degree/asc/mac", "dom-wdeg/desc/mac"]


def brute_force(model, holds):
    """The solutions of `model` (as dicts) for which holds(values) is true."""
    names = [v.name for v in model.variables]
    domains = [model.domain(v) for v in model.variables]
    out = []
    for values in itertools.product(*domains):
        solution = dict(zip(names, values))
        if holds(solution):
            out.append(solution)
    return out


def solutions(model, strategy):
    found = list(csp.Solver(model, strategy).solutions())
    assert len({tuple(sorted(s.items())) for s in found}) == len(found), "each solution once"
    assert all(model.is_solution(s) for s in found)
    return sorted(tuple(sorted(s.items())) for s in found)


def check(model, holds):
    expected = sorted(tuple(sorted(s.items())) for s in brute_force(model, holds))
    for strategy in STRATEGIES:
        assert solutions(model, strategy) == expected, strategy
        assert csp.Solver(model, strategy).count() == len(expected)


def test_domains_from_ranges_pairs_and_lists():
    m = csp.Model()
    assert m.domain(m.var("a", range(2, 5))) == [2, 3, 4]
    assert m.domain(m.var("b", (2, 5))) == [2, 3, 4, 5]
    assert m.domain(m.var("c", [7, 1, 3, 3])) == [1, 3, 7]
    assert m.domain(m.var("d", range(0, 10, 3))) == [0, 3, 6, 9]
    assert m.domain(m.var("e", {-2, 2})) == [-2, 2]
    xs = m.vars("x", 3, range(2))
    assert [x.name for x in xs] == ["x[0]", "x[1]", "x[2]"] and len(m) == 8
    assert m["x[1]"].index == xs[1].index and "x[2]" in m


@pytest.mark.parametrize("seed", range(6))
def test_random_binary_relations_and_expressions(seed):
    rng = random.Random(seed)
    m = csp.Model()
    xs = [m.var(f"v{i}", range(rng.randint(2, 4))) for i in range(4)]
    posted = []
    for _ in range(5):
        a, b = rng.sample(xs, 2)
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        offset = rng.choice([0, 0, 1, -1])
        m.relation(a, op, b, offset)
        posted.append((a.name, op, b.name, offset))
    a, b, c = rng.sample(xs, 3)
    m.add((a + 2 * b - c != 1) | (abs(a - c) == 2))
    ops = {"==": lambda p, q: p == q, "!=": lambda p, q: p != q, "<": lambda p, q: p < q,
           "<=": lambda p, q: p <= q, ">": lambda p, q: p > q, ">=": lambda p, q: p >= q}

    def holds(s):
        relations = all(ops[op](s[x], s[y] + k) for x, op, y, k in posted)
        return relations and (s[a.name] + 2 * s[b.name] - s[c.name] != 1 or abs(s[a.name] - s[c.name]) == 2)

    check(m, holds)


def test_predicate_is_compiled_to_a_table():
    m = csp.Model()
    x, y = m.var("x", range(6)), m.var("y", range(6))
    calls = []

    def coprime(a, b):
        calls.append((a, b))
        from math import gcd
        return gcd(a, b) == 1

    m.predicate(x, y, coprime)
    assert len(calls) == 36, "once per pair, at posting"
    check(m, lambda s: __import__("math").gcd(s["x"], s["y"]) == 1)
    assert len(calls) == 36, "search never calls Python"


@pytest.mark.parametrize("strength", ["pairwise", "value", "hidden", "gac"])
def test_all_different(strength):
    m = csp.Model()
    xs = m.vars("x", 4, range(4))
    m.all_different(xs, strength=strength)
    m.add(xs[0] < xs[3])
    check(m, lambda s: len(set(s.values())) == 4 and s["x[0]"] < s["x[3]"])


def test_tables_supports_and_conflicts():
    m = csp.Model()
    xs = m.vars("x", 3, range(3))
    m.table(xs, [(0, None, 1), (2, 2, 2), (1, "*", 0)])
    m.table(xs[:2], [(0, 0), (1, 1)], supports=False)
    allowed = lambda s: (s["x[0]"], s["x[2]"]) in {(0, 1), (1, 0)} or (s["x[0]"], s["x[1]"], s["x[2]"]) == (2, 2, 2)
    check(m, lambda s: allowed(s) and (s["x[0]"], s["x[1]"]) not in {(0, 0), (1, 1)})


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_linear_sums(op):
    m = csp.Model()
    xs = m.vars("x", 3, range(4))
    z = m.var("z", range(6))
    m.linear([(2, xs[0]), (-1, xs[1]), xs[2]], op, 3)
    m.linear(xs, op, z)
    cmp = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[op]
    check(m, lambda s: cmp(2 * s["x[0]"] - s["x[1]"] + s["x[2]"], 3) and cmp(s["x[0]"] + s["x[1]"] + s["x[2]"], s["z"]))


def test_element():
    m = csp.Model()
    i, v, w = m.var("i", range(-1, 5)), m.var("v", range(10)), m.var("w", range(3))
    m.element([3, 1, w, 1], i, v, start=1)
    table = lambda s: [3, 1, s["w"], 1][s["i"] - 1] if 1 <= s["i"] <= 4 else None
    check(m, lambda s: table(s) == s["v"])


def test_globals_against_brute_force():
    m = csp.Model()
    xs = m.vars("x", 4, range(3))
    c, lo, hi, nv = m.var("c", range(5)), m.var("lo", range(3)), m.var("hi", range(3)), m.var("nv", range(5))
    m.count(xs, [0, 2], c)
    m.minimum(xs, lo)
    m.maximum(xs, hi)
    m.n_values(xs, nv)
    m.lex([xs[:2], xs[2:]], "<")
    x = lambda s: [s[f"x[{k}]"] for k in range(4)]
    check(m, lambda s: s["c"] == sum(v in (0, 2) for v in x(s)) and s["lo"] == min(x(s)) and s["hi"] == max(x(s))
          and s["nv"] == len(set(x(s))) and x(s)[:2] < x(s)[2:])


def test_more_globals_against_brute_force():
    m = csp.Model()
    succ = m.vars("s", 4, range(4))
    m.circuit(succ)
    check(m, lambda s: is_one_cycle([s[f"s[{k}]"] for k in range(4)]))
    m2 = csp.Model()
    ys = m2.vars("y", 4, range(3))
    m2.all_equal(ys[:2])
    m2.all_different_except(ys[1:], [0])
    m2.regular(ys, states=2, start=0, finals=[0], transitions=[(0, 0, 0), (0, 1, 1), (1, 1, 0), (0, 2, 0), (1, 2, 1)])
    y = lambda s: [s[f"y[{k}]"] for k in range(4)]
    check(m2, lambda s: y(s)[0] == y(s)[1] and all(a != b or a == 0 for a, b in itertools.combinations(y(s)[1:], 2))
          and sum(v == 1 for v in y(s)) % 2 == 0)


def is_one_cycle(succ):
    moving = [i for i, j in enumerate(succ) if i != j]
    if len(moving) < 2:
        return False
    seen, i = set(), moving[0]
    while i not in seen:
        seen.add(i)
        i = succ[i]
    return i == moving[0] and seen == set(moving)


def test_scheduling_globals_against_brute_force():
    m = csp.Model()
    starts = m.vars("t", 3, range(4))
    m.no_overlap(starts, [2, 1, 1])
    check(m, lambda s: all(a + la <= b or b + lb <= a for (a, la), (b, lb) in itertools.combinations(
        [(s["t[0]"], 2), (s["t[1]"], 1), (s["t[2]"], 1)], 2)))
    m2 = csp.Model()
    starts = m2.vars("t", 3, range(3))
    m2.cumulative(starts, [2, 1, 2], [1, 2, 1], 2)
    tasks = lambda s: [(s["t[0]"], 2, 1), (s["t[1]"], 1, 2), (s["t[2]"], 2, 1)]
    check(m2, lambda s: all(sum(h for o, l, h in tasks(s) if o <= t < o + l) <= 2 for t in range(6)))


def test_optimisation_finds_the_brute_force_optimum():
    m = csp.Model()
    xs = m.vars("x", 3, range(5))
    cost = m.var("cost", range(20))
    m.all_different(xs)
    m.linear([(3, xs[0]), (-1, xs[1]), (2, xs[2])], "==", cost)
    m.maximize(cost)
    assert m.objective[0] == "maximize" and m.objective[1].name == "cost"
    best = max(s["cost"] for s in brute_force(m, m.is_solution))
    for strategy in STRATEGIES:
        solver = csp.Solver(m, strategy)
        found = solver.optimize()
        assert (solver.status, found["cost"], solver.objective) == ("optimal", best, best)
        smallest = csp.Solver(m, strategy).minimize(cost)
        assert smallest["cost"] == min(s["cost"] for s in brute_force(m, m.is_solution))
        with_lns = csp.Solver(m, strategy, lns=True)
        found = with_lns.optimize()
        assert (with_lns.status, found["cost"], with_lns.objective) == ("optimal", best, best)
        assert m.is_solution(found) and with_lns.stats["lns_nodes"] <= with_lns.stats["nodes"]
        on_threads = csp.Solver(m, strategy, threads=3)
        found = on_threads.optimize()
        assert (on_threads.status, found["cost"], on_threads.objective) == ("optimal", best, best)
        assert m.is_solution(found)


def test_givens_and_violations():
    m = csp.Model()
    x, y = m.var("x", range(3)), m.var("y", range(3))
    m.less(x, y)
    m.fix(y, 1)
    assert csp.Solver(m).count() == 1
    assert m.violation({"x": 1, "y": 1}) is not None and m.is_solution([0, 1])


def test_expression_operators_read_back():
    m = csp.Model()
    x, y = m.var("x", range(3)), m.var("y", range(3))
    assert repr(x + 2 * y <= 3) == "le(add(x, mul(2, y)), 3)"
    assert repr(csp.Expr.call("div", x, -y)) == "div(x, neg(y))"
    assert repr(~(x == 1) & (y != x) ^ (x > 0)) == "xor(and(not(eq(x, 1)), ne(y, x)), gt(x, 0))"
    assert (x == x) and not (x == y) and (x != y) and x in [y, x] and {x: 1}[m["x"]] == 1
    with pytest.raises(TypeError):
        bool(x < y)
