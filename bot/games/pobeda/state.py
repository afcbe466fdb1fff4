"""The Pobeda state as typed records (slotted dataclasses with explicit ``to_json``/``from_json``).

The JSON form is the one stored since the first release (state version 2: the dead-card option and the
turn's ``replaced`` flag), key for key and in the same order, so a stored game loads and its log replays
to the same text. State version 3 adds the undo window (issue 27): the option ``undo_window`` and the
state's ``confirm`` are written only when set, so a game without the window (every game stored before it)
is stored exactly as before. Cells are indices ``row * 12 + column`` (:func:`bot.games.pobeda.data.cell_name` names
them); a side is 0, 1 or 2 (red, blue, green); ``FREE`` (−1) marks a cell without a chip.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Rng
from bot.games.pobeda.vocab import OutcomeRecord

JSON = dict[str, Any]

Window = list[int]
"""Six cells in a row: one finished line."""
LineOption = list[Window]
"""One way a chip finishes lines: the windows it completes together."""

OPTION_KEYS = ("lines", "teams", "dead", "layout", "undo_window")
"""The options in the lobby's order (as new games store them)."""


@dataclass(slots=True)
class Options:
    """The table's options: lines to win (1-3), teams (0: each for themselves, 2 or 3), the dead-card rule
    (``replace``: one replacement per turn; ``turn``: discarding a dead card is the turn), the layout
    (``chrono`` or ``shuffled``) and the undo window (seconds a move that draws waits for its player's
    confirmation; 0: the draw comes with the move, as before the window existed, and is not stored)."""

    lines: int = 1
    teams: int = 0
    dead: str = "replace"
    layout: str = "chrono"
    undo_window: int = 0
    order: tuple[str, ...] = field(default=OPTION_KEYS, compare=False)
    """The order the stored JSON names them in (older games stored them in another order)."""

    def to_json(self) -> JSON:
        values: JSON = {"lines": self.lines, "teams": self.teams, "dead": self.dead, "layout": self.layout,
                        "undo_window": self.undo_window}
        return {key: values[key] for key in self.order if key != "undo_window" or self.undo_window}

    @classmethod
    def from_json(cls, d: JSON) -> Options:
        order = tuple(key for key in d if key in OPTION_KEYS)
        order += tuple(key for key in OPTION_KEYS if key not in order)
        return cls(d.get("lines", 1), d.get("teams", 0), d.get("dead", "replace"), d.get("layout", "chrono"),
                   d.get("undo_window", 0), order)


@dataclass(slots=True)
class Line:
    """A finished line of ``side`` over six ``cells``."""

    side: int
    cells: Window

    def to_json(self) -> JSON:
        return {"side": self.side, "cells": list(self.cells)}

    @classmethod
    def from_json(cls, d: JSON) -> Line:
        return cls(d["side"], list(d["cells"]))


@dataclass(slots=True)
class LineChoice:
    """The chip ``seat`` just placed on ``cell`` finishes lines in more than one way: ``queue`` holds the
    choices still to make, one at a time, each a list of options (the first is open now)."""

    seat: int
    cell: int
    queue: list[list[LineOption]]

    def to_json(self) -> JSON:
        return {"seat": self.seat, "cell": self.cell,
                "queue": [[[list(w) for w in option] for option in choice] for choice in self.queue]}

    @classmethod
    def from_json(cls, d: JSON) -> LineChoice:
        return cls(d["seat"], d["cell"], [[[list(w) for w in option] for option in choice] for choice in d["queue"]])


@dataclass(slots=True)
class Penalty:
    """Team rule: ``side`` is penalised; each seat of ``waiting`` gives one card (``chosen``: seat -> card,
    in the order given; stored with the seat as a string, as JSON keys are)."""

    side: int
    waiting: list[int]
    chosen: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"side": self.side, "waiting": list(self.waiting),
                "chosen": {str(seat): card for seat, card in self.chosen.items()}}

    @classmethod
    def from_json(cls, d: JSON) -> Penalty:
        return cls(d["side"], list(d["waiting"]), {int(seat): card for seat, card in d["chosen"].items()})


@dataclass(slots=True)
class Outcome:
    """The result: the winning sides (several: a draw), why the game ended (``lines``: the required lines
    were built; ``cards``: the cards ran out) and each side's finished lines."""

    winners: list[int]
    draw: bool
    reason: str
    lines: list[int]

    def to_json(self) -> OutcomeRecord:
        return {"winners": list(self.winners), "draw": self.draw, "reason": self.reason, "lines": list(self.lines)}

    @classmethod
    def from_json(cls, d: JSON) -> Outcome:
        return cls(list(d["winners"]), d["draw"], d["reason"], list(d["lines"]))


@dataclass(slots=True)
class PobedaState:
    """One game: the board (``layout``: the event of each cell, None in the corners; ``owner``: the side of
    the chip on each cell; ``locked``: chips of finished lines), the cards, whose turn it is and what is open.

    ``required``: lines to win; ``dealer``: the seat that dealt (and moved first); ``turn``: the turn number;
    ``replaced``: the seat to move has replaced its dead card this turn; ``last_move``: the cells changed by
    the last play (drawn highlighted); ``confirm``: with an undo window, what the mover's confirmation will
    do (``turn``: draw, then the turn passes; ``replace``: draw the replacement, the turn goes on), None
    when nothing waits for it (stored only when set)."""

    options: Options
    seat_sides: list[int]
    n_sides: int
    required: int
    layout: list[str | None]
    owner: list[int]
    locked: list[bool]
    lines: list[Line]
    deck: list[str]
    hands: list[list[str]]
    discard: list[str]
    dealer: int
    current: int
    turn: int
    pending: LineChoice | None
    replaced: bool
    penalty: Penalty | None
    last_move: list[int]
    outcome: Outcome | None
    rng: Rng
    confirm: str | None = None

    def to_json(self) -> JSON:
        """The stored form (fresh lists and dicts throughout: nothing is shared with the live state)."""
        data: JSON = {
            "options": self.options.to_json(),
            "seat_sides": list(self.seat_sides),
            "n_sides": self.n_sides,
            "required": self.required,
            "layout": list(self.layout),
            "owner": list(self.owner),
            "locked": list(self.locked),
            "lines": [line.to_json() for line in self.lines],
            "deck": list(self.deck),
            "hands": [list(hand) for hand in self.hands],
            "discard": list(self.discard),
            "dealer": self.dealer,
            "current": self.current,
            "turn": self.turn,
            "pending": None if self.pending is None else self.pending.to_json(),
            "replaced": self.replaced,
            "penalty": None if self.penalty is None else self.penalty.to_json(),
            "last_move": list(self.last_move),
            "outcome": None if self.outcome is None else dict(self.outcome.to_json()),
            "rng": self.rng.to_json(),
        }
        if self.confirm is not None:
            data["confirm"] = self.confirm
        return data

    @classmethod
    def from_json(cls, d: JSON) -> PobedaState:
        """Inverse of :meth:`to_json` (the caller migrates older versions first: ``Pobeda.migrate_state``)."""
        pending, penalty, outcome = d["pending"], d["penalty"], d["outcome"]
        return cls(
            options=Options.from_json(d["options"]),
            seat_sides=list(d["seat_sides"]),
            n_sides=d["n_sides"],
            required=d["required"],
            layout=list(d["layout"]),
            owner=list(d["owner"]),
            locked=list(d["locked"]),
            lines=[Line.from_json(line) for line in d["lines"]],
            deck=list(d["deck"]),
            hands=[list(hand) for hand in d["hands"]],
            discard=list(d["discard"]),
            dealer=d["dealer"],
            current=d["current"],
            turn=d["turn"],
            pending=None if pending is None else LineChoice.from_json(pending),
            replaced=d["replaced"],
            penalty=None if penalty is None else Penalty.from_json(penalty),
            last_move=list(d["last_move"]),
            outcome=None if outcome is None else Outcome.from_json(outcome),
            rng=Rng.from_json(d["rng"]),
            confirm=d.get("confirm"),
        )
