"""AIMA's map colouring of Australia (chapter 6): seven regions, three colours,
neighbouring regions coloured differently.

    python australia.py                  # mrv-degree/lcv/fc, as the textbook runs it
    python australia.py static/asc/none  # any strategy

The Rust example examples/australia.rs builds the same model; both print the same colours
and node counts (the tests check it).
"""

import sys

import csp

REGIONS = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
NEIGHBOURS = {"WA": ["NT", "SA"], "NT": ["WA", "SA", "Q"], "SA": ["WA", "NT", "Q", "NSW", "V"],
              "Q": ["NT", "SA", "NSW"], "NSW": ["Q", "SA", "V"], "V": ["SA", "NSW"], "T": []}
COLOURS = ["red", "green", "blue"]


def australia() -> csp.Model:
    model = csp.Model("australia")
    region = {r: model.var(r, range(len(COLOURS))) for r in REGIONS}
    for a, others in NEIGHBOURS.items():
        for b in others:
            if a < b:  # each border once
                # AIMA writes the constraint as a function; csp turns it into a table here.
                model.predicate(region[a], region[b], lambda x, y: x != y)
    return model


def main() -> None:
    strategy = sys.argv[1] if len(sys.argv) > 1 else "mrv-degree/lcv/fc"
    model = australia()
    solver = csp.Solver(model, strategy)
    solution = solver.solve()
    print(f"strategy={solver.strategy} status={solver.status}")
    for region, colour in (solution or {}).items():
        print(f"{region}={COLOURS[colour]}")
    print(f"nodes={solver.stats['nodes']} backtracks={solver.stats['backtracks']}")
    print(f"colourings: {csp.Solver(model).count()}")


if __name__ == "__main__":
    main()
