"""8-queens under the 18 textbook strategies: csp's exact node counts, as a table and as
a bar chart (matplotlib, written to a file: no display needed).

    python queens_strategies.py [N] [CHART]   # default 8 and queens-nodes.svg
"""

import sys

import matplotlib

matplotlib.use("Agg")  # files only: works without a display
import matplotlib.pyplot as plt  # noqa: E402

import csp  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    chart = sys.argv[2] if len(sys.argv) > 2 else "queens-nodes.svg"
    model = csp.queens.model(n, kind="pairwise")  # the textbook model
    nodes = {}
    for strategy in csp.textbook_strategies():
        solver = csp.Solver(model, strategy)
        solver.solve()
        nodes[strategy] = solver.stats["nodes"]
        print(f"{strategy:22} {nodes[strategy]:>8}")
    fig, ax = plt.subplots(figsize=(9, 5))
    bars = ax.barh(list(nodes), list(nodes.values()), color="tab:blue")
    ax.bar_label(bars, padding=3)
    ax.set_xlabel("nodes to the first solution")
    ax.set_title(f"{n}-queens, pairwise model: the 18 textbook strategies")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(chart)
    print(f"chart written to {chart}")


if __name__ == "__main__":
    main()
