from typing import Any, Optional

from . import Model

def model(n: int, kind: str = "alldiff") -> Model: ...
def solve(n: int, strategy: Optional[str] = None, model: Optional[str] = None, **options: Any) -> dict[str, Any]: ...
def count(
    n: int,
    strategy: Optional[str] = None,
    model: Optional[str] = None,
    symmetry: bool = False,
    distinct: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
def min_conflicts(
    n: int,
    seed: int = 0,
    max_steps: int = 10000000,
    restart_after: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> dict[str, Any]: ...
def verify(rows: list[int]) -> Optional[str]: ...
def board(rows: list[int]) -> Optional[str]: ...
