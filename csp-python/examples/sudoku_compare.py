"""One Sudoku compared across strategies and models, as `csp sudoku compare` does.

    python sudoku_compare.py [PUZZLE]
"""

import sys

import csp

# The example puzzle of the seed-000 document (data/sudoku/README.md).
PUZZLE = "..8...15......18..3.54....95....9....9.234.7....1....84....59.1..67......53...2.."


def main() -> None:
    puzzle = csp.sudoku.parse(sys.argv[1] if len(sys.argv) > 1 else PUZZLE)
    print(puzzle.pretty())
    rows = csp.sudoku.compare(puzzle, strategies=["static/asc/fc", "mrv/asc/fc", "mrv/lcv/mac", "dom-wdeg/asc/mac"],
                              models=["pairwise", "alldiff-gac"])
    print(f"{'model':12} {'strategy':18} {'solved':>6} {'nodes':>8} {'backtracks':>10}")
    for row in rows:
        print(f"{row['model']:12} {row['strategy']:18} {row['solved']:>6} {row['nodes_max']:>8} {row['backtracks_mean']:>10.0f}")
    solution = csp.sudoku.solve(puzzle)["solution"]
    print(f"solution: {solution}")
    print(f"rating: {csp.sudoku.rate(puzzle)['level']}; next step: {csp.sudoku.hint(puzzle)['reason']}")


if __name__ == "__main__":
    main()
