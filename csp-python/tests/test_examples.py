"""The examples and the notebook run, and say what they should."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO

EXAMPLES = REPO / "csp-python/examples"


def run(script, *args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_australia(tmp_path):
    out = run("australia.py", cwd=tmp_path)
    assert "status=solved" in out and "colourings: 18" in out and "nodes=7" in out


def test_queens_strategies_chart(tmp_path):
    pytest.importorskip("matplotlib")
    out = run("queens_strategies.py", "6", "chart.svg", cwd=tmp_path)
    assert len([line for line in out.splitlines() if "/" in line and "chart" not in line]) == 18
    assert (tmp_path / "chart.svg").read_text().lstrip().startswith(("<?xml", "<svg"))


def test_sudoku_compare(tmp_path):
    out = run("sudoku_compare.py", cwd=tmp_path)
    assert "solution: 748392156" in out and "alldiff-gac" in out


def test_xcsp_instance(tmp_path):
    out = run("xcsp_instance.py", cwd=tmp_path)
    assert out.count(": solved") == 2


def test_the_notebook_is_clean_and_runs_top_to_bottom(tmp_path):
    notebook = json.loads((EXAMPLES / "tour.ipynb").read_text())
    assert notebook["nbformat"] == 4
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert all(cell["outputs"] == [] and cell["execution_count"] is None for cell in code), "outputs cleared"
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    script = tmp_path / "tour.py"
    script.write_text("\n\n".join("".join(cell["source"]) for cell in code) + "\n")
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=EXAMPLES, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
