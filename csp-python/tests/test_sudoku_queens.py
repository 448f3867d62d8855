"""csp.sudoku and csp.queens beyond the judged figures."""

import csp

PUZZLE = "..8...15......18..3.54....95....9....9.234.7....1....84....59.1..67......53...2.."


def test_parse_solve_and_grids():
    grid = csp.sudoku.parse(PUZZLE)
    assert (grid.order, grid.size, grid.givens) == (3, 9, 27) and str(grid) == PUZZLE
    assert csp.sudoku.Grid(PUZZLE) == grid and len(grid.rows()) == 9
    report = csp.sudoku.solve(grid)
    assert report["status"] == "solved" and report["solution"].is_solution_of(grid)
    for strategy in ("mrv/asc/fc", "static/lcv/mac"):
        other = csp.sudoku.solve(PUZZLE, strategy=strategy, model="pairwise")
        assert other["solution"] == report["solution"], "the solution is unique"
    assert "|" in grid.pretty() or "+" in grid.pretty()


def test_generate_rate_and_hint():
    made = csp.sudoku.generate(order=2, seed=5)
    assert made["solution"].is_solution_of(made["puzzle"])
    assert csp.sudoku.count(made["puzzle"], limit=2)["solutions"] == 1
    assert csp.sudoku.generate(order=2, seed=5)["puzzle"] == made["puzzle"], "reproducible"
    rating = csp.sudoku.rate(PUZZLE)
    assert rating["level"] in {"easy", "medium", "hard", "expert"} and rating["guessing"] is False
    hint = csp.sudoku.hint(PUZZLE)
    solution = csp.sudoku.solve(PUZZLE)["solution"]
    assert solution.rows()[hint["row"] - 1][hint["col"] - 1] == hint["value"] and hint["unique"]


def test_sudoku_compare_rows():
    rows = csp.sudoku.compare([PUZZLE], strategies=["mrv/asc/fc", "mrv/lcv/mac"], models=["pairwise", "alldiff-gac"])
    assert [(r["model"], r["strategy"]) for r in rows] == [
        ("pairwise", "mrv/asc/fc"), ("pairwise", "mrv/lcv/mac"), ("alldiff-gac", "mrv/asc/fc"), ("alldiff-gac", "mrv/lcv/mac")]
    assert all(r["solved"] == 1 and r["puzzles"] == 1 for r in rows)
    assert len(csp.sudoku.compare(PUZZLE)) == 21


def test_queens_count_min_conflicts_and_checks():
    report = csp.queens.count(8, symmetry=True, distinct=True)
    assert (report["solutions"], report["distinct"], report["complete"]) == (92, 12, True)
    for n in (1, 4, 6, 7):
        assert csp.queens.count(n)["solutions"] == csp.Solver(csp.queens.model(n)).count()
    local = csp.queens.min_conflicts(200, seed=2)
    assert local["status"] == "solved" and csp.queens.verify(local["solution"]) is None
    assert csp.queens.verify([0, 1]) is not None and csp.queens.board([1, 3, 0, 2]).count("Q") == 4
    first = csp.queens.solve(300)
    assert first["status"] == "solved" and csp.queens.verify(first["solution"]) is None
    assert csp.queens.min_conflicts(3)["status"] == "unsatisfiable"
