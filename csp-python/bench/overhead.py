"""The overhead of going through Python: Solver.count() of the n-queens board (pairwise
model, mrv/asc/fc) from Python, against the same count through the Rust API:
csp_queens::count, which builds the model, makes a csp-core Solver and counts, timing all
three itself (its `elapsed_ms`, as `csp queens count N --format json` prints it).

Both sides run in a fresh process per repetition, interleaved (Rust, Python, Rust, ...),
and each times only its own search (building the solver and counting), so that process
start-up and imports are left out alike. Prints every run and the medians.

    cargo build --release               # target/release/csp
    pip install ./csp-python            # the release wheel
    python csp-python/bench/overhead.py [--n 12] [--repetitions 31] [--csp PATH]

Not a test: run it by hand on a quiet machine; the figures go in docs/performance.md.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]

PYTHON_RUN = """
import sys, time, csp
model = csp.queens.model({n}, kind="pairwise")
start = time.perf_counter()
solver = csp.Solver(model, "mrv/asc/fc")
solutions = solver.count()
elapsed = time.perf_counter() - start
print(solutions, solver.stats["nodes"], f"{{elapsed:.6f}}")
"""


def rust_run(cli: pathlib.Path, n: int) -> tuple:
    out = subprocess.run([str(cli), "queens", "count", str(n), "--var", "mrv", "--val", "asc", "--inference", "fc",
                          "--model", "pairwise", "--format", "json"], capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    return report["solutions"], report["nodes"], report["elapsed_ms"] / 1000


def python_run(n: int) -> tuple:
    out = subprocess.run([sys.executable, "-c", PYTHON_RUN.format(n=n)], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1]), float(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--repetitions", type=int, default=31)
    parser.add_argument("--csp", type=pathlib.Path, default=REPO / "target/release/csp")
    args = parser.parse_args()
    if not args.csp.is_file():
        sys.exit(f"{args.csp} is missing: cargo build --release")
    rust, python = [], []
    for rep in range(args.repetitions):
        r = rust_run(args.csp, args.n)
        p = python_run(args.n)
        assert r[:2] == p[:2], f"different searches: Rust {r[:2]}, Python {p[:2]}"
        rust.append(r[2])
        python.append(p[2])
        print(f"run {rep + 1:2}: rust {r[2]:.4f} s  python {p[2]:.4f} s  ({r[0]} solutions, {r[1]} nodes)")
    for name, pick in (("median", statistics.median), ("fastest", min)):
        rm, pm = pick(rust), pick(python)
        print(f"{name} of {args.repetitions}: rust {rm:.4f} s, python {pm:.4f} s, python/rust {pm / rm:.3f} "
              f"({(pm / rm - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
