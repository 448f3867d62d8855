"""XCSP3 instances (``.xml``, ``.xml.xz``, ``.xml.lzma``) and DIMACS graph colouring as
:class:`csp.Model` objects with the file's variable names and objective."""

from ._csp import xcsp as _xcsp

load = _xcsp.load
loads = _xcsp.loads
load_dimacs = _xcsp.load_dimacs

__all__ = ["load", "load_dimacs", "loads"]
