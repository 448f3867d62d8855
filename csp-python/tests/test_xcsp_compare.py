"""XCSP3 instances and csp.compare."""

import os

import pytest

import csp
from conftest import REPO

DATA = REPO / "csp-xcsp/tests/data/competition"


def test_an_instance_keeps_its_names_and_counts_as_the_command_line(cli_json):
    path = DATA / "Queens-0008-m1.xml.xz"
    model = csp.xcsp.load(path)
    assert [v.name for v in model.variables[:8]] == [f"q[{i}]" for i in range(8)]
    solver = csp.Solver(model, "dom-wdeg/asc/mac")
    assert solver.count() == 92
    [expected] = cli_json("count", str(path), "--var", "dom-wdeg", "--val", "asc", "--inference", "mac")
    assert expected["solutions"] == 92 and solver.stats["nodes"] == expected["nodes"]
    first = csp.Solver(model).solve()
    assert set(first) == {f"q[{i}]" for i in range(8)}


def test_an_optimisation_instance_has_its_objective():
    text = """<instance format="XCSP3" type="COP">
      <variables><array id="x" size="[3]"> 0..4 </array></variables>
      <constraints><allDifferent> x[] </allDifferent></constraints>
      <objectives><maximize type="sum"> x[] </maximize></objectives>
    </instance>"""
    model = csp.xcsp.loads(text)
    assert model.objective[0] == "maximize"
    solver = csp.Solver(model, "dom-wdeg/asc/mac")
    best = solver.optimize()
    assert solver.status == "optimal" and sorted(best.values()) == [2, 3, 4]
    assert set(best) == {"x[0]", "x[1]", "x[2]"}, "auxiliary variables stay out of solutions"


def test_compare_gives_one_row_per_model_and_strategy():
    australia = csp.Model("australia")
    regions = [australia.var(r, range(3)) for r in ["WA", "NT", "SA"]]
    australia.all_different(regions)
    files = [DATA / "Queens-0008-m1.xml.xz", str(DATA / "CryptoPuzzle-send-more-money.xml.xz")]
    rows = csp.compare([australia, *files], ["mrv/asc/fc", "static/asc/none"], node_limit=1000)
    assert [(r["model"], r["strategy"]) for r in rows] == [
        (m, s) for m in ["australia", str(files[0]), files[1]] for s in ["mrv/asc/fc", "static/asc/none"]]
    assert [r["status"] for r in rows] == ["solved"] * 5 + ["limit"]
    assert (rows[5]["limit"], rows[5]["nodes"], rows[5]["node_limit"]) == ("nodes", 1000, 1000)
    assert all(len(set(r)) == len(rows[0]) and set(r) == set(rows[0]) for r in rows)
    assert all(isinstance(v, (int, float, str, bool, type(None))) for r in rows for v in r.values())
    same = csp.Solver(csp.xcsp.load(files[0]), "static/asc/none")
    same.solve()
    assert rows[3]["nodes"] == same.stats["nodes"]
    textbook = csp.compare(australia)
    assert len(textbook) == 18
    counted = csp.compare(australia, "mrv/asc/fc", count=True)
    assert counted[0]["solutions"] == 6


def test_compare_rows_make_a_data_frame():
    pandas = pytest.importorskip("pandas")
    m = csp.queens.model(6, kind="pairwise")
    frame = pandas.DataFrame(csp.compare(m, "textbook"))
    assert frame.shape[0] == 18 and (frame["status"] == "solved").all()
    assert frame["nodes"].dtype.kind == "i"
