"""Sudoku of any order (4x4 to 64x64): :func:`parse`, :func:`solve`, :func:`count`,
:func:`generate`, :func:`rate`, :func:`hint` and :func:`compare`, as the ``csp sudoku``
commands do. Puzzles are :class:`Grid` objects or text in any of the command line's
formats.
"""

from ._csp import sudoku as _sudoku

Grid = _sudoku.Grid
parse = _sudoku.parse
solve = _sudoku.solve
count = _sudoku.count
generate = _sudoku.generate
rate = _sudoku.rate
hint = _sudoku.hint
compare = _sudoku.compare

__all__ = ["Grid", "compare", "count", "generate", "hint", "parse", "rate", "solve"]
