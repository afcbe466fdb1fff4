"""Line-of-victory detection around one freshly placed chip.

A line is six cells in a row (horizontal, vertical or diagonal) holding chips of one side; a
corner counts as that side's chip unless a finished line of another side already uses it.
A new line may share at most one cell with each finished line of its side and no cell with a
line of another side. Only windows through the new chip can become complete, so the work is
bounded: 4 directions x 6 windows x 6 cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from bot.games.pobeda.data import CORNERS, SIZE

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
LINE = 6
_CORNER_SET = frozenset(CORNERS)


class FinishedLine(Protocol):
    """A finished line (:class:`bot.games.pobeda.state.Line`): only its side is read here."""

    @property
    def side(self) -> int: ...


def _cell_ok(cell: int, side: int, owner: Sequence[int], line_sides: Mapping[int, set[int]]) -> bool:
    if cell in _CORNER_SET:
        return all(s == side for s in line_sides[cell])
    return owner[cell] == side


def _run(p: int, dr: int, dc: int, side: int, owner: Sequence[int],
         line_sides: Mapping[int, set[int]]) -> list[int]:
    """Cells usable by ``side`` through ``p`` along one direction, at most 5 each way."""
    r0, c0 = divmod(p, SIZE)
    before: list[int] = []
    for k in range(1, LINE):
        r, c = r0 - dr * k, c0 - dc * k
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            break
        cell = r * SIZE + c
        if not _cell_ok(cell, side, owner, line_sides):
            break
        before.append(cell)
    after: list[int] = []
    for k in range(1, LINE):
        r, c = r0 + dr * k, c0 + dc * k
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            break
        cell = r * SIZE + c
        if not _cell_ok(cell, side, owner, line_sides):
            break
        after.append(cell)
    return before[::-1] + [p] + after


def _window_allowed(window: Sequence[int], side: int, lines: Sequence[FinishedLine],
                    cell_lines: Sequence[list[int]]) -> bool:
    shared: dict[int, int] = {}
    for cell in window:
        for idx in cell_lines[cell]:
            if lines[idx].side != side:
                return False
            shared[idx] = shared.get(idx, 0) + 1
            if shared[idx] > 1:
                return False
    return True


def line_options(p: int, side: int, owner: Sequence[int], lines: Sequence[FinishedLine],
                 cell_lines: Sequence[list[int]]) -> list[list[list[list[int]]]]:
    """For each direction where the chip at ``p`` finishes something: the ways to do it.

    Returns a list (one entry per such direction) of options; an option is the list of
    windows (6 cells each) finished together. In one direction two windows through ``p``
    can both count only when they meet exactly at ``p`` (eleven in a row); that pair is then
    the only option. Otherwise each valid window is an option and the player picks one.
    Windows of different directions share only ``p``, so directions are independent.
    """
    line_sides = {c: {lines[i].side for i in cell_lines[c]} for c in CORNERS}
    result: list[list[list[list[int]]]] = []
    for dr, dc in DIRECTIONS:
        run = _run(p, dr, dc, side, owner, line_sides)
        if len(run) < LINE:
            continue
        at = run.index(p)
        windows: dict[int, list[int]] = {}
        for start in range(max(0, at - LINE + 1), min(at, len(run) - LINE) + 1):
            window = run[start:start + LINE]
            if _window_allowed(window, side, lines, cell_lines):
                windows[start] = window
        if not windows:
            continue
        pair_start = at - LINE + 1
        if pair_start in windows and at in windows and pair_start != at:
            result.append([[windows[pair_start], windows[at]]])
        else:
            result.append([[w] for _, w in sorted(windows.items())])
    return result
