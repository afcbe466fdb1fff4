"""The events of Godstorm, one ``TypedDict`` per event type (issue 24).

An event is what a move tells: the channel log, the replays and the texts (``text.py``) read it. Its JSON
form is the dict itself: ``{"type": ..., field: value, ...}`` in the order the fields are listed here, as
``apply`` returned it before the types existed. The moves build them (``Core._emit``); a private event
carries ``to``, the seats that may read it. Seats are ints (``NEUTRAL`` for the neutral armies), places are
territory or Underworld-space ids, gods are god kinds (``war``, ``sky``...), cards are card instance ids.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class Advance(TypedDict):
    type: Literal["advance"]
    seat: int
    frm: str
    dst: str


class AnswerPref(TypedDict):
    type: Literal["answer_pref"]
    to: list[int]
    never: bool


class AtlantisSunk(TypedDict):
    type: Literal["atlantis_sunk"]
    seat: int
    territories: list[str]


class AttackCalledOff(TypedDict):
    type: Literal["attack_called_off"]
    seat: int
    frm: str
    dst: str


class AttackDeclared(TypedDict):
    """An attack declared with an undo window (issue 27): its dice wait for the attacker's 🎲 or the window's end."""

    type: Literal["attack_declared"]
    seat: int
    frm: str
    dst: str
    dice: int
    until: int | None


class Banished(TypedDict):
    type: Literal["banished"]
    seat: int | None
    gods: list[str]
    territory: str
    reason: str


class BidSecret(TypedDict):
    type: Literal["bid_secret"]
    to: list[int]
    faith: int


class BidTie(TypedDict):
    type: Literal["bid_tie"]
    seats: list[int]
    rolls: list[dict[str, int]]
    order: list[int]


class BidsRevealed(TypedDict):
    type: Literal["bids_revealed"]
    bids: dict[str, int]


class BookOfTheDead(TypedDict):
    type: Literal["book_of_the_dead"]
    seat: int


class CardArmies(TypedDict):
    type: Literal["card_armies"]
    seat: int
    territory: str
    count: int


class CardCancelled(TypedDict):
    type: Literal["card_cancelled"]
    seat: int
    card: str
    by: int | None
    aegis: str


class CardDiscarded(TypedDict):
    type: Literal["card_discarded"]
    seat: int
    card: str


class CardGained(TypedDict):
    type: Literal["card_gained"]
    seat: int
    kind: str
    reason: str


class CardLosses(TypedDict):
    type: Literal["card_losses"]
    seat: int
    territory: str
    lost: int


class CardMoved(TypedDict):
    type: Literal["card_moved"]
    seat: int
    frm: str
    dst: str
    count: int
    gods: list[str]
    owner: NotRequired[int | None]


class CardPlayed(TypedDict):
    type: Literal["card_played"]
    seat: int
    card: str
    cost: int
    args: dict[str, Any]


class CardPrivate(TypedDict):
    type: Literal["card_private"]
    to: list[int]
    card: str


class CardTaken(TypedDict):
    type: Literal["card_taken"]
    seat: int
    frm: int
    kind: str


class CardsBought(TypedDict):
    type: Literal["cards_bought"]
    seat: int
    kind: str
    count: int
    cost: int


class CardsRead(TypedDict):
    type: Literal["cards_read"]
    to: list[int]
    cards: list[str]


class Champion(TypedDict):
    type: Literal["champion"]
    seat: int
    god: str


class Claimed(TypedDict):
    type: Literal["claimed"]
    seat: int
    territory: str


class Conquered(TypedDict):
    type: Literal["conquered"]
    seat: int
    frm: str
    dst: str
    count: int
    previous: int | None
    gods: list[str]
    temple: bool


class ContinentDrawn(TypedDict):
    type: Literal["continent_drawn"]
    continent: str


class DeadRise(TypedDict):
    type: Literal["dead_rise"]
    seat: int
    space: str
    territory: str
    count: int


class Dealt(TypedDict):
    type: Literal["dealt"]


class DefenceAsked(TypedDict):
    type: Literal["defence_asked"]
    seat: int
    attacker: int
    frm: str
    dst: str
    dice: int


class DefenceChosen(TypedDict):
    type: Literal["defence_chosen"]
    seat: int
    dice: int


class Descended(TypedDict):
    type: Literal["descended"]
    seat: int
    space: str
    count: int


class DicePref(TypedDict):
    type: Literal["dice_pref"]
    to: list[int]
    pref: str


class Die(TypedDict):
    type: Literal["die"]
    seat: int
    value: int
    territory: NotRequired[str]


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    seat: int
    by: int


class Emptied(TypedDict):
    type: Literal["emptied"]
    territory: str
    previous: int


class EpochBack(TypedDict):
    type: Literal["epoch_back"]
    seat: int
    epoch: int


class EpochStart(TypedDict):
    type: Literal["epoch_start"]
    epoch: int


class FaithGained(TypedDict):
    type: Literal["faith_gained"]
    seat: int
    n: int


class Fortified(TypedDict):
    type: Literal["fortified"]
    seat: int
    frm: str
    dst: str
    count: int
    gods: list[str]


class GameOver(TypedDict):
    type: Literal["game_over"]
    winners: list[int]
    scores: NotRequired[dict[str, int]]


class GodsHeld(TypedDict):
    type: Literal["gods_held"]
    to: list[int]
    seat: int
    territory: str
    god: str
    hold: bool


class Godswar(TypedDict):
    type: Literal["godswar"]
    seat: int
    defender: int
    att_god: str
    def_god: str
    att_dice: list[int]
    def_dice: list[int]
    att_total: int
    def_total: int
    winner: int
    banished: str
    loser: int


class GodswarStart(TypedDict):
    type: Literal["godswar_start"]
    seat: int
    frm: str
    dst: str
    defender: int | None


class HandDiscarded(TypedDict):
    type: Literal["hand_discarded"]
    seat: int
    n: int


class HandShown(TypedDict):
    type: Literal["hand_shown"]
    to: list[int]
    seat: int
    cards: list[str]


class HasBid(TypedDict):
    type: Literal["has_bid"]
    seat: int


class Income(TypedDict):
    type: Literal["income"]
    seat: int
    armies: int
    faith: int
    temples: int
    continents: list[str]


class InvasionStopped(TypedDict):
    type: Literal["invasion_stopped"]
    seat: int | None
    frm: str | None
    dst: str | None


class Maelstrom(TypedDict):
    type: Literal["maelstrom"]
    seat: int
    a: str
    b: str


class NeutralPantheon(TypedDict):
    type: Literal["neutral_pantheon"]
    pantheon: str


class NoAnswer(TypedDict):
    type: Literal["no_answer"]
    seat: int
    kind: str


class OrderPicked(TypedDict):
    type: Literal["order_picked"]
    seat: int
    position: int


class OrderRoll(TypedDict):
    type: Literal["order_roll"]
    rolls: list[dict[str, int]]
    order: list[int]


class PantheonPicked(TypedDict):
    type: Literal["pantheon_picked"]
    seat: int
    pantheon: str


class PilePicked(TypedDict):
    type: Literal["pile_picked"]
    seat: int
    pile: int
    territories: list[str]


class PilesDealt(TypedDict):
    type: Literal["piles_dealt"]


class Placed(TypedDict):
    type: Literal["placed"]
    seat: int
    territory: str
    count: int


class PlacedAuto(TypedDict):
    type: Literal["placed_auto"]
    seat: int
    counts: dict[str, int]
    n: int


class PlacedNeutral(TypedDict):
    type: Literal["placed_neutral"]
    seat: int
    territory: str


class PlagueLoss(TypedDict):
    type: Literal["plague_loss"]
    seat: int
    territory: str
    lost: int


class PlagueMoved(TypedDict):
    type: Literal["plague_moved"]
    frm: str
    dst: str


class PlaguePlaced(TypedDict):
    type: Literal["plague_placed"]
    territory: str


class PlagueRemoved(TypedDict):
    type: Literal["plague_removed"]
    territory: str


class PlagueSet(TypedDict):
    type: Literal["plague_set"]
    territories: list[str]


class RelicArmies(TypedDict):
    type: Literal["relic_armies"]
    seat: int
    card: str
    n: int


class RelicDestroyed(TypedDict):
    type: Literal["relic_destroyed"]
    seat: int
    card: str


class RelicFaith(TypedDict):
    type: Literal["relic_faith"]
    seat: int
    card: str
    n: int


class RelicInPlay(TypedDict):
    type: Literal["relic_in_play"]
    seat: int
    card: str


class RelicStolen(TypedDict):
    type: Literal["relic_stolen"]
    seat: int
    frm: int
    card: str


class Resurrected(TypedDict):
    type: Literal["resurrected"]
    seat: int
    space: str
    territory: str


class Retreat(TypedDict):
    type: Literal["retreat"]
    seat: int
    frm: str
    dst: str


class Roll(TypedDict):
    type: Literal["roll"]
    seat: int
    defender: int
    frm: str
    dst: str
    att: list[int]
    dfn: list[int]
    att_loss: int
    def_loss: int


class Summoned(TypedDict):
    type: Literal["summoned"]
    seat: int
    god: str
    territory: str
    cost: int


class Swapped(TypedDict):
    type: Literal["swapped"]
    seat: int
    a: str
    b: str


class TcardDrawn(TypedDict):
    type: Literal["tcard_drawn"]
    seat: int


class TcardPrivate(TypedDict):
    type: Literal["tcard_private"]
    to: list[int]
    card: str


class TcardsTaken(TypedDict):
    type: Literal["tcards_taken"]
    seat: int
    frm: int
    count: int


class TempleBuilt(TypedDict):
    type: Literal["temple_built"]
    seat: int
    territory: str
    cost: int


class TempleDestroyed(TypedDict):
    type: Literal["temple_destroyed"]
    seat: int
    territory: str


class TempleMoved(TypedDict):
    type: Literal["temple_moved"]
    seat: int
    frm: str
    dst: str


class TemplePlaced(TypedDict):
    type: Literal["temple_placed"]
    seat: int
    territory: str


class Traded(TypedDict):
    type: Literal["traded"]
    seat: int
    cards: list[str]
    armies: int
    bonus_territory: str | None


class TreeOfLife(TypedDict):
    type: Literal["tree_of_life"]
    seat: int
    n: int


class Trojan(TypedDict):
    type: Literal["trojan"]
    seat: int
    territory: str
    previous: int
    count: int


class TurnEnd(TypedDict):
    type: Literal["turn_end"]
    seat: int


class TurnOrder(TypedDict):
    type: Literal["turn_order"]
    order: list[int]


class WindowOpen(TypedDict):
    type: Literal["window_open"]
    kind: str
    seat: int
    frm: NotRequired[str]
    dst: NotRequired[str]
    card: NotRequired[str | None]


GodstormEvent = (
    Advance | AnswerPref | AtlantisSunk | AttackCalledOff | AttackDeclared | Banished | BidSecret | BidTie | BidsRevealed |
    BookOfTheDead | CardArmies | CardCancelled | CardDiscarded | CardGained | CardLosses | CardMoved |
    CardPlayed | CardPrivate | CardTaken | CardsBought | CardsRead | Champion | Claimed | Conquered |
    ContinentDrawn | DeadRise | Dealt | DefenceAsked | DefenceChosen | Descended | DicePref | Die |
    Eliminated | Emptied | EpochBack | EpochStart | FaithGained | Fortified | GameOver | GodsHeld |
    Godswar | GodswarStart | HandDiscarded | HandShown | HasBid | Income | InvasionStopped | Maelstrom |
    NeutralPantheon | NoAnswer | OrderPicked | OrderRoll | PantheonPicked | PilePicked | PilesDealt |
    Placed | PlacedAuto | PlacedNeutral | PlagueLoss | PlagueMoved | PlaguePlaced | PlagueRemoved |
    PlagueSet | RelicArmies | RelicDestroyed | RelicFaith | RelicInPlay | RelicStolen | Resurrected |
    Retreat | Roll | Summoned | Swapped | TcardDrawn | TcardPrivate | TcardsTaken | TempleBuilt |
    TempleDestroyed | TempleMoved | TemplePlaced | Traded | TreeOfLife | Trojan | TurnEnd | TurnOrder |
    WindowOpen
)
"""Any event of the game."""
