"""An XCSP3 instance read into a Model with the file's variable names, then solved with
two strategies.

    python xcsp_instance.py [FILE]   # default: SEND + MORE = MONEY from csp-xcsp's tests
"""

import pathlib
import sys

import csp

DEFAULT = pathlib.Path(__file__).resolve().parents[2] / "csp-xcsp/tests/data/competition/CryptoPuzzle-send-more-money.xml.xz"


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    model = csp.xcsp.load(path)
    print(model)
    for strategy in ("mrv/asc/fc", "dom-wdeg/asc/mac"):
        solver = csp.Solver(model, strategy)
        solution = solver.solve()
        print(f"{strategy}: {solver.status}, {solver.stats['nodes']} nodes")
        print("  ", " ".join(f"{name}={value}" for name, value in (solution or {}).items()))


if __name__ == "__main__":
    main()
