"""The words of a By All Means game: every action a seat may send and every event the rules tell, one
``TypedDict`` each, in the JSON form they are stored in (a ``TypedDict`` is a plain ``dict`` at run time, and
the key order below is the order the rules write them in, so stored logs read and replay byte for byte).

Actions (``{"type": ...}``; :data:`BamAction`): the opening's ``shuffle``, ``order`` and ``exchange``; the
answer to an effect's question, ``choose``; and the turn's actions of ``engine.TURN_ACTIONS``. Events
(``{"type": "bam.<kind>"}``; :data:`BamEvent`): one per kind, each text ``bam.ev.<kind>`` in
``data/i18n/byallmeans*.json``; an event with ``to`` is private to those seats.

The platform's contract speaks plain JSON (``bot.games.base.Action``/``Event``); :func:`json_actions` and
:func:`json_events` are where the typed words cross to it (no copy), and a listed action, which the rules
built, is read back as its own type by the move that takes it (``phases.move``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict, cast

from bot.games.base import Action, Event

Choice = str | int
"""An answer to an effect's question: a uid, a cell or an option's index, an archive ``"<seat>.main"``, a route
``"buffer:<sym>"``, a symbol's move ``"<src>:<sym>:<dst>"``, ``pass``, ``stay``, ``tap``..."""


# ---- actions --------------------------------------------------------------------------------------
class ShuffleAction(TypedDict):
    """«Соперник может перемешать каждый из архивов своего оппонента»: which of the rival's archives."""

    type: Literal["shuffle"]
    main: bool
    extra: bool


class OrderAction(TypedDict):
    """The seat the lot chose names the seat that takes the first turn."""

    type: Literal["order"]
    first: int


class ExchangeAction(TypedDict):
    """0-4 hand cards (uids, sorted) shuffled into the own extra archive."""

    type: Literal["exchange"]
    cards: list[str]


class ChooseAction(TypedDict):
    """The answer to the question the effect on top of the stack asks."""

    type: Literal["choose"]
    v: Choice


class DrawMainAction(TypedDict):
    type: Literal["draw_main"]


class SkipAction(TypedDict):
    """The first player's first turn: the action kept for a draw, skipped."""

    type: Literal["skip"]


class EndTurnAction(TypedDict):
    type: Literal["end_turn"]


class PlayAction(TypedDict):
    """A hand or buffer card put onto the field (``cell``), as a shadow of the own Agent of its name (``shadow``),
    replacing one of two own Agents (``replace``), face down (a graffigent as graffiti), or a plot played."""

    type: Literal["play"]
    uid: str
    cell: NotRequired[int]
    face_down: NotRequired[bool]
    shadow: NotRequired[str]
    replace: NotRequired[str]


class NumberAction(TypedDict):
    """A number combination: its sum and its cards (uids, sorted)."""

    type: Literal["number"]
    sum: int
    cards: list[str]


class SymbolsAction(TypedDict):
    """A symbol combination of two sources ``"<h|b|f>:<uid>:<symbol>"``."""

    type: Literal["symbols"]
    a: str
    b: str


class NeutralAction(TypedDict):
    """A neutral combination with the lilac card ``uid``."""

    type: Literal["neutral"]
    uid: str


AgentDoes = Literal["attack", "hunt", "inform", "ability"]


class AgentAction(TypedDict):
    """An order of the own Agent ``uid`` (``target``: the rival's Agent it hunts)."""

    type: Literal["agent"]
    uid: str
    do: AgentDoes
    target: NotRequired[str]


class CardAction(TypedDict):
    """``activate`` an object's ability, ``utilise`` or ``discard`` a hand card (none of them a main action
    in itself)."""

    type: Literal["activate", "utilise", "discard"]
    uid: str


SetupAction = ShuffleAction | OrderAction | ExchangeAction
TurnAct = (DrawMainAction | SkipAction | PlayAction | NumberAction | SymbolsAction | NeutralAction | AgentAction
           | CardAction | EndTurnAction)
BamAction = SetupAction | ChooseAction | TurnAct


# ---- events ---------------------------------------------------------------------------------------
class Outcome(TypedDict):
    """How a game ended: ``reasons`` among influence, trust, loyalty, loyalty_tie, stalemate."""

    winners: list[int]
    draw: bool
    reasons: list[str]


class Shuffled(TypedDict):
    type: Literal["bam.shuffled"]
    seat: int
    main: bool
    extra: bool


class SeatEvent(TypedDict):
    """``bam.lot`` (the seat that picks the order), ``bam.exchange_decided`` (that, not what), ``bam.end_turn``,
    ``bam.skip``."""

    type: Literal["bam.lot", "bam.exchange_decided", "bam.end_turn", "bam.skip"]
    seat: int


class Ordered(TypedDict):
    type: Literal["bam.order"]
    seat: int
    first: int


class ExchangeChosen(TypedDict):
    """Private to the seat that decided first: how many cards it chose."""

    type: Literal["bam.exchange_chosen"]
    to: list[int]
    n: int


class Exchanges(TypedDict):
    type: Literal["bam.exchanges"]
    counts: list[int]


class TurnBegins(TypedDict):
    type: Literal["bam.turn"]
    seat: int
    number: int


class Counter(TypedDict):
    """``bam.gain`` / ``bam.lose`` of ``res`` (``rep``, ``inf``, ``trust``)."""

    type: Literal["bam.gain", "bam.lose"]
    seat: int
    res: str
    n: int


class Amount(TypedDict):
    """``bam.excess`` (reputation over 21, paid in trust), ``bam.pay`` (a price), ``bam.lost_action``."""

    type: Literal["bam.excess", "bam.pay", "bam.lost_action"]
    seat: int
    n: int


class Loyalty(TypedDict):
    type: Literal["bam.loyalty"]
    uid: str
    code: str
    n: int


class Drawn(TypedDict):
    """Public: how many cards a seat drew from which archive."""

    type: Literal["bam.draw"]
    seat: int
    archive: str
    n: int


class Drew(TypedDict):
    """Private to the drawer: which cards."""

    type: Literal["bam.drew"]
    to: list[int]
    codes: list[str]


ToUtility = TypedDict("ToUtility", {"type": Literal["bam.utility"], "code": str, "seat": int, "from": str})
"""A card to its owner's utility pile, from the zone ``from`` (``hand``, ``main``, ``buffer``, ``field``...)."""


class AtCell(TypedDict):
    """``bam.flipped`` (a face-down graffigent stands up as an Agent), ``bam.attached`` (a lasting plot),
    ``bam.agent_moved``."""

    type: Literal["bam.flipped", "bam.attached", "bam.agent_moved"]
    seat: int
    code: str
    cell: int


class Placed(TypedDict):
    """A card onto a cell; a face-down graffigent's is private to its owner (``to``)."""

    type: Literal["bam.placed"]
    seat: int
    code: str
    cell: int
    to: NotRequired[list[int]]


class FaceDown(TypedDict):
    type: Literal["bam.face_down"]
    seat: int
    cell: int


class Buffered(TypedDict):
    type: Literal["bam.buffered"]
    seat: int
    code: str
    symbols: list[str]


class SeatCard(TypedDict):
    """``bam.shadow``, ``bam.plot`` (played, waiting in the neutral zone), ``bam.neutral``, ``bam.exposed``."""

    type: Literal["bam.shadow", "bam.plot", "bam.neutral", "bam.exposed"]
    seat: int
    code: str


class ActionLost(TypedDict):
    type: Literal["bam.action_lost"]
    seat: int
    which: str


class Over(TypedDict):
    """The end: :class:`Outcome` under the event's type."""

    type: Literal["bam.over"]
    winners: list[int]
    draw: bool
    reasons: list[str]


class NumberPlayed(TypedDict):
    type: Literal["bam.number"]
    seat: int
    sum: int
    combo: str
    codes: list[str]


class SymbolsPlayed(TypedDict):
    type: Literal["bam.symbols_played"]
    seat: int
    effect: str
    symbols: list[str]
    codes: list[str]


class AgentOrder(TypedDict):
    type: Literal["bam.agent"]
    seat: int
    code: str
    do: str


MoveTop = TypedDict("MoveTop", {"type": Literal["bam.move_top"], "seat": int, "from": str, "to_archive": str,
                                "n": int})
"""The top ``n`` cards of one archive of ``seat`` onto its other archive."""


class Chose(TypedDict):
    type: Literal["bam.chose"]
    seat: int
    key: str


class SymbolsSet(TypedDict):
    """A card's active symbols restored or cleared."""

    type: Literal["bam.symbols"]
    code: str
    symbols: list[str]


SymbolMoved = TypedDict("SymbolMoved", {"type": Literal["bam.symbol_moved"], "sym": str, "from": str,
                                        "to_code": str})

BamEvent = (Shuffled | SeatEvent | Ordered | ExchangeChosen | Exchanges | TurnBegins | Counter | Amount | Loyalty
            | Drawn | Drew | ToUtility | AtCell | Placed | FaceDown | Buffered | SeatCard | ActionLost | Over
            | NumberPlayed | SymbolsPlayed | AgentOrder | MoveTop | Chose | SymbolsSet | SymbolMoved)
Events = list[BamEvent]
"""What a move tells, in order (the rules append to it)."""


def json_events(events: Events) -> list[Event]:
    """The events as the platform's plain JSON (the same list: a ``TypedDict`` is a ``dict``)."""
    return cast(list[Event], events)


def json_actions(actions: Sequence[BamAction]) -> list[Action]:
    """Typed actions as the platform's plain JSON (the same dicts, in a list)."""
    return cast(list[Action], list(actions))


def over(result: Outcome) -> Over:
    """The end event of ``result`` (its keys after the type, in the result's order)."""
    return {"type": "bam.over", "winners": result["winners"], "draw": result["draw"], "reasons": result["reasons"]}

