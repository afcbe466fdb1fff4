"""The actions of Godstorm, one ``TypedDict`` per action type (issue 24), and the check of their shape.

An action is what a seat sends: a control's value, a slash command's, a bot's, a line of the action log. Its
JSON form is the dict itself, ``{"type": ..., field: value, ...}``, exactly as the legal actions list it
(``Godstorm.legal_actions``). Before a move reads an action, ``Godstorm.apply`` checks it against the shape
of its type (:func:`well_formed`): every listed field there, and of its JSON kind. A malformed action is
refused as a bad action and changes nothing; whether its values are allowed now is the move's business.

A number may also come as decimal digits (a slash command's text): the moves read numbers with
``core.as_int``, which refuses anything else in the move's own words.

(No ``from __future__ import annotations`` here: ``TypedDict`` must see ``NotRequired`` to tell the
required fields, and :data:`SHAPES` reads the annotations at import.)
"""

import types
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

# ---- the set-up -------------------------------------------------------------------------------------------


class PickPantheonAction(TypedDict):
    type: Literal["pick_pantheon"]
    pantheon: str


class PickPileAction(TypedDict):
    type: Literal["pick_pile"]
    pile: int
    """Index into ``State.piles``."""


class PlaceAction(TypedDict):
    """Armies onto an own territory: a claim (one army, ``count`` left out or 1), the set-up rounds, a turn's
    new armies."""

    type: Literal["place"]
    territory: str
    count: NotRequired[int]


class PlaceAllAction(TypedDict):
    type: Literal["place_all"]
    territory: str


class PlaceAutoAction(TypedDict):
    type: Literal["place_auto"]


class PlaceNeutralAction(TypedDict):
    type: Literal["place_neutral"]
    territory: str


class SummonAction(TypedDict):
    type: Literal["summon"]
    territory: str
    god: str


class BuildTempleAction(TypedDict):
    type: Literal["build_temple"]
    territory: str


# ---- each epoch -------------------------------------------------------------------------------------------
class BidAction(TypedDict):
    type: Literal["bid"]
    faith: int


class PickOrderAction(TypedDict):
    type: Literal["pick_order"]
    position: int


# ---- a turn -----------------------------------------------------------------------------------------------
class ResurrectAction(TypedDict):
    type: Literal["resurrect"]
    space: str
    territory: str


class TradeAction(TypedDict):
    """Classic territory cards for armies; ``bonus``: the matching territory that gets the +2, when several do."""

    type: Literal["trade"]
    cards: list[str]
    bonus: NotRequired[str]


class BuyCardsAction(TypedDict):
    type: Literal["buy_cards"]
    deck: str
    count: int


AttackAction = TypedDict("AttackAction", {"type": Literal["attack"], "from": str, "to": str, "dice": int})
AttackUntilAction = TypedDict("AttackUntilAction", {
    "type": Literal["attack_until"], "from": str, "to": str, "dice": int, "stop_at": int})
"""Attack again and again until the target falls or ``stop_at`` armies are left (``from`` is a keyword)."""
FortifyAction = TypedDict("FortifyAction", {
    "type": Literal["fortify"], "from": str, "to": str, "count": int, "gods": list[str]})


class DescendAction(TypedDict):
    type: Literal["descend"]
    space: str
    count: int


class EndStepAction(TypedDict):
    type: Literal["end_step"]


class EndAttacksAction(TypedDict):
    type: Literal["end_attacks"]


class EndTurnAction(TypedDict):
    type: Literal["end_turn"]


class HoldGodAction(TypedDict):
    type: Literal["hold_god"]
    territory: str
    god: str
    hold: bool


class ChampionAction(TypedDict):
    type: Literal["champion"]
    god: str


class RetreatAction(TypedDict):
    type: Literal["retreat"]


class MoveInAction(TypedDict):
    type: Literal["move_in"]
    count: int


# ---- miracle cards ----------------------------------------------------------------------------------------
PlayCardAction = TypedDict("PlayCardAction", {
    "type": Literal["play_card"], "card": str,
    # the card's target, as its kind asks (``MiracleMixin._target_args``)
    "seat": NotRequired[int], "territory": NotRequired[str], "territories": NotRequired[list[str]],
    "from": NotRequired[str], "to": NotRequired[str], "space": NotRequired[str], "count": NotRequired[int],
    "gods": NotRequired[list[str]], "god": NotRequired[str], "a": NotRequired[str], "b": NotRequired[str],
    "deck": NotRequired[str], "deck2": NotRequired[str], "relic": NotRequired[str]})


class BookOfTheDeadAction(TypedDict):
    type: Literal["book_of_the_dead"]


class NoAnswerAction(TypedDict):
    type: Literal["no_answer"]
    never: NotRequired[bool]
    """True: and never ask again (the standing preference)."""


class CancelCardAction(TypedDict):
    type: Literal["cancel_card"]


class TakeCardAction(TypedDict):
    type: Literal["take_card"]
    card: str
    """A card id (not an instance): the hand it is taken from shows only kinds."""


# ---- the rulebook's choices and the standing preferences -------------------------------------------------
class DefendAction(TypedDict):
    type: Literal["defend"]
    dice: int


class DicePrefAction(TypedDict):
    type: Literal["dice_pref"]
    pref: str
    """``most``, ``one`` or ``ask``."""


class AnswerPrefAction(TypedDict):
    type: Literal["answer_pref"]
    never: bool


class RollAction(TypedDict):
    """The dice of the attack the player declared (issue 27's undo window): thrown on 🎲 or when it closes."""

    type: Literal["roll"]


GodstormAction = (
    PickPantheonAction | PickPileAction | PlaceAction | PlaceAllAction | PlaceAutoAction | PlaceNeutralAction
    | SummonAction | BuildTempleAction | BidAction | PickOrderAction | ResurrectAction | TradeAction
    | BuyCardsAction | AttackAction | AttackUntilAction | FortifyAction | DescendAction | EndStepAction
    | EndAttacksAction | EndTurnAction | HoldGodAction | ChampionAction | RetreatAction | MoveInAction
    | PlayCardAction | BookOfTheDeadAction | NoAnswerAction | CancelCardAction | TakeCardAction | DefendAction
    | DicePrefAction | AnswerPrefAction | RollAction
)
"""Any action of the game."""

SHAPES: dict[str, tuple[dict[str, Any], frozenset[str]]] = {
    get_args(get_type_hints(cls)["type"])[0]: (get_type_hints(cls), frozenset(cls.__required_keys__))
    for cls in get_args(GodstormAction)
}
"""Action type -> (field -> its annotation, the required fields)."""


def _fits(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:  # a number, or its digits as text: ``core.as_int`` reads both
        return isinstance(value, int | str)
    if hint is str:
        return isinstance(value, str)
    if origin is list:
        return isinstance(value, list) and all(_fits(v, get_args(hint)[0]) for v in value)
    if origin is Literal:
        return value in get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, h) for h in get_args(hint))
    return hint is type(None) and value is None


def well_formed(action: Any) -> bool:
    """Whether ``action`` has the shape of its type: a dict of a known type, with each required field, and
    each field listed for the type of its kind (fields not listed are ignored, as the moves ignore them)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) or action["type"] not in SHAPES:
        return False
    hints, required = SHAPES[action["type"]]
    return required <= action.keys() and all(_fits(v, hints[k]) for k, v in action.items() if k in hints)


__all__ = [name for name in dir() if name.endswith("Action")] + ["SHAPES", "well_formed"]
