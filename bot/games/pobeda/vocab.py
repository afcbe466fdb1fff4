"""Pobeda's actions and events as typed records (``TypedDict``: the JSON form is the dict itself).

Every action a seat sends has a ``type`` (the move) and the fields below; every event the rules emit has a
``type`` first and the fields below in the order they are built and stored (``to``, the seats a private
event is for, right after ``type``). Cells are named as on the board (``"C5"``); cards by their id
(``"ev001"``, ``"plus1_1"``...). The stored action log holds exactly these dicts.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# ---- actions ---------------------------------------------------------------------------------


class PlayAction(TypedDict):
    """Play ``card`` from the hand: an event card on its own cell (``cell`` may be left out), a special card
    (+1, −1, −1/+1) on the target ``cell``."""

    type: Literal["play"]
    card: str
    cell: NotRequired[str]


class ReplaceAction(TypedDict):
    """House rule: once per turn, before playing, discard the dead ``card`` and draw another; the turn goes on."""

    type: Literal["replace_dead"]
    card: str


class DiscardAction(TypedDict):
    """Discard the dead ``card`` as the whole turn (and draw)."""

    type: Literal["discard_dead"]
    card: str


class PassAction(TypedDict):
    """The turn passes (only an absent seat's timeout passes)."""

    type: Literal["pass"]


class ChooseLineAction(TypedDict):
    """Of the ways one chip finishes lines, take ``option`` (an index into the choice open now)."""

    type: Literal["choose_line"]
    option: int


class ConfirmAction(TypedDict):
    """With an undo window (issue 27): the mover confirms the move it made, which draws its card (and, after a
    play or a discard, passes the turn); the window's closing gives the same answer."""

    type: Literal["confirm"]


class PenaltyCardAction(TypedDict):
    """Team rule: the penalised seat gives ``card`` back to the deck."""

    type: Literal["penalty_card"]
    card: str


class PenaltyAction(TypedDict):
    """A moderator penalises team ``side`` (an admin action)."""

    type: Literal["penalty"]
    side: int


PobedaAction = (PlayAction | ReplaceAction | DiscardAction | PassAction | ChooseLineAction | ConfirmAction
                | PenaltyCardAction | PenaltyAction)

# ---- events ----------------------------------------------------------------------------------


class DrewEvent(TypedDict):
    """Private to the seat: it drew ``card``."""

    type: Literal["drew"]
    to: list[int]
    seat: int
    card: str


class PassedEvent(TypedDict):
    type: Literal["passed"]
    seat: int


class PlayedEvent(TypedDict):
    """``card`` of ``kind`` (``event``, ``plus1``, ``minus1``, ``swap``) played on ``cell``; ``event``: the
    event card's id (events only); ``victim``: the side whose chip was removed or swapped (−1, −1/+1)."""

    type: Literal["played"]
    seat: int
    side: int
    card: str
    kind: str
    cell: str
    event: NotRequired[str]
    victim: NotRequired[int]


class LineEvent(TypedDict):
    """``side`` finished a line over ``cells``; ``count``: its lines now."""

    type: Literal["line"]
    side: int
    cells: list[str]
    count: int


class LineChoiceEvent(TypedDict):
    """The chip on ``cell`` finishes lines in more than one way: ``seat`` chooses."""

    type: Literal["line_choice"]
    seat: int
    cell: str


class DiscardedEvent(TypedDict):
    type: Literal["discarded"]
    seat: int
    card: str


class ReplacedEvent(TypedDict):
    type: Literal["replaced"]
    seat: int
    card: str


class SkippedEvent(TypedDict):
    """``seat`` had no cards: its turn is skipped (``drew``: it drew one for later)."""

    type: Literal["skipped"]
    seat: int
    drew: bool


class PenaltyEvent(TypedDict):
    """Team ``side`` is penalised; ``seats``: those with cards, who each give one."""

    type: Literal["penalty"]
    side: int
    seats: list[int]


class PenaltyCardEvent(TypedDict):
    """Public: ``seat`` gave its penalty card (not which)."""

    type: Literal["penalty_card"]
    seat: int


class PenaltyCardPrivateEvent(TypedDict):
    """Private to the seat: the card it gave."""

    type: Literal["penalty_card_private"]
    to: list[int]
    seat: int
    card: str


class PenaltyDoneEvent(TypedDict):
    """Every card given: shuffled into the deck, now ``deck`` cards."""

    type: Literal["penalty_done"]
    side: int
    deck: int


class OutcomeRecord(TypedDict):
    """The result (``Game.outcome``): the winning sides, a draw, why (``lines``, ``cards``), lines per side."""

    winners: list[int]
    draw: bool
    reason: str
    lines: list[int]


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    winners: list[int]
    draw: bool
    reason: str
    lines: list[int]


PobedaEvent = (DrewEvent | PassedEvent | PlayedEvent | LineEvent | LineChoiceEvent | DiscardedEvent | ReplacedEvent
               | SkippedEvent | PenaltyEvent | PenaltyCardEvent | PenaltyCardPrivateEvent | PenaltyDoneEvent
               | GameOverEvent)
