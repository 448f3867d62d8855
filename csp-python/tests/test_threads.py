"""Objects shared by Python threads. Searches run without the GIL and predicates run
Python code, so another thread may use the same object meanwhile: that must work, with
no PyO3 borrow error and no PanicException (a BaseException, which `except Exception`
misses). The assertions are about results, never about how long anything took; the
generous joins only keep a deadlock from hanging the run."""

import errno
import os
import subprocess
import sys
import threading

import pytest

import csp

HANG = 600  # seconds: a join this long has deadlocked


def queens(n):
    return csp.queens.model(n, kind="pairwise")


def in_threads(*jobs):
    """Runs each job on a thread of its own, all released at once; returns their
    results in order, or raises the first error any of them raised (BaseException
    included, so a PanicException would fail the test)."""
    start = threading.Barrier(len(jobs))
    results = [None] * len(jobs)
    errors = []

    def run(i, job):
        start.wait()
        try:
            results[i] = job()
        except BaseException as e:  # noqa: B036 - a PanicException is what is looked for
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG)
        assert not t.is_alive(), "deadlock"
    if errors:
        raise errors[0]
    return results


def test_two_threads_solving_with_one_solver_take_turns():
    """Each call waits for the other: together they find the solutions one solver finds
    alone, each once."""
    alone = csp.Solver(queens(8))
    expected = [alone.solve() for _ in range(60)]
    shared = csp.Solver(queens(8))

    def solve_30():
        return [shared.solve() for _ in range(30)]

    first, second = in_threads(solve_30, solve_30)
    found = sorted(tuple(s.values()) for s in first + second)
    assert found == sorted(tuple(s.values()) for s in expected)
    assert shared.stats["solutions"] == 60 and shared.status == "solved"
    assert not shared.searching


def test_two_threads_counting_with_one_solver():
    """The first count to get its turn counts every solution, the other the remaining
    none: whichever thread came first."""
    solver = csp.Solver(queens(10))
    counts = in_threads(solver.count, solver.count)
    assert sorted(counts) == [0, 724]
    assert solver.status == "unsatisfiable" and solver.stats["solutions"] == 724


def test_stats_can_be_read_while_another_thread_searches():
    """The natural way to watch a long search: its statistics, outcome and repr can be
    read at any time. The statistics are the live counters during the search (they only
    grow, and never pass the final ones); the rest describe the last call that returned.
    A node limit ends the search (16-queens has millions of solutions)."""
    limit = 3_000_000
    solver = csp.Solver(queens(16), "mrv/asc/fc", node_limit=limit)
    before = solver.stats
    done = threading.Event()
    seen = []

    def count():
        try:
            return solver.count()
        finally:
            done.set()

    def watch():
        while not done.is_set():
            seen.append((solver.stats, solver.status, solver.limit, solver.objective,
                         solver.searching, repr(solver), solver.strategy))
        return len(seen)

    counted, _ = in_threads(count, watch)
    after = solver.stats
    assert solver.status == "limit" and solver.limit == "nodes" and after["nodes"] == limit
    assert counted == after["solutions"] > 0
    nodes = [stats["nodes"] for stats, *_ in seen]
    assert nodes == sorted(nodes) and all(before["nodes"] <= n <= limit for n in nodes)
    for stats, status, stopped, objective, searching, shown, strategy in seen:
        assert set(stats) == set(after) and stats["solutions"] <= after["solutions"]
        assert status in (None, "limit") and stopped in (None, "nodes") and objective is None
        assert isinstance(searching, bool) and shown.startswith("Solver(") and strategy == "mrv/asc/fc"
    assert not solver.searching


def test_two_threads_sharing_one_solution_iterator():
    """Each solution goes to one of the threads, and together they get them all."""
    solver = csp.Solver(queens(8))
    solutions = solver.solutions()

    def drain():
        return [tuple(s.values()) for s in solutions]

    first, second = in_threads(drain, drain)
    assert len(first) + len(second) == 92 and len(set(first + second)) == 92
    assert next(solutions, None) is None and solver.status == "unsatisfiable"
    assert repr(solutions).startswith("SolutionIterator(Solver(")


def test_a_model_is_posted_to_from_several_threads():
    """Predicates run Python code while they are tabled, during which the interpreter
    switches threads: other threads post to the same model and read it meanwhile."""
    m = csp.Model("shared")
    xs = m.vars("x", 6, range(6))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        def slow_predicates():
            def different(a, b):
                return sum(range(200)) > 0 and a != b

            for i in range(len(xs)):
                for j in range(i + 1, len(xs)):
                    m.predicate(xs[i], xs[j], different)

        def new_variables():
            return [m.var(f"y{i}", range(3)) for i in range(200)]

        def readers():
            seen = 0
            for _ in range(200):
                seen += len(m.variables) + len(m) + ("x[0]" in m) + len(repr(m))
                m.domain(xs[0])
                m["x[1]"]
            return seen

        in_threads(slow_predicates, new_variables, readers)
    finally:
        sys.setswitchinterval(interval)
    assert len(m) == 206 and "binary=15" in repr(m)
    solver = csp.Solver(m, solution_limit=1)
    first = solver.solve()
    assert sorted(first[f"x[{i}]"] for i in range(6)) == list(range(6))


def test_python_code_run_by_a_model_may_use_the_model():
    """A predicate, or a generator given for a list, runs while the model is being posted
    to; it may read the model (and even post to it)."""
    m = csp.Model()
    x, y = m.var("x", range(3)), m.var("y", range(3))
    m.predicate(x, y, lambda a, b: a < b and len(m) == 2 and m.domain(x) == [0, 1, 2])
    m.all_different(v for v in m.variables)
    m.table((m[name] for name in ("x", "y")), ([a, b] for a in range(3) for b in m.domain(y) if a + b == 2))

    def posting(a, b):
        if "z" not in m:
            m.var("z", range(2))
        return a != b

    m.predicate(x, y, posting)
    assert len(m) == 3 and csp.Solver(m).count() == 2  # (0, 2) and the two values of z


def test_the_module_functions_run_in_several_threads():
    """They share nothing: each call searches on a thread of its own."""
    puzzle = "..8...15......18..3.54....95....9....9.234.7....1....84....59.1..67......53...2.."
    results = in_threads(
        lambda: csp.queens.count(8)["solutions"],
        lambda: csp.queens.count(8)["solutions"],
        lambda: str(csp.sudoku.solve(puzzle)["solution"]),
        lambda: str(csp.sudoku.solve(puzzle)["solution"]),
        lambda: [r["status"] for r in csp.compare(queens(6), ["mrv/asc/fc", "static/asc/none"])],
    )
    assert results[:2] == [92, 92] and results[2] == results[3] and "." not in results[2]
    assert results[4] == ["solved", "solved"]


@pytest.mark.skipif(os.name != "posix", reason="a signal sent to the process")
def test_a_signal_handler_that_asks_the_searching_solver_gets_an_error():
    """The one call that cannot wait for its turn: a signal handler run by the thread whose
    search it would wait for. It raises RuntimeError (a deadlock otherwise), which stops
    the search as a KeyboardInterrupt would. The search cannot end before the signal:
    the signal is sent once the solver says it is searching, and the count would take
    far longer than its time limit, which is there only against a hang."""
    code = """
import csp, os, signal, threading
solver = csp.Solver(csp.queens.model(20, 'pairwise'), time_limit=300)
def handler(signum, frame):
    solver.count()
signal.signal(signal.SIGUSR1, handler)
def send():
    while not solver.searching:
        pass
    os.kill(os.getpid(), signal.SIGUSR1)
threading.Thread(target=send).start()
try:
    solver.count()
except RuntimeError as e:
    print("RuntimeError", "already searching in this thread" in str(e))
print(solver.status, solver.limit, solver.searching)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG)
    assert done.stdout.splitlines() == ["RuntimeError True", "limit cancelled False"], (done.stdout, done.stderr)


def test_a_missing_file_is_named_as_open_names_it(tmp_path):
    """FileNotFoundError with errno, strerror and filename, as Python's open() raises it."""
    missing = tmp_path / "missing.xml"
    with pytest.raises(FileNotFoundError) as opened:
        open(missing)
    for load in (csp.xcsp.load, lambda p: csp.xcsp.load_dimacs(p, 3), lambda p: csp.compare([p])):
        for given in (missing, str(missing)):
            with pytest.raises(FileNotFoundError) as raised:
                load(given)
            e = raised.value
            assert (e.errno, e.strerror, e.filename) == (errno.ENOENT, os.strerror(errno.ENOENT), str(missing))
            assert str(e) == str(opened.value) and str(missing) in str(e)
    with pytest.raises(IsADirectoryError) as raised:
        csp.xcsp.load(tmp_path)
    assert raised.value.filename == str(tmp_path) and raised.value.errno == errno.EISDIR


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_named(tmp_path):
    locked = tmp_path / "locked.xml"
    locked.write_text("<instance/>")
    locked.chmod(0)
    with pytest.raises(PermissionError) as raised:
        csp.xcsp.load(locked)
    assert raised.value.filename == str(locked) and raised.value.errno == errno.EACCES
