"""The solver: outcomes, limits, laziness, statistics with the command line's names."""

import pytest

import csp


def queens(n):
    return csp.queens.model(n, kind="pairwise")


def test_solutions_are_lazy_and_each_once():
    solver = csp.Solver(queens(8))
    it = solver.solutions()
    first = next(it)
    assert solver.stats["solutions"] == 1, "one solution found so far"
    rest = list(it)
    assert len(rest) == 91 and first not in rest
    assert solver.status == "unsatisfiable" and solver.limit is None
    assert solver.solve() is None


def test_solve_continues_to_the_next_solution():
    solver = csp.Solver(queens(6))
    found = [solver.solve() for _ in range(5)]
    assert all(found[:4]) and found[4] is None and len({tuple(s.values()) for s in found[:4]}) == 4


def test_count_with_a_cap_and_limits():
    solver = csp.Solver(queens(8))
    assert solver.count(limit=10) == 10 and solver.status == "capped"
    assert solver.count() == 82 and solver.status == "solved"
    limited = csp.Solver(queens(10), node_limit=50)
    assert limited.solve() is None or limited.stats["nodes"] <= 50
    assert limited.count() >= 0 and limited.status == "limit" and limited.limit == "nodes"
    assert limited.stats["nodes"] == 50
    capped = csp.Solver(queens(8), solution_limit=3)
    assert len(list(capped.solutions())) == 3 and capped.limit == "solutions"
    unsat = csp.Solver(queens(3))
    assert unsat.solve() is None and unsat.status == "unsatisfiable"


def test_stats_have_the_fields_of_the_command_line_json(cli_json):
    [line] = cli_json("queens", "solve", "6", "--var", "mrv", "--val", "asc", "--inference", "fc")
    solver = csp.Solver(queens(6), "mrv/asc/fc")
    solver.solve()
    stats = solver.stats
    assert set(stats) <= set(line) and {"nodes", "backtracks", "checks", "elapsed_ms", "nodes_to_proof"} <= set(stats)
    assert all(stats[k] == line[k] for k in stats if k != "elapsed_ms")


def test_every_option_of_the_search_configuration():
    m = queens(8)
    counts = set()
    for options in ({"tie_break": "random", "seed": 3}, {"restarts": "luby:10"}, {"restarts": "geometric:5:1.5"},
                    {"probing": True}, {"branching": "places"}, {"max_trail": 64}, {"time_limit": 60},
                    {"node_limit": None}, {"last_conflict": 2}, {"restarts": "luby:10", "last_conflict": 1}):
        strategy = "dom-wdeg/random/mac" if options.get("probing") else "mrv/asc/fc"
        counts.add(csp.Solver(m, strategy, **options).count())
    assert counts == {92}


def test_every_variable_and_value_order_counts_alike():
    m = queens(6)
    for var in ("dom-wdeg-all", "wdeg-cacd", "chs", "frb-dom", "frba-dom", "pick-dom", "activity", "impact",
                "run-robin"):
        for value in ("asc", "saved"):
            restarts = "geometric:10:1.5" if var == "run-robin" else None
            assert csp.Solver(m, f"{var}/{value}/mac", restarts=restarts).count() == 4, (var, value)


def test_backjumping_counts_the_same_and_reports_its_jumps():
    m = queens(8)
    for inference in ("none", "fc"):
        plain = csp.Solver(m, f"static/asc/{inference}")
        jumping = csp.Solver(m, f"static/asc/{inference}", backjump="cbj")
        assert plain.count() == jumping.count() == 92
        assert jumping.stats["nodes"] <= plain.stats["nodes"]
        assert plain.stats["backjumps"] == 0 and jumping.stats["backjumps"] > 0
    with pytest.raises(ValueError):
        csp.Solver(m, "static/asc/mac", backjump="cbj").count()


def test_repr_and_help_are_useful():
    m = queens(4)
    solver = csp.Solver(m, "mrv/lcv/mac")
    assert "queens-4" in repr(m) and "vars=4" in repr(m)
    solver.solve()
    assert repr(solver).startswith('Solver(strategy="mrv/lcv/mac", status="solved"')
    assert "Var(\"q0\")" == repr(m["q0"])
    assert "Grid(" in repr(csp.sudoku.parse("1.34.4...32.2.4."))
    for documented in (csp.Model, csp.Model.var, csp.Model.predicate, csp.Solver, csp.Solver.count,
                       csp.queens.count, csp.sudoku.solve, csp.xcsp.load, csp.compare, csp.Expr):
        assert documented.__doc__ and len(documented.__doc__) > 40, documented


def test_the_gil_is_released_during_search():
    """While a search runs on one thread, another runs Python: it sees the solver
    searching. With the GIL held it could only ever see it idle, before or after the
    search. (Reading a solver during a search is tested in test_threads.py.)"""
    import threading

    solver = csp.Solver(queens(14), "mrv/asc/fc")
    started = threading.Event()

    counted = []

    def search():
        started.set()
        counted.append(solver.count())

    thread = threading.Thread(target=search)
    thread.start()
    started.wait()
    seen_busy = False
    while thread.is_alive() and not seen_busy:
        seen_busy = solver.searching
    thread.join()
    assert seen_busy and not solver.searching
    assert solver.status == "solved" and counted == [solver.stats["solutions"]] and counted[0] > 0


def test_counts_on_threads_are_exact():
    for n in range(1, 10):
        alone = csp.Solver(queens(n)).count()
        for threads in (2, 4):
            solver = csp.Solver(queens(n), threads=threads)
            assert solver.count() == alone, (n, threads)
            assert solver.count() == alone, "each count counts the whole model"
    capped = csp.Solver(queens(8), threads=2)
    assert capped.count(limit=10) == 10 and capped.status == "capped"
    with pytest.raises(ValueError):
        csp.Solver(queens(4), threads=0)
