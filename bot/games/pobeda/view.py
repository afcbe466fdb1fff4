"""What a seat (or the public) may see of a Pobeda game: the view ``bot/games/pobeda/render.py`` draws.

Everything here is public except ``hand`` (the seat's own cards), which only that seat's view
carries. Renderers and cogs read these, never the rules' state (``Pobeda.s``).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot.games.pobeda.data import CELLS, CHIPS_PER_SIDE, CORNERS, FREE, SIZE, card_order, cell_name
from bot.games.pobeda.state import PobedaState
from bot.games.pobeda.text import SIDE_COLOUR_KEYS, side_name

NAME_LANGS = ("ru", "en")


class ChipView(TypedDict):
    cell: str
    side: int
    locked: bool
    """Part of a finished line: it can no longer be removed or swapped."""


class LineView(TypedDict):
    side: int
    cells: list[str]


class SideView(TypedDict):
    side: int
    colour: str
    """The colour's key (``red``, ``blue``, ``green``); ``bot/games/pobeda/render.py`` maps it to pixels."""
    seats: list[int]
    supply: int
    name: dict[str, str]
    """The side's name by language."""


class ChoiceView(TypedDict):
    """A line choice the seat must make: each option is a list of windows (lists of cells)."""

    seat: int
    cell: str
    options: list[list[list[str]]]


class PenaltyView(TypedDict):
    side: int
    waiting: list[int]
    chosen: list[int]
    """Seats that have given their card (never which card)."""


class PobedaView(TypedDict):
    game: str
    size: int
    cells: list[str]
    layout: list[str | None]
    corners: list[str]
    chips: list[ChipView]
    lines: list[LineView]
    last_move: list[str]
    lines_per_side: list[int]
    required: int
    deck: int
    discard: list[str]
    hand_counts: list[int]
    seat_sides: list[int]
    sides: list[SideView]
    team_game: bool
    options: dict[str, Any]
    current: int | None
    """None once the game is over."""
    turn: int
    pending_choice: ChoiceView | None
    confirm: str | None
    """With an undo window (issue 27): the mover's move waits for its ✔ or the window's end, which draws its card
    (``turn``: then the turn passes; ``replace``: the replacement of a dead card, the turn goes on)."""
    penalty: PenaltyView | None
    outcome: dict[str, Any] | None
    seat: NotRequired[int]
    hand: NotRequired[list[str]]
    """The seat's own cards: only in that seat's view."""
    seat_names: NotRequired[list[str]]
    """Added by the session layer (display names by seat)."""


def supply(s: PobedaState, side: int) -> int:
    """Chips left in a side's supply (48 minus its chips on the board)."""
    return CHIPS_PER_SIDE - s.owner.count(side)


def lines_of(s: PobedaState, side: int) -> int:
    return sum(1 for line in s.lines if line.side == side)


def seats_of_side(s: PobedaState, side: int) -> list[int]:
    return [seat for seat, k in enumerate(s.seat_sides) if k == side]


def build(s: PobedaState, seat: int | None) -> PobedaView:
    """The view of ``seat``, or the public view (None or a number that is no seat)."""
    owner, locked = s.owner, s.locked
    pending = s.pending
    penalty = s.penalty
    team_game = bool(s.options.teams)
    view: PobedaView = {
        "game": "pobeda",
        "size": SIZE,
        "cells": [cell_name(i) for i in range(CELLS)],
        "layout": list(s.layout),
        "corners": [cell_name(c) for c in CORNERS],
        "chips": [{"cell": cell_name(i), "side": owner[i], "locked": locked[i]}
                  for i in range(CELLS) if owner[i] != FREE],
        "lines": [{"side": line.side, "cells": [cell_name(c) for c in line.cells]} for line in s.lines],
        "last_move": [cell_name(c) for c in s.last_move],
        "lines_per_side": [lines_of(s, k) for k in range(s.n_sides)],
        "required": s.required,
        "deck": len(s.deck),
        "discard": list(s.discard),
        "hand_counts": [len(h) for h in s.hands],
        "seat_sides": list(s.seat_sides),
        "sides": [{"side": k, "colour": SIDE_COLOUR_KEYS[k], "seats": seats_of_side(s, k),
                   "supply": supply(s, k),
                   "name": {lang: side_name(k, team_game, lang) for lang in NAME_LANGS}}
                  for k in range(s.n_sides)],
        "team_game": team_game,
        "options": s.options.to_json(),
        "current": s.current if s.outcome is None else None,
        "turn": s.turn,
        "pending_choice": None if pending is None else {
            "seat": pending.seat, "cell": cell_name(pending.cell),
            "options": [[[cell_name(c) for c in w] for w in opt] for opt in pending.queue[0]]},
        "confirm": s.confirm,
        "penalty": None if penalty is None else {
            "side": penalty.side, "waiting": list(penalty.waiting), "chosen": sorted(penalty.chosen)},
        "outcome": None if s.outcome is None else dict(s.outcome.to_json()),
    }
    if seat is not None and 0 <= seat < len(s.seat_sides):
        view["seat"] = seat
        view["hand"] = sorted(s.hands[seat], key=card_order)
    return view
