"""Field geometry: 3 columns by 4 rows, orthogonal adjacency, and arrows turned by the owner's seat.

«Раскладываем поле 3 на 4 (3 ширина, 4 высота поля).» Row 0 is on seat 0's side. An arrow is printed as
the owner sees the card (N points away from its owner); «соперник видит их вверх ногами», so seat 1's
arrows are turned half way round.
"""

from __future__ import annotations

from bot.games.byallmeans.state import CELLS, COLS, ROWS

CENTRAL_CELLS = (1 * COLS + 1, 2 * COLS + 1)
"""«Первая территория выставляется на одну из двух центральных клеток поля»: the middle column, rows 1-2."""

_STEP = {"N": (1, 0), "S": (-1, 0), "E": (0, 1), "W": (0, -1)}
_TURN = {"N": "S", "S": "N", "E": "W", "W": "E"}


def rc(cell: int) -> tuple[int, int]:
    return divmod(cell, COLS)


def step(cell: int, direction: str) -> int | None:
    """The cell next to ``cell`` in the absolute ``direction`` (N = towards seat 1), or None off the field."""
    row, col = rc(cell)
    dr, dc = _STEP[direction]
    r, c = row + dr, col + dc
    if 0 <= r < ROWS and 0 <= c < COLS:
        return r * COLS + c
    return None


def neighbours(cell: int) -> list[int]:
    """Orthogonal neighbours («не по диагонали»)."""
    return [n for d in "NESW" if (n := step(cell, d)) is not None]


def absolute(direction: str, owner: int) -> str:
    """A printed arrow direction as it lies on the table for a card of ``owner``."""
    return direction if owner == 0 else _TURN[direction]


def arrow_targets(cell: int, arrows: str, owner: int) -> list[int]:
    """The cells a territory of ``owner`` on ``cell`` points its arrows at."""
    return [n for d in arrows if (n := step(cell, absolute(d, owner))) is not None]


def all_cells() -> range:
    return range(CELLS)
