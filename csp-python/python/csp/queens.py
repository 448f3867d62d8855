"""The n-queens board: its models (:func:`model`), a first solution (:func:`solve`),
counting (:func:`count`) and min-conflicts local search (:func:`min_conflicts`).

Every result is a dict with the fields of ``csp queens ... --format json``.
"""

from ._csp import queens as _queens

model = _queens.model
solve = _queens.solve
count = _queens.count
min_conflicts = _queens.min_conflicts
verify = _queens.verify
board = _queens.board

__all__ = ["board", "count", "min_conflicts", "model", "solve", "verify"]
