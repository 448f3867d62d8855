"""Misuse from Python gives a Python exception with the engine's message, never a crash,
and leaves the model as it was."""

import pytest

import csp


def model():
    m = csp.Model()
    return m, m.var("x", range(3)), m.var("y", range(3))


def test_a_variable_of_another_model():
    m, x, y = model()
    other = csp.Model()
    z = other.var("z", range(3))
    for post in (lambda: m.not_equal(x, z), lambda: m.all_different([x, z]), lambda: m.add(x + z == 1),
                 lambda: m.linear([x, (2, z)], "<=", 3), lambda: m.minimize(z), lambda: m.domain(z)):
        with pytest.raises(ValueError, match="another model"):
            post()
    solver = csp.Solver(m)
    with pytest.raises(ValueError, match="another model"):
        solver.minimize(z)
    assert csp.Solver(m).count() == 9, "nothing was posted"


def test_bad_strategy_and_options():
    m, x, y = model()
    with pytest.raises(ValueError, match="variable order"):
        csp.Solver(m, "fastest/asc/fc")
    with pytest.raises(ValueError, match="strategy"):
        csp.Solver(m, "mrv/asc")
    with pytest.raises(ValueError, match="probing needs inference mac"):
        csp.Solver(m, "mrv/asc/fc", probing=True)
    with pytest.raises(ValueError, match="restart policy"):
        csp.Solver(m, restarts="geometric:10:1")
    with pytest.raises(TypeError, match="unexpected option 'nodes'"):
        csp.Solver(m, nodes=10)
    with pytest.raises(TypeError):
        csp.Solver(m, node_limit="ten")
    with pytest.raises(ValueError):
        csp.Solver(m, node_limit=-1)
    with pytest.raises(ValueError):
        csp.Solver(m, time_limit=-1.0)
    with pytest.raises(TypeError):
        csp.Solver("not a model")
    with pytest.raises(ValueError, match="objective"):
        csp.Solver(m).optimize()


def test_empty_and_bad_domains():
    m = csp.Model()
    for domain in (range(0), [], (3, 2), range(5, 5)):
        with pytest.raises(ValueError, match="empty"):
            m.var("x", domain)
    with pytest.raises(TypeError):
        m.var("x", 3)
    with pytest.raises(TypeError):
        m.var("x", "abc")
    with pytest.raises(TypeError):
        m.var("x", [1, 2.5])
    with pytest.raises(ValueError):
        m.var("x", [1, 2**40])
    with pytest.raises(ValueError):
        m.var("x", (0, 2**31 - 1))
    m.var("x", [1])
    with pytest.raises(ValueError, match="already"):
        m.var("x", [1])
    assert len(m) == 1


def test_a_predicate_that_raises_leaves_the_model_unchanged():
    m, x, y = model()
    before = csp.Solver(m).count()

    def breaks(a, b):
        return a / (b - 1) > 0

    with pytest.raises(ValueError, match="raised ZeroDivisionError") as raised:
        m.predicate(x, y, breaks)
    assert isinstance(raised.value.__cause__, ZeroDivisionError)
    assert csp.Solver(m).count() == before == 9
    with pytest.raises(TypeError, match="callable"):
        m.predicate(x, y, 3)

    class NoTruth:
        def __bool__(self):
            raise RuntimeError("no truth")

    with pytest.raises(ValueError) as raised:
        m.predicate(x, y, lambda a, b: NoTruth())
    assert isinstance(raised.value.__cause__, RuntimeError)

    def interrupted(a, b):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        m.predicate(x, y, interrupted)
    assert csp.Solver(m).count() == 9


def test_wrong_types():
    m, x, y = model()
    with pytest.raises(TypeError):
        m.not_equal(x, 3)
    with pytest.raises(TypeError):
        m.all_different(x)
    with pytest.raises(TypeError):
        m.all_different([x, "y"])
    with pytest.raises(TypeError):
        m.add(x + "a")
    with pytest.raises(TypeError):
        m.add(True)
    with pytest.raises(TypeError):
        x + 1.5
    with pytest.raises(ValueError, match="comparison"):
        m.relation(x, "=<", y)
    with pytest.raises(ValueError, match="strength"):
        m.all_different([x, y], strength="strong")
    with pytest.raises(ValueError, match="operator"):
        csp.Expr.call("frobnicate", x)
    with pytest.raises(ValueError):
        m.add(csp.Expr.call("in", x, 3))
    with pytest.raises(ValueError):
        m.table([x, y], [(1, 2, 3)])
    with pytest.raises(ValueError):
        m.all_different([x, x], strength="gac")
    with pytest.raises(ValueError):
        m.regular([x, y], states=1, start=3, finals=[0], transitions=[])
    with pytest.raises(KeyError):
        m["nope"]
    with pytest.raises(TypeError):
        m.is_solution("x=1")
    assert csp.Solver(m).count() == 9


def test_library_errors():
    with pytest.raises(ValueError):
        csp.queens.model(0)
    with pytest.raises(ValueError, match="model"):
        csp.queens.model(8, kind="queens")
    with pytest.raises(ValueError, match="too large"):
        csp.queens.count(21)
    with pytest.raises(ValueError):
        csp.sudoku.parse("12345")
    with pytest.raises(TypeError):
        csp.sudoku.solve(12)
    with pytest.raises(ValueError):
        csp.sudoku.generate(order=9)
    with pytest.raises(ValueError):
        csp.sudoku.hint("11" + "." * 14)
    with pytest.raises(FileNotFoundError):
        csp.xcsp.load("/nonexistent/instance.xml")
    with pytest.raises(IsADirectoryError):
        csp.xcsp.load("/")
    with pytest.raises(ValueError, match="line"):
        csp.xcsp.loads("<instance type='CSP'><variables><var id='x'> 0..2 </var></variables>"
                       "<constraints><stretch/></constraints></instance>")
    with pytest.raises(ValueError):
        csp.compare([csp.Model()], ["mrv/asc/xyz"])
    with pytest.raises(TypeError):
        csp.compare([3])


def test_sizes_that_would_exhaust_memory_or_the_stack_are_refused():
    m, x, y = model()
    deep = x
    with pytest.raises(ValueError, match="nests deeper"):
        for _ in range(5000):
            deep = abs(deep - 1)
    with pytest.raises(ValueError, match="more than csp takes"):
        m.vars("z", 2**40, range(2))
    with pytest.raises(ValueError, match="more than csp takes"):
        m.regular([x, y], states=2**40, start=0, finals=[0], transitions=[])
    flat = sum(m.vars("w", 3000, range(2)))
    m.add(flat == 1500)
    assert repr(flat).startswith("add(0, w[0], w[1], ") and len(m) == 3002
