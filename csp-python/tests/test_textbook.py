"""The judged figures: 8-queens first-solution nodes under the 18 textbook strategies,
Australia under mrv-degree/lcv/fc, and Sudoku counts, each equal to what the command line
or the Rust example gives (run here, never copied in)."""

import subprocess

import pytest

import csp
from conftest import REPO, SHARED

REGIONS = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
BORDERS = [("WA", "NT"), ("WA", "SA"), ("NT", "SA"), ("NT", "Q"), ("SA", "Q"), ("SA", "NSW"),
           ("SA", "V"), ("Q", "NSW"), ("NSW", "V")]
COLOURS = ["red", "green", "blue"]


@pytest.mark.parametrize("strategy", csp.textbook_strategies())
def test_eight_queens_nodes_equal_the_command_line(strategy, cli_json):
    var, val, inference = strategy.split("/")
    [expected] = cli_json("queens", "solve", "8", "--var", var, "--val", val, "--inference", inference)
    solver = csp.Solver(csp.queens.model(8, kind="pairwise"), strategy)
    solution = solver.solve()
    assert solver.status == expected["status"] == "solved"
    assert [solution[f"q{i}"] for i in range(8)] == expected["solution"]
    for field in ("nodes", "backtracks", "checks", "pruned", "revisions", "max_depth"):
        assert solver.stats[field] == expected[field], field
    # csp.queens.solve takes the same path as the command line.
    report = csp.queens.solve(8, strategy)
    assert (report["nodes"], report["solution"]) == (expected["nodes"], expected["solution"])


def test_there_are_eighteen_textbook_strategies():
    strategies = csp.textbook_strategies()
    assert len(set(strategies)) == 18
    assert "mrv-degree/lcv/fc" in strategies


def australia():
    m = csp.Model("australia")
    regions = {r: m.var(r, range(3)) for r in REGIONS}
    for a, b in BORDERS:
        m.not_equal(regions[a], regions[b])
    return m


def test_australia_equals_the_rust_example(australia_example):
    out = subprocess.run([str(australia_example), "mrv-degree/lcv/fc"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    lines = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    solver = csp.Solver(australia(), "mrv-degree/lcv/fc")
    solution = solver.solve()
    assert {r: COLOURS[solution[r]] for r in REGIONS} == {r: lines[r] for r in REGIONS}
    for field in ("nodes", "backtracks", "checks", "pruned", "revisions"):
        assert solver.stats[field] == int(lines[field]), field


def test_australia_through_a_predicate_and_expressions_is_the_same_search():
    """`!=` given as a Python function (compiled to a table) or as an expression must
    colour the map as the built-in relation does, node for node."""
    reference = csp.Solver(australia(), "mrv-degree/lcv/fc")
    expected = reference.solve()
    for post in ("predicate", "expression"):
        m = csp.Model()
        regions = {r: m.var(r, range(3)) for r in REGIONS}
        for a, b in BORDERS:
            if post == "predicate":
                m.predicate(regions[a], regions[b], lambda x, y: x != y)
            else:
                m.add(regions[a] != regions[b])
        solver = csp.Solver(m, "mrv-degree/lcv/fc")
        assert solver.solve() == expected, post
        assert solver.stats["nodes"] == reference.stats["nodes"], post
        assert csp.Solver(m).count() == 18


def sudoku_lines(path, most):
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")][:most]


SUDOKU_FILES = [REPO / "data/sudoku/counts-sample.txt", REPO / "data/sudoku/4x4.txt",
                REPO / "data/sudoku/janko-16x16-sample.txt",
                SHARED / "data/sudoku/9x9/with-solution-counts.txt"]


@pytest.mark.parametrize("path", SUDOKU_FILES, ids=lambda p: p.name)
def test_sudoku_counts_equal_the_command_line(path, cli_json, tmp_path):
    if not path.is_file():
        pytest.skip(f"{path} is not here (the shared collection is optional)")
    puzzles = sudoku_lines(path, 20)
    sample = tmp_path / "sample.txt"
    sample.write_text("\n".join(puzzles) + "\n")
    expected = cli_json("sudoku", "count", str(sample), "--limit", "1000")
    assert len(expected) == len(puzzles)
    for line, cli in zip(puzzles, expected):
        report = csp.sudoku.count(line.split(":")[0], limit=1000)
        assert (report["status"], report["solutions"], report["nodes"]) == (cli["status"], cli["solutions"], cli["nodes"])
