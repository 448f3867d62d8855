"""csp: constraint satisfaction from Python, on the Rust engine of the csp toolkit.

Model a problem with :class:`Model`, search it with :class:`Solver` under any of the
textbook strategies (variable order / value order / inference), and read csp's exact node
counts back as Python data::

    import csp
    m = csp.Model("australia")
    wa, nt, sa = (m.var(r, range(3)) for r in ("WA", "NT", "SA"))
    m.all_different([wa, nt, sa])
    s = csp.Solver(m, "mrv-degree/lcv/fc")
    s.solve()          # {'WA': 0, 'NT': 1, 'SA': 2}
    s.stats["nodes"]   # 3

Submodules: :mod:`csp.queens`, :mod:`csp.sudoku`, :mod:`csp.xcsp`. :func:`compare` runs
strategies over models and files and returns rows for ``pandas.DataFrame``.
"""

from ._csp import (
    Expr,
    Model,
    SolutionIterator,
    Solver,
    Var,
    __version__,
    compare,
    textbook_strategies,
)
from . import queens, sudoku, xcsp

__all__ = [
    "Expr",
    "Model",
    "SolutionIterator",
    "Solver",
    "Var",
    "__version__",
    "compare",
    "queens",
    "sudoku",
    "textbook_strategies",
    "xcsp",
]
